//! Kinematics of a joint tree (Featherstone, *Rigid Body Dynamics Algorithms*, ch. 4): each
//! body's rotation and origin in the world frame, its angular velocity in its own frame, and the
//! world velocity of its points. Velocities are linear in the algebroid's velocities `y^α`
//! through the anchor: `ẋ^i = ρ^i_α y^α` (no joint depends on time).

use std::collections::BTreeMap;
use std::sync::OnceLock;

use cas::{Expr, Func, View};

use crate::symbols::Symbols;

use super::{zero3, ContactKind, Joint, JointKind, Mat3, Multibody, Turn, Vec3};

/// A rotation kept as a product of factors, so that consecutive rotations about one axis are
/// composed by adding their angles (`R_z(θ1) R_z(θ2) = R_z(θ1 + θ2)`).
#[derive(Clone, Debug, Default)]
pub struct Rotation {
    factors: Vec<Factor>,
}

#[derive(Clone, Debug)]
enum Factor {
    /// A rotation by `angle` about the unit `axis`.
    About(Vec3, Expr),
    /// The rotation of a quaternion ([`quaternion_matrix`]).
    Quaternion([Expr; 4]),
    /// A constant rotation matrix (a joint frame's `frame_matrix`).
    Matrix(Mat3),
}

impl Rotation {
    /// The rotation followed (on the right, in the rotated frame) by `factor`.
    fn then(&self, factor: Option<Factor>) -> Rotation {
        let mut factors = self.factors.clone();
        match (factors.last_mut(), factor) {
            (_, None) => {}
            (Some(Factor::About(axis, angle)), Some(Factor::About(next, more)))
                if same(axis, &next) =>
            {
                *angle = angle.clone() + more;
            }
            (_, Some(f)) => factors.push(f),
        }
        Rotation { factors }
    }

    /// Its matrix.
    pub fn matrix(&self) -> Mat3 {
        self.factors
            .iter()
            .fold(identity(), |acc, f| mat_mul(&acc, &f.matrix()))
    }
}

impl Factor {
    fn matrix(&self) -> Mat3 {
        match self {
            Factor::About(axis, angle) => about(axis, angle),
            Factor::Quaternion(q) => quaternion_matrix(q),
            Factor::Matrix(m) => m.clone(),
        }
    }
}

fn same(a: &Vec3, b: &Vec3) -> bool {
    a.iter()
        .zip(b)
        .all(|(x, y)| (x.clone() - y.clone()).is_zero())
}

/// The identity matrix.
pub fn identity() -> Mat3 {
    std::array::from_fn(|i| {
        std::array::from_fn(|j| if i == j { Expr::one() } else { Expr::zero() })
    })
}

/// `aᵀ`.
pub fn transpose(a: &Mat3) -> Mat3 {
    std::array::from_fn(|i| std::array::from_fn(|j| a[j][i].clone()))
}

/// `Σ a_k b_k` over the pairs whose factors are both non-zero: a product with a literal zero
/// adds nothing, so leaving it out gives the same normalised sum without the arithmetic (the
/// rotations and offsets of a planar chain are mostly zeros). The products are added in one
/// normalisation ([`Expr::sum`]; none for a single product).
pub fn sum_of_products<'a>(pairs: impl IntoIterator<Item = (&'a Expr, &'a Expr)>) -> Expr {
    Expr::sum(
        pairs
            .into_iter()
            .filter(|(a, b)| !a.is_literal_zero() && !b.is_literal_zero())
            .map(|(a, b)| a.clone() * b.clone()),
    )
}

/// `a b`.
pub fn mat_mul(a: &Mat3, b: &Mat3) -> Mat3 {
    std::array::from_fn(|i| {
        std::array::from_fn(|j| sum_of_products((0..3).map(|k| (&a[i][k], &b[k][j]))))
    })
}

