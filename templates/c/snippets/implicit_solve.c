{# After the program has filled W, b, mu, beta: the kinetic energy, the factorisation and the
   solve for the accelerations and the multipliers (the kernels of system.c), then the copies
   into the outputs, or, for a Jacobian by implicit differentiation, one solve per column
   into `jac`. Blank lines are dropped. #}
{% if kinetic_from_mass %}
energy[0] = energy0_ + dalembert_kinetic_energy(w_, {{ n }}, x + {{ m }});
{% endif %}
if (dalembert_ldl_factor(w_, {{ n }}, {{ n - 1 }}) != 0) return -1;
dalembert_ldl_solve(w_, {{ n }}, {{ n - 1 }}, a_);
{% if r > 0 %}
if (dalembert_schur_solve(w_, {{ n }}, mu_, beta_, {{ r }}, y_, s_, l_, a_) != 0) return -1;
{% endif %}
{% if jacobian is iterable %}
{% if jacobian | length > 0 %}
{ static const int at_[{{ jacobian | length }}] = { {{- jacobian | join(sep=", ") -}} };
for (int b = 0; b < {{ jacobian | length }}; b++) {
    for (int k = 0; k < {{ n }}; k++) {
        dalembert_real v = db_[b * {{ n }} + k];
        for (int i = 0; i < {{ n }}; i++) v -= dw_[b * {{ n * n }} + k * {{ n }} + i] * a_[i];
{% if r > 0 %}
        for (int c = 0; c < {{ r }}; c++) v -= dmu_[b * {{ r * n }} + c * {{ n }} + k] * l_[c];
{% endif %}
        v_[k] = v;
    }
{% if r > 0 %}
    for (int c = 0; c < {{ r }}; c++) {
        dalembert_real v = dbeta_[b * {{ r }} + c];
        for (int i = 0; i < {{ n }}; i++) v -= dmu_[b * {{ r * n }} + c * {{ n }} + i] * a_[i];
        sb_[c] = v;
    }
{% endif %}
    dalembert_ldl_solve(w_, {{ n }}, {{ n - 1 }}, v_);
{% if r > 0 %}
    if (dalembert_schur_solve(w_, {{ n }}, mu_, sb_, {{ r }}, y_, s_, dl_, v_) != 0) return -1;
{% endif %}
    for (int k = 0; k < {{ n }}; k++) jac[at_[b] + k] = v_[k];
} }
{% endif %}
{% else %}
for (int k = 0; k < {{ n }}; k++) xdot[{{ m }} + k] = a_[k];
{% if dynamics %}
energy[1] = rate_;
{% if r > 0 %}
for (int c = 0; c < {{ r }}; c++) {
    lambda[c] = l_[c];
    energy[1] -= l_[c] * power_[c];
}
{% endif %}
{% endif %}
{% endif %}
