//! Resolving the `expect` blocks into [`Expectation`]s (see [`crate::expectation`]).
//!
//! The blocks are read once everything else resolved, against the [`System`]. Every problem a
//! block can have without deriving anything is reported here, located:
//!
//! - `E0401`: an unknown kind;
//! - `E0402`: a key that names nothing of this system (or has the wrong shape for its kind);
//! - `E0403`: a kind this system has nothing to compare with (constraints, vakonomic or contact
//!   kinds on the wrong system, a frame that does not exist);
//! - the value's own name errors (`E02xx`), as for any expression of the spec.
//!
//! What remains for the derivation to say (a Hamiltonian side that does not exist, a variable the
//! constraint algorithm fixed) is reported by the prover in `mech`, at the spans kept here.

use diagnostic::Code;
use diagnostic::{Diagnostic, Result, Span};
use syntax::ast::{ExpectBlock, ExpectEntry, ItemKind, Spec};

use crate::expectation::{Entry, Expectation, Family, Kind};
use crate::scope::ScopeKind;
use crate::system::System;

use super::{keys, target};

/// Resolves every `expect` block of `spec` against the resolved `system`, collecting every
/// diagnostic.
pub(super) fn expectations(system: &System, spec: &Spec) -> Result<Vec<Expectation>> {
    let mut expectations = Vec::new();
    let mut errors = Vec::new();
    for item in &spec.items {
        let ItemKind::Expect(block) = &item.kind else {
            continue;
        };
        match resolve_block(system, block) {
            Ok(expectation) => expectations.push(expectation),
            Err(e) => errors.extend(e),
        }
    }
    if errors.is_empty() {
        Ok(expectations)
    } else {
        Err(errors)
    }
}

fn resolve_block(system: &System, block: &ExpectBlock) -> Result<Expectation> {
    let kind = Kind::from_name(&block.kind.name).ok_or_else(|| {
        let names: Vec<&str> = Kind::ALL.iter().map(|k| k.name()).collect();
        vec![Diagnostic::error(
            Code::E0401,
            format!("unknown kind of expectation `{}`", block.kind.name),
            block.kind.span,
            "unknown kind",
        )
        .with_help(format!("the kinds are {}", names.join(", ")))]
    })?;
    let mut entries = Vec::new();
    let mut errors = Vec::new();
    for entry in &block.entries {
        match resolve_entry(system, kind, block.kind.span, entry) {
            Ok(entry) => entries.push(entry),
            Err(e) => errors.extend(e),
        }
    }
    if errors.is_empty() {
        Ok(Expectation {
            kind,
            kind_span: block.kind.span,
            entries,
        })
    } else {
        Err(errors)
    }
}

/// The value is read first: a key is resolved only when the value is well formed.
fn resolve_entry(
    system: &System,
    kind: Kind,
    kind_span: Span,
    entry: &ExpectEntry,
) -> Result<Entry> {
    let value = system.scope.convert(&entry.value, value_scope(kind))?;
    let target = target::target(system, kind, kind_span, entry)?;
    Ok(Entry {
        target,
        value,
        span: entry.span,
        key_span: keys::key_span(entry),
        label: keys::entry_label(entry),
    })
}

/// In which names the values of this kind are written.
fn value_scope(kind: Kind) -> ScopeKind {
    match kind.family() {
        _ if kind == Kind::VakonomicEquations => ScopeKind::Vakonomic,
        Family::Dual | Family::Vakonomic => ScopeKind::Phase,
        _ if matches!(
            kind,
            Kind::ContactHamiltonian | Kind::ContactHamiltonEquations
        ) =>
        {
            ScopeKind::Phase
        }
        Family::Dirac => ScopeKind::Frame,
        Family::Induced => ScopeKind::Induced,
        _ => ScopeKind::Observable,
    }
}
