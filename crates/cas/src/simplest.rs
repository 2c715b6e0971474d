//! The simplest printed form of an expression ([`Expr::simplest`]): the candidate with the
//! fewest leaves as printed ([`crate::print::leaves`]) among the factored, factorised, normal and
//! split forms. The displays of the JSON and LaTeX documents use it; `bench/leafcount.py`
//! measures it against SymPy (`docs/simplification.md`).

use symbolica::atom::AtomView;

use crate::simplify::{factorise, smaller_of, split_fraction};
use crate::{Expr, View};
use quotients::{TermQuotients, SPLIT_TERMS};

impl Expr {
    /// The form with the fewest leaves as printed ([`crate::print::leaves`]) among:
    ///
    /// - the factored form ([`Expr::factored`], preferred on a tie), numerator and denominator
    ///   factorised, and the rational normal form;
    /// - the normal form split over its denominator: each term of the numerator whose quotient by
    ///   the denominator cancels something is written apart, the rest stay over the denominator
    ///   (`(r u − Ω k² y)/k²` is `r u/k² − Ω y`);
    /// - every term's quotient written apart, the terms that share a denominator summed over it
    ///   with their numerator factorised (`(2 ρ² + m v²)/2` is `ρ² + m v²/2`, and
    ///   `a/d + b x/d + c` is `(a + b x)/d + c`);
    /// - the normal form with its numerator grouped (by the groupings of [`Expr::simplest_by`],
    ///   common factors in front) over its factorised denominator;
    /// - each of those with its sine–cosine quotients written as tangents
    ///   ([`Expr::with_tangents`]), and then with `2 sin a cos a` as `sin(2a)`
    ///   ([`Expr::with_double_angles`]);
    /// - where a sine or cosine has a sum or a multiple for argument, the same forms of the
    ///   expression with those expanded ([`Expr::expand_trig`]), which the normal form cannot
    ///   see through (the split forms only of a base whose normal forms are at most three
    ///   times longer than the other's, and the grouped and denominator forms only of a base
    ///   whose plain forms are: `SEARCHED_BASE_RATIO`);
    /// - the shortest of those with each of its sums' squares of sines and cosines chosen apart
    ///   ([`Expr::with_shorter_squares`]: `J₀ − m r² − J₀ cos² φ` reads `J₀ sin² φ − m r²`),
    ///   and then with its terms over equal denominators summed as they are written.
    pub fn simplest(&self) -> Expr {
        self.simplest_by(&[])
    }

    /// [`Expr::simplest`], trying also each sum grouped by its parts that depend on `vars` (the
    /// state: coordinates and velocities), their coefficients summed and simplified
    /// (`A ẋ ẏ/C − B ẋ ẏ/C` is `(A − B) ẋ ẏ/C`): the equations of motion read by powers of the
    /// velocities.
    pub fn simplest_in(&self, vars: &[String]) -> Expr {
        self.simplest_by(&[vars])
    }

    /// The sum grouped by its parts that depend on `vars`, each group's coefficient summed and in
    /// its simplest form (`A ẋ² + B ẋ² + C ẋ ẏ` is `(A + B) ẋ² + C ẋ ẏ`), however many terms the
    /// sum has: for an expression too large for [`Expr::simplest_in`] (the energy of a long
    /// chain), whose cost is one normalisation per coefficient. Anything but a sum, and a sum no
    /// two of whose terms share a part, is returned as it is.
    pub fn grouped_in(&self, vars: &[String]) -> Expr {
        grouped_within(self, vars, usize::MAX).unwrap_or_else(|| self.clone())
    }

