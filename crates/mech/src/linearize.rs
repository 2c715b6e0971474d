//! Linearisation on the constraint manifold: `A` and `B` of `δż = A δz + B δu` about an
//! equilibrium or a steady motion, in independent coordinates and velocities.
//!
//! This is not a construction of the papers; it linearises the closed-form Lagrange–d'Alembert
//! equations `ẋ = ρ_0 + ρ_α y^α`, `ẏ = R_nh` (Iglesias, Marrero, Martín de Diego, Sosa, J. Math.
//! Phys. 48 (2007) 083513, §IV) the way a control engineer needs them.
//!
//! The state `z = (x, y)` of a constrained system is not free: the motion keeps `Ψ^a(x, y) = 0`
//! (and `f^a(x) = 0` for holonomic constraints). Linearising `ż = F(z, u)` in all of `z` would
//! give one spurious zero eigenvalue per constraint, along directions the motion never takes. So:
//!
//! 1. `J = ∂F/∂z` and `∂F/∂u` at the point `z*` (sympy/sympy#7681 discusses the same problem).
//! 2. The tangent space of the constraint manifold at `z*` is the kernel of `G`, the rows
//!    `∂f^a/∂x` (on the coordinates) and `∂Ψ^a/∂z`. Gaussian elimination on `G` picks one
//!    *dependent* entry per independent row: a coordinate for a holonomic row, a velocity for a
//!    velocity row, scanning from the last entry of the state backwards (so the velocities
//!    declared last are eliminated first, and the coordinates are kept where they can be). The
//!    choice is part of the result, and every output states it.
//! 3. With `δz_d = K δz_i`, `K = −G_d⁻¹ G_i`, the tangent map `T` sends the independent entries to
//!    `δz`; since the flow keeps the constraints, `A = (J T)_i` (the independent rows) and
//!    `B = (∂F/∂u)_i` are exact.
//!
//! The point need not be an equilibrium: about a steady motion (the sleigh going straight, a robot
//! rolling at constant speed) the rates at the point are not zero, but the linearisation is still
//! that of the motion through it when the rates that move are those of cyclic coordinates. The
//! rates at the point are part of the result.

use std::collections::BTreeMap;

use cas::program::{DoubleDouble, Real};
use cas::Expr;

use crate::base::matrix::multiply;
use crate::Derivation;

mod numeric;
mod roots;
pub use report::{Complex, Linearization, Matrix};

/// Why a linearisation cannot be taken.
#[derive(Clone, Debug, PartialEq)]
pub enum Refusal {
    /// The point makes a value of the linearisation infinite or undefined.
    Singular(String),
    /// The point is not on the constraints: which constraint, and its residual there.
    Inconsistent(String),
    /// The system is not a Lagrange–d'Alembert system (vakonomic, singular, contact).
    Unsupported(String),
}

/// The dynamics linearised: the closed-form rates, or the implicit form (the accelerations solve
/// `[W μᵀ; μ 0] [a; λ] = [b; β]`, differentiated implicitly at the point).
enum Dynamics {
    Closed(Vec<Expr>),
    Implicit {
        coordinate_rates: Vec<Expr>,
        form: report::ImplicitForm,
    },
}

/// Which arithmetic a linearisation is taken in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Requested {
    /// Exact, unless the point is numeric and the dynamics are larger than
    /// [`DOUBLE_ABOVE_NODES`] (a vehicle's contact rows), where double precision.
    #[default]
    Auto,
    /// Exact (rational arithmetic with the parameters as symbols).
    Exact,
    /// Double precision; refused at a point where a parameter has no number.
    Double,
}

/// The size (in expression nodes, [`Expr::size`]) of the dynamics and constraint rows above
/// which [`Requested::Auto`] linearises a numeric point in double precision.
pub const DOUBLE_ABOVE_NODES: usize = 20_000;

