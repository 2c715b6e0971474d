{{ banner }}
use {{ sys }}::Real;

{% for table in tables %}/// {{ table.doc }}
const {{ table.stem }}: [Real; {{ table.len }}] = {% if table.items %}[
{{ table.items }}]{% else %}[]{% endif %};

{% endfor %}/// Panics naming the first entry of an output that is not finite.
fn assert_finite(function: &str, output: &str, values: &[Real]) {
    for (i, v) in values.iter().enumerate() {
        assert!(
            v.is_finite(),
            "{function}: {output}[{i}] = {v} is not finite"
        );
    }
}

/// Panics when a call refused a division (`SingularAt(k)`: the k-th guarded division met a
/// vanishing denominator; k = 0: a numeric solve met a vanishing pivot).
fn assert_ok<E: core::fmt::Debug>(function: &str, t: Real, result: Result<(), E>) {
    if let Err(e) = result {
        panic!("{function} failed at t = {t}: {e:?}");
    }
}
{% for f in functions %}
/// {{ f.doc }}
#[test]
fn once_{{ f.name }}() {
{% for out in f.declared %}    let mut out_{{ out.name }} = [Real::NAN; {{ out.len }}];
{% endfor %}{{ f.call }}{{ f.ok }}{{ f.checks }}}
{% endfor %}{% if integrated %}{% set f = integrated %}{% set n = f.xdot_len %}
/// The names of the entries of the integrated state.
const NAMES: [&str; {{ n }}] = [
{{ f.names }}];

/// xdot = d(x)/dt at (t, x) by `{{ f.name }}`, checked (its other outputs are scratch).
fn rates(t: Real, x: &[Real; {{ n }}]) -> [Real; {{ n }}] {
    let mut xdot = [Real::NAN; {{ n }}];
{% for out in f.declared %}    let mut out_{{ out.name }} = [Real::NAN; {{ out.len }}];
{% endfor %}{{ f.call }}{{ f.ok }}{{ f.checks }}    xdot
}

/// x + h k.
fn step(x: &[Real; {{ n }}], h: Real, k: &[Real; {{ n }}]) -> [Real; {{ n }}] {
    core::array::from_fn(|i| x[i] + h * k[i])
}

/// {{ steps }} steps of the classic fourth-order Runge-Kutta method from the nominal state.
#[test]
fn rk4() {
    let h: Real = {{ step }};
    let mut x = {{ f.x0 }};
    let mut t: Real = 0.0;
    for _ in 0..{{ steps }} {
        let k1 = rates(t, &x);
        let k2 = rates(t + h / 2.0, &step(&x, h / 2.0, &k1));
        let k3 = rates(t + h / 2.0, &step(&x, h / 2.0, &k2));
        let k4 = rates(t + h, &step(&x, h, &k3));
        x = core::array::from_fn(|i| x[i] + h / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]));
        t += h;
    }
    assert_finite("the integration", "x", &x);
    println!("{{ sys }}: x at t = {{ end }} after {{ steps }} RK4 steps of {{ f.name }}:");
    for (i, (v, name)) in x.iter().zip(NAMES).enumerate() {
        println!("  x[{i}] = {v:e}  ({name})");
    }
}
{% endif -%}
