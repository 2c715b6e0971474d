{# The residual of the acceleration-level constraints, d/dt psi = dpsi . (1, xdot), from the
   derivatives the program wrote into dpsi_. #}
for (int c = 0; c < {{ rows }}; c++) {
    dalembert_real rate = dpsi_[c * {{ stride }}];
    for (int k = 0; k < {{ state_len }}; k++) rate += dpsi_[c * {{ stride }} + 1 + k] * xdot[k];
    acceleration_residual[c] = rate;
}
