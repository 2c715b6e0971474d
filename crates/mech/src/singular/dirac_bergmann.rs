//! The Hamiltonian side of a singular Lagrangian ([IMMS08] §3.2–§4, in the Dirac–Bergmann form):
//! primary constraints, the consistency chain, first and second class, and the Dirac bracket.
//!
//! On `E*` with coordinates `(x^i, p_α)` and the linear Poisson bracket (`{x^i, p_α} = ρ^i_α`,
//! `{p_α, p_β} = −C^γ_αβ p_γ`, [`crate::base::algebra::Phase`]), a Lagrangian quadratic in the
//! velocities, `L = ½ yᵀ W y + a·y + L₀`, with `W` singular has a Legendre map `p = W y + a`
//! whose image is the primary constraint set: the combinations `k·(p − a) = 0` for `k` in the
//! left kernel of `W`, read off the elimination of `W y = p − a`. Its particular solution
//! `y(x, p)` (free components zero) gives the canonical Hamiltonian `H = p·y − L`, which on the
//! primary set does not depend on that choice.
//!
//! The consistency chain (Dirac; Gotay–Nester on the Hamiltonian side, [IMMS08] §3.2): with
//! `H_T = H + u^j φ_j` over the primary constraints `φ_j`, each constraint `ψ` found so far must
//! be preserved, `{ψ, H} + u^j {ψ, φ_j} = 0` on the constraint set. Eliminating the `u^j` fixes
//! some of them and leaves conditions that do not involve them: the secondary (tertiary, …)
//! constraints. The chain stops when a round finds nothing new. Constraints are kept on the
//! constraint set as the Lagrangian side keeps them (the `singular` module): solved for a variable
//! with a constant coefficient, or kept as polynomial equations with exact zero tests.
//!
//! Classification: `C_ab = {χ_a, χ_b}` over every constraint, on the final set. Its kernel gives
//! the first-class combinations (gauge generators), its rank the number of second-class ones; a
//! maximal set `S` of independent columns of the skew matrix has `C_SS` invertible, and the
//! Dirac bracket `{F, G}_D = {F, G} − {F, χ_a} (C_SS⁻¹)^{ab} {χ_b, G}` over `a, b ∈ S` is the
//! Poisson bracket of the second-class constraint set (Dirac 1950): its Jacobiator vanishes there,
//! and `Ḟ = {F, H}_D` is the motion on the final set.

use std::collections::BTreeMap;

use cas::Expr;
use model::System;

use crate::base::algebra::Phase;
use crate::base::constraint_set::{Constraints, StepKind};
use crate::base::elimination::{reduce, within, Pivoting, Reduced};
use crate::lagrange::lagrangian::Lagrangian;

/// The Hamiltonian side of the constraint algorithm (see the module documentation).
#[derive(Clone, Debug)]
pub struct DiracBergmann {
    /// The canonical Hamiltonian `H = p·y − L` (on the primary set).
    pub hamiltonian: Expr,
    /// The constraints each round found (primary first), as functions on `E*`.
    pub rounds: Vec<Vec<Expr>>,
    /// Every constraint, in the order found (as found: on the final set each vanishes).
    pub constraints: Vec<Expr>,
    /// The multipliers `u^j` of the primary constraints the chain fixed, with their values on
    /// the final set (`None` for one left free: a first-class primary constraint).
    pub multipliers: Vec<Option<Expr>>,
    /// The indices of a maximal second-class set `S` (into `constraints`).
    pub second_class: Vec<usize>,
    /// The first-class combinations: coefficients over `constraints`.
    pub first_class: Vec<Vec<Expr>>,
    /// `C_SS = {χ_a, χ_b}` on the final set.
    pub bracket_matrix: Vec<Vec<Expr>>,
    /// The phase variables that remain on the final set (not solved for).
    pub state: Vec<String>,
    /// The Dirac bracket of each pair of remaining variables, on the final set (zero pairs
    /// included, in the order of `state`).
    pub dirac: Vec<((String, String), Expr)>,
    /// The Jacobiator of the Dirac bracket on every triple of remaining variables, on the final
    /// set (`None` when it did not fit the size budget).
    pub jacobiator: Option<Vec<Jacobiator>>,
    /// `Ḟ = {F, H}_D` on the final set, for every remaining variable.
    pub rates: Vec<Expr>,
}

/// The Jacobiator `J(f, g, h)` of three variables, by name.
pub type Jacobiator = ((String, String, String), Expr);

/// Why the Hamiltonian side is not derived (it is optional: the Lagrangian side stands alone).
#[derive(Clone, Debug)]
pub struct Unavailable(pub String);

/// The largest number of phase variables on the final set whose Dirac Jacobiator is computed
/// (every triple: 20 at 6 variables, a particle on a surface in space); above it the Jacobiator
/// is not computed, and the report says so.
pub const JACOBIATOR_VARIABLES: usize = 6;