    /// [`Expr::simplest`], trying also each sum grouped by its parts that depend on each list of
    /// `groupings` in turn (the state, say, and the velocities alone) as [`Expr::simplest_in`]
    /// does.
    pub fn simplest_by(&self, groupings: &[&[String]]) -> Expr {
        let _stage = timing::stage("simplest");
        let mut best = Smallest::default();
        for (base, search) in searched_bases(self) {
            let forms = match search {
                Search::Full => candidates(&base, groupings),
                Search::Plain => plain_candidates(&base),
                Search::Normal => normal_candidates(&base),
            };
            for candidate in forms {
                offer_display_forms(&mut best, candidate);
            }
        }
        // The expression as given, last: it wins only by being strictly shorter.
        best.offer(self.clone());
        // The winner with each of its sums' trig squares chosen apart (one pass, on one form).
        // Then its terms over equal denominators summed as they are written.
        if let Some(chosen) = best.current() {
            let squares = chosen.with_shorter_squares();
            let merged = over_equal_denominators(&squares);
            offer_display_forms(&mut best, squares);
            if let Some(merged) = merged {
                offer_display_forms(&mut best, merged);
            }
        }
        // Candidates of equal length may carry their minus signs differently depending on the
        // order Symbolica met the symbols: a factor whose terms are all negative is turned.
        best.into_expr().signs_oriented()
    }
}

/// Offers `candidate`, then with tangents ([`Expr::with_tangents`]), then also with double
/// angles ([`Expr::with_double_angles`]). A candidate offered before is not offered again, nor
/// are its forms (they were offered with it): none of them could be strictly shorter than the
/// best so far, so the winner is the same and its forms are not computed twice.
fn offer_display_forms(best: &mut Smallest, candidate: Expr) {
    if best.offered(&candidate) {
        return;
    }
    // Both return a part without sines and cosines as it is, at once (`has_sine_cosine`).
    let tangents = candidate.with_tangents();
    let doubled = tangents.with_double_angles();
    best.offer(candidate);
    best.offer(tangents);
    best.offer(doubled);
}

/// The smallest expression offered by printed leaves; the first on a tie. An expression offered
/// again is not measured again: it cannot be strictly shorter than the best.
#[derive(Default)]
struct Smallest {
    best: Option<(usize, Expr)>,
    seen: crate::hash::FastSet<Expr>,
}

impl Smallest {
    fn offer(&mut self, candidate: Expr) {
        if !self.seen.insert(candidate.clone()) {
            return;
        }
        let leaves = crate::print::leaves(&candidate);
        if self.best.as_ref().is_none_or(|(best, _)| leaves < *best) {
            self.best = Some((leaves, candidate));
        }
    }

    /// Whether `candidate` was offered.
    fn offered(&self, candidate: &Expr) -> bool {
        self.seen.contains(candidate)
    }

    fn current(&self) -> Option<Expr> {
        self.best.as_ref().map(|(_, e)| e.clone())
    }

    fn into_expr(self) -> Expr {
        self.best.map(|(_, e)| e).unwrap_or_else(Expr::zero)
    }
}

/// The largest expression (in nodes) whose trig of sums [`bases`] also expands: a large one
/// gains little by it, and its expansion may multiply its terms.
const EXPANDED_TRIG_NODES: usize = 4000;

/// The expression, and with its trig of sums and multiples expanded when it has any and is at
/// most [`EXPANDED_TRIG_NODES`] large.
fn bases(e: &Expr) -> Vec<Expr> {
    if e.size() > EXPANDED_TRIG_NODES {
        return vec![e.clone()];
    }
    let expanded = e.expand_trig();
    if expanded == *e {
        vec![e.clone()]
    } else {
        vec![e.clone(), expanded]
    }
}

/// How many times longer (in printed leaves) than another base's shortest plain candidate a
/// base's shortest may be and still have its grouped and denominator forms searched. The
/// searched forms of a base regroup its normal form and rarely shorten it by half; a base three
/// times longer (the snakeboard's momenta with `cos(θ + φ)` kept whole, 2000 nodes, against the
/// 60 of its expansion) costs seconds of grouping and never wins. No golden's display changes
/// with it (they were compared with the search unbounded).
///
/// The same ratio on the normal forms alone ([`normal_candidates`]) decides whether a base's
/// split forms are made at all: a base whose normal forms are more than this many times longer
/// than another base's offers only them. Its split forms cost one normalisation per term of its
/// numerator over its whole, long denominator (three quarters of the time the snakeboard's
/// displays spent on such bases) and never win either: no golden's display changes with it
/// (compared with every base's split forms made).
const SEARCHED_BASE_RATIO: usize = 3;

/// Which candidates of a base [`Expr::simplest_by`] offers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Search {
    /// All of them ([`candidates`]).
    Full,
    /// The [`plain_candidates`].
    Plain,
    /// The [`normal_candidates`].
    Normal,
}