/// `a v`.
pub fn mat_vec(a: &Mat3, v: &Vec3) -> Vec3 {
    std::array::from_fn(|i| sum_of_products(a[i].iter().zip(v)))
}

/// `aᵀ v`.
pub fn mat_t_vec(a: &Mat3, v: &Vec3) -> Vec3 {
    std::array::from_fn(|i| sum_of_products((0..3).map(|k| (&a[k][i], &v[k]))))
}

/// `a × b`.
pub fn cross(a: &Vec3, b: &Vec3) -> Vec3 {
    let c = |i: usize, j: usize| {
        let ab = sum_of_products([(&a[i], &b[j])]);
        let ba = sum_of_products([(&a[j], &b[i])]);
        match (ab.is_literal_zero(), ba.is_literal_zero()) {
            (_, true) => ab,
            (true, false) => -ba,
            (false, false) => ab - ba,
        }
    };
    [c(1, 2), c(2, 0), c(0, 1)]
}

/// `a · b`.
pub fn dot(a: &Vec3, b: &Vec3) -> Expr {
    sum_of_products(a.iter().zip(b))
}

/// `a + b`.
pub fn add(a: &Vec3, b: &Vec3) -> Vec3 {
    std::array::from_fn(|i| a[i].clone() + b[i].clone())
}

/// `s a`.
pub fn scale(s: &Expr, a: &Vec3) -> Vec3 {
    std::array::from_fn(|i| s.clone() * a[i].clone())
}

/// `[a]×`, the matrix of `v ↦ a × v`.
pub fn skew(a: &Vec3) -> Mat3 {
    [
        [Expr::zero(), -a[2].clone(), a[1].clone()],
        [a[2].clone(), Expr::zero(), -a[0].clone()],
        [-a[1].clone(), a[0].clone(), Expr::zero()],
    ]
}

/// Rodrigues' formula `cos θ I + sin θ [a]× + (1 − cos θ) a aᵀ` for a unit axis `a`, each entry
/// expanded so that a coordinate axis gives the familiar matrix.
pub fn about(a: &Vec3, angle: &Expr) -> Mat3 {
    let (c, s) = (
        Expr::apply(Func::Cos, angle.clone()),
        Expr::apply(Func::Sin, angle.clone()),
    );
    let skew = skew(a);
    // `1 − cos θ` formed once for the nine entries, and each entry's three terms added in one
    // normalisation.
    let versine = Expr::one() - c.clone();
    std::array::from_fn(|i| {
        std::array::from_fn(|j| {
            let diagonal = if i == j { c.clone() } else { Expr::zero() };
            Expr::sum([
                diagonal,
                s.clone() * skew[i][j].clone(),
                versine.clone() * a[i].clone() * a[j].clone(),
            ])
            .expand()
        })
    })
}

/// The rotation `v ↦ q v q̄ / |q|²` of a non-zero quaternion `q = (q0, q1, q2, q3)`: orthogonal
/// for every `q ≠ 0` as a matrix of rational functions, and a function of `q/|q|` only, so the
/// Lagrangian does not see a drift of `|q|` and `R(q)ᵀR(q)` simplifies to the identity.
pub fn quaternion_matrix(q: &[Expr; 4]) -> Mat3 {
    let norm = q.iter().fold(Expr::zero(), |acc, c| acc + c.powi(2));
    quaternion_homogeneous(q).map(|row| row.map(|e| e / norm.clone()))
}

/// The homogeneous form `v ↦ q v q̄` (degree two; `R(q r) = R(q) R(r)` for all quaternions).
fn quaternion_homogeneous(q: &[Expr; 4]) -> Mat3 {
    let p = |i: usize, j: usize| q[i].clone() * q[j].clone();
    let two = Expr::int(2);
    [
        [
            p(0, 0) + p(1, 1) - p(2, 2) - p(3, 3),
            two.clone() * (p(1, 2) - p(0, 3)),
            two.clone() * (p(1, 3) + p(0, 2)),
        ],
        [
            two.clone() * (p(1, 2) + p(0, 3)),
            p(0, 0) - p(1, 1) + p(2, 2) - p(3, 3),
            two.clone() * (p(2, 3) - p(0, 1)),
        ],
        [
            two.clone() * (p(1, 3) - p(0, 2)),
            two * (p(2, 3) + p(0, 1)),
            p(0, 0) - p(1, 1) - p(2, 2) + p(3, 3),
        ],
    ]
}

