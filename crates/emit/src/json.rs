//! The JSON target, written from a report (`report::Report`): every section with a key is an
//! object under that key, every other section adds its quantities to the enclosing object, and
//! quantities for readers only are left out. Keys keep the report's order (see
//! `docs/json-schema.md`); every expression is a string in the spec's expression syntax.

use cas::Expr;
use model::System;
use report::{Audience, Block, FormCoefficients, Key, Report, Section, Value};
use serde_json::{Map, Value as Json};

use crate::{pretty, Artifact};

/// The JSON document of a report of `system`.
pub fn json(report: &Report, system: &System) -> Artifact {
    let mut doc = Map::new();
    for s in &report.sections {
        section(system, s, &mut doc);
    }
    let mut contents =
        serde_json::to_string_pretty(&Json::Object(doc)).expect("JSON values always serialise");
    contents.push('\n');
    Artifact::file(format!("{}.json", report.system), contents)
}

/// Adds a section's quantities to `into`, or an object of them under the section's key.
fn section(system: &System, s: &Section, into: &mut Map<String, Json>) {
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
                    verbatim: q.verbatim,
                };
                target.insert(q.key.clone(), printer.value(&q.value));
            }
            Block::Section(inner) => section(system, inner, target),
        }
    }
    if let Some(key) = &s.key {
        into.insert(key.clone(), Json::Object(own));
    }
}

/// Prints values and keys of one quantity.
struct Printer<'a> {
    system: &'a System,
    verbatim: bool,
}

impl Printer<'_> {
    fn expr(&self, e: &Expr) -> Json {
        let name = |s: &str| self.system.spec_name(s);
        if self.verbatim {
            Json::String(cas::print::spec(e, &name))
        } else {
            Json::String(cas::print::spec(&pretty(e), &name))
        }
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
            Value::Names(list) => Json::Array(
                list.iter()
                    .map(|s| Json::String(self.system.spec_name(s)))
                    .collect(),
            ),
            Value::Keys(keys) => {
                Json::Array(keys.iter().map(|k| Json::String(self.key(k))).collect())
            }
            Value::Text(t) => Json::String(t.clone()),
            Value::Flag(b) => Json::Bool(*b),
            Value::Count(n) => Json::from(*n),
            Value::Missing => Json::Null,
            Value::List(items) => Json::Array(items.iter().map(|v| self.value(v)).collect()),
            Value::Matrix(m) => self.matrix(m),
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
        let name = |s: &str| self.system.spec_name(s);
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
            Key::Expr(e) => cas::print::spec(e, &name),
            Key::Word { json, .. } => json.clone(),
        }
    }
}
