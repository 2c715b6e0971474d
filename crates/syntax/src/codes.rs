//! The diagnostic codes reported by `syntax`.
//!
//! Codes are stable: tests and documentation refer to them. `E01xx` are syntax errors.

use diagnostic::Code;

/// The text does not follow the grammar: something unexpected where something else was expected.
pub const SYNTAX: Code = Code::E0101;
/// A `{`, `(` or `[` is never closed.
pub const UNCLOSED: Code = Code::E0102;
/// A `}`, `)` or `]` that closes nothing.
pub const UNMATCHED: Code = Code::E0103;
/// A string not closed on its line.
pub const UNTERMINATED: Code = Code::E0104;
/// Brackets nested, or powers or signs towered, deeper than the parser's limit.
pub const NESTING: Code = Code::E0105;
