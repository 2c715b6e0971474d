//! Exact linear algebra over expressions: rank, determinant, solve, inverse.
//!
//! Fraction-free (Bareiss) elimination over the field of rational functions: every entry is kept in rational
//! normal form ([`Expr::simplify`]), so a pivot is chosen only if it is not identically zero, and
//! "singular" means singular identically, not at some points. Among the usable pivots of a column
//! the smallest expression is taken, which keeps intermediate swell down. Rank and determinant
//! come from the echelon form; solutions and inverses from the fraction-free Gauss–Jordan form
//! ([`solve_guarded`]), which divides once per entry at the end instead of back-substituting
//! fractions. The guarded variants let a caller stop an elimination between two entries (the
//! size and time budgets of `mech`), since nothing can interrupt one simplification.

use std::collections::BTreeMap;

use crate::Expr;

/// A matrix that is singular identically, with the determinant that vanishes.
#[derive(Clone, Debug)]
pub struct Singular {
    /// The determinant (identically zero for a square matrix; `0` otherwise).
    pub det: Expr,
    /// The rank found.
    pub rank: usize,
}

type Matrix = Vec<Vec<Expr>>;

/// Row-reduces `m` in place to echelon form by Bareiss's fraction-free elimination; returns the
/// pivot columns and the sign of the row permutation applied.
///
/// Each step replaces `m[r][c]` by `(p·m[r][c] − m[r][k]·m[row][c]) / p_prev`, where `p` is the
/// current pivot and `p_prev` the previous one; the division is exact (Sylvester's identity),
/// so polynomial entries stay polynomial and the last pivot of a square matrix is its
/// determinant (up to the sign of the permutation).
fn echelon(m: &mut Matrix, columns: usize) -> (Vec<usize>, i64) {
    let rows = m.len();
    let mut pivots = Vec::new();
    let mut sign = 1;
    let mut previous = Expr::one();
    let mut row = 0;
    for col in 0..columns {
        if row == rows {
            break;
        }
        let candidate = (row..rows)
            .map(|r| (r, m[r][col].simplify()))
            .filter(|(_, e)| !e.is_zero())
            .min_by_key(|(r, e)| (e.size(), *r));
        let Some((p, pivot)) = candidate else {
            continue;
        };
        if p != row {
            m.swap(p, row);
            sign = -sign;
        }
        m[row][col] = pivot.clone();
        for r in row + 1..rows {
            let factor = m[r][col].clone();
            for c in col + 1..m[r].len() {
                let updated = (&pivot * &m[r][c] - &factor * &m[row][c]) / previous.clone();
                m[r][c] = updated.simplify();
            }
            m[r][col] = Expr::zero();
        }
        previous = pivot;
        pivots.push(col);
        row += 1;
    }
    (pivots, sign)
}

/// The rank of `m` over the rational functions, and its pivot columns.
pub fn rank(m: &[Vec<Expr>]) -> (usize, Vec<usize>) {
    let columns = m.first().map_or(0, |r| r.len());
    let mut work = m.to_vec();
    let (pivots, _) = echelon(&mut work, columns);
    (pivots.len(), pivots)
}

/// The index of the first row that is a combination of the rows before it, if any.
///
/// The rows are first evaluated at a few pseudo-random points: full rank at one point proves
/// full rank as functions (a non-zero minor at a point is a non-zero function), so the exact
/// fraction-free elimination only runs when that quick test cannot decide.
pub fn first_dependent_row(rows: &[Vec<Expr>]) -> Option<usize> {
    first_dependent_row_bound(rows, &[])
}

/// [`first_dependent_row`] of rows whose entries read the symbols `bindings` defines (`(symbol,
/// value)` in order, each value reading the symbols bound before it: a straight-line program such
/// as the composite-rigid-body algorithm's). The quick test evaluates the bindings in order, each
/// once; only when it cannot decide are they substituted for the exact elimination.
pub fn first_dependent_row_bound(rows: &[Vec<Expr>], bindings: &[(String, Expr)]) -> Option<usize> {
    let _stage = timing::stage("rank test");
    if full_row_rank_at_random_points(rows, bindings) {
        return None;
    }
    let mut values = BTreeMap::new();
    for (name, value) in bindings {
        let value = value.subs(&values);
        values.insert(name.clone(), value);
    }
    let rows: Vec<Vec<Expr>> = rows
        .iter()
        .map(|row| row.iter().map(|e| e.subs(&values)).collect())
        .collect();
    (1..=rows.len())
        .find(|&k| rank(&rows[..k]).0 < k)
        .map(|k| k - 1)
}