/// `q̇ = ½ q ⊗ (0, ω)`: the rate of each quaternion component, for body angular velocity `ω`.
pub fn quaternion_rate(q: &[Expr; 4], w: &Vec3) -> [Expr; 4] {
    let half = Expr::rational(1, 2);
    let v: Vec3 = [q[1].clone(), q[2].clone(), q[3].clone()];
    let vxw = cross(&v, w);
    [
        -half.clone() * dot(&v, w),
        half.clone() * (q[0].clone() * w[0].clone() + vxw[0].clone()),
        half.clone() * (q[0].clone() * w[1].clone() + vxw[1].clone()),
        half * (q[0].clone() * w[2].clone() + vxw[2].clone()),
    ]
}

fn array<const N: usize>(exprs: &[Expr]) -> [Expr; N] {
    std::array::from_fn(|i| exprs[i].clone())
}

/// A joint's relative motion: the child's rotation relative to the joint frame, the child
/// origin `at + d_J` with the joint's own offset `d_J` in the joint frame's axes (the parent's
/// when the frame is not turned), the relative angular velocity in the child's frame, and the
/// rate of each coordinate.
struct Motion {
    rotation: Option<Factor>,
    offset: Vec3,
    omega: Vec3,
    /// The velocity of the child origin relative to the parent, in the child's axes.
    shift: Vec3,
    rates: Vec<(String, Expr)>,
}

fn motion(joint: &Joint, symbols: &Symbols) -> Motion {
    let keys = symbols.keys(&joint.coordinates);
    let q = symbols.exprs(&joint.coordinates);
    let y = symbols.exprs(&joint.velocities);
    let tangent_rates = || {
        keys.iter()
            .cloned()
            .zip(y.iter().cloned())
            .collect::<Vec<_>>()
    };
    match joint.kind {
        JointKind::Revolute => Motion {
            rotation: Some(Factor::About(joint.axis.clone(), q[0].clone())),
            offset: joint.at.clone(),
            omega: scale(&y[0], &joint.axis),
            shift: zero3(),
            rates: tangent_rates(),
        },
        JointKind::Prismatic => Motion {
            rotation: None,
            offset: add(&joint.at, &scale(&q[0], &joint.axis)),
            omega: zero3(),
            shift: scale(&y[0], &joint.axis),
            rates: tangent_rates(),
        },
        JointKind::Planar => {
            let z = [Expr::zero(), Expr::zero(), Expr::one()];
            let position = [q[0].clone(), q[1].clone(), Expr::zero()];
            let rotation = about(&z, &q[2]);
            let rate = [y[0].clone(), y[1].clone(), Expr::zero()];
            Motion {
                rotation: Some(Factor::About(z, q[2].clone())),
                offset: add(&joint.at, &position),
                omega: [Expr::zero(), Expr::zero(), y[2].clone()],
                shift: mat_t_vec(&rotation, &rate),
                rates: tangent_rates(),
            }
        }
        JointKind::Fixed => Motion {
            rotation: None,
            offset: joint.at.clone(),
            omega: zero3(),
            shift: zero3(),
            rates: Vec::new(),
        },
        JointKind::Spherical => {
            let quat: [Expr; 4] = array(&q);
            let w = [y[0].clone(), y[1].clone(), y[2].clone()];
            let rate = quaternion_rate(&quat, &w);
            Motion {
                rotation: Some(Factor::Quaternion(quat)),
                offset: joint.at.clone(),
                omega: w,
                shift: zero3(),
                rates: keys.into_iter().zip(rate).collect(),
            }
        }
        JointKind::Free => {
            let p: Vec3 = array(&q[..3]);
            let quat: [Expr; 4] = array(&q[3..]);
            let v = [y[0].clone(), y[1].clone(), y[2].clone()];
            let w = [y[3].clone(), y[4].clone(), y[5].clone()];
            let r = quaternion_matrix(&quat);
            let rates = keys[..3]
                .iter()
                .cloned()
                .zip(mat_vec(&r, &v))
                .chain(keys[3..].iter().cloned().zip(quaternion_rate(&quat, &w)))
                .collect();
            Motion {
                rotation: Some(Factor::Quaternion(quat)),
                offset: add(&joint.at, &p),
                omega: w,
                shift: v,
                rates,
            }
        }
    }
}

