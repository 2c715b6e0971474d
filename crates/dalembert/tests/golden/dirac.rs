//! The Dirac side (seed 002 §3), proved against the other routes on every golden where it exists.
//!
//! - Hamilton: the phase equations (27)–(29) on `S`, with the tangency `η̇_α = dψ_α/dt`, pushed to
//!   the momenta of the algebroid (`p = T⁻¹η`, so `ṗ = d(T⁻¹)/dt η + T⁻¹ η̇`), equal the
//!   constrained Hamilton equations of seed 000 (the nonholonomic bracket's dynamics on `B̄`,
//!   itself proved equal to Lagrange–d'Alembert in `hamiltonian.rs`) — digest 002 §4 items 4–6;
//! - bracket: the almost-Poisson bracket on `S` generates the same equations,
//!   `ḟ = {f, H|_S} + F_b ∂f/∂η_b` (digest 002 T26: `H|_S` and `H̃` have the same derivatives
//!   on `S`);
//! - multipliers: the canonical multipliers `λ_α` (on the coframe of the completion) equal the
//!   Lagrangian ones pushed through the constraint rows, `λ_α = −λ_a μ^a_B T_α^B`;
//! - energy: `H|_S` is conserved when nothing depends on time and there are no forces
//!   (digest 002 §4 item 7);
//! - one structure for all: the three balls on a table share `𝒟_C`, and so do the three skaters
//!   (R5, §4 item 1);
//! - frames: the ball on a table with its declared frame and with the frame computed from its
//!   constraints gives the same Hamilton equations (§4 item 9).

use std::collections::BTreeMap;
use std::fs;

use cas::Expr;
use mech::base::algebra::phase_state;
use mech::hamilton::dirac::Dirac;
use mech::Derivation;

use super::{cases, derive, root};

/// `p_B = (T⁻¹)_B^A η_A` with `η_α = ψ_α`: algebroid momenta as functions on `S`.
fn momenta_on_s(d: &Derivation, dirac: &Dirac) -> BTreeMap<String, Expr> {
    let s = &dirac.structure;
    let n = s.momenta.len();
    (0..n)
        .map(|b| {
            let value = (0..n).fold(Expr::zero(), |acc, a| {
                acc + s.inverse[b][a].clone() * Expr::symbol(&s.momenta[a])
            });
            (
                d.system.key(d.system.algebroid.momenta[b]),
                value.subs(&dirac.dependent),
            )
        })
        .collect()
}

/// Checks that the Dirac equations of `d` are its constrained Hamilton equations; the number of
/// rates compared.
fn dirac_equals_hamilton(label: &str, d: &Derivation, dirac: &Dirac) -> usize {
    let system = &d.system;
    let h = d
        .hamiltonian
        .as_ref()
        .expect("a Dirac side has a Hamiltonian side");
    let s = &dirac.structure;
    let n = s.momenta.len();
    let m = system.coordinates.len();
    let to_s = momenta_on_s(d, dirac);
    let on_s = |e: &Expr| e.subs(&to_s).subs(&dirac.dependent).simplify();
    // η̇ for every frame momentum: the equations along C, the tangency for the completion.
    let eta_rate = |a: usize| -> Expr {
        match s.along.iter().position(|&b| b == a) {
            Some(k) => dirac.rates[m + k].clone(),
            None => {
                let k = s.complement.iter().position(|&b| b == a).unwrap();
                dirac.tangency[k].clone()
            }
        }
    };
    let q_rates = &dirac.rates[..m];
    let mut compared = 0;
    for (k, state) in phase_state(system).iter().enumerate() {
        let from_dirac = if k < m {
            q_rates[k].clone()
        } else {
            let b = k - m;
            (0..n).fold(Expr::zero(), |acc, a| {
                let moving = system
                    .keys(&system.coordinates)
                    .iter()
                    .zip(q_rates)
                    .fold(Expr::zero(), |acc, (q, rate)| {
                        acc + s.inverse[b][a].diff(q) * rate.clone()
                    });
                acc + moving * Expr::symbol(&s.momenta[a]) + s.inverse[b][a].clone() * eta_rate(a)
            })
        };
        let from_hamilton = h.dynamics(system, &Expr::symbol(state));
        let difference = on_s(&(from_dirac.clone() - from_hamilton.clone()));
        assert!(
            difference.vanishes(),
            "{label}: {state}' from the Dirac structure is {} but from Hamilton's equations {}",
            dalembert::show(d, &on_s(&from_dirac)),
            dalembert::show(d, &on_s(&from_hamilton))
        );
        compared += 1;
    }
    compared
}

