//! Featherstone's articulated-body algorithm (R. Featherstone, *Rigid Body Dynamics Algorithms*,
//! Springer 2008, §7.3, Table 7.1) for a tree of joints, as a straight-line program for the
//! concrete tree: O(n) operations where the flat route's explicit right-hand side costs O(n³).
//!
//! The recursion is written with spatial vectors (angular part first) in each body's frame,
//! with the parameters kept symbolic. Every intermediate value that is not a number or a single
//! symbol is bound to a fresh symbol (a *binding*), so that each expression stays the size of
//! one step of the recursion; exact zeros and constants fold as the expressions are built, so
//! the structural zeros of each joint's motion subspace and of each body's inertia cost nothing.
//! The bindings and the accelerations are what emitted code computes (`forward_dynamics`).
//!
//! The only divisions are by `D_q = Sᵀ I^A S`, the articulated-body inertia of the tree below
//! joint `q` along its axis, which is positive for a tree of positive masses and inertias; the
//! emitted code's division guards name them `D_q_`.
//!
//! Gravity enters as an acceleration `−g` of the ground; the joint forces are the system's
//! generalised forces `F_α` (joint `force` lines and `forces { … }`).
//!
//! # Joints of several degrees of freedom
//!
//! Every [`Link`] is one degree of freedom with a constant axis in its own frame. A joint of
//! several is a group of links through massless bodies:
//!
//! - planar: prismatic along x, prismatic along y, revolute about z, each moving its own frame;
//! - spherical (`ω` in the child's axes, `R(q)/|q|²` from its quaternion): three revolute links
//!   about the child's x, y and z, the first one placed by the whole rotation and the others in
//!   the same frame;
//! - free (`(v, ω)` in the child's axes): three prismatic and three revolute links, likewise.
//!
//! For the last two the split is exact only with one correction. Featherstone's multi-degree
//! joint has `v = X v_λ + S ẏ` and velocity product `c = v ×ₘ S ẏ = (X v_λ) ×ₘ S ẏ` (§7.3 with
//! `S` constant in the body's axes); a chain of links in one frame would instead add
//! `S_1 ẏ_1 ×ₘ S_2 ẏ_2`-type terms (the gimbal's own rates, not a body angular velocity). So each
//! link of such a group takes its product with the velocity the group starts from, `X v_λ`.
//! The massless links pass forces through unchanged, so the group's equations are the joint's:
//! `τ = Sᵀ f` and `a = X a_λ + c + S ẏ`. Its articulated inertias `D` are those of the
//! rotational (and translational) block, positive for a body with a positive inertia.
//!
//! # Constraints: the Schur complement
//!
//! With `r` constraints (rolling contacts, loop closures, any `constraints { … }`), the motion
//! is `W ẏ + μᵀλ = b`, `μ ẏ = β` (the implicit form of `crate::lagrange::implicit`). The
//! algorithm gives `a₀ = W⁻¹ b` as above. Its articulated inertias do not depend on the forces,
//! so `W⁻¹ τ` for any other generalised force `τ` costs one more force pass and one more
//! acceleration pass, O(n) each, from a tree at rest without gravity. One such pass per
//! constraint gives `Z = W⁻¹ μᵀ`; then `S = μ Z` (r × r), `S λ = μ a₀ − β` by an unrolled LDLᵀ
//! (pivots `S_k_`, the other denominators of the guards) and `ẏ = a₀ − Z λ`: O(n·r + r³) in all
//! (as in Featherstone's Ch. 8, closed loops: the constraint forces through `μ W⁻¹ μᵀ`).

mod mount;
mod placement;

use cas::Expr;
use model::multibody::kinematics::{cross, mat_t_vec, mat_vec, skew, sum_of_products};
use model::multibody::{JointKind, Mat3, Multibody, Vec3};
use model::System;

pub(crate) use mount::link_inertia;
use mount::Mount;
use placement::{transform, Placement};