/// The [`bases`] of `e`, each with which of its candidates are offered. A base whose shortest
/// normal candidate ([`normal_candidates`]) is more than [`SEARCHED_BASE_RATIO`] times longer
/// than another's offers only those; among the others, a base whose shortest plain candidate is
/// more than [`SEARCHED_BASE_RATIO`] times longer than another's offers only its
/// [`plain_candidates`]; the rest are searched in full.
fn searched_bases(e: &Expr) -> Vec<(Expr, Search)> {
    let all = bases(e);
    if all.len() == 1 {
        return all.into_iter().map(|base| (base, Search::Full)).collect();
    }
    let normal: Vec<usize> = all
        .iter()
        .map(|base| shortest_leaves(&normal_candidates(base)))
        .collect();
    let searches = searches(&normal, |k| shortest_leaves(&plain_candidates(&all[k])));
    all.into_iter().zip(searches).collect()
}

/// What [`searched_bases`] searches of each base, from the printed leaves of each base's
/// shortest normal candidate (`normal`) and of its shortest plain candidate (`plain(k)` for the
/// `k`-th, asked only of the bases whose split forms are made).
fn searches(normal: &[usize], plain: impl Fn(usize) -> usize) -> Vec<Search> {
    let within = |leaves: usize, floor: usize| leaves <= SEARCHED_BASE_RATIO * floor;
    let normal_floor = normal.iter().copied().min().unwrap_or(0);
    let shortest: Vec<Option<usize>> = normal
        .iter()
        .enumerate()
        .map(|(k, &leaves)| within(leaves, normal_floor).then(|| plain(k)))
        .collect();
    // A base without split forms counts with its normal forms.
    let floor = shortest
        .iter()
        .zip(normal)
        .map(|(plain, &normal)| plain.unwrap_or(normal))
        .min()
        .unwrap_or(0);
    shortest
        .into_iter()
        .map(|plain| match plain {
            None => Search::Normal,
            Some(leaves) if within(leaves, floor) => Search::Full,
            Some(_) => Search::Plain,
        })
        .collect()
}

/// The fewest printed leaves among `forms`.
fn shortest_leaves(forms: &[Expr]) -> usize {
    forms.iter().map(crate::print::leaves).min().unwrap_or(0)
}

/// The candidate forms of `e` (see [`Expr::simplest`]), in the order they are preferred on a tie.
fn candidates(e: &Expr, groupings: &[&[String]]) -> Vec<Expr> {
    let mut out = plain_candidates(e);
    // The plain candidates repeat one another (the factored form is one of the next two): each
    // distinct one is grouped once.
    let mut known: crate::hash::FastMap<(usize, Expr), Option<Expr>> = Default::default();
    let grouped: Vec<Expr> = groupings
        .iter()
        .enumerate()
        .flat_map(|(g, vars)| {
            out.iter()
                .filter_map(|c| {
                    known
                        .entry((g, c.clone()))
                        .or_insert_with(|| grouped_by(c, vars))
                        .clone()
                })
                .collect::<Vec<_>>()
        })
        .collect();
    out.extend(grouped.iter().map(with_common_factors));
    out.extend(grouped);
    let shared: Vec<Expr> = out
        .iter()
        .filter_map(|c| over_shared_denominators(c, groupings))
        .collect();
    out.extend(shared);
    out.extend(over_one_denominator(&out[2].clone(), groupings));
    let common: Vec<Expr> = out.iter().filter_map(over_common_denominator).collect();
    out.extend(common);
    out
}

