//! The work meter: a deterministic measure of how much symbolic work this thread has done.
//!
//! Wall time cannot choose what a derivation writes: the same spec must give the same output on
//! a fast machine and a loaded one. Where a derivation must give up on an expensive route (the
//! closed form of a large system, `mech::base::route`), it gives up after a fixed amount of *work*, and
//! work is counted here, by the operations whose cost dominates symbolic computation: every
//! expansion, rational combination, cancellation and factorisation charges the number of terms
//! (tree nodes) it produced. The count depends only on the expressions, never on the machine, so
//! a budget of work ends a route at the same place on every run.
//!
//! The meter is per thread (all symbolic work runs on one thread, see the crate documentation)
//! and only grows; a budget is a difference of two readings ([`spent`]).
//!
//! # The ceiling of an attempt that gives up
//!
//! A route that gives up once its budget is spent checks the meter between its stages, so the
//! work between the moment the meter passes the budget and the next check is thrown away with
//! the attempt. Run under [`with_ceiling`], that work may be cut short: past the ceiling,
//! `Expr::simplify` returns the first of its two normal forms (an equal expression, where it
//! would have compared two; the rolling torus's closed form passed its budget in a normalisation
//! of 5 s, half of it the second form). The second form's share of the first step the two
//! share is charged before the second is computed, so a ceiling that this charge passes cuts
//! the second form too (the rolling torus's closed form passes its budget there today, and
//! spent 450 ms on the second form before). Nothing cut short is
//! remembered, no zero test is ever cut short (control flow reads them), and the meter has passed
//! the ceiling before anything is cut, so the check that gives up, and the reason it gives, are
//! those of a run without the ceiling.

use std::cell::Cell;

thread_local! {
    static SPENT: Cell<u64> = const { Cell::new(0) };
    static CEILING: Cell<Option<u64>> = const { Cell::new(None) };
}

/// Runs `f` with a ceiling on the meter at the reading `limit`: `f` must give up, before it
/// returns anything it computed, once the meter has passed `limit`. Work past the ceiling may
/// then be cut short (see the module documentation).
pub fn with_ceiling<R>(limit: u64, f: impl FnOnce() -> R) -> R {
    /// Restores the enclosing ceiling, also when `f` unwinds.
    struct Restore(Option<u64>);
    impl Drop for Restore {
        fn drop(&mut self) {
            CEILING.with(|c| c.set(self.0));
        }
    }
    let _restore = Restore(CEILING.with(|c| c.replace(Some(limit))));
    f()
}

/// Whether a ceiling is set ([`with_ceiling`]) and the meter has passed it.
pub(crate) fn past_ceiling() -> bool {
    CEILING.with(Cell::get).is_some_and(|limit| spent() > limit)
}

/// The work units this thread has spent so far: the sum of the sizes (tree nodes) of every
/// expansion, rational combination, cancellation and factorisation result since it started.
pub fn spent() -> u64 {
    SPENT.with(Cell::get)
}

/// Charges `units` to this thread's meter.
pub(crate) fn charge(units: usize) {
    SPENT.with(|spent| spent.set(spent.get().saturating_add(units as u64)));
}