/// A straight-line program: named intermediate values, then its results.
#[derive(Clone, Debug)]
pub struct Articulated {
    /// `(symbol, value)` in order: each value uses the time, state, parameters, inputs and the
    /// symbols bound before it.
    pub bindings: Vec<(String, Expr)>,
    /// One value per velocity, in the algebroid's order: `ẏ^α` ([`forward_dynamics`]) or the
    /// generalised force ([`inverse_dynamics`]).
    pub accelerations: Vec<Expr>,
    /// The multipliers `λ_a` of the constraints, in the order written (empty without
    /// constraints and for [`inverse_dynamics`]).
    pub multipliers: Vec<Expr>,
}

/// A spatial motion or force vector `[angular; linear]`.
pub(crate) type Spatial = [Expr; 6];
/// A spatial matrix, by rows.
pub(crate) type Spatial6 = [[Expr; 6]; 6];
/// `(E, r)`: parent-to-child rotation and the child's origin in the parent's coordinates.
pub(crate) type Transform = (Mat3, Vec3);

/// The bindings made so far.
pub(crate) struct Tape {
    /// The prefix of the bound symbols' names (`aba` gives `aba0_`, `aba1_`, …).
    prefix: &'static str,
    pub(crate) bindings: Vec<(String, Expr)>,
}

impl Tape {
    /// An empty tape whose symbols are named `{prefix}{k}_`.
    pub(crate) fn new(prefix: &'static str) -> Tape {
        Tape {
            prefix,
            bindings: Vec::new(),
        }
    }

    /// `e` itself when it is a number or a symbol, else a fresh symbol bound to it.
    pub(crate) fn bind(&mut self, e: Expr) -> Expr {
        if e.is_number_or_symbol() {
            return e;
        }
        // Names ending in `_` are not users' (`model::names`).
        let name = format!("{}{}_", self.prefix, self.bindings.len());
        self.bindings.push((name.clone(), e));
        Expr::symbol(&name)
    }

    /// A symbol named `name` bound to `e`: a value the documentation of the emitted code names
    /// (the denominators).
    fn bind_as(&mut self, name: String, e: Expr) -> Expr {
        self.bindings.push((name.clone(), e));
        Expr::symbol(&name)
    }

    /// [`transform`] of `link`, every entry bound.
    pub(crate) fn transform(&mut self, link: &Link) -> Transform {
        let (e, r) = transform(link);
        (
            e.map(|row| row.map(|x| self.bind(x))),
            r.map(|x| self.bind(x)),
        )
    }

    pub(crate) fn spatial(&mut self, v: Spatial) -> Spatial {
        v.map(|e| self.bind(e))
    }

    /// A symmetric spatial matrix, its upper triangle bound and mirrored.
    pub(crate) fn symmetric(&mut self, m: Spatial6) -> Spatial6 {
        let mut out: Spatial6 = std::array::from_fn(|_| std::array::from_fn(|_| Expr::zero()));
        for i in 0..6 {
            for j in i..6 {
                let e = self.bind(m[i][j].clone());
                out[i][j] = e.clone();
                out[j][i] = e;
            }
        }
        out
    }
}

/// One degree of freedom of the tree: a revolute or prismatic joint between two bodies. A
/// joint of several degrees of freedom is a group of links through massless bodies: a planar
/// joint two prismatic links and a revolute one (each moving its own frame), a spherical joint
/// three revolute links and a free joint three prismatic and three revolute ones about the axes
/// of the child's own frame (the first link of the group moves the frame, the others not), as
/// described in the module documentation.
pub(crate) struct Link {
    pub(crate) parent: Option<usize>,
    /// Where its frame is in its parent's.
    placement: Placement,
    /// The joint frame's constant turn `R₀` from the parent's axes (`frame_axis`,
    /// `frame_angle`), on the first link of a joint whose frame is turned.
    turn: Option<Mat3>,
    /// Its axis, in its own frame.
    axis: Vec3,
    revolute: bool,
    /// What names its articulated inertia `D_{label}_`: its coordinate, or for a link of a
    /// spherical or free joint its velocity.
    label: String,
    velocity: Expr,
    /// The index of its velocity in the algebroid.
    pub(crate) section: usize,
    force: Expr,
    /// Mass, centre and inertia about the centre (zero for the massless links of a joint with
    /// several degrees of freedom).
    pub(crate) body: Option<(Expr, Vec3, Mat3)>,
    /// The bodies welded to it by `fixed` joints, each with its transform from this link's
    /// frame (see [`link_inertia`]).
    welded: Vec<(Transform, (Expr, Vec3, Mat3))>,
    /// For a link of a spherical or free joint, the first link of its group: its velocity
    /// product `c` is taken with the velocity the group starts from (see the module
    /// documentation), not with its own.
    group: Option<usize>,
}

