//! The reduction of a polynomial in hidden sines, cosines and radicals (`simplify`'s
//! [`TrigTable`]) modulo `sin² + cos² = 1` and `r^q = b`: the step of a normal form that
//! makes it canonical in one orientation (the squares of the cosines replaced, or those of the
//! sines).

use symbolica::atom::{Atom, AtomCore, AtomView, Symbol};

use super::{hidden_symbol, is_polynomial, Coefficients, Hidden, TrigTable};
use crate::expanded::is_expanded;
use crate::expr::{metered, product_atoms, sum_atoms, with_symbol_name, Trig};
use crate::remember::{remembered, Remembered};
use crate::view::machine_rational;
use crate::Expr;

/// Reduces a polynomial modulo `big_k² = 1 − small_k²` for every trig pair: the expanded
/// polynomial is converted to Symbolica's sparse polynomial type and, one pair at a time, written
/// as `Σ_j a_j big^j` (the `a_j` free of `big`) and replaced by `Σ_j a_j big^(j mod 2)
/// (1 − small²)^(j div 2)`. Reducing by one pair brings no other pair's `big`, and the leading
/// monomials `big_k²` are coprime, so one pass per pair gives the normal form (a Gröbner normal
/// form; it has no `big^2`). The same reduction on expression trees, each monomial rewritten and
/// the sums expanded, took 1.6 s of the rolling disc's 4.1 s.
///
/// Radicals are reduced first (`r^e` with `e ≥ q` becomes `r^(e mod q) · b^(e div q)`, see
/// [`reduce_radicals`]); their bases may bring trig squares, which the trig pass then removes.
pub(crate) fn reduce_trig(poly: &Atom, table: &TrigTable, going: Trig) -> Atom {
    reduce_prepared(prepare(poly, table), table, going)
}

/// The part of [`reduce_trig`] that does not depend on the orientation: `poly` expanded, its
/// radicals reduced.
pub(super) fn prepare(poly: &Atom, table: &TrigTable) -> Atom {
    let expanded = expand_metered(poly);
    if table.radicals.is_empty() {
        expanded
    } else {
        reduce_radicals(expanded, table)
    }
}

/// [`reduce_trig`] of a polynomial already [`prepare`]d: its squares of `going` reduced.
///
/// Remembered by polynomial, one memory per orientation: the result is a function of the
/// polynomial alone (its hidden symbols are the table's, and only the pairs whose symbols it
/// holds reduce anything), and the normal forms of a display's candidates reduce the same
/// denominators again and again (two thirds of the snakeboard's reductions repeated one made
/// before). The reduction charges no work units, so the memory changes no budget.
pub(super) fn reduce_prepared(expanded: Atom, table: &TrigTable, going: Trig) -> Atom {
    if table.arguments.is_empty() || !has_trig_square(expanded.as_view(), table) {
        return expanded;
    }
    let memory = match going {
        Trig::Cos => &COSINES_REDUCED,
        Trig::Sin => &SINES_REDUCED,
    };
    let key = Expr(expanded);
    remembered(memory, &key, Expr::byte_size, || {
        let pairs: Vec<(Symbol, Symbol)> = (0..table.arguments.len())
            .map(|k| match going {
                Trig::Cos => (hidden_symbol(Hidden::Cos, k), hidden_symbol(Hidden::Sin, k)),
                Trig::Sin => (hidden_symbol(Hidden::Sin, k), hidden_symbol(Hidden::Cos, k)),
            })
            .collect();
        Expr(crate::polynomial::reduce_squares(&key.0, &pairs).unwrap_or_else(|| key.0.clone()))
    })
    .0
}

thread_local! {
    /// The reductions of the cosines' squares made so far ([`reduce_prepared`]).
    static COSINES_REDUCED: std::cell::RefCell<Remembered<Expr>> = Default::default();
    /// The reductions of the sines' squares made so far ([`reduce_prepared`]).
    static SINES_REDUCED: std::cell::RefCell<Remembered<Expr>> = Default::default();
}

