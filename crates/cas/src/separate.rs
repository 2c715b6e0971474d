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

use crate::expr::{
    contains_symbol, product_atoms, sum_atoms, sym, symbol_name, with_symbol_name, Trig,
};
use crate::simplify::{
    has_trig_square, hide_trig, integer_polynomial_expansion, is_expanded, reduce_trig, show_trig,
    show_trig_entries, TrigTable,
};
use crate::view::small_rational;
use crate::Expr;

/// The configuration factors of a monomial, `(name, exponent)` sorted.
type Key = Vec<(String, i64)>;

/// Symbols with their exponents, sorted by symbol.
type Powers = Vec<(Symbol, i64)>;

/// One monomial split into its configuration part, parameter part and rational coefficient.
struct Split {
    /// The configuration factors' `(symbol, exponent)`, sorted: the grouping key (its order
    /// is Symbolica's, which the result does not depend on: every group must have the same
    /// parameter polynomial, and the configuration part is a sum).
    key: Powers,
    /// The configuration factors (multiplied only for the first term of their group).
    configuration: Vec<Atom>,
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
        let config: Vec<Symbol> = configuration.iter().map(|c| sym(c)).collect();
        separated_hidden(&hidden, &table, &config, &|x| show_trig(x, &table))
            .unwrap_or_else(|| self.factored())
    }

    /// `f` as a polynomial of degree ≤ 2 in `vars` ([`Expr::quadratic_form`]), read the way the
    /// implicit form reads a Lagrangian: its Hessian `∂²f/∂v∂v` and its linear coefficients each
    /// [`Expr::separated`], its velocity-free part as expanded; `None` when `f` is not such a
    /// polynomial. When every sine and cosine of `f` has an argument that is already simplified
    /// and expanded and reads none of `vars`, and `f` has no other function and no radical, the
    /// sines and cosines are hidden once in `f` before its one expansion, instead of once in
    /// every entry after it (the entries are the same).
    pub fn separated_quadratic_form(
        &self,
        vars: &[String],
        configuration: &[String],
    ) -> Option<SeparatedQuadratic> {
        let config: Vec<Symbol> = configuration.iter().map(|c| sym(c)).collect();
        let var_symbols: Vec<Symbol> = vars.iter().map(|v| sym(v)).collect();
        let hidden = plain_trig(self.0.as_view(), &var_symbols)
            .then(|| {
                let mut table = TrigTable::default();
                (Expr(hide_trig(&self.0, &mut table)), table)
            })
            // `plain_trig` admits integer exponents only and hiding does not enter the
            // arguments of sine and cosine, so no radical is hidden; kept as a guard.
            .filter(|(_, table)| !table.has_radicals());
        let Some((hidden, table)) = hidden else {
            let form = self.quadratic_form(vars)?;
            return Some(SeparatedQuadratic::of(form, &|e| {
                e.separated(configuration)
            }));
        };
        let form = hidden.quadratic_form(vars)?;
        let shown = show_map(&table);
        let show = |x: &Atom| Expr(x.clone()).subs(&shown).0;
        let mut out = SeparatedQuadratic::of(form, &|e| {
            separated_hidden(&e.0, &table, &config, &show)
                .unwrap_or_else(|| Expr(show(&e.0)).factored())
        });
        out.constant = Expr(show(&out.constant.0));
        Some(out)
    }
}

/// A polynomial of degree ≤ 2 in some variables, as [`Expr::separated_quadratic_form`] reads it.
#[derive(Clone, Debug)]
pub struct SeparatedQuadratic {
    /// `∂²f/∂v_a∂v_b` (twice the coefficient of `v_a²` on the diagonal), every entry.
    pub hessian: Vec<Vec<Expr>>,
    /// The coefficient of `v_a`.
    pub linear: Vec<Expr>,
    /// The part free of the variables, as expanded.
    pub constant: Expr,
}

impl SeparatedQuadratic {
    /// The Hessian and the linear coefficients of `form`, each entry passed through `separate`
    /// (the constant as it is).
    // The loops walk the upper triangle of a symmetric matrix by index.
    #[allow(clippy::needless_range_loop)]
    fn of(form: crate::QuadraticForm, separate: &dyn Fn(&Expr) -> Expr) -> SeparatedQuadratic {
        let n = form.linear.len();
        let mut hessian = vec![vec![Expr::zero(); n]; n];
        for a in 0..n {
            hessian[a][a] = separate(&(Expr::int(2) * form.quadratic[a][a].clone()));
            for b in a + 1..n {
                let entry = separate(&form.quadratic[a][b]);
                hessian[b][a] = entry.clone();
                hessian[a][b] = entry;
            }
        }
        SeparatedQuadratic {
            hessian,
            linear: form.linear.iter().map(separate).collect(),
            constant: form.constant,
        }
    }
}