/// A body's frame: rotation and origin in the world frame, angular velocity in its own frame.
#[derive(Clone, Debug)]
pub struct BodyFrame {
    /// Its rotation (body axes in world axes).
    pub rotation: Rotation,
    /// Its rotation matrix.
    pub matrix: Mat3,
    /// Its origin in the world frame.
    pub origin: Vec3,
    /// Its angular velocity in its own axes.
    pub omega: Vec3,
    /// The velocity of its origin in its own axes, kept where a spherical or free joint lies
    /// between it and the ground (elsewhere velocities are the rates of world positions, and
    /// carrying this one down a chain doubles its size at every joint).
    pub velocity: Option<Vec3>,
    /// Whether a spherical or free joint lies between it and the ground.
    pub spatial: bool,
}

/// The kinematics of a whole tree.
#[derive(Clone, Debug)]
pub struct Kinematics {
    /// One frame per body.
    pub frames: Vec<BodyFrame>,
    /// `ẋ^i` of every joint coordinate by key, linear in the velocities (the anchor applied to
    /// `y`).
    pub rates: BTreeMap<String, Expr>,
    /// The rates of the bodies' origins, each formed when first read.
    origin_rates: OriginRates,
}

/// The rate of each body's origin (world axes), built joint by joint: each joint adds the rate
/// of its own offset to its parent's, so a chain's velocities cost O(n²) operations instead of
/// differentiating every position along every coordinate. Each is formed when first read (with
/// those of its ancestors): the recursions of a long chain read none, and its Lagrangian's
/// route reads only the first bodies' (`multibody::terms`), while the rates of all bodies of a
/// 100-link chain hold O(n⁴) tree nodes (every term carries its angle sum).
#[derive(Clone, Debug, Default)]
struct OriginRates {
    /// Per body: its parent and its own offset (world axes) from the parent's origin.
    links: Vec<(Option<usize>, Vec3)>,
    /// Per body, its origin's rate once formed.
    formed: Vec<OnceLock<Vec3>>,
}

impl OriginRates {
    /// Adds the next body, `offset` from the origin of `parent` (world axes).
    fn push(&mut self, parent: Option<usize>, offset: Vec3) {
        self.links.push((parent, offset));
        self.formed.push(OnceLock::new());
    }

    /// The rate of body `b`'s origin when the coordinates move at `rates`: its parent's plus
    /// the rate of its offset, the ancestors' formed first (top down, no recursion).
    fn get(&self, b: usize, rates: &BTreeMap<String, Expr>) -> &Vec3 {
        let mut missing = Vec::new();
        let mut at = Some(b);
        while let Some(k) = at.filter(|&k| self.formed[k].get().is_none()) {
            missing.push(k);
            at = self.links[k].0;
        }
        for &k in missing.iter().rev() {
            let (parent, offset) = &self.links[k];
            let parent_rate = parent.map_or_else(zero3, |p| self.formed[p].get().unwrap().clone());
            let offset_rate: Vec3 = std::array::from_fn(|i| rate_along(rates, &offset[i]));
            let rate = add(&parent_rate, &offset_rate);
            let _ = self.formed[k].set(rate);
        }
        self.formed[b].get().expect("formed above")
    }
}

