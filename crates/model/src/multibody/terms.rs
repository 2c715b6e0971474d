//! The Lagrangian of a tree of joints as first formed, body by body: `½ m |v_c|²`,
//! `½ ωᵀ I ω` and `m g·c` (Featherstone, *Rigid Body Dynamics Algorithms* (2008), ch. 4, with
//! the velocities of [`super::kinematics`]).
//!
//! A body's terms are formed when something first reads them ([`FormedTerms`]), and kept. What
//! reads them decides how many bodies are formed:
//!
//! - a document, an `expect` block or the expanded route read the whole Lagrangian, so every
//!   body's terms;
//! - the route of a tree of joints reads how far the Lagrangian would expand
//!   ([`BodyTerms::expansion_bound`]), body by body until the terms too large to contract
//!   pass the budget: a 100-link chain is past it at its eighth link, and its other links'
//!   velocities (O(n⁴) tree nodes in all, each term carrying its angle sum) are never formed;
//! - the recursions' `L_0` reads only the potential terms ([`FormedTerms::velocity_free`]),
//!   which need positions and no velocity.

use std::sync::{Arc, OnceLock};

use cas::Expr;

use super::kinematics::{dot, mat_vec, Kinematics};
use super::Multibody;

/// The largest expansion ([`Expr::expansion_bound`]) of a body's `½ m |v_c|²` whose angle sums
/// are contracted when shown ([`FormedTerm::shown`]): the contraction multiplies the squares
/// out, which for the `k`-th link of a chain in relative angles is O(k⁴) terms (925 for the 7th,
/// 6,161 for the 11th); the bodies of the shipped examples are at most 678 (the 6-joint arm).
pub const CONTRACTED_TERMS: usize = 1_000;

/// A term of the Lagrangian as first formed (a body's term for a tree of joints; a written term
/// otherwise), and whether it is shown contracted.
#[derive(Clone, Debug)]
pub struct FormedTerm {
    /// The term as formed.
    pub formed: Expr,
    /// Whether its angle sums are contracted when it is shown ([`FormedTerm::shown`]).
    pub contracted: bool,
}

impl FormedTerm {
    /// A term shown as formed.
    pub fn as_formed(formed: Expr) -> FormedTerm {
        FormedTerm {
            formed,
            contracted: false,
        }
    }

    /// The term as documents show it and the Lagrangian sums it: a small `½ m |v_c|²` with its
    /// angle sums contracted (the contraction is for reading, so it is made only when a
    /// document, an `expect` block or the expanded route reads the Lagrangian).
    pub fn shown(&self) -> Expr {
        if self.contracted {
            self.formed.contract_trig()
        } else {
            self.formed.clone()
        }
    }
}

/// The Lagrangian's terms as first formed, in order: written ones, or a tree of joints' formed
/// body by body when first read. Clones share what has been formed.
#[derive(Clone, Debug)]
pub enum FormedTerms {
    /// The terms as written in the spec (none is contracted).
    Written(Vec<FormedTerm>),
    /// A tree of joints' per-body terms.
    Bodies(Arc<BodyTerms>),
}

/// A tree of joints' per-body terms, each body's formed when first read.
#[derive(Debug)]
pub struct BodyTerms {
    multibody: Multibody,
    kinematics: Kinematics,
    bodies: Vec<OnceLock<BodyTerm>>,
}

/// One body's terms: as formed, and as shown once read.
#[derive(Debug)]
struct BodyTerm {
    formed: Vec<FormedTerm>,
    shown: OnceLock<Vec<Expr>>,
}

/// How far a Lagrangian would expand ([`Expr::expansion_bound`] of its terms as shown), and
/// how many of a tree of joints' bodies were read to tell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExpansionBound {
    /// The sum of the expansion bounds of the terms read.
    pub terms: usize,
    /// The bodies whose terms were read: the first ones, in order (0 without bodies).
    pub bodies_read: usize,
    /// The bodies of the tree (0 without bodies).
    pub bodies: usize,
}

impl ExpansionBound {
    /// Whether every term was read: [`ExpansionBound::terms`] bounds the whole Lagrangian's
    /// expansion, not only its first bodies'.
    pub fn is_complete(&self) -> bool {
        self.bodies_read == self.bodies
    }
}

impl FormedTerms {
    /// The terms of `multibody`'s bodies, with the velocities of `kinematics`; none is formed
    /// yet.
    pub fn of_bodies(multibody: Multibody, kinematics: Kinematics) -> FormedTerms {
        let bodies = (0..multibody.bodies.len())
            .map(|_| OnceLock::new())
            .collect();
        FormedTerms::Bodies(Arc::new(BodyTerms {
            multibody,
            kinematics,
            bodies,
        }))
    }

    /// Every term as formed, in order (a tree of joints forms each body's now if no one has).
    pub fn all(&self) -> Vec<FormedTerm> {
        match self {
            FormedTerms::Written(terms) => terms.clone(),
            FormedTerms::Bodies(tree) => (0..tree.bodies.len())
                .flat_map(|b| tree.body(b).formed.iter().cloned())
                .collect(),
        }
    }

