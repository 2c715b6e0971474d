//! [`Deferred`]: an expression (or another value) computed the first time it is read.
//!
//! A tree of joints gives its Lagrangian as a sum of per-body terms whose normal form, at a
//! hundred links, costs more than the recursions that give `W` and the forcing without it. Most
//! requests never read that sum (the emitted code takes the recursions), so the system keeps
//! the recipe and computes the sum only when a document, an `expect` block or another route
//! reads it. The value is the same expression the eager computation gave, whoever reads it
//! first; clones share it, so it is computed at most once.

use std::fmt;
use std::ops::Deref;
use std::sync::{Arc, OnceLock};

use crate::Expr;

/// A value computed on first read (see the module documentation): an [`Expr`] unless said
/// otherwise (a tree of joints' list of Lagrangian terms is a `Deferred<Vec<Expr>>`). It reads as
/// the value through `Deref`.
pub struct Deferred<T = Expr> {
    value: Arc<OnceLock<T>>,
    recipe: Arc<dyn Fn() -> T + Send + Sync>,
}

impl<T> Clone for Deferred<T> {
    fn clone(&self) -> Deferred<T> {
        Deferred {
            value: Arc::clone(&self.value),
            recipe: Arc::clone(&self.recipe),
        }
    }
}

impl<T: Send + Sync + 'static> Deferred<T> {
    /// A value already computed.
    pub fn ready(value: T) -> Deferred<T> {
        let cell = OnceLock::new();
        let _ = cell.set(value);
        Deferred {
            value: Arc::new(cell),
            recipe: Arc::new(|| unreachable!("a ready value is never computed")),
        }
    }

    /// The value `recipe` computes, computed when first read.
    pub fn new(recipe: impl Fn() -> T + Send + Sync + 'static) -> Deferred<T> {
        Deferred {
            value: Arc::new(OnceLock::new()),
            recipe: Arc::new(recipe),
        }
    }

    /// Whether the value has been computed.
    pub fn is_ready(&self) -> bool {
        self.value.get().is_some()
    }

    /// The value, computed now if no one has read it yet.
    pub fn get(&self) -> &T {
        self.value.get_or_init(|| (self.recipe)())
    }
}

impl<T: Send + Sync + 'static> Deref for Deferred<T> {
    type Target = T;

    fn deref(&self) -> &T {
        self.get()
    }
}

impl From<Expr> for Deferred {
    fn from(value: Expr) -> Deferred {
        Deferred::ready(value)
    }
}

impl<T: fmt::Debug + Send + Sync + 'static> fmt::Debug for Deferred<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.get(), f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn computed_once_on_first_read_and_shared_by_clones() {
        static CALLS: AtomicUsize = AtomicUsize::new(0);
        let deferred = Deferred::new(|| {
            CALLS.fetch_add(1, Ordering::SeqCst);
            Expr::symbol("x") + Expr::symbol("y")
        });
        let copy = deferred.clone();
        assert!(!deferred.is_ready());
        assert_eq!(CALLS.load(Ordering::SeqCst), 0);
        assert_eq!(*copy, Expr::symbol("y") + Expr::symbol("x"));
        assert!(deferred.is_ready());
        assert_eq!(*deferred, *copy);
        assert_eq!(CALLS.load(Ordering::SeqCst), 1);
    }

    #[test]
    fn a_deferred_value_is_the_eager_value() {
        let terms = [
            Expr::symbol("a") * Expr::symbol("b"),
            Expr::int(3),
            Expr::symbol("a") * Expr::symbol("b"),
        ];
        let eager = Expr::sum(terms.iter().cloned());
        let deferred = Deferred::new(move || Expr::sum(terms.iter().cloned()));
        assert_eq!(*deferred, eager);
        assert_eq!(*Deferred::ready(eager.clone()), eager);
    }
}