/// The determinant of a square matrix, in rational normal form.
pub fn det(m: &[Vec<Expr>]) -> Expr {
    let n = m.len();
    if n == 0 {
        return Expr::one();
    }
    let mut work = m.to_vec();
    let (pivots, sign) = echelon(&mut work, n);
    if pivots.len() < n {
        return Expr::zero();
    }
    (Expr::int(sign) * work[n - 1][n - 1].clone()).simplify()
}

/// Solves `a · x = b` for a square, non-singular `a` (`b` has any number of columns).
pub fn solve(a: &[Vec<Expr>], b: &[Vec<Expr>]) -> Result<Vec<Vec<Expr>>, Singular> {
    solve_guarded(a, b, &mut |_: &Expr| true).map_err(|halt| match halt {
        Halted::Singular(singular) => singular,
        Halted::Refused(_) => unreachable!("the guard refuses nothing"),
    })
}

/// The inverse of a square, non-singular matrix.
pub fn inverse(a: &[Vec<Expr>]) -> Result<Vec<Vec<Expr>>, Singular> {
    solve(a, &identity(a.len()))
}

/// Why a guarded elimination stopped.
#[derive(Clone, Debug)]
pub enum Halted {
    /// The matrix is singular identically.
    Singular(Singular),
    /// The guard refused this entry of the elimination (too large, or out of time).
    Refused(Expr),
}

/// What a guarded elimination shows each entry it builds to: the caller's bound on its size,
/// its work and its time. A closure `|entry| …` is a guard that admits every unnormalised entry.
pub trait Guard {
    /// Whether the elimination may normalise `raw`, the entry it has just formed as written (a
    /// product of earlier entries over the previous pivot, not multiplied out): the place to
    /// refuse before the normalisation's work is spent (see [`Expr::expansion_bound`]).
    fn admits(&mut self, raw: &Expr) -> bool {
        let _ = raw;
        true
    }

    /// Whether `entry`, normalised, may enter the elimination.
    fn allows(&mut self, entry: &Expr) -> bool;
}

/// A guard on the terms an elimination forms in all, counted before each product is normalised
/// ([`Expr::expansion_bound`]); it allows every normalised entry.
#[derive(Clone, Copy, Debug)]
pub struct ExpansionBudget {
    /// The most terms that may be formed.
    pub limit: usize,
    /// The terms formed so far.
    pub formed: usize,
}

impl ExpansionBudget {
    /// A budget of `limit` terms, none formed yet.
    pub fn new(limit: usize) -> ExpansionBudget {
        ExpansionBudget { limit, formed: 0 }
    }

    /// Whether the terms formed so far have gone past the limit.
    pub fn exceeded(&self) -> bool {
        self.formed > self.limit
    }
}

impl Guard for ExpansionBudget {
    fn admits(&mut self, raw: &Expr) -> bool {
        self.formed = self.formed.saturating_add(raw.expansion_bound());
        !self.exceeded()
    }

    fn allows(&mut self, _: &Expr) -> bool {
        true
    }
}

impl<F: FnMut(&Expr) -> bool> Guard for F {
    fn allows(&mut self, entry: &Expr) -> bool {
        self(entry)
    }
}

/// [`inverse`], with every entry the elimination builds shown to `guard` first: the elimination
/// stops at the first entry the guard refuses, so that a caller can bound its size and time.
pub fn inverse_guarded(a: &[Vec<Expr>], guard: &mut dyn Guard) -> Result<Vec<Vec<Expr>>, Halted> {
    solve_guarded(a, &identity(a.len()), guard)
}

