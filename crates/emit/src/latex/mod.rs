//! The LaTeX target, written from a report (`report::Report`) into the one document template
//! `templates/latex/document.tex`: a section per report section, its prose as paragraphs, and
//! each quantity for readers as numbered, labelled equations (`align`), tables of brackets by
//! their non-zero entries, matrices as `pmatrix`, forms as sums over their basis.
//!
//! Expressions are printed by [`cas::print::latex`] with the system's LaTeX names (dots for
//! velocities, Greek letters, subscripts). Long equations are broken by [`lines`], by their
//! structure and by how wide they print, to fit one column of a two-column paper.

use std::collections::BTreeSet;

use cas::Expr;
use diagnostic::Diagnostic;
use model::System;
use report::{
    Audience, Block, Form, FormCoefficients, Key, Quantity, Report, Section, Shown, Value,
};
use tera::Context;

use crate::{display, Artifact};

mod citations;
mod decimals;
mod lines;
mod select;

use citations::cite;
use decimals::{decimal_pmatrix, sparse_decimals, DECIMAL_COLUMNS};
use lines::{fill, is_long, lay, moved_left, pieces, width, EQUALS, QUAD, WIDTH};
use select::{check_keys, inside, selected, shown};
pub use select::{LatexOptions, SectionLevel};

/// The largest expression (tree nodes) a document typesets; a larger one is named by its size
/// and left to the JSON output (a 6-joint arm's implicit forcing has hundreds of thousands of
/// nodes, past what TeX's memory holds). The closed-form route's objects are all smaller: it
/// accepts entries up to the same size (`mech::base::route::CLOSED_FORM_TERMS`).
const TYPESET_NODES: usize = 20_000;

/// The rows of an `align` above which it may break across columns and pages (within a local
/// `\\allowdisplaybreaks`): about a third of a column of a two-column article, so that a short
/// display stays whole and a long one does not run off the page.
const BREAKABLE_ROWS: usize = 16;

/// The rows of one displayed equation above which it is not typeset (about a column of a
/// two-column article at 10pt): its left-hand side is shown with a note, and the expression is
/// left to the JSON output, where it is in full.
const COLUMN_ROWS: usize = 60;

/// The one row that stands for an equation of `block`'s rows that is too long to print.
fn elided(block: &[String]) -> String {
    let first = &block[0];
    let lhs = match first.split_once('&') {
        Some((lhs, _)) if !lhs.trim().is_empty() => lhs.trim().to_string(),
        // A left-hand side on a row of its own (`&W \dot y`).
        _ => first.trim_start_matches('&').trim().to_string(),
    };
    format!(
        "{lhs} &= \\text{{\\textit{{(an expression of {} printed rows)}}}}",
        block.len()
    )
}

fn tex(system: &System, e: &Expr) -> String {
    // Printed before, alone or as a part of an expression that was typeset: it is not too large
    // to typeset either, and its size need not be counted again.
    if let Some(text) = with_memo(|memo| memo.and_then(|m| m.printed(e))) {
        return text;
    }
    let size = e.size();
    if size > TYPESET_NODES {
        return format!(
            r"\text{{\textit{{(an expression of {size} nodes: see the JSON output)}}}}"
        );
    }
    timing::timed("print latex", || {
        with_memo(|memo| match memo {
            Some(memo) => memo.latex(e, &system),
            None => cas::print::latex(e, &system),
        })
    })
}

/// Runs `f` with the printing memo of the document being written, if one is.
fn with_memo<R>(f: impl FnOnce(Option<&cas::print::LatexMemo>) -> R) -> R {
    PRINTED.with(|p| f(p.borrow().as_ref()))
}

std::thread_local! {
    /// What was printed while one document is written (its system fixed): breaking a long
    /// equation prints a term, then its factors, then theirs, and the `align` is broken twice
    /// (the second time to its left column's width), so the same expressions come back many
    /// times. Looked up only, never iterated.
    static PRINTED: std::cell::RefCell<Option<cas::print::LatexMemo>> =
        const { std::cell::RefCell::new(None) };
}