/// Linearises a Lagrange–d'Alembert derivation (closed or implicit form) about `given` (values of
/// state entries, inputs and parameters by internal name), exactly unless the system is large
/// and the point numeric ([`Requested::Auto`]). State entries and inputs not given are zero,
/// except the dependent velocities, which are solved from the constraints.
pub fn linearize(
    derived: &crate::Derived,
    given: &BTreeMap<String, Expr>,
) -> Result<Linearization, Refusal> {
    linearize_in(derived, given, Requested::Auto)
}

/// [`linearize`] in the arithmetic `requested`.
pub fn linearize_in(
    derived: &crate::Derived,
    given: &BTreeMap<String, Expr>,
    requested: Requested,
) -> Result<Linearization, Refusal> {
    let (system, dynamics) = match derived {
        crate::Derived::Closed(d) => (
            &d.system,
            Dynamics::Closed(d.system.keys(&d.system.state()).iter().map(|s| rate_of(d, s)).collect()),
        ),
        crate::Derived::Implicit(_) => {
            let flow = crate::lower::flow(derived);
            let report::Rates::Solved(solved) = flow.rates else {
                unreachable!("the implicit route lowers to rates solved at run time")
            };
            (
                derived.system(),
                Dynamics::Implicit {
                    coordinate_rates: solved.coordinate_rates,
                    form: solved.form,
                },
            )
        }
        _ => {
            return Err(Refusal::Unsupported(
                "linearisation is offered for Lagrange-d'Alembert systems (nonholonomic, holonomic or unconstrained), not for vakonomic, singular or contact ones".into(),
            ))
        }
    };
    let large = || {
        dynamics.size()
            + system
                .constraints
                .iter()
                .map(|c| c.psi.size())
                .sum::<usize>()
            > DOUBLE_ABOVE_NODES
    };
    if requested == Requested::Double || (requested == Requested::Auto && large()) {
        match numeric::linearize(system, &dynamics, given) {
            Ok(result) => return result,
            Err(name) if requested == Requested::Double => {
                return Err(Refusal::Unsupported(format!(
                    "a linearisation in double precision needs a number for every parameter and every value of the point, and `{}` has none: give it in --at",
                    system.spec_name(system.handle(&name))
                )))
            }
            Err(_) => {}
        }
    }
    linearize_dynamics(system, &dynamics.inlined(), given)
}

impl Dynamics {
    /// The nodes of every expression (the bindings of a recursion included).
    fn size(&self) -> usize {
        match self {
            Dynamics::Closed(rates) => rates.iter().map(Expr::size).sum(),
            Dynamics::Implicit {
                coordinate_rates,
                form,
            } => {
                let entries = form.mass.iter().chain(&form.jacobian).flatten();
                let vectors = coordinate_rates
                    .iter()
                    .chain(&form.forcing)
                    .chain(&form.bias);
                let bindings = form.bindings.iter().map(|(_, e)| e);
                entries.chain(vectors).chain(bindings).map(Expr::size).sum()
            }
        }
    }

    /// The same dynamics with the recursion's bindings substituted into the entries (the exact
    /// route differentiates the entries as expressions of the state).
    fn inlined(mut self) -> Dynamics {
        if let Dynamics::Implicit { form, .. } = &mut self {
            inline_bindings(form);
        }
        self
    }
}

