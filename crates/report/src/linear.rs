//! A linearisation about a point, `δż = A δz + B δu` on the constraint manifold, as every output
//! of `dalembert linearize` reads it (`mech::linearize` computes it).

use std::collections::BTreeMap;

use cas::Expr;

/// A matrix of expressions, row by row.
pub type Matrix = Vec<Vec<Expr>>;

/// A linearisation about a point (`mech::linearize` explains the construction).
#[derive(Clone, Debug)]
pub struct Linearization {
    /// The state `z` (internal names).
    pub state: Vec<String>,
    /// The inputs.
    pub inputs: Vec<String>,
    /// The value of every state entry and input at the point, and of the parameters given.
    pub point: BTreeMap<String, Expr>,
    /// The state entries and inputs not given, set to zero.
    pub defaulted: Vec<String>,
    /// The positions in `state` of the independent entries: the reduced state.
    pub independent: Vec<usize>,
    /// Each dependent entry (its position in `state`) as a combination of the independent ones:
    /// `δz_d = Σ_k coefficients[k] δz_{independent[k]}`.
    pub dependent: Vec<(usize, Vec<Expr>)>,
    /// Constraint rows that are dependent at the point (left out), by their constraint number.
    pub redundant: Vec<usize>,
    /// `A`, on the reduced state, at the point.
    pub a: Vec<Vec<Expr>>,
    /// `B`, reduced state × inputs, at the point.
    pub b: Vec<Vec<Expr>>,
    /// `A` and `B` at a general state (the same choice of independent entries), what the emitted
    /// functions compute: from the closed form only (`None` on the implicit route).
    pub general: Option<(Matrix, Matrix)>,
    /// `F(z*, u*)`, the rates at the point (all zero at an equilibrium).
    pub rates: Vec<Expr>,
    /// The variable of the characteristic polynomial.
    pub variable: String,
    /// `det(s I − A)`, factored.
    /// `None` when it would be larger than the document can show (its eigenvalues then come from
    /// the numeric `A`).
    pub characteristic: Option<Expr>,
    /// The roots of the characteristic polynomial, with multiplicity, ordered by real part then
    /// imaginary part, when it has no symbol but its variable (every parameter has a value).
    pub eigenvalues: Option<Vec<Complex>>,
}

/// A complex number (an eigenvalue).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Complex {
    /// Real part.
    pub re: f64,
    /// Imaginary part.
    pub im: f64,
}

impl Complex {
    /// With six decimals and `unit` for the imaginary unit: `1.500000`,
    /// `-0.250000 + 2.000000i` (`unit` `"i"`, as the command prints it; `"\\,i"` in LaTeX).
    pub fn six_decimals(&self, unit: &str) -> String {
        let re = format!("{:.6}", self.re);
        if self.im == 0.0 {
            return re;
        }
        let sign = if self.im < 0.0 { '-' } else { '+' };
        format!("{re} {sign} {:.6}{unit}", self.im.abs())
    }
}

impl Linearization {
    /// The point's values in the order of the state, then the inputs, then the rest (parameters
    /// and free names) by name.
    pub fn point_in_order(&self) -> Vec<(&String, &Expr)> {
        let first: Vec<&String> = self.state.iter().chain(&self.inputs).collect();
        let mut out: Vec<(&String, &Expr)> = first
            .iter()
            .filter_map(|s| self.point.get_key_value(*s))
            .collect();
        out.extend(self.point.iter().filter(|(s, _)| !first.contains(s)));
        out
    }
}
