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
mod plain;

pub use leaves::leaves;
pub use plain::{python, spec};

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

/// The spellings a printing has asked of its symbol table, by symbol: a long expression names
/// the same few symbols again and again, and a table may compose a spelling anew each time it
/// is asked (`\dot{\theta}_{1}`). One set of names and one syntax per instance.
#[derive(Default)]
struct Spellings(RefCell<FastMap<String, String>>);

impl Spellings {
    /// `symbol` spelled by `names` in `spelling`, asked of `names` the first time only.
    fn spell(&self, names: &dyn Names, spelling: Spelling, symbol: &str) -> String {
        if let Some(text) = self.0.borrow().get(symbol) {
            return text.clone();
        }
        let text = names.spell(symbol, spelling);
        self.0.borrow_mut().insert(symbol.to_string(), text.clone());
        text
    }
}

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Prec {
    Sum = 1,
    Product = 2,
    Power = 4,
    Atom = 5,
}

/// A product split into a sign, a rational coefficient and numerator/denominator factors.
struct Fraction<'a> {
    negative: bool,
    coefficient: (String, String),
    numerator: Vec<Factor<'a>>,
    denominator: Vec<Factor<'a>>,
}

/// A factor of a [`Fraction`]: read in place, or made (what a power with a negative exponent
/// other than −1 divides by).
enum Factor<'a> {
    In(AtomView<'a>),
    Made(Expr),
}

impl Factor<'_> {
    fn view(&self) -> AtomView<'_> {
        match self {
            Factor::In(view) => *view,
            Factor::Made(e) => e.0.as_view(),
        }
    }

    /// The factor as an expression of its own (a copy of a factor read in place).
    fn expr(&self) -> Expr {
        match self {
            Factor::In(view) => Expr(view.to_owned()),
            Factor::Made(e) => e.clone(),
        }
    }
}

impl Fraction<'_> {
    /// The numerator's factors, each as an expression of its own.
    fn numerator_exprs(&self) -> Vec<Expr> {
        self.numerator.iter().map(Factor::expr).collect()
    }

    /// The denominator's factors, each as an expression of its own.
    fn denominator_exprs(&self) -> Vec<Expr> {
        self.denominator.iter().map(Factor::expr).collect()
    }
}

fn negate_digits(n: &str) -> (bool, String) {
    match n.strip_prefix('-') {
        Some(rest) => (true, rest.to_string()),
        None => (false, n.to_string()),
    }
}

/// The product `view` (or the one factor that is not a product) as a [`Fraction`], each factor
/// read in place: copying them would copy every term of a sum factor.
fn split(view: AtomView<'_>) -> Fraction<'_> {
    let factors: Vec<AtomView<'_>> = match view {
        AtomView::Mul(m) => m.iter().collect(),
        other => vec![other],
    };
    let mut f = Fraction {
        negative: false,
        coefficient: ("1".into(), "1".into()),
        numerator: Vec::new(),
        denominator: Vec::new(),
    };
    for factor in factors {
        match place_of(factor) {
            Place::Coefficient(numerator, denominator) => {
                let (neg, digits) = negate_digits(&numerator);
                f.negative ^= neg;
                f.coefficient = (digits, denominator);
            }
            Place::Denominator(factor) => f.denominator.push(factor),
            Place::Numerator => f.numerator.push(Factor::In(factor)),
        }
    }
    f
}

/// Where [`split`] puts a factor.
enum Place<'a> {
    /// A number, as its printed numerator and denominator.
    Coefficient(String, String),
    /// A power with a negative number for exponent, as the factor it divides by.
    Denominator(Factor<'a>),
    Numerator,
}

/// Where [`split`] puts the factor `view`, read as [`Expr::view`] reads it (`exp(x)`, Euler's
/// constant to a power, is a call: a numerator factor).
fn place_of(view: AtomView<'_>) -> Place<'_> {
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
            let positive = -Expr(exp.to_owned());
            Place::Denominator(if positive.as_small_rational() == Some((1, 1)) {
                Factor::In(base)
            } else {
                Factor::Made(Expr(base.to_owned()).pow(&positive))
            })
        }
        _ => Place::Numerator,
    }
}

/// Symbols spelled by the names cas knows them by (for keys and diagnostics inside cas).
pub struct AsIs;

impl Names for AsIs {
    fn spell(&self, symbol: &str, _: Spelling) -> String {
        symbol.to_string()
    }
}