/// The linearisation of `dynamics` of `system` about `given`.
fn linearize_dynamics(
    system: &model::System,
    dynamics: &Dynamics,
    given: &BTreeMap<String, Expr>,
) -> Result<Linearization, Refusal> {
    let state = system.keys(&system.state());
    let inputs = system.keys(&system.inputs);
    let rows = constraint_rows(system, &state);
    let Completed {
        point,
        defaulted,
        reduction,
    } = complete_point(system, &rows, given)?;
    let at = |e: &Expr| e.subs(&point).simplify();
    let tangent_at = {
        let gradient_at: Vec<Row> = rows
            .iter()
            .map(|r| Row {
                gradient: r.gradient.iter().map(&at).collect(),
                pivots: r.pivots.clone(),
                constraint: r.constraint,
                velocity: r.velocity,
            })
            .collect();
        tangent_map(&reduction, &gradient_at, state.len())?
    };
    let (rates, j, bu) = match dynamics {
        Dynamics::Closed(rates) => {
            let jacobian = |by: &[String]| -> Vec<Vec<Expr>> {
                rates
                    .iter()
                    .map(|f| by.iter().map(|s| at(&f.diff(s))).collect())
                    .collect()
            };
            (
                rates.iter().map(&at).collect(),
                jacobian(&state),
                jacobian(&inputs),
            )
        }
        Dynamics::Implicit {
            coordinate_rates,
            form,
        } => implicit_jacobians(coordinate_rates, form, &state, &inputs, &at)?,
    };
    let a = finish(&multiply(&select(&j, &reduction.independent), &tangent_at));
    let b = finish(&select(&bu, &reduction.independent));
    for e in a.iter().chain(&b).flatten() {
        if !e.is_finite_real() {
            return Err(Refusal::Singular(format!(
                "the linearisation is not finite at this point ({})",
                cas::print::spec(e, system)
            )));
        }
    }
    let general = match dynamics {
        Dynamics::Closed(rates) => {
            let tangent = tangent_map(&reduction, &rows, state.len())?;
            let jacobian = |by: &[String]| -> Vec<Vec<Expr>> {
                rates
                    .iter()
                    .map(|f| by.iter().map(|s| f.diff(s)).collect())
                    .collect()
            };
            Some((
                multiply(&select(&jacobian(&state), &reduction.independent), &tangent),
                select(&jacobian(&inputs), &reduction.independent),
            ))
        }
        Dynamics::Implicit { .. } => None,
    };
    let variable = fresh_variable(system);
    let characteristic = characteristic_polynomial(&a, &variable);
    // From the exact polynomial (its zero roots counted exactly) while it is shown and its
    // coefficients evaluate to finite numbers; else from the numeric A.
    let eigenvalues = characteristic
        .as_ref()
        .and_then(|p| roots::eigenvalues(p, &variable, a.len()))
        .filter(|roots| roots.iter().all(|z| z.re.is_finite() && z.im.is_finite()))
        .or_else(|| numeric_eigenvalues(&a));
    let dependent = reduction
        .dependent
        .iter()
        .map(|&d| (d, tangent_at[d].iter().map(|e| e.factored()).collect()))
        .collect();
    Ok(Linearization {
        state,
        inputs,
        rates: rates.iter().map(|e: &Expr| e.factored()).collect(),
        point,
        defaulted,
        independent: reduction.independent,
        dependent,
        redundant: reduction.redundant,
        a,
        b,
        general,
        variable,
        characteristic,
        eigenvalues,
        arithmetic: report::Arithmetic::Exact,
    })
}

/// The eigenvalues of `A` from its entries as numbers (balanced Hessenberg QR in double-double
/// arithmetic), when every entry evaluates to a finite number: the route when the characteristic
/// polynomial's coefficients do not, and a second route to the eigenvalues everywhere else.
pub fn numeric_eigenvalues(a: &[Vec<Expr>]) -> Option<Vec<Complex>> {
    let numbers: Option<Vec<Vec<DoubleDouble>>> = a
        .iter()
        .map(|row| row.iter().map(constant_value).collect())
        .collect();
    roots::of_matrix(&numbers?)
}

/// The value of a constant expression in double-double arithmetic, so that rationals of hundreds
/// of digits and terms that nearly cancel keep their value (`1/10` and `pi/10` to 32 digits);
/// `None` when it has a symbol or is not finite.
pub(crate) fn constant_value(e: &Expr) -> Option<DoubleDouble> {
    e.evaluate_in::<DoubleDouble>(&Default::default())
        .filter(|v| v.to_f64().is_finite())
}

/// Simplified and factored entries.
fn finish(m: &[Vec<Expr>]) -> Vec<Vec<Expr>> {
    m.iter()
        .map(|row| row.iter().map(|e| e.simplify().factored()).collect())
        .collect()
}

