//! Reading a report back: a quantity by the path of keys every output files it under, and one
//! entry of its value. `expect` blocks are proved this way, against what the outputs show.

use cas::Expr;

use crate::{Block, FormCoefficients, Key, Quantity, Report, Value};

/// Where an entry is in a value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum At {
    /// The value itself (one expression).
    Whole,
    /// The `i`-th item of a list, entry of a table, or coefficient of a one-form.
    Index(usize),
    /// The `(i, j)` entry of a matrix or of a two-form's coefficients.
    Pair(usize, usize),
    /// The entry of a table keyed by a symbol (or its rate), by the symbol's key.
    Symbol(String),
    /// The entry of a table keyed by the multiplier of this number (from 1).
    Multiplier(usize),
}

impl Report {
    /// The quantity at `path`: the keys of the sections it is in (a section without a key is
    /// looked through), then its own key; the JSON path of the quantity.
    pub fn find(&self, path: &[&str]) -> Option<&Quantity> {
        self.sections
            .iter()
            .find_map(|s| find_in(s.key.as_deref(), &s.blocks, path))
    }
}

/// The quantity at `path` in a section keyed `key`.
fn find_in<'a>(key: Option<&str>, blocks: &'a [Block], path: &[&str]) -> Option<&'a Quantity> {
    let path = match key {
        Some(key) => path.strip_prefix(&[key])?,
        None => path,
    };
    blocks.iter().find_map(|b| match b {
        Block::Quantity(q) if path == [q.key.as_str()] => Some(q),
        Block::Section(s) => find_in(s.key.as_deref(), &s.blocks, path),
        _ => None,
    })
}

/// The expression a value is, if it is one.
fn expr(v: &Value) -> Option<&Expr> {
    match v {
        Value::Expr(e) => Some(e),
        _ => None,
    }
}

impl Value {
    /// The expression at `at`, if this value has one there.
    pub fn at(&self, at: At) -> Option<&Expr> {
        match (self, at) {
            (Value::Expr(e), At::Whole) => Some(e),
            (Value::List(items), At::Index(i)) => expr(items.get(i)?),
            (Value::Table(entries), At::Index(i)) => expr(&entries.get(i)?.1),
            (Value::Form(form), At::Index(i)) => match &form.coefficients {
                FormCoefficients::One(c) => c.get(i),
                FormCoefficients::Two(_) => None,
            },
            (Value::Matrix(m), At::Pair(i, j)) => m.get(i)?.get(j),
            (Value::Form(form), At::Pair(i, j)) => match &form.coefficients {
                FormCoefficients::Two(m) => m.get(i)?.get(j),
                FormCoefficients::One(_) => None,
            },
            (Value::Table(entries), At::Symbol(s)) => entries.iter().find_map(|(k, v)| match k {
                Key::Name(n) | Key::Rate(n) if *n == s => expr(v),
                _ => None,
            }),
            (Value::Table(entries), At::Multiplier(a)) => {
                entries.iter().find_map(|(k, v)| match k {
                    Key::Multiplier(b) if *b == a => expr(v),
                    _ => None,
                })
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Section;

    #[test]
    fn quantities_are_found_by_their_json_path_and_entries_by_where_they_are() {
        let (x, y) = (Expr::symbol("x"), Expr::symbol("y"));
        let mut inner = Section::new("Hamiltonian side", Some("hamiltonian"));
        inner.put("H", Value::Expr(x.clone()));
        inner.put(
            "multipliers",
            Value::multipliers([Value::Expr(x.clone()), Value::Expr(y.clone())]),
        );
        let mut top = Section::new("Equations", None);
        top.put("equations", Value::rates(&["q".to_string()], [y.clone()]));
        top.put("hessian", Value::Matrix(vec![vec![x.clone(), y.clone()]]));
        top.section(inner);
        let report = Report {
            system: "s".into(),
            title: "t".into(),
            sections: vec![top],
            references: Vec::new(),
        };
        let at = |path: &[&str], at| report.find(path).and_then(|q| q.value.at(at)).cloned();
        assert_eq!(at(&["equations"], At::Symbol("q".into())), Some(y.clone()));
        assert_eq!(at(&["hessian"], At::Pair(0, 1)), Some(y.clone()));
        assert_eq!(at(&["hamiltonian", "H"], At::Whole), Some(x.clone()));
        assert_eq!(
            at(&["hamiltonian", "multipliers"], At::Multiplier(2)),
            Some(y)
        );
        assert_eq!(at(&["H"], At::Whole), None);
        assert_eq!(at(&["equations"], At::Symbol("p".into())), None);
    }
}
