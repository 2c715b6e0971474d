//! Work on plain data spread over two threads.
//!
//! Every use of the CAS stays on the one thread that derives (the `cas` crate's rule: a second
//! thread that uses it is refused). What the emitter computes on plain data may use the second
//! core meanwhile: on programs that hold no expression ([`cas::program::Program::is_plain`]),
//! their forward differentiation, selection, scheduling and equality saturation; on any
//! program, its printing into statements, which reads its nodes and never its expressions.
//! [`map`] runs such jobs on the calling thread and one more, the costliest first by an
//! estimate the caller gives (so that the last job to start is a short one), each thread taking
//! the next job when it is free, and returns the results in the order of the items, so what it
//! returns does not depend on which thread ran what. The stages the other thread times
//! (`--profile`) are added to the stages open on the calling thread.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// `job` of every item, in the order of `items`, computed by the calling thread and one more
/// (by the calling thread alone when no thread can be started, or for a single item), started
/// in decreasing order of `cost` (an estimate; ties in the order of the items). `job` must not
/// use the CAS.
pub fn map<T: Sync, R: Send>(
    items: &[T],
    cost: impl Fn(&T) -> usize,
    job: impl Fn(&T) -> R + Sync,
) -> Vec<R> {
    if items.len() < 2 {
        return items.iter().map(job).collect();
    }
    let mut order: Vec<usize> = (0..items.len()).collect();
    order.sort_by_key(|&k| std::cmp::Reverse(cost(&items[k])));
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<R>>> = Mutex::new(items.iter().map(|_| None).collect());
    let work = || {
        while let Some(&k) = order.get(next.fetch_add(1, Ordering::Relaxed)) {
            let result = job(&items[k]);
            results.lock().unwrap_or_else(|e| e.into_inner())[k] = Some(result);
        }
    };
    std::thread::scope(|scope| {
        // The helper's stages (`--profile`) are added to the stages open here.
        let helper = std::thread::Builder::new().spawn_scoped(scope, || {
            work();
            timing::take()
        });
        work();
        if let Ok(helper) = helper {
            match helper.join() {
                Ok(lines) => timing::absorb(lines),
                Err(panic) => std::panic::resume_unwind(panic),
            }
        }
    });
    results
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .into_iter()
        .map(|r| r.expect("every item is taken by a thread that finishes"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::map;

    #[test]
    fn results_keep_the_order_of_the_items() {
        let items: Vec<u64> = (0..100).collect();
        // Uneven work and costs out of order, so the threads interleave.
        let cost = |&k: &u64| (k * 37 % 11) as usize;
        let squares = map(&items, cost, |&k| {
            std::thread::sleep(std::time::Duration::from_micros(k % 7 * 50));
            k * k
        });
        assert_eq!(squares, items.iter().map(|k| k * k).collect::<Vec<_>>());
        assert_eq!(map(&[3u8], |_| 0, |&k| k + 1), vec![4]);
        assert!(map(&[] as &[u8], |_| 0, |&k| k).is_empty());
    }
}