fn identity(n: usize) -> Matrix {
    (0..n)
        .map(|i| {
            (0..n)
                .map(|j| if i == j { Expr::one() } else { Expr::zero() })
                .collect()
        })
        .collect()
}

/// [`solve`] by fraction-free Gauss–Jordan elimination of `[a | b]`, each entry shown to `guard`.
///
/// Step `k` replaces every row `r ≠ k` by `(p_k · row_r − m[r][k] · row_k) / p_{k−1}` (`p_k` the
/// pivot of step `k`, `p_{−1} = 1`): an invertible row operation whose division is exact, as in
/// Bareiss's elimination. At the end the left block is `d · I` with `d = p_{n−1} = ±det a`, so
/// `x = (right block) / d`: one division per entry of the solution, where back-substitution would
/// add fractions whose denominators are products of pivots, which is what swells a symbolic
/// inverse. For a polynomial `a` and `b`, the right block is polynomial (for `b = I`, `±adj a`).
pub fn solve_guarded(
    a: &[Vec<Expr>],
    b: &[Vec<Expr>],
    guard: &mut dyn Guard,
) -> Result<Vec<Vec<Expr>>, Halted> {
    let _stage = timing::stage("elimination");
    let n = a.len();
    let k = b.first().map_or(0, |r| r.len());
    let mut m: Matrix = a
        .iter()
        .zip(b)
        .map(|(ra, rb)| ra.iter().chain(rb).cloned().collect())
        .collect();
    let mut previous = Expr::one();
    for step in 0..n {
        // From the second step on, the column's entries are the previous step's normal forms.
        let candidate = (step..n)
            .map(|r| match step {
                0 => (r, m[r][step].simplify()),
                _ => (r, m[r][step].clone()),
            })
            .filter(|(_, e)| !e.is_zero())
            .min_by_key(|(r, e)| (e.size(), *r));
        let Some((p, pivot)) = candidate else {
            return Err(Halted::Singular(Singular {
                det: Expr::zero(),
                rank: rank(a).0,
            }));
        };
        m.swap(p, step);
        m[step][step] = pivot.clone();
        let pivot_row = m[step].clone();
        // The whole step is formed and shown to the guard before any of it is normalised: a
        // step the guard refuses costs no normalisation.
        for (r, row) in m.iter_mut().enumerate() {
            if r == step {
                continue;
            }
            let factor = std::mem::replace(&mut row[step], Expr::zero());
            let no_factor = factor.is_zero();
            for c in step + 1..n + k {
                // A zero stays zero: (p · 0 − 0 · q) / p'.
                if no_factor && row[c].is_literal_zero() {
                    continue;
                }
                let updated = if no_factor {
                    &pivot * &row[c] / previous.clone()
                } else {
                    (&pivot * &row[c] - &factor * &pivot_row[c]) / previous.clone()
                };
                if !guard.admits(&updated) {
                    return Err(Halted::Refused(updated));
                }
                row[c] = updated;
            }
        }
        for (r, row) in m.iter_mut().enumerate() {
            if r == step {
                continue;
            }
            for entry in &mut row[step + 1..n + k] {
                if entry.is_literal_zero() {
                    continue;
                }
                *entry = entry.simplify();
                if !guard.allows(entry) {
                    return Err(Halted::Refused(entry.clone()));
                }
            }
        }
        previous = pivot;
    }
    let mut x = vec![vec![Expr::zero(); k]; n];
    for (i, row) in x.iter_mut().enumerate() {
        for (c, entry) in row.iter_mut().enumerate() {
            *entry = (m[i][n + c].clone() / previous.clone()).simplify();
            if !guard.allows(entry) {
                return Err(Halted::Refused(entry.clone()));
            }
        }
    }
    Ok(x)
}