/// Runs the Dirac–Bergmann chain and builds the Dirac bracket (see the module documentation).
/// The side is optional: what passes the size budget makes it [`Unavailable`] (the same answer on
/// every run); the time budget (`Options::deadline`) is E0503 like every other stage, so that no
/// output depends on the machine's speed.
pub fn derive(
    system: &System,
    lag: &Lagrangian,
    options: &crate::Options,
) -> diagnostic::Result<Result<DiracBergmann, Unavailable>> {
    let side = chain(system, lag, options);
    options.within(
        "the Hamiltonian side (Dirac–Bergmann)",
        system.lagrangian_span,
        [],
    )?;
    Ok(side)
}

fn chain(
    system: &System,
    lag: &Lagrangian,
    options: &crate::Options,
) -> Result<DiracBergmann, Unavailable> {
    let alg = &system.algebroid;
    let n = system.rank();
    let momenta = system.exprs(&alg.momenta);
    let velocities = &system.keys(&alg.velocities);
    // L = ½ yᵀ W y + a·y + L₀ with W free of the velocities.
    let w = &lag.hessian;
    if w.iter()
        .flatten()
        .any(|e| velocities.iter().any(|y| e.depends_on(y)))
    {
        return Err(Unavailable(
            "the Lagrangian is not quadratic in the velocities".into(),
        ));
    }
    let zero: BTreeMap<String, Expr> = velocities
        .iter()
        .map(|y| (y.clone(), Expr::zero()))
        .collect();
    let rhs: Vec<Expr> = (0..n)
        .map(|a| (momenta[a].clone() - lag.momenta[a].subs(&zero)).simplify())
        .collect();
    let identically = |e: &Expr| e.vanishes();
    let state_variables: Vec<String> = system
        .keys(&system.coordinates)
        .iter()
        .chain(velocities)
        .cloned()
        .collect();
    let legendre = reduce(
        w,
        &rhs,
        &|rows| within(options, system, rows),
        &Pivoting {
            vanishes: &identically,
            variables: &state_variables,
        },
    )
    .map_err(|_| Unavailable("the Legendre map's elimination exceeded its budget".into()))?;
    let y_of_p: BTreeMap<String, Expr> = velocities
        .iter()
        .cloned()
        .zip(legendre.particular.iter().cloned())
        .collect();
    let lagrangian = system.lagrangian.clone();
    let hamiltonian = ((0..n).fold(Expr::zero(), |acc, a| {
        acc + momenta[a].clone() * legendre.particular[a].clone()
    }) - lagrangian.subs(&y_of_p))
    .simplify();
    let phase = Phase::new(system, hamiltonian.clone(), Vec::new());
    let variables: Vec<String> = crate::base::algebra::phase_state(system);
    let mut set = Constraints::over(system, options, variables.clone());
    let primary: Vec<Expr> = legendre.conditions.clone();
    let mut rounds: Vec<Vec<Expr>> = Vec::new();
    let mut constraints: Vec<Expr> = Vec::new();
    let mut found = primary.clone();
    let mut last: Option<Reduced> = None;
    let budget = 2 * variables.len() + 2;
    while !found.is_empty() {
        if rounds.len() > budget {
            return Err(Unavailable(
                "the consistency chain did not stabilise".into(),
            ));
        }
        let level = rounds.len() + 1;
        let step = set
            .admit(system, StepKind::Consistency(level), found.clone())
            .map_err(|_| Unavailable(format!("round {level} could not be kept")))?;
        let admitted: Vec<Expr> = step.found.clone();
        constraints.extend(admitted.iter().cloned());
        rounds.push(admitted);
        // {ψ, H} + u^j {ψ, φ_j} = 0 for every constraint so far.
        let rows: Vec<Vec<Expr>> = constraints
            .iter()
            .map(|psi| {
                primary
                    .iter()
                    .map(|phi| set.restrict(&phase.poisson(psi, phi)))
                    .collect()
            })
            .collect();
        let rhs: Vec<Expr> = constraints
            .iter()
            .map(|psi| set.restrict(&-phase.poisson(psi, &hamiltonian)))
            .collect();
        let solved = reduce(
            &rows,
            &rhs,
            &|rows| within(options, system, rows),
            &Pivoting {
                vanishes: &|e| set.vanishes_on(e),
                variables: &set.variables,
            },
        )
        .map_err(|_| Unavailable("the consistency chain exceeded its budget".into()))?;
        set.exceeded()
            .map_err(|_| Unavailable("the consistency chain exceeded its budget".into()))?;
        found = set.new_constraints(&solved.conditions);
        last = Some(solved);
    }
    // The multipliers the last round fixed (those no kernel direction moves).
    let multipliers: Vec<Option<Expr>> = match &last {
        Some(solved) => (0..primary.len())
            .map(|j| {
                let free = solved.kernel.iter().any(|z| !set.vanishes_on(&z[j]));
                (!free).then(|| set.display(&set.restrict(&solved.particular[j])))
            })
            .collect(),
        None => Vec::new(),
    };
    let restrict = |e: &Expr| set.display(&set.restrict(e));
    // C_ab on the final set; its independent columns are a second-class set.
    let full: Vec<Vec<Expr>> = constraints
        .iter()
        .map(|a| {
            constraints
                .iter()
                .map(|b| phase.poisson(a, b).simplify())
                .collect()
        })
        .collect();
    let on_set: Vec<Vec<Expr>> = full
        .iter()
        .map(|row| row.iter().map(|e| set.restrict(e)).collect())
        .collect();
    let zeros = vec![Expr::zero(); constraints.len()];
    let classified = reduce(
        &on_set,
        &zeros,
        &|rows| within(options, system, rows),
        &Pivoting {
            vanishes: &|e| set.vanishes_on(e),
            variables: &set.variables,
        },
    )
    .map_err(|_| Unavailable("the constraint brackets exceeded their budget".into()))?;
    let second_class = classified.pivot_columns.clone();
    let first_class = classified
        .kernel
        .iter()
        .map(|z| z.iter().map(&restrict).collect())
        .collect();
    let css: Vec<Vec<Expr>> = second_class
        .iter()
        .map(|&a| second_class.iter().map(|&b| full[a][b].clone()).collect())
        .collect();
    let inverse = cas::inverse(&css)
        .map_err(|_| Unavailable("the second-class bracket matrix is singular".into()))?;
    let chi: Vec<Expr> = second_class
        .iter()
        .map(|&a| constraints[a].clone())
        .collect();
    let dirac = |f: &Expr, g: &Expr| -> Expr {
        let fc: Vec<Expr> = chi.iter().map(|c| phase.poisson(f, c)).collect();
        let cg: Vec<Expr> = chi.iter().map(|c| phase.poisson(c, g)).collect();
        let mut total = phase.poisson(f, g);
        for (a, fa) in fc.iter().enumerate() {
            if fa.vanishes() {
                continue;
            }
            for (b, gb) in cg.iter().enumerate() {
                if gb.vanishes() || inverse[a][b].is_literal_zero() {
                    continue;
                }
                total = total - fa.clone() * inverse[a][b].clone() * gb.clone();
            }
        }
        total.simplify()
    };
    let state: Vec<String> = variables
        .iter()
        .filter(|v| !set.solved.contains_key(*v))
        .cloned()
        .collect();
    let mut table = Vec::new();
    let mut unrestricted: BTreeMap<(usize, usize), Expr> = BTreeMap::new();
    for i in 0..state.len() {
        for j in i + 1..state.len() {
            let value = dirac(&Expr::symbol(&state[i]), &Expr::symbol(&state[j]));
            // Substituted only: the strong form is symmetric (`δ − x_i x_j/r²`), where a
            // reduction modulo the kept constraints would favour the first variables.
            table.push(((state[i].clone(), state[j].clone()), set.restrict(&value)));
            unrestricted.insert((i, j), value);
        }
    }
    let bracket_of = |i: usize, j: usize| -> Expr {
        match i.cmp(&j) {
            std::cmp::Ordering::Less => unrestricted[&(i, j)].clone(),
            std::cmp::Ordering::Greater => -unrestricted[&(j, i)].clone(),
            std::cmp::Ordering::Equal => Expr::zero(),
        }
    };
    let mut jacobiator = (state.len() <= JACOBIATOR_VARIABLES).then(Vec::new);
    let triples = if jacobiator.is_some() { state.len() } else { 0 };
    'triples: for i in 0..triples {
        for j in i + 1..state.len() {
            for k in j + 1..state.len() {
                let s = |v: usize| Expr::symbol(&state[v]);
                let value = dirac(&bracket_of(i, j), &s(k))
                    + dirac(&bracket_of(j, k), &s(i))
                    + dirac(&bracket_of(k, i), &s(j));
                if value.size() > options.max_terms
                    || options.within("", system.lagrangian_span, []).is_err()
                {
                    jacobiator = None;
                    break 'triples;
                }
                let on = if set.vanishes_on(&value) {
                    Expr::zero()
                } else {
                    restrict(&value)
                };
                if let Some(list) = jacobiator.as_mut() {
                    list.push(((state[i].clone(), state[j].clone(), state[k].clone()), on));
                }
            }
        }
    }
    let rates = state
        .iter()
        .map(|v| restrict(&dirac(&Expr::symbol(v), &hamiltonian)))
        .collect();
    Ok(DiracBergmann {
        hamiltonian: restrict(&hamiltonian),
        rounds,
        constraints,
        multipliers,
        second_class,
        first_class,
        bracket_matrix: css
            .iter()
            .map(|r| r.iter().map(&restrict).collect())
            .collect(),
        state,
        dirac: table,
        jacobiator,
        rates,
    })
}
