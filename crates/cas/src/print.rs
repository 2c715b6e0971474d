//! Printers: the spec's expression syntax, Python's, and LaTeX.
//!
//! Both printers are deterministic: the terms of a sum and the factors of a product are ordered
//! by their printed text (numbers first), never by Symbolica's internal symbol order, which
//! depends on the order symbols were first created in the process.
//!
//! Every symbol is spelled by a symbol table ([`Names`]; the model's system is one), so the
//! table decides how a symbol reads in each syntax (the velocity of `x` as `x'`, `\dot{x}` or
//! `x_dot`, `Omega` as `Omega(t)`, `w1` as `\omega_1`).

use crate::hash::FastMap;
use std::cell::RefCell;

mod leaves;

pub use leaves::leaves;

use crate::view::{is_euler, is_negative_number, number_parts};
use crate::{Expr, View};
use symbolica::atom::AtomView;

/// How printers spell symbols: a symbol table, from the name cas knows a symbol by to its text
/// in each syntax.
pub trait Names {
    /// The text of the symbol cas calls `symbol`, in `spelling`.
    fn spell(&self, symbol: &str, spelling: Spelling) -> String;
}

impl<T: Names + ?Sized> Names for &T {
    fn spell(&self, symbol: &str, spelling: Spelling) -> String {
        (**self).spell(symbol, spelling)
    }
}

/// The syntaxes a symbol is spelled in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Spelling {
    /// The spec's syntax (`x'`, `Omega'(t)`).
    Spec,
    /// LaTeX, math mode (`\dot{x}`).
    Latex,
    /// An identifier legal in C, Python and Rust (`x_dot`).
    Identifier,
}

/// Spells every symbol by the name cas knows it by: for ordering keys and tests.
pub struct Keys;

impl Names for Keys {
    fn spell(&self, symbol: &str, _: Spelling) -> String {
        symbol.to_string()
    }
}

/// Symbols spelled in one syntax.
type Rename<'a> = &'a dyn Fn(&str) -> String;

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Prec {
    Sum = 1,
    Product = 2,
    Power = 4,
    Atom = 5,
}

/// A product split into a sign, a rational coefficient and numerator/denominator factors.
struct Fraction {
    negative: bool,
    coefficient: (String, String),
    numerator: Vec<Expr>,
    denominator: Vec<Expr>,
}

fn negate_digits(n: &str) -> (bool, String) {
    match n.strip_prefix('-') {
        Some(rest) => (true, rest.to_string()),
        None => (false, n.to_string()),
    }
}

fn split(expr: &Expr) -> Fraction {
    let factors = expr.factors();
    let mut f = Fraction {
        negative: false,
        coefficient: ("1".into(), "1".into()),
        numerator: Vec::new(),
        denominator: Vec::new(),
    };
    // Each factor is read in place: a view would copy every term of a sum factor.
    for factor in factors {
        match place_of(factor.0.as_view()) {
            Place::Coefficient(numerator, denominator) => {
                let (neg, digits) = negate_digits(&numerator);
                f.negative ^= neg;
                f.coefficient = (digits, denominator);
            }
            Place::Denominator(factor) => f.denominator.push(factor),
            Place::Numerator => f.numerator.push(factor),
        }
    }
    f
}

/// Where [`split`] puts a factor.
enum Place {
    /// A number, as its printed numerator and denominator.
    Coefficient(String, String),
    /// A power with a negative number for exponent, as the factor it divides by.
    Denominator(Expr),
    Numerator,
}

/// Where [`split`] puts the factor `view`, read as [`Expr::view`] reads it (`exp(x)`, Euler's
/// constant to a power, is a call: a numerator factor).
fn place_of(view: AtomView<'_>) -> Place {
    match view {
        AtomView::Num(_) => {
            let (numerator, denominator) = number_parts(view);
            Place::Coefficient(numerator, denominator)
        }
        AtomView::Pow(p) => {
            let (base, exp) = p.get_base_exp();
            if is_euler(base) || !is_negative_number(exp) {
                return Place::Numerator;
            }
            let base = Expr(base.to_owned());
            let positive = -Expr(exp.to_owned());
            Place::Denominator(if positive.as_small_rational() == Some((1, 1)) {
                base
            } else {
                base.pow(&positive)
            })
        }
        _ => Place::Numerator,
    }
}

