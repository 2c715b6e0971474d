//! The symbol table: every symbol of a system, as a handle into an append-only arena.
//!
//! A symbol is what an expression is written in: a declared name (a coordinate, a fibre
//! coordinate, a parameter, a function of time, a momentum, an input, the action), or one the
//! spec's syntax implies and a derivation introduces: the velocity `q'` of a coordinate under
//! `algebroid tangent`, the time derivative of a state variable (`u1'`, `x''`), a derivative of a
//! function of time (`Omega'(t)`), a multiplier (`lambda1`). Each gets a [`Handle`] and a
//! [`Kind`] that says what it is *of* (the coordinate of a velocity, the variable of a rate), so
//! that printers spell it from its kind: `\dot{x}` and `x_dot` for the velocity of `x`.
//!
//! Each symbol also has a *key*, the name cas knows it by. Keys are made here and never read back:
//! what a symbol is comes from its entry, not from its key. A declared name is its own key (no
//! user name contains `__`, see [`crate::names::user_name_problem`]); the keys of the others carry
//! a `__` suffix (`x__v`, `u1__dot`, `Omega__d2`, `lambda__1`) so that they can never meet a user
//! name, and so that every process gives the same key to the same symbol (cas orders terms by
//! key, and the outputs' bytes depend on that order).
//!
//! The arena is shared by the model's scope (which meets `q'`, `Omega'(t)` and `lambda1` while
//! reading expressions) and the `System`, and only grows: a derivation that needs the
//! rate of a variable or the `a`-th multiplier asks the table, which adds the symbol once and
//! returns its handle. It is single-threaded, like every symbolic computation of dalembert.
//!
//! Handles are the currency: the `System` names its time, parameters, functions, coordinates,
//! inputs and action by handle, and code that builds an expression from a symbol asks the table
//! for it ([`Symbols::expr`]). The one way back from a key to a handle is [`Symbols::handle`],
//! for a symbol met while walking an expression (or a name read from the spec, which is its own
//! key). Every spelling of a symbol (spec syntax, LaTeX, identifier) is looked up from its
//! handle's kind, never parsed out of its key.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;

use cas::Expr;

/// A symbol of the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Handle(u32);

/// What a symbol is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A name of its own: one the spec declares, or one a derivation introduces by name.
    Named(String),
    /// The velocity `q'` of a coordinate (`algebroid tangent`).
    Velocity(Handle),
    /// The time derivative of a state variable.
    Rate(Handle),
    /// The derivative of the given order (at least 1) of a function of time.
    FunctionDerivative(Handle, u32),
    /// The multiplier of the given number (from 1).
    Multiplier(usize),
    /// A coordinate's value at the next step, `q_{k+1}` (discrete equations; the coordinate
    /// itself is `q_k`).
    Next(Handle),
    /// The step length `h` of discrete equations.
    Step,
    /// The discrete velocity `ξ_k` of a velocity over one step, at the half step `k + 1/2`: the
    /// group element from step `k` to `k + 1` is `cay(h ξ_k)` (discrete equations on a Lie
    /// algebra).
    Half(Handle),
}

/// The symbol table of a system (see the module documentation). Clones share one arena.
#[derive(Clone, Debug, Default)]
pub struct Symbols(Rc<RefCell<Arena>>);

#[derive(Debug, Default)]
struct Arena {
    /// Each symbol's key and kind, by handle.
    entries: Vec<(String, Kind)>,
    /// The handle of each key.
    by_key: BTreeMap<String, Handle>,
}

impl Symbols {
    /// The symbol of `kind`, added if it is new.
    fn intern(&self, kind: Kind) -> Handle {
        let key = self.key_of(&kind);
        let mut arena = self.0.borrow_mut();
        if let Some(h) = arena.by_key.get(&key) {
            return *h;
        }
        let h = Handle(u32::try_from(arena.entries.len()).expect("fewer than 2^32 symbols"));
        arena.entries.push((key.clone(), kind));
        arena.by_key.insert(key, h);
        h
    }

    /// The key of a symbol of `kind`: a name's own, or its base's key with a `__` suffix.
    fn key_of(&self, kind: &Kind) -> String {
        match kind {
            Kind::Named(name) => name.clone(),
            Kind::Velocity(q) => format!("{}__v", self.key(*q)),
            Kind::Rate(s) => format!("{}__dot", self.key(*s)),
            Kind::FunctionDerivative(f, order) => format!("{}__d{order}", self.key(*f)),
            Kind::Multiplier(a) => format!("lambda__{a}"),
            Kind::Next(q) => format!("{}__next", self.key(*q)),
            Kind::Step => "h__step".to_string(),
            Kind::Half(v) => format!("{}__half", self.key(*v)),
        }
    }