/// The expression in LaTeX (math mode), with `\frac` for quotients.
pub fn latex(expr: &Expr, names: &dyn Names) -> String {
    plain_latex(names, |cx| latex_with(expr, cx))
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

/// `print` in a LaTeX context that remembers nothing but the spellings of its symbols.
fn plain_latex<R>(names: &dyn Names, print: impl FnOnce(Latex<'_>) -> R) -> R {
    let spellings = Spellings::default();
    print(Latex::plain(&|s| {
        spellings.spell(names, Spelling::Latex, s)
    }))
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
/// they printed, and the signed terms of every sum, by expression; the spelling of every symbol.
///
/// Breaking a long equation into rows prints a term, then its factors, then their terms, each
/// level anew; with a memo each subexpression is printed once, whatever the depth it is reached
/// from. A memo is valid for one set of names: printing with other names must use another one.
/// The text is the same as [`latex`]'s, [`latex_signed_terms`]' and [`latex_factors`]'.
#[derive(Default)]
pub struct LatexMemo {
    printed: RefCell<FastMap<Expr, (String, Prec)>>,
    signed: RefCell<FastMap<Expr, Vec<SignedTerm>>>,
    /// The LaTeX spellings of the symbols printed.
    spellings: Spellings,
}

impl LatexMemo {
    /// An empty memo.
    pub fn new() -> LatexMemo {
        LatexMemo::default()
    }

    /// The LaTeX [`LatexMemo::latex`] gave `expr` before (a sum, a product, a power or a call
    /// printed with this memo, alone or inside another), without printing anything; `None`
    /// when it was not printed.
    pub fn printed(&self, expr: &Expr) -> Option<String> {
        self.printed
            .borrow()
            .get(expr)
            .map(|(text, _)| text.clone())
    }

    /// [`latex`], remembered.
    pub fn latex(&self, expr: &Expr, names: &dyn Names) -> String {
        latex_with(expr, self.context(&|s| self.spell(names, s)))
    }

    /// [`latex_signed_terms`], remembered.
    pub fn signed_terms(&self, expr: &Expr, names: &dyn Names) -> Vec<SignedTerm> {
        signed_terms(expr, self.context(&|s| self.spell(names, s)))
    }

    /// [`latex_factors`], remembered.
    pub fn factors(&self, expr: &Expr, names: &dyn Names) -> Option<LatexFactors> {
        factors(expr, self.context(&|s| self.spell(names, s)))
    }

    /// `symbol` in LaTeX, asked of `names` once per memo.
    fn spell(&self, names: &dyn Names, symbol: &str) -> String {
        self.spellings.spell(names, Spelling::Latex, symbol)
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
    plain_latex(names, |cx| signed_terms(expr, cx))
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
        let f = split(term.0.as_view());
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
        View::Add(terms) => terms.iter().all(|term| split(term.0.as_view()).negative),
        View::Mul(_) => split(expr.0.as_view()).negative,
        _ => latex(expr, names).starts_with('-'),
    }
}

/// A product's factors in the order [`latex`] prints them, for breaking a long product between
/// its factors: whether it is negative, its rational coefficient printed (`None` for 1), and each
/// factor with its LaTeX (a sum bracketed). `None` when the product has a denominator other than
/// a number.
pub fn latex_factors(expr: &Expr, names: &dyn Names) -> Option<LatexFactors> {
    plain_latex(names, |cx| factors(expr, cx))
}

/// [`latex_factors`] in a context.
fn factors(expr: &Expr, cx: Latex<'_>) -> Option<LatexFactors> {
    let _stage = timing::stage("latex factors");
    let f = split(expr.0.as_view());
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
        .map(|factor| {
            let e = factor.expr();
            (latex_factor(&e, cx), e)
        })
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
            let f = split(expr.0.as_view());
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

fn product_latex(f: &Fraction<'_>, cx: Latex<'_>) -> String {
    let (cn, cd) = &f.coefficient;
    let factors = |list: &[Expr], alone: bool| -> Vec<String> {
        if alone && list.len() == 1 {
            return vec![latex_with(&list[0], cx)];
        }
        sorted_latex(list.iter().map(|e| latex_factor(e, cx)).collect())
    };
    let fraction = !f.denominator.is_empty() || cd != "1";
    let numerator = factors(&f.numerator_exprs(), fraction && cn == "1");
    let denominator = factors(&f.denominator_exprs(), cd == "1");
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