/// The symbols of `table`'s sines and cosines, each with what it stands for.
fn show_map(table: &TrigTable) -> BTreeMap<String, Expr> {
    let mut map = BTreeMap::new();
    show_trig_entries(table, &mut map);
    map
}

/// Whether every function in `view` is a sine or a cosine whose argument is simplified and
/// expanded already and reads none of `vars`, and no power has a fractional exponent: then
/// hiding the sines and cosines before expanding gives what hiding them after does.
fn plain_trig(view: AtomView<'_>, vars: &[Symbol]) -> bool {
    plain_trig_among(view, vars, &mut Vec::new())
}

/// [`plain_trig`], each distinct argument of a sine or cosine simplified and expanded once
/// (`plain`: the arguments found so; a chain's Lagrangian has the same few angles in every
/// term).
fn plain_trig_among<'a>(
    view: AtomView<'a>,
    vars: &[Symbol],
    plain: &mut Vec<AtomView<'a>>,
) -> bool {
    match view {
        AtomView::Num(_) | AtomView::Var(_) => true,
        AtomView::Fun(f) => {
            let trig = with_symbol_name(f.get_symbol(), |name| name == "sin" || name == "cos");
            let mut args = f.iter();
            let (Some(arg), None) = (args.next(), args.next()) else {
                return false;
            };
            if !trig || contains_symbol(arg, vars) {
                return false;
            }
            if plain.contains(&arg) {
                return true;
            }
            let owned = Expr(arg.to_owned());
            let simplified = owned.simplify() == owned && owned.expand() == owned;
            if simplified {
                plain.push(arg);
            }
            simplified
        }
        AtomView::Pow(p) => {
            let (b, e) = p.get_base_exp();
            matches!(small_rational(e), Some((_, 1))) && plain_trig_among(b, vars, plain)
        }
        AtomView::Mul(m) => m.iter().all(|a| plain_trig_among(a, vars, plain)),
        AtomView::Add(a) => a.iter().all(|t| plain_trig_among(t, vars, plain)),
    }
}

/// Steps after the hiding of [`Expr::separated`]: `hidden` expanded, reduced modulo
/// `sin² + cos² = 1` in the orientation that shows smaller, and separated; `None` when it is not
/// a polynomial with integer coefficients.
fn separated_hidden(
    hidden: &Atom,
    table: &TrigTable,
    config: &[Symbol],
    show: &dyn Fn(&Atom) -> Atom,
) -> Option<Expr> {
    let expanded = integer_polynomial_expansion(hidden)?;
    let reduced = if has_trig_square(expanded.as_view(), table) {
        let a = reduce_trig(&expanded, table, Trig::Cos);
        let b = reduce_trig(&expanded, table, Trig::Sin);
        let size = |x: &Atom| Expr(show(x)).size();
        if size(&b) < size(&a) {
            b
        } else {
            a
        }
    } else {
        expanded
    };
    Some(match separate(&reduced, config) {
        Some(product) => Expr(show(&product)),
        None => Expr(show(&reduced)).factored(),
    })
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
                (b, small_rational(e).map_or(1, |(n, _)| n))
            }
            other => (other, 1),
        };
        match base {
            AtomView::Var(v) if is_configuration(v.get_symbol(), config) => {
                key.push((v.get_symbol(), exp));
                cfg.push(f.to_owned());
            }
            _ => par.push(f.to_owned()),
        }
    }
    key.sort();
    Split {
        key,
        configuration: cfg,
        parameters: product_atoms(par),
    }
}

/// `A × B` with `A` in the configuration and `B` in the parameters, or `None`.
fn separate(poly: &Atom, config: &[Symbol]) -> Option<Atom> {
    let terms: Vec<AtomView<'_>> = match poly.as_view() {
        AtomView::Add(a) => a.iter().collect(),
        AtomView::Num(_) => return Some(poly.clone()),
        view => vec![view],
    };
    let mut groups: BTreeMap<Powers, (Atom, Vec<Atom>)> = BTreeMap::new();
    for t in terms {
        let s = split(t, config);
        groups
            .entry(s.key)
            .or_insert_with(|| (product_atoms(s.configuration), Vec::new()))
            .1
            .push(s.parameters);
    }
    // Each group's parameter polynomial, made monic (first term's coefficient 1) so that
    // proportional polynomials become equal atoms.
    let mut configuration = Vec::new();
    let mut reference: Option<Atom> = None;
    for (_, (cfg, params)) in groups {
        let sum = sum_atoms(params);
        let (lead, monic) = monic(&sum)?;
        match &reference {
            None => reference = Some(monic),
            Some(r) if *r == monic => {}
            Some(_) => return None,
        }
        configuration.push(cfg * lead);
    }
    let b = reference?;
    let a = sum_atoms(configuration);
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
                            small_rational(e).map_or(0, |(n, _)| n),
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
    // Most leading coefficients are 1, and `p`, a sum of monomials, is its own expansion.
    let quotient = if coefficient == Atom::num(1) {
        p.clone()
    } else {
        p.clone() / coefficient.clone()
    };
    let monic = if is_expanded(quotient.as_view()) {
        quotient
    } else {
        quotient.expand()
    };
    Some((coefficient, monic))
}

