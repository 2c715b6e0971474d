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
    /// How `A`, `B`, the rates and the values computed for the point were obtained.
    pub arithmetic: Arithmetic,
}

/// The arithmetic of a linearisation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arithmetic {
    /// Exact: the expressions are the linearisation itself.
    Exact,
    /// Double precision at a numeric point: every number computed (`A`, `B`, the rates, the
    /// dependent entries and the values solved for the point) is a double, held as the exact
    /// rational of its shortest decimal form.
    Double,
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

/// The significant digits of a double printed for readers (JSON carries every digit).
pub const DECIMAL_DIGITS: usize = 6;

/// `x` to `digits` significant digits, trailing zeros dropped: `16.6667`, `-0.891198`, `0`,
/// and `1.23457e-5` below `1e-4` or from `1e10` on.
pub fn decimal(x: f64, digits: usize) -> String {
    if x == 0.0 || !x.is_finite() {
        return if x == 0.0 { "0".into() } else { format!("{x}") };
    }
    let exponent = x.abs().log10().floor() as i32;
    let trim = |t: String| -> String {
        if t.contains('.') {
            t.trim_end_matches('0').trim_end_matches('.').to_string()
        } else {
            t
        }
    };
    if (-4..10).contains(&exponent) {
        let places = (digits as i32 - 1 - exponent).max(0) as usize;
        trim(format!("{x:.places$}"))
    } else {
        let text = format!("{x:.*e}", digits.saturating_sub(1));
        let (mantissa, power) = text.split_once('e').unwrap_or((&text, "0"));
        format!("{}e{power}", trim(mantissa.to_string()))
    }
}

/// [`decimal`] to [`DECIMAL_DIGITS`] in LaTeX: `1.23457e-5` is `1.23457 \times 10^{-5}`.
pub fn decimal_latex(x: f64) -> String {
    let text = decimal(x, DECIMAL_DIGITS);
    match text.split_once('e') {
        Some((mantissa, power)) => format!("{mantissa} \\times 10^{{{power}}}"),
        None => text,
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
