//! The JSON target, written from a report (`report::Report`): every section with a key is an
//! object under that key, every other section adds its quantities to the enclosing object, and
//! quantities for readers only are left out. Keys keep the report's order (see
//! `docs/json-schema.md`). Every expression is an object with three forms: `spec` (the spec's
//! expression syntax), `latex`, and `python` (SymPy's `parse_expr` and Python read it, with the
//! symbols named by the document's `identifiers` table).

use std::collections::{BTreeMap, BTreeSet};

use cas::Expr;
use model::System;
use report::{Audience, Block, FormCoefficients, Key, Report, Section, Value};
use serde_json::{Map, Value as Json};

use crate::Artifact;

/// The version of the JSON document's layout (`docs/json-schema.md`); raised when a key changes
/// meaning or type.
pub const SCHEMA_VERSION: u32 = 2;

/// The JSON document of a report of `system`.
pub fn json(report: &Report, system: &System) -> Artifact {
    let mut symbols = BTreeSet::new();
    for s in &report.sections {
        collect_symbols(s, &mut symbols);
    }
    let identifiers = model::identifiers::table(&system.symbols, &symbols);
    let mut doc = Map::new();
    doc.insert("schema_version".into(), Json::from(SCHEMA_VERSION));
    doc.insert(
        "generator".into(),
        Json::String(format!("dalembert {}", env!("CARGO_PKG_VERSION"))),
    );
    for s in &report.sections {
        section(system, &identifiers, s, &mut doc);
    }
    doc.insert(
        "identifiers".into(),
        Json::Object(
            identifiers
                .iter()
                .map(|(internal, id)| {
                    (
                        system.spec_name(system.handle(internal)),
                        Json::String(id.clone()),
                    )
                })
                .collect(),
        ),
    );
    let mut contents =
        serde_json::to_string_pretty(&Json::Object(doc)).expect("JSON values always serialise");
    contents.push('\n');
    Artifact::file(format!("{}.json", report.system), contents)
}

/// Every symbol of the expressions the JSON document shows.
fn collect_symbols(s: &Section, into: &mut BTreeSet<String>) {
    for block in &s.blocks {
        match block {
            Block::Quantity(q) if q.audience != Audience::Display => value_symbols(&q.value, into),
            Block::Section(inner) => collect_symbols(inner, into),
            _ => {}
        }
    }
}

fn value_symbols(v: &Value, into: &mut BTreeSet<String>) {
    let mut add = |e: &Expr| into.extend(e.symbols());
    match v {
        Value::Expr(e) => add(e),
        Value::Sum(terms) => terms.iter().for_each(add),
        Value::List(items) => items.iter().for_each(|v| value_symbols(v, into)),
        Value::Matrix(m) => m.iter().flatten().for_each(add),
        Value::Table(entries) => entries.iter().for_each(|(_, v)| value_symbols(v, into)),
        Value::Combination(terms) => terms.iter().for_each(|(_, c)| add(c)),
        Value::Form(form) => match &form.coefficients {
            FormCoefficients::One(c) => c.iter().for_each(add),
            FormCoefficients::Two(m) => m.iter().flatten().for_each(add),
        },
        _ => {}
    }
}

/// Adds a section's quantities to `into`, or an object of them under the section's key.
fn section(
    system: &System,
    identifiers: &BTreeMap<String, String>,
    s: &Section,
    into: &mut Map<String, Json>,
) {
    let mut own = Map::new();
    let target = if s.key.is_some() {
        &mut own
    } else {
        &mut *into
    };
    for block in &s.blocks {
        match block {
            Block::Prose(_) => {}
            Block::Quantity(q) if q.audience == Audience::Display => {}
            Block::Quantity(q) => {
                let printer = Printer {
                    system,
                    identifiers,
                    shown: q.shown,
                };
                target.insert(q.key.clone(), printer.value(&q.value));
            }
            Block::Section(inner) => section(system, identifiers, inner, target),
        }
    }
    if let Some(key) = &s.key {
        into.insert(key.clone(), Json::Object(own));
    }
}

/// Prints values and keys of one quantity.
struct Printer<'a> {
    system: &'a System,
    identifiers: &'a BTreeMap<String, String>,
    shown: report::Shown,
}

/// Symbols as the document spells them: by the system, identifiers by the document's table.
impl cas::print::Names for Printer<'_> {
    fn spell(&self, symbol: &str, spelling: cas::print::Spelling) -> String {
        match spelling {
            cas::print::Spelling::Identifier => self
                .identifiers
                .get(symbol)
                .cloned()
                .unwrap_or_else(|| self.system.spell(symbol, spelling)),
            _ => self.system.spell(symbol, spelling),
        }
    }
}

