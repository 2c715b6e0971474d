//! The linearisation in floating point, for a point where every symbol has a number.
//!
//! The exact route (the parent module) substitutes the point into the rates or the implicit form
//! and solves the KKT system over the rationals. For a vehicle whose contact rows run to hundreds
//! of kilobytes, with `cos(π/10)` and thirty-digit coefficients at the point, that exact
//! arithmetic is where the time goes, and nobody reads an exact `A` of such a system: its
//! eigenvalues are what is asked for. This route follows the same steps with numbers:
//!
//! 1. Every expression it needs — the constraint rows `f^a`, `Ψ^a`, and the rates or the
//!    implicit form `W`, `μ`, `b`, `β` with the recursion's bindings — is compiled once into a
//!    straight-line program ([`cas::program::Program`], shared subexpressions computed once),
//!    and forward-differentiated by the state and the inputs (no symbolic derivative of a large
//!    row is ever formed).
//! 2. The point is completed: the dependent coordinates not given solve the holonomic
//!    constraints by Newton's method (a leaning vehicle's pitch), the dependent velocities not
//!    given solve the velocity rows (affine in the velocities, so one step, and one more to
//!    polish). This runs in `f64`, then a few Newton steps polish the point in double-double
//!    arithmetic from the given values held to 32 digits. Every constraint is then checked to a
//!    relative `1e-9`.
//! 3. The dependent entries are chosen as the exact route chooses them (the last entry of each
//!    row, reduced by the rows before it, whose coefficient is not zero — here, not below
//!    `1e-9` of the row), `T` and `A = (J T)_i`, `B` follow, and the KKT system and its
//!    derivatives are solved by Gaussian elimination with partial pivoting.
//!
//! Steps 2 (its polish) and 3, and the eigenvalues of `A`, run in double-double arithmetic
//! ([`cas::program::DoubleDouble`], about 32 digits) and are rounded to doubles at the end. The
//! data ask for it: the programs of a vehicle sum thousands of terms that cancel, a KKT system
//! may have a condition number of `10¹⁰`, and the eigenvalues of a non-normal `A` lose digits
//! in proportion to their condition, so doubles throughout would leave a few correct digits
//! where the report prints sixteen. The extended arithmetic costs little beside compiling the
//! programs (the bicycle's linearisation takes the same 1.6 s).
//!
//! The numbers are carried into the report as the exact rationals of their shortest decimal
//! forms, and the report says that they are floating-point values.

// The matrix algorithms index rows and columns together, as their references write them.
#![allow(clippy::needless_range_loop)]

use std::collections::BTreeMap;

use cas::program::{DoubleDouble, Program, Real};
use cas::Expr;
use report::{Arithmetic, Linearization};

use super::{Dynamics, Refusal};

/// A constraint row relative to which pivots are chosen below this fraction of its largest
/// entry counts as zero.
const PIVOT_TOLERANCE: f64 = 1e-9;

/// A constraint holds at the point when its residual is below this, relative to the size of
/// its terms' derivatives (and absolutely below it when they vanish).
const RESIDUAL_TOLERANCE: f64 = 1e-9;

/// A number below this fraction of the largest of its kind (its matrix, the rates, the point)
/// is round-off, and is reported as 0 (a cyclic coordinate's column, a rate that vanishes at
/// an equilibrium or a steady motion).
const ROUND_OFF: f64 = 1e-13;

/// Newton steps allowed for the dependent coordinates in `f64`.
const NEWTON_STEPS: usize = 50;

/// Newton steps that polish them in double-double arithmetic (each doubles the digits).
const POLISHING_STEPS: usize = 4;

/// A pivot below this fraction of the largest entry of its matrix makes the matrix singular.
const SINGULAR_PIVOT: f64 = 1e-13;

/// One constraint row: `f^a` (solved for a coordinate) or `Ψ^a` (for a velocity).
struct Row {
    value: Expr,
    pivots: std::ops::Range<usize>,
    constraint: usize,
    velocity: bool,
}

/// The numbers of every symbol that is not `bound` (a state entry, an input, a binding of the
/// recursion), or the first symbol
/// without a numeric value (the point is not numeric, and the exact route takes it).
fn parameter_values(
    exprs: &[&Expr],
    bound: &[String],
    given: &BTreeMap<String, Expr>,
) -> Result<BTreeMap<String, DoubleDouble>, String> {
    let mut names = std::collections::BTreeSet::new();
    for e in exprs {
        names.extend(e.symbols());
    }
    let mut values = BTreeMap::new();
    // π is a constant of the programs, not a parameter.
    for name in names
        .into_iter()
        .filter(|n| !bound.contains(n) && n != cas::PI_NAME)
    {
        match given.get(&name).and_then(super::constant_value) {
            Some(v) => values.insert(name, v),
            _ => return Err(name),
        };
    }
    Ok(values)
}

