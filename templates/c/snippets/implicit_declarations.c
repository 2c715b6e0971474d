{# Before the program of a function that solves the implicit form: the call of `implicit`
   that fills the work arrays, and the scalars the solve writes. Blank lines are dropped. #}
{ const int status = {{ prefix }}_implicit(t, x, p, u, f, w_, a_, {% if r > 0 %}mu_, beta_{% else %}NULL, NULL{% endif %}); if (status != 0) return status; }
{% if dynamics %}
dalembert_real rate_;
{% if kinetic_from_mass %}
dalembert_real energy0_;
{% endif %}
{% endif %}
