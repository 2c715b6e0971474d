//! `dalembert reduce` on the goldens of `golden/reduction/`: systems written on `TQ` in
//! coordinates, with a declared symmetry group, reduced to an algebroid.
//!
//! - pass: each reduces to its committed `expected/<system>_reduced.mech`, and that text reads
//!   back as a spec.
//! - two routes: each folder's `reference` names a golden whose algebroid was reduced by hand
//!   (in the papers, or in its notes). The reduced system is proved equal to it: the same
//!   anchors and brackets, the same Lagrangian and forces, the same constraint distribution; and every
//!   `expect` block of the hand-written golden (with its `frame` and Noether `symmetry` items)
//!   holds on the reduced system.
//! - the TQ specs themselves derive, and their own `expect` blocks hold.

use std::fs;
use std::path::Path;

use cas::Expr;
use dalembert::Verdict;
use syntax::ast::ItemKind;

use super::{compare, family};

fn reduced(case: &Path) -> dalembert::reduce::Reduced {
    let source = fs::read_to_string(case.join("spec.mech")).unwrap();
    match dalembert::reduce::reduce_spec(&source) {
        Ok(r) => r,
        Err(d) => panic!(
            "{}: {}",
            case.display(),
            dalembert::render_plain("spec.mech", &source, &d)
        ),
    }
}

fn resolved(source: &str) -> model::System {
    let spec = syntax::parse(source)
        .unwrap_or_else(|d| panic!("{}", dalembert::render_plain("spec", source, &d)));
    model::resolve(&spec)
        .unwrap_or_else(|d| panic!("{}", dalembert::render_plain("spec", source, &d)))
}