/// `d/dt` of `f` when the coordinates move at `rates`.
fn rate_along(rates: &BTreeMap<String, Expr>, f: &Expr) -> Expr {
    let symbols = f.symbols();
    symbols
        .iter()
        .filter_map(|q| rates.get(q).map(|rate| (q, rate)))
        .fold(Expr::zero(), |acc, (q, rate)| {
            acc + f.diff(q) * rate.clone()
        })
}

impl Kinematics {
    /// The kinematics of `mb`, whose symbols are in `symbols`.
    pub fn of(mb: &Multibody, symbols: &Symbols) -> Kinematics {
        let mut frames: Vec<BodyFrame> = Vec::with_capacity(mb.bodies.len());
        let mut rates = BTreeMap::new();
        let mut origin_rates = OriginRates::default();
        for joint in &mb.joints {
            let motion = motion(joint, symbols);
            let parent = match joint.parent {
                Some(p) => frames[p].clone(),
                None => BodyFrame {
                    rotation: Rotation::default(),
                    matrix: identity(),
                    origin: zero3(),
                    omega: zero3(),
                    velocity: Some(zero3()),
                    spatial: false,
                },
            };
            let turn = joint.frame.as_ref().map(|t| match t {
                Turn::About(axis, angle) => Factor::About(axis.clone(), angle.clone()),
                Turn::Matrix(m) => Factor::Matrix(m.clone()),
                Turn::Quaternion(q) => Factor::Quaternion(q.clone()),
            });
            let own = motion
                .rotation
                .as_ref()
                .map(Factor::matrix)
                .unwrap_or_else(identity);
            // The joint's own offset is read in the joint frame: `at + R₀ (d − at)`.
            let (relative, joint_offset) = match turn.as_ref().map(Factor::matrix) {
                Some(r0) => {
                    let moved: Vec3 =
                        std::array::from_fn(|i| motion.offset[i].clone() - joint.at[i].clone());
                    (mat_mul(&r0, &own), add(&joint.at, &mat_vec(&r0, &moved)))
                }
                None => (own, motion.offset.clone()),
            };
            let offset = mat_vec(&parent.matrix, &joint_offset);
            let origin = add(&parent.origin, &offset);
            let omega = add(&mat_t_vec(&relative, &parent.omega), &motion.omega);
            let spatial = parent.spatial || !joint.kind.is_tangent();
            let velocity = spatial.then(|| {
                // v_child = (R₀ R_J)ᵀ (v_parent + ω_parent × d) + (the joint's own translation
                // rate), with d the child origin in the parent's axes.
                let parent_velocity = parent.velocity.clone().unwrap_or_else(|| {
                    let p = joint.parent.expect("the ground's velocity is kept");
                    mat_t_vec(&parent.matrix, origin_rates.get(p, &rates))
                });
                let carried = add(&parent_velocity, &cross(&parent.omega, &joint_offset));
                add(&mat_t_vec(&relative, &carried), &motion.shift)
            });
            let rotation = parent.rotation.then(turn).then(motion.rotation);
            rates.extend(motion.rates);
            origin_rates.push(joint.parent, offset);
            let matrix = rotation.matrix();
            frames.push(BodyFrame {
                rotation,
                matrix,
                origin,
                omega,
                velocity,
                spatial,
            });
        }
        Kinematics {
            frames,
            rates,
            origin_rates,
        }
    }

    /// The rate of body `b`'s origin (world axes), formed when first read.
    pub fn origin_rate(&self, b: usize) -> &Vec3 {
        self.origin_rates.get(b, &self.rates)
    }

