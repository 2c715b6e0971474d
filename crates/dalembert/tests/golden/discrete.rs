//! The goldens of `golden/discrete/`: systems with a `discrete midpoint` item, whose discrete
//! equations (Marsden and West, Acta Numerica 10 (2001), §1.2–§1.5 and §3.2) are checked
//! against the hand derivations of each folder's `notes.md`, and by second routes through the
//! mathematics: the discrete energy balance of a quadratic Hamiltonian (the work of the forces
//! at the midpoint, exactly) and the discrete Noether theorem (the angular momentum of a
//! rotation-invariant discrete Lagrangian, exactly).

use std::collections::BTreeMap;

use cas::Expr;

use super::family;

/// The closed derivation of `golden/discrete/<name>` and its discrete equations.
fn derived(name: &str) -> dalembert::Derivation {
    let case = super::root().join("golden/discrete").join(name);
    match family::derived(&case) {
        dalembert::Derived::Closed(d) => *d,
        _ => panic!("{name}: not a closed-form derivation"),
    }
}

/// Reads `text` in the system's names, with `h` the step and `NAME1` the next value of
/// coordinate `NAME`.
fn read(d: &dalembert::Derivation, text: &str) -> Expr {
    read_in(
        &d.system,
        d.discrete.as_ref().expect("discrete equations"),
        text,
    )
}

/// [`read`] for a system and its discrete equations.
fn read_in(
    system: &model::System,
    discrete: &mech::discrete::DiscreteEquations,
    text: &str,
) -> Expr {
    let raw = model::point::read_value(system, text).unwrap();
    let mut names: BTreeMap<String, Expr> = BTreeMap::new();
    names.insert("h".into(), Expr::symbol(&discrete.step));
    for (q, next) in system.keys(&system.coordinates).iter().zip(&discrete.next) {
        names.insert(format!("{q}1"), Expr::symbol(next));
    }
    raw.subs(&names)
}

fn assert_vanishes(what: &str, e: Expr) {
    assert!(e.clone().vanishes(), "{what}: {e} is not zero");
}

#[test]
fn discrete_goldens_render_to_their_committed_artifacts() {
    family::pass("discrete");
}

#[test]
fn discrete_goldens_expectations_hold() {
    family::expectations("discrete", 2);
}

#[test]
fn discrete_golden_documents_compile() {
    family::documents_compile("discrete");
}

#[test]
fn discrete_golden_code_compiles() {
    family::code_compiles("discrete");
}

/// `golden/discrete/pendulum/notes.md`: `L_d`, `p_k`, `p_{k+1}` and Newton's matrix by hand.
#[test]
fn the_pendulum_has_the_hand_derived_discrete_equations() {
    let d = derived("pendulum");
    let e = d.discrete.as_ref().unwrap();
    let hand = [
        (
            "L_d",
            &e.lagrangian,
            "m*l^2*(theta1 - theta)^2/(2*h) + h*m*g*l*cos((theta + theta1)/2)",
        ),
        (
            "p_k",
            &e.momentum[0],
            "m*l^2*(theta1 - theta)/h + h/2*m*g*l*sin((theta + theta1)/2)",
        ),
        (
            "p_k+1",
            &e.next_momentum[0],
            "m*l^2*(theta1 - theta)/h - h/2*m*g*l*sin((theta + theta1)/2)",
        ),
        (
            "Newton",
            &e.newton[0][0],
            "m*l^2/h + h/4*m*g*l*cos((theta + theta1)/2)",
        ),
    ];
    for (what, got, expected) in hand {
        assert_vanishes(what, got.clone() - read(&d, expected));
    }
}

/// `golden/discrete/damped_oscillator/notes.md`: the equations by hand, and the energy balance
/// of a step, `H(x_{k+1}, p_{k+1}) − H(x_k, p_k) = (−c Δ/h + u) Δ`, the work of the forces at the
/// midpoint (zero without damping and input: the midpoint rule conserves a quadratic energy).
#[test]
fn the_damped_oscillator_loses_exactly_the_work_of_its_forces_per_step() {
    let d = derived("damped_oscillator");
    let e = d.discrete.as_ref().unwrap();
    let hand = [
        ("f_d", &e.forces[0], "-c*(x1 - x)/2 + h*u/2"),
        (
            "p_k",
            &e.momentum[0],
            "m*(x1 - x)/h + h*k*(x + x1)/4 + c*(x1 - x)/2 - h*u/2",
        ),
        (
            "p_k+1",
            &e.next_momentum[0],
            "m*(x1 - x)/h - h*k*(x + x1)/4 - c*(x1 - x)/2 + h*u/2",
        ),
        ("Newton", &e.newton[0][0], "m/h + h*k/4 + c/2"),
    ];
    for (what, got, expected) in hand {
        assert_vanishes(what, got.clone() - read(&d, expected));
    }
    let energy = |x: Expr, p: &Expr| {
        p.clone() * p.clone() / read(&d, "2*m") + read(&d, "k/2") * x.clone() * x
    };
    let change =
        energy(read(&d, "x1"), &e.next_momentum[0]) - energy(read(&d, "x"), &e.momentum[0]);
    assert_vanishes(
        "the energy balance",
        change - read(&d, "(-c*(x1 - x)/h + u)*(x1 - x)"),
    );
}

/// `golden/discrete/anharmonic_planar/notes.md`: the discrete angular momentum
/// `J_k = x_k p_{k,y} − y_k p_{k,x}` is the same at both ends of a step (discrete Noether).
#[test]
fn the_discrete_angular_momentum_of_a_central_potential_is_conserved() {
    let d = derived("anharmonic_planar");
    let e = d.discrete.as_ref().unwrap();
    let angular = |x: Expr, y: Expr, p: &[Expr]| x * p[1].clone() - y * p[0].clone();
    let before = angular(read(&d, "x"), read(&d, "y"), &e.momentum);
    let after = angular(read(&d, "x1"), read(&d, "y1"), &e.next_momentum);
    assert_vanishes("J_{k+1} - J_k", after - before);
    // The energy is quartic: the midpoint rule does not conserve it exactly.
    let energy = |x: Expr, y: Expr, p: &[Expr]| {
        (p[0].clone() * p[0].clone() + p[1].clone() * p[1].clone()) / read(&d, "2*m")
            + read(&d, "k/4") * (x.clone() * x + y.clone() * y).powi(2)
    };
    let change = energy(read(&d, "x1"), read(&d, "y1"), &e.next_momentum)
        - energy(read(&d, "x"), read(&d, "y"), &e.momentum);
    assert!(!change.vanishes(), "the quartic energy changes over a step");
}

/// `simulate` of `golden/discrete/<name>` (or of the folder `name` when it starts `golden/`) with
/// `integrator` at the fixed step `h` to `until`.
fn simulate(
    name: &str,
    set: &str,
    init: &str,
    integrator: dalembert::simulate::Integrator,
    (h, until): (f64, f64),
) -> sim::Trajectory {
    // A discrete golden by its name, or any golden by its folder (`golden/rigid_body_so3`).
    let folder = if name.starts_with("golden/") {
        super::root().join(name)
    } else {
        super::root().join("golden/discrete").join(name)
    };
    let source = std::fs::read_to_string(folder.join("spec.mech")).unwrap();
    let request = dalembert::simulate::Request {
        set: set.into(),
        init: init.into(),
        input: String::new(),
        until,
        dt: Some(h),
        integrator,
        tolerances: (1e-9, 1e-12),
        project_init: false,
        no_project: false,
        progress: false,
    };
    match dalembert::simulate::simulate_spec(&source, &request, &dalembert::Options::default()) {
        Ok(s) => s.trajectory,
        Err(d) => panic!("{}", dalembert::render_plain("spec.mech", &source, &d)),
    }
}

/// The mean of the energy error `E − E(0)` over the first and the last tenth of a run.
fn energy_drift(run: &sim::Trajectory) -> (f64, f64, f64) {
    let e = run.column("E").expect("the energy column");
    let tenth = e.len() / 10;
    let mean = |s: &[f64]| s.iter().map(|v| v - e[0]).sum::<f64>() / s.len() as f64;
    let largest = e.iter().fold(0.0f64, |m, v| m.max((v - e[0]).abs()));
    (mean(&e[..tenth]), mean(&e[e.len() - tenth..]), largest)
}

/// The pendulum (`g/l = 1`, swinging to 1.5 rad) over 10⁴ steps of `h = 0.2`, about 280 periods:
/// the variational integrator's energy error stays bounded and shows no drift (the mean error
/// over the last tenth of the run equals that over the first tenth to 1e-4, while the error
/// itself oscillates at `O(h²)`), where the classical Runge–Kutta method at the same step loses
/// energy steadily (more than 1e-3 of it by the end). Counts and tolerances, not time.
#[test]
fn the_variational_pendulum_keeps_its_energy_where_rk4_drifts() {
    use dalembert::simulate::Integrator;
    let run = |integrator| {
        simulate(
            "pendulum",
            "m=1,l=1,g=1",
            "theta=3/2",
            integrator,
            (0.2, 2000.0),
        )
    };
    let variational = run(Integrator::Variational);
    let (first, last, largest) = energy_drift(&variational);
    assert!(
        (last - first).abs() < 1e-4,
        "variational: drift {first:e} -> {last:e}"
    );
    assert!(
        largest < 0.02,
        "variational: largest energy error {largest:e}"
    );
    // The pendulum swings: it reaches the other side.
    let theta = variational.column("theta").unwrap();
    assert!(theta.iter().any(|&q| q < -1.4), "it swings back");
    let rk4 = run(Integrator::RungeKutta);
    let (first, last, _) = energy_drift(&rk4);
    assert!(last - first < -1e-3, "rk4: drift {first:e} -> {last:e}");
}

/// The damped, driven oscillator without its input: the variational integrator's energy balance
/// `E − E(0) − work` (the work of the damper, summed step by step) vanishes to round-off at
/// every sample, as the discrete energy balance proved in
/// `the_damped_oscillator_loses_exactly_the_work_of_its_forces_per_step` says; the energy falls.
#[test]
fn the_variational_oscillator_loses_exactly_the_work_of_its_damper() {
    let run = simulate(
        "damped_oscillator",
        "m=2,k=3,c=1/10",
        "x=1",
        dalembert::simulate::Integrator::Variational,
        (0.05, 50.0),
    );
    let balance = run.column("energy_balance").unwrap();
    let worst = balance.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    assert!(worst < 1e-12, "energy balance off by {worst:e}");
    let e = run.column("E").unwrap();
    assert!(
        *e.last().unwrap() < 0.5 * e[0],
        "the damper takes energy out"
    );
}

