//! Algebroid data: presets, reading explicit anchors and brackets, and the structure equations
//! ([IMMS07] §II.1 and §II.3).

use cas::Expr;
use diagnostic::Code;
use diagnostic::Diagnostic;
use syntax::ast::{Expr as Ast, Span};

use crate::scope::{partial_placeholder, Scope, ScopeKind};
use crate::system::StructureReport;

/// A structure constant `[e_α, e_β] = sign e_γ` as `(α, β, γ, sign)`.
pub type StructureConstant = (usize, usize, usize, i64);

/// Structure constants of the Lie-algebra presets as `(α, β, γ, sign)`: `[e_α, e_β] = sign e_γ`
/// (0-based), listed for α < β. See `docs/conventions.md`.
pub fn preset_brackets(name: &str) -> Option<(usize, Vec<StructureConstant>)> {
    match name {
        // so(3): [e1,e2] = e3, [e2,e3] = e1, [e3,e1] = e2.
        "so3" => Some((3, vec![(0, 1, 2, 1), (1, 2, 0, 1), (0, 2, 1, -1)])),
        // se(2): e1 rotation, e2, e3 body translations: [e1,e2] = e3, [e1,e3] = -e2.
        "se2" => Some((3, vec![(0, 1, 2, 1), (0, 2, 1, -1)])),
        // se(3): e1..e3 rotations, e4..e6 translations: [ei,ej] = ε_ijk ek, [ei,e(3+j)] = ε_ijk e(3+k).
        "se3" => {
            let mut list = Vec::new();
            for (i, j, k) in [(0, 1, 2), (1, 2, 0), (2, 0, 1)] {
                let (a, b, sign) = if i < j { (i, j, 1) } else { (j, i, -1) };
                list.push((a, b, k, sign));
                list.push((i, j + 3, k + 3, 1));
                list.push((j, i + 3, k + 3, -1));
            }
            Some((6, list))
        }
        _ => None,
    }
}

/// Dense structure constants `c[α][β][γ]` from a preset's list.
pub fn dense_brackets(n: usize, list: &[StructureConstant]) -> Vec<Vec<Vec<Expr>>> {
    let mut c = vec![vec![vec![Expr::zero(); n]; n]; n];
    for &(a, b, g, sign) in list {
        c[a][b][g] = Expr::int(sign);
        c[b][a][g] = Expr::int(-sign);
    }
    c
}

/// An anchor or bracket line's right-hand side split into coefficients of placeholders.
///
/// `value` must be `Σ_k coefficient_k · placeholder_k` with coefficients free of placeholders.
pub fn split_linear(
    value: &Expr,
    placeholders: &[String],
    span: Span,
    what: &str,
) -> Result<Vec<Expr>, Box<Diagnostic>> {
    let coefficients: Vec<Expr> = placeholders.iter().map(|p| value.diff(p)).collect();
    let nonlinear = coefficients
        .iter()
        .any(|c| placeholders.iter().any(|p| c.depends_on(p)));
    let rest = placeholders
        .iter()
        .zip(&coefficients)
        .fold(value.clone(), |acc, (p, c)| {
            acc - c.clone() * Expr::symbol(p)
        });
    if nonlinear || !rest.is_zero() {
        return Err(Box::new(Diagnostic::error(
            Code::E0230,
            format!("the right-hand side is not a linear combination of {what}"),
            span,
            "expected a sum of terms `coefficient * item`",
        )));
    }
    Ok(coefficients)
}

/// Reads an `anchor` line: coefficients over the base (time first).
pub fn read_anchor(scope: &Scope, value: &Ast, base: &[String]) -> diagnostic::Result<Vec<Expr>> {
    let expr = scope.convert(value, ScopeKind::Anchor)?;
    let placeholders: Vec<String> = base.iter().map(|q| partial_placeholder(q)).collect();
    split_linear(
        &expr,
        &placeholders,
        value.span,
        "coordinate vector fields `d/dq`",
    )
    .map_err(|d| vec![*d])
}

/// Reads a `bracket` line: coefficients over the sections.
pub fn read_bracket(
    scope: &Scope,
    value: &Ast,
    sections: &[String],
) -> diagnostic::Result<Vec<Expr>> {
    let expr = scope.convert(value, ScopeKind::Bracket)?;
    split_linear(&expr, sections, value.span, "sections").map_err(|d| vec![*d])
}

/// The algebroid data with index 0 standing for `e_0`: anchors `rho[A][i]`, brackets
/// `cc[A][B][γ]` (γ over `1..=n`, 0-based as `γ - 1`).
pub struct Extended<'a> {
    /// `ρ_A` for `A = 0..=n`.
    pub rho: Vec<&'a [Expr]>,
    /// `C^γ_AB` for `A, B = 0..=n`.
    pub cc: Vec<Vec<Vec<Expr>>>,
}

