//! One dalembert at a time per user.
//!
//! Without a licence key, Symbolica aborts a second process of the same user that uses it while
//! another one holds it. The CLI therefore takes an exclusive lock on a per-user file before
//! doing any symbolic work, and waits (saying so) while another dalembert holds it.

use std::fs::{File, OpenOptions, TryLockError};
use std::path::PathBuf;

/// The per-user lock file.
pub fn lock_path() -> PathBuf {
    let user = std::env::var("USER")
        .or_else(|_| std::env::var("LOGNAME"))
        .unwrap_or_else(|_| "user".to_string());
    let safe: String = user
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '-')
        .collect();
    std::env::temp_dir().join(format!("dalembert-{safe}.lock"))
}

/// Takes the lock, waiting with a message on stderr if another dalembert holds it. The lock is
/// released when the returned file is dropped (or the process ends).
pub fn acquire() -> std::io::Result<File> {
    let path = lock_path();
    let file = OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)?;
    match file.try_lock() {
        Ok(()) => Ok(file),
        Err(TryLockError::WouldBlock) => {
            eprintln!(
                "dalembert: waiting for another dalembert to finish (lock {})",
                path.display()
            );
            file.lock()?;
            Ok(file)
        }
        Err(TryLockError::Error(e)) => Err(e),
    }
}