/// The sum of fractions `e` over the least common multiple of its denominators (by their
/// factors, to their largest power), each numerator kept as it is written and multiplied by
/// what its denominator lacks, the factors common to all of them in front
/// ([`with_common_factors`]): the hand's way with `a b/(k² m) + c/m`, which keeps each term's
/// factored form where the normal form expands it. `None` when `e` is not a sum or its terms
/// share one denominator.
fn over_common_denominator(e: &Expr) -> Option<Expr> {
    let terms = match e.view() {
        View::Add(terms) if terms.len() <= SPLIT_TERMS => terms,
        _ => return None,
    };
    let fractions: Vec<(Expr, Expr)> = terms
        .iter()
        .map(|t| {
            let (above, below) = split_fraction(&t.0);
            (Expr(above), Expr(below))
        })
        .collect();
    if fractions.iter().all(|(_, below)| *below == fractions[0].1) {
        return None;
    }
    let mut multiple: Vec<(Expr, i64)> = Vec::new();
    let mut number: i64 = 1;
    for (_, below) in &fractions {
        for (base, n) in positive_powers(below) {
            match multiple.iter_mut().find(|(b, _)| *b == base) {
                Some(entry) => entry.1 = entry.1.max(n),
                None => multiple.push((base, n)),
            }
        }
        let (count, _) = numeric_content(below);
        let count = count.as_small_rational()?.0;
        number = number / gcd(number, count) * count;
    }
    let denominator = Expr::product(
        std::iter::once(Expr::int(number)).chain(multiple.into_iter().map(|(b, n)| b.powi(n))),
    );
    let numerator = Expr::sum(
        fractions
            .into_iter()
            .map(|(above, below)| above * (denominator.clone() / below)),
    );
    Some(with_common_factors(&numerator) / denominator)
}

fn gcd(a: i64, b: i64) -> i64 {
    if b == 0 {
        a.abs().max(1)
    } else {
        gcd(b, a % b)
    }
}

/// The candidates that need no nested simplification: the factored form, numerator and
/// denominator factorised, the normal form, split over its denominator, and every term apart.
fn plain_candidates(e: &Expr) -> Vec<Expr> {
    remembered(&PLAIN_CANDIDATES, e.clone(), || plain_candidates_anew(e))
}

/// [`plain_candidates`], computed.
fn plain_candidates_anew(e: &Expr) -> Vec<Expr> {
    let mut out = normal_candidates(e);
    if let Some(quotients) = TermQuotients::of(&out[2]) {
        out.extend(quotients.split());
        out.push(quotients.every_term_apart());
    }
    out
}

/// The first three [`plain_candidates`], which need one normalisation and one factorisation
/// (both remembered): the factored form, numerator and denominator factorised, and the normal
/// form.
fn normal_candidates(e: &Expr) -> Vec<Expr> {
    let simplified = e.simplify();
    let factorised = factorise(&simplified);
    vec![smaller_of(&simplified, &factorised), factorised, simplified]
}

/// The smallest of the forms of a part of a larger expression (a coefficient, a numerator): the
/// [`plain_candidates`], grouped by `groupings` with their common factors in front, and with
/// tangents. It nests no further, so that the cost of [`Expr::simplest_by`] stays a small
/// multiple of one normalisation per term.
fn part_form(e: &Expr, groupings: &[&[String]]) -> Expr {
    let key = (
        e.clone(),
        groupings.iter().map(|g| g.to_vec()).collect::<Vec<_>>(),
    );
    remembered(&PART_FORMS, key, || part_form_anew(e, groupings))
}

thread_local! {
    /// The part forms computed so far: a document's displays form the same coefficients and
    /// numerators again and again (each candidate of each display groups its terms anew), and
    /// [`part_form`] is a function of its arguments alone, so a form found once is reused.
    static PART_FORMS: Remembered<(Expr, Vec<Vec<String>>), Expr> = Default::default();
    /// The plain candidates computed so far ([`plain_candidates`], a function of its argument
    /// alone): the candidates and parts of one display, and the displays of one document,
    /// normalise and factorise the same expressions many times.
    static PLAIN_CANDIDATES: Remembered<Expr, Vec<Expr>> = Default::default();
}

/// Results of a function of its arguments alone, by argument.
type Remembered<K, V> = std::cell::RefCell<crate::hash::FastMap<K, V>>;

/// The results a [`Remembered`] keeps before it starts again (a bound on its memory).
const REMEMBERED: usize = 100_000;

/// `f()`, the value of a function of `key` alone, from `memory` when it was computed before.
fn remembered<K, V>(
    memory: &'static std::thread::LocalKey<Remembered<K, V>>,
    key: K,
    f: impl FnOnce() -> V,
) -> V
where
    K: std::hash::Hash + Eq,
    V: Clone,
{
    if let Some(known) = memory.with_borrow(|m| m.get(&key).cloned()) {
        return known;
    }
    let value = f();
    memory.with_borrow_mut(|m| {
        if m.len() >= REMEMBERED {
            m.clear();
        }
        m.insert(key, value.clone());
    });
    value
}

