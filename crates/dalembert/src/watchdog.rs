//! The wall-time and memory budgets of a run (`--timeout`, `--max-memory`).
//!
//! A watchdog thread looks at once and then every 50 ms, and ends the process with a diagnostic and exit code 1
//! when the run has used more wall time than `--timeout` or when its resident memory (read from
//! `/proc/self/status`) exceeds `--max-memory` — long before the kernel's out-of-memory killer
//! would end it without a word. It never touches Symbolica (whose licence allows one thread), and
//! once [`disarm`]ed — just before the atomic write of the outputs — it does nothing, so a run is
//! never cut in the middle of writing, and a run it ends has written nothing. The command line
//! reports its diagnostic the way it reports every other.

use std::sync::Mutex;
use std::time::{Duration, Instant};

use syntax::{Code, Diagnostic};

/// Whether the watchdog was disarmed; it exits while holding the lock, so once [`disarm`] has
/// returned it cannot act.
static DISARMED: Mutex<bool> = Mutex::new(false);

/// The budgets the watchdog enforces.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Wall time from [`arm`].
    pub time: Duration,
    /// Resident memory, in bytes.
    pub memory: u64,
}

/// Starts the watchdog; when a budget is exceeded it calls `report` with the diagnostic, then
/// ends the process with exit code 1.
pub fn arm(limits: Limits, report: fn(&Diagnostic)) {
    let start = Instant::now();
    std::thread::spawn(move || loop {
        let verdict = if start.elapsed() >= limits.time {
            Some(Diagnostic::unlocated(
                Code::E0503,
                format!(
                    "the time budget of {} s (--timeout) was spent before the derivation finished",
                    limits.time.as_secs()
                ),
            ))
        } else {
            resident_bytes()
                .filter(|&rss| rss > limits.memory)
                .map(|rss| {
                    Diagnostic::unlocated(
                        Code::E0504,
                        format!(
                            "the run reached {} MiB of memory, above the budget --max-memory {} MiB",
                            rss >> 20,
                            limits.memory >> 20
                        ),
                    )
                })
        };
        if let Some(diagnostic) = verdict {
            let disarmed = DISARMED.lock().unwrap_or_else(|e| e.into_inner());
            if !*disarmed {
                report(&diagnostic);
                std::process::exit(1);
            }
            return;
        }
        std::thread::sleep(Duration::from_millis(50));
    });
}

/// Stops the watchdog from acting (called before writing).
pub fn disarm() {
    *DISARMED.lock().unwrap_or_else(|e| e.into_inner()) = true;
}

/// The resident set size of this process (`VmRSS` of `/proc/self/status`), when the system
/// tells it.
pub fn resident_bytes() -> Option<u64> {
    proc_bytes("/proc/self/status", "VmRSS:")
}

/// Three quarters of the machine's memory (`MemTotal` of `/proc/meminfo`), or 8 GiB when the
/// system does not tell: the default of `--max-memory`.
pub fn default_memory_budget() -> u64 {
    proc_bytes("/proc/meminfo", "MemTotal:").map_or(8 << 30, |bytes| bytes / 4 * 3)
}

/// The `key: N kB` line of a `/proc` file, in bytes.
fn proc_bytes(path: &str, key: &str) -> Option<u64> {
    let text = std::fs::read_to_string(path).ok()?;
    let line = text.lines().find(|l| l.starts_with(key))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}