/// The given values of state entries and inputs as numbers (`Err` with the first that is not a
/// number).
fn given_numbers(
    free: &[String],
    given: &BTreeMap<String, Expr>,
) -> Result<Vec<Option<DoubleDouble>>, String> {
    free.iter()
        .map(|s| match given.get(s) {
            None => Ok(None),
            Some(e) => super::constant_value(e).map(Some).ok_or_else(|| s.clone()),
        })
        .collect()
}

/// The compiled rows and dynamics, and how to read their values and derivatives.
struct Compiled {
    values: Program,
    derivatives: Program,
    /// Values of the parameters, after the state and the inputs in the programs' inputs.
    parameters: Vec<DoubleDouble>,
    /// How many state entries and inputs (the arguments differentiated by).
    arguments: usize,
}

impl Compiled {
    /// The values and the Jacobian (outputs × arguments) at the state-and-inputs `z`.
    fn at<T: Real>(&self, z: &[T]) -> (Vec<T>, Vec<Vec<T>>) {
        let parameters = self.parameters.iter().map(|&p| T::from_double_double(p));
        let inputs: Vec<T> = z.iter().copied().chain(parameters).collect();
        let values = self.values.evaluate_in(&inputs);
        let flat = self.derivatives.evaluate_in(&inputs);
        let jacobian = flat
            .chunks(self.arguments.max(1))
            .take(values.len())
            .map(<[T]>::to_vec)
            .collect();
        (values, jacobian)
    }
}

/// The expressions, in the order the programs compute them: the rows, then the dynamics (the
/// rates; or the coordinate rates, `W` by rows, `μ` by rows, `b`, `β`).
fn outputs<'a>(rows: &'a [Row], dynamics: &'a Dynamics) -> Vec<&'a Expr> {
    let mut out: Vec<&Expr> = rows.iter().map(|r| &r.value).collect();
    match dynamics {
        Dynamics::Closed(rates) => out.extend(rates),
        Dynamics::Implicit {
            coordinate_rates,
            form,
        } => {
            out.extend(coordinate_rates);
            out.extend(form.mass.iter().flatten());
            out.extend(form.jacobian.iter().flatten());
            out.extend(&form.forcing);
            out.extend(&form.bias);
        }
    }
    out
}

/// The rows: `f^a` of each holonomic constraint, then `Ψ^a` of every constraint.
fn rows(system: &model::System) -> Vec<Row> {
    let m = system.coordinates.len();
    let n = system.state().len();
    let holonomic = system.constraints.iter().enumerate().filter_map(|(k, c)| {
        c.position.as_ref().map(|f| Row {
            value: f.clone(),
            pivots: 0..m,
            constraint: k + 1,
            velocity: false,
        })
    });
    let velocity = system.constraints.iter().enumerate().map(|(k, c)| Row {
        value: c.psi.clone(),
        pivots: m..n,
        constraint: k + 1,
        velocity: true,
    });
    holonomic.chain(velocity).collect()
}

/// The linearisation in double precision, or `Err` with a name that has no number at the
/// point (a parameter or a value of the point), for the exact route to take.
pub(super) fn linearize(
    system: &model::System,
    dynamics: &Dynamics,
    given: &BTreeMap<String, Expr>,
) -> Result<Result<Linearization, Refusal>, String> {
    let state = system.keys(&system.state());
    let inputs = system.keys(&system.inputs);
    let free: Vec<String> = state.iter().chain(&inputs).cloned().collect();
    let rows = rows(system);
    let exprs = outputs(&rows, dynamics);
    let mut all: Vec<&Expr> = exprs.clone();
    let mut bound = free.clone();
    if let Dynamics::Implicit { form, .. } = dynamics {
        all.extend(form.bindings.iter().map(|(_, e)| e));
        bound.extend(form.bindings.iter().map(|(name, _)| name.clone()));
    }
    let parameters = parameter_values(&all, &bound, given)?;
    let start = given_numbers(&free, given)?;
    let compiled = compile(&free, &parameters, dynamics, &exprs)?;
    Ok(Solver {
        system,
        compiled: &compiled,
        rows: &rows,
        state: &state,
        inputs: &inputs,
    }
    .linearize(dynamics, &start, given))
}