/// The expression in the spec's syntax (re-parsable by `dalembert`).
pub fn spec(expr: &Expr, names: &dyn Names) -> String {
    let rename = |s: &str| names.spell(s, Spelling::Spec);
    styled(
        expr,
        Style {
            rename: &rename,
            power: "^",
        },
    )
}

/// Symbols spelled by the names cas knows them by (for keys and diagnostics inside cas).
pub struct AsIs;

impl Names for AsIs {
    fn spell(&self, symbol: &str, _: Spelling) -> String {
        symbol.to_string()
    }
}

/// The expression in Python syntax, which SymPy's `parse_expr` and Python (with `math`'s
/// functions) read: the spec's syntax with `**` for powers and symbols spelled as identifiers.
pub fn python(expr: &Expr, names: &dyn Names) -> String {
    let rename = |s: &str| names.spell(s, Spelling::Identifier);
    styled(
        expr,
        Style {
            rename: &rename,
            power: "**",
        },
    )
}

/// How a plain-text syntax spells symbols and powers.
#[derive(Clone, Copy)]
struct Style<'a> {
    rename: Rename<'a>,
    power: &'static str,
}

fn styled(expr: &Expr, style: Style<'_>) -> String {
    spec_prec(expr, style).0
}

/// Orders terms and factors deterministically and readably: plain symbols first, then
/// time derivatives (primes, dots), then anything with parentheses; alphabetically within each
/// class, ignoring LaTeX backslashes.
///
/// Each item's class is found once, and the texts are compared in place (a key copied per
/// comparison was most of the sorting of a long sum).
fn sorted(items: Vec<String>) -> Vec<String> {
    fn without_backslashes(text: &str) -> impl Iterator<Item = char> + '_ {
        text.chars().filter(|&c| c != '\\')
    }
    let mut keyed: Vec<(u8, String)> = items.into_iter().map(|t| (printed_class(&t), t)).collect();
    keyed.sort_by(|(class_a, a), (class_b, b)| {
        class_a
            .cmp(class_b)
            .then_with(|| without_backslashes(a).cmp(without_backslashes(b)))
    });
    keyed.into_iter().map(|(_, text)| text).collect()
}

fn spec_prec(expr: &Expr, style: Style<'_>) -> (String, Prec) {
    let view = match Shape::of(expr) {
        // A product is printed from its factors as `split` reads them.
        Shape::Product => View::Mul(Vec::new()),
        Shape::Sum => expr.view(),
        Shape::Other(view) => view,
    };
    match view {
        View::Number {
            numerator,
            denominator,
        } => {
            if denominator == "1" {
                let prec = if numerator.starts_with('-') {
                    Prec::Sum
                } else {
                    Prec::Atom
                };
                (numerator, prec)
            } else {
                (format!("{numerator}/{denominator}"), Prec::Product)
            }
        }
        View::Symbol(name) => ((style.rename)(&name), Prec::Atom),
        View::Call(name, args) => {
            let args: Vec<String> = args.iter().map(|a| styled(a, style)).collect();
            (format!("{name}({})", args.join(", ")), Prec::Atom)
        }
        View::Add(terms) => {
            let mut positive = Vec::new();
            let mut negative = Vec::new();
            for term in terms {
                let f = split(&term);
                let text = product_spec(
                    &Fraction {
                        negative: false,
                        ..f
                    },
                    style,
                );
                if f.negative {
                    negative.push(text);
                } else {
                    positive.push(text);
                }
            }
            let mut out = String::new();
            for (i, t) in sorted(positive).into_iter().enumerate() {
                if i > 0 {
                    out.push_str(" + ");
                }
                out.push_str(&t);
            }
            for t in sorted(negative) {
                out.push_str(if out.is_empty() { "-" } else { " - " });
                out.push_str(&t);
            }
            (out, Prec::Sum)
        }
        View::Mul(_) | View::Pow(..) => {
            let f = split(expr);
            if f.numerator.is_empty() && f.denominator.is_empty() {
                unreachable!("a product always has a non-numeric factor");
            }
            if let (View::Pow(base, exp), true) = (view, f.denominator.is_empty()) {
                return power_spec(&base, &exp, style);
            }
            let text = product_spec(&f, style);
            if f.negative {
                (format!("-{text}"), Prec::Sum)
            } else {
                (text, Prec::Product)
            }
        }
    }
}

