//! Polynomial ideals: constraints kept as equations, and exact zero tests on the set they define.
//!
//! A constraint such as `x² + y² + z² − l² = 0` cannot be solved for one variable as a rational
//! function of the others. The constraint algorithm keeps it as an equation, and from then on it
//! must decide whether an expression *vanishes on the constraint set*, not merely identically.
//! [`Ideal`] makes that decision exact for constraints that are polynomials in the variables they
//! name: it keeps a reduced Gröbner basis (Buchberger's algorithm, lexicographic order with the
//! variables in the order given, coefficients rational functions of the other symbols, i.e. of
//! the parameters) and reduces the numerator of an expression modulo it. The numerator reduces to
//! zero exactly when it lies in the ideal; for generators with independent differentials (a
//! regular constraint set, which is what the constraint algorithm assumes) that is the same as
//! vanishing on the set. Generators are made square-free first, so `(x² − 1)² = 0` is kept as
//! `x² − 1 = 0`.
//!
//! The coefficient field is that of rational functions of the symbols that are not variables:
//! leading coefficients such as `l²` are assumed non-zero (generic parameters), as everywhere in
//! dalembert's symbolic eliminations.
//!
//! An expression that is not polynomial in the variables of the ideal (`sin x` for a variable
//! `x`) cannot be reduced; [`Ideal::vanishes_on`] then falls back to the identical zero test,
//! which is sound (what vanishes identically vanishes on the set) but may miss a relation.

use std::collections::BTreeMap;

use crate::{Expr, View};

/// Exponents of the variables of an ideal, in their order.
type Monomial = Vec<u32>;

/// A polynomial in the variables of an ideal: monomials (ascending in lexicographic order, so
/// the leading term is the last) and their non-zero coefficients, each free of the variables.
#[derive(Clone, Debug, Default, PartialEq)]
struct Poly {
    terms: BTreeMap<Monomial, Expr>,
}

/// Why an expression was not accepted as a generator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refused {
    /// Its numerator is not polynomial in the variables.
    NotPolynomial,
    /// Buchberger's algorithm passed its budget ([`Budget`]): too many reduction steps, or a
    /// coefficient the guard refused.
    Budget,
}

/// The budget of one Gröbner basis computation: Buchberger's algorithm is doubly exponential in
/// the worst case, so a generator set that swells is refused rather than followed.
pub struct Budget<'a> {
    /// The largest number of reduction steps (one subtraction of a multiple of a basis element).
    pub steps: usize,
    /// Whether an intermediate coefficient may be kept (a size budget, a deadline).
    pub allows: &'a dyn Fn(&Expr) -> bool,
}

impl Budget<'_> {
    /// The default number of reduction steps of one basis computation.
    pub const STEPS: usize = 2_000;
    /// The largest number of terms a polynomial being reduced may reach.
    pub const TERMS: usize = 2_000;
}

/// The steps spent against a budget.
struct Spent<'a> {
    budget: Option<&'a Budget<'a>>,
    steps: std::cell::Cell<usize>,
}

impl Spent<'_> {
    fn none() -> Spent<'static> {
        Spent {
            budget: None,
            steps: std::cell::Cell::new(0),
        }
    }

    /// Counts a step with its new coefficient, on a polynomial of `terms` terms; `Err` once the
    /// budget is passed.
    fn step(&self, coefficient: &Expr, terms: usize) -> Result<(), Refused> {
        let Some(budget) = self.budget else {
            return Ok(());
        };
        self.steps.set(self.steps.get() + 1);
        if self.steps.get() > budget.steps || terms > Budget::TERMS || !(budget.allows)(coefficient)
        {
            return Err(Refused::Budget);
        }
        Ok(())
    }
}

impl Poly {
    /// The expanded expression as a polynomial in `variables`, if it is one.
    fn from_expr(e: &Expr, variables: &[String]) -> Option<Poly> {
        let expanded = e.expand();
        let terms = match expanded.view() {
            View::Add(terms) => terms,
            _ => vec![expanded],
        };
        let mut poly = Poly::default();
        for term in terms {
            let (monomial, coefficient) = split_term(&term, variables)?;
            poly.add_term(monomial, coefficient);
        }
        Some(poly)
    }

    fn to_expr(&self, variables: &[String]) -> Expr {
        self.terms.iter().fold(Expr::zero(), |acc, (m, c)| {
            let monomial = m
                .iter()
                .zip(variables)
                .filter(|(k, _)| **k > 0)
                .fold(Expr::one(), |p, (k, v)| {
                    p * Expr::symbol(v).powi(i64::from(*k))
                });
            acc + c.clone() * monomial
        })
    }

