//! Tests of the normal forms and zero tests.

use super::*;
use crate::Func;

fn s(name: &str) -> Expr {
    Expr::symbol(name)
}

#[test]
fn pythagoras() {
    let x = s("x");
    let e =
        Expr::apply(Func::Sin, x.clone()).powi(2) + Expr::apply(Func::Cos, x).powi(2) - Expr::one();
    assert!(e.is_zero());
}

#[test]
fn rational_cancellation() {
    let (x, y) = (s("x"), s("y"));
    let e = (x.powi(2) - y.powi(2)) / (x.clone() - y.clone()) - x - y;
    assert!(e.is_zero());
    assert!(!(s("x") - s("y")).is_zero());
}

#[test]
fn trig_in_denominators() {
    let p = s("p");
    let (sp, cp) = (Expr::apply(Func::Sin, p.clone()), Expr::apply(Func::Cos, p));
    // 1/cos^2 - tan^2 = 1
    let e = Expr::one() / cp.powi(2) - (sp.clone() / cp.clone()).powi(2) - Expr::one();
    assert!(e.is_zero());
    let m = s("m");
    let compact = (m.clone() * sp.powi(2) + m.clone() * cp.powi(2)).simplify();
    assert_eq!(compact, m);
}

fn sqrt(e: Expr) -> Expr {
    Expr::apply(Func::Sqrt, e)
}

#[test]
fn radicals_cancel_through_their_powers() {
    let x = s("x");
    // (√x + 1)(√x − 1) = x − 1, x^(3/2)/x = √x, √2² = 2
    let e =
        (sqrt(x.clone()) + Expr::one()) * (sqrt(x.clone()) - Expr::one()) - x.clone() + Expr::one();
    assert!(e.is_zero());
    let e = x.pow(&Expr::rational(3, 2)) / x.clone() - sqrt(x.clone());
    assert!(e.is_zero());
    assert!((sqrt(Expr::int(2)) * sqrt(Expr::int(2)) - Expr::int(2)).is_zero());
    assert!(!(sqrt(x.clone()) - x.clone()).is_zero());
    let shown = ((sqrt(x.clone()) + Expr::one()).powi(2) - Expr::one()).simplify();
    assert_eq!(shown, (x.clone() + Expr::int(2) * sqrt(x)).simplify());
}

#[test]
fn radicals_of_trig_functions_reduce_with_pythagoras() {
    let a = s("a");
    let (sa, ca) = (Expr::apply(Func::Sin, a.clone()), Expr::apply(Func::Cos, a));
    // (√sin a + cos a)(√sin a − cos a) − sin a + 1 − sin² a = 1 − cos² a − sin² a = 0
    let e = (sqrt(sa.clone()) + ca.clone()) * (sqrt(sa.clone()) - ca) - sa.clone() + Expr::one()
        - sa.powi(2);
    assert!(e.is_zero());
}

#[test]
fn an_inverse_with_a_radical_entry_stays_small() {
    // Like the vakonomic R that swelled to gigabytes when Symbolica combined b and √b as
    // unrelated (docs/fuzzing.md, finding 3): R R⁻¹ = I exactly, and quickly.
    let (x, m) = (s("x"), s("m"));
    let r = sqrt(x.clone());
    let matrix = vec![
        vec![m.clone(), x.clone(), Expr::zero(), r.clone()],
        vec![x.clone(), m.clone(), r.clone(), Expr::zero()],
        vec![Expr::zero(), r.clone(), m.clone() + x.clone(), Expr::one()],
        vec![r.clone(), Expr::zero(), Expr::one(), m.clone() * x.clone()],
    ];
    let inverse = crate::inverse(&matrix).expect("regular");
    for (i, row) in matrix.iter().enumerate() {
        for j in 0..4 {
            let entry = row
                .iter()
                .zip(&inverse)
                .fold(Expr::zero(), |acc, (m, inv)| {
                    acc + m.clone() * inv[j].clone()
                });
            let identity = if i == j { Expr::one() } else { Expr::zero() };
            assert!((entry - identity).is_zero(), "({i}, {j})");
        }
    }
    let quadratic = (0..4).fold(Expr::zero(), |acc, a| {
        (0..4).fold(acc, |acc, b| {
            acc + s(&format!("p{a}")) * inverse[a][b].clone() * s(&format!("p{b}"))
        })
    });
    assert!(quadratic.simplify().size() < 100_000);
}

