//! Steps 1 and 4 of the normal form (see [`super`]): every `sin(a)` and `cos(a)` hidden behind
//! a symbol of its own (`s_k`, `c_k`, one pair per distinct argument) and every radical
//! `b^(n/q)` behind `r_k^n`, and the symbols shown again as what they stand for; with the size a
//! hidden tree will have once shown, so that the two orientations of a normal form are compared
//! before either is shown.

use std::collections::BTreeMap;

use symbolica::atom::{Atom, AtomCore, AtomView, Symbol};

use crate::expr::{rebuild, sym, with_symbol_name, Trig};
use crate::Expr;

/// Trig arguments and radicals met so far, each with its index.
#[derive(Default)]
pub(crate) struct TrigTable {
    pub(super) arguments: Vec<Atom>,
    /// `(b, q)` for the radical `r_k = b^(1/q)`, `b` hidden itself (so it may contain earlier
    /// radicals and trig symbols, never later ones).
    pub(super) radicals: Vec<(Atom, i64)>,
    /// The sine and cosine of each argument so far ([`TrigTable::calls`]), made once: a table
    /// is shown many times (every entry of a separated quadratic form, both orientations of a
    /// reduction), and arguments are only ever added.
    shown_calls: std::cell::RefCell<Vec<[Atom; 2]>>,
}

impl TrigTable {
    fn index(&mut self, arg: Atom) -> usize {
        if let Some(k) = self.arguments.iter().position(|a| *a == arg) {
            return k;
        }
        self.arguments.push(arg);
        self.arguments.len() - 1
    }

    fn radical(&mut self, base: Atom, q: i64) -> usize {
        if let Some(k) = self
            .radicals
            .iter()
            .position(|(b, d)| *b == base && *d == q)
        {
            return k;
        }
        self.radicals.push((base, q));
        self.radicals.len() - 1
    }

    /// Whether nothing was hidden.
    pub(crate) fn is_empty(&self) -> bool {
        self.arguments.is_empty() && self.radicals.is_empty()
    }

    /// Whether a radical is hidden.
    pub(crate) fn has_radicals(&self) -> bool {
        !self.radicals.is_empty()
    }

    /// Each symbol hidden for this table (registered on this thread: [`registered`]), with
    /// what it stands for: the sine and the cosine of each argument, and each radical.
    fn symbols(&self) -> Vec<(Symbol, Hidden, usize)> {
        let arguments = self.arguments.len();
        [
            (Hidden::Sin, arguments),
            (Hidden::Cos, arguments),
            (Hidden::Radical, self.radicals.len()),
        ]
        .into_iter()
        .flat_map(|(kind, count)| {
            (0..count).filter_map(move |k| registered(kind, k).map(|s| (s, kind, k)))
        })
        .collect()
    }

    /// The sine and cosine of each argument, by its index: what its symbols are shown as.
    /// Borrowed, not copied: arguments are only added through `&mut self`, so while the list is
    /// borrowed it is complete, and a second borrow never needs to add to it.
    fn calls(&self) -> std::cell::Ref<'_, Vec<[Atom; 2]>> {
        if self.shown_calls.borrow().len() < self.arguments.len() {
            let mut calls = self.shown_calls.borrow_mut();
            for arg in &self.arguments[calls.len()..] {
                calls.push(sine_and_cosine(arg));
            }
        }
        self.shown_calls.borrow()
    }
}

/// The arguments' sines and cosines a thread has made, at most [`CALLS_KEPT`] (then it starts
/// again).
type MadeCalls = std::cell::RefCell<crate::hash::FastMap<Atom, [Atom; 2]>>;

thread_local! {
    static MADE_CALLS: MadeCalls = Default::default();
}

/// The bound on [`MADE_CALLS`]: a derivation has a few angles, met again in every table.
pub(super) const CALLS_KEPT: usize = 4096;

/// `[sin a, cos a]`, each made once per thread: every table (one per normal form, separation
/// or display) shows its symbols as these calls, and a document's tables share a few arguments
/// (the discrete rolling disc's run: 331,339 → 312,203 Symbolica operations; the flat five-link
/// chain's C: 2,332 → 2,032). Building a call is a function of its argument alone, so the atoms
/// are those building them anew gives.
pub(super) fn sine_and_cosine(arg: &Atom) -> [Atom; 2] {
    if let Some(calls) = MADE_CALLS.with_borrow(|made| made.get(arg).cloned()) {
        return calls;
    }
    let expr = Expr(arg.clone());
    let calls = [
        Expr::apply(crate::Func::Sin, expr.clone()).0,
        Expr::apply(crate::Func::Cos, expr).0,
    ];
    MADE_CALLS.with_borrow_mut(|made| {
        if made.len() >= CALLS_KEPT {
            made.clear();
        }
        made.insert(arg.clone(), calls.clone());
    });
    calls
}

fn radical_name(k: usize) -> String {
    format!("trig__r{k}")
}

