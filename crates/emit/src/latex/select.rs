//! What a LaTeX document holds (`--latex-sections`) and the level of its sections
//! (`--latex-level`): the quantities a reader sees, selected by their JSON paths, and the
//! sections that hold them.

use diagnostic::{Code, Diagnostic};
use model::System;
use report::{Block, Quantity, Report, Section};

use super::displayed;

/// What a document holds and at which level its sections start (`--latex-level`,
/// `--latex-sections`, `docs/latex.md`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LatexOptions {
    /// The sectioning command of the report's top sections.
    pub level: SectionLevel,
    /// The displayed quantities to keep, by their JSON paths (`equations`, `multipliers`,
    /// `hamiltonian.bracket`, …), with the sections that hold them; empty keeps everything.
    pub keys: Vec<String>,
}

/// The sectioning command of a document's top sections (deeper ones follow it, down to
/// `\paragraph`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SectionLevel {
    /// `\section` (a standalone document, or a paper's own section per system).
    #[default]
    Section,
    /// `\subsection` (a body `\input` inside a paper's section).
    Subsection,
    /// `\subsubsection`.
    Subsubsection,
}

impl SectionLevel {
    /// The sectioning command at `depth` below this level.
    pub(super) fn command(self, depth: usize) -> &'static str {
        ["section", "subsection", "subsubsection", "paragraph"][(self as usize + depth).min(3)]
    }
}

/// Whether a reader sees anything of `s`: prose, or a quantity with something to display; with
/// a selection of `keys`, a selected quantity (prose alone does not keep a section then).
/// `within` is the JSON path of the enclosing sections (`hamiltonian.`, or empty).
pub(super) fn shown(s: &Section, system: &System, keys: &[String], within: &str) -> bool {
    let within = inside(within, s);
    s.blocks.iter().any(|b| match b {
        Block::Prose(_) => keys.is_empty(),
        Block::Quantity(q) => selected(q, keys, &within) && displayed(q, system),
        Block::Section(inner) => shown(inner, system, keys, &within),
    })
}

/// The JSON path inside `s`, from the path `within` of the sections around it: a section with a
/// key is an object of the JSON document (`hamiltonian.`), one without adds its quantities to
/// the enclosing object.
pub(super) fn inside(within: &str, s: &Section) -> String {
    match &s.key {
        Some(key) => format!("{within}{key}."),
        None => within.to_string(),
    }
}

/// Whether `q`, inside the JSON path `within`, is among `keys` (every quantity is when there is
/// no selection): `equations` selects the top-level equations, `hamiltonian.equations` the
/// Hamiltonian side's.
pub(super) fn selected(q: &Quantity, keys: &[String], within: &str) -> bool {
    keys.is_empty() || keys.contains(&format!("{within}{}", q.key))
}

/// The JSON paths of the quantities a reader of `s` sees, in the document's order.
fn displayed_keys(s: &Section, system: &System, within: &str, out: &mut Vec<String>) {
    let within = inside(within, s);
    for block in &s.blocks {
        match block {
            Block::Quantity(q) if displayed(q, system) => {
                let path = format!("{within}{}", q.key);
                if !out.contains(&path) {
                    out.push(path);
                }
            }
            Block::Section(inner) => displayed_keys(inner, system, &within, out),
            _ => {}
        }
    }
}

/// Every key of `keys` is a quantity the report displays, or an error naming the ones it does.
pub(super) fn check_keys(
    report: &Report,
    system: &System,
    keys: &[String],
) -> diagnostic::Result<()> {
    let mut known = Vec::new();
    for s in &report.sections {
        displayed_keys(s, system, "", &mut known);
    }
    let unknown: Vec<&String> = keys.iter().filter(|k| !known.contains(k)).collect();
    if unknown.is_empty() {
        return Ok(());
    }
    Err(vec![Diagnostic::unlocated(
        Code::E0514,
        format!(
            "--latex-sections: the document of `{}` displays no {}; it displays {}",
            report.system,
            unknown
                .iter()
                .map(|k| format!("`{k}`"))
                .collect::<Vec<_>>()
                .join(", "),
            known.join(", ")
        ),
    )])
}
