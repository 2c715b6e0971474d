//! A Symbolica-free picture of an expression's top node, for printers and tree walks.

use symbolica::atom::{Atom, AtomView, Symbol};

use crate::expr::{contains_symbol, sym, symbol_name, with_symbol_name, Trig};
pub(crate) use crate::number::machine_rational;
use crate::Expr;

/// The top node of an [`Expr`].
#[derive(Clone, Debug, PartialEq)]
pub enum View {
    /// A rational number `numerator / denominator` (denominator positive, `1` for integers),
    /// as decimal digit strings (they may be larger than any machine integer).
    Number {
        /// The numerator, with its sign.
        numerator: String,
        /// The denominator, positive.
        denominator: String,
    },
    /// A symbol.
    Symbol(String),
    /// A built-in function applied to its arguments (`sin`, `cos`, `exp`, `log`, …).
    Call(String, Vec<Expr>),
    /// `base ^ exponent`.
    Pow(Expr, Expr),
    /// A product of two or more factors.
    Mul(Vec<Expr>),
    /// A sum of two or more terms.
    Add(Vec<Expr>),
}

impl View {
    /// The number as `(numerator, denominator)` if it fits in `i64`.
    pub fn as_small_rational(&self) -> Option<(i64, i64)> {
        match self {
            View::Number {
                numerator,
                denominator,
            } => Some((numerator.parse().ok()?, denominator.parse().ok()?)),
            _ => None,
        }
    }

    /// Whether this is a negative number.
    pub fn is_negative_number(&self) -> bool {
        matches!(self, View::Number { numerator, .. } if numerator.starts_with('-'))
    }
}

/// The largest integer multiple `n` in `sin(n a)`, `cos(n a)` that [`Expr::expand_trig`] expands.
const MAX_MULTIPLE: i64 = 8;

impl Expr {
    /// Whether `names` occur only as the variables of a polynomial: never in the argument of a
    /// function, never in an exponent, and in the base of a power only when its exponent is a
    /// positive integer. Setting them to numbers then evaluates a polynomial: it divides by
    /// nothing.
    pub fn is_polynomial_in(&self, names: &[String]) -> bool {
        let targets: Vec<Symbol> = names.iter().map(|n| sym(n)).collect();
        polynomial_in(self.0.as_view(), &targets)
    }

    /// The factors of a product, or the expression itself as the only one.
    pub(crate) fn factors(&self) -> Vec<Expr> {
        match self.0.as_view() {
            AtomView::Mul(m) => m.iter().map(|f| Expr(f.to_owned())).collect(),
            _ => vec![self.clone()],
        }
    }

    /// Rewrites every `sin` and `cos` of a sum or of an integer multiple (up to 8) into products of
    /// sines and cosines of the terms (`sin(a + b) = sin a cos b + cos a sin b`,
    /// `cos(2a) = cos² a − sin² a`, `sin(−a) = −sin a`), recursively. Used by [`Expr::vanishes`];
    /// results are not meant for printing.
    pub fn expand_trig(&self) -> Expr {
        let _stage = timing::stage("expand trig");
        match self.view() {
            View::Number { .. } | View::Symbol(_) => self.clone(),
            View::Add(terms) => Expr::sum(terms.iter().map(Expr::expand_trig)),
            View::Mul(factors) => Expr::product(factors.iter().map(Expr::expand_trig)),
            View::Call(name, args) if (name == "sin" || name == "cos") && args.len() == 1 => {
                let which = Trig::sine_if(name == "sin");
                expanded_call(&args[0].expand_trig().expand(), which)
            }
            view => self.map_children(view, Expr::expand_trig),
        }
    }

