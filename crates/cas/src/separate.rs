//! A cheap factorisation for the coefficients of mechanical Lagrangians: a polynomial that is a
//! product of a part in the *configuration* (coordinates, and the sines and cosines of anything)
//! and a part in the *parameters* (masses, lengths, …), with the monomial content of each part
//! pulled out.
//!
//! The kinetic energy of a system of bodies is `Σ_bodies (mass) × (geometry)²`, so an entry of its
//! Hessian is typically `l_a l_b cos(θ_a − θ_b) · (m_k + … + m_n)` once expanded and regrouped:
//! configuration monomials (`cos θ_a cos θ_b`, `sin θ_a sin θ_b`), each multiplying the *same*
//! parameter polynomial up to a rational factor. Grouping the terms of the expansion by their
//! configuration monomial finds that product in one pass (the coefficient matrix has rank one),
//! where a general multivariate factorisation costs far more. When the polynomial does not split
//! that way, [`Expr::separated`] falls back to [`Expr::factored`].

use std::collections::BTreeMap;

use symbolica::atom::{Atom, AtomCore, AtomView, Symbol};

use crate::expr::{balanced, sym, symbol_name, with_symbol_name, Trig};
use crate::simplify::{
    has_trig_square, hide_trig, integer_polynomial_expansion, reduce_trig, show_trig, TrigTable,
};
use crate::Expr;

/// The configuration factors of a monomial, `(name, exponent)` sorted.
type Key = Vec<(String, i64)>;

/// One monomial split into its configuration part, parameter part and rational coefficient.
struct Split {
    /// Sorted `(name, exponent)` of the configuration factors: the grouping key.
    key: Key,
    configuration: Atom,
    parameters: Atom,
}

impl Expr {
    /// The simplified expression written as `(content) × (configuration part) × (parameter
    /// part)` when it is a polynomial that separates that way (see the module documentation;
    /// `configuration` names the coordinates; sines and cosines always count as
    /// configuration), else [`Expr::factored`].
    pub fn separated(&self, configuration: &[String]) -> Expr {
        let mut table = TrigTable::default();
        let hidden = hide_trig(&self.0, &mut table);
        let Some(expanded) = integer_polynomial_expansion(&hidden) else {
            return self.factored();
        };
        let reduced = if has_trig_square(expanded.as_view(), &table) {
            let a = reduce_trig(&expanded, &table, Trig::Cos);
            let b = reduce_trig(&expanded, &table, Trig::Sin);
            let size = |x: &Atom| Expr(show_trig(x, &table)).size();
            if size(&b) < size(&a) {
                b
            } else {
                a
            }
        } else {
            expanded
        };
        let config: Vec<Symbol> = configuration.iter().map(|c| sym(c)).collect();
        match separate(&reduced, &config) {
            Some(product) => Expr(show_trig(&product, &table)),
            None => Expr(show_trig(&reduced, &table)).factored(),
        }
    }
}

fn is_configuration(s: Symbol, config: &[Symbol]) -> bool {
    config.contains(&s) || with_symbol_name(s, |name| name.starts_with("trig__"))
}

fn split(term: AtomView<'_>, config: &[Symbol]) -> Split {
    let factors: Vec<AtomView<'_>> = match term {
        AtomView::Mul(m) => m.iter().collect(),
        view => vec![view],
    };
    let mut key = Vec::new();
    let mut cfg = Vec::new();
    let mut par = Vec::new();
    for f in factors {
        let (base, exp) = match f {
            AtomView::Pow(p) => {
                let (b, e) = p.get_base_exp();
                (
                    b,
                    Expr(e.to_owned()).as_small_rational().map_or(1, |(n, _)| n),
                )
            }
            other => (other, 1),
        };
        match base {
            AtomView::Var(v) if is_configuration(v.get_symbol(), config) => {
                key.push((symbol_name(v.get_symbol()), exp));
                cfg.push(f.to_owned());
            }
            _ => par.push(f.to_owned()),
        }
    }
    key.sort();
    Split {
        key,
        configuration: balanced(cfg, &|a, b| a * b).unwrap_or_else(|| Atom::num(1)),
        parameters: balanced(par, &|a, b| a * b).unwrap_or_else(|| Atom::num(1)),
    }
}

/// `A × B` with `A` in the configuration and `B` in the parameters, or `None`.
fn separate(poly: &Atom, config: &[Symbol]) -> Option<Atom> {
    let terms: Vec<AtomView<'_>> = match poly.as_view() {
        AtomView::Add(a) => a.iter().collect(),
        AtomView::Num(_) => return Some(poly.clone()),
        view => vec![view],
    };
    let mut groups: BTreeMap<Key, (Atom, Vec<Atom>)> = BTreeMap::new();
    for t in terms {
        let s = split(t, config);
        groups
            .entry(s.key)
            .or_insert_with(|| (s.configuration, Vec::new()))
            .1
            .push(s.parameters);
    }
    // Each group's parameter polynomial, made monic (first term's coefficient 1) so that
    // proportional polynomials become equal atoms.
    let mut configuration = Vec::new();
    let mut reference: Option<Atom> = None;
    for (_, (cfg, params)) in groups {
        let sum = balanced(params, &|a, b| a + b).unwrap_or_else(|| Atom::num(0));
        let (lead, monic) = monic(&sum)?;
        match &reference {
            None => reference = Some(monic),
            Some(r) if *r == monic => {}
            Some(_) => return None,
        }
        configuration.push(cfg * lead);
    }
    let b = reference?;
    let a = balanced(configuration, &|x, y| x + y).unwrap_or_else(|| Atom::num(0));
    Some(with_content(&a) * with_content(&b))
}