/// Substitutes the bindings of a recursion into the entries of the form, so that they are
/// expressions of the state.
fn inline_bindings(form: &mut report::ImplicitForm) {
    let mut values: BTreeMap<String, Expr> = BTreeMap::new();
    for (name, value) in std::mem::take(&mut form.bindings) {
        let value = value.subs(&values);
        values.insert(name, value);
    }
    if values.is_empty() {
        return;
    }
    let inline = |e: &mut Expr| *e = e.subs(&values);
    form.mass.iter_mut().flatten().for_each(inline);
    form.forcing.iter_mut().for_each(inline);
    form.jacobian.iter_mut().flatten().for_each(inline);
    form.bias.iter_mut().for_each(inline);
}

/// The rates at the point and their Jacobians by the state and the inputs, from the implicit
/// form: `[W μᵀ; μ 0] [a; λ] = [b; β]` at the point, then for each argument `ζ`
/// `[W μᵀ; μ 0] [∂a; ∂λ] = [∂b − ∂W a − ∂μᵀ λ; ∂β − ∂μ a]` (all at the point).
fn implicit_jacobians(
    coordinate_rates: &[Expr],
    form: &report::ImplicitForm,
    state: &[String],
    inputs: &[String],
    at: &dyn Fn(&Expr) -> Expr,
) -> Result<(Vec<Expr>, Matrix, Matrix), Refusal> {
    let n = form.mass.len();
    let kkt = kkt_matrix(form, at);
    let singular = |_| {
        Refusal::Singular("the mass matrix with the constraints is singular at this point".into())
    };
    let right: Vec<Vec<Expr>> = form
        .forcing
        .iter()
        .chain(&form.bias)
        .map(|e| vec![at(e)])
        .collect();
    let solution = cas::solve(&kkt, &right).map_err(singular)?;
    let values: Vec<Expr> = solution.iter().map(|row| row[0].simplify()).collect();
    let (a, lambda) = values.split_at(n);
    let by: Vec<&String> = state.iter().chain(inputs).collect();
    let columns: Vec<Vec<Expr>> = (0..kkt.len())
        .map(|row| {
            by.iter()
                .map(|zeta| kkt_derivative(form, (a, lambda), row, zeta, at))
                .collect()
        })
        .collect();
    let derivative = cas::solve(&kkt, &columns).map_err(singular)?;
    let m = coordinate_rates.len();
    let mut rates: Vec<Expr> = coordinate_rates.iter().map(at).collect();
    rates.extend(a.iter().cloned());
    let mut full: Vec<Vec<Expr>> = coordinate_rates
        .iter()
        .map(|f| by.iter().map(|zeta| at(&f.diff(zeta))).collect())
        .collect();
    full.extend(derivative.into_iter().take(n));
    let (j, bu) = full
        .into_iter()
        .map(|row| {
            let (x, u) = row.split_at(state.len());
            (x.to_vec(), u.to_vec())
        })
        .unzip();
    debug_assert_eq!(rates.len(), m + n);
    Ok((rates, j, bu))
}

/// `[W μᵀ; μ 0]` at the point.
fn kkt_matrix(form: &report::ImplicitForm, at: &dyn Fn(&Expr) -> Expr) -> Vec<Vec<Expr>> {
    let r = form.jacobian.len();
    let upper = form.mass.iter().enumerate().map(|(i, w)| {
        w.iter()
            .map(at)
            .chain(form.jacobian.iter().map(|mu| at(&mu[i])))
            .collect()
    });
    let lower = form.jacobian.iter().map(|mu| {
        mu.iter()
            .map(at)
            .chain(std::iter::repeat_n(Expr::zero(), r))
            .collect()
    });
    upper.chain(lower).collect()
}