/// Holds the printing memo of one document, emptied when dropped.
struct PrintedCache;

impl PrintedCache {
    fn open() -> PrintedCache {
        PRINTED.with(|p| *p.borrow_mut() = Some(cas::print::LatexMemo::new()));
        lines::open_broken();
        PrintedCache
    }
}

impl Drop for PrintedCache {
    fn drop(&mut self) {
        PRINTED.with(|p| *p.borrow_mut() = None);
        lines::close_broken();
    }
}

/// Joins equations into `align*` lines with `\\` between equations and between broken lines.
fn align(blocks: Vec<Vec<String>>) -> Vec<String> {
    let lines: Vec<String> = blocks.into_iter().flatten().collect();
    let last = lines.len().saturating_sub(1);
    lines
        .into_iter()
        .enumerate()
        .map(|(i, l)| if i < last { format!("{l} \\\\") } else { l })
        .collect()
}

/// The LaTeX documents of a report of `system`: `<system>-body.tex`, which any article with
/// `amsmath` and `amssymb` can `\input` (one numbered, `\label`ed equation per displayed entry,
/// labels `eq:<system>:<section keys>:<quantity key>[:<entry>]`, see `docs/latex.md`), and
/// `<system>.tex`, a standalone article around it. `options` selects the quantities shown and
/// the level of the sections; a key it names that the report does not display is an error that
/// lists the keys there are.
pub fn latex(
    report: &Report,
    system: &System,
    options: &LatexOptions,
) -> diagnostic::Result<Vec<Artifact>> {
    let _cache = PrintedCache::open();
    check_keys(report, system, &options.keys)?;
    let mut writer = Writer {
        system,
        labels: BTreeSet::new(),
        out: Vec::new(),
        cited: report.references.iter().map(|r| r.label.clone()).collect(),
        options,
    };
    let root = vec![report.system.clone()];
    for s in &report.sections {
        writer.section(s, 0, (&root, ""));
    }
    let mut ctx = Context::new();
    ctx.insert("version", env!("CARGO_PKG_VERSION"));
    ctx.insert("spec", &format!("system {}", report.system));
    ctx.insert("name", &report.system.replace('_', "\\_"));
    ctx.insert("file", &report.system);
    ctx.insert("title", &report.title);
    ctx.insert("body", &writer.out.join("\n"));
    let references: Vec<String> = report
        .references
        .iter()
        .map(|r| format!("\\bibitem[{0}]{{{0}}} {1}", r.label, r.full))
        .collect();
    ctx.insert("references", &references);
    let entries: Vec<&str> = report
        .references
        .iter()
        .map(|r| r.bibtex.as_str())
        .collect();
    ctx.insert("entries", &entries);
    let render = |name: &str| {
        crate::templates::render(&format!("latex/{name}"), &ctx).map_err(|e| {
            vec![Diagnostic::internal(format!(
                "template latex/{name}: {e:?}"
            ))]
        })
    };
    let mut artifacts = vec![
        Artifact::file(format!("{}.tex", report.system), render("document.tex")?),
        Artifact::file(format!("{}-body.tex", report.system), render("body.tex")?),
    ];
    if !report.references.is_empty() {
        artifacts.push(Artifact::file(
            format!("{}.bib", report.system),
            render("references.bib")?,
        ));
    }
    Ok(artifacts)
}

/// Whether a quantity shows anything: not data only, and not a table or list whose every
/// entry is left out (identities such as `ẋ = ẋ`, zeros of a sparse table).
fn displayed(q: &Quantity, system: &System) -> bool {
    if q.audience == Audience::Data {
        return false;
    }
    let display = Display {
        system,
        q,
        column: 0.0,
    };
    // Decided without breaking a row: a long equation is broken once, when it is written.
    match &q.value {
        Value::List(items) => items.iter().any(|v| matches!(v, Value::Expr(_))),
        Value::Table(entries) => entries.iter().any(|(k, v)| display.shows_entry(k, v)),
        _ => true,
    }
}