    /// The same node with each child (term, factor, base, argument) replaced by `f` of it, and
    /// a number or a symbol as it is: the traversal the tree rewritings share, each handling
    /// the nodes it rewrites itself and leaving the others to this. `view` is the expression's
    /// [`View`], which the caller has taken to pick the nodes it rewrites (a view copies every
    /// child: it is taken once).
    ///
    /// A sum or a product whose children all map to themselves is returned as it is: the same
    /// tree its rebuilding would normalise back to, without the normalisation (most nodes a
    /// rewriting walks hold nothing it rewrites).
    pub(crate) fn map_children(&self, view: View, f: impl Fn(&Expr) -> Expr) -> Expr {
        match view {
            View::Number { .. } | View::Symbol(_) => self.clone(),
            View::Add(terms) => unchanged_or(self, &terms, &f, Expr::sum),
            View::Mul(factors) => unchanged_or(self, &factors, &f, Expr::product),
            View::Pow(base, exponent) => f(&base).pow(&exponent),
            View::Call(name, args) => {
                let args: Vec<Expr> = args.iter().map(&f).collect();
                rebuild_call(&name, args).unwrap_or_else(|| self.clone())
            }
        }
    }

    /// Whether the expression vanishes identically: its rational normal form with
    /// `sin² + cos² = 1` is zero, or is zero after [`Expr::expand_trig`] (angle sums and
    /// multiples, which the normal form keeps as they are).
    pub fn vanishes(&self) -> bool {
        let simplified = self.simplify();
        simplified.is_zero() || simplified.expand_trig().simplify().is_zero()
    }
}

/// `e`, a sum or a product of `children`, when `f` maps every child to itself; else `join` of
/// the mapped children.
fn unchanged_or(
    e: &Expr,
    children: &[Expr],
    f: impl Fn(&Expr) -> Expr,
    join: fn(Vec<Expr>) -> Expr,
) -> Expr {
    let mapped: Vec<Expr> = children.iter().map(f).collect();
    if mapped.iter().zip(children).all(|(new, old)| new == old) {
        e.clone()
    } else {
        join(mapped)
    }
}

/// `sin(a)` (or `cos(a)`) with `a` already expanded: split off the first term of a sum, or one
/// copy of an integer multiple, or a minus sign.
fn expanded_call(a: &Expr, which: Trig) -> Expr {
    // sin(x + y) = sin x cos y + cos x sin y, cos(x + y) = cos x cos y − sin x sin y.
    let of_sum = |x: &Expr, y: &Expr| {
        let (s1, c1) = (expanded_call(x, Trig::Sin), expanded_call(x, Trig::Cos));
        let (s2, c2) = (expanded_call(y, Trig::Sin), expanded_call(y, Trig::Cos));
        match which {
            Trig::Sin => s1 * c2 + c1 * s2,
            Trig::Cos => c1 * c2 - s1 * s2,
        }
    };
    match a.view() {
        View::Add(terms) if terms.len() >= 2 => {
            let first = terms[0].clone();
            let rest = terms[1..]
                .iter()
                .fold(Expr::zero(), |acc, t| acc + t.clone());
            of_sum(&first, &rest)
        }
        // sin(−q x) = −sin(q x), cos(−q x) = cos(q x) for a negative fraction −q (−𝜋/10).
        View::Mul(factors)
            if factors.iter().any(|f| {
                let number = f.view();
                number.is_negative_number()
                    && number.as_small_rational().is_none_or(|(_, d)| d != 1)
            }) =>
        {
            let flipped = expanded_call(&-a.clone(), which);
            match which {
                Trig::Sin => -flipped,
                Trig::Cos => flipped,
            }
        }
        View::Mul(factors) => {
            let multiple = factors
                .iter()
                .position(|f| f.view().as_small_rational().is_some_and(|(_, d)| d == 1));
            if let Some(k) = multiple {
                let (n, _) = factors[k].view().as_small_rational().expect("checked");
                let rest = factors
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| *i != k)
                    .fold(Expr::one(), |acc, (_, f)| acc * f.clone());
                if n < 0 {
                    let flipped = expanded_call(&(rest * Expr::int(-n)), which);
                    return match which {
                        Trig::Sin => -flipped,
                        Trig::Cos => flipped,
                    };
                }
                if (2..=MAX_MULTIPLE).contains(&n) {
                    let once = rest.clone();
                    let others = rest * Expr::int(n - 1);
                    return of_sum(&once, &others);
                }
            }
            Expr::apply(which.func(), a.clone())
        }
        // sin(−c) = −sin(c), cos(−c) = cos(c) for a negative number c.
        number @ View::Number { .. } if number.is_negative_number() => {
            let flipped = Expr::apply(which.func(), -a.clone());
            match which {
                Trig::Sin => -flipped,
                Trig::Cos => flipped,
            }
        }
        _ => Expr::apply(which.func(), a.clone()),
    }
}

