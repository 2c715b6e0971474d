//! Where a body's frame is in the frame of the link that carries it ([`Mount`]): its own link's
//! frame, or, for a body on a `fixed` joint, its parent's mount composed with the joint frame;
//! and a link's spatial inertia with the bodies welded to it (Featherstone, *Rigid Body Dynamics
//! Algorithms*, §2.13: inertias of rigidly connected bodies add once expressed in one frame).

use cas::Expr;
use model::multibody::kinematics::{identity, mat_mul, mat_vec, transpose};
use model::multibody::{Mat3, Turn, Vec3};

use super::{inertia_to_parent, spatial_inertia, Link, Spatial6, Transform};

/// Where a body's frame is: in the frame of link `link` (`None`: the ground), turned by
/// `rotation` (`None`: not turned) and at `origin`. A body a link carries has its link's frame;
/// a body on a `fixed` joint has its parent's mount composed with the joint frame.
#[derive(Clone)]
pub(super) struct Mount {
    pub(super) link: Option<usize>,
    pub(super) rotation: Option<Mat3>,
    pub(super) origin: Vec3,
}

impl Mount {
    pub(super) fn ground() -> Mount {
        Mount {
            link: None,
            rotation: None,
            origin: std::array::from_fn(|_| Expr::zero()),
        }
    }

    /// A joint frame at `at`, turned by `frame`, in this body's frame, as a point and a turn in
    /// the link's frame: `origin + R at` and `R R₀`.
    pub(super) fn place(&self, at: &Vec3, frame: Option<&Turn>) -> (Vec3, Option<Mat3>) {
        let own = frame.map(Turn::matrix);
        match &self.rotation {
            None => (
                std::array::from_fn(|i| self.origin[i].clone() + at[i].clone()),
                own,
            ),
            Some(r) => {
                let moved = mat_vec(r, at);
                let point = std::array::from_fn(|i| self.origin[i].clone() + moved[i].clone());
                let turn = match own {
                    Some(o) => mat_mul(r, &o),
                    None => r.clone(),
                };
                (point, Some(turn))
            }
        }
    }

    /// `(E, r)` from the link's frame to this body's.
    pub(super) fn transform(&self) -> Transform {
        let e = self.rotation.as_ref().map_or_else(identity, transpose);
        (e, self.origin.clone())
    }
}

/// A link's spatial inertia with the bodies welded to it.
pub(crate) fn link_inertia(l: &Link) -> Spatial6 {
    l.welded
        .iter()
        .fold(spatial_inertia(&l.body), |acc, (x, body)| {
            let welded = inertia_to_parent(x, &spatial_inertia(&Some(body.clone())));
            std::array::from_fn(|i| {
                std::array::from_fn(|j| acc[i][j].clone() + welded[i][j].clone())
            })
        })
}