/// Sharing the first step of the two orientations charges the meter what computing it for
/// each did: the expansion attempt, then each orientation's normal form from scratch.
#[test]
fn a_shared_first_step_charges_what_computing_it_for_each_orientation_did() {
    let (x, y, a) = (s("share_x"), s("share_y"), s("share_a"));
    let c = Expr::apply(Func::Cos, x.clone());
    let sn = Expr::apply(Func::Sin, x);
    let polynomial = (c.clone() * y.clone() + sn.clone() * a.clone()).powi(2) - y.clone();
    let fraction = (c.clone().powi(2) * y.clone() + a.clone()) / (sn.clone() * a.clone() + y);
    let rational = (c.powi(2) + sn.powi(2)) * a.clone() / Expr::int(2) + a;
    for e in [polynomial, fraction, rational] {
        let before = crate::work::spent();
        let shared = e.simplify_anew();
        let charged = crate::work::spent() - before;
        let before = crate::work::spent();
        let mut table = TrigTable::default();
        let hidden = hide_trig(&e.0, &mut table);
        let _ = integer_polynomial_expansion(&hidden);
        let _ = normal_form(&hidden, &table, Trig::Cos);
        let _ = normal_form(&hidden, &table, Trig::Sin);
        let anew = crate::work::spent() - before;
        assert_eq!(charged, anew, "{e}");
        assert!((shared - e).is_zero());
    }
}

/// Under a ceiling (`work::with_ceiling`), a normal form is cut short only once the meter has
/// passed it, and is still equal to its argument. The second orientation's share of the first
/// step is charged before the second is computed: a ceiling that this share passes leaves the
/// first orientation standing, with less charged than the whole normal form.
#[test]
fn a_normal_form_is_cut_short_only_past_its_ceiling() {
    let (x, y, a) = (s("cut_x"), s("cut_y"), s("cut_a"));
    let c = Expr::apply(Func::Cos, x.clone());
    let sn = Expr::apply(Func::Sin, x);
    let e = (c.powi(2) * y.clone() + a.clone()) / (sn * a + y);
    let before = crate::work::spent();
    let full = e.simplify_anew();
    let units = crate::work::spent() - before;
    let mut cut_short = Vec::new();
    for k in 0..units {
        let start = crate::work::spent();
        let cut = crate::work::with_ceiling(start + k, || e.simplify_anew());
        let charged = crate::work::spent() - start;
        assert!(
            (cut.clone() - e.clone()).is_zero(),
            "{cut} under a ceiling of {k}"
        );
        if charged < units {
            assert!(
                charged > k,
                "cut short at {charged} units under a ceiling of {k}"
            );
            cut_short.push(k);
        } else {
            assert_eq!(cut, full, "under a ceiling of {k}");
        }
    }
    // What the first orientation charges alone (its first step included).
    let before = crate::work::spent();
    let mut table = TrigTable::default();
    let hidden = hide_trig(&e.0, &mut table);
    let _ = integer_polynomial_expansion(&hidden);
    let _ = normal_form(&hidden, &table, Trig::Cos);
    let first = crate::work::spent() - before;
    // Under a ceiling the first orientation reaches, the charge of the second one's share of
    // the first step passes it: the second is not computed.
    assert!(first < units);
    assert!(
        cut_short.contains(&first),
        "{units} units ({first} the first orientation's), cut short under {cut_short:?}"
    );
}