fn power_spec(base: &Expr, exp: &Expr, style: Style<'_>) -> (String, Prec) {
    if exp.as_small_rational() == Some((1, 2)) {
        return (format!("sqrt({})", styled(base, style)), Prec::Atom);
    }
    let (b, bp) = spec_prec(base, style);
    let (e, ep) = spec_prec(exp, style);
    let b = if bp <= Prec::Power {
        format!("({b})")
    } else {
        b
    };
    let e = if ep < Prec::Atom { format!("({e})") } else { e };
    (format!("{b}{}{e}", style.power), Prec::Power)
}

fn wrap_factor(expr: &Expr, style: Style<'_>) -> String {
    let (text, prec) = spec_prec(expr, style);
    if prec < Prec::Product || (prec == Prec::Product && text.contains('/')) {
        format!("({text})")
    } else {
        text
    }
}

fn product_spec(f: &Fraction, style: Style<'_>) -> String {
    let (cn, cd) = &f.coefficient;
    let mut numerator: Vec<String> =
        sorted(f.numerator.iter().map(|e| wrap_factor(e, style)).collect());
    if cn != "1" || numerator.is_empty() {
        numerator.insert(0, cn.clone());
    }
    let mut denominator: Vec<String> = sorted(
        f.denominator
            .iter()
            .map(|e| wrap_factor(e, style))
            .collect(),
    );
    if cd != "1" {
        denominator.insert(0, cd.clone());
    }
    let top = numerator.join("*");
    match denominator.len() {
        0 => top,
        1 => format!("{top}/{}", denominator[0]),
        _ => format!("{top}/({})", denominator.join("*")),
    }
}

/// The expression in LaTeX (math mode), with `\frac` for quotients.
pub fn latex(expr: &Expr, names: &dyn Names) -> String {
    latex_with(expr, Latex::plain(&|s| names.spell(s, Spelling::Latex)))
}

/// [`latex`] in a context.
fn latex_with(expr: &Expr, cx: Latex<'_>) -> String {
    latex_prec(expr, cx).0
}

/// The context of a LaTeX printing: how symbols are spelled, and what was printed before.
#[derive(Clone, Copy)]
struct Latex<'a> {
    rename: Rename<'a>,
    memo: Option<&'a LatexMemo>,
}

impl<'a> Latex<'a> {
    /// A printing that remembers nothing.
    fn plain(rename: Rename<'a>) -> Latex<'a> {
        Latex { rename, memo: None }
    }
}

/// A term of a sum as [`latex_signed_terms`] gives it: its sign, its magnitude, the magnitude's
/// LaTeX.
pub type SignedTerm = (String, Expr, String);

/// What LaTeX printings with one set of [`Names`] remember: every sum, product, power and call
/// they printed, and the signed terms of every sum, by expression.
///
/// Breaking a long equation into rows prints a term, then its factors, then their terms, each
/// level anew; with a memo each subexpression is printed once, whatever the depth it is reached
/// from. A memo is valid for one set of names: printing with other names must use another one.
/// The text is the same as [`latex`]'s, [`latex_signed_terms`]' and [`latex_factors`]'.
#[derive(Default)]
pub struct LatexMemo {
    printed: RefCell<FastMap<Expr, (String, Prec)>>,
    signed: RefCell<FastMap<Expr, Vec<SignedTerm>>>,
}

impl LatexMemo {
    /// An empty memo.
    pub fn new() -> LatexMemo {
        LatexMemo::default()
    }

    /// [`latex`], remembered.
    pub fn latex(&self, expr: &Expr, names: &dyn Names) -> String {
        latex_with(expr, self.context(&|s| names.spell(s, Spelling::Latex)))
    }

    /// [`latex_signed_terms`], remembered.
    pub fn signed_terms(&self, expr: &Expr, names: &dyn Names) -> Vec<SignedTerm> {
        signed_terms(expr, self.context(&|s| names.spell(s, Spelling::Latex)))
    }

    /// [`latex_factors`], remembered.
    pub fn factors(&self, expr: &Expr, names: &dyn Names) -> Option<LatexFactors> {
        factors(expr, self.context(&|s| names.spell(s, Spelling::Latex)))
    }

