//! Seed 001 (Theorem 5.1; digest 001 §1.6, §4 items 1 and 10): the nonholonomic equations as the
//! unconstrained Euler–Lagrange equations of the restricted Lagrangian on the induced algebroid
//! `(D, ε_P)`, proved equal to the Lagrange–d'Alembert equations with multipliers on every golden
//! where the route applies (a mechanical Lagrangian and linear constraints on a Lie algebroid).
//!
//! The Lagrange–d'Alembert state `(x, y)` is mapped to `(x, v)` by the frame: on `D`,
//! `y = v^a X_a`, so `v^a = (T⁻¹)_B^a y^B` and
//! `v̇^a = (T⁻¹)_B^a ẏ^B + y^B ∂_i(T⁻¹)_B^a ẋ^i` along the Lagrange–d'Alembert dynamics.

use cas::Expr;

use super::{cases, derive};

/// Checks that the induced route of `d` gives its Lagrange–d'Alembert equations.
fn induced_equals_lagrange_d_alembert(label: &str, d: &mech::Derivation) {
    let projected = d.projected.as_ref().expect("the induced route");
    let system = &d.system;
    let induced = &projected.induced;
    let dirac = mech::hamilton::dirac::structure(system).expect("a frame");
    let m = system.coordinates.len();
    let fibre = d.fibre_rhs();
    let on_d = |e: &Expr| e.subs(&induced.on_d).simplify();
    for i in 0..m {
        let difference = on_d(&(d.equations[i].rhs.clone() - induced.rates[i].clone()));
        assert!(
            difference.vanishes(),
            "{label}: {}'",
            system.key(system.coordinates[i])
        );
    }
    for (k, &a) in dirac.along.iter().enumerate() {
        let mut rate = Expr::zero();
        for (b, y) in system.algebroid.velocities.iter().enumerate() {
            let t = &dirac.inverse[b][a];
            rate = rate + t.clone() * fibre[b].clone();
            for (i, q) in system.keys(&system.coordinates).iter().enumerate() {
                rate = rate + system.expr(*y) * t.diff(q) * d.equations[i].rhs.clone();
            }
        }
        let expected = on_d(&rate);
        let got = &induced.rates[m + k];
        assert!(
            (expected.clone() - got.clone()).vanishes(),
            "{label}: {}' is {} on the induced route but {} from Lagrange–d'Alembert",
            induced.velocities[k],
            dalembert::show(d, got),
            dalembert::show(d, &expected)
        );
    }
    // The energy of l is the energy of L on D.
    assert!(
        (on_d(&d.lagrangian.energy) - induced.energy.clone()).vanishes(),
        "{label}: energy"
    );
}

#[test]
fn induced_route_equals_lagrange_d_alembert() {
    let mut checked = Vec::new();
    for case in cases() {
        let d = derive(&case);
        if d.projected.is_err() {
            continue;
        }
        induced_equals_lagrange_d_alembert(&case.display().to_string(), &d);
        checked.push(case.file_name().unwrap().to_string_lossy().into_owned());
    }
    for expected in [
        "ball_on_table",
        "chaplygin_sleigh",
        "chaplygin_sleigh_printed",
        "nonholonomic_particle",
        "skater_slope",
        "snakeboard",
        "damped_skate_forced",
    ] {
        assert!(
            checked.iter().any(|c| c == expected),
            "{expected}: {checked:?}"
        );
    }
}