/// A call of a one-argument built-in function by name; `None` for any other.
pub(crate) fn rebuild_call(name: &str, args: Vec<Expr>) -> Option<Expr> {
    let func = match name {
        "sin" => crate::Func::Sin,
        "cos" => crate::Func::Cos,
        "exp" => crate::Func::Exp,
        "log" => crate::Func::Log,
        _ => return None,
    };
    let [arg] = <[Expr; 1]>::try_from(args).ok()?;
    Some(Expr::apply(func, arg))
}

impl Expr {
    /// The top node, for printers and walks.
    pub fn view(&self) -> View {
        view_of(self.0.as_view())
    }

    /// Whether this is a number or a symbol, as [`Expr::view`] shows them (Euler's constant is
    /// `exp(1)`, neither), read off the top node: nothing is copied.
    pub fn is_number_or_symbol(&self) -> bool {
        let view = self.0.as_view();
        match view {
            AtomView::Num(_) => true,
            AtomView::Var(_) => !is_euler(view),
            _ => false,
        }
    }

    /// Whether every number in the expression is a finite real rational (no infinity, no
    /// imaginary unit, as Symbolica creates from `0^-1`, `log(0)` or `sqrt(-1)`).
    pub fn is_finite_real(&self) -> bool {
        fn digits(text: &str) -> bool {
            let text = text.strip_prefix('-').unwrap_or(text);
            !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit())
        }
        // On Symbolica's view, as `view` would present it (Euler's constant is `exp(1)`, a power
        // of it `exp` of the exponent): no subexpression is copied.
        fn walk(view: AtomView<'_>) -> bool {
            match view {
                AtomView::Num(_) => {
                    let (numerator, denominator) = number_parts(view);
                    digits(&numerator) && digits(&denominator)
                }
                AtomView::Var(_) if is_euler(view) => true,
                AtomView::Var(v) => {
                    with_symbol_name(v.get_symbol(), |name| name != "𝑖" && name != "∞")
                }
                AtomView::Fun(f) => f.iter().all(walk),
                AtomView::Pow(p) => {
                    let (b, x) = p.get_base_exp();
                    walk(b) && walk(x)
                }
                AtomView::Mul(m) => m.iter().all(walk),
                AtomView::Add(a) => a.iter().all(walk),
            }
        }
        walk(self.0.as_view())
    }

    /// The number value if the expression is a rational number that fits in `i64`: read off the
    /// coefficient of a rational of machine words, else off the view's printed parts (anything
    /// but a number is `None` at once; a view would copy its children).
    pub fn as_small_rational(&self) -> Option<(i64, i64)> {
        let view = self.0.as_view();
        if !matches!(view, AtomView::Num(_)) {
            return None;
        }
        machine_rational(view).or_else(|| self.view().as_small_rational())
    }
}

/// The name Symbolica gives Euler's constant.
const EULER: &str = "𝑒";

