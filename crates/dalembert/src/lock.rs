//! One dalembert at a time per user.
//!
//! Without a licence key, Symbolica aborts a second process of the same user that uses it while
//! another one holds it. The CLI therefore takes an exclusive lock on a per-user file before
//! doing any symbolic work, and waits (saying so) while another dalembert holds it.
//!
//! The lock must outlive Symbolica's hold, which lasts until the process is gone: a lock dropped
//! at the end of `main` is released while the runtime and Symbolica are still tearing down, and a
//! waiting dalembert that starts in that gap is aborted. So the lock is never dropped: [`hold`]
//! keeps its file open in a static, on a descriptor numbered above any the process opens
//! otherwise, and the kernel releases it when it closes the process's files at exit (in the order
//! of their numbers, so last).
//!
//! The file is keyed on the user id, which is what Symbolica counts, not on `$USER`, which two
//! shells of one user may set differently (or not at all, under cron or in a container), and it
//! lives in `/tmp` whatever `$TMPDIR` says.

use std::fs::{File, OpenOptions, TryLockError};
use std::os::fd::{FromRawFd, IntoRawFd};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The descriptor number the lock is moved to (at or above it: the lowest free one).
const HIGH_DESCRIPTOR: libc::c_int = 1000;

/// The lock, held until the process ends.
static HELD: OnceLock<File> = OnceLock::new();

/// The per-user lock file: `/tmp/dalembert-uid<N>.lock` (in `$TMPDIR` only on a system without
/// `/tmp`).
pub fn lock_path() -> PathBuf {
    // SAFETY: getuid has no preconditions and cannot fail.
    let uid = unsafe { libc::getuid() };
    lock_dir().join(format!("dalembert-uid{uid}.lock"))
}

/// Where the lock lives: a place every process of the user agrees on. `$TMPDIR` is not one (a
/// build tool, a container or a test may set it per process, and two runs that took different
/// locks were measured to abort), so `/tmp` is used wherever it exists.
fn lock_dir() -> PathBuf {
    let fixed = Path::new("/tmp");
    if fixed.is_dir() {
        fixed.to_path_buf()
    } else {
        std::env::temp_dir()
    }
}

/// Takes the lock, waiting with a message on stderr if another dalembert holds it, and keeps it
/// until the process has ended (see the module documentation). Taking it again in the same
/// process does nothing.
///
/// Call it before the process starts a thread: the high descriptor grows the descriptor table,
/// which Linux does at once for a process of one thread, and only after an RCU grace period
/// (10 to 20 ms measured here, on every run) once threads share the table.
pub fn hold() -> std::io::Result<()> {
    if HELD.get().is_some() {
        return Ok(());
    }
    let file = acquire()?;
    let _ = HELD.set(high(file));
    Ok(())
}

/// Takes the lock, waiting with a message on stderr if another dalembert holds it. The lock is
/// released when the returned file is dropped; the CLI uses [`hold`], which never drops it.
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

/// `file` moved to a descriptor numbered at least [`HIGH_DESCRIPTOR`] (the lock goes with it:
/// a duplicate shares the open file description), or `file` itself where that fails.
fn high(file: File) -> File {
    let fd = file.into_raw_fd();
    // SAFETY: `fd` is an open descriptor we own; F_DUPFD_CLOEXEC returns a new one or -1.
    let moved = unsafe { libc::fcntl(fd, libc::F_DUPFD_CLOEXEC, HIGH_DESCRIPTOR) };
    // SAFETY: each descriptor is owned once: the duplicate by the new File, and the original
    // either closed (the duplicate keeps the lock) or wrapped again.
    unsafe {
        if moved >= 0 {
            libc::close(fd);
            File::from_raw_fd(moved)
        } else {
            File::from_raw_fd(fd)
        }
    }
}