/// The links of a tree of joints, parents first; `None` when the system has no bodies.
pub(crate) fn links(mb: &Multibody, system: &System) -> Option<Vec<Link>> {
    let mut links: Vec<Link> = Vec::new();
    // Where each body's frame is: on the link that carries it, or welded to one (or to the
    // ground) by `fixed` joints.
    let mut mounts = vec![Mount::ground(); mb.bodies.len()];
    let unit = |k: usize| -> Vec3 { std::array::from_fn(|i| Expr::int((i == k) as i64)) };
    let zero: Vec3 = std::array::from_fn(|_| Expr::zero());
    for (b, joint) in mb.joints.iter().enumerate() {
        let mount = joint
            .parent
            .map_or_else(Mount::ground, |p| mounts[p].clone());
        let parent = mount.link;
        let body = &mb.bodies[joint.child];
        let inertia = Some((body.mass.clone(), body.center.clone(), body.inertia.clone()));
        let y = |k: usize| system.expr(joint.velocities[k]);
        let q = |k: usize| system.expr(joint.coordinates[k]);
        let f = |k: usize| system.forces[joint.sections[k]].clone();
        let start = links.len();
        // The joint frame in the frame of the link it hangs from.
        let (at, turn) = mount.place(&joint.at, joint.frame.as_ref());
        if joint.kind == JointKind::Fixed {
            let welded = Mount {
                link: parent,
                rotation: turn,
                origin: at,
            };
            if let (Some(l), Some(body)) = (parent, inertia) {
                links[l].welded.push((welded.transform(), body));
            }
            mounts[b] = welded;
            continue;
        }
        // Degree of freedom `k` of the joint: its placement, axis and kind; the body rides on
        // the last one.
        let mut push = |k: usize, placement: Placement, axis: Vec3, revolute: bool, last: bool| {
            let spatial = matches!(joint.kind, JointKind::Spherical | JointKind::Free);
            links.push(Link {
                parent: if k == 0 { parent } else { Some(start + k - 1) },
                placement,
                turn: if k == 0 { turn.clone() } else { None },
                welded: Vec::new(),
                axis,
                revolute,
                label: system.key(if spatial {
                    joint.velocities[k]
                } else {
                    joint.coordinates[k]
                }),
                velocity: y(k),
                section: joint.sections[k],
                force: f(k),
                body: if last { inertia.clone() } else { None },
                group: spatial.then_some(start),
            })
        };
        match joint.kind {
            JointKind::Revolute => push(
                0,
                Placement::Revolute {
                    at: at.clone(),
                    angle: q(0),
                },
                joint.axis.clone(),
                true,
                true,
            ),
            JointKind::Prismatic => push(
                0,
                Placement::Prismatic {
                    at: at.clone(),
                    offset: q(0),
                },
                joint.axis.clone(),
                false,
                true,
            ),
            JointKind::Planar => {
                for k in 0..3 {
                    let at = if k == 0 { at.clone() } else { zero.clone() };
                    let placement = if k == 2 {
                        Placement::Revolute { at, angle: q(k) }
                    } else {
                        Placement::Prismatic { at, offset: q(k) }
                    };
                    push(k, placement, unit(k), k == 2, k == 2);
                }
            }
            JointKind::Spherical => {
                let quaternion: [Expr; 4] = std::array::from_fn(q);
                for k in 0..3 {
                    let placement = if k == 0 {
                        Placement::Rotated {
                            at: at.clone(),
                            quaternion: quaternion.clone(),
                        }
                    } else {
                        Placement::Same
                    };
                    push(k, placement, unit(k), true, k == 2);
                }
            }
            JointKind::Free => {
                let quaternion: [Expr; 4] = std::array::from_fn(|k| q(k + 3));
                for k in 0..6 {
                    let placement = if k == 0 {
                        Placement::Moved {
                            at: at.clone(),
                            position: std::array::from_fn(q),
                            quaternion: quaternion.clone(),
                        }
                    } else {
                        Placement::Same
                    };
                    // The velocity is (v, ω): the origin's velocity, then the angular velocity,
                    // both in the child's axes.
                    push(k, placement, unit(k % 3), k >= 3, k == 5);
                }
            }
            JointKind::Fixed => unreachable!("a fixed joint is a mount, not a link"),
        }
        mounts[b] = Mount {
            link: Some(links.len() - 1),
            rotation: None,
            origin: zero.clone(),
        };
    }
    Some(links)
}

