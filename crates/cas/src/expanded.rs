//! Whether an expression is its own expansion, read off its tree: the test that lets an
//! expansion be skipped (`Expr::expand`, the quadratic form's coefficients, the reductions
//! modulo `sin² + cos² = 1`). It reads Symbolica's views only and imports nothing of this
//! crate, so that every module may ask it (its test is with the views', `view.rs`).

use symbolica::atom::AtomView;

/// Whether `view` is its own expansion: no sum is a factor of a product or the base of a
/// power, every power has a number for exponent, and the same holds inside every function's
/// arguments. (An answer of `false` only costs an expansion.)
pub(crate) fn is_expanded(view: AtomView<'_>) -> bool {
    match view {
        AtomView::Num(_) | AtomView::Var(_) => true,
        AtomView::Fun(f) => f.iter().all(is_expanded),
        AtomView::Pow(p) => {
            let (base, exp) = p.get_base_exp();
            matches!(exp, AtomView::Num(_))
                && !matches!(base, AtomView::Add(_))
                && is_expanded(base)
        }
        AtomView::Mul(m) => m
            .iter()
            .all(|f| !matches!(f, AtomView::Add(_)) && is_expanded(f)),
        AtomView::Add(a) => a.iter().all(is_expanded),
    }
}