    /// The handle of the symbol whose key is `key`: for a symbol met while walking an expression,
    /// or a name read from the spec (a declared name is its own key). A key the table has not
    /// seen is a name of its own.
    pub fn handle(&self, key: &str) -> Handle {
        let known = self.0.borrow().by_key.get(key).copied();
        known.unwrap_or_else(|| {
            debug_assert!(
                !key.contains("__"),
                "the derived symbol {key} was not made by the table"
            );
            self.intern(Kind::Named(key.to_string()))
        })
    }

    /// The key (cas's name) of a symbol.
    pub fn key(&self, h: Handle) -> String {
        self.0.borrow().entries[h.0 as usize].0.clone()
    }

    /// The keys of `symbols`, in their order.
    pub fn keys(&self, symbols: &[Handle]) -> Vec<String> {
        symbols.iter().map(|h| self.key(*h)).collect()
    }

    /// The symbol as an expression.
    pub fn expr(&self, h: Handle) -> Expr {
        Expr::symbol(&self.key(h))
    }

    /// The symbols as expressions, in their order.
    pub fn exprs(&self, symbols: &[Handle]) -> Vec<Expr> {
        symbols.iter().map(|h| self.expr(*h)).collect()
    }

    /// What a symbol is.
    pub fn kind(&self, h: Handle) -> Kind {
        self.0.borrow().entries[h.0 as usize].1.clone()
    }

    /// The declared name a symbol is made from: its own name, the coordinate of a velocity, the
    /// variable of a rate, the function of a derivative (`x` for `x'` and `x''`, `Omega` for
    /// `Omega'(t)`), `lambda` for a multiplier.
    pub fn declared_name(&self, h: Handle) -> String {
        match self.kind(h) {
            Kind::Named(name) => name,
            Kind::Velocity(of) | Kind::Rate(of) | Kind::FunctionDerivative(of, _) => {
                self.declared_name(of)
            }
            Kind::Multiplier(_) => "lambda".to_string(),
            Kind::Next(q) | Kind::Half(q) => self.declared_name(q),
            Kind::Step => "h".to_string(),
        }
    }

    /// The velocity `q'` of coordinate `q`.
    pub fn velocity(&self, q: Handle) -> Handle {
        self.intern(Kind::Velocity(q))
    }

    /// The time derivative of the state variable `s`.
    pub fn rate(&self, s: Handle) -> Handle {
        self.intern(Kind::Rate(s))
    }

    /// The derivative of the given order of the function of time `f` (order 0 is `f`).
    pub fn function_derivative(&self, f: Handle, order: u32) -> Handle {
        if order == 0 {
            return f;
        }
        self.intern(Kind::FunctionDerivative(f, order))
    }

    /// The multiplier of number `a` (from 1).
    pub fn multiplier(&self, a: usize) -> Handle {
        self.intern(Kind::Multiplier(a))
    }

    /// The value `q_{k+1}` of coordinate `q` at the next step.
    pub fn next(&self, q: Handle) -> Handle {
        self.intern(Kind::Next(q))
    }

    /// The discrete velocity `ξ_k` of velocity `v` over a step.
    pub fn half(&self, v: Handle) -> Handle {
        self.intern(Kind::Half(v))
    }

    /// The step length `h`.
    pub fn step(&self) -> Handle {
        self.intern(Kind::Step)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symbols_are_made_once_and_know_what_they_are_of() {
        let table = Symbols::default();
        let x = table.handle("x");
        let v = table.velocity(x);
        assert_eq!(table.velocity(x), v);
        assert_eq!(table.kind(v), Kind::Velocity(x));
        let a = table.rate(v);
        assert_eq!(table.kind(a), Kind::Rate(v));
        let omega = table.handle("Omega");
        let omega2 = table.function_derivative(omega, 2);
        assert_eq!(table.kind(omega2), Kind::FunctionDerivative(omega, 2));
        assert_eq!(table.function_derivative(omega, 0), omega);
        assert_eq!(table.kind(table.multiplier(3)), Kind::Multiplier(3));
        let u1 = table.handle("u1");
        assert_eq!(table.kind(u1), Kind::Named("u1".into()));
        assert_eq!(table.handle(&table.key(a)), a);
        assert_eq!(table.expr(x), Expr::symbol("x"));
        assert_eq!(table.declared_name(a), "x");
        assert_eq!(table.declared_name(omega2), "Omega");
        // Clones share the arena.
        let shared = table.clone();
        let p1 = shared.handle("p1");
        let p = shared.rate(p1);
        assert_eq!(table.kind(p), Kind::Rate(p1));
        // Keys never meet a user name (user names have no `__`).
        assert!([v, a, omega2, p]
            .iter()
            .all(|h| table.key(*h).contains("__")));
    }
}
