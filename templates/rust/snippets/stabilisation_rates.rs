{# Baumgarte stabilisation of closed-form rates: g = C^-1 k moves the velocities' rates by
   -g_b Z_b, and (dynamics) the multipliers by -g and the energy rate by g_b P_b. #}
for b in 0..{{ rows }} {
    let mut g: Real = 0.0;
    for a in 0..{{ rows }} {
        g += bc_[b * {{ rows }} + a] * bk_[a];
    }
    for k in 0..{{ velocities }} {
        xdot[{{ offset }} + k] -= g * bz_[b * {{ velocities }} + k];
    }
{% if dynamics %}
    lambda[b] -= g;
    energy[1] += g * bp_[b];
{% endif %}
}
