//! Results of the expensive functions of one expression, remembered per thread: normal forms
//! ([`Expr::simplify`]), zero tests ([`Expr::is_zero`]), factorisations, the signs a
//! factorisation gives its sum factors (each term printed to find the leading one), the
//! reductions of a normal form's polynomials modulo `sin² + cos² = 1` (one memory per
//! orientation), and the tangent and double-angle forms of the displays
//! ([`Expr::with_tangents`], [`Expr::with_double_angles`]).
//!
//! Each is a function of its argument alone, and a document's displays ask for the same ones
//! again and again (the snakeboard's JSON asked for 160,000 normal forms of about 3,000
//! expressions, 3,500 zero tests of about 300, and 545,000 double-angle forms of 12,000 parts).
//! Each result is kept with the work units computing it charged ([`crate::work`]), and a result
//! found here charges them again: the meter, every budget of work read off it, and so every
//! route, are what they would be without this memory, whatever the thread derived before. The
//! memory is bounded by the bytes of the trees it holds, and starts again when it is full.
//!
//! `cas::simplest` remembers its display candidates and part forms with a memory of its own,
//! bounded by a count: they charge nothing the work budgets read, and are keyed by more than
//! an expression.

use crate::hash::FastMap;
use std::cell::RefCell;
use std::thread::LocalKey;

use crate::Expr;

/// The bytes of the trees (arguments and results together) one memory keeps before it starts
/// again: a bound on its memory (a tree takes about 3.5 bytes a node). Read off the trees'
/// encodings, not counted node by node: counting was 5% of the snakeboard's instructions.
const REMEMBERED_BYTES: usize = 16 << 20;

/// Results by expression, each with the work units computing it charged, and the bytes they
/// hold.
pub(crate) struct Remembered<V> {
    results: FastMap<Expr, (V, u64)>,
    bytes: usize,
}

impl<V> Default for Remembered<V> {
    fn default() -> Self {
        Remembered {
            results: FastMap::default(),
            bytes: 0,
        }
    }
}

/// A memory of one function, per thread.
pub(crate) type Memory<V> = LocalKey<RefCell<Remembered<V>>>;

/// `compute()`, the value at `e` of a function of `e` alone, from `memory` when it was computed
/// before (charging the meter what computing it charged); `bytes` measures a result.
pub(crate) fn remembered<V: Clone>(
    memory: &'static Memory<V>,
    e: &Expr,
    bytes: impl Fn(&V) -> usize,
    compute: impl FnOnce() -> V,
) -> V {
    if let Some((known, units)) = memory.with_borrow(|m| m.results.get(e).cloned()) {
        crate::work::charge(usize::try_from(units).unwrap_or(usize::MAX));
        return known;
    }
    let before = crate::work::spent();
    let value = compute();
    let units = crate::work::spent() - before;
    // Past a ceiling the result may have been cut short (`work::with_ceiling`): not kept.
    if crate::work::past_ceiling() {
        return value;
    }
    let size = e.byte_size() + bytes(&value);
    memory.with_borrow_mut(|m| {
        if m.bytes + size > REMEMBERED_BYTES {
            m.results.clear();
            m.bytes = 0;
        }
        if size <= REMEMBERED_BYTES {
            m.results.insert(e.clone(), (value.clone(), units));
            m.bytes += size;
        }
    });
    value
}

#[cfg(test)]
mod tests {
    use crate::{Expr, Func};

    /// A remembered normal form charges the meter what computing it charged.
    #[test]
    fn a_remembered_result_charges_what_computing_it_charged() {
        let (a, b) = (Expr::symbol("remember_a"), Expr::symbol("remember_b"));
        let e = (a.clone() + b.clone()).powi(3) / (a.clone() + b.clone()) - a.clone() * b;
        let first = crate::work::spent();
        let once = e.simplify();
        let computed = crate::work::spent() - first;
        let again = e.simplify();
        let recalled = crate::work::spent() - first - computed;
        assert!(computed > 0);
        assert_eq!(once, again);
        assert_eq!(recalled, computed);
        let first = crate::work::spent();
        assert!(!e.is_zero());
        let computed = crate::work::spent() - first;
        assert!(!e.is_zero());
        assert_eq!(crate::work::spent() - first - computed, computed);
    }

    /// Past a ceiling a normal form may be cut short: it is still equal to its argument, and it
    /// is not remembered, so the normal form asked for afterwards is the full one.
    #[test]
    fn past_a_ceiling_normal_forms_are_equal_and_not_remembered() {
        let (x, y) = (Expr::symbol("ceiling_x"), Expr::symbol("ceiling_y"));
        let cos2 = Expr::apply(Func::Cos, x.clone()).powi(2) * y.clone();
        let sin2 = Expr::apply(Func::Sin, x).powi(2) * y;
        crate::work::charge(1);
        let mut differed = false;
        for e in [cos2, sin2] {
            let cut = crate::work::with_ceiling(crate::work::spent() - 1, || e.simplify());
            assert!(
                !crate::work::past_ceiling(),
                "the ceiling is lifted on return"
            );
            assert!((cut.clone() - e.clone()).is_zero());
            let full = e.simplify();
            assert!(full.size() <= cut.size());
            differed |= full != cut;
        }
        // One of the two orientations keeps the smaller form, the other does not.
        assert!(differed);
    }
}
