//! The front end of dalembert: spec text in, [`ast::Spec`] or [`Diagnostic`]s out.
//!
//! The language is described in `docs/spec-language.md` and its grammar is
//! `grammar/dalembert.pest`. [`parse`] turns a spec into its syntax tree, every node of which
//! carries the [`Span`] of its text; it does not resolve names or interpret expressions (that is
//! the job of the `model` crate). When the text is not a spec, [`parse`] reports as many syntax
//! errors as it can find, each at the offending place with a readable message.
//!
//! The [`Diagnostic`] type, used by every later stage as well, lives in the `diagnostic` crate
//! with its deterministic plain renderer ([`render_plain`]) and its coloured one
//! ([`render_terminal`]); they are re-exported here.
//!
//! ```
//! let spec = syntax::parse("system pendulum\ncoordinates theta\nalgebroid tangent\n").unwrap();
//! assert_eq!(spec.items.len(), 3);
//!
//! let source = "system pendulum\nlagrangian = theta'^2/2 +\n";
//! let errors = syntax::parse(source).unwrap_err();
//! assert_eq!(
//!     syntax::render_plain("pendulum.mech", source, &errors),
//!     "\
//! error[E0101]: expected an expression, found end of file
//!  --> pendulum.mech:3:1
//!   |
//! 3 |
//!   | ^ expected an expression
//! "
//! );
//! ```
#![warn(missing_docs)]

pub mod ast;
pub mod codes;
mod fast;
#[cfg(test)]
mod fast_tests;
mod grammar;
mod nesting;
mod parse;
mod print;
mod recover;
#[cfg(test)]
mod tests;

pub use ast::{Ident, Span, Spec};
pub use diagnostic::{
    line_col, render_plain, render_terminal, termcolor, Code, Diagnostic, Label, Result, Severity,
};
pub use parse::{parse, parse_expr};
