//! The size budget of a derivation (`--max-terms`).
//!
//! Symbolic derivations can swell: the closed-form inverse of a dense symbolic W has entries whose
//! size grows factorially with the dimension. Rather than let such a run end in an out-of-memory
//! kill, every stage of a derivation measures the expressions it produced ([`cas::Expr::size`],
//! the number of nodes of the tree) and stops with the diagnostic E0501 at the first stage whose
//! largest expression exceeds the budget, naming the stage and the object. A swell *inside* one
//! stage is caught by the run's memory and time watchdogs (`--max-memory`, `--timeout`), which
//! live in the command line because they must never touch Symbolica. The eliminations whose swell
//! is the usual cause (`W⁻¹`, the vakonomic `R ÿ = F − ṗ` and `R y = p − c`) are guarded entry by
//! entry ([`Options::allows`]), so they stop with E0501 before their stage ends.

use cas::Expr;
use diagnostic::Code;
use diagnostic::{Diagnostic, Span};

use crate::base::route::Solve;

/// The default largest expression (tree nodes) a derivation may build.
pub const DEFAULT_MAX_TERMS: usize = 2_000_000;

/// How a system is derived: the route and the size budget.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// The route (`--solve`).
    pub solve: Solve,
    /// The largest expression any stage may produce (`--max-terms`).
    pub max_terms: usize,
    /// Which equations are the system's (`--method`).
    pub method: crate::base::route::Method,
    /// When to give up (E0503), checked at every stage measured against the size budget. The
    /// command line's `--timeout` is a watchdog that ends the process; this is the in-process
    /// budget of the fuzzing runs, which derive many specs in one process.
    pub deadline: Option<std::time::Instant>,
    /// The reading of the work meter ([`cas::work::spent`]) past which the closed form of
    /// [`crate::Solve::Auto`] gives up (E0513, which sends the system to the implicit form), checked
    /// where the deadline is; `None` outside that attempt.
    pub effort_limit: Option<u64>,
    /// The largest multiplier and constrained acceleration (tree nodes) the closed form of
    /// [`crate::Solve::Auto`] keeps ([`crate::base::route::CLOSED_FORM_TERMS`]): a larger one
    /// ends the attempt as soon as it is normalised (E0513), as the finished closed form's size
    /// test would; `None` outside that attempt.
    pub closed_form_terms: Option<usize>,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            solve: Solve::Auto,
            max_terms: DEFAULT_MAX_TERMS,
            method: crate::base::route::Method::Multipliers,
            deadline: None,
            effort_limit: None,
            closed_form_terms: None,
        }
    }
}

impl Options {
    /// Ok when every expression of `objects` (named `(object, expressions)`) is within the budget;
    /// otherwise E0501 at `span`, naming the stage and the largest object. E0503 when the deadline
    /// has passed.
    pub fn within<'a>(
        &self,
        stage: &str,
        span: Span,
        objects: impl IntoIterator<Item = (String, &'a Expr)>,
    ) -> diagnostic::Result<()> {
        self.within_or(
            stage,
            span,
            objects,
            "raise --max-terms, or use --solve numeric (the implicit form inverts nothing)",
        )
    }

    /// [`Options::within`] for a route without an implicit form: `help` says what to do instead.
    pub fn within_or<'a>(
        &self,
        stage: &str,
        span: Span,
        objects: impl IntoIterator<Item = (String, &'a Expr)>,
        help: &str,
    ) -> diagnostic::Result<()> {
        if self.out_of_time() {
            return Err(vec![out_of_time(stage, span)]);
        }
        if self.effort_spent() {
            return Err(vec![effort_spent(stage, span)]);
        }
        let mut largest: Option<(String, usize)> = None;
        for (name, e) in objects {
            let size = e.size();
            if size > self.max_terms && largest.as_ref().is_none_or(|(_, s)| size > *s) {
                largest = Some((name, size));
            }
        }
        match largest {
            None => Ok(()),
            Some((name, size)) => Err(vec![self.swelled(stage, span, &name, size, help)]),
        }
    }

