{# A projection onto the constraints: copy the state, then `iterations` times evaluate the
   constraints (`call`) at the current state and take one Gauss-Newton step on the `columns`
   entries from `offset`. #}
let mut q_: [Real; N_STATE] = *x;
for _ in 0..{% if once %}1{% else %}PROJECTION_ITERATIONS{% endif %} {
    {{ call }}(t, &q_, p, u, f, &mut g_, &mut jac_)?;
    if !gauss_newton(&jac_, &mut g_, {{ rows }}, {{ columns }}, &mut s_, &mut q_[{{ offset }}..{{ offset }} + {{ columns }}]) {
        return Err(SingularAt(0));
    }
}
projected.copy_from_slice(&q_);