/// The quartic central potential: the angular momentum `m (x y' − y x')` of the samples is the
/// discrete one of the step (the continuous Legendre transform is linear), so it is conserved to
/// round-off over 2·10⁴ steps.
#[test]
fn the_variational_integrator_conserves_angular_momentum() {
    let run = simulate(
        "anharmonic_planar",
        "m=1,k=1",
        "x=1,y=0,x'=0,y'=1/2",
        dalembert::simulate::Integrator::Variational,
        (0.05, 1000.0),
    );
    let (x, y) = (run.column("x").unwrap(), run.column("y").unwrap());
    let (vx, vy) = (run.column("x'").unwrap(), run.column("y'").unwrap());
    let j: Vec<f64> = (0..x.len()).map(|k| x[k] * vy[k] - y[k] * vx[k]).collect();
    let worst = j.iter().fold(0.0f64, |m, v| m.max((v - j[0]).abs()));
    assert!(worst < 1e-11, "angular momentum off by {worst:e}");
}

/// A spec that names a parameter `h` keeps it apart from the step, which then reads `h_step`
/// (LaTeX `h_{\mathrm{step}}`): `L_d` of a particle dropped from the height `h` reads both.
#[test]
fn the_step_is_not_confused_with_a_parameter_named_h() {
    let source = "system drop\nparameters m, g, h\ncoordinates z\nalgebroid tangent\n\
                  lagrangian = m/2*z'^2 - m*g*(z - h)\ndiscrete midpoint\n";
    let derived = dalembert::compile_with(source, &dalembert::Options::default()).unwrap();
    let dalembert::Derived::Closed(d) = derived else {
        panic!("closed form");
    };
    let system = &d.system;
    let e = d.discrete.as_ref().unwrap();
    let symbols = e.lagrangian.symbols();
    assert!(
        symbols.iter().any(|s| s == "h") && symbols.contains(&e.step),
        "{symbols:?}"
    );
    assert_eq!(system.spec_name(system.handle(&e.step)), "h_step");
    assert_eq!(system.spec_name(system.handle("h")), "h");
    let printed = cas::print::spec(&e.lagrangian, system);
    assert!(printed.contains("h_step"), "{printed}");
    let latex = cas::print::latex(&e.lagrangian, system);
    assert!(latex.contains("h_{\\mathrm{step}}"), "{latex}");
}

/// [`read`] with the velocities `w` standing for the discrete velocities `ξ_k` of a step on so(3).
fn in_discrete_velocities(d: &dalembert::Derivation, text: &str) -> Expr {
    let system = &d.system;
    let e = d.discrete.as_ref().unwrap();
    let xi: BTreeMap<String, Expr> = system
        .keys(&system.algebroid.velocities)
        .into_iter()
        .zip(e.next.iter().map(|k| Expr::symbol(k)))
        .collect();
    read(d, text).subs(&xi)
}

/// Newton's matrix of a rigid body's step on so(3) at `h = 0` is `diag(I1, I2, I3)`.
fn assert_newton_is_the_inertia_at_rest(d: &dalembert::Derivation) {
    let e = d.discrete.as_ref().unwrap();
    let at_rest: BTreeMap<String, Expr> = std::iter::once((e.step.clone(), Expr::zero())).collect();
    let moments = ["I1", "I2", "I3"];
    for (i, row) in e.newton.iter().enumerate() {
        for (j, entry) in row.iter().enumerate() {
            let expected = if i == j {
                read(d, moments[i])
            } else {
                Expr::zero()
            };
            assert_vanishes(
                &format!("newton[{i}][{j}] at h = 0"),
                entry.subs(&at_rest) - expected,
            );
        }
    }
}

/// `golden/discrete/rigid_body_cayley/notes.md`: `Π_k`, `Π_{k+1}` of the Lie group variational
/// integrator in the Cayley chart by hand (the velocities `w` of the hand forms stand for the
/// discrete velocities `ξ_k`), and Newton's matrix at `h = 0`, `diag(I1, I2, I3)`.
#[test]
fn the_rigid_body_has_the_hand_derived_lie_group_variational_integrator() {
    let d = derived("rigid_body_cayley");
    let e = d.discrete.as_ref().unwrap();
    let hand = |text: &str| in_discrete_velocities(&d, text);
    let quarter = "h^2/4*(I1*w1^2 + I2*w2^2 + I3*w3^2)";
    let forms = [
        ("I1*w1", "(I3 - I2)*w2*w3", "w1"),
        ("I2*w2", "(I1 - I3)*w3*w1", "w2"),
        ("I3*w3", "(I2 - I1)*w1*w2", "w3"),
    ];
    for (b, (mu, cross, xi_b)) in forms.iter().enumerate() {
        let start = hand(&format!("{mu} + h/2*{cross} + {quarter}*{xi_b}"));
        let end = hand(&format!("{mu} - h/2*{cross} + {quarter}*{xi_b}"));
        assert_vanishes(&format!("Pi_k[{b}]"), e.momentum[b].clone() - start);
        assert_vanishes(&format!("Pi_k+1[{b}]"), e.next_momentum[b].clone() - end);
    }
    assert_newton_is_the_inertia_at_rest(&d);
    assert_eq!(
        e.lagrangian.clone().simplify(),
        hand("h/2*(I1*w1^2 + I2*w2^2 + I3*w3^2)").simplify()
    );
}

/// The Casimir `|Π|²` of the rigid body's Lie–Poisson bracket is the same at both ends of every
/// step of both integrators on so(3), the Cayley chart's and Lee, Leok and McClamroch's, exactly
/// (symbolically in `h`, `ξ` and the moments).
#[test]
fn the_cayley_step_keeps_the_casimir_exactly() {
    for name in ["rigid_body_cayley", "rigid_body_lgvi"] {
        let d = derived(name);
        let e = d.discrete.as_ref().unwrap();
        let square = |v: &[Expr]| {
            v.iter()
                .fold(Expr::zero(), |acc, p| acc + p.clone() * p.clone())
        };
        assert_vanishes(
            &format!("{name}: |Pi_k+1|^2 - |Pi_k|^2"),
            square(&e.next_momentum) - square(&e.momentum),
        );
        // And the step moves: Π_{k+1} − Π_k = −h ξ × μ is not zero.
        assert!(!(e.next_momentum[0].clone() - e.momentum[0].clone()).vanishes());
    }
}

/// `golden/discrete/rigid_body_lgvi/notes.md`: Lee, Leok and McClamroch's discrete Lagrangian in
/// the Cayley chart, `l_d = h ½ ξᵀ J ξ / D`, and the momenta `Π_k = (J ξ + (h/2) ξ × J ξ)/D`,
/// `Π_{k+1}` with `−h/2`, `D = 1 + h²|ξ|²/4`, by hand (the velocities `w` of the hand forms
/// stand for `ξ_k`); Newton's matrix at `h = 0` is `diag(I1, I2, I3)`.
#[test]
fn the_rigid_body_has_lee_leok_and_mcclamrochs_hand_derived_integrator() {
    let d = derived("rigid_body_lgvi");
    let e = d.discrete.as_ref().unwrap();
    let hand = |text: &str| in_discrete_velocities(&d, text);
    let spread = "(1 + h^2/4*(w1^2 + w2^2 + w3^2))";
    let forms = [
        ("I1*w1", "(I3 - I2)*w2*w3"),
        ("I2*w2", "(I1 - I3)*w3*w1"),
        ("I3*w3", "(I2 - I1)*w1*w2"),
    ];
    for (b, (j_xi, cross)) in forms.iter().enumerate() {
        let start = hand(&format!("({j_xi} + h/2*{cross})/{spread}"));
        let end = hand(&format!("({j_xi} - h/2*{cross})/{spread}"));
        assert_vanishes(&format!("Pi_k[{b}]"), e.momentum[b].clone() - start);
        assert_vanishes(&format!("Pi_k+1[{b}]"), e.next_momentum[b].clone() - end);
    }
    assert_newton_is_the_inertia_at_rest(&d);
    assert_vanishes(
        "l_d",
        e.lagrangian.clone() - hand(&format!("h/2*(I1*w1^2 + I2*w2^2 + I3*w3^2)/{spread}")),
    );
}

/// 3 × 3 matrices of expressions, for the published form below.
type Matrix3 = Vec<Vec<Expr>>;

fn product(a: &Matrix3, b: &Matrix3) -> Matrix3 {
    (0..3)
        .map(|i| {
            (0..3)
                .map(|j| {
                    (0..3).fold(Expr::zero(), |acc, k| {
                        acc + a[i][k].clone() * b[k][j].clone()
                    })
                })
                .collect()
        })
        .collect()
}

fn transpose(a: &Matrix3) -> Matrix3 {
    (0..3)
        .map(|i| (0..3).map(|j| a[j][i].clone()).collect())
        .collect()
}

/// `a⁻¹` by cofactors: the adjugate over the determinant.
fn inverse(a: &Matrix3) -> Matrix3 {
    let minor = |i: usize, j: usize| {
        let (r0, r1) = ((i + 1) % 3, (i + 2) % 3);
        let (c0, c1) = ((j + 1) % 3, (j + 2) % 3);
        a[r0][c0].clone() * a[r1][c1].clone() - a[r0][c1].clone() * a[r1][c0].clone()
    };
    let det = (0..3).fold(Expr::zero(), |acc, j| acc + a[0][j].clone() * minor(0, j));
    (0..3)
        .map(|i| (0..3).map(|j| minor(j, i) / det.clone()).collect())
        .collect()
}

/// Lee, Leok and McClamroch publish the free body's integrator as `h Π̂_k = F_k J_d − J_d F_kᵀ`,
/// `Π_{k+1} = F_kᵀ Π_k`, from `L_d = (1/h) tr[(I − F_k) J_d]`, `J_d = ½ tr(J) I − J`. With
/// `F = (I − x̂/2)⁻¹(I + x̂/2)`, `x = h ξ_k`, built as a matrix (its inverse by cofactors, not the
/// closed form the derivation uses), the derived `Π_k`, `Π_{k+1}` and `l_d` are those, exactly.
/// `F = (I − x̂/2)⁻¹(I + x̂/2)` with `x = h ξ_k`, built as a matrix: its inverse by cofactors, not
/// the closed form the derivation uses.
fn cayley_matrix(e: &mech::discrete::DiscreteEquations) -> Matrix3 {
    let h = Expr::symbol(&e.step);
    let x: Vec<Expr> = e.next.iter().map(|k| h.clone() * Expr::symbol(k)).collect();
    let identity_plus_hat = |scale: Expr| -> Matrix3 {
        let s = |i: usize| scale.clone() * x[i].clone();
        let hat = [
            [Expr::zero(), -s(2), s(1)],
            [s(2), Expr::zero(), -s(0)],
            [-s(1), s(0), Expr::zero()],
        ];
        hat.into_iter()
            .enumerate()
            .map(|(i, row)| {
                row.into_iter()
                    .enumerate()
                    .map(|(j, v)| if i == j { v + Expr::int(1) } else { v })
                    .collect()
            })
            .collect()
    };
    product(
        &inverse(&identity_plus_hat(Expr::rational(-1, 2))),
        &identity_plus_hat(Expr::rational(1, 2)),
    )
}

