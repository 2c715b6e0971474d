//! Two routes through the mathematics, proved equal on every golden.
//!
//! - multipliers: `R_nh = R_L + λ_a Z_a` (closed-form multipliers) equals `P(R_L)` (the
//!   projector of Thm IV.5), on the constraint surface;
//! - Poincaré–Cartan: `Ω_L` from the digest's block formula equals `−dΘ_L` computed with the
//!   differential of the prolongation (seed 000 eqs. (1), (7));
//! - dynamics: `i_X Ω_L = (λ_a μ^a_α − F_α) θ^α` and `φ_0(X) = 1` for the derived SODE `X`
//!   (seed 000 eq. (33)), and `dΨ^a(X) = 0` on the surface (constraint preservation);
//! - energy: the balance law of digest §2 A8 equals the derivative of `E_L` along the dynamics;
//! - reference section: the ball with `e_0` shifted (digest §3.3) has the same physical motion.

use cas::Expr;
use mech::check::Surface;
use mech::lagrange::nonholonomic::{energy_balance, pair, sode_vector};
use mech::Derivation;

use super::{cases, derive, root};

fn zero_on(surface: &Surface, e: &Expr) -> bool {
    surface.restrict(e).is_zero()
}

fn show(d: &Derivation, e: &Expr) -> String {
    dalembert::show(d, e)
}

#[test]
fn routes_projector_of_the_free_dynamics_equals_the_closed_form_multipliers() {
    let mut checked = 0;
    for case in cases() {
        let d = derive(&case);
        let Some(nh) = &d.nonholonomic else { continue };
        let surface = Surface::new(&d.system);
        let free = sode_vector(&d.system, &d.free_rhs);
        let constrained = sode_vector(&d.system, &nh.rhs);
        for (i, row) in nh.projector.iter().enumerate() {
            let projected = pair(row, &free);
            let difference = projected - constrained[i].clone();
            assert!(
                zero_on(&surface, &difference),
                "{}: P(R_L) - R_nh = {} in row {i}",
                case.display(),
                show(&d, &difference)
            );
        }
        checked += 1;
    }
    assert!(checked >= 3, "the projector route ran on {checked} goldens");
}

/// `−dΘ_L` through the prolongation's differential, as a matrix in `(T̃_0, T̃_β, Ṽ_β)`.
fn omega_from_theta(d: &Derivation) -> Vec<Vec<Expr>> {
    let system = &d.system;
    let alg = &system.algebroid;
    let n = alg.sections.len();
    let size = 2 * n + 1;
    // df as a covector over the basis.
    let differential = |f: &Expr| -> Vec<Expr> {
        let mut row = vec![mech::base::algebra::anchor_apply(system, 0, f)];
        row.extend((1..=n).map(|a| mech::base::algebra::anchor_apply(system, a, f)));
        row.extend(alg.velocities.iter().map(|y| f.diff(&system.key(*y))));
        row
    };
    let basis = |k: usize| -> Vec<Expr> {
        (0..size)
            .map(|j| if j == k { Expr::one() } else { Expr::zero() })
            .collect()
    };
    // (a ∧ b)(X_i, X_j) = a_i b_j − a_j b_i.
    let wedge = |a: &[Expr], b: &[Expr]| -> Vec<Vec<Expr>> {
        (0..size)
            .map(|i| {
                (0..size)
                    .map(|j| a[i].clone() * b[j].clone() - a[j].clone() * b[i].clone())
                    .collect()
            })
            .collect()
    };
    let mut d_theta = vec![vec![Expr::zero(); size]; size];
    let mut add = |m: Vec<Vec<Expr>>, scale: Expr| {
        for i in 0..size {
            for j in 0..size {
                d_theta[i][j] = d_theta[i][j].clone() + scale.clone() * m[i][j].clone();
            }
        }
    };
    let theta = &d.lagrangian.theta;
    // d(Θ_0 φ_0) = dΘ_0 ∧ φ_0 (φ_0 is closed).
    add(wedge(&differential(&theta[0]), &basis(0)), Expr::one());
    for g in 0..n {
        // d(Θ_γ T̃^γ) = dΘ_γ ∧ T̃^γ + Θ_γ dT̃^γ,
        // dT̃^γ = −C^γ_0α φ_0 ∧ T̃^α − ½ C^γ_αβ T̃^α ∧ T̃^β.
        add(
            wedge(&differential(&theta[1 + g]), &basis(1 + g)),
            Expr::one(),
        );
        for a in 0..n {
            add(
                wedge(&basis(0), &basis(1 + a)),
                -theta[1 + g].clone() * alg.c0[a][g].clone(),
            );
            for b in 0..n {
                add(
                    wedge(&basis(1 + a), &basis(1 + b)),
                    -theta[1 + g].clone() * alg.c[a][b][g].clone() / Expr::int(2),
                );
            }
        }
    }
    d_theta
        .into_iter()
        .map(|row| row.into_iter().map(|e| -e).collect())
        .collect()
}