/// The symbol of the entry `(i, j)` of an `n × n` matrix: `W_{12}`, with a comma from ten rows
/// up, where `W_{111}` would not say which entry it is (`W_{1,11}`).
fn entry_symbol(symbol: &str, i: usize, j: usize, n: usize) -> String {
    if n >= 10 {
        format!("{symbol}_{{{i},{j}}}")
    } else {
        format!("{symbol}_{{{i}{j}}}")
    }
}

/// Whether a displayed equation (its lines) is an identity, its two sides printed alike
/// (`\dot{x} &= \dot{x}`, `\rho(\partial_{x}) &= \partial_{x}` is not).
fn is_identity(lines: &[String]) -> bool {
    match lines {
        [line] => line
            .split_once("&=")
            .is_some_and(|(left, right)| left.trim() == right.trim()),
        _ => false,
    }
}

/// A label-safe form of a key: letters, digits and underscores kept, a prime read `dot`,
/// everything else a hyphen (`{x, y'}` → `x-ydot`).
fn label_part(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars() {
        match c {
            c if c.is_ascii_alphanumeric() || c == '_' => out.push(c),
            '\'' => out.push_str("dot"),
            _ if out.ends_with('-') || out.is_empty() => {}
            _ => out.push('-'),
        }
    }
    out.trim_end_matches('-').to_string()
}

/// Writes the body of a document: sections, prose, and labelled equations.
struct Writer<'a> {
    system: &'a System,
    /// Labels given so far (a repeated one gets a numeric suffix).
    labels: BTreeSet<String>,
    out: Vec<String>,
    /// The labels of the papers the report cites (`[IMMS07, §3]` becomes `\cite[§3]{IMMS07}`).
    cited: Vec<String>,
    /// What the document holds, and its sections' level.
    options: &'a LatexOptions,
}

impl Writer<'_> {
    /// Appends a section at `depth` (0: `\section`); `path` is the label prefix, `within` the
    /// JSON path of the sections around it.
    fn section(&mut self, s: &Section, depth: usize, (path, within): (&[String], &str)) {
        if !shown(s, self.system, &self.options.keys, within) {
            return;
        }
        let within = inside(within, s);
        let mut path = path.to_vec();
        if let Some(key) = &s.key {
            path.push(label_part(key));
        }
        let command = self.options.level.command(depth);
        self.out.push(String::new());
        self.out.push(format!("\\{command}{{{}}}", s.title));
        for block in &s.blocks {
            match block {
                Block::Prose(p) => self.out.push(cite(p, &self.cited)),
                Block::Quantity(q) if q.audience == Audience::Data => {}
                Block::Quantity(q) => self.quantity(q, &path, &within),
                Block::Section(inner) => self.section(inner, depth + 1, (&path, &within)),
            }
        }
    }

    /// Appends a quantity: its prose, then its value displayed, each equation numbered and
    /// labelled.
    fn quantity(&mut self, q: &Quantity, path: &[String], within: &str) {
        if !selected(q, &self.options.keys, within) || !displayed(q, self.system) {
            return;
        }
        if let Some(about) = &q.about {
            self.out.push(cite(about, &self.cited));
        }
        let display = |column| Display {
            system: self.system,
            q,
            column,
        };
        let mut equations = display(0.0).equations();
        if equations.is_empty() {
            return;
        }
        let long = equations
            .iter()
            .filter(|(_, block)| block.len() > COLUMN_ROWS)
            .count();
        // `align` lines its rows up at `=`: its left column is as wide as its widest left-hand
        // side, so the equations are broken again to that width. A left-hand side that moved to a
        // row of its own (first row `&…`) shares no `align` with one that did not.
        let left_hand_sides: Vec<&str> = equations
            .iter()
            .filter_map(|(_, block)| Some(block.first()?.split_once('&')?.0))
            .collect();
        let moved = left_hand_sides.iter().filter(|l| l.is_empty()).count();
        let separate = moved > 0 && moved < left_hand_sides.len();
        let column = left_hand_sides
            .iter()
            .map(|l| width(l))
            .fold(0.0_f32, f32::max);
        if !separate && equations.len() > 1 && column > 0.0 {
            equations = display(column).equations();
        }
        if long > 0 {
            self.out.push(
                if long == 1 {
                    "One expression below is longer than a column and is not printed in full."
                } else {
                    "Some expressions below are longer than a column and are not printed in full."
                }
                .to_string(),
            );
        }
        let base = format!("eq:{}:{}", path.join(":"), label_part(&q.key));
        let mut lines = Vec::new();
        for (id, mut block) in equations {
            if block.len() > COLUMN_ROWS {
                block = vec![elided(&block)];
            }
            let label = self.label(if id.is_empty() {
                base.clone()
            } else {
                format!("{base}:{}", label_part(&id))
            });
            let last = block.len() - 1;
            for (k, line) in block.iter_mut().enumerate() {
                if k < last {
                    line.push_str(" \\nonumber");
                } else {
                    line.push_str(&format!(" \\label{{{label}}}"));
                }
            }
            lines.push(block);
        }
        let groups = if separate {
            lines.into_iter().map(|block| vec![block]).collect()
        } else {
            vec![lines]
        };
        for group in groups {
            // A display longer than a column may break across columns and pages; the group keeps
            // the permission to this display, away from the paper's others.
            let breakable = group.iter().map(Vec::len).sum::<usize>() > BREAKABLE_ROWS;
            if breakable {
                self.out.push("\\begingroup\\allowdisplaybreaks".into());
            }
            self.out.push("\\begin{align}".into());
            self.out.extend(align(group));
            self.out.push("\\end{align}".into());
            if breakable {
                self.out.push("\\endgroup".into());
            }
        }
    }

    /// `label`, or `label-2`, `label-3`, … when it was given before.
    fn label(&mut self, label: String) -> String {
        let mut candidate = label.clone();
        let mut k = 2;
        while self.labels.contains(&candidate) {
            candidate = format!("{label}-{k}");
            k += 1;
        }
        self.labels.insert(candidate.clone());
        candidate
    }
}