fn split(v: &Spatial) -> (Vec3, Vec3) {
    (
        [v[0].clone(), v[1].clone(), v[2].clone()],
        [v[3].clone(), v[4].clone(), v[5].clone()],
    )
}

fn join(a: Vec3, b: Vec3) -> Spatial {
    let [a0, a1, a2] = a;
    let [b0, b1, b2] = b;
    [a0, a1, a2, b0, b1, b2]
}

fn add(a: &Spatial, b: &Spatial) -> Spatial {
    std::array::from_fn(|i| a[i].clone() + b[i].clone())
}

fn scale(s: &Expr, a: &Spatial) -> Spatial {
    std::array::from_fn(|i| s.clone() * a[i].clone())
}

pub(crate) fn dot(a: &Spatial, b: &Spatial) -> Expr {
    sum_of_products(a.iter().zip(b))
}

pub(crate) fn times(m: &Spatial6, v: &Spatial) -> Spatial {
    std::array::from_fn(|i| dot(&m[i], v))
}

/// `X m`: a motion vector from the parent's coordinates to the child's.
fn motion_to_child((e, r): &Transform, m: &Spatial) -> Spatial {
    let (w, v) = split(m);
    let turned = cross(r, &w);
    let moved: Vec3 = std::array::from_fn(|i| v[i].clone() - turned[i].clone());
    join(mat_vec(e, &w), mat_vec(e, &moved))
}

/// `Xᵀ f`: a force vector from the child's coordinates to the parent's.
pub(crate) fn force_to_parent((e, r): &Transform, f: &Spatial) -> Spatial {
    let (n, f) = split(f);
    let (n, f) = (mat_t_vec(e, &n), mat_t_vec(e, &f));
    let moment = cross(r, &f);
    join(std::array::from_fn(|i| n[i].clone() + moment[i].clone()), f)
}

/// `Xᵀ I X`: an inertia from the child's coordinates to the parent's, column by column.
pub(crate) fn inertia_to_parent(x: &Transform, inertia: &Spatial6) -> Spatial6 {
    let columns: Vec<Spatial> = (0..6)
        .map(|k| {
            let unit: Spatial = std::array::from_fn(|i| Expr::int((i == k) as i64));
            force_to_parent(x, &times(inertia, &motion_to_child(x, &unit)))
        })
        .collect();
    std::array::from_fn(|i| std::array::from_fn(|j| columns[j][i].clone()))
}

/// `v ×ₘ m` (Featherstone's `crm`).
fn cross_motion(v: &Spatial, m: &Spatial) -> Spatial {
    let ((w, v), (mw, mv)) = (split(v), split(m));
    let (w_mv, v_mw) = (cross(&w, &mv), cross(&v, &mw));
    let linear: Vec3 = std::array::from_fn(|i| w_mv[i].clone() + v_mw[i].clone());
    join(cross(&w, &mw), linear)
}

/// `v ×* f` (Featherstone's `crf`).
fn cross_force(v: &Spatial, f: &Spatial) -> Spatial {
    let ((w, v), (n, f)) = (split(v), split(f));
    let (w_n, v_f) = (cross(&w, &n), cross(&v, &f));
    let angular: Vec3 = std::array::from_fn(|i| w_n[i].clone() + v_f[i].clone());
    join(angular, cross(&w, &f))
}