    fn context<'a>(&'a self, rename: Rename<'a>) -> Latex<'a> {
        Latex {
            rename,
            memo: Some(self),
        }
    }
}

/// The functions whose powers are written on the name (`\sin^{2}`).
fn is_trigonometric(name: &str) -> bool {
    matches!(name, "sin" | "cos" | "tan" | "sinh" | "cosh" | "tanh")
}

/// The top-level terms of a sum in the order [`latex`] prints them, each as its sign
/// (`"+ "`, `"- "`, or `""` for the first positive term), its magnitude (the term without its
/// sign) and the magnitude's LaTeX. Used to break a long term further.
pub fn latex_signed_terms(expr: &Expr, names: &dyn Names) -> Vec<SignedTerm> {
    signed_terms(expr, Latex::plain(&|s| names.spell(s, Spelling::Latex)))
}

/// [`latex_signed_terms`] in a context, remembered by its memo.
fn signed_terms(expr: &Expr, cx: Latex<'_>) -> Vec<SignedTerm> {
    // Only sums are remembered, so a hit needs no view (which copies every child).
    if let Some(found) = cx.memo.and_then(|m| m.signed.borrow().get(expr).cloned()) {
        return found;
    }
    let View::Add(terms) = expr.view() else {
        return vec![(String::new(), expr.clone(), latex_with(expr, cx))];
    };
    let out = signed_terms_of(terms, cx);
    if let Some(m) = cx.memo {
        m.signed.borrow_mut().insert(expr.clone(), out.clone());
    }
    out
}

/// The signed terms of the sum of `terms`, printed.
fn signed_terms_of(terms: Vec<Expr>, cx: Latex<'_>) -> Vec<SignedTerm> {
    let mut positive = Vec::new();
    let mut negative = Vec::new();
    for term in terms {
        let f = split(&term);
        let text = product_latex(
            &Fraction {
                negative: false,
                ..f
            },
            cx,
        );
        if f.negative {
            negative.push((text, -term));
        } else {
            positive.push((text, term));
        }
    }
    let mut out = Vec::new();
    for (t, e) in in_printed_order(positive) {
        let sign = if out.is_empty() { "" } else { "+ " };
        out.push((sign.to_string(), e, t));
    }
    for (t, e) in in_printed_order(negative) {
        out.push(("- ".to_string(), e, t));
    }
    out
}

/// Terms or factors, each with its LaTeX, in the order [`sorted_latex`] prints them.
fn in_printed_order(mut items: Vec<(String, Expr)>) -> Vec<(String, Expr)> {
    sort_printed(&mut items, |(text, _)| text);
    items
}

/// Whether [`latex`] prints the expression with a minus sign first, without printing a sum or a
/// product: a sum prints its positive terms first ([`latex_signed_terms`]), so it leads with a
/// minus exactly when none of its terms is positive, and a product with a minus exactly when its
/// coefficient is negative.
pub fn latex_leads_negative(expr: &Expr, names: &dyn Names) -> bool {
    match expr.view() {
        View::Add(terms) => terms.iter().all(|term| split(term).negative),
        View::Mul(_) => split(expr).negative,
        _ => latex(expr, names).starts_with('-'),
    }
}

/// A product's factors in the order [`latex`] prints them, for breaking a long product between
/// its factors: whether it is negative, its rational coefficient printed (`None` for 1), and each
/// factor with its LaTeX (a sum bracketed). `None` when the product has a denominator other than
/// a number.
pub fn latex_factors(expr: &Expr, names: &dyn Names) -> Option<LatexFactors> {
    factors(expr, Latex::plain(&|s| names.spell(s, Spelling::Latex)))
}

/// [`latex_factors`] in a context.
fn factors(expr: &Expr, cx: Latex<'_>) -> Option<LatexFactors> {
    let _stage = timing::stage("latex factors");
    let f = split(expr);
    if !f.denominator.is_empty() {
        return None;
    }
    let (cn, cd) = &f.coefficient;
    let coefficient = match (cn.as_str(), cd.as_str()) {
        ("1", "1") => None,
        (n, "1") => Some(n.to_string()),
        (n, d) => Some(format!("\\frac{{{n}}}{{{d}}}")),
    };
    let printed: Vec<(String, Expr)> = f
        .numerator
        .iter()
        .map(|e| (latex_factor(e, cx), e.clone()))
        .collect();
    let factors = in_printed_order(printed)
        .into_iter()
        .map(|(t, e)| (e, t))
        .collect();
    Some(LatexFactors {
        negative: f.negative,
        coefficient,
        factors,
    })
}

/// A product as [`latex_factors`] cuts it.
pub struct LatexFactors {
    /// Whether the product carries a minus sign.
    pub negative: bool,
    /// The rational coefficient's LaTeX, `None` when it is 1.
    pub coefficient: Option<String>,
    /// The other factors in printed order, each with its LaTeX.
    pub factors: Vec<(Expr, String)>,
}

/// Orders LaTeX terms or factors as a reader expects: by what they are of, not by their
/// coefficient (`m_{1} + 2 m_{2}`, not `2 m_{2} + m_{1}`), indices in numeric order (`m_{2}`
/// before `m_{10}`), then by their text; plain symbols before derivatives before calls, as
/// [`sorted`] does.
fn sorted_latex(mut items: Vec<String>) -> Vec<String> {
    sort_printed(&mut items, String::as_str);
    items
}

/// Sorts `items` (stably) in the order [`sorted_latex`] prints terms and factors in: plain
/// symbols before rates before calls, then by the text without its numeric coefficient and
/// backslashes, digit runs compared as numbers, then by the whole text. Each item's class and
/// stem are found once; the texts are compared in place, never copied (a long sum's terms are
/// long, and keys holding a token per character were an eighth of the bicycle's run).
fn sort_printed<T>(items: &mut Vec<T>, text: impl Fn(&T) -> &str) {
    let mut keyed: Vec<(u8, usize, T)> = items
        .drain(..)
        .map(|item| {
            let t = text(&item);
            (printed_class(t), t.len() - stem(t).len(), item)
        })
        .collect();
    keyed.sort_by(|(class_a, stem_a, a), (class_b, stem_b, b)| {
        let (a, b) = (text(a), text(b));
        class_a
            .cmp(class_b)
            .then_with(|| natural(&a[*stem_a..]).cmp(natural(&b[*stem_b..])))
            .then_with(|| a.cmp(b))
    });
    items.extend(keyed.into_iter().map(|(_, _, item)| item));
}

/// Plain symbols (0), rates (1), calls (2).
fn printed_class(text: &str) -> u8 {
    if text.contains('(') {
        2
    } else if text.contains('\'') || text.contains("\\dot") {
        1
    } else {
        0
    }
}

/// The text without a leading numeric coefficient (`2 `, `\frac{1}{2} `).
fn stem(text: &str) -> &str {
    let mut t = text;
    if let Some(rest) = t.strip_prefix("\\frac{") {
        if let Some(end) = rest.find("} ") {
            let inner = &rest[..end];
            if inner
                .chars()
                .all(|c| c.is_ascii_digit() || c == '}' || c == '{')
            {
                t = &rest[end + 2..];
            }
        }
    }
    let digits = t.len() - t.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    if digits > 0 && t[digits..].starts_with(' ') {
        t = &t[digits + 1..];
    }
    t
}

/// The tokens the stem is compared by, backslashes left out: a digit run as its number
/// (`(0, n, '\0')`, before any character), any other character as `(1, 0, c)` (a single
/// character's UTF-8 bytes order as its code point does).
fn natural(text: &str) -> impl Iterator<Item = (u8, u64, char)> + '_ {
    let mut chars = text.chars().filter(|&c| c != '\\').peekable();
    std::iter::from_fn(move || {
        let c = chars.next()?;
        if !c.is_ascii_digit() {
            return Some((1, 0, c));
        }
        let mut n = u64::from(c as u8 - b'0');
        while let Some(d) = chars.next_if(char::is_ascii_digit) {
            n = n
                .saturating_mul(10)
                .saturating_add(u64::from(d as u8 - b'0'));
        }
        Some((0, n, '\0'))
    })
}

