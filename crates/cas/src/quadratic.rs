//! Splitting an expression that is a polynomial of degree at most two in chosen variables into
//! its coefficients: `f = Σ_{a≤b} q_ab v_a v_b + Σ_a l_a v_a + c`.
//!
//! A mechanical Lagrangian is such a polynomial in the velocities, and its Hessian is read off the
//! coefficients (`W_aa = 2 q_aa`, `W_ab = q_ab`) in `O(size of the expansion)`, where
//! differentiating twice per entry would cost `O(n²)` passes over the whole expression.
//!
//! The coefficients are read by distributing products over the sums that hold a variable
//! ([`monomials`]): each monomial is multiplied out on its own (the products of the factors
//! that recur, a pair of velocity coefficients or a body's mass, formed once; the monomials of a
//! slot that share the factors of the sums they came from, as one product with the sum of
//! their other factors) and lands in its slot, and each slot's sum is expanded. That is the
//! expansion of the whole of `f` grouped by slot, without normalising one sum of every monomial
//! (for the flat chain, `n³` of them). What that route
//! does not read — a variable inside a function or a denominator, a power above the second of a
//! sum holding a variable, a product of degree three whose terms may cancel — is expanded whole,
//! as before, and gives the same coefficients.

use symbolica::atom::{Atom, AtomCore, AtomView, Symbol};

use crate::expr::{product_atoms, sum_atoms, sym};
use crate::hash::FastMap;
use crate::simplify::is_expanded;
use crate::view::small_rational;
use crate::Expr;

/// The coefficients of a polynomial of degree ≤ 2 in some variables.
#[derive(Clone, Debug)]
pub struct QuadraticForm {
    /// `q[a][b]` for `a ≤ b`, the coefficient of `v_a v_b` (of `v_a²` when `a = b`); entries
    /// below the diagonal are zero.
    pub quadratic: Vec<Vec<Expr>>,
    /// `l[a]`, the coefficient of `v_a`.
    pub linear: Vec<Expr>,
    /// The part free of the variables.
    pub constant: Expr,
}

/// Where one term of the expansion goes.
enum Slot {
    Constant,
    Linear(usize),
    Quadratic(usize, usize),
}

impl Expr {
    /// The coefficients of `self` as a polynomial of degree ≤ 2 in `vars` (after expansion), or
    /// `None` when it is not one (a higher degree, a variable inside a function or a
    /// denominator).
    pub fn quadratic_form(&self, vars: &[String]) -> Option<QuadraticForm> {
        let symbols: Vec<Symbol> = vars.iter().map(|v| sym(v)).collect();
        match monomials(self.0.as_view(), &symbols) {
            Some(terms) => Some(from_monomials(terms, symbols.len())),
            None => quadratic_form_by_expansion(&self.0, &symbols),
        }
    }
}

/// The coefficients read off the expansion of the whole of `f` (the reference route, and the
/// route for what [`monomials`] does not read: a variable inside a function or a denominator, a
/// power of a sum of variables above the second, terms of higher degree that may cancel).
fn quadratic_form_by_expansion(f: &Atom, symbols: &[Symbol]) -> Option<QuadraticForm> {
    let n = symbols.len();
    let expanded = f.expand();
    let mut buckets: Vec<Vec<Atom>> = vec![Vec::new(); 1 + n + n * n];
    let mut place = |term: AtomView<'_>| -> Option<()> {
        let (slot, coefficient) = split_term(term, symbols)?;
        buckets[slot.index(n)].push(coefficient);
        Some(())
    };
    match expanded.as_view() {
        AtomView::Add(terms) => {
            for t in terms.iter() {
                place(t)?;
            }
        }
        view => place(view)?,
    }
    Some(assemble(buckets.into_iter().map(|b| Expr(sum_atoms(b))), n))
}

/// The coefficients from the bucket sums in slot order (see [`Slot::index`]).
fn assemble(mut sums: impl Iterator<Item = Expr>, n: usize) -> QuadraticForm {
    let constant = sums.next().unwrap_or_else(Expr::zero);
    let linear: Vec<Expr> = sums.by_ref().take(n).collect();
    let flat: Vec<Expr> = sums.collect();
    let quadratic = (0..n)
        .map(|a| (0..n).map(|b| flat[a * n + b].clone()).collect())
        .collect();
    QuadraticForm {
        quadratic,
        linear,
        constant,
    }
}

