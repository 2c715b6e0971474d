{# One step of the variational integrator (report::DiscreteStep), after the declarations of its
   arrays (see the C snippet). Returns the Newton iterations taken. #}
z_[..{{ state }}].copy_from_slice(x);
z_[{{ state + u }}] = h;
discrete_momentum(t, &z_, p, u, &[], &mut momentum_, &mut predictor_).map_err(StepError::Singular)?;
z_[{{ state }}..{{ state + u }}].copy_from_slice(&predictor_);
let mut previous_: Real = 0.0;
let mut iterations = 0;
loop {
    if iterations == STEP_ITERATIONS { return Err(StepError::NotConverged); }
    iterations += 1;
{% if r > 0 %}
    let mut constraint_: [Real; {{ r }}] = [0.0; {{ r }}];
    let mut start_: [Real; {{ n }}] = [0.0; {{ n }}];
    discrete_residual(t, &z_, p, u, &[], &mut start_, &mut constraint_, &mut newton_).map_err(StepError::Singular)?;
    r_[..{{ n }}].copy_from_slice(&start_);
    r_[{{ n }}..].copy_from_slice(&constraint_);
{% else %}
    discrete_residual(t, &z_, p, u, &[], &mut r_, &mut newton_).map_err(StepError::Singular)?;
{% endif %}
    for k in 0..{{ n }} { r_[k] -= momentum_[k]; }
    if !lu_solve(&mut newton_, {{ u }}, {{ newton_lower }}, {{ newton_upper }}, &mut r_) { return Err(StepError::NewtonSingular); }
    let mut size: Real = 0.0;
    let mut scale: Real = 1.0;
    for k in 0..{{ u }} {
        let c = r_[k].abs();
        if !(c <= Real::MAX) { return Err(StepError::NotConverged); }
        size = size.max(c);
        z_[{{ state }} + k] -= r_[k];
        scale = scale.max(z_[{{ state }} + k].abs());
    }
    let tolerance = STEP_TOLERANCE * Real::EPSILON * scale;
    if size <= tolerance { break; }
    if iterations > 1 && size <= 1024.0 * tolerance && size > previous_ / 2.0 { break; }
    previous_ = size;
}
{% if m > 0 %}
let mut position_: [Real; {{ m }}] = [0.0; {{ m }}];
{% endif %}
let mut momentum_next_: [Real; {{ n }}] = [0.0; {{ n }}];
{% if action %}
let mut action_: [Real; 1] = [0.0; 1];
{% endif %}
discrete_recover(t, &z_, p, u, &[], {% if m > 0 %}&mut position_, {% endif %}&mut momentum_next_, &mut w_, &mut a_{% if r > 0 %}, &mut mu_, &mut beta_{% endif %}{% if action %}, &mut action_{% endif %}).map_err(StepError::Singular)?;
{% if m > 0 %}
x_next[..{{ m }}].copy_from_slice(&position_);
{% endif %}
for k in 0..{{ n }} { x_next[{{ m }} + k] = momentum_next_[k] - a_[k]; }
{% if action %}
x_next[{{ m + n }}] = action_[0];
{% endif %}
if !ldl_factor(&mut w_, {{ n }}, {{ mass_band }}) { return Err(StepError::MassSingular); }
ldl_solve(&w_, {{ n }}, {{ mass_band }}, &mut x_next[{{ m }}..{% if action %}{{ m + n }}{% endif %}]);
{% if r > 0 %}
if !schur_solve(&w_, {{ n }}, &mu_, &beta_, {{ r }}, &mut y_, &mut s_, &mut nu_, &mut x_next[{{ m }}..]) { return Err(StepError::MassSingular); }
{% endif %}
Ok(iterations)
