{# A projection onto the constraints: copy the state, then `iterations` times evaluate the
   constraints (`call`) at the current state and take one Gauss-Newton step on the `columns`
   entries from `offset`. #}
for (int k = 0; k < {{ state_len }}; k++) projected[k] = x[k];
for (int step = 0; step < {% if once %}1{% else %}{{ prefix | upper }}_PROJECTION_ITERATIONS{% endif %}; step++) {
    const int status = {{ prefix }}_{{ call }}(t, projected, p, u, f, g_, jac_);
    if (status != 0) return status;
    if (dalembert_gauss_newton(jac_, g_, {{ rows }}, {{ columns }}, s_, projected + {{ offset }}) != 0) return -1;
}