impl Slot {
    /// The bucket of this slot among `1 + n + n²`: the constant, then the `n` linear
    /// coefficients, then the `n × n` quadratic ones by row (only `a ≤ b` is used).
    fn index(&self, n: usize) -> usize {
        match *self {
            Slot::Constant => 0,
            Slot::Linear(a) => 1 + a,
            Slot::Quadratic(a, b) => 1 + n + a * n + b,
        }
    }

    /// The slot of the product of a monomial in this slot and one in `other`, `None` above
    /// degree two.
    fn times(&self, other: &Slot) -> Option<Slot> {
        let mut vars: Vec<usize> = self.vars().chain(other.vars()).collect();
        vars.sort_unstable();
        match vars.as_slice() {
            [] => Some(Slot::Constant),
            [a] => Some(Slot::Linear(*a)),
            [a, b] => Some(Slot::Quadratic(*a, *b)),
            _ => None,
        }
    }

    fn vars(&self) -> impl Iterator<Item = usize> {
        let (first, second) = match *self {
            Slot::Constant => (None, None),
            Slot::Linear(a) => (Some(a), None),
            Slot::Quadratic(a, b) => (Some(a), Some(b)),
        };
        first.into_iter().chain(second)
    }
}

/// One monomial of `f` in the variables: its slot and the factors of its coefficient, views
/// into `f` (no factor: the coefficient 1).
struct Monomial<'a> {
    slot: Slot,
    factors: Vec<AtomView<'a>>,
    /// Where the factors the outermost product added begin (`factors[outer..]`): the rest come
    /// from the sums it distributed over, and recur across its monomials and across products.
    outer: usize,
}

/// The monomials of `f` in `vars`, by distributing products over the sums that hold a variable
/// and nothing else: a factor free of the variables is one opaque factor of the coefficient,
/// however it is built. `None` when a variable is inside a function, a denominator or a power
/// other than the first and second, or when a product reaches degree three (the expansion
/// decides those: higher terms may cancel).
///
/// The coefficients of a slot, multiplied out and expanded, are the polynomial the expansion of
/// the whole of `f` groups under it, and expansion is canonical: [`Expr::quadratic_form`] gives
/// what [`quadratic_form_by_expansion`] gives, with the multiplication of `n³` monomials that
/// never meet instead of the normalisation of one sum of all of them (the flat chain's
/// Lagrangian, `Σ_k m_k |Σ_{i≤k} ṙ_i|²`).
fn monomials<'a>(f: AtomView<'a>, vars: &[Symbol]) -> Option<Vec<Monomial<'a>>> {
    if !mentions(f, vars) {
        return Some(vec![Monomial {
            slot: Slot::Constant,
            factors: vec![f],
            outer: 0,
        }]);
    }
    match f {
        AtomView::Var(v) => {
            let k = vars.iter().position(|s| *s == v.get_symbol())?;
            Some(vec![Monomial {
                slot: Slot::Linear(k),
                factors: Vec::new(),
                outer: 0,
            }])
        }
        AtomView::Add(terms) => {
            let mut out = Vec::new();
            for t in terms.iter() {
                out.extend(monomials(t, vars)?);
            }
            Some(out)
        }
        AtomView::Mul(factors) => {
            let mut out = vec![Monomial {
                slot: Slot::Constant,
                factors: Vec::new(),
                outer: 0,
            }];
            let mut opaque = Vec::new();
            for factor in factors.iter() {
                if mentions(factor, vars) {
                    out = times(&out, &monomials(factor, vars)?)?;
                } else {
                    opaque.push(factor);
                }
            }
            for m in &mut out {
                m.outer = m.factors.len();
                m.factors.extend(opaque.iter().copied());
            }
            Some(out)
        }
        AtomView::Pow(p) => {
            let (base, exp) = p.get_base_exp();
            let base = monomials(base, vars)?;
            match small_rational(exp) {
                Some((1, 1)) => Some(base),
                Some((2, 1)) => times(&base, &base),
                _ => None,
            }
        }
        AtomView::Num(_) | AtomView::Fun(_) => None,
    }
}

