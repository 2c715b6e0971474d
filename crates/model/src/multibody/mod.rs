//! The multibody front end: bodies, joints and contacts, and how they lower to an algebroid, a
//! Lagrangian and constraints.
//!
//! # What a [`Multibody`] is
//!
//! A tree of rigid bodies hanging from the ground. Every body is the child of exactly one joint;
//! a joint's parent is the ground or a body that comes earlier in [`Multibody::joints`] (the
//! order is topological, parents first). A body has a frame: its origin is the joint point, its
//! axes are the joint frame's axes turned by the joint. The joint frame sits at `at` in the
//! parent's frame with the parent's axes, or with them turned once by a constant rotation
//! `R₀ = rotation(frame_axis, frame_angle)` ([`Joint::frame`]); the joint's axis, its plane and its
//! offsets are read in the joint frame, so the child's rotation relative to its parent is
//! `R₀ R_J` and its origin `at + R₀ d_J`. Mass, centre of mass (in the body frame) and inertia
//! tensor (about the centre, in body axes) are symbolic.
//!
//! | joint | coordinates | velocities | relative motion |
//! |---|---|---|---|
//! | revolute | angle `θ` | `θ'` (or a named velocity) | rotation by `θ` about `axis` |
//! | prismatic | offset `s` | `s'` | translation by `s·axis` |
//! | planar | `x, y, φ` | `x', y', φ'` | translation in the joint frame's xy-plane, rotation about its z |
//! | spherical | unit quaternion `q0..q3` | body angular velocity `ω ∈ so(3)` | rotation `R(q)` |
//! | free | position `p`, quaternion `q` | body velocity `(v, ω) ∈ se(3)` | `p` then `R(q)` |
//! | fixed | none | none | none: the child is welded to the joint frame |
//!
//! Spherical and free joints are velocities on a Lie algebroid, not on a tangent bundle: the
//! sections are the left-invariant fields of the joint's group, the anchor is
//! `q̇ = ½ q ⊗ (0, ω)` (and `ṗ = R(q) v`), and the brackets are so(3)'s `[e_a, e_b] = ε_abc e_c`
//! and se(3)'s `[ω_a, v_b] = ε_abc v_c`. There is no Euler-angle singularity: the quaternion is
//! never turned into angles. `R(q)` is the homogeneous form `v ↦ q v q̄`, so `R(q r) = R(q) R(r)`
//! for every quaternion and the anchor is a homomorphism exactly; the flow keeps `|q|` constant.
//!
//! # How it lowers
//!
//! [`kinematics`] computes, for each body, its rotation and origin in the world frame (rotations
//! about a common axis are composed by adding their angles, so a planar chain reads
//! `cos(θ1 + θ2)` as a person writes it), its angular velocity in its own frame (recursively,
//! `ω_b = (R₀ R_J)ᵀ ω_parent + ω_J`), and the world velocity of any of its points by
//! differentiating the point's position along the anchor. The Lagrangian is then, per body,
//! `½ m |v_c|² + ½ ω_bᵀ I ω_b + m g·c`, kept as separate terms (the LaTeX shows this structure).
//! Contacts give nonholonomic constraints on the velocity of the material contact point and,
//! where the joints do not keep it on the ground already, a holonomic one on its height
//! ([`Contact`], [`kinematics::ContactFrame`]).
//!
//! This is the kinematics of Featherstone, *Rigid Body Dynamics Algorithms* (2008), ch. 4, in
//! the conventions of `docs/conventions.md`.

pub mod kinematics;
pub mod terms;

use cas::Expr;
use diagnostic::Span;

use crate::symbols::Handle;

/// A vector in ℝ³.
pub type Vec3 = [Expr; 3];
/// A 3 × 3 matrix, by rows.
pub type Mat3 = [[Expr; 3]; 3];

/// Bodies, joints and contacts as read from the spec (see the module documentation).
#[derive(Clone, Debug)]
pub struct Multibody {
    /// The gravitational acceleration in the world frame (zero when not given).
    pub gravity: Vec3,
    /// The bodies, in the order of their joints (`bodies[k]` is the child of `joints[k]`).
    pub bodies: Vec<Body>,
    /// The joints, parents first.
    pub joints: Vec<Joint>,
    /// Contacts with the ground plane `z = 0`.
    pub contacts: Vec<Contact>,
}

/// A rigid body (a point mass when its inertia is zero).
#[derive(Clone, Debug)]
pub struct Body {
    /// Its name.
    pub name: String,
    /// Its mass.
    pub mass: Expr,
    /// Its centre of mass in its own frame.
    pub center: Vec3,
    /// Its inertia tensor about the centre of mass, in its own axes.
    pub inertia: Mat3,
    /// Where it is declared.
    pub span: Span,
}