    /// E0501: `name`, built while computing `stage`, has `size` nodes.
    fn swelled(&self, stage: &str, span: Span, name: &str, size: usize, help: &str) -> Diagnostic {
        Diagnostic::error(
            Code::E0501,
            format!("the derivation swelled past its size budget while computing {stage}"),
            span,
            format!(
                "{name} has {size} nodes, above --max-terms {}",
                self.max_terms
            ),
        )
        .with_help(help.to_string())
    }

    /// Whether the deadline has passed.
    fn out_of_time(&self) -> bool {
        self.deadline
            .is_some_and(|deadline| std::time::Instant::now() > deadline)
    }

    /// Whether the closed-form attempt's work budget is spent.
    fn effort_spent(&self) -> bool {
        self.effort_limit
            .is_some_and(|limit| cas::work::spent() > limit)
    }

    /// Whether `e` is within the size budget, the work budget is not spent and the deadline has
    /// not passed: the guard of an elimination inside one stage ([`cas::solve_guarded`]), which
    /// must be stopped between two of its entries rather than after the stage.
    pub fn allows(&self, e: &Expr) -> bool {
        e.size() <= self.max_terms && !self.effort_spent() && !self.out_of_time()
    }

    /// The diagnostic of an elimination inside `stage` that [`Options::allows`] stopped at
    /// `entry` (an entry of `object`): E0503 when the deadline has passed, E0501 otherwise.
    pub fn refused(
        &self,
        stage: &str,
        span: Span,
        object: &str,
        entry: &Expr,
        help: &str,
    ) -> Vec<Diagnostic> {
        if self.out_of_time() {
            return vec![out_of_time(stage, span)];
        }
        if self.effort_spent() {
            return vec![effort_spent(stage, span)];
        }
        let name = format!("an entry of {object}");
        vec![self.swelled(stage, span, &name, entry.size(), help)]
    }
}

/// E0513: the closed-form attempt of [`crate::Solve::Auto`] spent its work budget during `stage`
/// (never shown: the attempt falls back to the implicit form, and says why).
fn effort_spent(stage: &str, span: Span) -> Diagnostic {
    Diagnostic::error(
        Code::E0513,
        format!(
            "the closed form spent more than {} units of symbolic work by the end of {stage}",
            crate::base::route::CLOSED_FORM_EFFORT
        ),
        span,
        format!("still computing {stage}"),
    )
}

/// E0513: an entry of `object` (the multipliers, the equations) is above the closed-form
/// attempt's [`crate::base::route::CLOSED_FORM_TERMS`] nodes (never shown, as
/// [`effort_spent`]; the message is the route's reason).
pub(crate) fn closed_form_oversized(object: &str, span: Span) -> Diagnostic {
    Diagnostic::error(
        Code::E0513,
        crate::base::route::oversized(object),
        span,
        format!("an entry of {object}"),
    )
}

/// E0503: the deadline passed during `stage`.
pub(crate) fn out_of_time(stage: &str, span: Span) -> Diagnostic {
    Diagnostic::error(
        Code::E0503,
        format!("the time budget was spent while computing {stage}"),
        span,
        format!("still computing {stage}"),
    )
    .with_help("the fuzzing runs give each spec a time budget; `dalembert derive` has --timeout")
}

/// `(name, entry)` for every entry of a matrix, named `W[a][b]`-style after `symbol`.
pub fn matrix_entries<'a>(
    symbol: &'a str,
    m: &'a [Vec<Expr>],
) -> impl Iterator<Item = (String, &'a Expr)> + 'a {
    m.iter().enumerate().flat_map(move |(a, row)| {
        row.iter()
            .enumerate()
            .map(move |(b, e)| (format!("{symbol}[{}][{}]", a + 1, b + 1), e))
    })
}

/// `(name, entry)` for every entry of a vector.
pub fn vector_entries<'a>(
    symbol: &'a str,
    v: &'a [Expr],
) -> impl Iterator<Item = (String, &'a Expr)> + 'a {
    v.iter()
        .enumerate()
        .map(move |(a, e)| (format!("{symbol}[{}]", a + 1), e))
}