/// The value and derivative programs (`Err` with the name of a function they cannot compute).
fn compile(
    free: &[String],
    parameters: &BTreeMap<String, DoubleDouble>,
    dynamics: &Dynamics,
    exprs: &[&Expr],
) -> Result<Compiled, String> {
    let names: Vec<String> = free.iter().chain(parameters.keys()).cloned().collect();
    let mut values = Program::new(names);
    if let Dynamics::Implicit { form, .. } = dynamics {
        for (name, value) in &form.bindings {
            values.bind(name, value).map_err(|u| u.0)?;
        }
    }
    for (k, e) in exprs.iter().enumerate() {
        values.output(format!("out[{k}]"), e).map_err(|u| u.0)?;
    }
    let arguments: Vec<usize> = (0..free.len()).collect();
    let derivatives = values.jacobian("d", &arguments);
    Ok(Compiled {
        values,
        derivatives,
        parameters: parameters.values().copied().collect(),
        arguments: free.len(),
    })
}

/// The state of one numeric linearisation.
struct Solver<'a> {
    system: &'a model::System,
    compiled: &'a Compiled,
    rows: &'a [Row],
    state: &'a [String],
    inputs: &'a [String],
}

/// The choice of dependent entries at a point, numerically.
struct Pivots {
    /// Per row used: its index in the rows and its pivot (a position in the state).
    used: Vec<(usize, usize)>,
    /// Constraints whose row was dependent at the point.
    redundant: Vec<usize>,
}

