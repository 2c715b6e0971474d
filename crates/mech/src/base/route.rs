//! Which form a system's accelerations are derived in, and why (`--solve`).
//!
//! The closed form ([IMMS07] §IV: `W⁻¹`, `𝒞⁻¹`, the multipliers and the accelerations as
//! expressions) is what a researcher wants and what every other route of dalembert is built on;
//! the implicit form (`W ẏ + μᵀλ = b`, `μ ẏ = β`, `lagrange::implicit`) is what a large system
//! needs, because a symbolic inverse of a dense `k × k` matrix can grow like `k!`. Under
//! [`Solve::Auto`] (the default) the closed form is *attempted within a budget* and the implicit
//! form is the fallback:
//!
//! 1. the eliminations of `W` and then of `𝒞 = μ W⁻¹ μᵀ` are tried entry by entry
//!    ([`cas::inverse_guarded`]) while every entry (of `W⁻¹`, `𝒞` and `𝒞⁻¹`) stays under
//!    [`CLOSED_FORM_TERMS`] tree nodes, all the entries built together under
//!    [`CLOSED_FORM_WORK`], the products they are formed from under [`CLOSED_FORM_EXPANSION`]
//!    terms multiplied out (measured before each is normalised, which is where the time goes),
//!    and the whole attempt under [`CLOSED_FORM_EFFORT`] units of symbolic work
//!    ([`cas::work`]);
//! 2. the closed form is then derived within the same work budget, and its equations and
//!    multipliers must stay under [`CLOSED_FORM_TERMS`] nodes each (each is measured as soon as
//!    it is normalised, and the first that does not fit ends the attempt).
//!
//! The first step that does not fit sends the system to the implicit form; the [`Choice`] says
//! which step and by how much, and the outputs and the command line repeat it. Every budget here
//! counts expressions, never seconds, so the same spec takes the same route, for the same
//! reason, on every machine and under any load. A run's time limit (the fuzzing runs'
//! `Options::deadline`, the budget of a run) never chooses a route: it ends the run with E0503.

use std::time::Instant;

use cas::Expr;

/// How the accelerations are obtained.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Solve {
    /// The closed form when it fits the budget of this module, else the implicit form.
    #[default]
    Auto,
    /// Always the closed form (`W⁻¹`, `𝒞⁻¹` symbolically): every object of [IMMS07].
    Symbolic,
    /// Always the implicit form, solved numerically by the emitted code.
    Numeric,
}

/// The largest expression (tree nodes) of `W⁻¹`, of an equation or of a multiplier that
/// [`Solve::Auto`] accepts in the closed form, on the Lagrangian side and on the constraint
/// surface of the Hamiltonian side. Measured on the shipped examples: the largest entry of a
/// closed form that fits has 6,327 nodes (an acceleration of the two-link pendulum on a cart,
/// `golden/implicit/pendulum_cart_2`), the next 3,140 (the snakeboard's Hamiltonian side); the
/// four-bar linkage's first multiplier has 18,414, and its first acceleration, normalised next,
/// 90,366. At 20,000 the four-bar's attempt went on to that acceleration, 0.15 s of its 0.19 s
/// run; at this bound it ends at the multiplier, and the run takes 42 ms.
pub const CLOSED_FORM_TERMS: usize = 10_000;

/// The nodes that the attempted elimination of `W` may build in all (every entry of every step
/// counted): a dense `k × k` elimination does `O(k³)` entry updates, and this stops a large one
/// in its first steps, long before any single entry reaches [`CLOSED_FORM_TERMS`].
pub const CLOSED_FORM_WORK: usize = 400_000;

/// The terms that the attempted eliminations may *form* in all, counted before normalisation as
/// [`Expr::expansion_bound`] of each entry's product (the numerator multiplied out): it refuses a
/// dense elimination of trigonometric entries (an `n`-link chain's `W`) in its first steps, before
/// the normalisations that would refuse it by size have cost seconds. An elimination shows each
/// step's products to the budget before it normalises any of them, and forms no product of two
/// zeros, so a step that does not fit costs no normalisation. Measured on the shipped examples:
/// the closed forms form at most 445 such terms in all (the rolling disc; the two-link chain of
/// the benchmark, 491), and every elimination that does not fit passes 1,000 before its end (the
/// gyrostat, the spherical and five-link pendulums, the arm, the balancing robot, the snake).
/// The earlier a refusal, the fewer normalisations it costs: the flat five-link chain's attempt
/// costs 14 ms at 1,000 terms against 75 ms at 2,000 (its implicit form takes 8 ms, its emitted
/// functions 33 ms), the four-link chain of joints' 1 ms against 48 ms, and 5,000 terms cost
/// 0.3 s.
pub const CLOSED_FORM_EXPANSION: usize = 1_000;