    fn add_term(&mut self, monomial: Monomial, coefficient: Expr) {
        let sum = match self.terms.remove(&monomial) {
            Some(c) => (c + coefficient).simplify(),
            None => coefficient.simplify(),
        };
        if !sum.is_zero() {
            self.terms.insert(monomial, sum);
        }
    }

    fn is_zero(&self) -> bool {
        self.terms.is_empty()
    }

    fn leading(&self) -> Option<(&Monomial, &Expr)> {
        self.terms.iter().next_back()
    }

    /// `self − c · x^m · other`.
    fn minus_multiple(&self, c: &Expr, m: &Monomial, other: &Poly) -> Poly {
        let mut out = self.clone();
        for (n, d) in &other.terms {
            let shifted: Monomial = n.iter().zip(m).map(|(a, b)| a + b).collect();
            out.add_term(shifted, -(c.clone() * d.clone()));
        }
        out
    }

    /// The polynomial divided by its leading coefficient.
    fn monic(&self) -> Poly {
        let Some((_, lead)) = self.leading() else {
            return self.clone();
        };
        let lead = lead.clone();
        Poly {
            terms: self
                .terms
                .iter()
                .map(|(m, c)| (m.clone(), (c.clone() / lead.clone()).simplify()))
                .collect(),
        }
    }

    /// The remainder of full division by `basis` (every term reduced).
    fn remainder(&self, basis: &[Poly]) -> Poly {
        self.remainder_within(basis, &Spent::none())
            .expect("no budget, no refusal")
    }

    /// [`Poly::remainder`], each step counted against `spent`.
    fn remainder_within(&self, basis: &[Poly], spent: &Spent<'_>) -> Result<Poly, Refused> {
        let mut rest = self.clone();
        let mut remainder = Poly::default();
        while let Some((m, c)) = rest.leading() {
            let (m, c) = (m.clone(), c.clone());
            let divisor = basis.iter().find_map(|g| {
                let (lead, lc) = g.leading()?;
                divides(lead, &m).then(|| (g, quotient(&m, lead), lc.clone()))
            });
            match divisor {
                Some((g, shift, lc)) => {
                    let factor = (c / lc).simplify();
                    spent.step(&factor, rest.terms.len())?;
                    rest = rest.minus_multiple(&factor, &shift, g);
                }
                None => {
                    rest.terms.remove(&m);
                    remainder.terms.insert(m, c);
                }
            }
        }
        Ok(remainder)
    }

    /// The S-polynomial of two polynomials.
    fn s_polynomial(&self, other: &Poly) -> Poly {
        let ((a, ca), (b, cb)) = (self.leading().unwrap(), other.leading().unwrap());
        let lcm: Monomial = a.iter().zip(b).map(|(x, y)| *x.max(y)).collect();
        let left =
            Poly::default().minus_multiple(&(-(ca.clone().powi(-1))), &quotient(&lcm, a), self);
        left.minus_multiple(&cb.clone().powi(-1), &quotient(&lcm, b), other)
    }
}

fn divides(a: &Monomial, b: &Monomial) -> bool {
    a.iter().zip(b).all(|(x, y)| x <= y)
}

fn quotient(b: &Monomial, a: &Monomial) -> Monomial {
    b.iter().zip(a).map(|(x, y)| x - y).collect()
}

/// One expanded term as (monomial, coefficient), if its variables appear only in non-negative
/// integer powers.
fn split_term(term: &Expr, variables: &[String]) -> Option<(Monomial, Expr)> {
    let factors = term.factors();
    let mut monomial = vec![0u32; variables.len()];
    let mut coefficient = Expr::one();
    for f in factors {
        let power = match f.view() {
            View::Symbol(s) => Some((s, 1)),
            View::Pow(base, exponent) => match (base.view(), exponent.as_small_rational()) {
                (View::Symbol(s), Some((k, 1))) if k > 0 => Some((s, k)),
                _ => None,
            },
            _ => None,
        };
        match power.and_then(|(s, k)| Some((variables.iter().position(|v| *v == s)?, k))) {
            Some((i, k)) => monomial[i] += u32::try_from(k).ok()?,
            None if variables.iter().any(|v| f.depends_on(v)) => return None,
            None => coefficient = coefficient * f,
        }
    }
    Some((monomial, coefficient))
}

/// The ideal generated by constraints kept as equations (see the module documentation).
#[derive(Clone, Debug, Default)]
pub struct Ideal {
    /// The variables that may occur in generators, in the order of the lexicographic ordering.
    candidates: Vec<String>,
    /// The variables that do occur in some generator.
    variables: Vec<String>,
    /// The generators, square-free, as given.
    generators: Vec<Expr>,
    /// The reduced Gröbner basis, monic.
    basis: Vec<Poly>,
}

impl Ideal {
    /// The zero ideal over `candidates` (the variables generators may be polynomial in; every
    /// other symbol is a coefficient).
    pub fn new(candidates: Vec<String>) -> Ideal {
        Ideal {
            candidates,
            ..Ideal::default()
        }
    }