/// A polynomial with its monomial content (common symbol powers) pulled out as a product:
/// `l_a l_b m_k + l_a l_b m_n` becomes `l_a l_b (m_k + m_n)`.
fn with_content(p: &Atom) -> Atom {
    let AtomView::Add(terms) = p.as_view() else {
        return p.clone();
    };
    // Each term's symbol powers, sorted by symbol (the order of the content's factors does not
    // matter: their product is normalised).
    let exponents = |t: AtomView<'_>| -> Powers {
        let factors: Vec<AtomView<'_>> = match t {
            AtomView::Mul(m) => m.iter().collect(),
            view => vec![view],
        };
        let mut out: Powers = factors.into_iter().filter_map(symbol_power).collect();
        out.sort_unstable();
        out
    };
    let mut common: Option<Powers> = None;
    for t in terms.iter() {
        let e = exponents(t);
        common = Some(match common {
            None => e,
            Some(c) => c
                .into_iter()
                .filter_map(|(s, n)| {
                    e.binary_search_by(|(x, _)| x.cmp(&s))
                        .ok()
                        .map(|k| (s, n.min(e[k].1)))
                })
                .collect(),
        });
        if common.as_ref().is_some_and(Vec::is_empty) {
            return p.clone();
        }
    }
    let common = common.unwrap_or_default();
    if common.is_empty() {
        return p.clone();
    }
    let content = product_atoms(
        common
            .iter()
            .map(|(s, n)| Atom::var(*s).pow(Atom::num(*n)))
            .collect(),
    );
    // `p / content` expanded, term by term: each term's powers of the content's symbols lowered.
    let rest = sum_atoms(terms.iter().map(|t| lowered(t, &common)).collect());
    content * rest
}

/// `(s, n)` when the factor `f` is the symbol `s` to a positive integer power `n` (the powers a
/// monomial's content is made of).
fn symbol_power(f: AtomView<'_>) -> Option<(Symbol, i64)> {
    match f {
        AtomView::Var(v) => Some((v.get_symbol(), 1)),
        AtomView::Pow(pw) => match pw.get_base_exp() {
            (AtomView::Var(v), e) => match small_rational(e) {
                Some((n, 1)) if n > 0 => Some((v.get_symbol(), n)),
                _ => None,
            },
            _ => None,
        },
        _ => None,
    }
}