/// `metered(atom.expand())`, with no expansion when `atom` is its own ([`is_expanded`]): the
/// numerators reduced here mostly come expanded (from an expansion, `together`, a reduction),
/// and expanding one again was a twentieth of the snakeboard's instructions; so do the entries
/// of a quadratic form ([`super::integer_polynomial_expansion`]).
///
/// A polynomial whose expansion multiplies out ([`multiplies_out`]) is expanded as sparse
/// polynomials ([`crate::polynomial::expansion`]), anything else on trees.
pub(crate) fn expand_metered(atom: &Atom) -> Atom {
    let view = atom.as_view();
    if is_expanded(view) {
        metered(atom.clone())
    } else if let Some(distributed) = number_distributed(view) {
        metered(distributed)
    } else if multiplies_out(view) {
        metered(crate::polynomial::expansion(atom))
    } else {
        metered(atom.expand())
    }
}

/// The expansion of a number times an expanded sum (`together` writes a numerator so, `−1`
/// times its terms): each term times the number, summed in one normalisation, which is the
/// tree the expansion gives (it walks every term for a product to distribute, a quarter more
/// work on the rolling disc's 165,000-node numerators). `None` for any other shape.
pub(super) fn number_distributed(view: AtomView<'_>) -> Option<Atom> {
    let AtomView::Mul(m) = view else { return None };
    let mut factors = m.iter();
    let (first, second) = (factors.next()?, factors.next()?);
    if factors.next().is_some() {
        return None;
    }
    let (number, sum) = match (first, second) {
        (AtomView::Num(_), AtomView::Add(sum)) => (first, sum),
        (AtomView::Add(sum), AtomView::Num(_)) => (second, sum),
        _ => return None,
    };
    if !sum.iter().all(is_expanded) {
        return None;
    }
    let number = number.to_owned();
    Some(sum_atoms(
        sum.iter().map(|t| t.to_owned() * &number).collect(),
    ))
}

/// Whether `view` is a polynomial with rational coefficients whose expansion multiplies out
/// ([`PolynomialShape`], one walk): it may have at least half as many terms as `view` has
/// nodes, and its degree fits the sparse polynomials' exponents. The sparse polynomials multiply without a normalisation per product
/// (a power of a 145-node sum expanded to 38,000 nodes in 5 ms instead of 440 ms on the rolling
/// torus), but their conversion costs a fixed few microseconds and building the tree back costs
/// about a fifth more than the trees' own expansion of an almost expanded sum (a sum of 160,000
/// nodes with a few products to distribute), where the bound on terms is far below the nodes.
/// Over every expansion of the goldens the choice came within 3% of the faster of the two.
fn multiplies_out(view: AtomView<'_>) -> bool {
    PolynomialShape::of(view).is_some_and(|shape| {
        shape.degree <= u64::from(u16::MAX) && 2.0 * shape.terms >= shape.nodes as f64
    })
}

/// A polynomial's size and upper bounds on the number of terms and on the total degree of its
/// expansion, read in one walk.
struct PolynomialShape {
    nodes: usize,
    terms: f64,
    degree: u64,
}