/// Displays the value of one quantity.
struct Display<'a> {
    system: &'a System,
    q: &'a Quantity,
    /// The width of the left column of the `align` the equations go in.
    column: f32,
}

impl Display<'_> {
    /// The quantity's symbol, or its key set upright.
    fn symbol(&self) -> String {
        self.q
            .symbol
            .clone()
            .unwrap_or_else(|| format!("\\mathrm{{{}}}", self.q.key.replace('_', "\\_")))
    }

    /// The `i`-th (1-based) entry of the symbol: `#` replaced, or a subscript added.
    fn indexed(&self, i: &str) -> String {
        let symbol = self.symbol();
        if symbol.contains('#') {
            symbol.replace('#', i)
        } else {
            format!("{symbol}_{{{i}}}")
        }
    }

    fn tex(&self, e: &Expr) -> String {
        tex(self.system, &display(e, self.q.shown, self.system))
    }

    /// `lhs = e`, broken where it is too wide.
    fn equation(&self, lhs: &str, e: &Expr) -> Vec<String> {
        lines::equation(
            self.system,
            lhs,
            &display(e, self.q.shown, self.system),
            self.column,
        )
    }

    /// `lhs = (a, b, …)`, broken after a comma where it is too wide.
    fn tuple(&self, lhs: &str, items: Vec<String>) -> Vec<String> {
        let last = items.len().saturating_sub(1);
        let items: Vec<String> = items
            .into_iter()
            .enumerate()
            .map(|(i, item)| {
                let open = if i == 0 { "(" } else { "" };
                let close = if i == last { ")" } else { "," };
                format!("{open}{item}{close}")
            })
            .collect();
        fill(lhs, items, self.column)
    }

    /// The equations of the display, each with the id its label ends in (empty for the
    /// quantity's only equation); none for a value shown inline or not at all.
    fn equations(&self) -> Vec<(String, Vec<String>)> {
        let symbol = self.symbol();
        let one = |lines: Vec<String>| vec![(String::new(), lines)];
        match &self.q.value {
            Value::Expr(e) => one(self.equation(&symbol, e)),
            Value::Sum(terms) => one(lines::equation_of_terms(
                self.system,
                &symbol,
                &terms
                    .iter()
                    .map(|t| display(t, self.q.shown, self.system))
                    .collect::<Vec<_>>(),
                self.column,
            )),
            Value::Missing => one(vec![format!("{symbol} &\\quad \\text{{not derived}}")]),
            Value::Names(list) => one(self.tuple(
                &symbol,
                list.iter()
                    .map(|s| self.system.latex_name(self.system.handle(s)))
                    .collect(),
            )),
            Value::Keys(keys) => {
                one(self.tuple(&symbol, keys.iter().map(|k| self.key(k)).collect()))
            }
            Value::Text(_) | Value::Flag(_) | Value::Count(_) | Value::Number(_) => Vec::new(),
            Value::List(items) => items
                .iter()
                .enumerate()
                .filter_map(|(i, v)| match v {
                    Value::Expr(e) if self.q.symbol.is_none() => Some((
                        format!("{}", i + 1),
                        lay(
                            "&\\quad".to_string(),
                            QUAD,
                            "&\\qquad",
                            2.0 * QUAD,
                            pieces(
                                self.system,
                                &display(e, self.q.shown, self.system),
                                WIDTH - 2.0 * QUAD,
                            ),
                        ),
                    )),
                    Value::Expr(e) => Some((
                        format!("{}", i + 1),
                        self.equation(&self.indexed(&(i + 1).to_string()), e),
                    )),
                    _ => None,
                })
                .collect(),
            Value::Matrix(m) if self.q.sparse || self.matrix_width(m) > WIDTH => {
                self.sparse_matrix(m)
            }
            Value::Matrix(m) => one(vec![format!("{symbol} &= {}", self.pmatrix(m))]),
            Value::Decimals(m) if m.first().map_or(0, Vec::len) > DECIMAL_COLUMNS => {
                sparse_decimals(&symbol, m)
            }
            Value::Decimals(m) => one(vec![format!("{symbol} &= {}", decimal_pmatrix(m))]),
            Value::Table(entries) => entries
                .iter()
                .enumerate()
                .filter_map(|(i, (k, v))| {
                    let id = match k {
                        Key::Expr(_) => format!("{}", i + 1),
                        _ => crate::json::key_text(self.system, k),
                    };
                    self.entry(k, v).map(|lines| (id, lines))
                })
                .collect(),
            Value::Combination(terms) => one(fill(&symbol, self.combination(terms), self.column)),
            Value::Form(form) => one(self.form(&symbol, form)),
        }
    }

    /// One entry of a table, or `None` when a sparse table leaves it out.
    fn entry(&self, k: &Key, v: &Value) -> Option<Vec<String>> {
        let lhs = self.key(k);
        match (k, v) {
            // A long left-hand side (`W ẏ` of a multiplier form) goes in the right-hand column,
            // broken like any expression, and the right-hand side follows it.
            (Key::Expr(left), Value::Expr(e)) if is_long(&lhs) => {
                return Some(moved_left(
                    pieces(self.system, &left.simplify(), WIDTH - QUAD),
                    pieces(
                        self.system,
                        &display(e, self.q.shown, self.system),
                        WIDTH - 2.0 * QUAD,
                    ),
                ));
            }
            _ => {}
        }
        let lines = match v {
            Value::Expr(e) if self.leaves_out(&lhs, e) => None,
            Value::Expr(e) => return Some(self.equation(&lhs, e)),
            Value::Combination(terms) => Some(fill(&lhs, self.combination(terms), self.column)),
            Value::Missing => Some(vec![format!("{lhs} &\\quad \\text{{not derived}}")]),
            Value::Number(x) => Some(vec![format!("{lhs} &= {}", report::decimal_latex(*x))]),
            _ => None,
        };
        // An identity (`ẋ = ẋ` among the equations of motion on TQ) tells a reader nothing; the
        // JSON keeps it.
        lines.filter(|l| !is_identity(l))
    }

    /// Whether [`Display::entry`] gives `k = v` rows, decided without breaking them.
    fn shows_entry(&self, k: &Key, v: &Value) -> bool {
        let lhs = self.key(k);
        match (k, v) {
            (Key::Expr(_), Value::Expr(_)) if is_long(&lhs) => true,
            (_, Value::Expr(e)) => !self.leaves_out(&lhs, e),
            _ => self.entry(k, v).is_some(),
        }
    }

    /// Whether an entry `lhs = e` is left out: a zero of a sparse table, or an identity, its
    /// right-hand side printed as its left-hand side (`\dot{x} = \dot{x}` among the equations
    /// of motion on TQ; the JSON keeps it). Read off the printed right-hand side, not off its
    /// rows: whether an equation is shown never waits for it to be broken.
    fn leaves_out(&self, lhs: &str, e: &Expr) -> bool {
        (self.q.sparse && e.is_zero()) || self.tex(e).trim() == lhs.trim()
    }

    /// The non-zero entries of a matrix (on and above the diagonal when it is symmetric).
    fn sparse_matrix(&self, m: &[Vec<Expr>]) -> Vec<(String, Vec<String>)> {
        let symmetric = m.iter().enumerate().all(|(i, row)| {
            row.iter()
                .enumerate()
                .all(|(j, e)| m.get(j).and_then(|r| r.get(i)) == Some(e))
        });
        let symbol = self.symbol();
        let mut lines = Vec::new();
        for (i, row) in m.iter().enumerate() {
            for (j, e) in row.iter().enumerate() {
                if (symmetric && j < i) || e.is_literal_zero() {
                    continue;
                }
                lines.push((
                    format!("{}-{}", i + 1, j + 1),
                    self.equation(&entry_symbol(&symbol, i + 1, j + 1, m.len()), e),
                ));
            }
        }
        lines
    }

    /// How wide a matrix prints after its symbol: its columns' widest entries and the gaps.
    fn matrix_width(&self, m: &[Vec<Expr>]) -> f32 {
        let columns = m.first().map_or(0, Vec::len);
        let entries: f32 = (0..columns)
            .map(|j| {
                m.iter()
                    .filter_map(|row| row.get(j))
                    .map(|e| width(&self.tex(e)))
                    .fold(0.0_f32, f32::max)
            })
            .sum();
        width(&self.symbol()).max(self.column) + EQUALS + QUAD + entries + QUAD * columns as f32
    }

    fn pmatrix(&self, m: &[Vec<Expr>]) -> String {
        decimals::pmatrix_of(m, |e| self.tex(e))
    }

    fn key(&self, k: &Key) -> String {
        let name = |s: &str| self.system.latex_name(self.system.handle(s));
        match k {
            Key::Name(s) => name(s),
            Key::Rate(s) => {
                let symbols = &self.system.symbols;
                self.system.latex_name(symbols.rate(symbols.handle(s)))
            }
            Key::Multiplier(a) => format!("\\lambda_{{{a}}}"),
            Key::Apply { tex, args, .. } => {
                let args = args.iter().map(|a| name(a)).collect::<Vec<_>>().join(", ");
                if tex == "\\{\\}" {
                    format!("\\{{{args}\\}}")
                } else {
                    format!("{tex}({args})")
                }
            }
            Key::Partial(q) => format!("\\partial_{{{}}}", name(q)),
            Key::Expr(e) => tex(self.system, &e.simplify()),
            Key::Word { tex, .. } => tex.clone(),
        }
    }

    /// The terms of `Σ c_k k`, signs pulled out and sums parenthesised.
    fn combination(&self, terms: &[(Key, Expr)]) -> Vec<String> {
        let items: Vec<String> = terms.iter().map(|(k, _)| self.key(k)).collect();
        let coefficients: Vec<Expr> = terms.iter().map(|(_, c)| c.clone()).collect();
        signed_sum(self.system, &items, &coefficients, AllVanish::Zero)
    }

    /// `Θ = Σ c φ` or `Ω = Σ_{i<j} c φ_i ∧ φ_j`, broken into lines.
    fn form(&self, symbol: &str, form: &Form) -> Vec<String> {
        let (items, coefficients): (Vec<String>, Vec<Expr>) = match &form.coefficients {
            FormCoefficients::One(c) => (form.basis.clone(), c.clone()),
            FormCoefficients::Two(m) => m
                .iter()
                .enumerate()
                .flat_map(|(i, row)| {
                    row.iter().enumerate().skip(i + 1).map(move |(j, e)| {
                        (
                            format!("{} \\wedge {}", form.basis[i], form.basis[j]),
                            e.clone(),
                        )
                    })
                })
                .unzip(),
        };
        let pieces = signed_sum(self.system, &items, &coefficients, AllVanish::Nothing);
        if pieces.is_empty() {
            return vec![format!("{symbol} &= 0")];
        }
        if pieces
            .iter()
            .all(|p| width(p) <= WIDTH - self.column.max(width(symbol)) - QUAD)
        {
            return fill(symbol, pieces, self.column);
        }
        // A coefficient too long for a line: the form by its components, each broken.
        items
            .iter()
            .zip(&coefficients)
            .filter(|(_, c)| !c.is_zero())
            .flat_map(|(item, c)| self.equation(&format!("[{symbol}]_{{{item}}}"), c))
            .collect()
    }
}