/// Row `row` of the right-hand side of the differentiated system, for the argument `zeta`:
/// `∂b − ∂W a − ∂μᵀ λ` (the first `n` rows) or `∂β − ∂μ a` (the others), at the point.
fn kkt_derivative(
    form: &report::ImplicitForm,
    (a, lambda): (&[Expr], &[Expr]),
    row: usize,
    zeta: &str,
    at: &dyn Fn(&Expr) -> Expr,
) -> Expr {
    let d = |e: &Expr| at(&e.diff(zeta));
    let n = form.mass.len();
    if row < n {
        let inertia = form.mass[row].iter().zip(a).map(|(w, a)| d(w) * a.clone());
        let reaction = form
            .jacobian
            .iter()
            .zip(lambda)
            .map(|(mu, l)| d(&mu[row]) * l.clone());
        d(&form.forcing[row]) - Expr::sum(inertia) - Expr::sum(reaction)
    } else {
        let c = row - n;
        let acceleration = form.jacobian[c]
            .iter()
            .zip(a)
            .map(|(mu, a)| d(mu) * a.clone());
        d(&form.bias[c]) - Expr::sum(acceleration)
    }
}

/// The point with every state entry and input: the given values; the dependent velocities not
/// given, solved from the constraints; the rest zero. Refused when a constraint does not hold
/// there.
fn complete_point(
    system: &model::System,
    rows: &[Row],
    given: &BTreeMap<String, Expr>,
) -> Result<Completed, Refusal> {
    let state = system.keys(&system.state());
    let mut point = given.clone();
    let mut defaulted = Vec::new();
    for s in state.iter().chain(&system.keys(&system.inputs)) {
        if !point.contains_key(s) {
            point.insert(s.clone(), Expr::zero());
            defaulted.push(s.clone());
        }
    }
    let at = |point: &BTreeMap<String, Expr>, e: &Expr| e.subs(point).simplify();
    let reduction = reduce(rows, &|e| at(&point, e), state.len())?;
    // The dependent velocities not given solve the velocity rows (affine in them).
    let solve_for: Vec<(usize, usize)> = reduction
        .pivots
        .iter()
        .filter(|&&(row, column)| rows[row].velocity && !given.contains_key(&state[column]))
        .copied()
        .collect();
    if !solve_for.is_empty() {
        let mut trial = point.clone();
        let unknowns: Vec<String> = solve_for.iter().map(|&(_, c)| state[c].clone()).collect();
        for u in &unknowns {
            trial.remove(u);
        }
        let residuals: Vec<Expr> = solve_for
            .iter()
            .map(|&(row, _)| {
                system.constraints[rows[row].constraint - 1]
                    .psi
                    .subs(&trial)
            })
            .collect();
        let coefficients: Vec<Vec<Expr>> = residuals
            .iter()
            .map(|psi| unknowns.iter().map(|u| psi.diff(u).simplify()).collect())
            .collect();
        let zero: BTreeMap<String, Expr> =
            unknowns.iter().map(|u| (u.clone(), Expr::zero())).collect();
        let minus_offset: Vec<Vec<Expr>> = residuals
            .iter()
            .map(|psi| vec![-psi.subs(&zero).simplify()])
            .collect();
        let values = cas::solve(&coefficients, &minus_offset).map_err(|_| {
            Refusal::Singular(
                "the constraints cannot be solved for the dependent velocities at this point"
                    .into(),
            )
        })?;
        for (u, v) in unknowns.iter().zip(values) {
            point.insert(u.clone(), v[0].simplify());
            defaulted.retain(|d| d != u);
        }
    }
    for (k, c) in system.constraints.iter().enumerate() {
        for (what, e) in [("", Some(&c.psi)), (" (position)", c.position.as_ref())] {
            let Some(e) = e else { continue };
            let residual = at(&point, e);
            // `vanishes` also applies sin² + cos² = 1 and sin(−c) = −sin(c): a point given by
            // angles of opposite signs is on the constraints when its residual is identically 0.
            if !residual.vanishes() {
                return Err(Refusal::Inconsistent(format!(
                    "the point is not on constraint {}{what}: its residual there is {}; give values that satisfy it (the dependent velocities not given are solved from the constraints)",
                    k + 1,
                    cas::print::spec(&residual, system)
                )));
            }
        }
    }
    let reduction = reduce(rows, &|e| at(&point, e), state.len())?;
    Ok(Completed {
        point,
        defaulted,
        reduction,
    })
}