/// [`part_form`], computed.
fn part_form_anew(e: &Expr, groupings: &[&[String]]) -> Expr {
    let mut best = Smallest::default();
    let plain = plain_candidates(e);
    let grouped: Vec<Expr> = groupings
        .iter()
        .filter_map(|vars| grouped_by(&plain[2], vars))
        .collect();
    let common = grouped.iter().map(with_common_factors).collect::<Vec<_>>();
    for candidate in plain.into_iter().chain(common).chain(grouped) {
        offer_display_forms(&mut best, candidate);
    }
    best.into_expr()
}

/// The terms of a sum grouped by the denominator `split` gives each (`(numerator,
/// denominator)`), the numerators of a group in the order of the terms. Denominators are
/// matched as expressions; what is made of the groups is summed, so their order never shows.
fn group_by_denominator(
    terms: &[Expr],
    split: impl Fn(&Expr) -> (Expr, Expr),
) -> Vec<(Expr, Vec<Expr>)> {
    grouped(terms.iter().map(|term| {
        let (above, below) = split(term);
        (below, above)
    }))
}

/// `(key, value)` pairs grouped by equal keys, each group's values in the order given, the
/// groups in the order their keys first came.
fn grouped<V>(pairs: impl IntoIterator<Item = (Expr, V)>) -> Vec<(Expr, Vec<V>)> {
    let mut index: crate::hash::FastMap<Expr, usize> = Default::default();
    let mut groups: Vec<(Expr, Vec<V>)> = Vec::new();
    for (key, value) in pairs {
        let next = groups.len();
        let at = *index.entry(key.clone()).or_insert(next);
        if at == next {
            groups.push((key, Vec::new()));
        }
        groups[at].1.push(value);
    }
    groups
}

/// The sum `e` with the terms that share a denominator summed over it, their numerator in its
/// simplest form (by `groupings`, as [`Expr::simplest_by`]); `None` when `e` is not a sum of at
/// most [`SPLIT_TERMS`] terms, or no two terms share a denominator, or all do.
/// The numerators take their [`part_form`].
fn over_shared_denominators(e: &Expr, groupings: &[&[String]]) -> Option<Expr> {
    let _stage = timing::stage("shared denominators");
    let terms = match e.view() {
        View::Add(terms) if terms.len() <= SPLIT_TERMS => terms,
        _ => return None,
    };
    // A denominator factorised and its number moved up (`4 + 2 c` and `6 + 3 c` share `2 + c`).
    let groups = group_by_denominator(&terms, |term| {
        let (above, below) = split_fraction(&term.0);
        let (number, below) = numeric_content(&factorise(&Expr(below)));
        (Expr(above) / number, below)
    });
    if groups.len() == terms.len() || groups.len() == 1 {
        return None;
    }
    Some(Expr::sum(groups.into_iter().map(
        |(below, numerators)| match numerators.len() {
            1 => numerators[0].clone() / below,
            _ => part_form(&Expr::sum(numerators), groupings) / below,
        },
    )))
}

/// The sum `e` with the terms whose denominators print alike written over that denominator
/// once, their numerators summed as they are written, common factors in front
/// ([`with_common_factors`]): `a u/(J sin² φ − m) + b v/(J sin² φ − m)` reads
/// `(a u + b v)/(J sin² φ − m)`, with no normalisation that would expand the numerators. `None`
/// when `e` is not a sum or no two of its terms share a denominator.
fn over_equal_denominators(e: &Expr) -> Option<Expr> {
    let View::Add(terms) = e.view() else {
        return None;
    };
    let groups = group_by_denominator(&terms, |term| {
        let (above, below) = split_fraction(&term.0);
        (Expr(above), Expr(below))
    });
    if groups.len() == terms.len() {
        return None;
    }
    Some(Expr::sum(groups.into_iter().map(|(below, numerators)| {
        with_common_factors(&Expr::sum(numerators)) / below
    })))
}

