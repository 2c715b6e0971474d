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

use std::cell::Cell;

thread_local! {
    static SPENT: Cell<u64> = const { Cell::new(0) };
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