/// The spatial inertia at the body's origin: `[I_c + m c× c×ᵀ, m c×; m c×ᵀ, m 1]`.
pub(crate) fn spatial_inertia(body: &Option<(Expr, Vec3, Mat3)>) -> Spatial6 {
    let mut out: Spatial6 = std::array::from_fn(|_| std::array::from_fn(|_| Expr::zero()));
    let Some((m, c, ic)) = body else {
        return out;
    };
    let skew = skew(c);
    for i in 0..3 {
        for j in 0..3 {
            let cc = (0..3).fold(Expr::zero(), |acc, k| {
                acc + skew[i][k].clone() * skew[j][k].clone()
            });
            out[i][j] = ic[i][j].clone() + m.clone() * cc;
            out[i][j + 3] = m.clone() * skew[i][j].clone();
            out[j + 3][i] = m.clone() * skew[i][j].clone();
        }
        out[i + 3][i + 3] = m.clone();
    }
    out
}

/// The articulated-body algorithm for `system`, when it has bodies and joints, with its
/// constraints (if any) by the Schur complement (module docs).
pub fn forward_dynamics(system: &System) -> Option<Articulated> {
    let mb = system.multibody.as_ref()?;
    let links = links(mb, system)?;
    let mut tape = Tape::new("aba");
    let tree = articulate(&mut tape, &links);
    let free = tree.accelerate(&mut tape, &links, &tree.u, &ground(mb), Motion::Moving);
    let (accelerations, multipliers) = if system.constraints.is_empty() {
        (free, Vec::new())
    } else {
        constrained(&mut tape, system, &links, &tree, free)
    };
    Some(Articulated {
        bindings: tape.bindings,
        accelerations,
        multipliers,
    })
}

/// The ground's spatial acceleration: gravity enters as an acceleration `−g` of the ground.
fn ground(mb: &Multibody) -> Spatial {
    join(
        std::array::from_fn(|_| Expr::zero()),
        mb.gravity.clone().map(|g| -g),
    )
}

/// What the first two passes of the articulated-body algorithm leave for the third: per link,
/// its transform, velocity-product acceleration `c`, `U = I^A S`, `D = Sᵀ I^A S` (bound) and
/// the joint force `u = τ − Sᵀ p^A` of the forces applied, plus the reduced articulated inertias
/// `I^a = I^A − U Uᵀ/D` and `1/D` that a unit-force pass reuses.
struct ArticulatedTree {
    xs: Vec<Transform>,
    c: Vec<Spatial>,
    u_vectors: Vec<Spatial>,
    d: Vec<Expr>,
    inverse_d: Vec<Expr>,
    u: Vec<Expr>,
}

/// A link's spatial velocity `v = X v_λ + S q̇`, bound, and its velocity product
/// `c = v ×ₘ S q̇` (unbound), given its bound transform and its parent's velocity. For the links
/// of a spherical or free joint the product is taken with the velocity the group starts from,
/// `X v_λ` of its first link, kept in `entries`: their sum is then the joint's
/// `(X v_λ + v_J) ×ₘ v_J` (module documentation).
fn link_velocity(
    tape: &mut Tape,
    l: &Link,
    x: &Transform,
    parent_v: &Spatial,
    entries: &mut [Spatial],
) -> (Spatial, Spatial) {
    let s = scale(&l.velocity, &motion(l));
    let moved = motion_to_child(x, parent_v);
    // The first link of a group (its parent lies outside the group) keeps the entry velocity.
    if let Some(first) = l.group.filter(|&first| l.parent.is_none_or(|p| p < first)) {
        entries[first] = tape.spatial(moved.clone());
    }
    let v = tape.spatial(add(&moved, &s));
    let c = cross_motion(l.group.map_or(&v, |first| &entries[first]), &s);
    (v, c)
}