/// `(c, p / c)` with `c` the rational coefficient of the term of `p` whose symbols, sorted by
/// name with their exponents, come first (an order that depends only on names, never on the
/// order in which the process created its symbols), `p / c` expanded.
fn monic(p: &Atom) -> Option<(Atom, Atom)> {
    let terms: Vec<AtomView<'_>> = match p.as_view() {
        AtomView::Add(a) => a.iter().collect(),
        view => vec![view],
    };
    let key = |t: AtomView<'_>| -> Key {
        let factors: Vec<AtomView<'_>> = match t {
            AtomView::Mul(m) => m.iter().collect(),
            view => vec![view],
        };
        let mut key: Key = factors
            .into_iter()
            .filter_map(|f| match f {
                AtomView::Var(v) => Some((symbol_name(v.get_symbol()), 1)),
                AtomView::Pow(pw) => {
                    let (b, e) = pw.get_base_exp();
                    match b {
                        AtomView::Var(v) => Some((
                            symbol_name(v.get_symbol()),
                            Expr(e.to_owned()).as_small_rational().map_or(0, |(n, _)| n),
                        )),
                        _ => None,
                    }
                }
                _ => None,
            })
            .collect();
        key.sort();
        key
    };
    let lead = terms.into_iter().min_by_key(|t| key(*t))?;
    let coefficient = match lead {
        AtomView::Num(_) => lead.to_owned(),
        AtomView::Mul(m) => m
            .iter()
            .find(|f| matches!(f, AtomView::Num(_)))
            .map_or_else(|| Atom::num(1), |f| f.to_owned()),
        _ => Atom::num(1),
    };
    let monic = (p.clone() / coefficient.clone()).expand();
    Some((coefficient, monic))
}

/// A polynomial with its monomial content (common symbol powers) pulled out as a product:
/// `l_a l_b m_k + l_a l_b m_n` becomes `l_a l_b (m_k + m_n)`.
fn with_content(p: &Atom) -> Atom {
    let AtomView::Add(terms) = p.as_view() else {
        return p.clone();
    };
    let exponents = |t: AtomView<'_>| -> BTreeMap<String, (Symbol, i64)> {
        let factors: Vec<AtomView<'_>> = match t {
            AtomView::Mul(m) => m.iter().collect(),
            view => vec![view],
        };
        let mut out = BTreeMap::new();
        for f in factors {
            match f {
                AtomView::Var(v) => {
                    out.insert(symbol_name(v.get_symbol()), (v.get_symbol(), 1));
                }
                AtomView::Pow(pw) => {
                    let (b, e) = pw.get_base_exp();
                    if let (AtomView::Var(v), Some((n, 1))) =
                        (b, Expr(e.to_owned()).as_small_rational())
                    {
                        if n > 0 {
                            out.insert(symbol_name(v.get_symbol()), (v.get_symbol(), n));
                        }
                    }
                }
                _ => {}
            }
        }
        out
    };
    let mut common: Option<BTreeMap<String, (Symbol, i64)>> = None;
    for t in terms.iter() {
        let e = exponents(t);
        common = Some(match common {
            None => e,
            Some(c) => c
                .into_iter()
                .filter_map(|(name, (s, n))| e.get(&name).map(|(_, m)| (name, (s, n.min(*m)))))
                .collect(),
        });
    }
    let common = common.unwrap_or_default();
    if common.is_empty() {
        return p.clone();
    }
    let content = balanced(
        common
            .values()
            .map(|(s, n)| Atom::var(*s).pow(Atom::num(*n)))
            .collect(),
        &|a, b| a * b,
    )
    .unwrap_or_else(|| Atom::num(1));
    let rest = (p.clone() / content.clone()).expand();
    content * rest
}

#[cfg(test)]
mod tests {
    use crate::{Expr, Func};

    fn s(name: &str) -> Expr {
        Expr::symbol(name)
    }

    #[test]
    fn pendulum_entry_separates() {
        // Σ_{i=2..3} m_i l1 l2 (cos q1 cos q2 + sin q1 sin q2), expanded.
        let (c1, c2) = (
            Expr::apply(Func::Cos, s("q1")),
            Expr::apply(Func::Cos, s("q2")),
        );
        let (s1, s2) = (
            Expr::apply(Func::Sin, s("q1")),
            Expr::apply(Func::Sin, s("q2")),
        );
        let geometry = c1 * c2 + s1 * s2;
        let entry = (s("m2") + s("m3")) * s("l1") * s("l2") * geometry.clone();
        let expanded = entry.expand();
        let sep = expanded.separated(&["q1".to_string(), "q2".to_string()]);
        assert!((sep.clone() - entry).is_zero());
        // Far smaller than the expansion: the product is found.
        assert!(sep.size() < expanded.size());
        let text = crate::print::spec(&sep, &crate::print::Keys);
        assert!(text.contains("m2 + m3"), "{text}");
    }

    #[test]
    fn diagonal_reduces_pythagoras() {
        let c = Expr::apply(Func::Cos, s("q"));
        let sn = Expr::apply(Func::Sin, s("q"));
        let e = (s("m1") + s("m2")) * s("l").powi(2) * (c.powi(2) + sn.powi(2));
        let sep = e.expand().separated(&["q".to_string()]);
        assert!((sep.clone() - (s("m1") + s("m2")) * s("l").powi(2)).is_zero());
        assert!(!crate::print::spec(&sep, &crate::print::Keys).contains("cos"));
    }

    #[test]
    fn non_separable_still_exact() {
        let e = s("m") * Expr::apply(Func::Cos, s("q")) + s("k") * s("q");
        let sep = e.separated(&["q".to_string()]);
        assert!((sep - e).is_zero());
    }
}