#[test]
fn dirac_phase_equations_equal_the_constrained_hamilton_equations() {
    let mut checked = Vec::new();
    for case in cases() {
        let d = derive(&case);
        let Ok(dirac) = &d.dirac else { continue };
        if d.system.constraints.is_empty() {
            continue;
        }
        dirac_equals_hamilton(&case.display().to_string(), &d, dirac);
        checked.push(case.file_name().unwrap().to_string_lossy().into_owned());
    }
    for expected in ["ball_on_table", "ball_on_table_magnetic", "skater_charged"] {
        assert!(
            checked.iter().any(|c| c == expected),
            "{expected} has a Dirac side: {checked:?}"
        );
    }
}

#[test]
fn dirac_bracket_generates_the_dirac_equations() {
    for case in cases() {
        let d = derive(&case);
        let Ok(dirac) = &d.dirac else { continue };
        for (c, rate) in dirac.coordinates.iter().zip(&dirac.rates) {
            let generated = dirac.dynamics(&d.system, &Expr::symbol(c));
            assert!(
                (generated.clone() - rate.clone()).vanishes(),
                "{}: {c}' is {} from the bracket but {} from (28)-(29)",
                case.display(),
                dalembert::show(&d, &generated),
                dalembert::show(&d, rate)
            );
        }
        for (i, j, e) in &dirac.table {
            let (f, g) = (
                Expr::symbol(&dirac.coordinates[*i]),
                Expr::symbol(&dirac.coordinates[*j]),
            );
            let reversed = dirac.bracket(&d.system, &g, &f);
            assert!((reversed + e.clone()).vanishes(), "skew");
        }
    }
}

#[test]
fn dirac_multipliers_equal_the_lagrangian_multipliers() {
    let mut checked = 0;
    for case in cases() {
        let d = derive(&case);
        let Ok(dirac) = &d.dirac else { continue };
        let system = &d.system;
        let Ok(h) = &d.hamiltonian else { continue };
        if system.constraints.is_empty() {
            continue;
        }
        let s = &dirac.structure;
        let to_phase: BTreeMap<String, Expr> = system
            .keys(&system.algebroid.velocities)
            .into_iter()
            .zip(h.velocities.iter().cloned())
            .collect();
        let to_s = momenta_on_s(&d, dirac);
        let on_s = |e: &Expr| {
            e.subs(&to_phase)
                .subs(&to_s)
                .subs(&dirac.dependent)
                .simplify()
        };
        for (k, &alpha) in s.complement.iter().enumerate() {
            let lagrangian = d.multipliers().iter().zip(&system.constraints).fold(
                Expr::zero(),
                |acc, (lambda, c)| {
                    let along_f =
                        c.mu.iter()
                            .zip(&s.frame[alpha])
                            .fold(Expr::zero(), |acc, (mu, t)| acc + mu.clone() * t.clone());
                    acc - lambda.clone() * along_f
                },
            );
            let difference = on_s(&(lagrangian.clone() - dirac.multipliers[k].clone()));
            assert!(
                difference.vanishes(),
                "{}: λ for {} is {} on the Dirac side but {} from the Lagrangian side",
                case.display(),
                s.momenta[alpha],
                dalembert::show(&d, &dirac.multipliers[k]),
                dalembert::show(&d, &on_s(&lagrangian))
            );
            checked += 1;
        }
    }
    assert!(checked >= 5, "only {checked} multipliers compared");
}