/// Whether the rows have full rank at one of a few pseudo-random points (values in (0.3, 1.7) for
/// every symbol, fixed seeds: deterministic), by Gaussian elimination (pivot: the largest remaining entry of
/// each row) and a conservative threshold (pivots must exceed 1e-6 relative to the largest entry).
fn full_row_rank_at_random_points(rows: &[Vec<Expr>], bindings: &[(String, Expr)]) -> bool {
    let r = rows.len();
    let Some(columns) = rows.first().map(Vec::len) else {
        return true;
    };
    if r > columns {
        return false;
    }
    let mut names = std::collections::BTreeSet::new();
    for e in rows.iter().flatten().chain(bindings.iter().map(|b| &b.1)) {
        names.extend(e.symbols());
    }
    for (bound, _) in bindings {
        names.remove(bound);
    }
    let mut state: u64 = 0x2545_f491_4f6c_dd1d;
    for _ in 0..3 {
        let mut point = crate::numeric::Point::default();
        for name in &names {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            point.set(
                name,
                0.3 + 1.4 * ((state >> 11) as f64 / (1u64 << 53) as f64),
            );
        }
        for (name, value) in bindings {
            let Some(value) = point.value(value) else {
                return false;
            };
            point.set(name, value);
        }
        let Some(flat) = rows
            .iter()
            .flatten()
            .map(|e| point.value(e))
            .collect::<Option<Vec<f64>>>()
        else {
            return false;
        };
        if flat.iter().any(|v| !v.is_finite()) {
            continue;
        }
        let mut m: Vec<Vec<f64>> = flat.chunks(columns).map(<[f64]>::to_vec).collect();
        let scale = flat.iter().fold(0.0f64, |a, v| a.max(v.abs()));
        if scale == 0.0 {
            continue;
        }
        let mut full = true;
        let mut used = vec![false; columns];
        for row in 0..r {
            let Some((col, value)) = (0..columns)
                .filter(|c| !used[*c])
                .map(|c| (c, m[row][c]))
                .max_by(|a, b| a.1.abs().total_cmp(&b.1.abs()))
            else {
                full = false;
                break;
            };
            if value.abs() <= 1e-6 * scale {
                full = false;
                break;
            }
            used[col] = true;
            let pivot_row = m[row].clone();
            for below in m.iter_mut().skip(row + 1) {
                let f = below[col] / value;
                for (entry, p) in below.iter_mut().zip(&pivot_row) {
                    *entry -= f * p;
                }
            }
        }
        if full {
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(name: &str) -> Expr {
        Expr::symbol(name)
    }

    #[test]
    fn determinant_of_a_symbolic_matrix() {
        let m = vec![vec![s("a"), s("b")], vec![s("c"), s("d")]];
        let expected = s("a") * s("d") - s("b") * s("c");
        assert!((det(&m) - expected).is_zero());
    }

    #[test]
    fn solve_and_check() {
        let a = vec![vec![s("m"), Expr::int(1)], vec![Expr::int(1), s("k")]];
        let b = vec![vec![s("f")], vec![s("g")]];
        let x = solve(&a, &b).unwrap();
        for i in 0..2 {
            let lhs = a[i][0].clone() * x[0][0].clone() + a[i][1].clone() * x[1][0].clone();
            assert!((lhs - b[i][0].clone()).is_zero());
        }
    }

    #[test]
    fn determinant_of_a_three_by_three_matrix_by_two_routes() {
        // Bareiss's last pivot against the cofactor expansion.
        let m: Vec<Vec<Expr>> = (0..3)
            .map(|i| (0..3).map(|j| s(&format!("a{i}{j}"))).collect())
            .collect();
        let cofactor = |i: usize, j: usize| {
            let (r, c) = (
                [0, 1, 2]
                    .into_iter()
                    .filter(|k| *k != i)
                    .collect::<Vec<_>>(),
                [0, 1, 2]
                    .into_iter()
                    .filter(|k| *k != j)
                    .collect::<Vec<_>>(),
            );
            m[r[0]][c[0]].clone() * m[r[1]][c[1]].clone()
                - m[r[0]][c[1]].clone() * m[r[1]][c[0]].clone()
        };
        let expansion = m[0][0].clone() * cofactor(0, 0) - m[0][1].clone() * cofactor(0, 1)
            + m[0][2].clone() * cofactor(0, 2);
        assert!((det(&m) - expansion).is_zero());
    }

    #[test]
    fn inverse_of_a_symbolic_two_by_two_matrix() {
        // By hand: [[a, b], [c, d]]⁻¹ = [[d, −b], [−c, a]] / (ad − bc).
        let m = vec![vec![s("a"), s("b")], vec![s("c"), s("d")]];
        let det = s("a") * s("d") - s("b") * s("c");
        let expected = [[s("d"), -s("b")], [-s("c"), s("a")]];
        let inv = inverse(&m).unwrap();
        for i in 0..2 {
            for j in 0..2 {
                assert!((inv[i][j].clone() - expected[i][j].clone() / det.clone()).is_zero());
            }
        }
    }

    #[test]
    fn inverse_needs_a_row_swap_and_multiplies_back_to_the_identity() {
        // A zero in the corner forces a swap; entries mix symbols, a root and a fraction.
        let m = vec![
            vec![Expr::zero(), s("x"), Expr::int(1)],
            vec![s("y"), Expr::int(2), s("x").pow(&Expr::rational(1, 2))],
            vec![Expr::int(3), s("y") * s("x"), Expr::int(1) / s("y")],
        ];
        let inv = inverse(&m).unwrap();
        for (i, row) in m.iter().enumerate() {
            for j in 0..3 {
                let product = row
                    .iter()
                    .zip(&inv)
                    .fold(Expr::zero(), |acc, (a, r)| acc + a.clone() * r[j].clone());
                let identity = if i == j { Expr::one() } else { Expr::zero() };
                assert!((product - identity).simplify().is_zero(), "({i}, {j})");
            }
        }
    }

    #[test]
    fn a_guard_stops_the_elimination_at_the_first_refused_entry() {
        let m: Vec<Vec<Expr>> = (0..3)
            .map(|i| (0..3).map(|j| s(&format!("a{i}{j}"))).collect())
            .collect();
        let mut seen = 0;
        let result = inverse_guarded(&m, &mut |e: &Expr| {
            seen += 1;
            e.size() < 8
        });
        let Err(Halted::Refused(entry)) = result else {
            panic!("the guard refused nothing")
        };
        assert!(entry.size() >= 8);
        assert!(seen < 9 + 3 * 3, "stopped at the first refusal");
        assert!(matches!(
            inverse_guarded(
                &[vec![s("x"), s("x")], vec![s("x"), s("x")]],
                &mut |_: &Expr| true
            ),
            Err(Halted::Singular(Singular { rank: 1, .. }))
        ));
    }

    /// A guard that refuses an entry whose product would multiply out to more than `limit` terms.
    struct Expansion {
        limit: usize,
        normalised: usize,
    }

    impl Guard for Expansion {
        fn admits(&mut self, raw: &Expr) -> bool {
            raw.expansion_bound() <= self.limit
        }

        fn allows(&mut self, _: &Expr) -> bool {
            self.normalised += 1;
            true
        }
    }

    #[test]
    fn a_guard_refuses_a_product_before_it_is_normalised() {
        // Entries of two terms each: step 0 forms (2·2 + 2·2)/1 = 8 terms at most.
        let m: Vec<Vec<Expr>> = (0..3)
            .map(|i| {
                (0..3)
                    .map(|j| s(&format!("a{i}{j}")) + s(&format!("b{i}{j}")))
                    .collect()
            })
            .collect();
        let mut tight = Expansion {
            limit: 7,
            normalised: 0,
        };
        let Err(Halted::Refused(raw)) = inverse_guarded(&m, &mut tight) else {
            panic!("the product was admitted")
        };
        assert_eq!(raw.expansion_bound(), 8);
        assert_eq!(tight.normalised, 0, "refused before normalising anything");
        let mut loose = Expansion {
            limit: usize::MAX,
            normalised: 0,
        };
        assert!(inverse_guarded(&m, &mut loose).is_ok());
    }

    #[test]
    fn rank_of_dependent_rows() {
        let rows = vec![
            vec![s("x"), Expr::int(1)],
            vec![Expr::int(2) * s("x"), Expr::int(2)],
        ];
        assert_eq!(rank(&rows).0, 1);
        assert_eq!(first_dependent_row(&rows), Some(1));
        assert!(inverse(&rows).is_err());
    }
}