/// Digest 001 §4 item 10: a change of the frame of `D` changes the structure functions but not
/// the motion. The two sleighs without their `frame` (so with the frame computed from the
/// constraints, in the other order) give different structure functions and the same
/// Lagrange–d'Alembert equations as with the paper's frame. The snakeboard's computed frame is
/// rational in the sines of sums of angles: its projected structure is refused as too large
/// (the reason the paper chose its frame), and its motion is unchanged.
#[test]
fn computed_and_declared_frames_give_the_same_motion() {
    for name in ["chaplygin_sleigh", "chaplygin_sleigh_printed", "snakeboard"] {
        let path = super::root().join("golden").join(name).join("spec.mech");
        let source = std::fs::read_to_string(path).unwrap();
        let start = source.find("frame {").unwrap();
        let end = start + source[start..].find("}\n").unwrap() + 2;
        // Without the frame, the names of its momenta and velocities (and the blocks and
        // symmetries that use them) go too.
        let kept: String = (source[..start].to_string() + &source[end..])
            .split("\n\n")
            .filter(|block| {
                let head = block.trim_start_matches(|c: char| c == '#' || c.is_whitespace());
                let frame_free = [
                    "expect equations",
                    "expect multipliers",
                    "expect energy",
                    "expect first_integrals",
                ]
                .iter()
                .any(|k| block.contains(k));
                (frame_free || !block.contains("expect "))
                    && !block.contains("symmetry ")
                    && !head.is_empty()
            })
            .collect::<Vec<_>>()
            .join("\n\n");
        let computed = dalembert::compile(&kept)
            .unwrap_or_else(|e| panic!("{}", dalembert::render_plain("spec.mech", &kept, &e)));
        assert!(!computed.system.frame.as_ref().unwrap().declared);
        let declared = derive(&super::root().join("golden").join(name));
        if name == "snakeboard" {
            assert!(
                matches!(
                    computed.projected,
                    Err(mech::hamilton::projected::Unavailable::Large(_))
                ),
                "{name}: {:?}",
                computed.projected.as_ref().err()
            );
            for (a, b) in computed.equations.iter().zip(&declared.equations) {
                assert!(
                    (a.rhs.clone() - b.rhs.clone()).vanishes(),
                    "{name}: {}'",
                    a.state
                );
            }
            continue;
        }
        let structure = |d: &mech::Derivation| d.projected.as_ref().unwrap().structure.clone();
        assert_ne!(
            structure(&computed),
            structure(&declared),
            "{name}: the frames should differ"
        );
        induced_equals_lagrange_d_alembert(&format!("{name} (computed frame)"), &computed);
        induced_equals_lagrange_d_alembert(&format!("{name} (declared frame)"), &declared);
        for (a, b) in computed.equations.iter().zip(&declared.equations) {
            assert!(
                (a.rhs.clone() - b.rhs.clone()).vanishes(),
                "{name}: {}'",
                a.state
            );
        }
    }
}

/// A declared symmetry that fails reports its defect `S = d_T(X)(l) − d_T(f)`, which is the
/// right-hand side of its momentum equation (5.6): the snakeboard's `(e3, 0)` gives L531,
/// `2 u2 (J0 cos 2φ u1 − m r² sin 2φ u3)`, and the sleigh's `(e2, 0)` gives `m a y1²` (digest 001
/// §3.3–3.4); the snakeboard's `(e1, 0)`, `(e2, 0)` hold.
#[test]
fn noether_defects_are_the_momentum_equations() {
    let snakeboard = derive(&super::root().join("golden/snakeboard"));
    let p = snakeboard.projected.as_ref().expect("projected");
    let by_name = |name: &str| p.noether.iter().find(|n| n.name == name).unwrap();
    assert!(by_name("rotor").holds && by_name("wheels").holds);
    let drive = by_name("drive");
    assert!(!drive.holds);
    let expected = syntax::parse_expr("2*u2*(J0*cos(2*phi)*u1 - m*r^2*sin(2*phi)*u3)").unwrap();
    let expected = snakeboard
        .system
        .scope
        .convert(&expected, model::ScopeKind::Induced)
        .unwrap();
    assert!(
        (drive.killing.clone() - expected).vanishes(),
        "{}",
        dalembert::show(&snakeboard, &drive.killing)
    );
    assert!(drive.potential.vanishes() && drive.gauge.vanishes());

    let sleigh = derive(&super::root().join("golden/chaplygin_sleigh"));
    let p = sleigh.projected.as_ref().expect("projected");
    let slide = &p.noether[0];
    assert!(!slide.holds);
    let expected = sleigh
        .system
        .scope
        .convert(
            &syntax::parse_expr("m*a*y1^2").unwrap(),
            model::ScopeKind::Induced,
        )
        .unwrap();
    assert!(
        (slide.killing.clone() - expected).vanishes(),
        "{}",
        dalembert::show(&sleigh, &slide.killing)
    );
}
