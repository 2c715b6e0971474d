{# The residual of the acceleration-level constraints, d/dt psi = dpsi . (1, xdot), from the
   derivatives the program wrote into dpsi_. #}
for c in 0..{{ rows }} {
    let mut rate: Real = dpsi_[c * {{ stride }}];
    for k in 0..{{ state_len }} {
        rate += dpsi_[c * {{ stride }} + 1 + k] * xdot[k];
    }
    acceleration_residual[c] = rate;
}
