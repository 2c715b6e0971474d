use super::*;
use crate::Func;

fn s(name: &str) -> Expr {
    Expr::symbol(name)
}

/// A numerator of more than [`SPLIT_TERMS`] terms over a number is still split term by
/// term when that reads shorter: `(2 x1² + … + 2 x70² + y)/2` is `x1² + … + x70² + y/2`
/// (142 leaves, against 212 over the 2).
#[test]
fn a_long_numerator_over_a_number_splits() {
    let terms = (1..=70).map(|i| Expr::int(2) * s(&format!("x{i}")).powi(2));
    let e = (Expr::sum(terms) + s("y")) / Expr::int(2);
    let best = e.simplest();
    assert_eq!(crate::print::leaves(&best), 142, "{best}");
    assert!((best - e).is_zero());
}

#[test]
fn leaves_count_the_symbols_and_numbers_a_reader_sees() {
    let (a, b, x) = (s("a"), s("b"), s("x"));
    assert_eq!(crate::print::leaves(&((a.clone() + b) / Expr::int(2))), 3);
    assert_eq!(crate::print::leaves(&Expr::apply(Func::Sin, x).powi(2)), 2);
    assert_eq!(crate::print::leaves(&(-a)), 1);
}

#[test]
fn simplest_splits_what_cancels_and_factors_what_repeats() {
    let (r, u, om, k, y, p, w1, u1, u2) = (
        s("r"),
        s("u"),
        s("Om"),
        s("k"),
        s("y"),
        s("p"),
        s("w1"),
        s("u1"),
        s("u2"),
    );
    let check = |e: Expr, most: usize| {
        let simplest = e.simplest();
        assert!(
            (simplest.clone() - e.clone()).is_zero(),
            "{simplest:?} is not {e:?}"
        );
        let leaves = crate::print::leaves(&simplest);
        assert!(
            leaves <= most,
            "{simplest:?}: {leaves} leaves, expected at most {most}"
        );
    };
    // (r u − Ω k² y)/k² = r u/k² − Ω y: six leaves, where the quotient has eight.
    check((r * u - om.clone() * k.powi(2) * y.clone()) / k.powi(2), 6);
    // (Ω k p + y)/k = Ω p + y/k.
    check((om * k.clone() * p + y) / k, 5);
    // u₂ w₁ − u₁ w₁ = w₁ (u₂ − u₁).
    check(u2 * w1.clone() - u1 * w1, 3);
}

/// `e.simplest_in(vars)` equals `e` and has at most `most` leaves.
fn at_most_in(e: Expr, vars: &[&str], most: usize) {
    let vars: Vec<String> = vars.iter().map(|v| v.to_string()).collect();
    let simplest = e.simplest_in(&vars);
    assert!(
        (simplest.without_tangents() - e.clone()).vanishes(),
        "{simplest:?} is not {e:?}"
    );
    let leaves = crate::print::leaves(&simplest);
    assert!(
        leaves <= most,
        "{simplest:?}: {leaves} leaves, expected at most {most}"
    );
}

/// `e.simplest()` equals `e` and has at most `most` leaves.
fn at_most(e: Expr, most: usize) {
    at_most_in(e, &[], most)
}

#[test]
fn simplest_divides_a_numeric_denominator_where_that_is_shorter() {
    let (rho, m, v, p, x, z) = (s("rho"), s("m"), s("v"), s("p"), s("x"), s("z"));
    // (2ρ² + m v²)/2 = ρ² + m v²/2: six leaves, where the quotient has seven.
    at_most(
        (Expr::int(2) * rho.powi(2) + m * v.powi(2)) / Expr::int(2),
        6,
    );
    // (2 x z + p²)/2 = x z + p²/2.
    at_most((Expr::int(2) * x * z + p.powi(2)) / Expr::int(2), 5);
}