fn view_of(view: AtomView<'_>) -> View {
    let owned = |v: AtomView<'_>| Expr(v.to_owned());
    match view {
        AtomView::Num(_) => {
            let (numerator, denominator) = number_parts(view);
            View::Number {
                numerator,
                denominator,
            }
        }
        AtomView::Var(_) if is_euler(view) => View::Call("exp".into(), vec![Expr::one()]),
        AtomView::Var(v) => View::Symbol(symbol_name(v.get_symbol())),
        AtomView::Fun(f) => View::Call(symbol_name(f.get_symbol()), f.iter().map(owned).collect()),
        AtomView::Pow(p) => {
            let (b, e) = p.get_base_exp();
            if is_euler(b) {
                // Symbolica writes exp(x) as Euler's constant to the power x.
                View::Call("exp".into(), vec![owned(e)])
            } else {
                View::Pow(owned(b), owned(e))
            }
        }
        AtomView::Mul(m) => View::Mul(m.iter().map(owned).collect()),
        AtomView::Add(a) => View::Add(a.iter().map(owned).collect()),
    }
}

/// [`Expr::is_polynomial_in`] of a node: `targets` read only as polynomial variables.
fn polynomial_in(view: AtomView<'_>, targets: &[Symbol]) -> bool {
    match view {
        AtomView::Num(_) | AtomView::Var(_) => true,
        AtomView::Fun(f) => !f.iter().any(|a| contains_symbol(a, targets)),
        AtomView::Pow(p) => {
            let (base, exponent) = p.get_base_exp();
            if contains_symbol(exponent, targets) {
                return false;
            }
            let natural = matches!(small_rational(exponent), Some((n, 1)) if n > 0);
            !contains_symbol(base, targets) || (natural && polynomial_in(base, targets))
        }
        AtomView::Mul(m) => m.iter().all(|a| polynomial_in(a, targets)),
        AtomView::Add(a) => a.iter().all(|t| polynomial_in(t, targets)),
    }
}

/// `Expr(view.to_owned()).as_small_rational()` without copying `view`: a number's parts are read
/// off its coefficient when they are machine words (the exponents of every monomial are read).
pub(crate) fn small_rational(view: AtomView<'_>) -> Option<(i64, i64)> {
    match view {
        AtomView::Num(_) => {
            machine_rational(view).or_else(|| Expr(view.to_owned()).as_small_rational())
        }
        _ => None,
    }
}

/// Whether a node is a negative number or a product with a negative number among its factors
/// (read off the view: no factor is copied).
pub(crate) fn has_negative_coefficient(view: AtomView<'_>) -> bool {
    match view {
        AtomView::Mul(m) => m.iter().any(is_negative_number),
        view => is_negative_number(view),
    }
}

/// Whether `view` is a negative number.
pub(crate) fn is_negative_number(view: AtomView<'_>) -> bool {
    match machine_rational(view) {
        Some((numerator, _)) => numerator < 0,
        None => matches!(view, AtomView::Num(_)) && number_parts(view).0.starts_with('-'),
    }
}

/// A number node's numerator (with its sign) and denominator, as printed (`"1"` for an integer).
/// A real rational of machine words is read off its coefficient (every view, leaf count and
/// rational test reads its numbers' parts: the snakeboard's documents asked for two million);
/// any other number is printed by Symbolica once and remembered.
pub(crate) fn number_parts(view: AtomView<'_>) -> (String, String) {
    if let Some((numerator, denominator)) = machine_rational(view) {
        return (numerator.to_string(), denominator.to_string());
    }
    let number = view.to_owned();
    if let Some(known) = NUMBER_PARTS.with_borrow(|m| m.get(&number).cloned()) {
        return known;
    }
    let parts = printed_parts(&number);
    NUMBER_PARTS.with_borrow_mut(|m| {
        if m.len() >= NUMBERS_KEPT {
            m.clear();
        }
        m.insert(number, parts.clone());
    });
    parts
}

/// A number's numerator and denominator as Symbolica prints it.
fn printed_parts(number: &Atom) -> (String, String) {
    let text = number.to_string();
    match text.split_once('/') {
        Some((n, d)) => (n.to_string(), d.to_string()),
        None => (text, "1".to_string()),
    }
}