/// The monomial `term` divided by the symbol powers `content` (which divide it), as the expansion
/// of the quotient writes it.
fn lowered(term: AtomView<'_>, content: &Powers) -> Atom {
    let factors: Vec<AtomView<'_>> = match term {
        AtomView::Mul(m) => m.iter().collect(),
        view => vec![view],
    };
    let kept = factors.into_iter().filter_map(|f| {
        let Some((symbol, n)) = symbol_power(f) else {
            return Some(f.to_owned());
        };
        match content.binary_search_by(|(s, _)| s.cmp(&symbol)) {
            Ok(k) => match n - content[k].1 {
                0 => None,
                1 => Some(Atom::var(symbol)),
                left => Some(Atom::var(symbol).pow(Atom::num(left))),
            },
            Err(_) => Some(f.to_owned()),
        }
    });
    product_atoms(kept.collect())
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

    /// The chain's Lagrangian read with its sines and cosines hidden once gives, entry by entry,
    /// the atoms the expansion followed by [`Expr::separated`] of each entry gives.
    #[test]
    fn hiding_once_gives_the_entries_of_hiding_each() {
        let (q1, q2) = (s("q1"), s("q2"));
        let (u, w1, w2) = (s("xd"), s("q1d"), s("q2d"));
        let (c1, s1) = (
            Expr::apply(Func::Cos, q1.clone()),
            Expr::apply(Func::Sin, q1),
        );
        let (c2, s2) = (
            Expr::apply(Func::Cos, q2.clone()),
            Expr::apply(Func::Sin, q2),
        );
        let v1 = [
            u.clone() - s("l1") * s1.clone() * w1.clone(),
            s("l1") * c1.clone() * w1.clone(),
        ];
        let v2 = [
            v1[0].clone() - s("l2") * s2.clone() * w2.clone(),
            v1[1].clone() + s("l2") * c2.clone() * w2.clone(),
        ];
        let half = Expr::rational(1, 2);
        let square = |v: &[Expr; 2]| v[0].powi(2) + v[1].powi(2);
        let lagrangian = half.clone() * s("m0") * u.powi(2)
            + half.clone() * s("m1") * square(&v1)
            + half * s("m2") * square(&v2)
            - s("g") * (s("m1") * s("l1") * s1.clone() + s("m2") * (s("l1") * s1 + s("l2") * s2))
            + s("F") * s("x");
        let vars = ["xd".to_string(), "q1d".to_string(), "q2d".to_string()];
        let config = ["x".to_string(), "q1".to_string(), "q2".to_string()];
        let velocities: Vec<_> = vars.iter().map(|v| super::sym(v)).collect();
        assert!(super::plain_trig(lagrangian.0.as_view(), &velocities));
        let once = lagrangian.separated_quadratic_form(&vars, &config).unwrap();
        let form = lagrangian.quadratic_form(&vars).unwrap();
        let each = super::SeparatedQuadratic::of(form, &|e| e.separated(&config));
        assert_eq!(once.hessian, each.hessian);
        assert_eq!(once.linear, each.linear);
        assert_eq!(once.constant, each.constant);
        // W_11 = (m1 + m2) l1²: the squares of the sine and cosine reduced.
        let w11 = (s("m1") + s("m2")) * s("l1").powi(2);
        assert!((once.hessian[1][1].clone() - w11).is_zero());
        // A sine of a velocity is not hidden: the form is not quadratic, either way.
        let not = lagrangian + Expr::apply(Func::Sin, s("q1d"));
        assert!(not.separated_quadratic_form(&vars, &config).is_none());
    }

    #[test]
    fn a_monic_polynomial_is_the_expanded_quotient_by_its_leading_coefficient() {
        // The leading term is the one whose sorted symbols come first: `a` here. A leading
        // coefficient of 1 takes the path without a division.
        for (p, lead) in [
            (
                s("a") + s("b") * s("c") + Expr::int(3) * s("d"),
                Expr::int(1),
            ),
            (
                Expr::int(2) * s("a") + s("b") - s("d").powi(2),
                Expr::int(2),
            ),
            (
                Expr::rational(-1, 2) * s("a") * s("m") + s("b") / s("l"),
                Expr::rational(-1, 2),
            ),
            // Not its own expansion: expanded all the same.
            (s("a") * (s("b") + s("c")), Expr::int(1)),
        ] {
            let (coefficient, monic) = super::monic(&p.0).unwrap();
            assert_eq!(Expr(coefficient.clone()), lead, "{p}");
            let quotient = Expr(p.0.clone() / coefficient).expand();
            assert_eq!(Expr(monic), quotient, "{p}");
        }
    }

    #[test]
    fn content_is_pulled_out_as_the_expansion_of_the_quotient_writes_it() {
        // Term by term against the division and expansion it replaces.
        for p in [
            s("la") * s("lb") * s("m2") + s("la") * s("lb") * s("m3"),
            Expr::int(2) * s("l").powi(3) * s("m") - s("l").powi(2) * s("g") * s("m").powi(2),
            s("a").powi(2) * s("b") / s("c") + Expr::rational(1, 2) * s("a") * s("b"),
        ] {
            let pulled = super::with_content(&p.0);
            let symbolica::atom::AtomView::Mul(m) = pulled.as_view() else {
                panic!("{p}: no content pulled out");
            };
            let (content, rest): (Vec<_>, Vec<_>) = m
                .iter()
                .partition(|f| !matches!(f, symbolica::atom::AtomView::Add(_)));
            let content = super::product_atoms(content.iter().map(|f| f.to_owned()).collect());
            let expected = Expr(p.0.clone() / content).expand();
            assert_eq!(Expr(rest[0].to_owned()), expected, "{p}");
            assert!((Expr(pulled) - p.clone()).is_zero(), "{p}");
        }
    }

    #[test]
    fn non_separable_still_exact() {
        let e = s("m") * Expr::apply(Func::Cos, s("q")) + s("k") * s("q");
        let sep = e.separated(&["q".to_string()]);
        assert!((sep - e).is_zero());
    }
}