/// Passes 1 and 2 of the algorithm: transforms, velocities and bias forces root to leaves, then
/// articulated inertias and forces leaves to root.
fn articulate(tape: &mut Tape, links: &[Link]) -> ArticulatedTree {
    let n = links.len();
    let zero: Spatial = std::array::from_fn(|_| Expr::zero());
    let mut xs = Vec::with_capacity(n);
    let (mut v, mut c): (Vec<Spatial>, Vec<Spatial>) = (Vec::new(), Vec::new());
    let (mut inertia, mut bias): (Vec<Spatial6>, Vec<Spatial>) = (Vec::new(), Vec::new());
    let mut entries = vec![zero.clone(); n];
    for l in links {
        let x = tape.transform(l);
        let parent_v = l.parent.map_or(zero.clone(), |p| v[p].clone());
        let (vi, ci) = link_velocity(tape, l, &x, &parent_v, &mut entries);
        let ci = tape.spatial(ci);
        let ii = link_inertia(l);
        let pi = tape.spatial(cross_force(&vi, &times(&ii, &vi)));
        xs.push(x);
        v.push(vi);
        c.push(ci);
        inertia.push(ii);
        bias.push(pi);
    }
    let mut tree = ArticulatedTree {
        xs,
        c,
        u_vectors: vec![zero; n],
        d: vec![Expr::zero(); n],
        inverse_d: vec![Expr::zero(); n],
        u: vec![Expr::zero(); n],
    };
    for i in (0..n).rev() {
        let l = &links[i];
        let s = motion(l);
        let ia = tape.symmetric(inertia[i].clone());
        let ui = tape.spatial(times(&ia, &s));
        // D_q = Sᵀ I^A S, the articulated inertia along the joint: the only denominators.
        let di = tape.bind_as(format!("D_{}_", l.label), dot(&s, &ui));
        let force = tape.bind(l.force.clone() - dot(&s, &bias[i]));
        if let Some(p) = l.parent {
            let inverse = tape.bind(Expr::one() / di.clone());
            let reduced: Spatial6 = std::array::from_fn(|a| {
                std::array::from_fn(|b| {
                    ia[a][b].clone() - ui[a].clone() * ui[b].clone() * inverse.clone()
                })
            });
            let reduced = tape.symmetric(reduced);
            let pa = add(
                &add(&bias[i], &times(&reduced, &tree.c[i])),
                &scale(&(force.clone() * inverse.clone()), &ui),
            );
            let pa = tape.spatial(pa);
            let to_parent = inertia_to_parent(&tree.xs[i], &reduced);
            inertia[p] = std::array::from_fn(|a| {
                std::array::from_fn(|b| inertia[p][a][b].clone() + to_parent[a][b].clone())
            });
            bias[p] = tape.spatial(add(&bias[p], &force_to_parent(&tree.xs[i], &pa)));
            tree.inverse_d[i] = inverse;
        }
        tree.u_vectors[i] = ui;
        tree.d[i] = di;
        tree.u[i] = force;
    }
    tree
}

/// Whether pass 3 adds the velocity-product terms: the system moving, or a unit-force pass at
/// rest.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Motion {
    Moving,
    AtRest,
}

impl ArticulatedTree {
    /// Pass 3, root to leaves: the accelerations (in the algebroid's order) given the joint
    /// forces `u` of pass 2 and the ground's acceleration; `Motion::Moving` adds the
    /// velocity-product terms `c` (a unit-force pass at rest has none).
    fn accelerate(
        &self,
        tape: &mut Tape,
        links: &[Link],
        u: &[Expr],
        ground: &Spatial,
        pass: Motion,
    ) -> Vec<Expr> {
        let mut a: Vec<Spatial> = Vec::with_capacity(links.len());
        let mut accelerations = vec![Expr::zero(); links.len()];
        for (i, l) in links.iter().enumerate() {
            let parent_a = l.parent.map_or(ground.clone(), |p| a[p].clone());
            let moved = motion_to_child(&self.xs[i], &parent_a);
            let ai = if pass == Motion::Moving {
                add(&moved, &self.c[i])
            } else {
                moved
            };
            let ai = tape.spatial(ai);
            let qdd = tape.bind((u[i].clone() - dot(&self.u_vectors[i], &ai)) / self.d[i].clone());
            a.push(tape.spatial(add(&ai, &scale(&qdd, &motion(l)))));
            accelerations[l.section] = qdd;
        }
        accelerations
    }