    /// `d/dt` of an expression in the coordinates, along the anchor.
    pub fn rate(&self, f: &Expr) -> Expr {
        rate_along(&self.rates, f)
    }

    /// The world position of the point `p` (body axes) of body `b`.
    pub fn position(&self, b: usize, p: &Vec3) -> Vec3 {
        let frame = &self.frames[b];
        add(&frame.origin, &mat_vec(&frame.matrix, p))
    }

    /// The world velocity of the body-fixed point `p` of body `b`: the time derivative of its
    /// position when only revolute, prismatic and planar joints lie above the body (so a planar
    /// chain reads `−l sin(θ1 + θ2)(θ1' + θ2')`), else `R_b (v_b + ω_b × p)`.
    pub fn velocity(&self, b: usize, p: &Vec3) -> Vec3 {
        let frame = &self.frames[b];
        if frame.spatial {
            return mat_vec(&frame.matrix, &self.body_velocity(b, p));
        }
        let moved = mat_vec(&frame.matrix, p);
        let origin_rate = self.origin_rate(b);
        std::array::from_fn(|i| origin_rate[i].clone() + self.rate(&moved[i]))
    }

    /// The velocity of the body-fixed point `p` of body `b`, in the body's axes.
    pub fn body_velocity(&self, b: usize, p: &Vec3) -> Vec3 {
        let frame = &self.frames[b];
        let origin = frame
            .velocity
            .clone()
            .unwrap_or_else(|| mat_t_vec(&frame.matrix, self.origin_rate(b)));
        add(&origin, &cross(&frame.omega, p))
    }

    /// Body `b`'s angular velocity in world axes.
    pub fn world_omega(&self, b: usize) -> Vec3 {
        let frame = &self.frames[b];
        mat_vec(&frame.matrix, &frame.omega)
    }

    /// The nonholonomic constraints of a contact, each `Ψ = 0` linear in the velocities: the
    /// velocity of the material point in contact ([`Kinematics::contact_frame`]), along the
    /// ground's x and y axes for a ball, and for a wheel along its heading `ℓ × ẑ` (the traction
    /// row) and its axis `ℓ` (the lateral row), where `ℓ` is the wheel's axis projected on the
    /// ground, divided by its length where that length is a sine or cosine
    /// ([`ContactFrame::tilt`]) so that the rows are the contact point's velocity components.
    pub fn contact_constraints(&self, kind: &ContactKind, b: usize) -> Vec<Expr> {
        match kind {
            ContactKind::Rolling { .. } => {
                let frame = self.contact_frame(kind, b);
                let v = add(
                    &self.velocity(b, &zero3()),
                    &cross(&self.world_omega(b), &frame.offset),
                );
                let rows = match &frame.axis {
                    Some(a) => {
                        let lateral = [a[0].clone(), a[1].clone(), Expr::zero()];
                        let heading = [a[1].clone(), -a[0].clone(), Expr::zero()];
                        let rows = [dot(&v, &heading), dot(&v, &lateral)];
                        match frame.tilt.as_ref().filter(|_| frame.tilt_is_trig) {
                            Some(t) => rows
                                .map(|r| (r / t.clone()).expand_trig().simplify())
                                .to_vec(),
                            None => rows.to_vec(),
                        }
                    }
                    None => v[..2].to_vec(),
                };
                rows.into_iter().map(|r| r.contract_trig()).collect()
            }
            ContactKind::KnifeEdge { at, direction } => {
                let frame = &self.frames[b];
                let d = mat_vec(&frame.matrix, direction);
                let across = [-d[1].clone(), d[0].clone(), Expr::zero()];
                vec![dot(&self.velocity(b, at), &across).contract_trig()]
            }
        }
    }

