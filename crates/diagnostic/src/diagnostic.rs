//! A diagnostic: what went wrong, where, and what to do about it.

use crate::Span;

/// The result of a stage that reports its problems as diagnostics.
pub type Result<T> = std::result::Result<T, Vec<Diagnostic>>;

/// How bad a diagnostic is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Severity {
    /// The spec is rejected.
    Error,
    /// The spec is accepted, but something looks wrong.
    Warning,
}

impl Severity {
    /// `"error"` or `"warning"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }
}

/// A span of source with a message to print under it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Label {
    /// The text the label points at (may be empty: it is then drawn as one `^` at its start).
    pub span: Span,
    /// What to say about it (may be empty).
    pub message: String,
}

impl Label {
    /// A label on `span` saying `message`.
    pub fn new(span: Span, message: impl Into<String>) -> Label {
        Label {
            span,
            message: message.into(),
        }
    }
}

/// One problem found in a spec.
///
/// Build one with [`Diagnostic::error`] or [`Diagnostic::warning`] and the `with_*` methods:
///
/// ```
/// # use diagnostic::{Diagnostic, Span};
/// let d = Diagnostic::error("E0201", "`x` is declared twice", Span::new(20, 21), "declared again here")
///     .with_secondary(Span::new(12, 13), "first declared here")
///     .with_help("remove one of the declarations");
/// assert!(d.is_error());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// Error or warning.
    pub severity: Severity,
    /// A stable code such as `"E0101"` (see `docs/diagnostics.md` when it exists; the `syntax`
    /// codes are listed in `syntax::codes`).
    pub code: &'static str,
    /// The headline, one sentence without a final period.
    pub message: String,
    /// Where the problem is.
    pub primary: Label,
    /// Other places that explain it (drawn with `-`).
    pub secondary: Vec<Label>,
    /// Extra facts (`= note: …`), printed in order.
    pub notes: Vec<String>,
    /// Suggestions (`= help: …`), printed in order after the notes.
    pub help: Vec<String>,
}

impl Diagnostic {
    /// A diagnostic of the given severity.
    pub fn new(
        severity: Severity,
        code: &'static str,
        message: impl Into<String>,
        span: Span,
        label: impl Into<String>,
    ) -> Diagnostic {
        Diagnostic {
            severity,
            code,
            message: message.into(),
            primary: Label::new(span, label),
            secondary: Vec::new(),
            notes: Vec::new(),
            help: Vec::new(),
        }
    }

    /// An error at `span`, with `label` printed under it.
    pub fn error(
        code: &'static str,
        message: impl Into<String>,
        span: Span,
        label: impl Into<String>,
    ) -> Diagnostic {
        Diagnostic::new(Severity::Error, code, message, span, label)
    }

    /// A warning at `span`, with `label` printed under it.
    pub fn warning(
        code: &'static str,
        message: impl Into<String>,
        span: Span,
        label: impl Into<String>,
    ) -> Diagnostic {
        Diagnostic::new(Severity::Warning, code, message, span, label)
    }

    /// Adds a secondary label.
    pub fn with_secondary(mut self, span: Span, message: impl Into<String>) -> Diagnostic {
        self.secondary.push(Label::new(span, message));
        self
    }

    /// Adds a `= note: …` line.
    pub fn with_note(mut self, note: impl Into<String>) -> Diagnostic {
        self.notes.push(note.into());
        self
    }

    /// Adds a `= help: …` line.
    pub fn with_help(mut self, help: impl Into<String>) -> Diagnostic {
        self.help.push(help.into());
        self
    }

    /// Whether this is an error (rather than a warning).
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

impl From<Diagnostic> for Vec<Diagnostic> {
    fn from(diagnostic: Diagnostic) -> Vec<Diagnostic> {
        vec![diagnostic]
    }
}