    /// `W⁻¹ τ` for a generalised force `τ` (one per velocity, in the algebroid's order): pass 2's
    /// force half at rest without gravity (`p^A` from `τ` alone, through the same `I^a`, `U`
    /// and `D`), then pass 3 from a ground at rest. O(n).
    fn solve(&self, tape: &mut Tape, links: &[Link], tau: &[Expr]) -> Vec<Expr> {
        let n = links.len();
        let zero: Spatial = std::array::from_fn(|_| Expr::zero());
        let mut bias = vec![zero.clone(); n];
        let mut u = vec![Expr::zero(); n];
        for i in (0..n).rev() {
            let l = &links[i];
            let ui = tape.bind(tau[l.section].clone() - dot(&motion(l), &bias[i]));
            if let Some(p) = l.parent {
                let pa = tape.spatial(add(
                    &bias[i],
                    &scale(
                        &(ui.clone() * self.inverse_d[i].clone()),
                        &self.u_vectors[i],
                    ),
                ));
                bias[p] = tape.spatial(add(&bias[p], &force_to_parent(&self.xs[i], &pa)));
            }
            u[i] = ui;
        }
        self.accelerate(tape, links, &u, &zero, Motion::AtRest)
    }
}

/// The constrained accelerations and the multipliers of `W ẏ + μᵀλ = b`, `μ ẏ = β` from the
/// free accelerations `a₀ = W⁻¹ b`: `Z = W⁻¹ μᵀ` by one unit-force pass per constraint, the
/// Schur complement `S = μ Z` (r × r, symmetric and positive definite for independent
/// constraints), `S λ = μ a₀ − β` by an unrolled LDLᵀ whose pivots are bound as `S_k_`, and
/// `ẏ = a₀ − Z λ`. O(n·r + r³).
fn constrained(
    tape: &mut Tape,
    system: &System,
    links: &[Link],
    tree: &ArticulatedTree,
    free: Vec<Expr>,
) -> (Vec<Expr>, Vec<Expr>) {
    let rows: Vec<Vec<Expr>> = system
        .constraints
        .iter()
        .map(|c| c.mu.iter().map(|m| tape.bind(m.clone())).collect())
        .collect();
    let columns: Vec<Vec<Expr>> = rows
        .iter()
        .map(|row| tree.solve(tape, links, row))
        .collect();
    let r = rows.len();
    let project = |tape: &mut Tape, row: &[Expr], v: &[Expr]| {
        tape.bind(
            row.iter()
                .zip(v)
                .fold(Expr::zero(), |acc, (m, x)| acc + m.clone() * x.clone()),
        )
    };
    let mut schur = vec![vec![Expr::zero(); r]; r];
    for a in 0..r {
        for b in a..r {
            let e = project(tape, &rows[a], &columns[b]);
            schur[a][b] = e.clone();
            schur[b][a] = e;
        }
    }
    let rhs: Vec<Expr> = system
        .constraints
        .iter()
        .zip(&rows)
        .map(|(c, row)| {
            let beta = -crate::base::algebra::admissible_apply(system, &c.psi);
            let mu_a = project(tape, row, &free);
            tape.bind(mu_a - beta)
        })
        .collect();
    let multipliers = ldlt_solve(tape, schur, rhs);
    let accelerations = (0..free.len())
        .map(|alpha| {
            let reaction = (0..r).fold(Expr::zero(), |acc, a| {
                acc + columns[a][alpha].clone() * multipliers[a].clone()
            });
            tape.bind(free[alpha].clone() - reaction)
        })
        .collect();
    (accelerations, multipliers)
}

/// `x` with `S x = rhs` for a symmetric `S` by `S = L D Lᵀ` unrolled without pivoting, every
/// value bound and the pivots named `S_k_` (1-based), the denominators of the emitted guards.
fn ldlt_solve(tape: &mut Tape, mut s: Vec<Vec<Expr>>, mut rhs: Vec<Expr>) -> Vec<Expr> {
    let r = rhs.len();
    let mut pivots = Vec::with_capacity(r);
    // Forward elimination: row k of the remaining block, scaled by 1/pivot, clears column k.
    for k in 0..r {
        let pivot = tape.bind_as(format!("S_{}_", k + 1), s[k][k].clone());
        for i in k + 1..r {
            let factor = tape.bind(s[i][k].clone() / pivot.clone());
            let updated: Vec<Expr> = (i..r)
                .map(|j| tape.bind(s[i][j].clone() - factor.clone() * s[k][j].clone()))
                .collect();
            for (j, e) in (i..r).zip(updated) {
                s[i][j] = e.clone();
                s[j][i] = e;
            }
            rhs[i] = tape.bind(rhs[i].clone() - factor * rhs[k].clone());
        }
        pivots.push(pivot);
    }
    let mut x = vec![Expr::zero(); r];
    for k in (0..r).rev() {
        let rest = (k + 1..r).fold(Expr::zero(), |acc, j| acc + s[k][j].clone() * x[j].clone());
        x[k] = tape.bind((rhs[k].clone() - rest) / pivots[k].clone());
    }
    x
}

