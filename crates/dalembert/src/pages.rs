//! The command line's memory in ordinary pages.
//!
//! mimalloc asks the kernel for transparent huge pages on its arenas (`MADV_HUGEPAGE`), and where
//! the kernel then compacts memory to find one at the page fault (`defrag` set to `madvise`, a
//! common default), the run waits for it. Measured on this project's 2-core machine (Linux 6.1,
//! `perf stat -r 5`): the 100-link chain of bodies with `--emit c` took 0.62 s ± 12% with the
//! processor busy 85% of it, against 0.54 s ± 0.8% and 98% in ordinary pages; the five-link
//! chain 36 ms ± 6% against 32 ms ± 0.8%; the slowest golden (the discrete rolling disc, 1 s)
//! did not move. Only the time changes, never an output.
//!
//! mimalloc is also built without its own request (its `no_thp` feature, in `Cargo.toml`): it
//! marked its arena before `main` runs, where this call comes too late, and the first faults in
//! it each zeroed a 2 MB page. That cost every run about half a millisecond at its start
//! (`dalembert --version` 2.3 → 1.9 ms, a one-coordinate spec's C 7.8 → 7.1 ms; min of 31
//! interleaved fresh runs). The call here still serves where the kernel backs memory with huge
//! pages without being asked (`enabled` set to `always`).

/// Asks the kernel not to back this process's memory with transparent huge pages from now on
/// (`PR_SET_THP_DISABLE`: it holds at every later page fault, in the arenas mimalloc reserved
/// before `main` too). Elsewhere than on Linux, and where the kernel refuses, nothing changes.
pub fn without_huge_pages() {
    #[cfg(target_os = "linux")]
    // SAFETY: PR_SET_THP_DISABLE takes an integer flag and touches no memory of the caller; a
    // failure leaves the process as it was.
    unsafe {
        libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0);
    }
}

#[cfg(test)]
mod tests {
    #[cfg(target_os = "linux")]
    #[test]
    fn the_process_is_left_without_huge_pages() {
        super::without_huge_pages();
        // SAFETY: PR_GET_THP_DISABLE reads a flag of the calling process.
        let disabled = unsafe { libc::prctl(libc::PR_GET_THP_DISABLE, 0, 0, 0, 0) };
        assert_eq!(disabled, 1);
    }
}