/// The reduction modulo `c² = 1 − s²` (on sparse polynomials, one pair of angles at a time) is
/// the sum of each term reduced and expanded on its own (written out here by hand, with terms
/// in both angles and two that bring the same power of `1 − s²`), and it holds no square of a
/// cosine.
#[test]
fn trig_reduction_expanded_once_is_the_sum_of_each_term_reduced() {
    let mut table = TrigTable::default();
    let (a, b) = (s("a"), s("b"));
    let (x, y) = (s("x"), s("y"));
    let poly = Expr::int(3) * a.clone() * Expr::apply(Func::Cos, x.clone()).powi(4)
        - b.clone() * Expr::apply(Func::Cos, x.clone()).powi(3) * Expr::apply(Func::Sin, y.clone())
        + a.clone()
            * b.clone()
            * Expr::apply(Func::Cos, x.clone()).powi(2)
            * Expr::apply(Func::Cos, y.clone()).powi(2)
        + Expr::apply(Func::Sin, x.clone()).powi(2)
        + Expr::int(5) * b.clone() * Expr::apply(Func::Cos, x.clone()).powi(2)
        + b.clone();
    let hidden = hide_trig(&poly.0, &mut table);
    let reduced = Expr(show_trig(&reduce_trig(&hidden, &table, Trig::Cos), &table));
    let (sx, sy) = (
        Expr::apply(Func::Sin, x.clone()),
        Expr::apply(Func::Sin, y.clone()),
    );
    let one_minus = |v: &Expr| Expr::one() - v.powi(2);
    // 3a c⁴ → 3a (1 − s²)², b c³ s_y → b c (1 − s²) s_y, a b c_x² c_y² → a b (1 − s_x²)(1 − s_y²),
    // and 5b c² → 5b (1 − s²), which brings the same power of 1 − s² as b c³ s_y.
    let by_hand = Expr::sum([
        (Expr::int(3) * a.clone() * one_minus(&sx).powi(2)).expand(),
        (-b.clone() * Expr::apply(Func::Cos, x.clone()) * one_minus(&sx) * sy.clone()).expand(),
        (a * b.clone() * one_minus(&sx) * one_minus(&sy)).expand(),
        (Expr::int(5) * b.clone() * one_minus(&sx)).expand(),
        sx.powi(2),
        b,
    ]);
    assert_eq!(reduced, by_hand);
    let printed = format!("{reduced:?}");
    assert!(
        !printed.contains("cos(x)^") && !printed.contains("cos(y)"),
        "{printed}"
    );
}

/// The reduction carries what is not a polynomial in the angles through unchanged: a function
/// (`exp`), a non-polynomial power (`q^(1/3)`, `q^-1`), a coefficient too large for a machine
/// word, and a term with no square to reduce; only the squares of the cosine change.
#[test]
fn trig_reduction_keeps_functions_powers_and_large_coefficients() {
    let mut table = TrigTable::default();
    let (q, y) = (s("q"), s("y"));
    let (c, sy) = (
        Expr::apply(Func::Cos, y.clone()),
        Expr::apply(Func::Sin, y.clone()),
    );
    let exp_q = Expr::apply(Func::Exp, q.clone());
    let cube_root = q.pow(&Expr::rational(1, 3));
    let large = Expr::int(10_i64.pow(18)) * Expr::int(10_i64.pow(18)) / Expr::int(7);
    let poly = exp_q.clone() * c.powi(2)
        + cube_root.clone() * c.powi(3)
        + large.clone() * q.powi(-1) * c.powi(2)
        + q.clone() * c.clone();
    let hidden = hide_trig(&poly.0, &mut table);
    let reduced = Expr(show_trig(&reduce_trig(&hidden, &table, Trig::Cos), &table));
    let one_minus = Expr::one() - sy.powi(2);
    let by_hand = (exp_q * one_minus.clone()
        + cube_root * c.clone() * one_minus.clone()
        + large * q.powi(-1) * one_minus
        + q * c)
        .expand();
    assert_eq!(reduced, by_hand);
}