    /// Whether no generator has been added.
    pub fn is_empty(&self) -> bool {
        self.generators.is_empty()
    }

    /// The generators, square-free, in the order added.
    pub fn generators(&self) -> &[Expr] {
        &self.generators
    }

    /// Whether the ideal is the whole ring (the generators have no common zero: `1` is in it).
    pub fn is_whole(&self) -> bool {
        self.basis
            .iter()
            .any(|g| g.terms.len() == 1 && g.terms.keys().all(|m| m.iter().all(|k| *k == 0)))
    }

    /// Adds the numerator of `generator` (square-free) and recomputes the basis within the
    /// default budget ([`Budget::STEPS`] steps, any coefficient). Refused, with the ideal
    /// unchanged, when the numerator is not polynomial in the candidate variables or the basis
    /// passes the budget.
    pub fn insert(&mut self, generator: &Expr) -> Result<(), Refused> {
        self.insert_within(
            generator,
            &Budget {
                steps: Budget::STEPS,
                allows: &|_| true,
            },
        )
    }

    /// [`Ideal::insert`] within `budget`.
    pub fn insert_within(&mut self, generator: &Expr, budget: &Budget<'_>) -> Result<(), Refused> {
        let (numerator, _) = generator.numerator_denominator();
        let polynomial = Poly::from_expr(&numerator, &self.candidates).is_some();
        if !polynomial {
            return Err(Refused::NotPolynomial);
        }
        let generator = numerator.square_free();
        let mut generators = self.generators.clone();
        generators.push(generator);
        let variables: Vec<String> = self
            .candidates
            .iter()
            .filter(|v| generators.iter().any(|g| g.depends_on(v)))
            .cloned()
            .collect();
        let polys = generators
            .iter()
            .map(|g| Poly::from_expr(g, &variables))
            .collect::<Option<Vec<Poly>>>()
            .ok_or(Refused::NotPolynomial)?;
        let spent = Spent {
            budget: Some(budget),
            steps: std::cell::Cell::new(0),
        };
        self.basis = groebner(polys, &spent)?;
        self.variables = variables;
        self.generators = generators;
        Ok(())
    }

    /// `e` with its numerator and its denominator each reduced modulo the basis (equal to `e` on
    /// the set, where `e` is defined); `e` itself when either is not polynomial in the variables
    /// or the denominator reduces to zero.
    pub fn reduce(&self, e: &Expr) -> Expr {
        if self.basis.is_empty() {
            return e.clone();
        }
        let (n, d) = e.numerator_denominator();
        let reduced = |part: &Expr| {
            Poly::from_expr(part, &self.variables)
                .map(|p| p.remainder(&self.basis).to_expr(&self.variables))
        };
        match (reduced(&n), reduced(&d)) {
            (Some(n), Some(d)) if !d.is_zero() => (n / d).simplify(),
            _ => e.clone(),
        }
    }

    /// `e` reduced modulo the basis when that makes it smaller, `e` otherwise: a form to show.
    pub fn reduce_if_shorter(&self, e: &Expr) -> Expr {
        if self.basis.is_empty() {
            return e.clone();
        }
        let reduced = self.reduce(e);
        if reduced.size() < e.size() {
            reduced
        } else {
            e.clone()
        }
    }

    /// Whether `e` vanishes on the set the ideal defines (exact for a numerator polynomial in the
    /// variables; otherwise the identical zero test).
    pub fn vanishes_on(&self, e: &Expr) -> bool {
        if self.basis.is_empty() {
            return e.vanishes();
        }
        let (n, _) = e.numerator_denominator();
        match Poly::from_expr(&n, &self.variables) {
            Some(p) => p.remainder(&self.basis).is_zero(),
            None => e.vanishes(),
        }
    }

    /// The reduced Gröbner basis as expressions.
    pub fn basis(&self) -> Vec<Expr> {
        self.basis
            .iter()
            .map(|g| g.to_expr(&self.variables))
            .collect()
    }
}