/// Featherstone's recursive Newton–Euler algorithm (*Rigid Body Dynamics Algorithms*, §5.3,
/// Table 5.1) for the same trees as [`forward_dynamics`]: the generalised force along each
/// velocity that gives the accelerations `accelerations` (symbols, one per velocity, in the
/// algebroid's order) at the state; gravity included, the system's own forces `F_α` not (the
/// result is the total force: inputs plus every force of the spec). `bindings` and the forces,
/// one per velocity.
pub fn inverse_dynamics(system: &System, accelerations: &[String]) -> Option<Articulated> {
    let mb = system.multibody.as_ref()?;
    if !system.constraints.is_empty() {
        return None;
    }
    let links = links(mb, system)?;
    let mut tape = Tape::new("aba");
    let accelerations: Vec<Expr> = accelerations.iter().map(|a| Expr::symbol(a)).collect();
    let forces = newton_euler(&mut tape, &links, mb, &accelerations);
    Some(Articulated {
        bindings: tape.bindings,
        accelerations: forces,
        multipliers: Vec::new(),
    })
}

/// The recursion of [`inverse_dynamics`] on `links`, its values bound on `tape`: the generalised
/// force along each velocity (in the algebroid's order) that gives `accelerations` (one per
/// velocity, in the same order; zeros give the bias forces `C(q, q̇) + G(q)`).
pub(crate) fn newton_euler(
    tape: &mut Tape,
    links: &[Link],
    mb: &Multibody,
    accelerations: &[Expr],
) -> Vec<Expr> {
    let n = links.len();
    let zero: Spatial = std::array::from_fn(|_| Expr::zero());
    let ground = ground(mb);
    let (mut xs, mut v, mut a, mut f) = (
        Vec::new(),
        Vec::<Spatial>::new(),
        Vec::<Spatial>::new(),
        Vec::<Spatial>::new(),
    );
    let mut entries = vec![zero.clone(); n];
    for l in links {
        let x = tape.transform(l);
        let s = motion(l);
        let qdd = accelerations[l.section].clone();
        let (parent_v, parent_a) = match l.parent {
            Some(p) => (v[p].clone(), a[p].clone()),
            None => (zero.clone(), ground.clone()),
        };
        let (vi, ci) = link_velocity(tape, l, &x, &parent_v, &mut entries);
        let ai = add(&add(&motion_to_child(&x, &parent_a), &scale(&qdd, &s)), &ci);
        let ai = tape.spatial(ai);
        let inertia = link_inertia(l);
        let fi = add(
            &times(&inertia, &ai),
            &cross_force(&vi, &times(&inertia, &vi)),
        );
        f.push(tape.spatial(fi));
        xs.push(x);
        v.push(vi);
        a.push(ai);
    }
    let mut forces = vec![Expr::zero(); n];
    for i in (0..n).rev() {
        let l = &links[i];
        forces[l.section] = tape.bind(dot(&motion(l), &f[i]));
        if let Some(p) = l.parent {
            let moved = force_to_parent(&xs[i], &f[i]);
            f[p] = tape.spatial(add(&f[p], &moved));
        }
    }
    forces
}

/// The motion subspace `S` of a link: `[axis; 0]` (revolute) or `[0; axis]` (prismatic).
pub(crate) fn motion(l: &Link) -> Spatial {
    let z: Vec3 = std::array::from_fn(|_| Expr::zero());
    if l.revolute {
        join(l.axis.clone(), z)
    } else {
        join(z, l.axis.clone())
    }
}