/// An atom the walk calls expanded is its own expansion; a product or power of a sum, a sum in
/// a function's argument and a symbolic exponent are not called expanded (they are expanded).
#[test]
fn an_atom_called_expanded_is_its_own_expansion() {
    let (a, b, x) = (s("a"), s("b"), s("x"));
    let sin = |e: Expr| Expr::apply(Func::Sin, e);
    let expanded = [
        a.clone() * b.clone() + Expr::int(3) * x.powi(2) - Expr::one(),
        a.clone() * x.powi(-1) + sin(a.clone() + b.clone()) * b.clone(),
        Expr::rational(1, 2) * a.pow(&Expr::rational(1, 3)) + b.clone(),
    ];
    for e in expanded {
        assert!(is_expanded(e.0.as_view()), "{e}");
        assert_eq!(e.expand(), e);
    }
    let unexpanded = [
        (a.clone() + b.clone()) * x.clone(),
        (a.clone() + b.clone()).powi(2) + x.clone(),
        (a.clone() + b.clone()).powi(-1),
        sin((a.clone() + b.clone()) * x.clone()),
        x.pow(&a),
    ];
    for e in unexpanded {
        assert!(!is_expanded(e.0.as_view()), "{e}");
    }
}

/// A number times an expanded sum is distributed into the tree the expansion gives: `−1`, a
/// fraction and an integer that meets the terms' own numbers, over terms with negative powers,
/// radicals and calls; any other product is left to the expansion.
#[test]
fn a_number_times_an_expanded_sum_is_its_expansion() {
    use super::reduction::number_distributed;
    let (a, b, x, y) = (s("a"), s("b"), s("x"), s("y"));
    let sin = |e: Expr| Expr::apply(Func::Sin, e);
    let sum = Expr::int(2) * a.clone() * x.powi(-1) - Expr::int(3) * b.clone() * y.powi(2)
        + sin(a.clone() + b.clone()) * x.clone()
        + Expr::rational(1, 3) * a.pow(&Expr::rational(1, 2))
        + Expr::int(5);
    for number in [
        Expr::int(-1),
        Expr::rational(1, 2),
        Expr::int(6),
        Expr::rational(-3, 4),
    ] {
        let e = number.clone() * sum.clone();
        let distributed = number_distributed(e.0.as_view()).expect("a number times a sum");
        assert_eq!(distributed, e.expand().0, "{e}");
    }
    for other in [
        x.clone() * sum.clone(),
        Expr::int(2) * (a.clone() + b.clone()) * (x.clone() + y.clone()),
        Expr::int(2) * ((a.clone() + b.clone()) * x.clone() + y.clone()),
        sum.clone(),
    ] {
        assert!(number_distributed(other.0.as_view()).is_none(), "{other}");
    }
}

/// The normal form skips cancelling `together`'s fraction when the reduction leaves it as it
/// is: `cancel` gives such a fraction back unchanged. The normal forms keep their value (at a
/// point, against the expression as written).
#[test]
fn together_fractions_are_already_cancelled() {
    let (a, b, x) = (s("a"), s("b"), s("x"));
    let (sin, cos) = (
        |e: &Expr| Expr::apply(Func::Sin, e.clone()),
        |e: &Expr| Expr::apply(Func::Cos, e.clone()),
    );
    let fractions = [
        (a.powi(2) - b.powi(2)) / (a.clone() - b.clone()) + x.clone() / (a.clone() + b.clone()),
        Expr::int(6) * a.clone() * x.clone()
            / (Expr::int(4) * a.clone() * b.clone() - Expr::int(2) * a.clone()),
        (x.clone() - a.clone()) / (a.clone() - x.clone()) + b.clone() / (Expr::int(3) * x.clone()),
        cos(&x) / (Expr::one() + sin(&x)) + a.clone() / (b.clone() - a.clone()),
        a.clone() * sin(&x) / (b.clone() * cos(&x) - a.clone()),
    ];
    let at: std::collections::BTreeMap<String, f64> = [("a", 0.7), ("b", 1.9), ("x", 0.4)]
        .map(|(k, v)| (k.to_string(), v))
        .into();
    for e in fractions {
        let together = e.0.together();
        assert_eq!(together.cancel(), together, "{e}");
        let mut table = TrigTable::default();
        let hidden = hide_trig(&e.0, &mut table);
        for going in [Trig::Cos, Trig::Sin] {
            let (n, d) = normal_form(&hidden, &table, going);
            let shown = Expr(show_trig(&n, &table)) / Expr(show_trig(&d, &table));
            let (value, expected) = (shown.evaluate(&at), e.evaluate(&at));
            let (value, expected) = (value.expect("finite"), expected.expect("finite"));
            assert!(
                (value - expected).abs() < 1e-12 * expected.abs().max(1.0),
                "{e}"
            );
        }
    }
}