#[test]
fn simplest_sums_the_terms_that_share_a_denominator() {
    let (a, b, j, m, v1, v2, w) = (s("a"), s("b"), s("J"), s("m"), s("v1"), s("v2"), s("w"));
    // Chaplygin's sleigh: v₂ w + a w² (J + a² m + b² m)/(J + a² m) − a b m v₁ w/(J + a² m)
    // = v₂ w + a w (w (J + a² m + b² m) − b m v₁)/(J + a² m): 19 leaves, where the terms
    // apart have 25 and the quotient of the normal form 23; by powers of the velocities.
    let d = j.clone() + a.powi(2) * m.clone();
    let e = v2 * w.clone()
        + a.clone() * w.powi(2) * (d.clone() + b.powi(2) * m.clone()) / d.clone()
        - a * b * m * v1 * w / d;
    at_most_in(e.simplify(), &["v1", "v2", "w"], 19);
}

#[test]
fn terms_over_equal_denominators_are_summed_as_written() {
    // The free body's ψ̇-equation: (B − C) x (y − z) φ/A + (B − C) w/A + v/C reads
    // (B − C)(x (y − z) φ + w)/A + v/C, the product x (y − z) not multiplied out.
    let (a, b, c, v, w, x, y, z, phi) = (
        s("A"),
        s("B"),
        s("C"),
        s("v"),
        s("w"),
        s("x"),
        s("y"),
        s("z"),
        s("phi"),
    );
    let bc = b.clone() - c.clone();
    let e = bc.clone() * x.clone() * (y.clone() - z.clone()) * phi.clone() / a.clone()
        + bc.clone() * w.clone() / a.clone()
        + v.clone() / c.clone();
    let merged = over_equal_denominators(&e).unwrap();
    let expected = bc * (x * (y - z) * phi + w) / a + v / c;
    assert_eq!(
        crate::print::spec(&merged, &crate::print::Keys),
        crate::print::spec(&expected, &crate::print::Keys)
    );
    // Nothing shared: None.
    assert!(over_equal_denominators(&(s("p") / s("q") + s("r"))).is_none());
}

#[test]
fn simplest_writes_tangents_and_sees_through_angle_sums() {
    let (p, m, phi, theta) = (s("p"), s("m"), s("phi"), s("theta"));
    let (sin, cos) = (
        |a: Expr| Expr::apply(Func::Sin, a),
        |a: Expr| Expr::apply(Func::Cos, a),
    );
    // p cos φ/(m sin φ) = p/(m tan φ).
    at_most(
        p.clone() * cos(phi.clone()) / (m.clone() * sin(phi.clone())),
        3,
    );
    // The snakeboard's velocity: p (sin(φ + θ) + sin(θ − φ))/(m (cos(φ + θ) + cos(θ − φ)))
    // = p tan θ/m (both sums are 2 sin θ cos φ and 2 cos θ cos φ).
    let e = p * (sin(phi.clone() + theta.clone()) + sin(theta.clone() - phi.clone()))
        / (m * (cos(phi.clone() + theta.clone()) + cos(theta - phi)));
    at_most(e, 3);
}

#[test]
fn simplest_brings_fractions_over_their_common_denominator_keeping_their_factors() {
    let (b, q, x, d, y, e, k, m, z, phi) = (
        s("B"),
        s("q"),
        s("x"),
        s("d"),
        s("y"),
        s("e"),
        s("k"),
        s("m"),
        s("z"),
        s("phi"),
    );
    let cos = Expr::apply(Func::Cos, phi);
    // B q (x + d)(y − e) cos φ/(k² m) + B q z cos φ/m
    // = B q cos φ ((x + d)(y − e) + k² z)/(k² m): 13 leaves, where the terms apart have 15
    // and the factorised normal form, whose numerator is expanded, 17.
    let sum = b.clone() * q.clone() * (x + d) * (y - e) * cos.clone() / (k.powi(2) * m.clone())
        + b * q * z * cos / m;
    at_most(sum, 13);
}