/// The terms a tree of joints' Lagrangian may expand to ([`Expr::expansion_bound`]) before its
/// implicit form is taken from the joints' structure (`multibody::composite`: the
/// composite-rigid-body and Newton–Euler recursions) instead of from the expansion. The
/// expansion of a chain in relative angles grows like `n⁵` (a 20-link chain's took 90 s, and the
/// bound, counted on the Lagrangian as lowered, with its angle sums contracted, is 78,000 terms
/// there and 3,600 for ten links); the shipped examples are at most 800 (the 6-joint arm).
pub const STRUCTURED_EXPANSION: usize = 2_000;

/// The symbolic work ([`cas::work::spent`]: the nodes of every expansion, rational combination,
/// cancellation and factorisation) that [`Solve::Auto`] gives the closed form, its eliminations
/// and the rest of its derivation together, before it falls back to the implicit form. It stands
/// where a time limit would, but it is the same on every machine. Measured: the shipped closed
/// forms spend at most 4.1 million (the discrete rolling disc, most of it in its Hamiltonian
/// side; the snakeboard 0.98 million; most spend under 40,000). The rolling torus spent it in its
/// Hamiltonian side, until an equation there above [`CLOSED_FORM_TERMS`] ended the attempt; the
/// four-bar linkage of `golden/implicit/four_bar`, whose eliminations are small but whose
/// multipliers and equations are not, ends as soon as its first multiplier, above
/// [`CLOSED_FORM_TERMS`], is normalised.
pub const CLOSED_FORM_EFFORT: u64 = 5_000_000;

/// The form a derivation's accelerations are in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Route {
    /// Closed-form accelerations and multipliers.
    Closed,
    /// The implicit form, solved numerically by the emitted code.
    Implicit,
}

impl Route {
    /// `closed` or `implicit`, as the outputs name it.
    pub fn name(self) -> &'static str {
        match self {
            Route::Closed => "closed",
            Route::Implicit => "implicit",
        }
    }
}

/// The route taken and the reason, for the user.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Choice {
    /// The form of the accelerations.
    pub route: Route,
    /// Why, in one sentence.
    pub reason: String,
}

impl Choice {
    /// The closed form, as `--solve symbolic` asked.
    pub fn closed_requested() -> Choice {
        Choice {
            route: Route::Closed,
            reason: "the closed form was requested (--solve symbolic)".into(),
        }
    }

    /// The implicit form, as `--solve numeric` asked.
    pub fn implicit_requested() -> Choice {
        Choice {
            route: Route::Implicit,
            reason: "the implicit form was requested (--solve numeric)".into(),
        }
    }

    /// The closed form, which fitted the budget of [`Solve::Auto`].
    pub fn closed_fits() -> Choice {
        Choice {
            route: Route::Closed,
            reason: format!(
                "the closed form fits the default budget ({CLOSED_FORM_TERMS} nodes per expression, {CLOSED_FORM_WORK} in all for W⁻¹, {CLOSED_FORM_EFFORT} units of symbolic work)"
            ),
        }
    }

    /// The implicit form from the joints' structure, because the Lagrangian would expand past
    /// [`STRUCTURED_EXPANSION`] terms: to up to `bound.terms`, or, when only its first bodies
    /// were read to tell, their terms alone.
    pub fn structured(bound: &model::multibody::terms::ExpansionBound) -> Choice {
        let terms = bound.terms;
        let how_far = if bound.is_complete() {
            format!("would expand to up to {terms} terms (above {STRUCTURED_EXPANSION})")
        } else {
            format!(
                "would expand to more than {STRUCTURED_EXPANSION} terms (the terms of its first {} of {} bodies alone to up to {terms})",
                bound.bodies_read, bound.bodies
            )
        };
        Choice {
            route: Route::Implicit,
            reason: format!(
                "the Lagrangian of this tree of joints {how_far}, so W and the forcing come from the composite-rigid-body and Newton-Euler recursions; --solve symbolic forces the closed form"
            ),
        }
    }

    /// The implicit form, because the closed form did not fit: `why` says where.
    pub fn fallback(why: &str) -> Choice {
        Choice {
            route: Route::Implicit,
            reason: format!(
                "the closed form does not fit the default budget ({why}); --solve symbolic forces it"
            ),
        }
    }

    /// The note printed on the command line.
    pub fn note(&self) -> String {
        format!("{} form: {}", self.route.name(), self.reason)
    }
}

impl cas::Guard for Attempt {
    fn admits(&mut self, raw: &Expr) -> bool {
        Attempt::admits(self, raw)
    }

    fn allows(&mut self, entry: &Expr) -> bool {
        Attempt::allows(self, entry)
    }
}