/// The sizes the two orientations of a normal form are compared by, read off the hidden tree,
/// are the sizes of the forms shown: for sums and differences of angles, multiples, squares in
/// numerators and denominators, a negative argument, trig in an exponent and in another
/// function's argument, and a symbol that stands apart.
#[test]
fn shown_sizes_read_off_the_hidden_tree_are_the_sizes_shown() {
    let (x, y, m, r) = (s("x"), s("y"), s("m"), s("r"));
    let sin = |a: Expr| Expr::apply(Func::Sin, a);
    let cos = |a: Expr| Expr::apply(Func::Cos, a);
    let cases = [
        m.clone() * sin(x.clone()).powi(2) + r.clone() * cos(x.clone()).powi(2),
        (m.clone() * r.clone().powi(2) - m.clone() * sin(x.clone()).powi(2))
            / (r.clone() + cos(x.clone() + y.clone()) * sin(y.clone())),
        sin(Expr::int(2) * x.clone()) * cos(x.clone()).powi(3)
            / (m.clone() - r.clone() * cos(x.clone()).powi(2)),
        sin(-x.clone()) * cos(x.clone() - y.clone()).powi(2) + Expr::rational(1, 3) * m.clone(),
        x.clone().pow(&sin(y.clone())) * cos(y.clone()).powi(2) - r.clone(),
        Expr::apply(Func::Exp, sin(x.clone())) * cos(x.clone()).powi(2) / sin(x.clone()),
        (sin(x.clone()) * cos(y.clone()) - cos(x.clone()) * sin(y.clone())).powi(2)
            / (Expr::one() + sin(x.clone()).powi(2)),
    ];
    let mut compared = 0;
    for e in cases {
        let mut table = TrigTable::default();
        let hidden = hide_trig(&e.0, &mut table);
        let forms =
            [Trig::Cos, Trig::Sin].map(|going| (going, normal_form(&hidden, &table, going)));
        // After the forms: a reduction registers the partner of a hidden symbol.
        let sizes = ShownSizes::of(&table).expect("no radicals, every call stands");
        for (going, form) in forms {
            assert_eq!(
                sizes.of_quotient(&form),
                shown_quotient(&form, &table).size(),
                "{e} ({going:?})"
            );
            compared += 1;
        }
        // And the form kept is the one showing both and comparing them keeps.
        let shown = |going| shown_quotient(&normal_form(&hidden, &table, going), &table);
        let (first, second) = (shown(Trig::Cos), shown(Trig::Sin));
        let kept = if second.size() < first.size() {
            second
        } else {
            first
        };
        assert_eq!(e.simplify(), kept, "{e}");
    }
    assert_eq!(compared, 14);
}