/// `J_d = ½ tr(J) I − J` for the principal moments `I1, I2, I3`.
fn nonstandard_inertia(d: &dalembert::Derivation) -> Matrix3 {
    let moments: Vec<Expr> = ["I1", "I2", "I3"].iter().map(|m| read(d, m)).collect();
    let trace = moments.iter().fold(Expr::zero(), |acc, m| acc + m.clone());
    (0..3)
        .map(|i| {
            (0..3)
                .map(|j| {
                    if i == j {
                        Expr::rational(1, 2) * trace.clone() - moments[i].clone()
                    } else {
                        Expr::zero()
                    }
                })
                .collect()
        })
        .collect()
}

/// `(F J_d − J_d Fᵀ)^∨`.
fn published_vee(f: &Matrix3, j_d: &Matrix3) -> Vec<Expr> {
    let left = product(f, j_d);
    let right = product(j_d, &transpose(f));
    let skew = |i: usize, j: usize| left[i][j].clone() - right[i][j].clone();
    vec![skew(2, 1), skew(0, 2), skew(1, 0)]
}

/// `(Fᵀ v)_b`.
fn turned(f: &Matrix3, v: &[Expr], b: usize) -> Expr {
    (0..3).fold(Expr::zero(), |acc, a| acc + f[a][b].clone() * v[a].clone())
}

/// Lee, Leok and McClamroch publish the free body's integrator as `h Π̂_k = F_k J_d − J_d F_kᵀ`,
/// `Π_{k+1} = F_kᵀ Π_k`, from `L_d = (1/h) tr[(I − F_k) J_d]`, `J_d = ½ tr(J) I − J`. With `F`
/// built as a matrix ([`cayley_matrix`]), the derived `Π_k`, `Π_{k+1}` and `l_d` are those, exactly.
#[test]
fn the_lgvi_is_lee_leok_and_mcclamrochs_as_published() {
    let d = derived("rigid_body_lgvi");
    let e = d.discrete.as_ref().unwrap();
    let h = Expr::symbol(&e.step);
    let f = cayley_matrix(e);
    let j_d = nonstandard_inertia(&d);
    let vee = published_vee(&f, &j_d);
    for (b, vee) in vee.iter().enumerate() {
        assert_vanishes(
            &format!("vee(F J_d - J_d F^T)[{b}] - h Pi_k[{b}]"),
            vee.clone() - h.clone() * e.momentum[b].clone(),
        );
        assert_vanishes(
            &format!("(F^T Pi_k)[{b}] - Pi_k+1[{b}]"),
            turned(&f, &e.momentum, b) - e.next_momentum[b].clone(),
        );
    }
    let traced = (0..3).fold(Expr::zero(), |acc, i| {
        acc + (0..3).fold(Expr::zero(), |acc, k| {
            let entry = if i == k {
                Expr::int(1) - f[i][k].clone()
            } else {
                -f[i][k].clone()
            };
            acc + entry * j_d[k][i].clone()
        })
    });
    assert_vanishes("tr((I - F) J_d)/h - l_d", traced / h - e.lagrangian.clone());
}

/// The heavy top's spec (`golden/discrete/heavy_top`) with `discrete lgvi`: Lee, Leok and
/// McClamroch's equations with the potential's moment `M = ρ(Γ)ᵀ ∂l/∂Γ = m g Γ × χ` by hand,
/// `h Π̂_k + (h²/2) M̂_k = F_k J_d − J_d F_kᵀ` and
/// `Π_{k+1} = F_kᵀ Π_k + (h/2) F_kᵀ M_k + (h/2) M_{k+1}`, exactly; and both Casimirs.
#[test]
fn the_lgvi_heavy_top_is_lee_leok_and_mcclamrochs_with_the_moment_of_gravity() {
    let spec = std::fs::read_to_string(super::root().join("golden/discrete/heavy_top/spec.mech"))
        .unwrap()
        .replace("discrete cayley", "discrete lgvi");
    let d = match dalembert::compile_with(&spec, &Default::default()).unwrap() {
        dalembert::Derived::Closed(d) => *d,
        _ => panic!("not a closed-form derivation"),
    };
    let e = d.discrete.as_ref().unwrap();
    assert_eq!(e.method, model::Discretisation::Lgvi);
    let h = Expr::symbol(&e.step);
    let f = cayley_matrix(e);
    let vee = published_vee(&f, &nonstandard_inertia(&d));
    let moment = |next: bool| -> Vec<Expr> {
        [
            "G2*chi3 - G3*chi2",
            "G3*chi1 - G1*chi3",
            "G1*chi2 - G2*chi1",
        ]
        .iter()
        .map(|c| heavy_top_hand(&d, &format!("m*g*({c})"), next))
        .collect()
    };
    let (now, then) = (moment(false), moment(true));
    let half = Expr::rational(1, 2) * h.clone();
    for b in 0..3 {
        assert_vanishes(
            &format!("vee[{b}] - h Pi_k[{b}] - h^2/2 M_k[{b}]"),
            vee[b].clone()
                - h.clone() * e.momentum[b].clone()
                - half.clone() * h.clone() * now[b].clone(),
        );
        assert_vanishes(
            &format!("Pi_k+1[{b}]"),
            turned(&f, &e.momentum, b)
                + half.clone() * turned(&f, &now, b)
                + half.clone() * then[b].clone()
                - e.next_momentum[b].clone(),
        );
    }
    assert_heavy_top_keeps_its_casimirs(&d);
}

/// Lee, Leok and McClamroch's step keeps the free body's energy `½ Πᵀ J⁻¹ Π` exactly, as the
/// Moser–Veselov discrete rigid body does: `Π_k` and `Π_{k+1}` are `(a ± b)/D` with `a = J ξ`,
/// `b = (h/2) ξ × J ξ`, and `aᵀ J⁻¹ b = ξ · b = 0`. The Cayley chart's integrator, whose `a`
/// gains `(h²/4)(ξ·Jξ) ξ`, keeps it only to `O(h²)` (not exactly; checked too).
#[test]
fn the_lgvi_keeps_the_free_bodys_energy_exactly() {
    for (name, exact) in [("rigid_body_lgvi", true), ("rigid_body_cayley", false)] {
        let d = derived(name);
        let e = d.discrete.as_ref().unwrap();
        let moments: Vec<Expr> = ["I1", "I2", "I3"].iter().map(|m| read(&d, m)).collect();
        let energy = |p: &[Expr]| {
            p.iter().zip(&moments).fold(Expr::zero(), |acc, (p, m)| {
                acc + Expr::rational(1, 2) * p.clone() * p.clone() / m.clone()
            })
        };
        let change = energy(&e.next_momentum) - energy(&e.momentum);
        assert_eq!(change.clone().vanishes(), exact, "{name}: {change}");
    }
}

/// `golden/discrete/chaplygin_sleigh/notes.md`: the discrete Lagrange–d'Alembert equations of the
/// sleigh by hand (`lam` the discrete multiplier), the discrete constraint, and Newton's matrix
/// square over `(q_{k+1}, λ_k)`.
#[test]
fn the_sleigh_has_the_hand_derived_discrete_lagrange_d_alembert_equations() {
    let d = derived("chaplygin_sleigh");
    let e = d.discrete.as_ref().unwrap();
    assert_eq!(e.multipliers.len(), 1);
    let lambda: BTreeMap<String, Expr> =
        std::iter::once(("lam".to_string(), Expr::symbol(&e.multipliers[0]))).collect();
    let hand = |text: &str| read(&d, text).subs(&lambda);
    let mid = "(theta + theta1)/2";
    let a = format!("(x1 - x - a*(theta1 - theta)*sin({mid}))");
    let b = format!("(y1 - y + a*(theta1 - theta)*cos({mid}))");
    let da_start = format!("(a*sin({mid}) - a/2*(theta1 - theta)*cos({mid}))");
    let db_start = format!("(-a*cos({mid}) - a/2*(theta1 - theta)*sin({mid}))");
    let da_end = format!("(-a*sin({mid}) - a/2*(theta1 - theta)*cos({mid}))");
    let db_end = format!("(a*cos({mid}) - a/2*(theta1 - theta)*sin({mid}))");
    let expected = [
        ("p_k,x", &e.momentum[0], format!("m/h*{a} - lam*sin(theta)")),
        ("p_k,y", &e.momentum[1], format!("m/h*{b} + lam*cos(theta)")),
        (
            "p_k,theta",
            &e.momentum[2],
            format!("-m/h*({a}*{da_start} + {b}*{db_start}) + J/h*(theta1 - theta)"),
        ),
        ("p_k+1,x", &e.next_momentum[0], format!("m/h*{a}")),
        ("p_k+1,y", &e.next_momentum[1], format!("m/h*{b}")),
        (
            "p_k+1,theta",
            &e.next_momentum[2],
            format!("m/h*({a}*{da_end} + {b}*{db_end}) + J/h*(theta1 - theta)"),
        ),
        (
            "omega_d",
            &e.constraints[0],
            format!("(-sin({mid})*(x1 - x) + cos({mid})*(y1 - y))/h"),
        ),
    ];
    for (what, derived, text) in expected {
        assert_vanishes(what, derived.clone() - hand(&text));
    }
    assert_eq!(e.newton.len(), 4);
    assert!(e.newton.iter().all(|row| row.len() == 4));
    // ∂p_{k,x}/∂λ = −sin θ_k: the impulse sits at q_k.
    assert_vanishes("dp_x/dlambda", e.newton[0][3].clone() - hand("-sin(theta)"));
}