/// A point with every state entry and input, and the choice of dependent entries there.
struct Completed {
    point: BTreeMap<String, Expr>,
    defaulted: Vec<String>,
    reduction: Reduction,
}

/// The closed-form rate of state entry `s`.
fn rate_of(d: &Derivation, s: &str) -> Expr {
    d.equations
        .iter()
        .find(|e| e.state == s)
        .map(|e| e.rhs.clone())
        .unwrap_or_else(Expr::zero)
}

/// One row of `G` and the state entries it may be solved for.
struct Row {
    gradient: Vec<Expr>,
    pivots: std::ops::Range<usize>,
    constraint: usize,
    /// Whether it is `∂Ψ/∂z` (else `∂f/∂x`).
    velocity: bool,
}

/// The rows of `G`: `∂f^a/∂x` of each holonomic constraint (solved for a coordinate), then
/// `∂Ψ^a/∂z` of every constraint (solved for a velocity).
fn constraint_rows(system: &model::System, state: &[String]) -> Vec<Row> {
    let m = system.coordinates.len();
    let gradient = |e: &Expr| state.iter().map(|s| e.diff(s)).collect::<Vec<_>>();
    let holonomic = system.constraints.iter().enumerate().filter_map(|(k, c)| {
        c.position.as_ref().map(|f| Row {
            gradient: gradient(f),
            pivots: 0..m,
            constraint: k + 1,
            velocity: false,
        })
    });
    let velocity = system.constraints.iter().enumerate().map(|(k, c)| Row {
        gradient: gradient(&c.psi),
        pivots: m..state.len(),
        constraint: k + 1,
        velocity: true,
    });
    holonomic.chain(velocity).collect()
}

/// The choice of dependent entries.
struct Reduction {
    /// Per row used: its index in the rows and its pivot (a position in the state).
    pivots: Vec<(usize, usize)>,
    /// Pivot positions, in row order.
    dependent: Vec<usize>,
    /// The other positions, in state order.
    independent: Vec<usize>,
    /// Constraints whose row was dependent at the point.
    redundant: Vec<usize>,
}

/// Gaussian elimination of `G` at the point (`at` evaluates there): each row, reduced by the
/// rows before it, is solved for the last entry it may be solved for whose coefficient is not
/// zero.
fn reduce(rows: &[Row], at: &dyn Fn(&Expr) -> Expr, n: usize) -> Result<Reduction, Refusal> {
    let mut reduced: Vec<Vec<Expr>> = Vec::new();
    let mut pivots: Vec<(usize, usize)> = Vec::new();
    let mut redundant = Vec::new();
    for (k, row) in rows.iter().enumerate() {
        let mut current: Vec<Expr> = row.gradient.iter().map(at).collect();
        for (used, &(_, column)) in pivots.iter().enumerate() {
            let factor = (current[column].clone() / reduced[used][column].clone()).simplify();
            if factor.is_zero() {
                continue;
            }
            for (c, value) in current.iter_mut().enumerate() {
                *value = (value.clone() - factor.clone() * reduced[used][c].clone()).simplify();
            }
        }
        match row.pivots.clone().rev().find(|&c| !current[c].is_zero()) {
            Some(column) => {
                pivots.push((k, column));
                reduced.push(current);
            }
            None => redundant.push(row.constraint),
        }
    }
    let dependent: Vec<usize> = pivots.iter().map(|p| p.1).collect();
    let independent = (0..n).filter(|c| !dependent.contains(c)).collect();
    Ok(Reduction {
        pivots,
        dependent,
        independent,
        redundant,
    })
}