#[test]
fn routes_omega_block_form_equals_minus_d_theta() {
    for case in cases() {
        let d = derive(&case);
        let other = omega_from_theta(&d);
        for (i, row) in d.lagrangian.omega.iter().enumerate() {
            for (j, entry) in row.iter().enumerate() {
                let difference = entry.clone() - other[i][j].clone();
                assert!(
                    difference.is_zero(),
                    "{}: Ω_L[{i}][{j}] block form − (−dΘ_L) = {}",
                    case.display(),
                    show(&d, &difference)
                );
            }
        }
    }
}

#[test]
fn routes_derived_dynamics_solve_the_intrinsic_equations_and_preserve_the_constraints() {
    for case in cases() {
        let d = derive(&case);
        let system = &d.system;
        let alg = &system.algebroid;
        let n = alg.sections.len();
        let surface = Surface::new(system);
        let x = sode_vector(system, d.fibre_rhs());
        // Expected covector (λ_a μ^a_α − F_α) θ^α, θ^α = T̃^α − y^α φ_0.
        let coefficient: Vec<Expr> = (0..n)
            .map(|a| {
                system
                    .constraints
                    .iter()
                    .zip(d.multipliers())
                    .fold(-system.forces[a].clone(), |acc, (c, l)| {
                        acc + l.clone() * c.mu[a].clone()
                    })
            })
            .collect();
        let mut expected = vec![Expr::zero(); 2 * n + 1];
        for a in 0..n {
            expected[0] =
                expected[0].clone() - coefficient[a].clone() * system.expr(alg.velocities[a]);
            expected[1 + a] = coefficient[a].clone();
        }
        for (j, expected) in expected.iter().enumerate() {
            let contracted = x
                .iter()
                .zip(&d.lagrangian.omega)
                .fold(Expr::zero(), |acc, (xi, row)| {
                    acc + xi.clone() * row[j].clone()
                });
            let difference = contracted - expected.clone();
            assert!(
                zero_on(&surface, &difference),
                "{}: (i_X Ω_L − λμθ)[{j}] = {}",
                case.display(),
                show(&d, &difference)
            );
        }
        if let Some(nh) = &d.nonholonomic {
            for (a, row) in nh.dpsi.iter().enumerate() {
                let rate = pair(row, &x);
                assert!(
                    zero_on(&surface, &rate),
                    "{}: dΨ^{}(R_nh) = {} on the surface",
                    case.display(),
                    a + 1,
                    show(&d, &rate)
                );
            }
        }
    }
}

#[test]
fn routes_energy_balance_law_equals_the_derivative_of_the_energy() {
    for case in cases() {
        let d = derive(&case);
        let surface = Surface::new(&d.system);
        let law = energy_balance(&d.system, &d.lagrangian, d.multipliers());
        let difference = law - d.energy_rate.clone();
        assert!(
            zero_on(&surface, &difference),
            "{}: balance law − dE/dt = {}",
            case.display(),
            show(&d, &difference)
        );
    }
}

#[test]
fn routes_shifting_the_reference_section_leaves_the_ball_unchanged() {
    // Ball: (u1, u2) = (ẋ, ẏ). Shifted: v1 = ẋ + Ω y, v2 = ẏ − Ω x (digest 000 §3.3).
    let ball = derive(&root().join("golden/ball_on_turntable"));
    let shifted = derive(&root().join("golden/ball_shifted_e0"));
    let rhs = |d: &Derivation, state: &str| {
        d.equations
            .iter()
            .find(|e| e.state == state)
            .unwrap()
            .rhs
            .clone()
    };
    let s = Expr::symbol;
    let omega = s("Omega");
    let symbols = &ball.system.symbols;
    let omega_dot = symbols.expr(symbols.function_derivative(symbols.handle("Omega"), 1));
    // Express the shifted equations in the ball's variables.
    let to_ball = std::collections::BTreeMap::from([
        ("v1".to_string(), s("u1") + omega.clone() * s("y")),
        ("v2".to_string(), s("u2") - omega.clone() * s("x")),
    ]);
    let surface = Surface::new(&ball.system);
    let in_ball = |e: Expr| e.subs(&to_ball);
    let checks = [
        (rhs(&shifted, "x"), s("u1")),
        (rhs(&shifted, "y"), s("u2")),
        (
            rhs(&shifted, "v1"),
            rhs(&ball, "u1") + omega_dot.clone() * s("y") + omega.clone() * s("u2"),
        ),
        (
            rhs(&shifted, "v2"),
            rhs(&ball, "u2") - omega_dot * s("x") - omega * s("u1"),
        ),
        (rhs(&shifted, "w1"), rhs(&ball, "w1")),
        (rhs(&shifted, "w2"), rhs(&ball, "w2")),
        (rhs(&shifted, "w3"), rhs(&ball, "w3")),
    ];
    for (k, (from_shifted, from_ball)) in checks.into_iter().enumerate() {
        let difference = in_ball(from_shifted) - from_ball;
        assert!(
            zero_on(&surface, &difference),
            "equation {k}: shifted − ball = {}",
            show(&ball, &difference)
        );
    }
}