/// The sleigh's variational step keeps the discrete constraint to round-off at every one of
/// 10⁴ steps (`|ω_d| ≤ 64 ε max(1, |q|)/h`, the round-off of the differences of coordinates that
/// grow along the run, from a start on the constraint), the velocities it reports on the
/// continuous constraint (`|Ψ(q, v)| ≤ 1e-12`: they are recovered on it), and its energy within
/// 1e-4 of its start
/// and without drift once the motion has settled (the slope of a least-squares line through the
/// energy over the second half of the run under 1e-9 of it per unit time).
#[test]
fn the_sleigh_step_keeps_its_discrete_constraint_and_energy() {
    let d = derived("chaplygin_sleigh");
    let system = &d.system;
    let e = d.discrete.as_ref().unwrap();
    let stepper = mech::discrete::step::Stepper::new(system, e).unwrap();
    let values: BTreeMap<String, f64> = [("m", 1.5), ("J", 0.4), ("a", 0.3)]
        .iter()
        .map(|(k, v)| (k.to_string(), *v))
        .collect();
    let others: Vec<f64> = stepper.others.iter().map(|s| values[s]).collect();
    let (theta, speed, omega) = (0.3f64, 1.0, 0.8);
    let mut x = vec![
        0.0,
        0.0,
        theta,
        speed * theta.cos(),
        speed * theta.sin(),
        omega,
    ];
    let mut next = vec![0.0; 6];
    let h = 0.05;
    let keys = system.keys(&system.state());
    let energy = |x: &[f64]| {
        let mut at = values.clone();
        for (k, v) in keys.iter().zip(x) {
            at.insert(k.clone(), *v);
        }
        d.energy().evaluate(&at).unwrap()
    };
    let omega_d = |x0: &[f64], x1: &[f64]| {
        let mid = (x0[2] + x1[2]) / 2.0;
        (-mid.sin() * (x1[0] - x0[0]) + mid.cos() * (x1[1] - x0[1])) / h
    };
    let mut energies = vec![energy(&x)];
    let mut worst: f64 = 0.0;
    let mut continuous: f64 = 0.0;
    for k in 0..10_000 {
        stepper
            .step(k as f64 * h, h, &x, &others, &mut next)
            .unwrap();
        worst = worst.max(omega_d(&x, &next).abs());
        continuous = continuous.max((-next[2].sin() * next[3] + next[2].cos() * next[4]).abs());
        x.copy_from_slice(&next);
        energies.push(energy(&x));
    }
    // Round-off of the differences q_{k+1} − q_k of coordinates that grow along the run, over h.
    let size = x.iter().take(3).fold(1.0f64, |m, q| m.max(q.abs()));
    let round_off = 64.0 * f64::EPSILON * size / h;
    assert!(
        worst <= round_off,
        "the discrete constraint reached {worst} (round-off {round_off})"
    );
    let largest = energies
        .iter()
        .fold(0.0f64, |m, v| m.max((v - energies[0]).abs()));
    // The motion settles towards a straight line (ω → 0), which shifts the discrete energy by
    // O(h²) once; after that, over the second half of the run, a least-squares line through
    // the energy has no slope.
    let half = &energies[energies.len() / 2..];
    let times: Vec<f64> = (0..half.len()).map(|k| k as f64 * h).collect();
    let (mt, me) = (
        times.iter().sum::<f64>() / half.len() as f64,
        half.iter().sum::<f64>() / half.len() as f64,
    );
    let slope = times
        .iter()
        .zip(half)
        .map(|(t, e)| (t - mt) * (e - me))
        .sum::<f64>()
        / times.iter().map(|t| (t - mt) * (t - mt)).sum::<f64>();
    eprintln!("sleigh: |omega_d| <= {worst:.1e}, |Psi(q, v)| <= {continuous:.1e}, energy error <= {largest:.1e} of {:.3}, slope {slope:.1e} per unit time", energies[0]);
    assert!(
        continuous <= 1e-12,
        "the reported velocities are off the constraint by {continuous}"
    );
    assert!(
        largest <= 1e-4 * energies[0],
        "the sleigh's energy moved by {largest}"
    );
    assert!(
        slope.abs() <= 1e-9 * energies[0],
        "the sleigh's energy drifts at {slope} per unit time"
    );
}

/// `golden/discrete/suslov/notes.md`: the discrete Lagrange–d'Alembert equations of the Lie group
/// variational integrator with the Suslov constraint `w3 = 0`, by hand (`lam` the discrete
/// multiplier, the velocities of the hand forms standing for `ξ_k`).
#[test]
fn the_suslov_problem_has_the_hand_derived_discrete_equations() {
    let d = derived("suslov");
    let e = d.discrete.as_ref().unwrap();
    let system = &d.system;
    assert_eq!(e.multipliers.len(), 1);
    let mut names: BTreeMap<String, Expr> = system
        .keys(&system.algebroid.velocities)
        .into_iter()
        .zip(e.next.iter().map(|k| Expr::symbol(k)))
        .collect();
    names.insert("lam".into(), Expr::symbol(&e.multipliers[0]));
    let hand = |text: &str| read(&d, text).subs(&names);
    let mu = [
        "(I1*w1 + J1*w3)",
        "(I2*w2 + J2*w3)",
        "(I3*w3 + J1*w1 + J2*w2)",
    ];
    let xi = ["w1", "w2", "w3"];
    let cross = [
        format!("(w2*{} - w3*{})", mu[2], mu[1]),
        format!("(w3*{} - w1*{})", mu[0], mu[2]),
        format!("(w1*{} - w2*{})", mu[1], mu[0]),
    ];
    let dot = format!("(w1*{} + w2*{} + w3*{})", mu[0], mu[1], mu[2]);
    for b in 0..3 {
        let impulse = if b == 2 { " + lam" } else { "" };
        let start = hand(&format!(
            "{} + h/2*{} + h^2/4*{dot}*{}{impulse}",
            mu[b], cross[b], xi[b]
        ));
        let end = hand(&format!(
            "{} - h/2*{} + h^2/4*{dot}*{}",
            mu[b], cross[b], xi[b]
        ));
        assert_vanishes(&format!("Pi_k[{b}]"), e.momentum[b].clone() - start);
        assert_vanishes(&format!("Pi_k+1[{b}]"), e.next_momentum[b].clone() - end);
    }
    assert_vanishes("omega_d", e.constraints[0].clone() - hand("w3"));
    assert_eq!(e.newton.len(), 4);
}

/// `simulate --method variational` of the free rigid body without a `discrete` item
/// (`golden/rigid_body_so3`) takes the Lie group variational integrator in the Cayley chart
/// (the midpoint rule is not defined on so(3)): over 2·10⁴ steps the Casimir `|Π|²` is kept to
/// round-off (1e-12 relative), near the unstable middle axis.
#[test]
fn simulate_takes_the_cayley_integrator_on_so3() {
    let run = simulate(
        "golden/rigid_body_so3",
        "I1=1,I2=2,I3=7/2",
        "w1=3/10,w2=11/10,w3=-3/5",
        dalembert::simulate::Integrator::Variational,
        (0.05, 1000.0),
    );
    let w: Vec<Vec<f64>> = ["w1", "w2", "w3"]
        .iter()
        .map(|c| run.column(c).unwrap())
        .collect();
    let casimir: Vec<f64> = (0..w[0].len())
        .map(|k| (w[0][k]).powi(2) + (2.0 * w[1][k]).powi(2) + (3.5 * w[2][k]).powi(2))
        .collect();
    let worst = casimir
        .iter()
        .fold(0.0f64, |m, c| m.max((c - casimir[0]).abs()));
    assert!(
        worst <= 1e-12 * casimir[0],
        "the Casimir moved by {worst:e} of {}",
        casimir[0]
    );
}

/// A Lagrangian that is not quadratic in the velocities has discrete equations but no emitted
/// step (the velocities of the next step would solve a nonlinear system): the code says so in a
/// note and emits no `step`.
#[test]
fn a_lagrangian_not_quadratic_in_the_velocities_gets_a_note_instead_of_a_step() {
    let source = "system quartic\nparameters m\ncoordinates x\nalgebroid tangent\nlagrangian = m*x'^2/2 + x'^4/12 - x^2/2\ndiscrete midpoint\n";
    let derived = dalembert::compile_with(source, &Default::default()).unwrap();
    let artifacts =
        dalembert::render_derived(&derived, &[dalembert::Target::C], Default::default()).unwrap();
    let code = artifacts
        .iter()
        .find(|a| a.file_name == "quartic.c")
        .unwrap();
    assert!(
        !code.contents.contains("quartic_step("),
        "a step was emitted"
    );
    assert!(
        code.notes
            .iter()
            .any(|n| n.contains("no variational step is emitted") && n.contains("not quadratic")),
        "{:?}",
        code.notes
    );
}

/// `golden/discrete/double_pendulum_rattle/notes.md`: the trapezoidal rule's discrete equations
/// with the two rods as holonomic constraints (RATTLE), by hand (`lam1`, `lam2` the discrete
/// multipliers).
#[test]
fn the_cartesian_double_pendulum_has_the_hand_derived_rattle_equations() {
    let d = derived("double_pendulum_rattle");
    let e = d.discrete.as_ref().unwrap();
    assert_eq!(e.method, model::Discretisation::Trapezoidal);
    assert_eq!(e.multipliers.len(), 2);
    let lambda: BTreeMap<String, Expr> = [("lam1", 0), ("lam2", 1)]
        .iter()
        .map(|(k, a)| (k.to_string(), Expr::symbol(&e.multipliers[*a])))
        .collect();
    let hand = |text: &str| read(&d, text).subs(&lambda);
    let expected = [
        (
            "L_d",
            &e.lagrangian,
            "m1*((x11 - x1)^2 + (y11 - y1)^2)/(2*h) + m2*((x21 - x2)^2 + (y21 - y2)^2)/(2*h) - h*g/2*(m1*(y1 + y11) + m2*(y2 + y21))",
        ),
        ("p_k,x1", &e.momentum[0], "m1*(x11 - x1)/h + 2*x1*lam1 - 2*(x2 - x1)*lam2"),
        ("p_k,y1", &e.momentum[1], "m1*(y11 - y1)/h + h*m1*g/2 + 2*y1*lam1 - 2*(y2 - y1)*lam2"),
        ("p_k,x2", &e.momentum[2], "m2*(x21 - x2)/h + 2*(x2 - x1)*lam2"),
        ("p_k,y2", &e.momentum[3], "m2*(y21 - y2)/h + h*m2*g/2 + 2*(y2 - y1)*lam2"),
        ("p_k+1,x1", &e.next_momentum[0], "m1*(x11 - x1)/h"),
        ("p_k+1,y1", &e.next_momentum[1], "m1*(y11 - y1)/h - h*m1*g/2"),
        ("p_k+1,x2", &e.next_momentum[2], "m2*(x21 - x2)/h"),
        ("p_k+1,y2", &e.next_momentum[3], "m2*(y21 - y2)/h - h*m2*g/2"),
        ("omega_d1", &e.constraints[0], "x11^2 + y11^2 - l1^2"),
        ("omega_d2", &e.constraints[1], "(x21 - x11)^2 + (y21 - y11)^2 - l2^2"),
    ];
    for (what, derived, text) in expected {
        assert_vanishes(what, derived.clone() - hand(text));
    }
    // Newton's matrix [M/h, μ(q_k)ᵀ; μ(q_{k+1}), 0].
    let newton = [
        ["m1/h", "0", "0", "0", "2*x1", "-2*(x2 - x1)"],
        ["0", "m1/h", "0", "0", "2*y1", "-2*(y2 - y1)"],
        ["0", "0", "m2/h", "0", "0", "2*(x2 - x1)"],
        ["0", "0", "0", "m2/h", "0", "2*(y2 - y1)"],
        ["2*x11", "2*y11", "0", "0", "0", "0"],
        [
            "-2*(x21 - x11)",
            "-2*(y21 - y11)",
            "2*(x21 - x11)",
            "2*(y21 - y11)",
            "0",
            "0",
        ],
    ];
    assert_eq!(e.newton.len(), 6);
    for (i, row) in newton.iter().enumerate() {
        for (j, text) in row.iter().enumerate() {
            assert_vanishes(
                &format!("newton[{i}][{j}]"),
                e.newton[i][j].clone() - hand(text),
            );
        }
    }
}

/// The double pendulum's parameters and a start on both constraints and their derivatives
/// (angles 0.4 and 0.6 from the downward vertical, rates 0.3 and −0.2: a regular motion, on which
/// round-off does not grow exponentially).
pub(super) const PENDULA: [(&str, f64); 5] = [
    ("m1", 1.2),
    ("m2", 0.7),
    ("l1", 1.0),
    ("l2", 0.8),
    ("g", 9.81),
];
pub(super) const PENDULA_START: [f64; 8] = [
    0.389_418_342_308_650_5,
    -0.921_060_994_002_885_1,
    0.841_132_321_024_678_8,
    -1.581_329_485_930_627_7,
    0.276_318_298_200_865_5,
    0.116_825_502_692_595_1,
    0.144_264_599_815_317,
    0.026_482_706_949_389_49,
];