impl<'a> Extended<'a> {
    /// Builds the extended data from `ρ_0, ρ_α, C_0α, C_αβ`.
    pub fn new(
        anchor0: &'a [Expr],
        anchors: &'a [Vec<Expr>],
        c0: &[Vec<Expr>],
        c: &[Vec<Vec<Expr>>],
    ) -> Extended<'a> {
        let n = anchors.len();
        let mut rho: Vec<&[Expr]> = vec![anchor0];
        rho.extend(anchors.iter().map(|a| a.as_slice()));
        let mut cc = vec![vec![vec![Expr::zero(); n]; n + 1]; n + 1];
        for a in 0..n {
            for g in 0..n {
                cc[0][a + 1][g] = c0[a][g].clone();
                cc[a + 1][0][g] = -c0[a][g].clone();
                for b in 0..n {
                    cc[a + 1][b + 1][g] = c[a][b][g].clone();
                }
            }
        }
        Extended { rho, cc }
    }
}

impl Extended<'_> {
    /// Whether `[e_A, e_B] = 0` (every structure function literally zero).
    fn bracket_is_zero(&self, a: usize, b: usize) -> bool {
        self.cc[a][b].iter().all(|e| e.is_literal_zero())
    }
}

/// `ρ([e_A, e_B]) − [ρ(e_A), ρ(e_B)]` for every pair with a non-zero defect, as
/// `(A, B, i, defect)`; `partial(f, i)` differentiates along base coordinate `i`.
pub fn anchor_defects(
    ext: &Extended<'_>,
    partial: &dyn Fn(&Expr, usize) -> Expr,
) -> Vec<(usize, usize, usize, Expr)> {
    let dim = ext.rho[0].len();
    let size = ext.rho.len();
    let mut defects = Vec::new();
    // Constant anchors with a zero bracket (every pair of a tangent bundle) cannot fail: skip
    // them, so that checking a large preset costs nothing.
    let constant: Vec<bool> = ext
        .rho
        .iter()
        .map(|r| r.iter().all(|e| e.symbols().is_empty()))
        .collect();
    for a in 0..size {
        for b in a + 1..size {
            if constant[a] && constant[b] && ext.bracket_is_zero(a, b) {
                continue;
            }
            for i in 0..dim {
                let lie = (0..dim).fold(Expr::zero(), |acc, j| {
                    acc + ext.rho[a][j].clone() * partial(&ext.rho[b][i], j)
                        - ext.rho[b][j].clone() * partial(&ext.rho[a][i], j)
                });
                let image = (0..size - 1).fold(Expr::zero(), |acc, g| {
                    acc + ext.rho[g + 1][i].clone() * ext.cc[a][b][g].clone()
                });
                let defect = (image - lie).simplify();
                if !defect.is_zero() {
                    defects.push((a, b, i, defect));
                }
            }
        }
    }
    defects
}

/// The Jacobi identity of the extended bracket (the second structure equation of [IMMS07] §II.1).
pub fn jacobi(ext: &Extended<'_>, partial: &dyn Fn(&Expr, usize) -> Expr) -> StructureReport {
    let size = ext.rho.len();
    let n = size - 1;
    let dim = ext.rho[0].len();
    let mut report = StructureReport::default();
    let zero: Vec<Vec<bool>> = (0..size)
        .map(|a| (0..size).map(|b| ext.bracket_is_zero(a, b)).collect())
        .collect();
    if zero.iter().flatten().all(|&z| z) {
        return report;
    }
    let term = |a: usize, b: usize, g: usize, nu: usize| -> Expr {
        // ρ^i_A ∂_i C^ν_BΓ + C^μ_BΓ C^ν_Aμ (μ over 1..n, i.e. index μ+1 in cc).
        let derivative = (0..dim).fold(Expr::zero(), |acc, i| {
            acc + ext.rho[a][i].clone() * partial(&ext.cc[b][g][nu], i)
        });
        (0..n).fold(derivative, |acc, mu| {
            acc + ext.cc[b][g][mu].clone() * ext.cc[a][mu + 1][nu].clone()
        })
    };
    for a in 0..size {
        for b in a + 1..size {
            for g in b + 1..size {
                // Every term has a factor from one of the three brackets.
                if zero[b][g] && zero[g][a] && zero[a][b] {
                    continue;
                }
                for nu in 0..n {
                    let value =
                        (term(a, b, g, nu) + term(b, g, a, nu) + term(g, a, b, nu)).simplify();
                    if !value.is_zero() {
                        report.jacobi_failures.push((a, b, g, nu, value));
                    }
                }
            }
        }
    }
    report
}