impl PolynomialShape {
    /// The shape of `view`, or `None` when it is not a polynomial with real rational
    /// coefficients of machine words and natural exponents. A sum adds its terms' terms and
    /// takes the largest degree, a product multiplies the terms and adds the degrees, a power
    /// raises.
    fn of(view: AtomView<'_>) -> Option<PolynomialShape> {
        let leaf = |degree| PolynomialShape {
            nodes: 1,
            terms: 1.0,
            degree,
        };
        match view {
            AtomView::Num(_) => machine_rational(view).map(|_| leaf(0)),
            AtomView::Var(_) => Some(leaf(1)),
            AtomView::Fun(_) => None,
            AtomView::Pow(p) => {
                let (base, exp) = p.get_base_exp();
                let k = match machine_rational(exp)? {
                    (k, 1) if k >= 0 => k.unsigned_abs(),
                    _ => return None,
                };
                let base = PolynomialShape::of(base)?;
                Some(PolynomialShape {
                    nodes: base.nodes + 2,
                    terms: base.terms.powf(k as f64),
                    degree: base.degree.saturating_mul(k),
                })
            }
            AtomView::Mul(m) => PolynomialShape::joined(m.iter(), 1.0, |acc, f| {
                (acc.terms * f.terms, acc.degree.saturating_add(f.degree))
            }),
            AtomView::Add(a) => PolynomialShape::joined(a.iter(), 0.0, |acc, t| {
                (acc.terms + t.terms, acc.degree.max(t.degree))
            }),
        }
    }

    /// The shape of a product or a sum of `children`: its node and the children's nodes, and
    /// the terms and degree `join` makes of the shape so far and the next child's, from `terms`
    /// terms and degree 0.
    fn joined<'a>(
        mut children: impl Iterator<Item = AtomView<'a>>,
        terms: f64,
        join: impl Fn(&PolynomialShape, &PolynomialShape) -> (f64, u64),
    ) -> Option<PolynomialShape> {
        children.try_fold(
            PolynomialShape {
                nodes: 1,
                terms,
                degree: 0,
            },
            |acc, child| {
                let child = PolynomialShape::of(child)?;
                let (terms, degree) = join(&acc, &child);
                Some(PolynomialShape {
                    nodes: acc.nodes + child.nodes,
                    terms,
                    degree,
                })
            },
        )
    }
}

/// The sum of the terms of `poly`, each rewritten by `rewrite` or kept as it is, expanded;
/// `None` when no term was rewritten (most terms hold nothing to reduce: the sum is not rebuilt
/// then). A rewritten term is `rest · new`, `new` the product of the powers of sums the rewriting
/// brought (a radical's base to a power): the terms that bring the same `new` are expanded
/// together as `(Σ rest) · new`, in one expansion for all, which is the polynomial the expansions
/// of each term would add up to, without a call and a normalisation per term and with each `new`
/// multiplied out once.
fn rewrite_terms(
    poly: &Atom,
    rewrite: impl Fn(AtomView<'_>) -> Option<(Atom, Atom)>,
) -> Option<Atom> {
    let terms: Vec<AtomView<'_>> = match poly.as_view() {
        AtomView::Add(a) => a.iter().collect(),
        view => vec![view],
    };
    let mut kept = Vec::new();
    // `(new, rests)` in the order first met.
    let mut groups: Vec<(Atom, Vec<Atom>)> = Vec::new();
    let mut group_of: crate::hash::FastMap<Atom, usize> = Default::default();
    for t in terms {
        let Some((rest, new)) = rewrite(t) else {
            kept.push(t.to_owned());
            continue;
        };
        let next = groups.len();
        let g = *group_of.entry(new.clone()).or_insert(next);
        if g == next {
            groups.push((new, Vec::new()));
        }
        groups[g].1.push(rest);
    }
    if groups.is_empty() {
        return None;
    }
    let products = groups.into_iter().map(|(new, rests)| {
        let rests = sum_atoms(rests);
        rests * new.expand()
    });
    let rewritten = sum_atoms(products.collect());
    kept.push(rewritten.expand());
    Some(sum_atoms(kept))
}