/// RATTLE as Hairer, Lubich and Wanner write it (Geometric Numerical Integration, 2nd ed., §VII.1),
/// for the Cartesian double pendulum, independently of dalembert's equations: Newton's method on
/// the two multipliers `Λ_k` for the positions, then a 2 × 2 solve for `Λ'_k` that makes the new
/// velocities tangent to the constraints. `x = (q, v)`, `M v = p`.
fn textbook_rattle(x: &[f64], h: f64) -> Vec<f64> {
    let p: BTreeMap<&str, f64> = PENDULA.iter().copied().collect();
    let mass = [p["m1"], p["m1"], p["m2"], p["m2"]];
    let grad_v = [0.0, p["m1"] * p["g"], 0.0, p["m2"] * p["g"]];
    let jacobian = |q: &[f64]| -> [[f64; 4]; 2] {
        let (dx, dy) = (q[2] - q[0], q[3] - q[1]);
        [
            [2.0 * q[0], 2.0 * q[1], 0.0, 0.0],
            [-2.0 * dx, -2.0 * dy, 2.0 * dx, 2.0 * dy],
        ]
    };
    let constraint = |q: &[f64]| -> [f64; 2] {
        let (dx, dy) = (q[2] - q[0], q[3] - q[1]);
        [
            q[0] * q[0] + q[1] * q[1] - p["l1"] * p["l1"],
            dx * dx + dy * dy - p["l2"] * p["l2"],
        ]
    };
    let solve2 = |a: [[f64; 2]; 2], b: [f64; 2]| -> [f64; 2] {
        let det = a[0][0] * a[1][1] - a[0][1] * a[1][0];
        [
            (b[0] * a[1][1] - a[0][1] * b[1]) / det,
            (a[0][0] * b[1] - b[0] * a[1][0]) / det,
        ]
    };
    let (q, v) = x.split_at(4);
    let g_k = jacobian(q);
    // q_{k+1}(Λ) = q_k + h M⁻¹ (p_k − h/2 (∇V + G_kᵀ Λ)).
    let position = |lam: [f64; 2]| -> Vec<f64> {
        (0..4)
            .map(|i| {
                let force = grad_v[i] + g_k[0][i] * lam[0] + g_k[1][i] * lam[1];
                q[i] + h * v[i] - h * h / 2.0 * force / mass[i]
            })
            .collect()
    };
    let mut lam = [0.0, 0.0];
    for _ in 0..50 {
        let q1 = position(lam);
        let residual = constraint(&q1);
        let g1 = jacobian(&q1);
        // ∂g(q_{k+1})/∂Λ = −h²/2 G(q_{k+1}) M⁻¹ G_kᵀ.
        let mut a = [[0.0; 2]; 2];
        for (r, row) in a.iter_mut().enumerate() {
            for (c, entry) in row.iter_mut().enumerate() {
                *entry = -h * h / 2.0 * (0..4).map(|i| g1[r][i] * g_k[c][i] / mass[i]).sum::<f64>();
            }
        }
        let step = solve2(a, residual);
        lam = [lam[0] - step[0], lam[1] - step[1]];
        if step[0].abs().max(step[1].abs()) <= 1e-15 * lam[0].abs().max(lam[1].abs()).max(1.0) {
            break;
        }
    }
    let q1 = position(lam);
    // p_{k+1/2} − h/2 ∇V(q_{k+1}), then the projection along G(q_{k+1})ᵀ.
    let raw: Vec<f64> = (0..4)
        .map(|i| {
            let half =
                mass[i] * v[i] - h / 2.0 * (grad_v[i] + g_k[0][i] * lam[0] + g_k[1][i] * lam[1]);
            half - h / 2.0 * grad_v[i]
        })
        .collect();
    let g1 = jacobian(&q1);
    let mut a = [[0.0; 2]; 2];
    let mut b = [0.0; 2];
    for r in 0..2 {
        for c in 0..2 {
            a[r][c] = (0..4).map(|i| g1[r][i] * g1[c][i] / mass[i]).sum();
        }
        b[r] = (0..4).map(|i| g1[r][i] * raw[i] / mass[i]).sum();
    }
    let nu = solve2(a, b);
    let v1 = (0..4).map(|i| (raw[i] - g1[0][i] * nu[0] - g1[1][i] * nu[1]) / mass[i]);
    q1.into_iter().chain(v1).collect()
}

/// The double pendulum's step against the textbook RATTLE (the same states to round-off over
/// 10³ steps: the same method by two routes), then over 10⁴ steps: both rods' constraints
/// `|f|/l² ≤ 1e-12` and their derivatives `|μ v| ≤ 1e-12 |q| |v|` at every step, the energy
/// within 1e-3 of its start and without drift (the means of its first and last tenths within
/// 1e-5 of it).
#[test]
fn the_rattle_step_keeps_both_rods_and_its_energy() {
    let d = derived("double_pendulum_rattle");
    let system = &d.system;
    let e = d.discrete.as_ref().unwrap();
    let stepper = mech::discrete::step::Stepper::new(system, e).unwrap();
    let values: BTreeMap<String, f64> = PENDULA.iter().map(|(k, v)| (k.to_string(), *v)).collect();
    let others: Vec<f64> = stepper.others.iter().map(|s| values[s]).collect();
    let h = 0.01;
    let mut x = PENDULA_START.to_vec();
    let mut textbook = x.clone();
    let mut next = vec![0.0; 8];
    let keys = system.keys(&system.state());
    let energy = |x: &[f64]| {
        let mut at = values.clone();
        for (k, v) in keys.iter().zip(x) {
            at.insert(k.clone(), *v);
        }
        d.energy().evaluate(&at).unwrap()
    };
    let (l1, l2) = (values["l1"], values["l2"]);
    let mut energies = vec![energy(&x)];
    let (mut routes, mut rods, mut rates): (f64, f64, f64) = (0.0, 0.0, 0.0);
    let mut most = 0;
    for k in 0..10_000 {
        let stepped = stepper
            .step(k as f64 * h, h, &x, &others, &mut next)
            .unwrap();
        most = most.max(stepped.iterations);
        if k < 1000 {
            textbook = textbook_rattle(&textbook, h);
            routes = routes.max(
                next.iter()
                    .zip(&textbook)
                    .fold(0.0f64, |m, (a, b)| m.max((a - b).abs())),
            );
        }
        x.copy_from_slice(&next);
        let (dx, dy) = (x[2] - x[0], x[3] - x[1]);
        let (dvx, dvy) = (x[6] - x[4], x[7] - x[5]);
        rods = rods
            .max(((x[0] * x[0] + x[1] * x[1]) / (l1 * l1) - 1.0).abs())
            .max(((dx * dx + dy * dy) / (l2 * l2) - 1.0).abs());
        let size = x[..4]
            .iter()
            .chain(&x[4..])
            .fold(1.0f64, |m, s| m.max(s.abs()));
        rates = rates
            .max((x[0] * x[4] + x[1] * x[5]).abs() / (size * size))
            .max((dx * dvx + dy * dvy).abs() / (size * size));
        energies.push(energy(&x));
    }
    let largest = energies
        .iter()
        .fold(0.0f64, |m, v| m.max((v - energies[0]).abs()));
    let tenth = energies.len() / 10;
    let mean = |s: &[f64]| s.iter().sum::<f64>() / s.len() as f64;
    let drift = mean(&energies[energies.len() - tenth..]) - mean(&energies[..tenth]);
    let scale = energies[0].abs().max(1.0);
    eprintln!("RATTLE: vs textbook {routes:.1e}, |f|/l^2 <= {rods:.1e}, |mu v| <= {rates:.1e}, energy error <= {largest:.1e} of {:.3}, drift {drift:.1e}, at most {most} Newton iterations", energies[0]);
    assert!(
        routes <= 1e-10,
        "the step and the textbook RATTLE differ by {routes}"
    );
    assert!(rods <= 1e-12, "a rod's constraint reached {rods}");
    assert!(
        rates <= 1e-12,
        "a rod's velocity constraint reached {rates}"
    );
    assert!(largest <= 1e-3 * scale, "the energy moved by {largest}");
    assert!(drift.abs() <= 1e-5 * scale, "the energy drifts by {drift}");
    assert!(most <= 8, "{most} Newton iterations in a step");
}

/// The contact derivation of `golden/discrete/<name>`.
fn contact(name: &str) -> dalembert::ContactDerivation {
    let case = super::root().join("golden/discrete").join(name);
    match family::derived(&case) {
        dalembert::Derived::Contact(d) => *d,
        _ => panic!("{name}: not a contact system"),
    }
}

/// `golden/discrete/herglotz_oscillator/notes.md`: the discrete Herglotz equations, by hand.
#[test]
fn the_herglotz_oscillator_has_the_hand_derived_discrete_herglotz_equations() {
    let d = contact("herglotz_oscillator");
    let e = d.discrete.as_ref().unwrap();
    let hand = |text: &str| read_in(&d.system, e, text);
    let c = "(1 - h*gamma/2)";
    let factor = "(1 - h*gamma + h^2*gamma^2/2)";
    let mid = "(x + x1)/2";
    let expected = [
        (
            "L_d",
            e.lagrangian.clone(),
            format!("{c}*(m*(x1 - x)^2/(2*h) - h*k*({mid})^2/2 - h*gamma*z)"),
        ),
        (
            "1 + D3 L_d",
            e.contraction.clone().unwrap(),
            factor.to_string(),
        ),
        (
            "p_k",
            e.momentum[0].clone(),
            format!("{c}*(m*(x1 - x)/h + h*k*({mid})/2)/{factor}"),
        ),
        (
            "p_k+1",
            e.next_momentum[0].clone(),
            format!("{c}*(m*(x1 - x)/h - h*k*({mid})/2)"),
        ),
        (
            "z_k+1",
            e.action.clone().unwrap(),
            format!("z + {c}*(m*(x1 - x)^2/(2*h) - h*k*({mid})^2/2 - h*gamma*z)"),
        ),
        (
            "newton",
            e.newton[0][0].clone(),
            format!("{c}*(m/h + h*k/4)/{factor}"),
        ),
    ];
    for (what, derived, text) in expected {
        assert_vanishes(what, derived - hand(&text));
    }
}

/// The Herglotz oscillator's parameters (`m`, `k`, `γ`) and start `(x, x', z)`.
const HERGLOTZ: [f64; 3] = [1.3, 2.0, 0.4];
const HERGLOTZ_START: [f64; 3] = [1.0, -0.3, 0.0];

