//! Where a run's time goes: named stages, nested as the pipeline nests them, timed only when a
//! run asks for it (`dalembert derive --profile`).
//!
//! A stage is a scope: [`stage`] returns a guard, and the time until the guard drops is added to
//! the stage's *path*, the names of the stages open around it (`derive/closed-form probe/simplify`).
//! A stage opened inside a stage of the same name (a simplification that simplifies) is not a
//! new stage: its time is already counted by the outer one. The report lists every path in the
//! order it was first entered, with its total wall time and the number of times it was entered,
//! so a parent's time minus its children's is the time spent in the parent itself.
//!
//! Timing is off unless [`enable`] was called: then a stage costs one relaxed atomic load. The
//! state is per thread, and every symbolic stage of dalembert runs on one thread; a stage opened
//! on another thread is reported separately by that thread's [`report`], unless that thread hands
//! its lines over ([`take`]) to the thread it worked for, which adds them under its open stages
//! ([`absorb`]): then a stage's children, run side by side, may sum to more than its own wall
//! time. Times are wall time and never reach an artifact: a profile is a diagnostic of one run,
//! not an output.
#![warn(missing_docs)]

use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

static ENABLED: AtomicBool = AtomicBool::new(false);

thread_local! {
    static STATE: RefCell<State> = RefCell::new(State::default());
}

/// The open stages and the totals of one thread.
#[derive(Default)]
struct State {
    /// The names of the open stages, outermost first.
    open: Vec<&'static str>,
    /// Every path entered, in the order first entered.
    lines: Vec<Line>,
}

/// One path of the report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// The names of the stages from the outermost to this one.
    pub path: Vec<&'static str>,
    /// The wall time spent in it, summed over its entries.
    pub total: Duration,
    /// How many times it was entered.
    pub entries: u64,
}

/// Turns timing on for the rest of the process.
pub fn enable() {
    ENABLED.store(true, Ordering::Relaxed);
}

/// Whether timing is on.
pub fn enabled() -> bool {
    ENABLED.load(Ordering::Relaxed)
}

/// Opens the stage `name` inside the stages open on this thread; it closes when the guard drops.
#[must_use = "the stage closes when the guard drops"]
pub fn stage(name: &'static str) -> Stage {
    if !enabled() {
        return Stage { start: None };
    }
    let opened = STATE.with(|state| {
        let mut state = state.borrow_mut();
        if state.open.contains(&name) {
            return false;
        }
        state.open.push(name);
        true
    });
    Stage {
        start: opened.then(Instant::now),
    }
}

/// Times `f` as the stage `name`.
pub fn timed<T>(name: &'static str, f: impl FnOnce() -> T) -> T {
    let _stage = stage(name);
    f()
}

/// An open stage (see [`stage`]).
pub struct Stage {
    /// When it opened, or `None` when it counts nothing (timing off, or a stage of the same name
    /// already open).
    start: Option<Instant>,
}

impl Drop for Stage {
    fn drop(&mut self) {
        let Some(start) = self.start else { return };
        let elapsed = start.elapsed();
        STATE.with(|state| {
            let mut state = state.borrow_mut();
            let path = state.open.clone();
            state.open.pop();
            add(
                &mut state.lines,
                Line {
                    path,
                    total: elapsed,
                    entries: 1,
                },
            );
        });
    }
}

/// The lines of this thread so far, removed from it: for a thread that worked for another, to
/// hand to it ([`absorb`]).
pub fn take() -> Vec<Line> {
    STATE.with(|state| std::mem::take(&mut state.borrow_mut().lines))
}

/// Adds `lines`, taken on another thread ([`take`]), under the stages open on this thread: each
/// path is prefixed by the open stages, and its time and entries are added to that path's.
pub fn absorb(lines: Vec<Line>) {
    STATE.with(|state| {
        let mut state = state.borrow_mut();
        let open = state.open.clone();
        for line in lines {
            let path = open.iter().chain(&line.path).copied().collect();
            add(&mut state.lines, Line { path, ..line });
        }
    });
}

/// `line`'s time and entries added to the line of its path, which is inserted where a path first
/// closed goes when it is new ([`insertion_point`]).
fn add(lines: &mut Vec<Line>, line: Line) {
    match lines.iter_mut().find(|known| known.path == line.path) {
        Some(known) => {
            known.total += line.total;
            known.entries += line.entries;
        }
        None => {
            let at = insertion_point(lines, &line.path);
            lines.insert(at, line);
        }
    }
}

/// Where a path first closed goes among the lines: before the first line it is a prefix of (its
/// children close before it does), so that a parent is listed before its children.
fn insertion_point(lines: &[Line], path: &[&'static str]) -> usize {
    lines
        .iter()
        .position(|line| line.path.len() > path.len() && line.path.starts_with(path))
        .unwrap_or(lines.len())
}

/// The totals of this thread so far, parents before their children.
pub fn report() -> Vec<Line> {
    STATE.with(|state| state.borrow().lines.clone())
}

/// [`report`] as a table: one line per path, indented by depth, with milliseconds and entries.
pub fn table() -> String {
    let mut out = String::from("stage                                          ms    entries\n");
    for line in report() {
        let name = format!(
            "{}{}",
            "  ".repeat(line.path.len() - 1),
            line.path.last().copied().unwrap_or("")
        );
        out.push_str(&format!(
            "{name:<40} {:>10.1} {:>10}\n",
            line.total.as_secs_f64() * 1e3,
            line.entries
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paths() -> Vec<String> {
        report()
            .into_iter()
            .map(|line| format!("{}x{}", line.path.join("/"), line.entries))
            .collect()
    }

    #[test]
    fn stages_nest_parents_first_and_a_repeated_name_counts_once() {
        enable();
        {
            let _derive = stage("derive");
            for _ in 0..2 {
                let _simplify = stage("simplify");
                let _inner = stage("simplify");
            }
            timed("probe", || {
                let _simplify = stage("simplify");
            });
        }
        timed("emit", || ());
        assert_eq!(
            paths(),
            [
                "derivex1",
                "derive/simplifyx2",
                "derive/probex1",
                "derive/probe/simplifyx1",
                "emitx1"
            ]
        );
        let total = |name: &str| {
            report()
                .into_iter()
                .find(|line| line.path.join("/") == name)
                .map(|line| line.total)
                .unwrap()
        };
        assert!(total("derive") >= total("derive/simplify") + total("derive/probe"));
        assert!(table().contains("\n    simplify"));
    }

    /// Stages run on a thread that worked for this one land under the stages open here, their
    /// entries added to this thread's own, and leave the other thread's lines empty.
    #[test]
    fn lines_taken_on_another_thread_are_absorbed_under_the_open_stages() {
        enable();
        let helper = std::thread::spawn(|| {
            for _ in 0..2 {
                let _jacobian = stage("jacobian");
                let _cse = stage("cse");
            }
            let lines = take();
            assert!(report().is_empty(), "taken lines leave the thread");
            lines
        });
        let lines = helper.join().unwrap();
        {
            let _c = stage("c");
            let _functions = stage("functions");
            timed("jacobian", || ());
            absorb(lines);
        }
        assert_eq!(
            paths(),
            [
                "cx1",
                "c/functionsx1",
                "c/functions/jacobianx3",
                "c/functions/jacobian/csex2"
            ]
        );
    }
}
