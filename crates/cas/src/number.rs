//! A number atom's parts read off its coefficient, without building anything: what the views
//! print and what the arithmetic of `Expr` tests before it calls the CAS (a zero, a one, an
//! integer to negate). It reads Symbolica's views only and imports nothing of this crate, so
//! that every module may ask it.

use symbolica::atom::AtomView;
use symbolica::coefficient::CoefficientView;

/// A real rational number whose numerator and denominator are machine words, as stored in its
/// coefficient (what a view prints without Symbolica); `None` for any other number and for
/// anything but a number.
pub(crate) fn machine_rational(view: AtomView<'_>) -> Option<(i64, i64)> {
    match view {
        AtomView::Num(n) => match n.get_coeff_view() {
            CoefficientView::Natural(numerator, denominator, 0, _) => {
                Some((numerator, denominator))
            }
            _ => None,
        },
        _ => None,
    }
}