#[test]
fn reduction_goldens_reduce_to_their_committed_specs() {
    let mut failures = Vec::new();
    for case in family::cases("reduction", 2) {
        for artifact in reduced(&case).artifacts {
            if let Err(e) = compare(
                &case.join("expected").join(&artifact.file_name),
                &artifact.contents,
            ) {
                failures.push(e);
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn reduction_goldens_derive_on_tq_and_their_expectations_hold() {
    family::expectations("reduction", 0);
}

fn same(a: &Expr, b: &Expr) -> bool {
    (a - b).vanishes()
}

/// The reduced algebroid, Lagrangian and constraints equal the reference's.
fn structure_equal(name: &str, ours: &model::System, theirs: &model::System) -> Vec<String> {
    let mut failures = Vec::new();
    let mut fail = |what: String| failures.push(format!("{name}: {what}"));
    let (a, b) = (&ours.algebroid, &theirs.algebroid);
    if a.sections != b.sections
        || ours.keys(&a.velocities) != theirs.keys(&b.velocities)
        || ours.keys(&ours.coordinates) != theirs.keys(&theirs.coordinates)
    {
        fail(format!(
            "names differ: {:?} {:?} {:?} vs {:?} {:?} {:?}",
            a.sections,
            ours.keys(&a.velocities),
            ours.keys(&ours.coordinates),
            b.sections,
            theirs.keys(&b.velocities),
            theirs.keys(&theirs.coordinates)
        ));
        return failures;
    }
    let n = a.sections.len();
    for (i, (x, y)) in a.anchor0.iter().zip(&b.anchor0).enumerate() {
        if !same(x, y) {
            fail(format!("rho_0 component {i}"));
        }
    }
    for al in 0..n {
        for (i, (x, y)) in a.anchors[al].iter().zip(&b.anchors[al]).enumerate() {
            if !same(x, y) {
                fail(format!("anchor of {} component {i}", a.sections[al]));
            }
        }
        for g in 0..n {
            if !same(&a.c0[al][g], &b.c0[al][g]) {
                fail(format!("C^{}_0{}", a.sections[g], a.sections[al]));
            }
            for be in 0..n {
                if !same(&a.c[al][be][g], &b.c[al][be][g]) {
                    fail(format!(
                        "[{}, {}] coefficient of {}",
                        a.sections[al], a.sections[be], a.sections[g]
                    ));
                }
            }
        }
    }
    if !same(&ours.lagrangian, &theirs.lagrangian) {
        fail("the Lagrangians differ".to_string());
    }
    for (e, (x, y)) in a
        .sections
        .iter()
        .zip(ours.forces.iter().zip(&theirs.forces))
    {
        if !same(x, y) {
            fail(format!("the forces on {e} differ"));
        }
    }
    // The same constraint distribution: the rows (mu_0, mu) of each set span the same space.
    let rows = |s: &model::System| -> Vec<Vec<Expr>> {
        s.constraints
            .iter()
            .map(|c| {
                std::iter::once(c.mu0.clone())
                    .chain(c.mu.iter().cloned())
                    .collect()
            })
            .collect()
    };
    let (r1, r2) = (rows(ours), rows(theirs));
    let both: Vec<Vec<Expr>> = r1.iter().chain(&r2).cloned().collect();
    let ranks = (cas::rank(&r1).0, cas::rank(&r2).0, cas::rank(&both).0);
    if ranks.0 != ranks.1 || ranks.1 != ranks.2 {
        fail(format!("the constraints differ (ranks {ranks:?})"));
    }
    failures
}

/// The reference's `frame`, Noether `symmetry` and `expect` items, as written.
fn reference_claims(source: &str) -> String {
    let spec = syntax::parse(source).unwrap();
    spec.items
        .iter()
        .filter(|i| {
            matches!(
                i.kind,
                ItemKind::Frame(_) | ItemKind::Symmetry { .. } | ItemKind::Expect(_)
            )
        })
        .map(|i| &source[i.span.start..i.span.end])
        .collect::<Vec<_>>()
        .join("\n\n")
}

#[test]
fn reduced_systems_equal_the_hand_written_algebroids_and_satisfy_their_expectations() {
    let mut failures = Vec::new();
    for case in family::cases("reduction", 2) {
        let Ok(reference) = fs::read_to_string(case.join("reference")) else {
            continue;
        };
        let name = case.file_name().unwrap().to_string_lossy().to_string();
        let reference_source = fs::read_to_string(case.join(reference.trim())).unwrap();
        let ours = reduced(&case).text;
        failures.extend(structure_equal(
            &name,
            &resolved(&ours),
            &resolved(&reference_source),
        ));
        let claims = reference_claims(&reference_source);
        let combined = format!("{ours}\n{claims}\n");
        let (system, outcomes) = dalembert::check_source(&combined).unwrap_or_else(|e| {
            panic!(
                "{}",
                dalembert::render_plain("combined.mech", &combined, &e)
            )
        });
        assert!(
            !outcomes.is_empty(),
            "{name}: the reference has no expectations"
        );
        for o in outcomes {
            if let Verdict::Differs(by) = &o.verdict {
                failures.push(format!(
                    "{name}: expect {} {}: differs by {}",
                    o.kind,
                    o.key,
                    cas::print::spec(by, &system)
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The TQ systems derive to their committed artifacts, whose documents carry the section
/// "Reduction by symmetry" (and whose JSON carries `reduction`, checked against the schema by
/// `schema.rs`).
#[test]
fn reduction_goldens_derive_to_their_committed_artifacts() {
    family::pass("reduction");
}

#[test]
fn reduction_documents_compile() {
    family::documents_compile("reduction");
}

/// The reconstruction is integrated: `simulate` on the reduced sleigh over all of `Q`
/// (`<system>_reconstruction.mech`: the reduced equations with `q̇ = y^α X_α(q)`) gives the same
/// motion as `simulate` on the unreduced system in `(x, y, θ)`, to 1e-9 over T = 10, from the
/// same initial state (`v1 = cos θ ẋ + sin θ ẏ`, `v2 = 0`, `w = θ̇`).
#[test]
fn reconstruction_of_the_reduced_sleigh_follows_the_unreduced_motion() {
    let case = super::root().join("golden/reduction/chaplygin_sleigh");
    let reduced = reduced(&case);
    let whole = reduced
        .artifacts
        .iter()
        .find(|a| a.file_name.ends_with("_reconstruction.mech"))
        .expect("the reconstruction spec")
        .contents
        .clone();
    let unreduced = fs::read_to_string(case.join("spec.mech")).unwrap();
    let (theta, v1, w) = (0.3_f64, 1.0_f64, 0.7_f64);
    let request = |init: String| dalembert::simulate::Request {
        set: "m=1.3,J=0.2,a=0.3,b=0.1".to_string(),
        init,
        input: String::new(),
        until: 10.0,
        dt: Some(0.5),
        integrator: dalembert::simulate::Integrator::DormandPrince,
        tolerances: (1e-13, 1e-13),
        project_init: false,
        no_project: false,
        progress: false,
    };
    let run = |source: &str, init: String| match dalembert::simulate::simulate_spec(
        source,
        &request(init),
        &dalembert::Options::default(),
    ) {
        Ok(s) => s.trajectory,
        Err(d) => panic!("{}", dalembert::render_plain("spec", source, &d)),
    };
    let full = run(
        &unreduced,
        format!(
            "x=0,y=0,theta={theta},x'={},y'={},theta'={w}",
            v1 * theta.cos(),
            v1 * theta.sin()
        ),
    );
    let rebuilt = run(&whole, format!("x=0,y=0,theta={theta},v1={v1},v2=0,w={w}"));
    assert_eq!(full.times, rebuilt.times);
    let column = |t: &sim::Trajectory, name: &str| {
        t.state_names
            .iter()
            .position(|n| n == name)
            .unwrap_or_else(|| panic!("{name} in {:?}", t.state_names))
    };
    let mut worst = 0.0_f64;
    for name in ["x", "y", "theta"] {
        let (i, j) = (column(&full, name), column(&rebuilt, name));
        for (a, b) in full.states.iter().zip(&rebuilt.states) {
            worst = worst.max((a[i] - b[j]).abs());
        }
    }
    // The motion goes somewhere: the sleigh turns and moves by more than a body length.
    let last = full.states.last().unwrap();
    assert!(last[column(&full, "x")].hypot(last[column(&full, "y")]) > 1.0);
    assert!(
        worst < 1e-9,
        "the reconstructed motion differs by {worst:e}"
    );
}

/// The free rigid body by both routes of SE(3), integrated: the reconstruction specs of the
/// quaternion route (the reduced se(3) equations with `ẋ = R(q) v`, `q̇ = ½ q ⊗ (0, w)`) and of
/// the Euler-angle route (`ẋ = R(ψ, θ, φ) v`, the angles from the body angular velocity) move the
/// centre of mass along the straight line `x(t) = x0 + ẋ0 t` (no force acts: the world momentum
/// is constant, by hand) and turn the body alike (its first axis `R e1` in world axes, from each
/// chart), to 1e-9 over T = 4, from one initial state written in each chart; `|q|` stays 1.
#[test]
fn free_body_routes_of_se3_move_the_centre_uniformly() {
    let root = super::root().join("golden/reduction");
    let quaternion = reduced(&root.join("free_body_quaternion"));
    let whole = quaternion
        .artifacts
        .iter()
        .find(|a| a.file_name.ends_with("_reconstruction.mech"))
        .expect("the reconstruction spec")
        .contents
        .clone();
    let euler = reduced(&root.join("free_body_euler"))
        .artifacts
        .iter()
        .find(|a| a.file_name.ends_with("_reconstruction.mech"))
        .expect("the reconstruction spec")
        .contents
        .clone();
    let (psi, theta, phi) = (0.3_f64, 0.2_f64, -0.4_f64);
    let (dpsi, dtheta, dphi) = (0.5_f64, -0.3_f64, 0.8_f64);
    let xdot = [1.0_f64, -0.5, 0.25];
    // R = R_z(psi) R_y(theta) R_x(phi), v = R^T xdot, w the body angular velocity.
    let (cs, ss) = (psi.cos(), psi.sin());
    let (ct, st) = (theta.cos(), theta.sin());
    let (cp, sp) = (phi.cos(), phi.sin());
    let r = [
        [cs * ct, cs * st * sp - ss * cp, cs * st * cp + ss * sp],
        [ss * ct, ss * st * sp + cs * cp, ss * st * cp - cs * sp],
        [-st, ct * sp, ct * cp],
    ];
    let v: Vec<f64> = (0..3)
        .map(|i| (0..3).map(|k| r[k][i] * xdot[k]).sum())
        .collect();
    let w = [
        dphi - dpsi * st,
        dtheta * cp + dpsi * sp * ct,
        -dtheta * sp + dpsi * cp * ct,
    ];
    // q = q_z(psi) ⊗ q_y(theta) ⊗ q_x(phi).
    let mul = |a: [f64; 4], b: [f64; 4]| {
        [
            a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3],
            a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2],
            a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1],
            a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0],
        ]
    };
    let q = mul(
        mul(
            [(psi / 2.0).cos(), 0.0, 0.0, (psi / 2.0).sin()],
            [(theta / 2.0).cos(), 0.0, (theta / 2.0).sin(), 0.0],
        ),
        [(phi / 2.0).cos(), (phi / 2.0).sin(), 0.0, 0.0],
    );
    let request = |init: String| dalembert::simulate::Request {
        set: "m=2,A=1,B=2,C=3".to_string(),
        init,
        input: String::new(),
        until: 4.0,
        dt: Some(0.5),
        integrator: dalembert::simulate::Integrator::DormandPrince,
        tolerances: (1e-13, 1e-13),
        project_init: false,
        no_project: false,
        progress: false,
    };
    let run = |source: &str, init: String| match dalembert::simulate::simulate_spec(
        source,
        &request(init),
        &dalembert::Options::default(),
    ) {
        Ok(s) => s.trajectory,
        Err(d) => panic!("{}", dalembert::render_plain("spec", source, &d)),
    };
    let on_euler = run(
        &euler,
        format!(
            "x=0,y=0,z=0,psi={psi},theta={theta},phi={phi},v1={},v2={},v3={},w1={},w2={},w3={}",
            v[0], v[1], v[2], w[0], w[1], w[2]
        ),
    );
    let on_quaternion = run(
        &whole,
        format!(
            "x=0,y=0,z=0,q0={},q1={},q2={},q3={},v1={},v2={},v3={},w1={},w2={},w3={}",
            q[0], q[1], q[2], q[3], v[0], v[1], v[2], w[0], w[1], w[2]
        ),
    );
    let column = |t: &sim::Trajectory, name: &str| {
        t.state_names
            .iter()
            .position(|n| n == name)
            .unwrap_or_else(|| panic!("{name} in {:?}", t.state_names))
    };
    let mut worst = 0.0_f64;
    for t in [&on_euler, &on_quaternion] {
        for (time, state) in t.times.iter().zip(&t.states) {
            for (k, name) in ["x", "y", "z"].into_iter().enumerate() {
                worst = worst.max((state[column(t, name)] - xdot[k] * time).abs());
            }
        }
    }
    assert_eq!(on_euler.times, on_quaternion.times);
    for (a, b) in on_euler.states.iter().zip(&on_quaternion.states) {
        let e = |n: &str| a[column(&on_euler, n)];
        let q = |n: &str| b[column(&on_quaternion, n)];
        let (psi, theta) = (e("psi"), e("theta"));
        let from_euler = [
            psi.cos() * theta.cos(),
            psi.sin() * theta.cos(),
            -theta.sin(),
        ];
        let norm = q("q0").powi(2) + q("q1").powi(2) + q("q2").powi(2) + q("q3").powi(2);
        let from_quaternion = [
            (q("q0").powi(2) + q("q1").powi(2) - q("q2").powi(2) - q("q3").powi(2)) / norm,
            2.0 * (q("q1") * q("q2") + q("q0") * q("q3")) / norm,
            2.0 * (q("q1") * q("q3") - q("q0") * q("q2")) / norm,
        ];
        for k in 0..3 {
            worst = worst.max((from_euler[k] - from_quaternion[k]).abs());
        }
    }
    for state in &on_quaternion.states {
        let norm: f64 = ["q0", "q1", "q2", "q3"]
            .iter()
            .map(|n| state[column(&on_quaternion, n)].powi(2))
            .sum();
        worst = worst.max((norm - 1.0).abs());
    }
    assert!(on_quaternion.times.last().copied() == Some(4.0));
    assert!(worst < 1e-9, "the routes differ from the line by {worst:e}");
}

/// Routh reduction of the spherical pendulum at the vertical angular momentum `mu`: the
/// Routh-reduced spec `dalembert reduce` writes satisfies the hand-derived `routh.expect` (its
/// equation of motion is `m l² θ̈ = −V_μ'(θ)` and its energy is `m l² θ̇²/2 + V_μ`), and the relative
/// equilibria are where `m g l sin θ − μ² cos θ/(m l² sin³ θ)` vanishes (by hand, in the spec's
/// comment).
#[test]
fn routh_reduction_of_the_spherical_pendulum_gives_the_amended_potential() {
    let case = super::root().join("golden/reduction/spherical_pendulum");
    let reduced = reduced(&case);
    let routh = reduced
        .artifacts
        .iter()
        .find(|a| a.file_name.ends_with("_routh.mech"))
        .expect("the Routh spec")
        .contents
        .clone();
    let claims = fs::read_to_string(case.join("routh.expect")).unwrap();
    let combined = format!("{routh}\n{claims}");
    let (system, outcomes) = dalembert::check_source(&combined)
        .unwrap_or_else(|e| panic!("{}", dalembert::render_plain("routh.mech", &combined, &e)));
    assert_eq!(outcomes.len(), 3, "{outcomes:?}");
    for o in &outcomes {
        if let Verdict::Differs(by) = &o.verdict {
            panic!(
                "expect {} {}: differs by {}",
                o.kind,
                o.key,
                cas::print::spec(by, &system)
            );
        }
    }
    let r = reduced.reduction.routh.expect("a Routh reduction");
    let s = Expr::symbol;
    let (sin, cos) = (
        Expr::apply(cas::Func::Sin, s("theta")),
        Expr::apply(cas::Func::Cos, s("theta")),
    );
    let by_hand = s("m") * s("g") * s("l") * sin.clone()
        - s("mu").powi(2) * cos / (s("m") * s("l").powi(2) * sin.powi(3));
    assert!(
        same(&r.equilibria[0], &by_hand),
        "dV/dtheta = {:?}",
        r.equilibria[0]
    );
}

fn symbol(name: &str) -> Expr {
    Expr::symbol(name)
}

fn trig(f: cas::Func, name: &str) -> Expr {
    Expr::apply(f, symbol(name))
}

/// The snakeboard's momentum equation (Bloch, Krishnaprasad, Marsden and Murray 1996), by hand in
/// `golden/reduction/snakeboard/notes.md`: the one direction of SE(2) the constraints allow is
/// `σ = −r cos φ E1 + sin φ E3`, its momentum `p = m r (r sin φ w − cos φ v1)` obeys
/// `ṗ = J0 cos φ φ̇ ψ̇`. In the normalisation `2 cos φ σ` of [GLMM09] (its `e3`), it is the
/// published `ṗ' = 2 J0 cos² φ φ̇ ψ̇ − tan φ φ̇ p'`; and with `p' = ∂l/∂u3` of `golden/snakeboard` it
/// is the defect `2 u2 (J0 cos 2φ u1 − m r² sin 2φ u3)` that golden's Noether test checks (a second
/// route: the projected algebroid on D).
#[test]
fn snakeboard_momentum_equation_is_the_published_one() {
    use cas::Func::{Cos, Sin};
    let r = reduced(&super::root().join("golden/reduction/snakeboard")).reduction;
    assert_eq!(r.momentum_equations.len(), 1, "one allowed direction");
    let e = &r.momentum_equations[0];
    let (s, c) = (trig(Sin, "phi"), trig(Cos, "phi"));
    let direction = [-(symbol("r") * c.clone()), Expr::zero(), s.clone()];
    for (got, want) in e.direction.iter().zip(&direction) {
        assert!(same(got, want), "direction {:?}", e.direction);
    }
    let momentum = symbol("m")
        * symbol("r")
        * (symbol("r") * s.clone() * symbol("w") - c.clone() * symbol("v1"));
    assert!(same(&e.momentum, &momentum), "momentum {:?}", e.momentum);
    let rate = symbol("J0") * c.clone() * symbol("phi_dot") * symbol("psi_dot");
    assert!(same(&e.rate, &rate), "rate {:?}", e.rate);
    let in_momenta = e.rate_in_momenta.clone().expect("solvable in the momentum");
    assert!(!e.conserved);
    // p' = 2 cos(phi) p: d/dt p' = -2 sin(phi) phi' p + 2 cos(phi) p', with p = p'/(2 cos(phi)).
    let p_glmm = symbol("Pg");
    let p = p_glmm.clone() / (Expr::int(2) * c.clone());
    let rate_glmm = -(Expr::int(2) * s.clone() * symbol("phi_dot") * p.clone())
        + Expr::int(2) * c.clone() * in_momenta.subs1(&e.name, &p);
    let published = Expr::int(2) * symbol("J0") * c.powi(2) * symbol("phi_dot") * symbol("psi_dot")
        - s.clone() / c.clone() * symbol("phi_dot") * p_glmm.clone();
    assert!(
        same(&rate_glmm, &published),
        "in [GLMM09]'s normalisation: {rate_glmm:?}"
    );
    // With p' = dl/du3 of golden/snakeboard (u1 = psi', u2 = phi'): its Noether defect of e3.
    let (u1, u2, u3) = (symbol("u1"), symbol("u2"), symbol("u3"));
    let two_phi = |f| Expr::apply(f, Expr::int(2) * symbol("phi"));
    let p_u3 = Expr::int(4) * symbol("m") * symbol("r").powi(2) * c.powi(2) * u3.clone()
        + symbol("J0") * two_phi(Sin) * u1.clone();
    let mut on_u = std::collections::BTreeMap::new();
    on_u.insert("Pg".to_string(), p_u3);
    on_u.insert("psi_dot".to_string(), u1.clone());
    on_u.insert("phi_dot".to_string(), u2.clone());
    let defect = Expr::int(2)
        * u2
        * (symbol("J0") * two_phi(Cos) * u1
            - symbol("m") * symbol("r").powi(2) * two_phi(Sin) * u3);
    assert!(same(&published.subs(&on_u), &defect));
}

/// An integrable momentum equation (golden/reduction/nonholonomic_particle, notes.md by hand):
/// along `σ = E1 + y E2` the momentum `p = v1 + y v2` is not conserved, `ṗ = y ẏ p/(1 + y²)`, and
/// its integrating factor gives the first integral `p/√(1 + y²)` (on D, `ẋ √(1 + y²)`, which the
/// spec's expect block checks on the unreduced system).
#[test]
fn nonholonomic_particle_momentum_equation_is_integrated() {
    let source =
        fs::read_to_string(super::root().join("golden/reduction/nonholonomic_particle/spec.mech"))
            .unwrap();
    let r = mech::reduction::reduce(&resolved(&source)).expect("reduces");
    assert_eq!(r.momentum_equations.len(), 1);
    let e = &r.momentum_equations[0];
    assert!(!e.conserved);
    let (v1, v2, y, y_dot) = (symbol("v1"), symbol("v2"), symbol("y"), symbol("y_dot"));
    let p = &v1 + &(&y * &v2);
    assert!(same(&e.momentum, &p), "p = {:?}", e.momentum);
    let norm = (Expr::one() + y.powi(2)).pow(&Expr::rational(1, 2));
    let rate = e.rate_in_momenta.clone().expect("in the momenta");
    let by_hand = &(&(&y * &y_dot) * &symbol(&e.name)) / &(Expr::one() + y.powi(2));
    assert!(same(&rate, &by_hand), "p' = {rate:?}");
    let integral = e.integral.clone().expect("an integral");
    assert!(same(&integral, &(&p / &norm)), "integral = {integral:?}");
}

/// Without constraints every direction of the group is allowed: the spherical pendulum's
/// vertical angular momentum `m l² sin² θ Ω` is conserved (by hand).
#[test]
fn spherical_pendulum_vertical_angular_momentum_is_conserved() {
    use cas::Func::Sin;
    let r = reduced(&super::root().join("golden/reduction/spherical_pendulum")).reduction;
    assert_eq!(r.momentum_equations.len(), 1);
    let e = &r.momentum_equations[0];
    let momentum = symbol("m") * symbol("l").powi(2) * trig(Sin, "theta").powi(2) * symbol("Omega");
    assert!(same(&e.momentum, &momentum), "{:?}", e.momentum);
    assert!(e.conserved && e.rate.vanishes());
}

/// A skate with a rotor on SE(2) × S¹, its mechanical connection typed in by hand
/// (`A(d/dpsi) = J0/(J + J0) E3`: the locked inertia is diag(m, m, J + J0), the rotor couples to
/// the rotation by J0) gives the same reduced system as the one dalembert computes; the same form
/// made to depend on the heading is refused as not invariant.
#[test]
fn a_given_connection_is_checked_and_equals_the_computed_one() {
    let spec = |connection: &str| {
        format!(
            "system skate_rotor\nparameters m, J, J0\ncoordinates x, y, theta, psi\nalgebroid tangent\n\
             lagrangian = m/2*(x'^2 + y'^2) + J/2*theta'^2 + J0/2*(theta' + psi')^2\n\
             symmetry SE2 on x, y, theta {{\n{connection}\n}}\n"
        )
    };
    let given = "  connection {\n    A(d/dx) = cos(theta)*E1 - sin(theta)*E2\n    A(d/dy) = sin(theta)*E1 + cos(theta)*E2\n    A(d/dtheta) = E3\n    A(d/dpsi) = FACTOR*E3\n  }";
    let reduce = |source: &str| dalembert::reduce::reduce_spec(source);
    let typed = reduce(&spec(&given.replace("FACTOR", "J0/(J + J0)"))).expect("a connection");
    let computed = reduce(&spec("")).expect("the mechanical connection");
    let (a, b) = (&typed.reduction, &computed.reduction);
    assert_eq!(a.connection, report::Connection::Given);
    for (x, y) in a
        .connection_form
        .iter()
        .flatten()
        .zip(b.connection_form.iter().flatten())
    {
        assert!(same(x, y));
    }
    for (x, y) in a
        .brackets
        .iter()
        .flatten()
        .flatten()
        .zip(b.brackets.iter().flatten().flatten())
    {
        assert!(same(x, y));
    }
    assert!(same(&a.lagrangian, &b.lagrangian));
    let twisted = spec(&given.replace("FACTOR", "J0/(J + J0)*cos(theta)"));
    match reduce(&twisted) {
        Err(d) => {
            assert_eq!(d[0].code, "E0283");
            assert!(d[0].message.contains("not invariant"), "{}", d[0].message);
        }
        _ => panic!("a connection that depends on the heading is not invariant"),
    }
}

/// The snakeboard's nonholonomic connection, by hand (notes.md of golden/reduction/snakeboard):
/// `h_ψ, h_φ` in D and orthogonal to `σ = −r cos φ E1 + sin φ E3` give
/// `A(∂ψ) = −J0 sin φ cos φ/(m r) E1 + J0 sin² φ/(m r²) E3`, `A(∂φ) = 0`; the reduced constraints
/// then involve the group velocities only (D is `h ⊕ S`), and the curvature is
/// `[h_ψ, h_φ] = ∂_φ A(∂ψ) = −J0 cos 2φ/(m r) E1 + 2 J0 sin φ cos φ/(m r²) E3`.
#[test]
fn snakeboard_nonholonomic_connection_is_the_hand_derived_one() {
    use cas::Func::{Cos, Sin};
    let source = fs::read_to_string(super::root().join("golden/reduction/snakeboard/spec.mech"))
        .unwrap()
        .replace(
            "symmetry SE2 on x, y, theta {",
            "symmetry SE2 on x, y, theta {\n  connection nonholonomic",
        );
    let r = dalembert::reduce::reduce_spec(&source)
        .expect("the nonholonomic connection")
        .reduction;
    assert_eq!(r.connection, report::Connection::Nonholonomic);
    let (s, c) = (trig(Sin, "phi"), trig(Cos, "phi"));
    let (m, rr, j0) = (symbol("m"), symbol("r"), symbol("J0"));
    let a_psi = [
        -(j0.clone() * s.clone() * c.clone() / (m.clone() * rr.clone())),
        Expr::zero(),
        j0.clone() * s.powi(2) / (m.clone() * rr.powi(2)),
    ];
    for (got, want) in r.connection_form[0].iter().zip(&a_psi) {
        assert!(same(got, want), "A(d/dpsi) = {:?}", r.connection_form[0]);
    }
    assert!(r.connection_form[1].iter().all(Expr::vanishes));
    for psi in &r.constraints {
        assert!(
            !psi.depends_on("psi_dot") && !psi.depends_on("phi_dot"),
            "{psi:?}"
        );
    }
    let bracket = &r.brackets[0][1];
    let two_phi = Expr::apply(Cos, Expr::int(2) * symbol("phi"));
    assert!(same(
        &bracket[2],
        &(-(j0.clone() * two_phi) / (m.clone() * rr.clone()))
    ));
    assert!(same(
        &bracket[4],
        &(Expr::int(2) * j0 * s * c / (m * rr.powi(2)))
    ));
}