/// The in-process step of the Herglotz oscillator from [`HERGLOTZ_START`] for `steps` steps of
/// `h`: the states.
fn herglotz_run(gamma: f64, h: f64, steps: usize) -> Vec<Vec<f64>> {
    let d = contact("herglotz_oscillator");
    let e = d.discrete.as_ref().unwrap();
    let stepper = mech::discrete::step::Stepper::new(&d.system, e).unwrap();
    let values: BTreeMap<&str, f64> = [("m", HERGLOTZ[0]), ("k", HERGLOTZ[1]), ("gamma", gamma)]
        .into_iter()
        .collect();
    let others: Vec<f64> = stepper.others.iter().map(|s| values[s.as_str()]).collect();
    let mut x = HERGLOTZ_START.to_vec();
    let mut next = vec![0.0; 3];
    let mut states = vec![x.clone()];
    for k in 0..steps {
        stepper
            .step(k as f64 * h, h, &x, &others, &mut next)
            .unwrap();
        x.copy_from_slice(&next);
        states.push(x.clone());
    }
    states
}

/// Against the exact solution `x(t) = e^{−γt/2} (x_0 cos ωt + (v_0 + γ x_0/2)/ω sin ωt)`,
/// `ω² = k/m − γ²/4`, over `t ∈ [0, 10]`: the largest error in `x` falls by a factor within
/// [3.5, 4.5] when `h` halves from 0.02 (order two), and is under 1e-3 at `h = 0.02`.
#[test]
fn the_discrete_herglotz_step_is_of_order_two() {
    let [m, k, gamma] = HERGLOTZ;
    let omega = (k / m - gamma * gamma / 4.0).sqrt();
    let [x0, v0, _] = HERGLOTZ_START;
    let exact = |t: f64| {
        (-gamma * t / 2.0).exp()
            * (x0 * (omega * t).cos() + (v0 + gamma * x0 / 2.0) / omega * (omega * t).sin())
    };
    let error = |h: f64| {
        let steps = (10.0 / h).round() as usize;
        herglotz_run(gamma, h, steps)
            .iter()
            .enumerate()
            .map(|(j, x)| (x[0] - exact(j as f64 * h)).abs())
            .fold(0.0f64, f64::max)
    };
    let (coarse, fine) = (error(0.02), error(0.01));
    eprintln!(
        "Herglotz: error {coarse:.2e} at h = 0.02, {fine:.2e} at h = 0.01, ratio {:.3}",
        coarse / fine
    );
    assert!(coarse < 1e-3, "the error at h = 0.02 is {coarse}");
    let ratio = coarse / fine;
    assert!(
        (3.5..=4.5).contains(&ratio),
        "the error falls by {ratio} when h halves"
    );
}

/// The decay rate of `e` sampled every `dt`: minus the slope of a least-squares line through
/// `ln e` against time.
pub(super) fn decay_rate(e: &[f64], dt: f64) -> f64 {
    let times: Vec<f64> = (0..e.len()).map(|k| k as f64 * dt).collect();
    let logs: Vec<f64> = e.iter().map(|v| v.ln()).collect();
    let n = e.len() as f64;
    let (mt, ml) = (times.iter().sum::<f64>() / n, logs.iter().sum::<f64>() / n);
    let slope = times
        .iter()
        .zip(&logs)
        .map(|(t, l)| (t - mt) * (l - ml))
        .sum::<f64>()
        / times.iter().map(|t| (t - mt) * (t - mt)).sum::<f64>();
    -slope
}

/// Over 10⁴ steps of `h = 0.05` with `γ = 0.1` (`t` up to 500, where `E_L` has decayed by
/// `e^{−50}`), the contact energy decays at its derived rate `γ`: `E_L(t) e^{γt}` stays within
/// 1e-2 of `E_L(0)` at every step, and the rate of a least-squares fit of `ln E_L` is `γ` to 2e-5
/// of it (a second-order method modifies the rate by `O(h²)`; measured 4e-6).
#[test]
fn the_discrete_herglotz_step_dissipates_at_the_derived_rate() {
    let d = contact("herglotz_oscillator");
    let gamma = 0.1;
    let h = 0.05;
    let keys: Vec<String> = d
        .system
        .keys(&d.system.state())
        .into_iter()
        .chain(d.system.action.map(|z| d.system.key(z)))
        .collect();
    let energy = |x: &[f64]| {
        let mut values: BTreeMap<String, f64> =
            [("m", HERGLOTZ[0]), ("k", HERGLOTZ[1]), ("gamma", gamma)]
                .iter()
                .map(|(k, v)| (k.to_string(), *v))
                .collect();
        values.extend(keys.iter().cloned().zip(x.iter().copied()));
        d.contact.energy.evaluate(&values).unwrap()
    };
    let states = herglotz_run(gamma, h, 10_000);
    let energies: Vec<f64> = states.iter().map(|x| energy(x)).collect();
    let scaled: Vec<f64> = energies
        .iter()
        .enumerate()
        .map(|(j, e)| e * (gamma * j as f64 * h).exp() / energies[0])
        .collect();
    let largest = scaled.iter().fold(0.0f64, |m, v| m.max((v - 1.0).abs()));
    let rate = decay_rate(&energies, h);
    eprintln!("Herglotz: E_L e^(gamma t)/E_L(0) within {largest:.1e} of 1, decay rate {rate} (gamma {gamma})");
    assert!(largest <= 1e-2, "the energy is off its decay by {largest}");
    assert!(
        (rate / gamma - 1.0).abs() <= 2e-5,
        "the energy decays at {rate}, not {gamma}"
    );
}

/// `golden/discrete/heavy_top`'s hand forms: `text` in the system's names with `h` the step and
/// `w1 …` standing for the discrete velocities `ξ_k`; with `next`, `G1 …` stand for the base
/// point at the end of the step (the symbols `next_momentum` reads), else for `Γ_k`.
fn heavy_top_hand(d: &dalembert::Derivation, text: &str, next: bool) -> Expr {
    let system = &d.system;
    let e = d.discrete.as_ref().unwrap();
    let table = &system.symbols;
    let mut names: BTreeMap<String, Expr> = BTreeMap::new();
    names.insert("h".into(), Expr::symbol(&e.step));
    for (v, xi) in system
        .keys(&system.algebroid.velocities)
        .iter()
        .zip(&e.next)
    {
        names.insert(v.clone(), Expr::symbol(xi));
    }
    if next {
        for &q in &system.coordinates {
            names.insert(system.key(q), Expr::symbol(&table.key(table.next(q))));
        }
    }
    model::point::read_value(system, text).unwrap().subs(&names)
}

/// `golden/discrete/heavy_top/notes.md`: the base point moved by the Cayley map, `Π_k` and
/// `Π_{k+1}` with the torque of gravity at either end, the trapezoidal `l_d`, and Newton's matrix
/// at `h = 0`, `diag(I1, I2, I3)`, term by term.
#[test]
fn the_heavy_top_has_the_hand_derived_lie_group_variational_integrator() {
    let d = derived("heavy_top");
    let e = d.discrete.as_ref().unwrap();
    let hand = |text: &str| heavy_top_hand(&d, text, false);
    let at_end = |text: &str| heavy_top_hand(&d, text, true);
    let dot_mu = "(I1*w1^2 + I2*w2^2 + I3*w3^2)";
    let xi_dot_gamma = "(w1*G1 + w2*G2 + w3*G3)";
    let xi_squared = "(w1^2 + w2^2 + w3^2)";
    // (ξ × Γ)_i, (ξ × μ)_i, (Γ × χ)_i, ξ_i, Γ_i, μ_i.
    let rows = [
        (
            "w2*G3 - w3*G2",
            "(I3 - I2)*w2*w3",
            "G2*chi3 - G3*chi2",
            "w1",
            "G1",
            "I1*w1",
        ),
        (
            "w3*G1 - w1*G3",
            "(I1 - I3)*w3*w1",
            "G3*chi1 - G1*chi3",
            "w2",
            "G2",
            "I2*w2",
        ),
        (
            "w1*G2 - w2*G1",
            "(I2 - I1)*w1*w2",
            "G1*chi2 - G2*chi1",
            "w3",
            "G3",
            "I3*w3",
        ),
    ];
    for (b, (xi_gamma, xi_mu, torque, xi_b, gamma_b, mu_b)) in rows.iter().enumerate() {
        let moved = hand(&format!(
            "{gamma_b} + (-4*h*({xi_gamma}) + 2*h^2*({xi_dot_gamma}*{xi_b} - {xi_squared}*{gamma_b}))/(4 + h^2*{xi_squared})"
        ));
        assert_vanishes(&format!("Gamma_k+1[{b}]"), e.positions[b].clone() - moved);
        let start = hand(&format!(
            "{mu_b} + h/2*{xi_mu} + h^2/4*{dot_mu}*{xi_b} - h/2*m*g*({torque})"
        ));
        let end = at_end(&format!(
            "{mu_b} - h/2*{xi_mu} + h^2/4*{dot_mu}*{xi_b} + h/2*m*g*({torque})"
        ));
        assert_vanishes(&format!("Pi_k[{b}]"), e.momentum[b].clone() - start);
        assert_vanishes(&format!("Pi_k+1[{b}]"), e.next_momentum[b].clone() - end);
    }
    let l_d = hand("h/2*(I1*w1^2 + I2*w2^2 + I3*w3^2) - h/2*m*g*(chi1*G1 + chi2*G2 + chi3*G3)")
        + at_end("-h/2*m*g*(chi1*G1 + chi2*G2 + chi3*G3)");
    assert_vanishes("l_d", e.lagrangian.clone() - l_d);
    let at_rest: BTreeMap<String, Expr> = std::iter::once((e.step.clone(), Expr::zero())).collect();
    let moments = ["I1", "I2", "I3"];
    for (i, row) in e.newton.iter().enumerate() {
        for (j, entry) in row.iter().enumerate() {
            let expected = if i == j {
                hand(moments[i])
            } else {
                Expr::zero()
            };
            assert_vanishes(
                &format!("newton[{i}][{j}] at h = 0"),
                entry.subs(&at_rest) - expected,
            );
        }
    }
}

/// The heavy top's Casimirs `|Γ|²` and `Π·Γ` are the same at both ends of every step of its Lie
/// group variational integrator, exactly: symbolically in `h`, `ξ`, `Γ_k` and the parameters,
/// with `Γ_{k+1}` the moved base point (notes.md, "Checks").
#[test]
fn the_heavy_top_step_keeps_both_casimirs_exactly() {
    assert_heavy_top_keeps_its_casimirs(&derived("heavy_top"));
}

/// `|Γ_{k+1}|² = |Γ_k|²` and `Π_{k+1}·Γ_{k+1} = Π_k·Γ_k` exactly for a heavy top's step, with
/// `Γ_{k+1}` the moved base point; and the step moves both (the top is not at rest).
fn assert_heavy_top_keeps_its_casimirs(d: &dalembert::Derivation) {
    let e = d.discrete.as_ref().unwrap();
    let system = &d.system;
    let table = &system.symbols;
    let gamma: Vec<Expr> = system
        .keys(&system.coordinates)
        .iter()
        .map(|q| Expr::symbol(q))
        .collect();
    let moved: BTreeMap<String, Expr> = system
        .coordinates
        .iter()
        .map(|&q| table.key(table.next(q)))
        .zip(e.positions.iter().cloned())
        .collect();
    let dot = |a: &[Expr], b: &[Expr]| {
        a.iter()
            .zip(b)
            .fold(Expr::zero(), |acc, (x, y)| acc + x.clone() * y.clone())
    };
    assert_vanishes(
        "|Gamma_k+1|^2 - |Gamma_k|^2",
        dot(&e.positions, &e.positions) - dot(&gamma, &gamma),
    );
    let next_momentum: Vec<Expr> = e.next_momentum.iter().map(|p| p.subs(&moved)).collect();
    assert_vanishes(
        "Pi_k+1 . Gamma_k+1 - Pi_k . Gamma_k",
        dot(&next_momentum, &e.positions) - dot(&e.momentum, &gamma),
    );
    assert!(!(e.positions[0].clone() - gamma[0].clone()).vanishes());
    assert!(!(next_momentum[0].clone() - e.momentum[0].clone()).vanishes());
}