/// Showing what was hidden gives the expression back: sines and cosines of several
/// arguments, in exponents and other functions' arguments, and radicals whose bases hold trig
/// and earlier radicals.
#[test]
fn shown_after_hidden_is_the_expression() {
    let (x, y, m) = (s("x"), s("y"), s("m"));
    let sin = |a: Expr| Expr::apply(Func::Sin, a);
    let cos = |a: Expr| Expr::apply(Func::Cos, a);
    let root = sqrt(m.clone() + cos(x.clone()).powi(2));
    let cases = [
        m.clone() * sin(x.clone()).powi(2) / (Expr::one() + cos(x.clone() - y.clone())),
        x.clone().pow(&sin(y.clone())) * Expr::apply(Func::Exp, cos(x.clone())),
        root.clone() * sin(y.clone()) / (Expr::int(2) + root.clone()),
        sqrt(Expr::one() + root.clone()) * root.powi(3) - cos(y.clone()),
    ];
    let mut radicals = 0;
    for e in cases {
        let mut table = TrigTable::default();
        let hidden = hide_trig(&e.0, &mut table);
        assert!(!table.is_empty(), "{e}");
        assert_ne!(Expr(hidden.clone()), e);
        radicals += table.radicals.len();
        assert_eq!(Expr(show_trig(&hidden, &table)), e);
    }
    assert_eq!(radicals, 3);
}

/// A reduction remembered is the reduction computed anew, whichever table asks: the same
/// polynomial reduced for a table of one argument and for a table of three (its symbols are the
/// first argument's in both) gives what reducing it directly gives, in both orientations, the
/// first time and again.
#[test]
fn a_remembered_reduction_is_the_reduction() {
    let (x, y, z, m) = (s("x"), s("y"), s("z"), s("m"));
    let sin = |a: Expr| Expr::apply(Func::Sin, a);
    let cos = |a: Expr| Expr::apply(Func::Cos, a);
    let e = m.clone() * sin(x.clone()).powi(2) * cos(x.clone()).powi(2) + cos(x.clone()).powi(4)
        - m.clone() * sin(x.clone()).powi(3);
    let mut one = TrigTable::default();
    let hidden = hide_trig(&e.0, &mut one);
    let mut three = TrigTable::default();
    let _ = hide_trig(&(e.clone() + sin(y.clone()) * cos(z.clone())).0, &mut three);
    assert_eq!((one.arguments.len(), three.arguments.len()), (1, 3));
    let expanded = prepare(&hidden, &one);
    for going in [Trig::Cos, Trig::Sin] {
        let pairs = [match going {
            Trig::Cos => (hidden_symbol(Hidden::Cos, 0), hidden_symbol(Hidden::Sin, 0)),
            Trig::Sin => (hidden_symbol(Hidden::Sin, 0), hidden_symbol(Hidden::Cos, 0)),
        }];
        let direct = crate::polynomial::reduce_squares(&expanded, &pairs).expect("squares");
        for table in [&one, &three, &one] {
            assert_eq!(reduce_prepared(expanded.clone(), table, going), direct);
        }
    }
}

/// The sines and cosines a trig table shows come from the thread's memory after their first
/// making: they are the atoms building them anew gives, for each argument (never another's),
/// also once the memory has been filled and started again.
#[test]
fn remembered_sines_and_cosines_are_the_calls_built_anew() {
    use hidden::{sine_and_cosine, CALLS_KEPT};
    let (x, y) = (s("calls_x"), s("calls_y"));
    let arguments = [
        x.clone(),
        Expr::int(2) * x.clone() + y.clone(),
        x.powi(2),
        -y.clone(),
        Expr::rational(1, 3),
    ];
    let anew = |a: &Expr| {
        [
            Expr::apply(Func::Sin, a.clone()).0,
            Expr::apply(Func::Cos, a.clone()).0,
        ]
    };
    for round in 0..2 {
        for a in &arguments {
            assert_eq!(sine_and_cosine(&a.0), anew(a), "{a}, round {round}");
        }
    }
    for k in 0..=CALLS_KEPT as i64 {
        let a = x.clone() + Expr::int(k);
        assert_eq!(sine_and_cosine(&a.0), anew(&a), "{a}");
    }
    for a in &arguments {
        assert_eq!(
            sine_and_cosine(&a.0),
            anew(a),
            "{a}, after the memory started again"
        );
    }
}