#[test]
fn dirac_hamiltonian_is_conserved_without_time_or_forces() {
    let mut checked = 0;
    for case in cases() {
        let d = derive(&case);
        let Ok(dirac) = &d.dirac else { continue };
        let system = &d.system;
        if system.is_time_dependent() || system.forces.iter().any(|f| !f.is_zero()) {
            continue;
        }
        let rate = dirac
            .coordinates
            .iter()
            .zip(&dirac.rates)
            .fold(Expr::zero(), |acc, (c, r)| {
                acc + dirac.restricted.diff(c) * r.clone()
            })
            .simplify();
        assert!(
            rate.vanishes(),
            "{}: dH/dt = {}",
            case.display(),
            dalembert::show(&d, &rate)
        );
        checked += 1;
    }
    assert!(checked >= 5, "only {checked} goldens checked");
}

#[test]
fn one_dirac_structure_serves_every_hamiltonian() {
    let groups: [&[&str]; 2] = [
        &[
            "ball_on_table",
            "ball_on_table_magnetic",
            "ball_on_table_harmonic",
        ],
        &["skater_slope", "skater_charged", "skater_hamiltonian"],
    ];
    for group in groups {
        let derived: Vec<Derivation> = group
            .iter()
            .map(|name| derive(&root().join("golden").join(name)))
            .collect();
        let structures: Vec<_> = derived
            .iter()
            .map(|d| {
                let s = d.dirac.as_ref().expect("a Dirac side").structure.clone();
                let brackets = s.brackets(&d.system);
                (s, brackets)
            })
            .collect();
        assert!(structures.windows(2).all(|w| w[0] == w[1]), "{group:?}");
        // The Hamiltonians differ, and so do their effective phase spaces.
        let phases: Vec<_> = derived
            .iter()
            .map(|d| d.dirac.as_ref().unwrap().dependent.clone())
            .collect();
        assert_ne!(phases[0], phases[1], "{group:?}");
    }
}

#[test]
fn the_computed_frame_gives_the_same_equations_as_the_declared_one() {
    let source =
        fs::read_to_string(root().join("golden/ball_on_table_magnetic/spec.mech")).unwrap();
    let start = source.find("frame {").unwrap();
    let end = start + source[start..].find("}\n").unwrap() + 2;
    let without: String = source[..start].to_string() + &source[end..];
    // Expectations written in the declared frame's momenta no longer resolve: keep the others.
    let without: String = without
        .split("\nexpect ")
        .enumerate()
        .filter(|(i, block)| *i == 0 || !block.starts_with("frame") && !block.starts_with("dirac"))
        .map(|(i, block)| {
            if i == 0 {
                block.to_string()
            } else {
                format!("\nexpect {block}")
            }
        })
        .collect();
    let d = dalembert::compile(&without)
        .unwrap_or_else(|e| panic!("{}", dalembert::render_plain("spec.mech", &without, &e)));
    let frame = d.system.frame.as_ref().expect("a computed frame");
    assert!(!frame.declared);
    let dirac = d.dirac.as_ref().expect("a Dirac side");
    // The computed frame solves vx = R wy, vy = -R wx for vx, vy: f_wx = lx - R ey, f_wy = ly + R ex.
    assert_eq!(dirac.structure.along.len(), 3);
    assert_ne!(
        dirac.structure.frame,
        derive(&root().join("golden/ball_on_table_magnetic"))
            .dirac
            .unwrap()
            .structure
            .frame
    );
    assert_eq!(dirac_equals_hamilton("computed frame", &d, dirac), 7);
}