fn sin_name(k: usize) -> String {
    format!("trig__s{k}")
}

fn cos_name(k: usize) -> String {
    format!("trig__c{k}")
}

/// What a hidden symbol stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Hidden {
    /// The sine of an argument (`trig__s{k}`).
    Sin,
    /// The cosine of an argument (`trig__c{k}`).
    Cos,
    /// A radical (`trig__r{k}`).
    Radical,
}

thread_local! {
    /// The hidden symbols registered on this thread, by kind ([`Hidden`] as an index) and index.
    static HIDDEN: std::cell::RefCell<[Vec<Option<Symbol>>; 3]> = Default::default();
}

/// The symbol of the `k`-th hidden sine, cosine or radical, by its name ([`sin_name`],
/// [`cos_name`], [`radical_name`]): registered at the first request, as [`sym`] registers it,
/// and then read from this thread's list, not formatted and looked up again.
pub(crate) fn hidden_symbol(kind: Hidden, k: usize) -> Symbol {
    if let Some(known) = registered(kind, k) {
        return known;
    }
    let name = match kind {
        Hidden::Sin => sin_name(k),
        Hidden::Cos => cos_name(k),
        Hidden::Radical => radical_name(k),
    };
    let symbol = sym(&name);
    HIDDEN.with_borrow_mut(|all| {
        let known = &mut all[kind as usize];
        if known.len() <= k {
            known.resize(k + 1, None);
        }
        known[k] = Some(symbol);
    });
    symbol
}

/// The `k`-th hidden symbol of `kind` if this thread registered it ([`hidden_symbol`]); no
/// symbol is registered by asking. A tree's hidden symbols were registered by the thread that
/// hid them, which is the thread that shows them.
fn registered(kind: Hidden, k: usize) -> Option<Symbol> {
    HIDDEN.with_borrow(|all| all[kind as usize].get(k).copied().flatten())
}

/// Replaces `sin`/`cos` by symbols, simplifying every function argument.
pub(crate) fn hide_trig(atom: &Atom, table: &mut TrigTable) -> Atom {
    rebuild(atom.as_view(), &mut |view| {
        if let AtomView::Pow(p) = view {
            return hide_radical(p.get_base_exp(), table);
        }
        let AtomView::Fun(f) = view else { return None };
        let trig = with_symbol_name(f.get_symbol(), |name| match name {
            "sin" => Some(Trig::Sin),
            "cos" => Some(Trig::Cos),
            _ => None,
        });
        let args: Vec<Atom> = f.iter().map(|a| Expr(a.to_owned()).simplify().0).collect();
        if let (Some(trig), 1) = (trig, args.len()) {
            let k = table.index(args[0].clone());
            let kind = if trig == Trig::Sin {
                Hidden::Sin
            } else {
                Hidden::Cos
            };
            return Some(Atom::var(hidden_symbol(kind, k)));
        }
        let mut builder = symbolica::atom::FunctionBuilder::new(f.get_symbol());
        for a in &args {
            builder = builder.add_arg(a);
        }
        Some(builder.finish())
    })
}

/// `b^(n/q)` with `q > 1` as `r^n` for the radical `r = b^(1/q)`: Symbolica's rational
/// arithmetic treats `b` and `b^(1/2)` as unrelated and cannot cancel through them (a 4 × 4
/// inverse with a `sqrt` entry swelled to gigabytes), whereas a fresh symbol `r` with
/// `r^q = b` (reduced like `cos² = 1 − sin²`) keeps the normal form small and canonical.
fn hide_radical((base, exp): (AtomView<'_>, AtomView<'_>), table: &mut TrigTable) -> Option<Atom> {
    let (n, q) = crate::view::small_rational(exp)?;
    if q <= 1 {
        return None;
    }
    let simplified = Expr(base.to_owned()).simplify().0;
    let hidden = hide_trig(&simplified, table);
    let k = table.radical(hidden, q);
    Some(Atom::var(hidden_symbol(Hidden::Radical, k)).pow(Atom::num(n)))
}

/// The normal form `n/d` of one orientation (its trig symbols hidden), shown.
pub(super) fn shown_quotient((n, d): &(Atom, Atom), table: &TrigTable) -> Expr {
    if table.is_empty() {
        return Expr(n.clone()) / Expr(d.clone());
    }
    // One table of calls for both.
    let shown = Shown::of(table);
    Expr(shown.show(n)) / Expr(shown.show(d))
}