/// Every product of a monomial of `a` and one of `b`; `None` above degree two.
fn times<'a>(a: &[Monomial<'a>], b: &[Monomial<'a>]) -> Option<Vec<Monomial<'a>>> {
    let mut out = Vec::with_capacity(a.len() * b.len());
    for x in a {
        for y in b {
            let slot = x.slot.times(&y.slot)?;
            let mut factors = Vec::with_capacity(x.factors.len() + y.factors.len());
            factors.extend(x.factors.iter().copied());
            factors.extend(y.factors.iter().copied());
            let outer = factors.len();
            out.push(Monomial {
                slot,
                factors,
                outer,
            });
        }
    }
    Some(out)
}

/// Monomials of one slot (its index) that share their inner factors, with the outer factors of
/// each.
type Group<'m, 'a> = (usize, &'m [AtomView<'a>], Vec<&'m [AtomView<'a>]>);

/// The quadratic form of the monomials: each slot's coefficients multiplied out, summed and
/// expanded.
fn from_monomials<'a>(terms: Vec<Monomial<'a>>, n: usize) -> QuadraticForm {
    let mut buckets: Vec<Vec<Atom>> = vec![Vec::new(); 1 + n + n * n];
    // The products of the two parts of each monomial's factors, each formed once: the flat
    // chain's `l_i cos θ_i · l_j cos θ_j` recurs in every body below both links, and a body's
    // `m_k / 2` in every monomial of its square.
    let mut products: FastMap<Vec<AtomView<'a>>, Atom> = FastMap::default();
    let mut product = |factors: &[AtomView<'a>]| -> Atom {
        products
            .entry(factors.to_vec())
            .or_insert_with(|| product_atoms(factors.iter().map(|f| f.to_owned()).collect()))
            .clone()
    };
    // The monomials of a slot that share their inner factors, in the order first met: their
    // coefficient is the inner product times the sum of the outer ones (the flat chain's
    // `l_i cos θ_i l_j cos θ_j · (m_k + … + m_n)/2`), one product instead of one per body.
    let mut groups: Vec<Group<'_, 'a>> = Vec::new();
    let mut group_of: FastMap<(usize, &[AtomView<'a>]), usize> = FastMap::default();
    for m in &terms {
        let (inner, outer) = m.factors.split_at(m.outer);
        let slot = m.slot.index(n);
        let next = groups.len();
        let g = *group_of.entry((slot, inner)).or_insert(next);
        if g == next {
            groups.push((slot, inner, Vec::new()));
        }
        groups[g].2.push(outer);
    }
    for (slot, inner, outers) in groups {
        if inner.is_empty() {
            buckets[slot].extend(outers.iter().map(|outer| product(outer)));
            continue;
        }
        let coefficient = match outers.as_slice() {
            [[]] => product(inner),
            // One normalisation of all the factors, not of each part and then of their product.
            [outer] => product(&[inner, *outer].concat()),
            _ => {
                let outer_sum = sum_atoms(outers.iter().map(|outer| product(outer)).collect());
                product(inner) * outer_sum
            }
        };
        buckets[slot].push(coefficient);
    }
    assemble(buckets.into_iter().map(|b| Expr(expanded(sum_atoms(b)))), n)
}

/// `atom` expanded (not charged to the work meter, as the expansion of the whole is not), with
/// no expansion when it is its own.
fn expanded(atom: Atom) -> Atom {
    if is_expanded(atom.as_view()) {
        atom
    } else {
        atom.expand()
    }
}

/// The variables of one monomial of the expansion and its coefficient.
fn split_term(term: AtomView<'_>, vars: &[Symbol]) -> Option<(Slot, Atom)> {
    let factors: Vec<AtomView<'_>> = match term {
        AtomView::Mul(m) => m.iter().collect(),
        view => vec![view],
    };
    let mut found: Vec<usize> = Vec::new();
    let mut rest: Vec<Atom> = Vec::new();
    for factor in factors {
        match variable_power(factor, vars) {
            Some((k, e)) => found.extend(std::iter::repeat_n(k, e)),
            None => {
                if mentions(factor, vars) {
                    return None;
                }
                rest.push(factor.to_owned());
            }
        }
    }
    found.sort_unstable();
    let slot = match found.as_slice() {
        [] => Slot::Constant,
        [a] => Slot::Linear(*a),
        [a, b] => Slot::Quadratic(*a, *b),
        _ => return None,
    };
    let coefficient = product_atoms(rest);
    Some((slot, coefficient))
}

/// `Some((k, e))` when `factor` is `vars[k]^e` with `e` a positive integer (≤ 2).
fn variable_power(factor: AtomView<'_>, vars: &[Symbol]) -> Option<(usize, usize)> {
    match factor {
        AtomView::Var(v) => vars
            .iter()
            .position(|s| *s == v.get_symbol())
            .map(|k| (k, 1)),
        AtomView::Pow(p) => {
            let (base, exp) = p.get_base_exp();
            let AtomView::Var(v) = base else { return None };
            let k = vars.iter().position(|s| *s == v.get_symbol())?;
            match small_rational(exp) {
                Some((e @ 1..=2, 1)) => Some((k, e as usize)),
                // Any other power of a variable is not of degree ≤ 2; `mentions` rejects it.
                _ => None,
            }
        }
        _ => None,
    }
}

/// Whether any of `vars` occurs in `view`.
fn mentions(view: AtomView<'_>, vars: &[Symbol]) -> bool {
    match view {
        AtomView::Num(_) => false,
        AtomView::Var(v) => vars.contains(&v.get_symbol()),
        AtomView::Fun(f) => f.iter().any(|a| mentions(a, vars)),
        AtomView::Pow(p) => {
            let (b, e) = p.get_base_exp();
            mentions(b, vars) || mentions(e, vars)
        }
        AtomView::Mul(m) => m.iter().any(|a| mentions(a, vars)),
        AtomView::Add(a) => a.iter().any(|t| mentions(t, vars)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Func;

    fn s(name: &str) -> Expr {
        Expr::symbol(name)
    }

    #[test]
    fn pendulum_coefficients() {
        // L = m/2 (x' + l cos(q) q')² + m/2 (l sin(q) q')² − m g l cos(q) + F x
        let (x, q) = (s("xd"), s("qd"));
        let (m, l, g, f) = (s("m"), s("l"), s("g"), s("F"));
        let c = Expr::apply(Func::Cos, s("q"));
        let sn = Expr::apply(Func::Sin, s("q"));
        let lagrangian = m.clone() / Expr::int(2)
            * (x.clone() + l.clone() * c.clone() * q.clone()).powi(2)
            + m.clone() / Expr::int(2) * (l.clone() * sn.clone() * q.clone()).powi(2)
            - m.clone() * g.clone() * l.clone() * c.clone()
            + f.clone() * s("x");
        let vars = ["xd".to_string(), "qd".to_string()];
        let form = lagrangian.quadratic_form(&vars).expect("quadratic");
        // W = [[m, m l cos q], [m l cos q, m l²]]: q_00 = m/2, q_01 = m l cos q, q_11 = m l²/2.
        assert!((form.quadratic[0][0].clone() - m.clone() / Expr::int(2)).is_zero());
        assert!((form.quadratic[0][1].clone() - m.clone() * l.clone() * c.clone()).is_zero());
        assert!((form.quadratic[1][1].clone() - m.clone() * l.powi(2) / Expr::int(2)).is_zero());
        assert!(form.quadratic[1][0].is_literal_zero());
        assert!(form.linear.iter().all(|e| e.is_zero()));
        assert!((form.constant - (f * s("x") - m * g * l * c)).is_zero());
    }

    #[test]
    fn not_quadratic() {
        let v = ["v".to_string()];
        assert!(s("v").powi(3).quadratic_form(&v).is_none());
        assert!(Expr::apply(Func::Sin, s("v")).quadratic_form(&v).is_none());
        assert!((Expr::one() / s("v")).quadratic_form(&v).is_none());
        assert!((s("v") * s("a") + s("a")).quadratic_form(&v).is_some());
    }
    /// The structural route's form and the expansion's, entry by entry (as atoms: both are
    /// expanded normal forms), after checking that the structural route reads `f` at all.
    fn assert_routes_agree(f: &Expr, vars: &[&str]) {
        let symbols: Vec<Symbol> = vars.iter().map(|v| sym(v)).collect();
        let terms = monomials(f.0.as_view(), &symbols).expect("read without expansion");
        let structural = from_monomials(terms, symbols.len());
        let expanded = quadratic_form_by_expansion(&f.0, &symbols).expect("quadratic");
        assert_eq!(structural.constant, expanded.constant, "constant of {f}");
        assert_eq!(structural.linear, expanded.linear, "linear part of {f}");
        assert_eq!(
            structural.quadratic, expanded.quadratic,
            "quadratic part of {f}"
        );
    }

    #[test]
    fn structural_route_gives_the_expansion() {
        let (v1, v2, v3) = (s("v1"), s("v2"), s("v3"));
        let (a, b, c, m1, m2) = (s("a"), s("b"), s("c"), s("m1"), s("m2"));
        // A two-link chain in the shape of the flat spec, the sines and cosines hidden as symbols.
        let (c1, c2, s1, s2) = (s("c1"), s("c2"), s("s1"), s("s2"));
        let chain = m1.clone() / Expr::int(2)
            * ((v1.clone() - a.clone() * c1.clone() * v2.clone()).powi(2)
                + (a.clone() * s1.clone() * v2.clone()).powi(2))
            + m2.clone() / Expr::int(2)
                * ((v1.clone()
                    - a.clone() * c1.clone() * v2.clone()
                    - b.clone() * c2.clone() * v3.clone())
                .powi(2)
                    + (a.clone() * s1.clone() * v2.clone() + b.clone() * s2.clone() * v3.clone())
                        .powi(2))
            - m2.clone() * c.clone() * (a.clone() * c1.clone() + b.clone() * c2.clone());
        assert_routes_agree(&chain, &["v1", "v2", "v3"]);
        // Factors free of the variables that are sums (the expansion multiplies them out too),
        // products of two linear factors, a square with a constant part, like terms that cancel.
        let mixed = (m1.clone() + m2.clone()) / Expr::int(3)
            * (v1.clone() + a.clone() * v2.clone()).powi(2)
            + (b.clone() + c.clone()) * v1.clone()
            + (v1.clone() + a.clone()) * (v2.clone() - b.clone()) * (c.clone() + Expr::one())
            + (v3.clone() + c.clone() + Expr::int(2)).powi(2)
            - a.clone() * v1.clone() * v2.clone()
            + (a.clone() + b.clone()).powi(3);
        assert_routes_agree(&mixed, &["v1", "v2", "v3"]);
        // A variable alone, a number alone, a square of a variable.
        assert_routes_agree(&v1, &["v1"]);
        assert_routes_agree(&Expr::int(7), &["v1"]);
        assert_routes_agree(&(a.clone() * v1.powi(2)), &["v1"]);
    }

    #[test]
    fn hand_derived_coefficients_of_a_product() {
        // (v1 + a)(v2 − b) = v1 v2 − b v1 + a v2 − a b.
        let (v1, v2, a, b) = (s("v1"), s("v2"), s("a"), s("b"));
        let vars = ["v1".to_string(), "v2".to_string()];
        let form = ((v1 + a.clone()) * (v2 - b.clone()))
            .quadratic_form(&vars)
            .unwrap();
        assert!((form.quadratic[0][1].clone() - Expr::one()).is_zero());
        assert!(form.quadratic[0][0].is_literal_zero() && form.quadratic[1][1].is_literal_zero());
        assert!((form.linear[0].clone() + b.clone()).is_zero());
        assert!((form.linear[1].clone() - a.clone()).is_zero());
        assert!((form.constant + a * b).is_zero());
    }

    #[test]
    fn what_the_structural_route_leaves_to_the_expansion() {
        let v = s("v");
        let symbols = [sym("v")];
        let read = |f: &Expr| monomials(f.0.as_view(), &symbols).is_some();
        // Degree three that cancels: only the expansion sees that (v + 1)³ − v³ is quadratic.
        let cancelling = (v.clone() + Expr::one()).powi(3) - v.powi(3);
        assert!(!read(&cancelling));
        let form = cancelling
            .quadratic_form(&["v".to_string()])
            .expect("quadratic");
        assert!((form.quadratic[0][0].clone() - Expr::int(3)).is_zero());
        assert!((form.linear[0].clone() - Expr::int(3)).is_zero());
        assert!((form.constant - Expr::one()).is_zero());
        // A variable inside a function or a denominator, a product of degree three.
        assert!(!read(&Expr::apply(Func::Sin, v.clone())));
        assert!(!read(&(Expr::one() / (v.clone() + s("a")))));
        assert!(!read(&(v.powi(2) * (v.clone() + s("a")))));
        assert!(!read(&(s("a") * v.clone() * v.clone() * v.clone())));
    }
}