/// Seed 001's projected structure (a metric projection onto `D`) and seed 002's bracket on `S`
/// (a completion of the frame and the solution of (27)) are built differently; for a mechanical
/// Lagrangian they are the same bracket on the same coordinates (`ξ_a = η_a`) with the same
/// Hamiltonian, and so give the same equations (digest 002 §4 item 4; digest 001 §1.7).
#[test]
fn projected_structure_equals_the_dirac_bracket_for_mechanical_lagrangians() {
    let mut checked = Vec::new();
    for case in cases() {
        let d = derive(&case);
        let (Ok(projected), Ok(dirac)) = (&d.projected, &d.dirac) else {
            continue;
        };
        assert_eq!(
            projected.coordinates,
            dirac.coordinates,
            "{}",
            case.display()
        );
        let same = |a: &Expr, b: &Expr| (a.clone() - b.clone()).subs(&dirac.dependent).vanishes();
        assert!(
            same(&projected.hamiltonian, &dirac.restricted),
            "{}: H",
            case.display()
        );
        for ((i, j, p), (_, _, q)) in projected.table.iter().zip(&dirac.table) {
            assert!(
                same(p, q),
                "{}: {{{}, {}}} is {} projected but {} on S",
                case.display(),
                dirac.coordinates[*i],
                dirac.coordinates[*j],
                dalembert::show(&d, p),
                dalembert::show(&d, q)
            );
        }
        for (c, (p, q)) in dirac
            .coordinates
            .iter()
            .zip(projected.rates.iter().zip(&dirac.rates))
        {
            assert!(same(p, q), "{}: {c}'", case.display());
        }
        checked.push(case.file_name().unwrap().to_string_lossy().into_owned());
    }
    for expected in ["ball_on_table", "skater_slope", "damped_skate_forced"] {
        assert!(
            checked.iter().any(|c| c == expected),
            "{expected}: {checked:?}"
        );
    }
}

/// The frame computed from the constraints is budgeted (`model::frame::FRAME_EXPANSION`): the
/// 3-link wheeled snake of `golden/implicit/snake_3` gets one, a 10-link snake (the same system,
/// its ten trigonometric constraints solved symbolically took 49 s) gets none, and the Dirac
/// side of a system without one says that its budget, not its constraints, is why.
#[test]
fn dirac_a_computed_frame_is_budgeted() {
    let resolve = |source: &str| model::resolve(&syntax::parse(source).unwrap()).unwrap();
    let small =
        resolve(&fs::read_to_string(root().join("golden/implicit/snake_3/spec.mech")).unwrap());
    assert!(
        small.frame.is_some(),
        "the 3-link snake has a computed frame"
    );
    let n = 10;
    let velocity = |i: usize, axis: &str| -> String {
        let (first, trig, sign) = if axis == "x" {
            ("x'", "sin", " - ")
        } else {
            ("y'", "cos", " + ")
        };
        let mut v = first.to_string();
        for j in 1..i {
            v += &format!("{sign}l{j}*{trig}(th{j})*th{j}'");
        }
        v.push_str(&format!("{sign}l{i}/2*{trig}(th{i})*th{i}'"));
        v
    };
    let lagrangian: Vec<String> = (1..=n)
        .map(|i| {
            format!(
                "m{i}/2*(({})^2 + ({})^2) + J{i}/2*th{i}'^2",
                velocity(i, "x"),
                velocity(i, "y")
            )
        })
        .collect();
    let constraints: Vec<String> = (1..=n)
        .map(|i| {
            format!(
                "  -sin(th{i})*({}) + cos(th{i})*({}) = 0",
                velocity(i, "x"),
                velocity(i, "y")
            )
        })
        .collect();
    let list = |p: &str| {
        (1..=n)
            .map(|i| format!("{p}{i}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let source = format!(
        "system snake_{n}\nparameters {}, {}, {}\ncoordinates x, y, {}\nalgebroid tangent\nlagrangian = {}\nconstraints nonholonomic {{\n{}\n}}\n",
        list("m"), list("J"), list("l"), list("th"), lagrangian.join(" + "), constraints.join("\n")
    );
    let large = resolve(&source);
    assert!(model::frame::linear_constraints(&large));
    assert!(
        large.frame.is_none(),
        "the 10-link snake's frame is over the budget"
    );
    let reason = mech::hamilton::dirac::Unavailable::FrameOverBudget.to_string();
    assert!(
        reason.contains("budget") && reason.contains("`frame` item"),
        "{reason}"
    );
}