#[test]
fn simplest_writes_double_angles_where_a_two_is_saved() {
    let (om, p, theta) = (s("omega"), s("p"), s("theta"));
    // The rotating hoop: 2 ω p cos θ sin θ = ω p sin(2θ).
    let e = Expr::int(2)
        * om
        * p
        * Expr::apply(Func::Cos, theta.clone())
        * Expr::apply(Func::Sin, theta.clone());
    let simplest = e.simplest();
    assert_eq!(
        crate::print::spec(&simplest, &crate::print::Keys),
        "omega*p*sin(2*theta)"
    );
    // 1 − 2 cos² φ = −cos(2φ), and 1 − 2 sin² φ = cos(2φ).
    let phi = s("phi");
    let (sin, cos) = (
        Expr::apply(Func::Sin, phi.clone()),
        Expr::apply(Func::Cos, phi.clone()),
    );
    let twice = Expr::apply(Func::Cos, Expr::int(2) * phi);
    let same = |a: Expr, b: Expr| {
        assert_eq!(
            crate::print::spec(&a, &crate::print::Keys),
            crate::print::spec(&b, &crate::print::Keys)
        )
    };
    same(
        (Expr::one() - Expr::int(2) * cos.powi(2)).with_double_angles(),
        -twice.clone(),
    );
    same(
        (Expr::one() - Expr::int(2) * sin.powi(2)).with_double_angles(),
        twice.clone(),
    );
    // With a product for the number: α β − 2 α β cos² φ = −α β cos(2φ), and both pairs of
    // α² + 2 β² sin² φ − β² − 2 α² sin² φ (the contact sledge's Hamilton equations).
    let (alpha, beta) = (s("alpha"), s("beta"));
    let ab = alpha.clone() * beta.clone();
    same(
        (ab.clone() - Expr::int(2) * ab.clone() * cos.powi(2)).with_double_angles(),
        -ab * twice.clone(),
    );
    let (a2, b2) = (alpha.powi(2), beta.powi(2));
    same(
        (a2.clone() + Expr::int(2) * b2.clone() * sin.powi(2)
            - b2.clone()
            - Expr::int(2) * a2.clone() * sin.powi(2))
        .with_double_angles(),
        a2 * twice.clone() - b2 * twice,
    );
    // cos θ sin θ keeps its form: sin(2θ)/2 has one leaf more.
    let e = Expr::apply(Func::Cos, theta.clone()) * Expr::apply(Func::Sin, theta);
    assert_eq!(crate::print::leaves(&e.simplest()), 2);
}

#[test]
fn tangents_replace_only_opposite_powers_of_one_argument() {
    let (x, y) = (s("x"), s("y"));
    let (sin, cos) = (
        |a: &Expr| Expr::apply(Func::Sin, a.clone()),
        |a: &Expr| Expr::apply(Func::Cos, a.clone()),
    );
    let tan = |a: &Expr| Expr::tangent_call(a.clone());
    let same = |a: Expr, b: Expr| {
        assert_eq!(
            crate::print::spec(&a, &crate::print::Keys),
            crate::print::spec(&b, &crate::print::Keys)
        )
    };
    // sin² x/cos x = sin x tan x; cos x sin y stays; cos² y/sin² y = 1/tan² y.
    same(
        (sin(&x).powi(2) / cos(&x)).with_tangents(),
        sin(&x) * tan(&x),
    );
    same((cos(&x) * sin(&y)).with_tangents(), cos(&x) * sin(&y));
    same(
        (cos(&y).powi(2) / sin(&y).powi(2)).with_tangents(),
        Expr::one() / tan(&y).powi(2),
    );
}

#[test]
fn simplest_in_groups_a_sum_by_its_state_dependent_parts() {
    let (a, b, c, x, y) = (s("A"), s("B"), s("C"), s("x"), s("y"));
    // A ẋ ẏ/C − B ẋ ẏ/C + A x²: grouped, (A − B) x y/C + A x².
    let e = a.clone() * x.clone() * y.clone() / c.clone() - b * x.clone() * y / c + a * x.powi(2);
    let vars = ["x".to_string(), "y".to_string()];
    let grouped = e.simplest_in(&vars);
    assert!((grouped.clone() - e.clone()).is_zero(), "{grouped:?}");
    let leaves = crate::print::leaves(&grouped);
    assert!(leaves <= 8, "{grouped:?}: {leaves} leaves");
}