/// The size ([`Expr::size`]) a hidden expression will have once shown ([`show_trig`]), read off
/// the hidden tree: each trig symbol weighs what the sine or cosine it stands for does, so the
/// two orientations of a normal form are compared before either is shown.
///
/// Showing replaces each trig symbol, a leaf, by a call, which Symbolica's normalisation treats
/// as one more opaque factor: distinct symbols become distinct calls (one pair per distinct
/// argument), and no call of the hidden tree outside a function's arguments is a sine or
/// cosine, so the shown tree is the hidden one with those leaves grown, node for node. That
/// holds when every sine and cosine stands as a call (Symbolica does not evaluate it to
/// something else) and nothing else is substituted: [`ShownSizes::of`] is `None` for a table
/// with radicals (a radical `r` shown as `b^(1/q)` merges with the powers around it). It is
/// made after the forms it measures: their reduction may register the partner of a hidden
/// symbol ([`TrigTable::symbols`] lists those registered).
pub(super) struct ShownSizes {
    /// Each hidden symbol with the size of the call it stands for.
    weights: Vec<(Symbol, usize)>,
}

impl ShownSizes {
    pub(super) fn of(table: &TrigTable) -> Option<ShownSizes> {
        if table.has_radicals() {
            return None;
        }
        let calls = table.calls();
        let stand = calls
            .iter()
            .flatten()
            .all(|call| matches!(call.as_view(), AtomView::Fun(_)));
        stand.then(|| ShownSizes {
            weights: table
                .symbols()
                .into_iter()
                .map(|(symbol, kind, k)| {
                    let call = &calls[k][usize::from(kind == Hidden::Cos)];
                    (symbol, Expr(call.clone()).size())
                })
                .collect(),
        })
    }

    /// The size of `n/d` once shown.
    pub(super) fn of_quotient(&self, (n, d): &(Atom, Atom)) -> usize {
        self.of_view((Expr(n.clone()) / Expr(d.clone())).0.as_view())
    }

    fn of_view(&self, view: AtomView<'_>) -> usize {
        let sum = |children: &mut dyn Iterator<Item = AtomView<'_>>| -> usize {
            children.map(|c| self.of_view(c)).sum()
        };
        match view {
            AtomView::Var(v) => {
                let symbol = v.get_symbol();
                self.weights
                    .iter()
                    .find(|(s, _)| *s == symbol)
                    .map_or(1, |(_, size)| *size)
            }
            AtomView::Num(_) => 1,
            AtomView::Fun(f) => 1 + sum(&mut f.iter()),
            AtomView::Pow(p) => {
                let (base, exponent) = p.get_base_exp();
                1 + self.of_view(base) + self.of_view(exponent)
            }
            AtomView::Mul(m) => 1 + sum(&mut m.iter()),
            AtomView::Add(a) => 1 + sum(&mut a.iter()),
        }
    }
}

/// Turns the trig symbols back into `sin`/`cos`.
pub(crate) fn show_trig(atom: &Atom, table: &TrigTable) -> Atom {
    if table.is_empty() {
        return atom.clone();
    }
    Shown::of(table).show(atom)
}

/// What a table's hidden symbols are shown as.
struct Shown<'a> {
    /// Each hidden symbol ([`TrigTable::symbols`]).
    symbols: Vec<(Symbol, Hidden, usize)>,
    /// The sine and cosine of each argument ([`TrigTable::calls`]).
    calls: std::cell::Ref<'a, Vec<[Atom; 2]>>,
    /// Each radical `b^(1/q)`, its base shown.
    radicals: Vec<Atom>,
}

impl<'a> Shown<'a> {
    /// What the symbols hidden in `table` stand for. A tree's hidden symbols must have been
    /// made before it is ([`TrigTable::symbols`] lists those registered).
    fn of(table: &'a TrigTable) -> Shown<'a> {
        let mut shown = Shown {
            symbols: table.symbols(),
            calls: table.calls(),
            radicals: Vec::with_capacity(table.radicals.len()),
        };
        // A radical's base holds only earlier radicals: show them in order.
        for (base, q) in &table.radicals {
            let base = shown.show(base);
            shown
                .radicals
                .push(Expr(base).pow(&Expr::rational(1, *q)).0);
        }
        shown
    }

    /// `atom` with each hidden symbol replaced at once: the `k`-th sine and cosine by their
    /// calls, the `k`-th radical by its power (while the radicals are being shown, one beyond
    /// those shown stays).
    fn show(&self, atom: &Atom) -> Atom {
        if self.symbols.is_empty() {
            return atom.clone();
        }
        rebuild(atom.as_view(), &mut |view| {
            let AtomView::Var(v) = view else { return None };
            let symbol = v.get_symbol();
            let &(_, kind, k) = self.symbols.iter().find(|(s, ..)| *s == symbol)?;
            match kind {
                Hidden::Sin => Some(self.calls[k][0].clone()),
                Hidden::Cos => Some(self.calls[k][1].clone()),
                Hidden::Radical => self.radicals.get(k).cloned(),
            }
        })
    }
}

/// Adds to `map` each trig symbol of `table` with the sine or cosine it stands for.
pub(crate) fn show_trig_entries(table: &TrigTable, map: &mut BTreeMap<String, Expr>) {
    for (k, [sine, cosine]) in table.calls().iter().enumerate() {
        map.insert(sin_name(k), Expr(sine.clone()));
        map.insert(cos_name(k), Expr(cosine.clone()));
    }
}