impl Solver<'_> {
    fn linearize(
        &self,
        dynamics: &Dynamics,
        start: &[Option<DoubleDouble>],
        given: &BTreeMap<String, Expr>,
    ) -> Result<Linearization, Refusal> {
        let n = self.state.len();
        let z = self.point(start)?;
        let solved = z.solved;
        let (values, jacobian) = self.compiled.at(&z.values);
        let r = self.rows.len();
        let gradient: Vec<Vec<DoubleDouble>> =
            jacobian[..r].iter().map(|g| g[..n].to_vec()).collect();
        let pivots = self.pivots(&doubles(&gradient));
        let dependent: Vec<usize> = pivots.used.iter().map(|p| p.1).collect();
        let independent: Vec<usize> = (0..n).filter(|c| !dependent.contains(c)).collect();
        let tangent = tangent_map(&pivots, &gradient, &independent, n)?;
        let (rates, j) = self.dynamics(dynamics, &values[r..], &jacobian[r..])?;
        let a: Vec<Vec<DoubleDouble>> = independent
            .iter()
            .map(|&i| {
                (0..independent.len())
                    .map(|c| (0..n).map(|k| j[i][k] * tangent[k][c]).sum())
                    .collect()
            })
            .collect();
        let b: Vec<Vec<DoubleDouble>> = independent.iter().map(|&i| j[i][n..].to_vec()).collect();
        let extended = a;
        let (mut a, mut b, mut tangent) = (doubles(&extended), doubles(&b), doubles(&tangent));
        let mut rates: Vec<f64> = rates.iter().map(|v| v.to_f64()).collect();
        let mut z: Vec<f64> = z.values.iter().map(|v| v.to_f64()).collect();
        for m in [&mut a, &mut b, &mut tangent] {
            chop(m.iter_mut().flatten().collect());
        }
        chop(rates.iter_mut().collect());
        chop(z.iter_mut().collect());
        if a.iter().chain(&b).flatten().any(|v| !v.is_finite()) {
            return Err(Refusal::Singular(
                "the linearisation is not finite at this point".into(),
            ));
        }
        let mut point: BTreeMap<String, Expr> = given.clone();
        let mut defaulted = Vec::new();
        for (k, s) in self.state.iter().chain(self.inputs).enumerate() {
            if !given.contains_key(s) {
                point.insert(s.clone(), number(z[k]));
                if !solved.contains(&k) {
                    defaulted.push(s.clone());
                }
            }
        }
        // The eigenvalues of A as computed, its round-off entries zero.
        let extended: Vec<Vec<DoubleDouble>> = extended
            .iter()
            .zip(&a)
            .map(|(row, chopped)| {
                row.iter()
                    .zip(chopped)
                    .map(|(&v, &c)| if c == 0.0 { DoubleDouble::new(0.0) } else { v })
                    .collect()
            })
            .collect();
        let eigenvalues = super::roots::of_matrix(&extended);
        Ok(Linearization {
            state: self.state.to_vec(),
            inputs: self.inputs.to_vec(),
            rates: rates.iter().map(|&v| number(v)).collect(),
            point,
            defaulted,
            independent: independent.clone(),
            dependent: dependent
                .iter()
                .map(|&d| (d, tangent[d].iter().map(|&v| number(v)).collect()))
                .collect(),
            redundant: pivots.redundant,
            a: matrix(&a),
            b: matrix(&b),
            general: None,
            variable: super::fresh_variable(self.system),
            characteristic: None,
            eigenvalues,
            arithmetic: Arithmetic::Double,
        })
    }

    /// The point completed (see [`Solver::complete`]): found in `f64`, polished by Newton steps
    /// in double-double arithmetic from the given values as exact as that arithmetic holds them,
    /// and checked.
    fn point(&self, start: &[Option<DoubleDouble>]) -> Result<Completed<DoubleDouble>, Refusal> {
        let unknown = |k: usize| start[k].is_none();
        let first: Vec<f64> = start
            .iter()
            .map(|v| v.map_or(0.0, |v| v.to_f64()))
            .collect();
        let rough = self.complete(first, &unknown, NEWTON_STEPS)?;
        let polished: Vec<DoubleDouble> = start
            .iter()
            .zip(&rough.values)
            .map(|(given, &found)| given.unwrap_or(DoubleDouble::new(found)))
            .collect();
        let mut fine = self.complete(polished, &unknown, POLISHING_STEPS)?;
        fine.solved = rough.solved;
        self.check(&fine.values)?;
        Ok(fine)
    }

    /// The point from `z` with the dependent coordinates and velocities not given solved from
    /// the constraints by up to `steps` Newton steps (for the coordinates; the velocity rows,
    /// affine, take two).
    fn complete<T: Real>(
        &self,
        mut z: Vec<T>,
        unknown: &dyn Fn(usize) -> bool,
        steps: usize,
    ) -> Result<Completed<T>, Refusal> {
        let n = self.state.len();
        let mut all_solved: Vec<usize> = Vec::new();
        // The holonomic rows first (Newton on the dependent coordinates not given), then the
        // velocity rows (affine in the velocities).
        for velocity in [false, true] {
            let steps = if velocity { 2 } else { steps };
            for _ in 0..steps {
                let (values, jacobian) = self.compiled.at(&z);
                let gradient: Vec<Vec<T>> = jacobian[..self.rows.len()]
                    .iter()
                    .map(|g| g[..n].to_vec())
                    .collect();
                // The rows are solved for entries not given (a given steer angle leaves the
                // front wheel's height condition to the pitch).
                let pivots = self.pivots_among(&doubles(&gradient), unknown);
                let solved: Vec<(usize, usize)> = pivots
                    .used
                    .iter()
                    .filter(|&&(row, _)| self.rows[row].velocity == velocity)
                    .copied()
                    .collect();
                if solved.is_empty() {
                    break;
                }
                let g: Vec<Vec<T>> = solved
                    .iter()
                    .map(|&(row, _)| solved.iter().map(|&(_, c)| gradient[row][c]).collect())
                    .collect();
                let minus_residual: Vec<Vec<T>> =
                    solved.iter().map(|&(row, _)| vec![-values[row]]).collect();
                let step = solve(&g, &minus_residual).ok_or_else(|| {
                    Refusal::Singular(
                        "the constraints cannot be solved for the dependent entries at this point"
                            .into(),
                    )
                })?;
                for (k, &(_, c)) in solved.iter().enumerate() {
                    z[c] = z[c] + step[k][0];
                    if !all_solved.contains(&c) {
                        all_solved.push(c);
                    }
                }
                let size: f64 = step.iter().map(|s| s[0].to_f64().abs()).fold(0.0, f64::max);
                let scale: f64 = solved
                    .iter()
                    .map(|&(_, c)| z[c].to_f64().abs())
                    .fold(1.0, f64::max);
                if size <= 5.0 * T::EPSILON * scale {
                    break;
                }
            }
        }
        Ok(Completed {
            values: z,
            solved: all_solved,
        })
    }

    /// Refused when a constraint does not hold at `z`.
    fn check<T: Real>(&self, z: &[T]) -> Result<(), Refusal> {
        let n = self.state.len();
        let (values, jacobian) = self.compiled.at(z);
        for (k, row) in self.rows.iter().enumerate() {
            let scale: f64 = (0..n)
                .map(|c| (jacobian[k][c] * z[c]).to_f64().abs())
                .fold(1.0, f64::max);
            let residual = values[k].to_f64();
            if residual.abs() > RESIDUAL_TOLERANCE * scale || !residual.is_finite() {
                let what = if row.velocity { "" } else { " (position)" };
                return Err(Refusal::Inconsistent(format!(
                    "the point is not on constraint {}{what}: its residual there is {residual:e}; give values that satisfy it (the dependent coordinates and velocities not given are solved from the constraints)",
                    row.constraint
                )));
            }
        }
        Ok(())
    }

    /// The dependent entries at a point where the rows' gradients are `gradient`.
    fn pivots(&self, gradient: &[Vec<f64>]) -> Pivots {
        self.pivots_among(gradient, &|_| true)
    }

    /// The dependent entries, each row solved for the last entry it may be solved for that is
    /// `allowed` and whose reduced coefficient is not zero.
    fn pivots_among(&self, gradient: &[Vec<f64>], allowed: &dyn Fn(usize) -> bool) -> Pivots {
        let mut reduced: Vec<Vec<f64>> = Vec::new();
        let mut used = Vec::new();
        let mut redundant = Vec::new();
        for (k, row) in self.rows.iter().enumerate() {
            let mut current = gradient[k].clone();
            let size = current.iter().map(|v| v.abs()).fold(0.0, f64::max);
            for (r, &(_, column)) in used.iter().enumerate() {
                let reference: &Vec<f64> = &reduced[r];
                let factor = current[column] / reference[column];
                if factor != 0.0 {
                    for (c, value) in current.iter_mut().enumerate() {
                        *value -= factor * reference[c];
                    }
                }
            }
            let threshold = PIVOT_TOLERANCE * size;
            match row
                .pivots
                .clone()
                .rev()
                .find(|&c| allowed(c) && current[c].abs() > threshold && current[c] != 0.0)
            {
                Some(column) => {
                    used.push((k, column));
                    reduced.push(current);
                }
                None => redundant.push(row.constraint),
            }
        }
        Pivots { used, redundant }
    }

    /// The rates at the point and their Jacobian by the state and the inputs.
    #[allow(clippy::type_complexity)]
    fn dynamics<T: Real>(
        &self,
        dynamics: &Dynamics,
        values: &[T],
        jacobian: &[Vec<T>],
    ) -> Result<(Vec<T>, Vec<Vec<T>>), Refusal> {
        match dynamics {
            Dynamics::Closed(rates) => Ok((
                values[..rates.len()].to_vec(),
                jacobian[..rates.len()].to_vec(),
            )),
            Dynamics::Implicit {
                coordinate_rates,
                form,
            } => Ok(implicit(coordinate_rates.len(), form, values, jacobian)?),
        }
    }
}

