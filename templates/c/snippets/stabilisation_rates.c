{# Baumgarte stabilisation of closed-form rates: g = C^-1 k moves the velocities' rates by
   -g_b Z_b, and (dynamics) the multipliers by -g and the energy rate by g_b P_b. #}
for (int b = 0; b < {{ rows }}; b++) {
    dalembert_real g = 0;
    for (int a = 0; a < {{ rows }}; a++) g += bc_[b * {{ rows }} + a] * bk_[a];
    for (int k = 0; k < {{ velocities }}; k++) xdot[{{ offset }} + k] -= g * bz_[b * {{ velocities }} + k];
{% if dynamics %}
    lambda[b] -= g;
    energy[1] += g * bp_[b];
{% endif %}
}