/// The LaTeX of `expr` and its precedence, remembered by the context's memo unless it is a
/// number or a symbol.
fn latex_prec(expr: &Expr, cx: Latex<'_>) -> (String, Prec) {
    if let Some(found) = cx.memo.and_then(|m| m.printed.borrow().get(expr).cloned()) {
        return found;
    }
    let shape = Shape::of(expr);
    let leaf = matches!(shape, Shape::Other(View::Number { .. } | View::Symbol(_)));
    let printed = latex_of(expr, shape, cx);
    if let Some(m) = cx.memo.filter(|_| !leaf) {
        m.printed.borrow_mut().insert(expr.clone(), printed.clone());
    }
    printed
}

/// What the printers need of an expression's view: a sum or a product is printed from its terms
/// or factors as [`signed_terms`] and [`split`] read them, so its view (which copies every child)
/// is not taken.
enum Shape {
    Sum,
    Product,
    Other(View),
}

impl Shape {
    fn of(expr: &Expr) -> Shape {
        match expr.0.as_view() {
            AtomView::Add(_) => Shape::Sum,
            AtomView::Mul(_) => Shape::Product,
            _ => Shape::Other(expr.view()),
        }
    }
}

/// The LaTeX of `expr` (whose shape is `shape`) and its precedence.
fn latex_of(expr: &Expr, shape: Shape, cx: Latex<'_>) -> (String, Prec) {
    let view = match shape {
        Shape::Sum => {
            return (
                signed_terms(expr, cx)
                    .into_iter()
                    .map(|(sign, _, text)| format!("{sign}{text}"))
                    .collect::<Vec<_>>()
                    .join(" "),
                Prec::Sum,
            )
        }
        Shape::Product => View::Mul(Vec::new()),
        Shape::Other(view) => view,
    };
    match view {
        View::Number {
            numerator,
            denominator,
        } => {
            let (neg, digits) = negate_digits(&numerator);
            let sign = if neg { "-" } else { "" };
            if denominator == "1" {
                (
                    format!("{sign}{digits}"),
                    if neg { Prec::Sum } else { Prec::Atom },
                )
            } else {
                (
                    format!("{sign}\\frac{{{digits}}}{{{denominator}}}"),
                    if neg { Prec::Sum } else { Prec::Atom },
                )
            }
        }
        View::Symbol(name) => ((cx.rename)(&name), Prec::Atom),
        View::Call(name, args) => {
            let args: Vec<String> = args.iter().map(|a| latex_with(a, cx)).collect();
            (
                format!("\\{name}\\left({}\\right)", args.join(", ")),
                Prec::Atom,
            )
        }
        View::Add(_) => unreachable!("a sum has the shape of a sum"),
        View::Mul(_) | View::Pow(..) => {
            let f = split(expr);
            if let (View::Pow(base, exp), true) = (view, f.denominator.is_empty()) {
                if exp.as_small_rational() == Some((1, 2)) {
                    return (format!("\\sqrt{{{}}}", latex_with(&base, cx)), Prec::Atom);
                }
                // `\sin^{2}\left(θ\right)`, as a paper writes a power of a function.
                if let (View::Call(name, args), Some((n, 1))) =
                    (base.view(), exp.as_small_rational())
                {
                    if n > 1 && args.len() == 1 && is_trigonometric(&name) {
                        return (
                            format!(
                                "\\{name}^{{{n}}}\\left({}\\right)",
                                latex_with(&args[0], cx)
                            ),
                            Prec::Atom,
                        );
                    }
                }
                let (b, bp) = latex_prec(&base, cx);
                let b = if bp <= Prec::Power {
                    format!("\\left({b}\\right)")
                } else {
                    b
                };
                return (format!("{b}^{{{}}}", latex_with(&exp, cx)), Prec::Power);
            }
            let negative = f.negative;
            let text = product_latex(
                &Fraction {
                    negative: false,
                    ..f
                },
                cx,
            );
            if negative {
                (format!("-{text}"), Prec::Sum)
            } else {
                (text, Prec::Product)
            }
        }
    }
}