/// What a joint lets its child do relative to its parent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JointKind {
    /// Rotation about a fixed axis.
    Revolute,
    /// Translation along a fixed axis.
    Prismatic,
    /// Translation in the xy-plane of the joint frame and rotation about its z axis.
    Planar,
    /// Any rotation about the joint point (so(3) velocities).
    Spherical,
    /// Any rigid motion (se(3) velocities in the child's frame).
    Free,
    /// No motion: the child is welded to its parent at the joint frame (a part given in its own
    /// axes, a sensor, a rider).
    Fixed,
}

impl JointKind {
    /// Reads a joint kind as written.
    pub fn from_name(name: &str) -> Option<JointKind> {
        Some(match name {
            "revolute" => JointKind::Revolute,
            "prismatic" => JointKind::Prismatic,
            "planar" => JointKind::Planar,
            "spherical" => JointKind::Spherical,
            "free" => JointKind::Free,
            "fixed" => JointKind::Fixed,
            _ => return None,
        })
    }

    /// Whether its velocities are the time derivatives of its coordinates.
    pub fn is_tangent(self) -> bool {
        matches!(
            self,
            JointKind::Revolute | JointKind::Prismatic | JointKind::Planar | JointKind::Fixed
        )
    }

    /// How many velocities (sections) it has.
    pub fn degrees_of_freedom(self) -> usize {
        match self {
            JointKind::Revolute | JointKind::Prismatic => 1,
            JointKind::Planar | JointKind::Spherical => 3,
            JointKind::Free => 6,
            JointKind::Fixed => 0,
        }
    }
}

/// A joint frame's constant turn from its parent's axes.
#[derive(Clone, Debug)]
pub enum Turn {
    /// `frame_axis`, `frame_angle`: by an angle about a unit axis in the parent's axes.
    About(Vec3, Expr),
    /// `frame_matrix`: the rotation matrix whose columns are the joint frame's axes in the
    /// parent's axes (checked orthogonal with determinant 1).
    Matrix(Mat3),
    /// `frame_quaternion = (w, x, y, z)`: the rotation of a non-zero quaternion, scalar first
    /// (normalised: `kinematics::quaternion_matrix`).
    Quaternion([Expr; 4]),
}

impl Turn {
    /// Its matrix (columns: the joint frame's axes in the parent's axes).
    pub fn matrix(&self) -> Mat3 {
        match self {
            Turn::About(axis, angle) => kinematics::about(axis, angle),
            Turn::Matrix(m) => m.clone(),
            Turn::Quaternion(q) => kinematics::quaternion_matrix(q),
        }
    }
}

/// A joint of the tree.
#[derive(Clone, Debug)]
pub struct Joint {
    /// Its name.
    pub name: String,
    /// Its kind.
    pub kind: JointKind,
    /// The parent body's index, `None` for the ground.
    pub parent: Option<usize>,
    /// The child body's index.
    pub child: usize,
    /// The joint point in the parent's frame (the world frame for the ground).
    pub at: Vec3,
    /// The constant turn of the joint frame from the parent's axes; `None` when the joint frame
    /// has the parent's axes.
    pub frame: Option<Turn>,
    /// The unit axis of a revolute or prismatic joint, in the joint frame's axes.
    pub axis: Vec3,
    /// Its coordinates: the angle or offset; `x, y, φ`; `q0..q3`; or `p1, p2, p3, q0..q3`.
    pub coordinates: Vec<Handle>,
    /// Its velocities, one per section.
    pub velocities: Vec<Handle>,
    /// The indices of its sections in the algebroid.
    pub sections: Vec<usize>,
    /// The generalised forces along its sections (`force`/`torque` lines), zero when not given.
    pub forces: Vec<Expr>,
    /// Where it is declared.
    pub span: Span,
}

/// A contact of a body with the ground plane `z = 0` (world frame).
#[derive(Clone, Debug)]
pub struct Contact {
    /// Its name.
    pub name: String,
    /// The body in contact.
    pub body: usize,
    /// Its kind.
    pub kind: ContactKind,
    /// Where it is declared.
    pub span: Span,
}

/// How a body touches the ground.
#[derive(Clone, Debug)]
pub enum ContactKind {
    /// A wheel (with `axis`, its symmetry axis in the body frame) or a ball (without) of
    /// `radius`, centred at the body's origin, rolling without slipping: the material point in
    /// contact has zero velocity. A wheel with a tyre is a torus: `radius` reaches the tyre's
    /// centre line and `tyre` is the tube's radius (zero for a thin disc).
    Rolling {
        /// The radius (of a torus, to the tyre's centre line).
        radius: Expr,
        /// The disc's axis in the body frame; `None` for a ball.
        axis: Option<Vec3>,
        /// The tyre's (tube's) radius, zero for a thin disc or a ball.
        tyre: Expr,
    },
    /// A blade at `at` (body frame) along `direction` (body frame): the contact point does not
    /// move across the blade in the ground plane.
    KnifeEdge {
        /// The contact point in the body frame.
        at: Vec3,
        /// The blade's direction in the body frame.
        direction: Vec3,
    },
}

/// The zero vector.
pub fn zero3() -> Vec3 {
    [Expr::zero(), Expr::zero(), Expr::zero()]
}