/// The budget of one closed-form attempt under [`Solve::Auto`].
#[derive(Clone, Copy, Debug)]
pub struct Attempt {
    /// The reading of the work meter ([`cas::work::spent`]) past which the attempt gives up.
    pub effort_limit: u64,
    /// The run's own time limit, if any: passing it ends the run (E0503), it never chooses a
    /// route.
    pub deadline: Option<Instant>,
    /// The nodes built so far by the elimination it guards.
    pub work: usize,
    /// The terms formed so far, before normalisation ([`CLOSED_FORM_EXPANSION`]).
    pub expansion: cas::ExpansionBudget,
}

impl Attempt {
    /// An attempt starting now, with [`CLOSED_FORM_EFFORT`] units of work, inside a run that
    /// ends at `deadline`.
    pub fn start(deadline: Option<Instant>) -> Attempt {
        Attempt {
            effort_limit: cas::work::spent().saturating_add(CLOSED_FORM_EFFORT),
            deadline,
            work: 0,
            expansion: cas::ExpansionBudget::new(CLOSED_FORM_EXPANSION),
        }
    }

    /// Whether `e`, the next entry an elimination built, may enter the closed form: small
    /// enough, within the total work and effort, and before the run's deadline.
    pub fn allows(&mut self, e: &Expr) -> bool {
        let size = e.size();
        self.work += size;
        size <= CLOSED_FORM_TERMS
            && self.work <= CLOSED_FORM_WORK
            && !self.effort_spent()
            && !self.out_of_time()
    }

    /// Whether the attempt has spent its [`CLOSED_FORM_EFFORT`].
    pub fn effort_spent(&self) -> bool {
        cas::work::spent() > self.effort_limit
    }

    /// Whether the run's deadline has passed (E0503, never a route).
    pub fn out_of_time(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() > d)
    }

    /// Whether `raw`, an entry an elimination has formed and not yet normalised, keeps the terms
    /// formed in all within [`CLOSED_FORM_EXPANSION`].
    pub fn admits(&mut self, raw: &Expr) -> bool {
        cas::Guard::admits(&mut self.expansion, raw)
    }

    /// Why `e` was refused by [`Attempt::allows`] or [`Attempt::admits`] as an entry of `object`.
    pub fn refusal(&self, object: &str, e: &Expr) -> String {
        if self.effort_spent() {
            format!(
                "computing {object} spent more than {CLOSED_FORM_EFFORT} units of symbolic work"
            )
        } else if self.expansion.exceeded() {
            format!(
                "computing {object} formed products of more than {CLOSED_FORM_EXPANSION} terms in all"
            )
        } else if e.size() <= CLOSED_FORM_TERMS {
            format!("computing {object} built more than {CLOSED_FORM_WORK} nodes in all")
        } else {
            format!(
                "an entry of {object} has {} nodes, above {CLOSED_FORM_TERMS}",
                e.size()
            )
        }
    }
}

/// The first entry of `objects` (named `(object, entries)`) above [`CLOSED_FORM_TERMS`], as a
/// reason: the size test of a finished closed form.
pub fn first_oversized<'a>(
    objects: impl IntoIterator<Item = (&'a str, &'a [Expr])>,
) -> Option<String> {
    objects.into_iter().find_map(|(object, entries)| {
        entries
            .iter()
            .map(Expr::size)
            .any(|size| size > CLOSED_FORM_TERMS)
            .then(|| oversized(object))
    })
}

/// The reason of a closed form refused for an entry of `object` above [`CLOSED_FORM_TERMS`]
/// nodes. The reason does not give the entry's size: the size of a large normal form can differ
/// between processes by a few nodes in a hundred thousand (the four-bar's first acceleration has
/// 90,366 or 90,410), and the outputs that carry the reason must be the same in every run.
pub fn oversized(object: &str) -> String {
    format!("an entry of {object} has more than {CLOSED_FORM_TERMS} nodes")
}

/// Whether a solve option asks for one route outright.
pub fn forced(solve: Solve) -> Option<Choice> {
    match solve {
        Solve::Auto => None,
        Solve::Symbolic => Some(Choice::closed_requested()),
        Solve::Numeric => Some(Choice::implicit_requested()),
    }
}

/// Which equations a derivation presents as the system's (`--method`): every route is derived
/// and proved equal to the others either way; this chooses the state and equations the outputs
/// lead with and the emitted code integrates.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Method {
    /// Lagrange–d'Alembert with multipliers ([IMMS07] §IV), on the state `(x, y)` of the
    /// algebroid.
    #[default]
    Multipliers,
    /// The unconstrained Euler–Lagrange equations of the restricted Lagrangian on the induced
    /// algebroid `(D, ε_P)` ([GLMM09] Theorem 5.1, the `projected` module), on the state `(x, v)`
    /// of `D`: no multipliers, no constraints to preserve.
    Induced,
}
