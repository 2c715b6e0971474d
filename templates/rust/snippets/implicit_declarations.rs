{# Before the program of a function that solves the implicit form: the call of `implicit`
   that fills the work arrays, and the scalars the solve writes. Blank lines are dropped. #}
{% if r == 0 %}
let mut mu_: [Real; 0] = [];
let mut beta_: [Real; 0] = [];
{% endif %}
implicit(t, x, p, u, f, &mut w_, &mut a_, &mut mu_, &mut beta_)?;
{% if dynamics %}
let rate_: Real;
{% if kinetic_from_mass %}
let energy0_: Real;
{% endif %}
{% endif %}