/// `simulate --method variational` of the heavy top (an asymmetric top tumbling with its centre
/// of mass off every axis) over 2·10⁴ steps of `h = 0.01`: both Casimirs are kept to round-off
/// (`|Γ|²` to 2e-13, `Π·Γ` to 1e-12 of its scale; measured 4e-14 and 4e-13) and the energy error
/// stays bounded (2.3e-4) with no drift (the mean errors of the first and last tenths differ by
/// 4e-6), where the classical Runge–Kutta method at the same step lets `|Γ|²` wander (1e-8).
#[test]
fn the_variational_heavy_top_keeps_its_casimirs_and_energy() {
    use dalembert::simulate::Integrator;
    let run = |integrator| {
        simulate(
            "heavy_top",
            "I1=1,I2=2,I3=3,m=1,g=1,chi1=1/5,chi2=1/10,chi3=1",
            "G1=0,G2=3/5,G3=4/5,w1=1,w2=1/2,w3=2",
            integrator,
            (0.01, 200.0),
        )
    };
    let columns = |run: &sim::Trajectory, names: &[&str]| -> Vec<Vec<f64>> {
        names.iter().map(|c| run.column(c).unwrap()).collect()
    };
    let casimirs = |run: &sim::Trajectory| -> (f64, f64) {
        let gamma = columns(run, &["G1", "G2", "G3"]);
        let w = columns(run, &["w1", "w2", "w3"]);
        let moments = [1.0, 2.0, 3.0];
        let pair = |k: usize| {
            (0..3)
                .map(|i| moments[i] * w[i][k] * gamma[i][k])
                .sum::<f64>()
        };
        let length = |k: usize| (0..3).map(|i| gamma[i][k].powi(2)).sum::<f64>();
        (0..gamma[0].len()).fold((0.0f64, 0.0f64), |(l, p), k| {
            (
                l.max((length(k) - 1.0).abs()),
                p.max((pair(k) - pair(0)).abs()),
            )
        })
    };
    let variational = run(Integrator::Variational);
    let (length, pairing) = casimirs(&variational);
    assert!(length <= 2e-13, "|Gamma|^2 moved by {length:e}");
    // |Π(0)| |Γ| is about 6.2.
    assert!(pairing <= 1e-12 * 6.2, "Pi . Gamma moved by {pairing:e}");
    let (first, last, largest) = energy_drift(&variational);
    assert!(
        (last - first).abs() < 1e-4,
        "variational: drift {first:e} -> {last:e}"
    );
    assert!(
        largest < 1e-2,
        "variational: largest energy error {largest:e}"
    );
    let rk4 = run(Integrator::RungeKutta);
    let (length, _) = casimirs(&rk4);
    assert!(length > 1e-11, "rk4: |Gamma|^2 moved by only {length:e}");
}

/// `golden/discrete/pendulum_3d/notes.md`, by a second route: the 3D pendulum carries its whole
/// attitude `R`, and its discrete equations are the heavy top's with the vertical `Γ` the third
/// row of `R` — the same `Π_k`, `Π_{k+1}` and Newton's matrix, every row of `R` moved by the
/// heavy top's map of `Γ` — exactly, symbolically.
#[test]
fn the_3d_pendulum_steps_as_the_heavy_top_with_its_third_row_as_the_vertical() {
    let top = derived("heavy_top");
    let pendulum = derived("pendulum_3d");
    let (t, p) = (
        top.discrete.as_ref().unwrap(),
        pendulum.discrete.as_ref().unwrap(),
    );
    let (ts, ps) = (&top.system, &pendulum.system);
    // Γ_j → R_ij (and Γ_j,next → R_ij,next): the heavy top's forms for row i of the pendulum.
    let row = |i: usize| -> BTreeMap<String, Expr> {
        let mut map = BTreeMap::new();
        for j in 0..3 {
            let (g, r) = (ts.coordinates[j], ps.coordinates[3 * i + j]);
            map.insert(ts.key(g), Expr::symbol(&ps.key(r)));
            map.insert(
                ts.symbols.key(ts.symbols.next(g)),
                Expr::symbol(&ps.symbols.key(ps.symbols.next(r))),
            );
        }
        map.insert(t.step.clone(), Expr::symbol(&p.step));
        for (a, b) in t.next.iter().zip(&p.next) {
            map.insert(a.clone(), Expr::symbol(b));
        }
        map
    };
    for i in 0..3 {
        for j in 0..3 {
            assert_vanishes(
                &format!("R{}{}_k+1", i + 1, j + 1),
                p.positions[3 * i + j].clone() - t.positions[j].subs(&row(i)),
            );
        }
    }
    let third = row(2);
    for b in 0..3 {
        assert_vanishes(
            &format!("Pi_k[{b}]"),
            p.momentum[b].clone() - t.momentum[b].subs(&third),
        );
        assert_vanishes(
            &format!("Pi_k+1[{b}]"),
            p.next_momentum[b].clone() - t.next_momentum[b].subs(&third),
        );
        for c in 0..3 {
            assert_vanishes(
                &format!("newton[{b}][{c}]"),
                p.newton[b][c].clone() - t.newton[b][c].subs(&third),
            );
        }
    }
}

/// The 3D pendulum's attitude stays on SO(3): `R_{k+1} R_{k+1}ᵀ = R_k R_kᵀ` entry by entry,
/// exactly (symbolically in `h`, `ξ` and the nine entries of `R_k`), since `cay(hξ̂)` is a
/// rotation.
#[test]
fn the_3d_pendulum_step_keeps_its_attitude_orthogonal_exactly() {
    let d = derived("pendulum_3d");
    let e = d.discrete.as_ref().unwrap();
    let system = &d.system;
    let now: Vec<Expr> = system
        .keys(&system.coordinates)
        .iter()
        .map(|q| Expr::symbol(q))
        .collect();
    let gram = |r: &[Expr], i: usize, k: usize| {
        (0..3).fold(Expr::zero(), |acc, j| {
            acc + r[3 * i + j].clone() * r[3 * k + j].clone()
        })
    };
    for i in 0..3 {
        for k in i..3 {
            assert_vanishes(
                &format!("(R R^T)[{i}][{k}]"),
                gram(&e.positions, i, k) - gram(&now, i, k),
            );
        }
    }
}

/// `simulate --method variational` of the 3D pendulum from an attitude whose third row is the
/// heavy top's starting vertical: over 2000 steps of `h = 0.01` the third row of `R` and the
/// angular velocity follow the heavy top's run to 1e-11 (measured 7e-14: the same discrete
/// equations, evaluated by different programs; the tumbling top is chaotic, so the runs are
/// compared over t = 20), and over 2·10⁴ steps `R Rᵀ` stays the identity to 3e-13 (measured
/// 7e-14).
#[test]
fn the_variational_3d_pendulum_follows_the_heavy_top_and_stays_on_so3() {
    use dalembert::simulate::Integrator;
    let set = "I1=1,I2=2,I3=3,m=1,g=1,chi1=1/5,chi2=1/10,chi3=1";
    // Rows (1, 0, 0), (0, 4/5, -3/5), (0, 3/5, 4/5): orthonormal, third row Γ(0).
    let attitude = "R11=1,R12=0,R13=0,R21=0,R22=4/5,R23=-3/5,R31=0,R32=3/5,R33=4/5";
    let spin = "w1=1,w2=1/2,w3=2";
    let top = simulate(
        "heavy_top",
        set,
        &format!("G1=0,G2=3/5,G3=4/5,{spin}"),
        Integrator::Variational,
        (0.01, 20.0),
    );
    let pendulum = |until| {
        simulate(
            "pendulum_3d",
            set,
            &format!("{attitude},{spin}"),
            Integrator::Variational,
            (0.01, until),
        )
    };
    let short = pendulum(20.0);
    let pairs = [
        ("G1", "R31"),
        ("G2", "R32"),
        ("G3", "R33"),
        ("w1", "w1"),
        ("w2", "w2"),
        ("w3", "w3"),
    ];
    for (a, b) in pairs {
        let (x, y) = (top.column(a).unwrap(), short.column(b).unwrap());
        assert_eq!(x.len(), y.len());
        let worst = x
            .iter()
            .zip(&y)
            .fold(0.0f64, |m, (u, v)| m.max((u - v).abs()));
        assert!(worst <= 1e-11, "{a} vs {b}: {worst:e}");
    }
    let long = pendulum(200.0);
    let names = [
        "R11", "R12", "R13", "R21", "R22", "R23", "R31", "R32", "R33",
    ];
    let r: Vec<Vec<f64>> = names.iter().map(|c| long.column(c).unwrap()).collect();
    let off = |k: usize, i: usize, l: usize| {
        let entry = (0..3)
            .map(|j| r[3 * i + j][k] * r[3 * l + j][k])
            .sum::<f64>();
        (entry - if i == l { 1.0 } else { 0.0 }).abs()
    };
    let worst = (0..r[0].len())
        .flat_map(|k| (0..9).map(move |e| (k, e / 3, e % 3)))
        .fold(0.0f64, |m, (k, i, l)| m.max(off(k, i, l)));
    assert!(worst <= 3e-13, "R R^T is off the identity by {worst:e}");
}

/// The discrete goldens on `algebroid tangent` (midpoint and trapezoidal rules, no action).
const ON_TANGENT: [&str; 6] = [
    "pendulum",
    "damped_oscillator",
    "anharmonic_planar",
    "chaplygin_sleigh",
    "double_pendulum_rattle",
    "rolling_disc",
];