/// A product as its number and the product of its other factors.
fn numeric_content(e: &Expr) -> (Expr, Expr) {
    let factors = e.factors();
    factors
        .into_iter()
        .fold((Expr::one(), Expr::one()), |(number, rest), f| {
            match f.view() {
                View::Number { .. } => (number * f, rest),
                _ => (number, rest * f),
            }
        })
}

/// The normal form `n/d` with `n` in its [`part_form`] (grouped by `groupings`, common factors
/// in front) over `d` factorised: how a common denominator is written by hand.
fn over_one_denominator(simplified: &Expr, groupings: &[&[String]]) -> Option<Expr> {
    let (n, d) = split_fraction(&simplified.0);
    let d = Expr(d);
    if d.as_small_rational().is_some() && groupings.is_empty() {
        return None;
    }
    Some(part_form(&Expr(n), groupings) / factorise(&d))
}

/// The sum `e` with the factors that all its terms share (to their least power) written once
/// in front (`a w² X − a b m v w` is `a w (w X − b m v)`); `e` itself when they share none.
/// Factors are matched as expressions, not printed: most sums share none, which the first
/// terms usually show.
fn with_common_factors(e: &Expr) -> Expr {
    let terms = match e.view() {
        View::Add(terms) => terms,
        _ => return e.clone(),
    };
    let mut common = positive_powers(&terms[0]);
    for term in &terms[1..] {
        if common.is_empty() {
            return e.clone();
        }
        let other = positive_powers(term);
        common.retain_mut(|(base, n)| match other.iter().find(|(b, _)| b == base) {
            Some((_, m)) => {
                *n = (*n).min(*m);
                true
            }
            None => false,
        });
    }
    if common.is_empty() {
        return e.clone();
    }
    let content = Expr::product(common.into_iter().map(|(base, n)| base.powi(n)));
    content.clone() * Expr::sum(terms.into_iter().map(|t| t / content.clone()))
}

/// The non-numeric factors of a product with positive integer powers, as `(base, power)`
/// (each base once: a product holds a base once).
fn positive_powers(e: &Expr) -> Vec<(Expr, i64)> {
    e.factors()
        .into_iter()
        .filter_map(|f| match f.view() {
            View::Number { .. } => None,
            View::Pow(base, exponent) => match exponent.as_small_rational() {
                Some((n, 1)) if n > 0 => Some((base, n)),
                _ => None,
            },
            _ => Some((f, 1)),
        })
        .collect()
}

/// The sum `e` with its terms grouped by their factors that depend on `vars`, each group's
/// coefficient (the product of its other factors, summed) in its [`part_form`]; `None` when `e`
/// is not a sum of at most [`SPLIT_TERMS`] terms or no two terms share their dependent part.
fn grouped_by(e: &Expr, vars: &[String]) -> Option<Expr> {
    let _stage = timing::stage("grouped");
    grouped_within(e, vars, SPLIT_TERMS)
}

/// [`grouped_by`] for a sum of at most `most` terms.
fn grouped_within(e: &Expr, vars: &[String], most: usize) -> Option<Expr> {
    let terms: Vec<Expr> = match e.0.as_view() {
        AtomView::Add(sum) if sum.iter().count() <= most => {
            sum.iter().map(|t| Expr(t.to_owned())).collect()
        }
        _ => return None,
    };
    let count = terms.len();
    // Grouped by the dependent part as an expression; the groups are summed, so their order
    // never shows.
    let groups = grouped(terms.into_iter().map(|term| {
        let factors: Vec<Expr> = match term.0.as_view() {
            AtomView::Mul(m) => m.iter().map(|f| Expr(f.to_owned())).collect(),
            _ => vec![term.clone()],
        };
        let (dependent, coefficient): (Vec<Expr>, Vec<Expr>) =
            factors.into_iter().partition(|f| f.depends_on_any(vars));
        (Expr::product(dependent), Expr::product(coefficient))
    }));
    if groups.len() == count {
        return None;
    }
    Some(Expr::sum(groups.into_iter().map(
        |(dependent, coefficients)| part_form(&Expr::sum(coefficients), &[]) * dependent,
    )))
}

mod quotients;

#[cfg(test)]
mod tests;
