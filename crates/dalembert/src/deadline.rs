//! The wall-time budget of a run (`--timeout`): a watchdog thread that ends the process with a
//! diagnostic and exit code 1 when the budget is spent before the outputs are written. It never
//! touches Symbolica (whose licence allows one thread), and once [`disarm`]ed — just before the
//! atomic write of the outputs — it does nothing, so a run is never cut in the middle of writing.

use std::sync::Mutex;
use std::time::Duration;

/// Whether the watchdog was disarmed; it exits while holding the lock, so once [`disarm`] has
/// returned it cannot act.
static DISARMED: Mutex<bool> = Mutex::new(false);

/// Starts the watchdog.
pub fn arm(budget: Duration) {
    std::thread::spawn(move || {
        std::thread::sleep(budget);
        let disarmed = DISARMED.lock().unwrap_or_else(|e| e.into_inner());
        if !*disarmed {
            eprintln!(
                "dalembert: error: the time budget of {} s (--timeout) was spent before the derivation finished; nothing written",
                budget.as_secs()
            );
            std::process::exit(1);
        }
    });
}

/// Stops the watchdog from acting (called before writing).
pub fn disarm() {
    *DISARMED.lock().unwrap_or_else(|e| e.into_inner()) = true;
}