thread_local! {
    /// The parts of the numbers printed so far: every view, leaf count and rational test reads
    /// its numbers' parts, and printing a number (Symbolica's printer) costs far more than
    /// finding it here. A derivation meets few distinct numbers.
    static NUMBER_PARTS: std::cell::RefCell<crate::hash::FastMap<Atom, (String, String)>> =
        Default::default();
}

/// The numbers [`NUMBER_PARTS`] keeps before it starts again (a bound on its memory).
const NUMBERS_KEPT: usize = 10_000;

/// Whether the node is Euler's constant, the base Symbolica stores `exp(x)` as a power of.
pub(crate) fn is_euler(view: AtomView<'_>) -> bool {
    matches!(view, AtomView::Var(v) if with_symbol_name(v.get_symbol(), |name| name == EULER))
}

#[cfg(test)]
mod tests {
    use symbolica::atom::AtomCore;

    use crate::expanded::is_expanded;
    use crate::{Expr, Func};

    /// What `expand` returns without calling the CAS (an expression that is its own expansion)
    /// is what Symbolica's expansion gives, and the work meter is charged the same; a product
    /// of sums, a power of a sum and a sum under a function are still expanded.
    #[test]
    fn an_expression_that_is_its_own_expansion_is_returned_as_symbolica_would() {
        let (x, y, z) = (
            Expr::symbol("ex_x"),
            Expr::symbol("ex_y"),
            Expr::symbol("ex_z"),
        );
        let trig = |e: Expr| Expr::apply(Func::Cos, e);
        let expanded = [
            x.clone(),
            Expr::rational(-3, 2),
            x.clone() * y.clone().powi(2) * Expr::int(3),
            trig(x.clone()) + x.clone() * y.clone() - z.clone(),
            (x.clone() * y.clone()).powi(2),
            x.clone().pow(&Expr::rational(1, 2)) * y.clone(),
            trig(x.clone() + y.clone()) * z.clone(),
            x.clone() / y.clone(),
        ];
        for e in expanded {
            assert!(is_expanded(e.0.as_view()), "{e}");
            let before = crate::work::spent();
            let fast = e.expand();
            let charged = crate::work::spent() - before;
            let symbolica = Expr(e.0.expand());
            assert_eq!(fast, symbolica, "{e}");
            assert_eq!(
                charged,
                crate::expr::count_nodes(symbolica.0.as_view()) as u64,
                "{e}"
            );
        }
        let unexpanded = [
            (x.clone() + y.clone()) * z.clone(),
            (x.clone() + y.clone()).powi(2),
            trig((x.clone() + y.clone()) * z.clone()),
        ];
        for e in unexpanded {
            assert!(!is_expanded(e.0.as_view()), "{e}");
            assert_eq!(e.expand(), Expr(e.0.expand()), "{e}");
        }
    }

    #[test]
    fn polynomial_variables_are_never_divided_by_nor_inside_a_function() {
        let s = Expr::symbol;
        let (x, y, z, a) = (s("x"), s("y"), s("z"), s("a"));
        let names = ["x".to_string(), "y".to_string()];
        let polynomial = [
            x.clone() * y.powi(2) + Expr::apply(Func::Sin, z.clone()),
            (x.clone() + Expr::one()).powi(3) * y.clone() / a.clone(),
            Expr::apply(Func::Cos, z.clone()) / (a.clone() + z.clone()),
            Expr::int(7),
        ];
        for e in polynomial {
            assert!(e.is_polynomial_in(&names), "{e}");
        }
        let not_polynomial = [
            Expr::one() / x.clone(),
            y.clone() / (a.clone() + x.clone()),
            Expr::apply(Func::Sin, x.clone()) * a.clone(),
            a.pow(&y),
            Expr::apply(Func::Sqrt, x.clone()),
            x.clone() + y.powi(-2),
        ];
        for e in not_polynomial {
            assert!(!e.is_polynomial_in(&names), "{e}");
        }
    }