/// `T` (state × independent): the identity on the independent entries, `K = −G_d⁻¹ G_i` on the
/// dependent ones, with `G` at a general state.
fn tangent_map(r: &Reduction, rows: &[Row], n: usize) -> Result<Vec<Vec<Expr>>, Refusal> {
    let used: Vec<&Row> = r.pivots.iter().map(|&(k, _)| &rows[k]).collect();
    let g_d: Vec<Vec<Expr>> = used
        .iter()
        .map(|row| {
            r.dependent
                .iter()
                .map(|&c| row.gradient[c].clone())
                .collect()
        })
        .collect();
    let minus_g_i: Vec<Vec<Expr>> = used
        .iter()
        .map(|row| {
            r.independent
                .iter()
                .map(|&c| -row.gradient[c].clone())
                .collect()
        })
        .collect();
    let k = if used.is_empty() {
        Vec::new()
    } else {
        cas::solve(&g_d, &minus_g_i).map_err(|_| {
            Refusal::Singular(
                "the constraints cannot be solved for the dependent entries chosen".into(),
            )
        })?
    };
    let mut t = vec![vec![Expr::zero(); r.independent.len()]; n];
    for (column, &i) in r.independent.iter().enumerate() {
        t[i][column] = Expr::one();
    }
    for (row, &d) in r.dependent.iter().enumerate() {
        t[d] = k[row].clone();
    }
    Ok(t)
}

/// The rows `keep` of `m`.
fn select(m: &[Vec<Expr>], keep: &[usize]) -> Vec<Vec<Expr>> {
    keep.iter().map(|&i| m[i].clone()).collect()
}

/// The largest characteristic polynomial a linearisation shows, in expression nodes
/// ([`Expr::size`]): a vehicle's, with symbolic trigonometric constants and integers of hundreds
/// of digits, runs to hundreds of kilobytes that no reader uses (the eigenvalues come from the
/// numeric `A` then).
pub const CHARACTERISTIC_NODES: usize = 4_000;

/// `det(s I − A)`, factored, while it (and `A`, from which it grows) stays within
/// [`CHARACTERISTIC_NODES`].
fn characteristic_polynomial(a: &[Vec<Expr>], variable: &str) -> Option<Expr> {
    let entries: usize = a.iter().flatten().map(Expr::size).sum();
    if entries > CHARACTERISTIC_NODES {
        return None;
    }
    Some(determinant(a, variable))
        .filter(|p| p.size() <= CHARACTERISTIC_NODES)
        .map(|p| p.factored())
}

/// `det(s I − A)`.
fn determinant(a: &[Vec<Expr>], variable: &str) -> Expr {
    let s = Expr::symbol(variable);
    let shifted: Vec<Vec<Expr>> = a
        .iter()
        .enumerate()
        .map(|(i, row)| {
            row.iter()
                .enumerate()
                .map(|(j, e)| {
                    if i == j {
                        s.clone() - e.clone()
                    } else {
                        -e.clone()
                    }
                })
                .collect()
        })
        .collect();
    if shifted.is_empty() {
        return Expr::one();
    }
    cas::det(&shifted)
}

/// `s`, or `s_`, `s__`… when the spec uses the name.
fn fresh_variable(system: &model::System) -> String {
    let mut name = "s".to_string();
    while system.scope.names.contains_key(&name) {
        name.push('_');
    }
    name
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 2 × 2 `A` gets its polynomial, `s² − tr(A) s + det(A)` by hand; a 4 × 4 `A` whose
    /// entries are sums of three products of distinct symbols would give one of about two
    /// thousand terms, and gets none (its eigenvalues come from the numeric `A`).
    #[test]
    fn the_characteristic_polynomial_is_given_only_while_it_is_small() {
        let x = |name: &str| Expr::symbol(name);
        let small = vec![vec![Expr::zero(), Expr::one()], vec![-x("k"), -x("c")]];
        let p = characteristic_polynomial(&small, "s").expect("a small polynomial");
        let hand = x("s").powi(2) + x("c") * x("s") + x("k");
        assert!((p - hand).is_zero());
        let entry = |i: usize, j: usize| {
            Expr::sum((0..3).map(|t| x(&format!("a{i}{j}{t}")) * x(&format!("b{i}{j}{t}"))))
        };
        let large: Vec<Vec<Expr>> = (0..4)
            .map(|i| (0..4).map(|j| entry(i, j)).collect())
            .collect();
        assert!(characteristic_polynomial(&large, "s").is_none());
    }
}
