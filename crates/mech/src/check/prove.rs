//! The verdict on each entry, and the loop that proves every entry of every block.

use cas::Expr;
use model::System;
use syntax::ast::{ExpectBlock, ExpectEntry, Span};
use syntax::Diagnostic;

use super::keys::*;
use super::kinds::*;

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

/// Proves every `expect` block of `system` with `difference` (the derived minus the expected
/// value of an entry): the loop shared by the derivations that are not the closed form.
pub(super) fn prove_each(
    system: &System,
    skip: &dyn Fn(&ExpectBlock) -> Option<Diagnostic>,
    difference: &dyn Fn(&ExpectBlock, &ExpectEntry) -> syntax::Result<Expr>,
) -> syntax::Result<Vec<Outcome>> {
    let mut outcomes = Vec::new();
    let mut errors = Vec::new();
    for block in &system.expects {
        if let Err(e) = known_kind(block) {
            errors.extend(e);
            continue;
        }
        if let Some(e) = skip(block) {
            errors.push(e);
            continue;
        }
        for entry in &block.entries {
            match difference(block, entry) {
                Ok(difference) => outcomes.push(Outcome {
                    kind: block.kind.name.clone(),
                    key: entry_label(entry),
                    span: entry.span,
                    verdict: if difference.vanishes() {
                        Verdict::Holds
                    } else {
                        Verdict::Differs(difference)
                    },
                }),
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