    /// Where a rolling contact touches the ground, relative to the body's origin, in world axes
    /// ([`ContactFrame`]).
    pub fn contact_frame(&self, kind: &ContactKind, b: usize) -> ContactFrame {
        let ContactKind::Rolling { radius, axis, tyre } = kind else {
            return ContactFrame::flat(zero3());
        };
        let z = [Expr::zero(), Expr::zero(), Expr::one()];
        let down_tyre = scale(&-tyre.clone(), &z);
        let Some(axis) = axis else {
            let offset = scale(&-(radius.clone() + tyre.clone()), &z);
            return ContactFrame::flat(offset);
        };
        let a = mat_vec(&self.frames[b].matrix, axis);
        let k = a[2].clone();
        if k.is_zero() {
            let offset = add(&scale(&-radius.clone(), &z), &down_tyre);
            return ContactFrame {
                axis: Some(a),
                ..ContactFrame::flat(offset)
            };
        }
        let (tilt, tilt_is_trig) = match tilt_of(&k) {
            Some(t) => (t, true),
            None => ((Expr::one() - k.powi(2)).pow(&Expr::rational(1, 2)), false),
        };
        // n = ẑ − k a points from the centre towards the rim's highest point; |n| = tilt.
        let n = add(&z, &scale(&-k, &a));
        let offset = add(&scale(&(-radius.clone() / tilt.clone()), &n), &down_tyre);
        ContactFrame {
            axis: Some(a),
            tilt: Some(tilt),
            tilt_is_trig,
            offset,
        }
    }

    /// The height above the ground of a rolling contact's lowest point (`None` for a knife
    /// edge, whose point is given): zero when the joints keep the wheel on the ground, otherwise
    /// the holonomic condition that does.
    pub fn contact_height(&self, kind: &ContactKind, b: usize) -> Option<Expr> {
        let ContactKind::Rolling { .. } = kind else {
            return None;
        };
        let frame = self.contact_frame(kind, b);
        Some(self.frames[b].origin[2].clone() + frame.offset[2].clone())
    }
}

/// A rolling contact's geometry at the current configuration (world axes).
///
/// For a wheel of radius `r` (to the tyre's centre line) and tyre radius `ρ` with unit axis `a`
/// in world axes, the lowest point is `c − r n/|n| − ρ ẑ` with `n = ẑ − (a·ẑ) a`, the upward
/// direction in the wheel's plane. `|n| = √(1 − (a·ẑ)²)`, the tilt, is never multiplied out
/// under a square root: when `a·ẑ` is `±sin u` it is `cos u` (the wheel upright at `u = 0`,
/// `|u| < π/2`), when `a·ẑ` is `±cos u` it is `sin u` (`0 < u < π`), and only otherwise the
/// square root. A ball (no axis) touches at `c − (r + ρ) ẑ`.
#[derive(Clone, Debug)]
pub struct ContactFrame {
    /// The wheel's axis in world axes; `None` for a ball.
    pub axis: Option<Vec3>,
    /// `|n|`, when the axis is not horizontal (`None`: it is, and `|n| = 1`).
    pub tilt: Option<Expr>,
    /// Whether [`ContactFrame::tilt`] is a sine or cosine rather than a square root.
    pub tilt_is_trig: bool,
    /// The contact point minus the body origin.
    pub offset: Vec3,
}

impl ContactFrame {
    fn flat(offset: Vec3) -> ContactFrame {
        ContactFrame {
            axis: None,
            tilt: None,
            tilt_is_trig: true,
            offset,
        }
    }
}

/// `√(1 − k²)` without a square root when the axis height `k` is `±sin u` (then `cos u`) or
/// `±cos u` (then `sin u`).
fn tilt_of(k: &Expr) -> Option<Expr> {
    [k.clone(), -k.clone()]
        .iter()
        .find_map(|e| match e.simplify().view() {
            View::Call(name, args) if args.len() == 1 => match name.as_str() {
                "sin" => Some(Expr::apply(Func::Cos, args[0].clone())),
                "cos" => Some(Expr::apply(Func::Sin, args[0].clone())),
                _ => None,
            },
            _ => None,
        })
}
