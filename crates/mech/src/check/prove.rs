//! The verdict on each entry, and the loop that proves every entry of every block.

use cas::Expr;
use diagnostic::Code;
use diagnostic::{Diagnostic, Result, Span};
use model::{Entry, Expectation, System};
use report::{At, Report};

/// The verdict on one entry.
#[derive(Clone, Debug)]
pub enum Verdict {
    /// Derived and expected agree on the constraint surface.
    Holds,
    /// They differ by this (derived − expected, restricted to the constraint surface).
    Differs(Expr),
}

/// One checked entry.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The block kind.
    pub kind: String,
    /// The entry's key as written (or the expression, for keyless kinds).
    pub key: String,
    /// Where the entry is.
    pub span: Span,
    /// What was found.
    pub verdict: Verdict,
}

impl Outcome {
    /// The outcome of `entry` of `expectation` whose derived minus expected value is
    /// `difference`.
    pub(super) fn of(expectation: &Expectation, entry: &Entry, difference: Expr) -> Outcome {
        Outcome {
            kind: expectation.kind.name().to_string(),
            key: entry.label.clone(),
            span: entry.span,
            verdict: if difference.vanishes() {
                Verdict::Holds
            } else {
                Verdict::Differs(difference)
            },
        }
    }
}

/// Proves every expectation of `system` with `difference` (the derived minus the expected value
/// of an entry): the loop every derivation's prover shares. `skip` refuses a whole block.
pub(super) fn prove_each(
    system: &System,
    skip: &dyn Fn(&Expectation) -> Option<Diagnostic>,
    difference: &dyn Fn(&Expectation, &Entry) -> Result<Expr>,
) -> Result<Vec<Outcome>> {
    let mut outcomes = Vec::new();
    let mut errors = Vec::new();
    for expectation in &system.expectations {
        if let Some(e) = skip(expectation) {
            errors.push(e);
            continue;
        }
        for entry in &expectation.entries {
            match difference(expectation, entry) {
                Ok(difference) => outcomes.push(Outcome::of(expectation, entry, difference)),
                Err(e) => errors.extend(e),
            }
        }
    }
    if errors.is_empty() {
        Ok(outcomes)
    } else {
        Err(errors)
    }
}

/// E0402 at an entry's key: the key names something the derivation does not have.
pub(super) fn bad_key(span: Span, message: impl Into<String>, expected: &str) -> Vec<Diagnostic> {
    vec![Diagnostic::error(Code::E0402, message, span, "this key")
        .with_help(format!("expected {expected}"))]
}

/// The entry at `at` of the quantity at `path` of a report: the derived value an entry is proved
/// against, or E0404 when the report does not hold it.
pub(super) fn read_filed(
    report: &Report,
    path: &[&str],
    at: At,
    expectation: &Expectation,
    entry: &Entry,
) -> Result<Expr> {
    report
        .find(path)
        .and_then(|q| q.value.at(at))
        .cloned()
        .ok_or_else(|| {
            vec![Diagnostic::error(
                Code::E0404,
                format!("this derivation does not give `{}`", path.join(".")),
                entry.span,
                "this entry",
            )
            .with_note(format!(
                "`expect {}` is proved against the derivation's report, which has no such entry",
                expectation.kind
            ))]
        })
}
