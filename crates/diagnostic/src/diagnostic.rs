//! A diagnostic: what went wrong, where, and what to do about it.

use crate::{Code, Span};

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

/// One problem found in a spec, or in a run on it.
///
/// Build one with [`Diagnostic::error`] or [`Diagnostic::warning`] and the `with_*` methods:
///
/// ```
/// # use diagnostic::{Code, Diagnostic, Span};
/// let d = Diagnostic::error(Code::E0201, "`x` is declared twice", Span::new(20, 21), "declared again here")
///     .with_secondary(Span::new(12, 13), "first declared here")
///     .with_help("remove one of the declarations");
/// assert!(d.is_error());
/// ```
///
/// A problem that has no place in the spec's text — a budget of the outputs, an argument of the
/// command line, a file that cannot be read — is [`Diagnostic::unlocated`]: it has no labels, and
/// is printed as its headline and its notes.
///
/// ```
/// # use diagnostic::{render_plain, Code, Diagnostic};
/// let d = Diagnostic::unlocated(Code::E0502, "the emitted function `rhs` is too large")
///     .with_help("raise --max-ops");
/// assert_eq!(d.span(), None);
/// assert_eq!(
///     render_plain("ball.mech", "", &[d]),
///     "error[E0502]: the emitted function `rhs` is too large\n = help: raise --max-ops\n"
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// Error or warning.
    pub severity: Severity,
    /// Its stable code, such as `E0101` (every code is listed in `docs/errors.md`; the `syntax`
    /// codes are listed in `syntax::codes`).
    pub code: Code,
    /// The headline, one sentence without a final period.
    pub message: String,
    /// Where the problem is: `None` for a problem that has no place in the spec (see
    /// [`Diagnostic::unlocated`]).
    pub primary: Option<Label>,
    /// Other places that explain it (drawn with `-`; a diagnostic without a primary label has
    /// none).
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
        code: Code,
        message: impl Into<String>,
        span: Span,
        label: impl Into<String>,
    ) -> Diagnostic {
        Diagnostic {
            severity,
            code,
            message: message.into(),
            primary: Some(Label::new(span, label)),
            secondary: Vec::new(),
            notes: Vec::new(),
            help: Vec::new(),
        }
    }

    /// An error at `span`, with `label` printed under it.
    pub fn error(
        code: Code,
        message: impl Into<String>,
        span: Span,
        label: impl Into<String>,
    ) -> Diagnostic {
        Diagnostic::new(Severity::Error, code, message, span, label)
    }

    /// An error that has no place in the spec: a budget of the outputs, an argument of the
    /// command line, a file that cannot be read. It is printed as `error[E0502]: message` and its
    /// notes, without a source line.
    pub fn unlocated(code: Code, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Error,
            code,
            message: message.into(),
            primary: None,
            secondary: Vec::new(),
            notes: Vec::new(),
            help: Vec::new(),
        }
    }

    /// An internal error (E0516): a defect of dalembert found while making the outputs — a
    /// template that does not render, a reduced spec that does not read back — not a problem of
    /// the spec or of the command line. Printed as `error[E0516]: internal error: message`.
    pub fn internal(message: impl std::fmt::Display) -> Diagnostic {
        Diagnostic::unlocated(Code::E0516, format!("internal error: {message}"))
    }

    /// A warning at `span`, with `label` printed under it.
    pub fn warning(
        code: Code,
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

    /// The span of spec text the problem is about, when it has one.
    pub fn span(&self) -> Option<Span> {
        self.primary.as_ref().map(|label| label.span)
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
