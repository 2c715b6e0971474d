{# After the program has filled W, b, mu, beta: the kinetic energy, the factorisation and the
   solve for the accelerations and the multipliers (the kernels of system.rs), then the copies
   into the outputs, or, for a Jacobian by implicit differentiation, one solve per column
   into `jac`. Blank lines are dropped. #}
{% if kinetic_from_mass %}
energy[0] = energy0_ + kinetic_energy(&w_, {{ n }}, &x[{{ m }}..{{ m }} + {{ n }}]);
{% endif %}
if !ldl_factor(&mut w_, {{ n }}, {{ n - 1 }}) { return Err(SingularAt(0)); }
ldl_solve(&w_, {{ n }}, {{ n - 1 }}, &mut a_);
{% if r > 0 %}
if !schur_solve(&w_, {{ n }}, &mu_, &beta_, {{ r }}, &mut y_, &mut s_, &mut l_, &mut a_) { return Err(SingularAt(0)); }
{% endif %}
{% if jacobian is iterable %}
{% if jacobian | length > 0 %}
let at_: [usize; {{ jacobian | length }}] = [{{ jacobian | join(sep=", ") }}];
for b in 0..{{ jacobian | length }} {
    for k in 0..{{ n }} {
        let mut v: Real = db_[b * {{ n }} + k];
        for i in 0..{{ n }} { v -= dw_[b * {{ n * n }} + k * {{ n }} + i] * a_[i]; }
{% if r > 0 %}
        for c in 0..{{ r }} { v -= dmu_[b * {{ r * n }} + c * {{ n }} + k] * l_[c]; }
{% endif %}
        v_[k] = v;
    }
{% if r > 0 %}
    for c in 0..{{ r }} {
        let mut v: Real = dbeta_[b * {{ r }} + c];
        for i in 0..{{ n }} { v -= dmu_[b * {{ r * n }} + c * {{ n }} + i] * a_[i]; }
        sb_[c] = v;
    }
{% endif %}
    ldl_solve(&w_, {{ n }}, {{ n - 1 }}, &mut v_);
{% if r > 0 %}
    if !schur_solve(&w_, {{ n }}, &mu_, &sb_, {{ r }}, &mut y_, &mut s_, &mut dl_, &mut v_) { return Err(SingularAt(0)); }
{% endif %}
    jac[at_[b]..at_[b] + {{ n }}].copy_from_slice(&v_);
}
{% endif %}
{% else %}
xdot[{{ m }}..{{ m }} + {{ n }}].copy_from_slice(&a_);
{% if dynamics %}
energy[1] = rate_;
{% if r > 0 %}
for c in 0..{{ r }} {
    lambda[c] = l_[c];
    energy[1] -= l_[c] * power_[c];
}
{% endif %}
{% endif %}
{% endif %}
