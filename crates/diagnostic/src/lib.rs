//! The diagnostic vocabulary of dalembert: where a problem is, what it is, and how it is shown.
//!
//! Every stage of the compiler — the parser (`syntax`), name resolution (`model`), the
//! derivations and the proofs of `expect` blocks (`mech`) — reports problems the same way: a
//! [`Diagnostic`] with a stable [`Code`] (`E0101`, `E0402`, …), a headline, a primary [`Label`]
//! on the [`Span`] of spec text it is about, secondary labels, notes and help lines. A stage
//! collects as many as it can before giving up, so its [`Result`] carries a `Vec` of them. The
//! problems that have no place in the spec — the command line's arguments, the budgets of the
//! outputs, the files — are diagnostics too, without a primary label
//! ([`Diagnostic::unlocated`]).
//!
//! A [`Span`] is a byte range of the spec's source text; nothing here knows the syntax tree, so a
//! stage that never sees the tree (`mech`) can still point at the text a problem comes from.
//!
//! Two renderers turn diagnostics into text: [`render_plain`] (deterministic, uncoloured, the form
//! golden files store) and [`render_terminal`] (coloured, through `codespan-reporting`).
//!
//! ```
//! use diagnostic::{render_plain, Code, Diagnostic, Span};
//!
//! let source = "system s\nlagrangian m/2*u^2\n";
//! let d = Diagnostic::error(Code::E0101, "expected `=`, found `m`", Span::new(20, 21), "expected `=`")
//!     .with_help("write `lagrangian = EXPR`");
//! assert!(render_plain("ball.mech", source, &[d]).starts_with("error[E0101]"));
//! ```
#![warn(missing_docs)]

mod code;
mod diagnostic;
mod render;

pub use code::Code;
pub use codespan_reporting::term::termcolor;
pub use diagnostic::{Diagnostic, Label, Result, Severity};
pub use render::{line_col, render_plain, render_terminal};

/// A byte range `start..end` in the spec's source text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Span {
    /// Byte offset of the first character.
    pub start: usize,
    /// Byte offset one past the last character.
    pub end: usize,
}

impl Span {
    /// The span `start..end`.
    pub fn new(start: usize, end: usize) -> Span {
        Span { start, end }
    }
    /// The smallest span covering both.
    pub fn join(self, other: Span) -> Span {
        Span::new(self.start.min(other.start), self.end.max(other.end))
    }
}
