//! Gauss–Jordan elimination with exact zero tests on a constraint set, used by the constraint
//! algorithm ([IMMS08] §3.1, the `singular` module) and its Hamiltonian side
//! (`dirac_bergmann`): the conditions for a solution are the algorithm's new constraints.

use cas::Expr;
use model::System;

/// A linear system `A x = b` reduced by Gauss–Jordan elimination.
pub(crate) struct Reduced {
    /// The conditions for a solution: `b` combinations whose rows of `A` vanish.
    pub(crate) conditions: Vec<Expr>,
    /// A solution when the conditions hold (the free unknowns zero).
    pub(crate) particular: Vec<Expr>,
    /// A basis of the solutions of `A x = 0`.
    pub(crate) kernel: Vec<Vec<Expr>>,
    /// The pivots divided by.
    pub(crate) pivots: Vec<Expr>,
    /// The columns they were taken in: a maximal set of independent columns of `A`.
    pub(crate) pivot_columns: Vec<usize>,
}

/// E0501 when an entry of an elimination outgrows the size budget (`--max-terms`): symbolic
/// Gauss–Jordan swells on large algebroids.
pub(crate) fn within(
    options: &crate::Options,
    system: &System,
    rows: &[Vec<Expr>],
) -> diagnostic::Result<()> {
    options.within_or(
        "the constraint algorithm's elimination",
        system.lagrangian_span,
        rows.iter()
            .flatten()
            .map(|e| ("an entry of the reduced [ω_L | dE_L]".to_string(), e)),
        "raise --max-terms (the constraint algorithm has no implicit form)",
    )
}

/// How an elimination tests and chooses its pivots.
pub(crate) struct Pivoting<'a> {
    /// The exact zero test on the constraint set.
    pub(crate) vanishes: &'a dyn Fn(&Expr) -> bool,
    /// The state variables: a pivot free of them (a number, then a parameter) is preferred, so
    /// that the eliminations assume as little as they can.
    pub(crate) variables: &'a [String],
}

/// Gauss–Jordan elimination of `[A | b]` with exact zero tests on the constraint set; pivots
/// prefer numbers, then functions of the parameters only, then the smallest. `check` is called on
/// every entry it computes (the size and time budgets).
pub(crate) fn reduce(
    a: &[Vec<Expr>],
    b: &[Expr],
    check: &dyn Fn(&[Vec<Expr>]) -> diagnostic::Result<()>,
    pivoting: &Pivoting<'_>,
) -> diagnostic::Result<Reduced> {
    let vanishes = pivoting.vanishes;
    let on_state = |e: &Expr| pivoting.variables.iter().any(|v| e.depends_on(v));
    let columns = a.first().map_or(0, Vec::len);
    let mut rows: Vec<Vec<Expr>> = a
        .iter()
        .zip(b)
        .map(|(row, rhs)| {
            let mut r = row.clone();
            r.push(rhs.clone());
            r
        })
        .collect();
    let mut pivots: Vec<usize> = Vec::new();
    let mut divided: Vec<Expr> = Vec::new();
    let mut top = 0;
    for col in 0..columns {
        // Literal zeros (most of ω_L) are skipped before the exact, and costly, zero test.
        let nonzero = |e: &Expr| !e.is_literal_zero() && !vanishes(e);
        let candidate = (top..rows.len())
            .filter(|&r| nonzero(&rows[r][col]))
            .min_by_key(|&r| {
                (
                    rows[r][col].as_small_rational().is_none(),
                    on_state(&rows[r][col]),
                    rows[r][col].size(),
                )
            });
        let Some(r) = candidate else {
            continue;
        };
        rows.swap(top, r);
        let pivot = rows[top][col].clone();
        divided.push(pivot.clone());
        rows[top] = rows[top]
            .iter()
            .map(|e| {
                if e.is_literal_zero() {
                    Expr::zero()
                } else {
                    (e.clone() / pivot.clone()).simplify()
                }
            })
            .collect();
        for other in 0..rows.len() {
            if other == top || !nonzero(&rows[other][col]) {
                continue;
            }
            let factor = rows[other][col].clone();
            let mut row = Vec::with_capacity(rows[other].len());
            for (x, p) in rows[other].iter().zip(&rows[top]) {
                if p.is_literal_zero() {
                    row.push(x.clone());
                } else {
                    let entry = (x.clone() - factor.clone() * p.clone()).simplify();
                    check(std::slice::from_ref(&vec![entry.clone()]))?;
                    row.push(entry);
                }
            }
            rows[other] = row;
        }
        pivots.push(col);
        top += 1;
        check(&rows[top - 1..top])?;
    }
    let conditions = rows[top..]
        .iter()
        .map(|row| row[columns].clone())
        .filter(|c| !vanishes(c))
        .collect();
    let mut particular = vec![Expr::zero(); columns];
    for (r, &col) in pivots.iter().enumerate() {
        particular[col] = rows[r][columns].clone();
    }
    let kernel = (0..columns)
        .filter(|c| !pivots.contains(c))
        .map(|free| {
            let mut z = vec![Expr::zero(); columns];
            z[free] = Expr::one();
            for (r, &col) in pivots.iter().enumerate() {
                z[col] = (-rows[r][free].clone()).simplify();
            }
            z
        })
        .collect();
    Ok(Reduced {
        conditions,
        particular,
        kernel,
        pivots: divided,
        pivot_columns: pivots,
    })
}