impl Printer<'_> {
    /// An expression in its three forms.
    fn expr(&self, e: &Expr) -> Json {
        // One form in three spellings: what the LaTeX shows is what Python evaluates.
        let shown = crate::display(e, self.shown, self.system);
        let mut forms = Map::new();
        forms.insert("spec".into(), Json::String(cas::print::spec(&shown, self)));
        forms.insert(
            "latex".into(),
            Json::String(cas::print::latex(&shown, self)),
        );
        forms.insert(
            "python".into(),
            Json::String(cas::print::python(&shown, self)),
        );
        Json::Object(forms)
    }

    /// A sum in the order of its terms, in the three forms.
    fn sum(&self, terms: &[Expr]) -> Json {
        let forms: Vec<Json> = terms.iter().map(|t| self.expr(t)).collect();
        let joined = |key: &str| {
            let mut out = String::new();
            for (i, form) in forms.iter().enumerate() {
                let text = form[key].as_str().unwrap_or_default();
                match (i, text.strip_prefix('-')) {
                    (0, _) => out.push_str(text),
                    (_, Some(rest)) => out.push_str(&format!(" - {}", rest.trim_start())),
                    (_, None) => out.push_str(&format!(" + {text}")),
                }
            }
            Json::String(out)
        };
        let mut forms_out = Map::new();
        for key in ["spec", "latex", "python"] {
            forms_out.insert(key.into(), joined(key));
        }
        Json::Object(forms_out)
    }

    fn matrix(&self, m: &[Vec<Expr>]) -> Json {
        Json::Array(
            m.iter()
                .map(|row| Json::Array(row.iter().map(|e| self.expr(e)).collect()))
                .collect(),
        )
    }

    fn value(&self, v: &Value) -> Json {
        match v {
            Value::Expr(e) => self.expr(e),
            Value::Sum(terms) => self.sum(terms),
            Value::Names(list) => Json::Array(
                list.iter()
                    .map(|s| Json::String(self.system.spec_name(self.system.handle(s))))
                    .collect(),
            ),
            Value::Keys(keys) => {
                Json::Array(keys.iter().map(|k| Json::String(self.key(k))).collect())
            }
            Value::Text(t) => Json::String(t.clone()),
            Value::Flag(b) => Json::Bool(*b),
            Value::Count(n) => Json::from(*n),
            Value::Number(x) => number(*x),
            Value::Missing => Json::Null,
            Value::List(items) => Json::Array(items.iter().map(|v| self.value(v)).collect()),
            Value::Matrix(m) => self.matrix(m),
            Value::Decimals(m) => Json::Array(
                m.iter()
                    .map(|row| Json::Array(row.iter().map(|x| number(*x)).collect()))
                    .collect(),
            ),
            Value::Table(entries) => Json::Object(
                entries
                    .iter()
                    .map(|(k, v)| (self.key(k), self.value(v)))
                    .collect(),
            ),
            Value::Combination(terms) => Json::Object(
                terms
                    .iter()
                    .map(|(k, c)| (self.key(k), self.expr(c)))
                    .collect(),
            ),
            Value::Form(form) => match &form.coefficients {
                FormCoefficients::One(c) => Json::Array(c.iter().map(|e| self.expr(e)).collect()),
                FormCoefficients::Two(m) => self.matrix(m),
            },
        }
    }

    fn key(&self, k: &Key) -> String {
        key_text(self.system, k)
    }
}

/// A double as a JSON number (`null` when it is not finite).
fn number(x: f64) -> Json {
    serde_json::Number::from_f64(x).map_or(Json::Null, Json::Number)
}

/// A key as JSON writes it: a symbol by its spec name, `lambdaN`, `{f, g}`, `J(f, g, h)`,
/// `d/dq`, an expression in the spec's syntax, a word as it is.
pub(crate) fn key_text(system: &System, k: &Key) -> String {
    let name = |s: &str| system.spec_name(system.handle(s));
    match k {
        Key::Name(s) | Key::Rate(s) => name(s),
        Key::Multiplier(a) => format!("lambda{a}"),
        Key::Apply { head, args, .. } => {
            let args = args.iter().map(|a| name(a)).collect::<Vec<_>>().join(", ");
            if head == "{}" {
                format!("{{{args}}}")
            } else {
                format!("{head}({args})")
            }
        }
        Key::Partial(q) => format!("d/d{q}"),
        Key::Expr(e) => cas::print::spec(e, &system),
        Key::Word { json, .. } => json.clone(),
    }
}