    #[test]
    fn small_rationals_are_read_as_the_view_reads_them() {
        let large = Expr::int(10).powi(30);
        for e in [
            Expr::int(3),
            Expr::int(-2),
            Expr::int(0),
            Expr::rational(1, 2),
            Expr::rational(-7, 3),
            large.clone(),
            Expr::int(1) / large,
            Expr::symbol("x"),
            Expr::symbol("x").powi(2),
        ] {
            assert_eq!(
                super::small_rational(e.0.as_view()),
                e.as_small_rational(),
                "{e}"
            );
            // And as the view's printed parts read it.
            assert_eq!(e.as_small_rational(), e.view().as_small_rational(), "{e}");
        }
    }

    /// Infinity and the imaginary unit (what Symbolica makes of `0^-1` and `sqrt(-1)`) anywhere in
    /// a tree are found, also inside functions, powers and exponents; Euler's constant and its
    /// powers (`exp`) and ordinary rationals are finite reals.
    #[test]
    fn finite_real_numbers() {
        let x = Expr::symbol("x");
        let infinite = Expr::int(0).powi(-1);
        let imaginary = Expr::apply(Func::Sqrt, Expr::int(-1));
        assert!(!infinite.is_finite_real());
        assert!(!imaginary.is_finite_real());
        for bad in [&infinite, &imaginary] {
            let inside = [
                x.clone() + bad.clone(),
                x.clone() * Expr::apply(Func::Sin, x.clone() + bad.clone()),
                x.clone().pow(&(x.clone() + bad.clone())),
            ];
            for e in inside {
                assert!(!e.is_finite_real(), "{e}");
            }
        }
        let fine = Expr::rational(-3, 7) * Expr::apply(Func::Exp, x.clone())
            + Expr::apply(Func::Exp, Expr::one())
            + x.clone().powi(-2) * Expr::apply(Func::Cos, x);
        assert!(fine.is_finite_real(), "{fine}");
    }

    /// The parts read off a small rational's coefficient are those Symbolica prints, for
    /// integers, fractions, both signs and the extremes of a machine word.
    #[test]
    fn number_parts_read_off_the_coefficient_are_the_printed_ones() {
        let mut numbers: Vec<Expr> = Vec::new();
        for n in -40..=40 {
            for d in 1..=12 {
                numbers.push(Expr::rational(n, d));
            }
        }
        numbers.push(Expr::int(i64::MAX));
        numbers.push(Expr::int(i64::MIN + 1));
        numbers.push(Expr::rational(i64::MAX, 3));
        numbers.push(Expr::rational(-7, i64::MAX));
        for e in numbers {
            let view = e.0.as_view();
            assert!(matches!(view, symbolica::atom::AtomView::Num(_)));
            assert_eq!(
                super::number_parts(view),
                super::printed_parts(&e.0),
                "{e:?}"
            );
        }
    }

    #[test]
    fn trig_of_a_negative_argument_vanishes_by_parity() {
        let c = Expr::symbol("c");
        let k = Expr::int(3) / Expr::int(10);
        // A fraction of a symbol, as `lam = pi/10` leaves `-𝜋/10` behind.
        let fraction = Expr::symbol("p") / Expr::int(10);
        for a in [c.clone(), k, fraction] {
            let (s, co) = (
                Expr::apply(Func::Sin, a.clone()),
                Expr::apply(Func::Cos, a.clone()),
            );
            let (sm, cm) = (
                Expr::apply(Func::Sin, -a.clone()),
                Expr::apply(Func::Cos, -a.clone()),
            );
            // sin(a) cos(−a) + cos(a) sin(−a) = sin(a − a) = 0.
            assert!((s.clone() * cm.clone() + co.clone() * sm.clone()).vanishes());
            // cos(a) cos(−a) − sin(a) sin(−a) − 1 = cos² + sin² − 1 = 0.
            assert!((co * cm - s * sm - Expr::one()).vanishes());
        }
    }
}
