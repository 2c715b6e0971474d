{# One step of the variational integrator (report::DiscreteStep), after the declarations of its
   arrays: momentum_[n] (p_k), predictor_[u], z_[N+u+1] (q_k, v_k, the u unknowns, h), r_[u]
   (the residual: p_k(unknowns) - p_k, then the r discrete constraints; then the correction),
   newton_[u*u] (zero outside its band newton_lower, newton_upper), w_[n*n] (zero outside its
   band mass_band), a_[n]. Newton's method from the predictor stops when a correction is
   within the tolerance, or within 1024 times it and no longer halving (round-off reached). The velocities of x_next are p_{k+1} - a, then solved by W (with
   constraints, on them: W v + mu^T nu = p_{k+1} - a, mu v = beta, by the Schur
   complement, with mu_[r*n], beta_[r], y_[r*n], s_[r*r], nu_[r]). A contact system's state
   ends with the action z, which discrete_recover writes last. #}
for (int k = 0; k < {{ state }}; k++) z_[k] = x[k];
z_[{{ state + u }}] = h;
int status = {{ prefix }}_discrete_momentum(t, z_, p, u, NULL, momentum_, predictor_);
if (status != 0) return status;
for (int k = 0; k < {{ u }}; k++) z_[{{ state }} + k] = predictor_[k];
dalembert_real previous_ = 0;
for (int iteration = 0;; iteration++) {
    if (iteration == {{ upper }}_STEP_ITERATIONS) return -2;
    status = {{ prefix }}_discrete_residual(t, z_, p, u, NULL, r_, {% if r > 0 %}r_ + {{ n }}, {% endif %}newton_);
    if (status != 0) return status;
    for (int k = 0; k < {{ n }}; k++) r_[k] -= momentum_[k];
    if (dalembert_lu_solve(newton_, {{ u }}, {{ newton_lower }}, {{ newton_upper }}, r_) != 0) return -1;
    dalembert_real size = 0;
    dalembert_real scale = 1;
    for (int k = 0; k < {{ u }}; k++) {
        const dalembert_real c = {{ fabs }}(r_[k]);
        if (!(c <= {{ largest }})) return -2;
        if (c > size) size = c;
        z_[{{ state }} + k] -= r_[k];
        if ({{ fabs }}(z_[{{ state }} + k]) > scale) scale = {{ fabs }}(z_[{{ state }} + k]);
    }
    const dalembert_real tolerance = {{ upper }}_STEP_TOLERANCE * {{ epsilon }} * scale;
    if (size <= tolerance) break;
    if (iteration > 0 && size <= 1024 * tolerance && size > previous_ / 2) break;
    previous_ = size;
}
status = {{ prefix }}_discrete_recover(t, z_, p, u, NULL, {% if m > 0 %}x_next, {% endif %}x_next + {{ m }}, w_, a_{% if r > 0 %}, mu_, beta_{% endif %}{% if action %}, x_next + {{ m + n }}{% endif %});
if (status != 0) return status;
for (int k = 0; k < {{ n }}; k++) x_next[{{ m }} + k] -= a_[k];
if (dalembert_ldl_factor(w_, {{ n }}, {{ mass_band }}) != 0) return -3;
dalembert_ldl_solve(w_, {{ n }}, {{ mass_band }}, x_next + {{ m }});
{% if r > 0 %}
if (dalembert_schur_solve(w_, {{ n }}, mu_, beta_, {{ r }}, y_, s_, nu_, x_next + {{ m }}) != 0) return -3;
{% endif %}
return 0;