/// What [`signed_sum`] gives when every coefficient vanishes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum AllVanish {
    /// `["0"]`.
    Zero,
    /// No term at all (the caller writes the zero its own way).
    Nothing,
}

/// The signed terms `c_k item_k` of a sum over non-zero coefficients (`when_all_vanish` when
/// none is left): the first term carries its sign, the others `+ …` or `- …`.
fn signed_sum(
    system: &System,
    items: &[String],
    coefficients: &[Expr],
    when_all_vanish: AllVanish,
) -> Vec<String> {
    let mut out = Vec::new();
    for (item, c) in items.iter().zip(coefficients) {
        let c = display(c, Shown::Simplified, system);
        if c.is_zero() {
            continue;
        }
        let t = tex(system, &c);
        let piece = if matches!(c.view(), cas::View::Add(_)) && t.starts_with('-') {
            // `-(a + b) φ`, not `(-a - b) φ`.
            let flipped = tex(system, &(-c.clone()).distribute_signs());
            format!("-\\left({flipped}\\right) {item}")
        } else if matches!(c.view(), cas::View::Add(_)) {
            format!("\\left({t}\\right) {item}")
        } else if t == "1" {
            item.clone()
        } else if t == "-1" {
            format!("-{item}")
        } else {
            format!("{t}\\, {item}")
        };
        out.push(match (out.is_empty(), piece.strip_prefix('-')) {
            (true, _) => piece,
            (false, Some(rest)) => format!("- {rest}"),
            (false, None) => format!("+ {piece}"),
        });
    }
    if out.is_empty() && when_all_vanish == AllVanish::Zero {
        out.push("0".into());
    }
    out
}

#[cfg(test)]
mod notation {
    use super::{entry_symbol, is_identity};

    #[test]
    fn matrix_entries_take_a_comma_from_ten_rows_up() {
        assert_eq!(entry_symbol("W", 1, 2, 3), "W_{12}");
        assert_eq!(entry_symbol("W", 1, 11, 12), "W_{1,11}");
    }

    #[test]
    fn identities_are_told_from_equations() {
        assert!(is_identity(&["\\dot{x} &= \\dot{x}".to_string()]));
        assert!(!is_identity(&[
            "\\rho(\\partial_{x}) &= \\partial_{x}".to_string()
        ]));
        assert!(!is_identity(&[
            "a &= a".to_string(),
            "&\\quad + b".to_string()
        ]));
    }
}