/// `y + Σ x_k (cos(a + b) − cos a cos b + sin a sin b)`: kept whole, its plain forms print 37
/// leaves (no factor is common to `y` and the rest); expanded, it is `y`. The whole base is more
/// than [`SEARCHED_BASE_RATIO`] times longer, so only its plain forms are offered, and the
/// expansion wins.
#[test]
fn a_base_far_longer_than_its_expansion_is_not_searched() {
    let (a, b, y) = (s("a"), s("b"), s("y"));
    let (sa, ca) = (
        Expr::apply(Func::Sin, a.clone()),
        Expr::apply(Func::Cos, a.clone()),
    );
    let (sb, cb) = (
        Expr::apply(Func::Sin, b.clone()),
        Expr::apply(Func::Cos, b.clone()),
    );
    let gap = Expr::apply(Func::Cos, a + b) - ca * cb + sa * sb;
    let xs = (1..=4).map(|k| s(&format!("x{k}")) * gap.clone());
    let e = y.clone() + Expr::sum(xs);
    let searched: Vec<Search> = searched_bases(&e).into_iter().map(|(_, s)| s).collect();
    assert_eq!(searched, [Search::Normal, Search::Full]);
    assert_eq!(e.simplest(), y);
}

/// Two bases of comparable length are both searched: `x cos(a + b) + y sin(a + b)` (6 leaves)
/// against its expansion (12).
#[test]
fn bases_of_comparable_length_are_both_searched() {
    let (a, b, x, y) = (s("a"), s("b"), s("x"), s("y"));
    let e = x * Expr::apply(Func::Cos, a.clone() + b.clone()) + y * Expr::apply(Func::Sin, a + b);
    let searched: Vec<Search> = searched_bases(&e).into_iter().map(|(_, s)| s).collect();
    assert_eq!(searched, [Search::Full, Search::Full]);
}

/// A base whose normal forms are more than [`SEARCHED_BASE_RATIO`] times longer than another's
/// has no split forms made (its plain leaves are never asked for); among the others, one whose
/// plain forms are more than that many times longer than the shortest plain form of any base
/// offers only them.
#[test]
fn searches_follow_the_ratio_to_the_shortest_base() {
    let asked = std::cell::RefCell::new(Vec::new());
    let plain = |plains: &'static [usize]| {
        let asked = &asked;
        move |k: usize| {
            asked.borrow_mut().push(k);
            plains[k]
        }
    };
    // Normal forms 100 against 30: the first has no split forms.
    assert_eq!(
        searches(&[100, 30], plain(&[0, 30])),
        [Search::Normal, Search::Full]
    );
    assert_eq!(asked.take(), [1]);
    // Normal forms 90 against 30 (exactly three times): both have split forms; the second's
    // split forms print 20 leaves, and the first's shortest (80) is more than 60.
    assert_eq!(
        searches(&[90, 30], plain(&[80, 20])),
        [Search::Plain, Search::Full]
    );
    assert_eq!(asked.take(), [0, 1]);
    // A base whose split forms are short keeps both searched: 60 ≤ 3 × 20.
    assert_eq!(
        searches(&[90, 30], plain(&[60, 20])),
        [Search::Full, Search::Full]
    );
    assert_eq!(asked.take(), [0, 1]);
    // Three bases: the first has no split forms (100 against 10); the third's plain forms (30)
    // are within three times the second's (10).
    assert_eq!(
        searches(&[100, 10, 30], plain(&[0, 10, 30])),
        [Search::Normal, Search::Full, Search::Full]
    );
    assert_eq!(asked.take(), [1, 2]);
}

/// Common factors come out to their least power (`a w² X − a b m v w` is `a w (w X − b m v)`);
/// a sum whose first terms share nothing comes back as it is.
#[test]
fn common_factors_come_out_to_their_least_power() {
    let (a, b, m, v, w, x) = (s("a"), s("b"), s("m"), s("v"), s("w"), s("X"));
    let e = a.clone() * w.powi(2) * x.clone()
        - a.clone() * b.clone() * m.clone() * v.clone() * w.clone();
    let by_hand =
        a.clone() * w.clone() * (w.clone() * x.clone() - b.clone() * m.clone() * v.clone());
    assert_eq!(with_common_factors(&e).0, by_hand.0);
    let none = a.clone() * w.clone() + b.clone() * x.clone() + a.clone() * x;
    assert_eq!(with_common_factors(&none).0, none.0);
    let (m2, v2) = (m.clone().powi(2), v.clone());
    let keyed = grouped([(m2.clone(), 1), (v2.clone(), 2), (m2.clone(), 3)]);
    assert_eq!(keyed, vec![(m2, vec![1, 3]), (v2, vec![2])]);
}