/// A completed point: the state and inputs, and the positions solved from the constraints.
struct Completed<T> {
    values: Vec<T>,
    solved: Vec<usize>,
}

/// A matrix rounded to doubles.
fn doubles<T: Real>(m: &[Vec<T>]) -> Vec<Vec<f64>> {
    m.iter()
        .map(|row| row.iter().map(|v| v.to_f64()).collect())
        .collect()
}

/// The rates and their Jacobian from the implicit form's values and derivatives (laid out as
/// [`outputs`] lays them): `[W μᵀ; μ 0] [a; λ] = [b; β]`, then for each argument `ζ`
/// `[W μᵀ; μ 0] [∂a; ∂λ] = [∂b − ∂W a − ∂μᵀ λ; ∂β − ∂μ a]`.
#[allow(clippy::type_complexity)]
fn implicit<T: Real>(
    m: usize,
    form: &report::ImplicitForm,
    values: &[T],
    jacobian: &[Vec<T>],
) -> Result<(Vec<T>, Vec<Vec<T>>), Refusal> {
    let n = form.mass.len();
    let r = form.jacobian.len();
    let w = |i: usize, j: usize| m + i * n + j;
    let mu = |c: usize, j: usize| m + n * n + c * n + j;
    let b = |i: usize| m + n * n + r * n + i;
    let beta = |c: usize| m + n * n + r * n + n + c;
    let kkt: Vec<Vec<T>> = (0..n + r)
        .map(|i| {
            (0..n + r)
                .map(|j| match (i < n, j < n) {
                    (true, true) => values[w(i, j)],
                    (true, false) => values[mu(j - n, i)],
                    (false, true) => values[mu(i - n, j)],
                    (false, false) => T::zero(),
                })
                .collect()
        })
        .collect();
    let right: Vec<Vec<T>> = (0..n)
        .map(|i| vec![values[b(i)]])
        .chain((0..r).map(|c| vec![values[beta(c)]]))
        .collect();
    let singular = || {
        Refusal::Singular("the mass matrix with the constraints is singular at this point".into())
    };
    let solution = solve(&kkt, &right).ok_or_else(singular)?;
    let (a, lambda): (Vec<T>, Vec<T>) = (
        solution[..n].iter().map(|s| s[0]).collect(),
        solution[n..].iter().map(|s| s[0]).collect(),
    );
    let arguments = jacobian.first().map_or(0, Vec::len);
    let columns: Vec<Vec<T>> = (0..n + r)
        .map(|row| {
            (0..arguments)
                .map(|z| {
                    if row < n {
                        let inertia: T = (0..n).map(|j| jacobian[w(row, j)][z] * a[j]).sum();
                        let reaction: T = (0..r).map(|c| jacobian[mu(c, row)][z] * lambda[c]).sum();
                        jacobian[b(row)][z] - inertia - reaction
                    } else {
                        let c = row - n;
                        let acceleration: T = (0..n).map(|j| jacobian[mu(c, j)][z] * a[j]).sum();
                        jacobian[beta(c)][z] - acceleration
                    }
                })
                .collect()
        })
        .collect();
    let derivative = solve(&kkt, &columns).ok_or_else(singular)?;
    let mut rates: Vec<T> = values[..m].to_vec();
    rates.extend(&a);
    let mut full: Vec<Vec<T>> = jacobian[..m].to_vec();
    full.extend(derivative.into_iter().take(n));
    Ok((rates, full))
}