fn latex_factor(expr: &Expr, cx: Latex<'_>) -> String {
    let (text, prec) = latex_prec(expr, cx);
    if prec < Prec::Product {
        format!("\\left({text}\\right)")
    } else {
        text
    }
}

fn product_latex(f: &Fraction, cx: Latex<'_>) -> String {
    let (cn, cd) = &f.coefficient;
    let factors = |list: &[Expr], alone: bool| -> Vec<String> {
        if alone && list.len() == 1 {
            return vec![latex_with(&list[0], cx)];
        }
        sorted_latex(list.iter().map(|e| latex_factor(e, cx)).collect())
    };
    let fraction = !f.denominator.is_empty() || cd != "1";
    let numerator = factors(&f.numerator, fraction && cn == "1");
    let denominator = factors(&f.denominator, cd == "1");
    // A thin space between juxtaposed factors, so that `m u_1` does not read `mu_1`.
    let mut top = numerator.join("\\, ");
    if top.is_empty() {
        top = cn.clone();
    } else if cn != "1" {
        top = format!("{cn} {top}");
    }
    if denominator.is_empty() && cd == "1" {
        return top;
    }
    let mut bottom = denominator.join("\\, ");
    if cd != "1" {
        bottom = if bottom.is_empty() {
            cd.clone()
        } else {
            format!("{cd} {bottom}")
        };
    }
    format!("\\frac{{{top}}}{{{bottom}}}")
}

impl std::fmt::Display for Expr {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&spec(self, &Keys))
    }
}

#[cfg(test)]
mod tests;