    /// Every term as shown ([`FormedTerm::shown`]), in order.
    pub fn shown(&self) -> Vec<Expr> {
        match self {
            FormedTerms::Written(terms) => terms.iter().map(FormedTerm::shown).collect(),
            FormedTerms::Bodies(tree) => (0..tree.bodies.len())
                .flat_map(|b| tree.shown(b).iter().cloned())
                .collect(),
        }
    }

    /// The terms that read none of `velocities`, in order: for a tree of joints, its potential
    /// terms `m g·c`, formed from positions alone (a body's `½ m |v_c|²` and `½ ωᵀ I ω` are
    /// quadratic forms in the velocities, which a term left in is not: it is not zero).
    pub fn velocity_free(&self, velocities: &[String]) -> Vec<Expr> {
        match self {
            FormedTerms::Written(terms) => terms
                .iter()
                .map(|t| &t.formed)
                .filter(|t| !t.depends_on_any(velocities))
                .cloned()
                .collect(),
            FormedTerms::Bodies(tree) => (0..tree.bodies.len())
                .map(|b| tree.potential(b))
                .filter(|t| !t.is_literal_zero() && !t.depends_on_any(velocities))
                .collect(),
        }
    }

    /// How many bodies' terms have been formed so far (0 for written terms).
    pub fn bodies_formed(&self) -> usize {
        match self {
            FormedTerms::Written(_) => 0,
            FormedTerms::Bodies(tree) => tree.bodies.iter().filter(|b| b.get().is_some()).count(),
        }
    }
}

impl BodyTerms {
    /// How far the terms as shown would expand. The bodies are read in order, each formed,
    /// until the bounds of the terms shown as formed (not contracted) alone pass `enough`: then
    /// no term is contracted to tell, and the bound is theirs plus the bounds of the contracted
    /// terms as formed, of the bodies read. When they never pass it, every body is read, and the
    /// bound is that of every term as shown (the small `½ m |v_c|²` contracted). Either way the
    /// bound passes `enough` exactly when that of every term as shown does, and a tree whose
    /// bodies are all read gives the same number as reading them all at once.
    pub fn expansion_bound(&self, enough: usize) -> ExpansionBound {
        let bodies = self.bodies.len();
        let (mut as_formed, mut contracted) = (0usize, 0usize);
        for read in 1..=bodies {
            for t in &self.body(read - 1).formed {
                let sum = if t.contracted {
                    &mut contracted
                } else {
                    &mut as_formed
                };
                *sum = sum.saturating_add(t.formed.expansion_bound());
            }
            if as_formed > enough {
                return ExpansionBound {
                    terms: as_formed.saturating_add(contracted),
                    bodies_read: read,
                    bodies,
                };
            }
        }
        ExpansionBound {
            terms: (0..bodies)
                .flat_map(|b| self.shown(b))
                .fold(0usize, |total, t| total.saturating_add(t.expansion_bound())),
            bodies_read: bodies,
            bodies,
        }
    }

    /// Body `b`'s terms, formed now if no one has.
    fn body(&self, b: usize) -> &BodyTerm {
        self.bodies[b].get_or_init(|| BodyTerm {
            formed: self.form(b),
            shown: OnceLock::new(),
        })
    }

    /// Body `b`'s terms as shown.
    fn shown(&self, b: usize) -> &[Expr] {
        let body = self.body(b);
        body.shown
            .get_or_init(|| body.formed.iter().map(FormedTerm::shown).collect())
    }

    /// Body `b`'s `½ m |v_c|²`, `½ ωᵀ I ω` and `m g·c` (each left out when it is zero), as
    /// formed; [`FormedTerm::shown`] contracts the angle sums of `|v_c|²`
    /// ([`Expr::contract_trig`]) when its expansion is at most [`CONTRACTED_TERMS`] terms.
    fn form(&self, b: usize) -> Vec<FormedTerm> {
        let (body, kin) = (&self.multibody.bodies[b], &self.kinematics);
        let half = Expr::rational(1, 2);
        // |v_c|² in the body's axes where rotations are quaternions (|R v| = |v| then holds
        // only after simplification), in world axes otherwise.
        let v = if kin.frames[b].spatial {
            kin.body_velocity(b, &body.center)
        } else {
            kin.velocity(b, &body.center)
        };
        let w = &kin.frames[b].omega;
        let squares = v
            .iter()
            .filter(|c| !c.is_literal_zero())
            .fold(Expr::zero(), |acc, c| acc + c.powi(2));
        let kinetic = half.clone() * body.mass.clone() * squares;
        // Contracted where the expansion it needs stays small; a long chain's outer links keep
        // their squares as they are (their Lagrangian then takes the recursions of
        // `mech::multibody::composite`, which do not read it).
        let contracted = kinetic.expansion_bound() <= CONTRACTED_TERMS;
        let rotational = half * dot(w, &mat_vec(&body.inertia, w));
        let mut terms = vec![
            FormedTerm {
                formed: kinetic,
                contracted,
            },
            FormedTerm::as_formed(rotational),
            FormedTerm::as_formed(self.potential(b)),
        ];
        terms.retain(|t| !t.formed.is_literal_zero());
        terms
    }

    /// Body `b`'s `m g·c`.
    fn potential(&self, b: usize) -> Expr {
        let body = &self.multibody.bodies[b];
        let centre = self.kinematics.position(b, &body.center);
        body.mass.clone() * dot(&self.multibody.gravity, &centre)
    }
}