/// The documents print the equations on `TQ` in the step's own variables, the midpoint
/// `q_{k+1/2}` and the discrete velocity `q̇_{k+1/2}` (`mech::discrete::in_step_variables`: the
/// chain rule through the quadrature's nodes), and the JSON expanded in `q_k, q_{k+1}`. A second
/// route: substituting `q_{k+1/2} = (q_k + q_{k+1})/2` and `q̇_{k+1/2} = (q_{k+1} − q_k)/h` into the
/// printed forms gives the derived `L_d`, forces, `p_k`, `p_{k+1}` and discrete constraints, on
/// every golden of the midpoint and trapezoidal rules.
#[test]
fn the_printed_step_variables_give_the_derived_discrete_equations() {
    for name in ON_TANGENT {
        let d = derived(name);
        let e = d.discrete.as_ref().unwrap();
        let system = &d.system;
        let table = &system.symbols;
        let shown = mech::discrete::in_step_variables(system, e).expect("on TQ");
        let step = Expr::symbol(&e.step);
        let mut back = BTreeMap::new();
        for ((&q, &v), next) in system
            .coordinates
            .iter()
            .zip(&system.algebroid.velocities)
            .zip(&e.next)
        {
            let (now, next) = (table.expr(q), Expr::symbol(next));
            back.insert(
                table.key(table.half(q)),
                Expr::rational(1, 2) * (now.clone() + next.clone()),
            );
            back.insert(table.key(table.half(v)), (next - now) / step.clone());
        }
        let same = |what: &str, printed: &[Expr], derived: &[Expr]| {
            assert_eq!(printed.len(), derived.len(), "{name}: {what}");
            for (k, (a, b)) in printed.iter().zip(derived).enumerate() {
                assert_vanishes(&format!("{name}: {what}[{k}]"), a.subs(&back) - b.clone());
            }
        };
        same(
            "L_d",
            std::slice::from_ref(&shown.lagrangian),
            std::slice::from_ref(&e.lagrangian),
        );
        same("f_d^-", &shown.forces, &e.forces);
        same("f_d^+", &shown.next_forces, &e.next_forces);
        same("p_k", &shown.momentum, &e.momentum);
        same("p_k+1", &shown.next_momentum, &e.next_momentum);
        same("omega_d", &shown.constraints, &e.constraints);
        // And the printed forms are written in them: no q_{k+1} left in the midpoint rule's.
        if e.method == model::Discretisation::Midpoint {
            for p in shown.momentum.iter().chain(&shown.next_momentum) {
                assert!(!p.depends_on_any(&e.next), "{name}: {p} reads q_k+1");
            }
        }
    }
}

/// `golden/discrete/rolling_disc/notes.md`: over 10⁴ steps of `h = 0.01` the disc's step keeps
/// both discrete rolling constraints (`Δx = r Δθ cos ψ̄`, `Δy = r Δθ sin ψ̄`) to round-off
/// (`64 ε max(1, |q|)`), reports velocities on the continuous constraints to 1e-12, and keeps its
/// energy within 1e-3 of its start, the largest error over the second half of the run at most
/// twice that over the first (bounded, not drifting).
#[test]
fn the_rolling_disc_step_keeps_its_rolling_constraints_and_its_energy() {
    let d = derived("rolling_disc");
    let system = &d.system;
    let e = d.discrete.as_ref().unwrap();
    let stepper = mech::discrete::step::Stepper::new(system, e).unwrap();
    let (m, r) = (1.0, 0.5);
    let values: BTreeMap<String, f64> = [
        ("m", m),
        ("r", r),
        ("g", 9.81),
        ("A", m * r * r / 4.0),
        ("C", m * r * r / 2.0),
    ]
    .iter()
    .map(|(k, v)| (k.to_string(), *v))
    .collect();
    let others: Vec<f64> = stepper.others.iter().map(|s| values[s]).collect();
    let keys = system.keys(&system.state());
    let names: Vec<String> = keys
        .iter()
        .map(|k| system.spec_name(system.handle(k)))
        .collect();
    let at = |name: &str| {
        names
            .iter()
            .position(|n| n == name)
            .unwrap_or_else(|| panic!("no {name} in {names:?}"))
    };
    let (ix, iy, ipsi, iphi, itheta) = (at("x"), at("y"), at("psi"), at("phi"), at("theta"));
    let (vx, vy, vtheta) = (at("x'"), at("y'"), at("theta'"));
    // Rolling straight at spin 6 (x' = r θ' cos ψ, y' = r θ' sin ψ), stable upright (the
    // condition of golden/linearize/rolling_disc), leaning by 0.1: a small wobble.
    let mut x = vec![0.0; keys.len()];
    x[iphi] = 0.1;
    x[vtheta] = 6.0;
    x[vx] = r * 6.0;
    let mut next = vec![0.0; keys.len()];
    let h = 0.01;
    let energy = |x: &[f64]| {
        let mut at = values.clone();
        for (k, v) in keys.iter().zip(x) {
            at.insert(k.clone(), *v);
        }
        d.energy().evaluate(&at).unwrap()
    };
    let mut energies = vec![energy(&x)];
    let (mut discrete, mut continuous, mut size): (f64, f64, f64) = (0.0, 0.0, 1.0);
    for k in 0..10_000 {
        stepper
            .step(k as f64 * h, h, &x, &others, &mut next)
            .unwrap();
        let psi = (x[ipsi] + next[ipsi]) / 2.0;
        let dtheta = next[itheta] - x[itheta];
        discrete = discrete
            .max((next[ix] - x[ix] - r * dtheta * psi.cos()).abs())
            .max((next[iy] - x[iy] - r * dtheta * psi.sin()).abs());
        continuous = continuous
            .max((next[vx] - r * next[vtheta] * next[ipsi].cos()).abs())
            .max((next[vy] - r * next[vtheta] * next[ipsi].sin()).abs());
        x.copy_from_slice(&next);
        size = size.max(x.iter().fold(0.0f64, |m, v| m.max(v.abs())));
        energies.push(energy(&x));
    }
    let error = |s: &[f64]| s.iter().fold(0.0f64, |m, v| m.max((v - energies[0]).abs()));
    let half = energies.len() / 2;
    let (first, second) = (error(&energies[..half]), error(&energies[half..]));
    assert!(
        discrete <= 64.0 * f64::EPSILON * size,
        "a discrete rolling constraint reached {discrete}"
    );
    assert!(
        continuous <= 1e-12,
        "the velocities left the constraints by {continuous}"
    );
    assert!(
        first.max(second) <= 1e-3 * energies[0].abs(),
        "the energy moved by {}",
        first.max(second)
    );
    assert!(
        second <= 2.0 * first,
        "the energy error grew from {first} to {second}"
    );
}

/// The step evaluates the equations on `TQ` in the step's own variables, bound from the
/// increments (`mech::discrete::step::Numerical`), with Newton's matrix by the chain rule. A
/// second route: with the bindings substituted back, its `p_k`, discrete constraints, Newton's
/// matrix and `p_{k+1}` are the derived ones, on every TQ golden.
#[test]
fn the_numerical_forms_of_the_step_are_the_derived_equations() {
    for name in ON_TANGENT {
        let d = derived(name);
        let e = d.discrete.as_ref().unwrap();
        let numerical = mech::discrete::step::Numerical::of(&d.system, e);
        assert!(numerical.bindings.len() > e.next.len(), "{name}: bindings");
        // Substitute the bindings back, the last first (later ones read earlier ones).
        let unbind = |x: &Expr| {
            numerical
                .bindings
                .iter()
                .rev()
                .fold(x.clone(), |acc, (k, v)| {
                    acc.subs(&std::iter::once((k.clone(), v.clone())).collect())
                })
        };
        let same = |what: &str, forms: &[Expr], derived: &[Expr]| {
            assert_eq!(forms.len(), derived.len(), "{name}: {what}");
            for (k, (a, b)) in forms.iter().zip(derived).enumerate() {
                assert_vanishes(&format!("{name}: {what}[{k}]"), unbind(a) - b.clone());
            }
        };
        same("p_k", &numerical.momentum, &e.momentum);
        same("omega_d", &numerical.constraints, &e.constraints);
        let newton: Vec<Expr> = e.newton.iter().flatten().cloned().collect();
        same("newton", &numerical.newton, &newton);
        same("p_k+1", &numerical.next_momentum, &e.next_momentum);
    }
}

/// `golden/discrete/fpu_chain/notes.md`: the FPU-β chain's discrete equations by hand for the
/// masses next to the walls and an inner one, and the tridiagonal pattern of Newton's matrix.
#[test]
fn the_fpu_chain_has_the_hand_derived_discrete_equations_and_a_tridiagonal_newton_matrix() {
    let d = derived("fpu_chain");
    let e = d.discrete.as_ref().unwrap();
    // x̄_i as text (the walls at 0), φ'(s) and φ''(s) of a stretch s.
    let mid = |i: usize| {
        if i == 0 || i == 11 {
            "0".to_string()
        } else {
            format!("((x{i} + x{i}1)/2)")
        }
    };
    let stretch = |i: usize| format!("({} - {})", mid(i + 1), mid(i));
    let force = |s: &str| format!("(k*{s} + b*{s}^3)");
    let stiffness = |s: &str| format!("(k + 3*b*{s}^2)");
    for i in [1usize, 5, 10] {
        let dv = format!("({} - {})", force(&stretch(i - 1)), force(&stretch(i)));
        let p = format!("m*(x{i}1 - x{i})/h + h/2*{dv}");
        let p1 = format!("m*(x{i}1 - x{i})/h - h/2*{dv}");
        assert_vanishes(
            &format!("p_k,{i}"),
            e.momentum[i - 1].clone() - read(&d, &p),
        );
        assert_vanishes(
            &format!("p_k+1,{i}"),
            e.next_momentum[i - 1].clone() - read(&d, &p1),
        );
    }
    for i in 1..=10usize {
        for j in 1..=10usize {
            let entry = &e.newton[i - 1][j - 1];
            let hand = if i == j {
                format!(
                    "m/h + h/4*({} + {})",
                    stiffness(&stretch(i - 1)),
                    stiffness(&stretch(i))
                )
            } else if j == i + 1 {
                format!("-h/4*{}", stiffness(&stretch(i)))
            } else if i == j + 1 {
                format!("-h/4*{}", stiffness(&stretch(j)))
            } else {
                "0".to_string()
            };
            assert_vanishes(
                &format!("newton[{i}][{j}]"),
                entry.clone() - read(&d, &hand),
            );
        }
    }
}

/// `golden/discrete/fpu_chain/notes.md`: Newton's matrix is tridiagonal and `W = m I` diagonal,
/// so the emitted step solves on those bands (one subdiagonal and one superdiagonal for the LU,
/// none for `LDLᵀ`) and its banner counts the banded solves: 105 operations for the LU (61 to
/// eliminate, 44 to substitute; `emit::flops`), not the dense 805.
#[test]
fn the_fpu_chain_step_solves_on_the_bands_of_its_matrices() {
    let c = std::fs::read_to_string(
        super::root().join("golden/discrete/fpu_chain/expected/fpu_chain.c"),
    )
    .unwrap();
    for call in [
        "dalembert_lu_solve(newton_, 10, 1, 1, r_)",
        "dalembert_ldl_factor(w_, 10, 0)",
        "dalembert_ldl_solve(w_, 10, 0, x_next + 10)",
    ] {
        assert!(c.contains(call), "no {call} in the emitted step");
    }
    let rust = std::fs::read_to_string(
        super::root().join("golden/discrete/fpu_chain/expected/fpu_chain.rs"),
    )
    .unwrap();
    assert!(rust.contains("lu_solve(&mut newton_, 10, 1, 1, &mut r_)"));
    assert!(
        c.contains("an LU solve and the update, 145 ops"),
        "the banner does not count the banded LU (105 ops) and the update"
    );
}