/// `T` (state × independent): the identity on the independent entries, `K = −G_d⁻¹ G_i` on the
/// dependent ones.
fn tangent_map<T: Real>(
    pivots: &Pivots,
    gradient: &[Vec<T>],
    independent: &[usize],
    n: usize,
) -> Result<Vec<Vec<T>>, Refusal> {
    let dependent: Vec<usize> = pivots.used.iter().map(|p| p.1).collect();
    let mut t = vec![vec![T::zero(); independent.len()]; n];
    for (column, &i) in independent.iter().enumerate() {
        t[i][column] = T::from_f64(1.0);
    }
    if dependent.is_empty() {
        return Ok(t);
    }
    let g_d: Vec<Vec<T>> = pivots
        .used
        .iter()
        .map(|&(row, _)| dependent.iter().map(|&c| gradient[row][c]).collect())
        .collect();
    let minus_g_i: Vec<Vec<T>> = pivots
        .used
        .iter()
        .map(|&(row, _)| independent.iter().map(|&c| -gradient[row][c]).collect())
        .collect();
    let k = solve(&g_d, &minus_g_i).ok_or_else(|| {
        Refusal::Singular(
            "the constraints cannot be solved for the dependent entries chosen".into(),
        )
    })?;
    for (row, &d) in dependent.iter().enumerate() {
        t[d] = k[row].clone();
    }
    Ok(t)
}

/// `X` with `a X = b`, or `None` when a pivot is below [`SINGULAR_PIVOT`] of the largest entry
/// of `a`, whatever the arithmetic: a system that near singularity has no linearisation worth
/// printing.
fn solve<T: Real>(a: &[Vec<T>], b: &[Vec<T>]) -> Option<Vec<Vec<T>>> {
    crate::base::dense::solve(a, b, SINGULAR_PIVOT)
}

/// Sets the numbers below [`ROUND_OFF`] of the largest of them (and of 1) to 0.
fn chop(numbers: Vec<&mut f64>) {
    let size = numbers.iter().map(|v| v.abs()).fold(1.0, f64::max);
    for v in numbers {
        if v.abs() <= ROUND_OFF * size {
            *v = 0.0;
        }
    }
}

/// A double as the exact rational of its shortest decimal form.
fn number(v: f64) -> Expr {
    Expr::from_f64(v).unwrap_or_else(Expr::zero)
}

/// A matrix of doubles as exact rationals of their shortest decimal forms.
fn matrix(m: &[Vec<f64>]) -> Vec<Vec<Expr>> {
    m.iter()
        .map(|row| row.iter().map(|&v| number(v)).collect())
        .collect()
}