/// The factors of `term`, each rewritten by `rewrite` into a monomial and a power of a sum or
/// kept as it is: `(rest, new)`, `rest` the product of the kept factors and the monomials, `new`
/// the product of the powers of sums (neither expanded); `None` when no factor was rewritten.
fn rewrite_factors(
    term: AtomView<'_>,
    rewrite: impl Fn(AtomView<'_>) -> Option<[Atom; 2]>,
) -> Option<(Atom, Atom)> {
    let factors: Vec<AtomView<'_>> = match term {
        AtomView::Mul(m) => m.iter().collect(),
        view => vec![view],
    };
    let rewritten: Vec<Option<[Atom; 2]>> = factors.iter().map(|f| rewrite(*f)).collect();
    if rewritten.iter().all(Option::is_none) {
        return None;
    }
    let (mut rest, mut new) = (Vec::with_capacity(factors.len()), Vec::new());
    for (rewritten, old) in rewritten.into_iter().zip(factors) {
        match rewritten {
            Some([monomial, power]) => {
                rest.push(monomial);
                new.push(power);
            }
            None => rest.push(old.to_owned()),
        }
    }
    Some((product_atoms(rest), product_atoms(new)))
}

/// `(base symbol, integer exponent)` of a factor `s^e`.
fn symbol_power(factor: AtomView<'_>) -> Option<(Symbol, i64)> {
    let AtomView::Pow(p) = factor else {
        return None;
    };
    let (base, exp) = p.get_base_exp();
    let AtomView::Var(v) = base else { return None };
    match Expr(exp.to_owned()).as_small_rational() {
        Some((e, 1)) => Some((v.get_symbol(), e)),
        _ => None,
    }
}

/// Reduces an expanded polynomial modulo `r_k^q = b_k` for every radical whose base `b_k` is a
/// polynomial (a base with a denominator would bring it into the numerator; such radicals stay
/// unreduced, which is sound but may miss a cancellation). Bases hold only earlier radicals, so
/// repeating until nothing changes terminates.
fn reduce_radicals(mut poly: Atom, table: &TrigTable) -> Atom {
    // `(r_k, b_k, q_k)` for the radicals whose base is a polynomial.
    let reducible: Vec<(Symbol, Atom, i64)> = table
        .radicals
        .iter()
        .enumerate()
        .filter(|(_, (b, _))| is_polynomial(b.as_view(), Coefficients::Rational))
        .map(|(k, (b, q))| (hidden_symbol(Hidden::Radical, k), b.clone(), *q))
        .collect();
    if reducible.is_empty() {
        return poly;
    }
    // Bases hold only earlier radicals: repeated until nothing changes.
    while let Some(reduced) = rewrite_terms(&poly, |t| reduce_radical_monomial(t, &reducible)) {
        poly = reduced;
    }
    poly
}

/// `term` with every power `r^e` (`e ≥ q`) of a reducible radical `r = b^(1/q)` written
/// `r^(e mod q) b^(e div q)` (expanded with the other terms); `None` when it holds none.
fn reduce_radical_monomial(
    term: AtomView<'_>,
    reducible: &[(Symbol, Atom, i64)],
) -> Option<(Atom, Atom)> {
    rewrite_factors(term, |factor| {
        let (r, e) = symbol_power(factor)?;
        let (_, b, q) = reducible.iter().find(|(radical, _, _)| *radical == r)?;
        (e >= *q).then(|| {
            [
                Atom::var(r).pow(Atom::num(e % q)),
                b.clone().pow(Atom::num(e / q)),
            ]
        })
    })
}

/// Whether some `sin(a)`, `cos(a)` or radical symbol of `table` occurs to a power ≥ 2.
pub(crate) fn has_trig_square(view: AtomView<'_>, table: &TrigTable) -> bool {
    if table.is_empty() {
        return false;
    }
    match view {
        AtomView::Num(_) | AtomView::Var(_) => false,
        AtomView::Fun(f) => f.iter().any(|a| has_trig_square(a, table)),
        AtomView::Pow(p) => {
            let (base, _) = p.get_base_exp();
            match base {
                AtomView::Var(v) => {
                    with_symbol_name(v.get_symbol(), |name| name.starts_with("trig__"))
                }
                other => has_trig_square(other, table),
            }
        }
        AtomView::Mul(m) => m.iter().any(|a| has_trig_square(a, table)),
        AtomView::Add(a) => a.iter().any(|t| has_trig_square(t, table)),
    }
}
