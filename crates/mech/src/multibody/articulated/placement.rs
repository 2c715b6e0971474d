//! Where a link's frame sits in its parent's ([`Placement`]) and the transform `(E, r)` it
//! gives at the link's coordinate, with the joint frame's constant turn `R₀` of
//! `frame_axis`/`frame_angle` (Featherstone, *Rigid Body Dynamics Algorithms*, §4.2: the joint
//! transform composed with the tree's fixed placement transform).

use cas::Expr;
use model::multibody::kinematics::{
    about, identity, mat_mul, mat_vec, quaternion_matrix, transpose,
};
use model::multibody::{Mat3, Vec3};

use super::{Link, Transform};

/// How a link's frame sits in its parent's.
pub(super) enum Placement {
    /// Rotated by the angle about the axis, at `at`.
    Revolute { at: Vec3, angle: Expr },
    /// At `at` moved by the offset along the axis.
    Prismatic { at: Vec3, offset: Expr },
    /// Rotated by the quaternion `R(q)/|q|²`, at `at` (a spherical joint).
    Rotated { at: Vec3, quaternion: [Expr; 4] },
    /// At `at + p` rotated by the quaternion (a free joint).
    Moved {
        at: Vec3,
        position: Vec3,
        quaternion: [Expr; 4],
    },
    /// The same frame (the later links of a spherical or free joint).
    Same,
}

/// `E` (parent to child coordinates) and `r` (child origin in the parent's coordinates) of a
/// link at its coordinate: [`joint_transform`] in the joint frame, placed by the joint frame's
/// turn `R₀` when it has one, `E = E_J R₀ᵀ` and `r = at + R₀ (r_J − at)`: a turned joint is the
/// joint written with its axes turned into the parent's.
pub(super) fn transform(link: &Link) -> Transform {
    let (e, r) = joint_transform(link);
    match (&link.turn, link.placement.at()) {
        (Some(turn), Some(at)) => {
            let turned: Mat3 = mat_mul(&e, &transpose(turn));
            let moved: Vec3 = std::array::from_fn(|i| r[i].clone() - at[i].clone());
            let placed = mat_vec(turn, &moved);
            (
                turned,
                std::array::from_fn(|i| at[i].clone() + placed[i].clone()),
            )
        }
        _ => (e, r),
    }
}

impl Placement {
    /// The joint point, in the parent's frame (`None` for a later link of a joint).
    fn at(&self) -> Option<&Vec3> {
        match self {
            Placement::Revolute { at, .. }
            | Placement::Prismatic { at, .. }
            | Placement::Rotated { at, .. }
            | Placement::Moved { at, .. } => Some(at),
            Placement::Same => None,
        }
    }
}

/// [`transform`] in the joint frame's own axes.
fn joint_transform(link: &Link) -> Transform {
    match &link.placement {
        // Rodrigues' rotation by θ about the axis, transposed (parent to child).
        Placement::Revolute { at, angle } => (transpose(&about(&link.axis, angle)), at.clone()),
        Placement::Prismatic { at, offset } => (
            identity(),
            std::array::from_fn(|i| at[i].clone() + link.axis[i].clone() * offset.clone()),
        ),
        Placement::Rotated { at, quaternion } => {
            (transpose(&quaternion_matrix(quaternion)), at.clone())
        }
        Placement::Moved {
            at,
            position,
            quaternion,
        } => (
            transpose(&quaternion_matrix(quaternion)),
            std::array::from_fn(|i| at[i].clone() + position[i].clone()),
        ),
        Placement::Same => (identity(), std::array::from_fn(|_| Expr::zero())),
    }
}