/// Buchberger's algorithm with the coprime-leading-monomials criterion, then inter-reduction.
fn groebner(generators: Vec<Poly>, spent: &Spent<'_>) -> Result<Vec<Poly>, Refused> {
    let mut basis: Vec<Poly> = Vec::new();
    for g in generators {
        let r = g.remainder_within(&basis, spent)?;
        if !r.is_zero() {
            basis.push(r.monic());
        }
    }
    let mut pairs: Vec<(usize, usize)> = (0..basis.len())
        .flat_map(|j| (0..j).map(move |i| (i, j)))
        .collect();
    while let Some((i, j)) = pairs.pop() {
        let (a, b) = (basis[i].leading().unwrap().0, basis[j].leading().unwrap().0);
        if a.iter().zip(b).all(|(x, y)| *x == 0 || *y == 0) {
            continue;
        }
        let r = basis[i]
            .s_polynomial(&basis[j])
            .remainder_within(&basis, spent)?;
        if !r.is_zero() {
            let k = basis.len();
            basis.push(r.monic());
            pairs.extend((0..k).map(|i| (i, k)));
        }
    }
    // Minimal: drop elements whose leading monomial another's divides; then reduce each.
    let mut minimal: Vec<Poly> = Vec::new();
    for (i, g) in basis.iter().enumerate() {
        let lead = g.leading().unwrap().0;
        let redundant = basis.iter().enumerate().any(|(j, h)| {
            let other = h.leading().unwrap().0;
            j != i && divides(other, lead) && (other != lead || j < i)
        });
        if !redundant {
            minimal.push(g.clone());
        }
    }
    let mut reduced = Vec::with_capacity(minimal.len());
    for i in 0..minimal.len() {
        let others: Vec<Poly> = minimal
            .iter()
            .enumerate()
            .filter(|(j, _)| *j != i)
            .map(|(_, g)| g.clone())
            .collect();
        reduced.push(minimal[i].remainder_within(&others, spent)?.monic());
    }
    reduced.sort_by(|a, b| a.leading().unwrap().0.cmp(b.leading().unwrap().0));
    Ok(reduced)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(name: &str) -> Expr {
        Expr::symbol(name)
    }

    fn vars(names: &[&str]) -> Vec<String> {
        names.iter().map(|n| n.to_string()).collect()
    }

    #[test]
    fn a_sphere_and_its_tangency() {
        let (x, y, z, u, v, w, l) = (s("x"), s("y"), s("z"), s("u"), s("v"), s("w"), s("l"));
        let mut ideal = Ideal::new(vars(&["x", "y", "z", "u", "v", "w"]));
        let sphere = x.powi(2) + y.powi(2) + z.powi(2) - l.powi(2);
        let tangent = x.clone() * u.clone() + y.clone() * v.clone() + z.clone() * w.clone();
        ideal.insert(&sphere).unwrap();
        ideal.insert(&tangent).unwrap();
        // (x u + y v + z w)(x + y) and the sphere times anything are in the ideal.
        assert!(ideal.vanishes_on(&(tangent.clone() * (x.clone() + y.clone()))));
        assert!(ideal.vanishes_on(&((sphere.clone() * u.clone()) / (l.clone() + x.clone()))));
        // x^2 + y^2 + z^2 = l^2 on the set, but x = l is not.
        assert!(ideal.vanishes_on(&(x.powi(2) + y.powi(2) + z.powi(2) - l.powi(2))));
        assert!(!ideal.vanishes_on(&(x.clone() - l.clone())));
        assert!(!ideal.vanishes_on(&(x.clone() * u.clone())));
        // The coefficient of tau in m |v|^2 - tau |x|^2 reduces to l^2.
        let tau = s("tau");
        let reduced = ideal.reduce(&(tau.clone() * (x.powi(2) + y.powi(2) + z.powi(2))));
        assert!((reduced - tau * l.powi(2)).is_zero());
        assert!(!ideal.is_whole());
    }

    #[test]
    fn a_basis_that_swells_is_refused_by_its_budget() {
        let mut ideal = Ideal::new(vars(&["x", "y"]));
        ideal
            .insert(&(s("x").powi(3) - s("y").powi(2) + s("x") * s("y")))
            .unwrap();
        let tight = Budget {
            steps: 1,
            allows: &|_| true,
        };
        let before = ideal.basis();
        let g = s("x").powi(2) * s("y") - s("y").powi(3) + Expr::one();
        assert_eq!(ideal.insert_within(&g, &tight), Err(Refused::Budget));
        assert_eq!(ideal.basis(), before, "the ideal is unchanged");
    }

    #[test]
    fn inconsistent_generators_give_the_whole_ring() {
        let mut ideal = Ideal::new(vars(&["x", "y"]));
        ideal
            .insert(&(s("x").powi(2) + s("y").powi(2) - Expr::one()))
            .unwrap();
        ideal.insert(&s("x")).unwrap();
        ideal.insert(&s("y")).unwrap();
        assert!(ideal.is_whole());
    }

    #[test]
    fn generators_are_square_free_and_polynomial() {
        let mut ideal = Ideal::new(vars(&["x"]));
        ideal.insert(&(Expr::int(3) * s("x").powi(2))).unwrap();
        assert!(ideal.vanishes_on(&s("x")));
        let mut trig = Ideal::new(vars(&["x"]));
        let cos = Expr::apply(crate::Func::Cos, s("x"));
        assert_eq!(trig.insert(&cos), Err(Refused::NotPolynomial));
        assert!(trig.is_empty());
    }
}
