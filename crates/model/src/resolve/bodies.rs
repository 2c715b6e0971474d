//! Reading the multibody items (`gravity`, `body`, `joint`, `contact`; see
//! [`crate::multibody`]): their names are declared first, then their fields are read into a
//! [`Multibody`], which lowers to the algebroid, the Lagrangian, the contact constraints and the
//! joint forces.

use diagnostic::Code;
use std::collections::BTreeMap;

use cas::Expr;
use diagnostic::Diagnostic;
use syntax::ast::{Expr as Ast, Field, FieldValue, Ident, ItemKind, Span, Spec};

use super::fields::{field, names_of, unknown_kind, wrong_length};
use super::{RawConstraint, Resolver};
use crate::multibody::kinematics::Kinematics;
use crate::multibody::{
    zero3, Body, Contact, ContactKind, Joint, JointKind, Mat3, Multibody, Turn,
};
use crate::scope::{NameKind, ScopeKind};
use crate::symbols::Handle;
use crate::system::{Algebroid, AlgebroidKind};

/// The multibody items of a spec, by kind.
#[derive(Default)]
pub(super) struct Items<'a> {
    gravity: Option<(&'a [Ast], Span)>,
    bodies: Vec<(&'a Ident, &'a [Field], Span)>,
    joints: Vec<(&'a Ident, &'a Ident, &'a [Field], Span)>,
    contacts: Vec<(&'a Ident, &'a Ident, &'a [Field], Span)>,
}

impl<'a> Items<'a> {
    pub(super) fn of(spec: &'a Spec) -> Items<'a> {
        let mut items = Items::default();
        for item in &spec.items {
            match &item.kind {
                ItemKind::Gravity(v) => items.gravity = Some((v, item.span)),
                ItemKind::Body { name, fields } => items.bodies.push((name, fields, item.span)),
                ItemKind::Joint { name, kind, fields } => {
                    items.joints.push((name, kind, fields, item.span))
                }
                ItemKind::Contact { name, kind, fields } => {
                    items.contacts.push((name, kind, fields, item.span))
                }
                _ => {}
            }
        }
        items
    }

    /// Whether the spec describes its system with joints.
    pub(super) fn present(&self) -> bool {
        !self.joints.is_empty()
    }

    /// Where the multibody description starts.
    pub(super) fn span(&self) -> Span {
        self.joints.first().map(|j| j.3).unwrap_or_default()
    }

    /// Whether every joint is revolute, prismatic or planar, so that the algebroid is `tangent`.
    fn tangent(&self) -> bool {
        self.joints.iter().all(|(_, kind, _, _)| {
            JointKind::from_name(&kind.name).is_none_or(JointKind::is_tangent)
        })
    }
}

/// Whether a field naming a body may name `ground` (a joint's parent may).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Ground {
    Allowed,
    Refused,
}

impl Resolver {
    /// E0270: joints beside `coordinates`, `algebroid` or `lagrangian`/`hamiltonian`.
    pub(super) fn bodies_alone(&mut self, spec: &Spec, items: &Items) {
        for item in &spec.items {
            let what = match &item.kind {
                ItemKind::Coordinates(_) => "coordinates",
                ItemKind::Algebroid(_) => "algebroid",
                ItemKind::Lagrangian(_) => "lagrangian",
                ItemKind::Hamiltonian(_) => "hamiltonian",
                _ => continue,
            };
            self.errors.push(
                Diagnostic::error(
                    Code::E0270,
                    format!("a spec with joints has no `{what}` line"),
                    item.span,
                    "given here",
                )
                .with_secondary(items.span(), "the joints are declared from here")
                .with_note("the joints give the coordinates, the algebroid and the Lagrangian; add potentials as joint forces"),
            );
        }
    }

    /// Checks the keys of every block and declares the joints' coordinates and velocities.
    pub(super) fn declare_bodies(&mut self, items: &Items) {
        let tangent = items.tangent();
        self.scope.tangent = tangent;
        for (_, fields, span) in &items.bodies {
            self.check_keys("body", "a body", fields, *span);
        }
        for (name, kind, fields, span) in &items.contacts {
            if !matches!(kind.name.as_str(), "rolling" | "knife_edge") {
                self.errors
                    .push(unknown_kind(kind, "contact", "`rolling`, `knife_edge`"));
                continue;
            }
            let _ = name;
            self.check_keys(
                &kind.name,
                &format!("a `{}` contact", kind.name),
                fields,
                *span,
            );
        }
        for (name, kind, fields, span) in &items.joints {
            let Some(joint) = JointKind::from_name(&kind.name) else {
                self.errors.push(unknown_kind(
                    kind,
                    "joint",
                    "`revolute`, `prismatic`, `planar`, `spherical`, `free`, `fixed`",
                ));
                continue;
            };
            self.check_keys(&kind.name, &format!("a {} joint", kind.name), fields, *span);
            for q in self.joint_coordinates(name, joint, fields) {
                self.declare(&q, NameKind::Coordinate);
                self.coordinates.push(q.name.clone());
            }
            let velocities = self.listed_names(fields, &["velocity", "velocities"]);
            match (tangent, joint.is_tangent(), velocities) {
                (true, _, Some((given, at))) => self.errors.push(
                    Diagnostic::error(
                        Code::E0277,
                        "these velocities are the coordinates' own",
                        at,
                        "not named here",
                    )
                    .with_note(format!(
                        "without a spherical or free joint the algebroid is `tangent`: write `{}'`",
                        given.first().map(|g| g.name.as_str()).unwrap_or("q")
                    )),
                ),
                (false, true, None) if joint.degrees_of_freedom() > 0 => self.errors.push(
                    Diagnostic::error(
                        Code::E0277,
                        format!("the {} joint `{}` names no velocities", kind.name, name.name),
                        *span,
                        "expected a `velocity` line",
                    )
                    .with_note("beside a spherical or free joint the velocities are fibre coordinates of an algebroid and need names")
                    .with_help(if joint == JointKind::Planar { "add `velocities = (u, v, w)`" } else { "add `velocity = u`" }),
                ),
                (false, _, Some((given, at))) => {
                    if given.len() != joint.degrees_of_freedom() {
                        self.errors.push(wrong_length(at, joint.degrees_of_freedom(), "velocity names"));
                    }
                    given.iter().for_each(|v| self.declare(v, NameKind::Velocity));
                }
                _ => {}
            }
        }
    }

    /// A joint's coordinates, as declared: its own name, or the names its fields list.
    fn joint_coordinates(
        &mut self,
        name: &Ident,
        joint: JointKind,
        fields: &[Field],
    ) -> Vec<Ident> {
        let mut named = |keys: &[&str], n: usize| -> Vec<Ident> {
            match self.listed_names(fields, keys) {
                Some((names, _)) if names.len() == n => names,
                Some((_, at)) => {
                    self.errors.push(wrong_length(at, n, "names"));
                    Vec::new()
                }
                None => Vec::new(),
            }
        };
        match joint {
            JointKind::Revolute | JointKind::Prismatic => vec![name.clone()],
            JointKind::Planar => {
                if field(fields, "coordinates").is_none() {
                    self.errors.push(
                        Diagnostic::error(
                            Code::E0272,
                            "a planar joint needs `coordinates`",
                            name.span,
                            "no `coordinates` line in this block",
                        )
                        .with_help("add `coordinates = (x, y, phi)`"),
                    );
                    return Vec::new();
                }
                named(&["coordinates"], 3)
            }
            JointKind::Spherical => named(&["quaternion"], 4),
            JointKind::Free => {
                let mut q = named(&["position"], 3);
                q.extend(named(&["quaternion"], 4));
                q
            }
            JointKind::Fixed => Vec::new(),
        }
    }

    /// Reads the multibody items into a [`Multibody`] (after [`Resolver::declare_bodies`]).
    pub(super) fn multibody(&mut self, items: &Items) -> Option<Multibody> {
        let errors = self.errors.len();
        let body_index: BTreeMap<&str, usize> = items
            .bodies
            .iter()
            .enumerate()
            .map(|(i, (name, _, _))| (name.name.as_str(), i))
            .collect();
        let mut bodies: Vec<Body> = items
            .bodies
            .iter()
            .map(|(name, fields, span)| self.body(name, fields, *span))
            .collect();
        let gravity = match items.gravity {
            Some((v, span)) => self.vector_of(v, span, 3, "gravity").unwrap_or_else(zero3),
            None => zero3(),
        };
        let mut joints = Vec::new();
        let mut next_section = 0;
        for (name, kind, fields, span) in &items.joints {
            let Some(joint) = JointKind::from_name(&kind.name) else {
                continue;
            };
            let dof = joint.degrees_of_freedom();
            let sections: Vec<usize> = (next_section..next_section + dof).collect();
            next_section += dof;
            let parent = match self.body_name(fields, "parent", &body_index, Ground::Allowed) {
                Some(p) => p,
                None => continue,
            };
            let Some(Some(child)) = self.body_name(fields, "child", &body_index, Ground::Refused)
            else {
                continue;
            };
            joints.push(self.joint(name, joint, fields, *span, parent, child, sections));
        }
        if self.errors.len() > errors {
            return None;
        }
        let order = self.tree_order(items, &joints, bodies.len())?;
        // Bodies are renumbered so that bodies[k] is the child of joints[k].
        let joints: Vec<Joint> = order.iter().map(|&j| joints[j].clone()).collect();
        let new_index: BTreeMap<usize, usize> = joints
            .iter()
            .enumerate()
            .map(|(k, j)| (j.child, k))
            .collect();
        bodies = joints.iter().map(|j| bodies[j.child].clone()).collect();
        let joints = joints
            .into_iter()
            .map(|mut j| {
                j.parent = j.parent.map(|p| new_index[&p]);
                j.child = new_index[&j.child];
                j
            })
            .collect();
        let contacts = items
            .contacts
            .iter()
            .filter_map(|(name, kind, fields, span)| {
                let body = self.body_name(fields, "body", &body_index, Ground::Refused)??;
                self.contact(name, kind, fields, *span, new_index[&body])
            })
            .collect();
        (self.errors.len() == errors).then_some(Multibody {
            gravity,
            bodies,
            joints,
            contacts,
        })
    }

    fn body(&mut self, name: &Ident, fields: &[Field], span: Span) -> Body {
        let mass = self.scalar(fields, "mass").unwrap_or_else(Expr::zero);
        let center = self.vector(fields, "center", 3).unwrap_or_else(zero3);
        let inertia = self
            .inertia(fields)
            .unwrap_or_else(|| std::array::from_fn(|_| std::array::from_fn(|_| Expr::zero())));
        Body {
            name: name.name.clone(),
            mass,
            center,
            inertia,
            span,
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn joint(
        &mut self,
        name: &Ident,
        kind: JointKind,
        fields: &[Field],
        span: Span,
        parent: Option<usize>,
        child: usize,
        sections: Vec<usize>,
    ) -> Joint {
        let at = self.vector(fields, "at", 3).unwrap_or_else(zero3);
        let frame = self.joint_frame(fields, span);
        let axis = match kind {
            JointKind::Revolute | JointKind::Prismatic => self
                .vector(fields, "axis", 3)
                .unwrap_or_else(|| [Expr::zero(), Expr::zero(), Expr::one()]),
            _ => zero3(),
        };
        let coordinates: Vec<String> = match kind {
            JointKind::Revolute | JointKind::Prismatic => vec![name.name.clone()],
            _ => ["coordinates", "position", "quaternion"]
                .iter()
                .filter_map(|k| field(fields, k))
                .filter_map(|f| names_of(&f.value))
                .flatten()
                .map(|i| i.name)
                .collect(),
        };
        let velocities = match self.scope.tangent {
            true => coordinates.iter().map(|q| self.velocity(q)).collect(),
            false => {
                let names: Vec<String> = ["velocity", "velocities"]
                    .iter()
                    .filter_map(|k| field(fields, k))
                    .filter_map(|f| names_of(&f.value))
                    .flatten()
                    .map(|i| i.name)
                    .collect();
                self.handles(&names)
            }
        };
        let forces = self.joint_forces(kind, fields);
        Joint {
            name: name.name.clone(),
            kind,
            parent,
            child,
            at,
            frame,
            axis,
            coordinates: self.handles(&coordinates),
            velocities,
            sections,
            forces,
            span,
        }
    }

    /// The joint frame's constant turn from the parent's axes, given one way: `frame_axis` and
    /// `frame_angle` (both or neither), `frame_matrix` (checked to be a rotation) or
    /// `frame_quaternion` (non-zero); E0272 and E0295 otherwise.
    fn joint_frame(&mut self, fields: &[Field], span: Span) -> Option<Turn> {
        let about = field(fields, "frame_axis").is_some() || field(fields, "frame_angle").is_some();
        let matrix = field(fields, "frame_matrix");
        let quaternion = field(fields, "frame_quaternion");
        let ways = [about, matrix.is_some(), quaternion.is_some()];
        if ways.iter().filter(|&&w| w).count() > 1 {
            self.errors.push(
                Diagnostic::error(
                    Code::E0272,
                    "a joint frame is given more than one way",
                    span,
                    "this block turns its frame twice",
                )
                .with_note(
                    "the joint frame is given by `frame_axis` and `frame_angle`, or by \
                     `frame_matrix`, or by `frame_quaternion`",
                )
                .with_help("keep one of them"),
            );
            return None;
        }
        if let Some(f) = matrix {
            let entries = self.constants(fields, "frame_matrix", 9)?;
            let m: Mat3 =
                std::array::from_fn(|i| std::array::from_fn(|j| entries[3 * i + j].clone()));
            return self.rotation(m, f.value.span());
        }
        if let Some(f) = quaternion {
            let q = self.constants(fields, "frame_quaternion", 4)?;
            let q: [Expr; 4] = std::array::from_fn(|k| q[k].clone());
            let norm = Expr::sum(q.iter().map(|x| x.clone() * x.clone()));
            if norm.vanishes() {
                self.errors.push(
                    Diagnostic::error(
                        Code::E0295,
                        "the frame quaternion is zero",
                        f.value.span(),
                        "no rotation",
                    )
                    .with_note("`frame_quaternion = (w, x, y, z)` turns by the unit quaternion it is a multiple of"),
                );
                return None;
            }
            return Some(Turn::Quaternion(q));
        }
        self.frame_about(fields, span)
    }

    /// `frame_matrix` when it is a rotation: `Rᵀ R = I` and `det R = 1` (E0295 otherwise).
    fn rotation(&mut self, m: Mat3, at: Span) -> Option<Turn> {
        let product = |i: usize, j: usize| {
            Expr::sum((0..3).map(|k| m[k][i].clone() * m[k][j].clone()))
                - Expr::int((i == j) as i64)
        };
        let orthogonal = (0..3).all(|i| (i..3).all(|j| product(i, j).vanishes()));
        let rows: Vec<Vec<Expr>> = m.iter().map(|r| r.to_vec()).collect();
        let determinant = cas::det(&rows) - Expr::one();
        if orthogonal && determinant.vanishes() {
            return Some(Turn::Matrix(m));
        }
        let what = if orthogonal {
            "a reflection (determinant −1)"
        } else {
            "not orthogonal (Rᵀ R ≠ I)"
        };
        self.errors.push(
            Diagnostic::error(
                Code::E0295,
                format!("the frame matrix is not a rotation: it is {what}"),
                at,
                "not a rotation",
            )
            .with_note(
                "`frame_matrix = (r11, r12, r13, r21, r22, r23, r31, r32, r33)` is row-major; its \
                 columns are the joint frame's axes in the parent's axes",
            ),
        );
        None
    }

    /// `frame_axis` and `frame_angle` (both or neither; E0272).
    fn frame_about(&mut self, fields: &[Field], span: Span) -> Option<Turn> {
        match (field(fields, "frame_axis"), field(fields, "frame_angle")) {
            (None, None) => None,
            (Some(_), Some(_)) => Some(Turn::About(
                self.vector(fields, "frame_axis", 3)?,
                self.scalar(fields, "frame_angle")?,
            )),
            (given, _) => {
                let (has, needs) = match given {
                    Some(_) => ("frame_axis", "frame_angle"),
                    None => ("frame_angle", "frame_axis"),
                };
                self.errors.push(
                    Diagnostic::error(
                        Code::E0272,
                        format!("a joint with `{has}` needs `{needs}`"),
                        span,
                        format!("no `{needs}` line in this block"),
                    )
                    .with_note(
                        "the joint frame is the parent's axes turned by `frame_angle` about \
                         `frame_axis`",
                    )
                    .with_help(format!("add `{needs} = …`")),
                );
                None
            }
        }
    }

    /// `force`/`torque`: the generalised forces along the joint's sections.
    fn joint_forces(&mut self, kind: JointKind, fields: &[Field]) -> Vec<Expr> {
        let mut read = |key: &str, n: usize| -> Vec<Expr> {
            let Some(f) = field(fields, key) else {
                return vec![Expr::zero(); n];
            };
            let values: Vec<&Ast> = match &f.value {
                FieldValue::Scalar(e) if n == 1 => vec![e],
                FieldValue::Vector(list, _) if list.len() == n => list.iter().collect(),
                other => {
                    self.errors
                        .push(wrong_length(other.span(), n, "components"));
                    return vec![Expr::zero(); n];
                }
            };
            values
                .into_iter()
                .map(|e| match self.scope.convert(e, ScopeKind::Observable) {
                    Ok(x) => x,
                    Err(d) => {
                        self.errors.extend(d);
                        Expr::zero()
                    }
                })
                .collect()
        };
        match kind {
            JointKind::Revolute | JointKind::Prismatic => read("force", 1),
            JointKind::Planar => read("force", 3),
            JointKind::Spherical => read("torque", 3),
            JointKind::Fixed => Vec::new(),
            JointKind::Free => {
                let mut f = read("force", 3);
                f.extend(read("torque", 3));
                f
            }
        }
    }

    fn contact(
        &mut self,
        name: &Ident,
        kind: &Ident,
        fields: &[Field],
        span: Span,
        body: usize,
    ) -> Option<Contact> {
        let kind = match kind.name.as_str() {
            "rolling" => ContactKind::Rolling {
                radius: self.scalar(fields, "radius")?,
                axis: match field(fields, "axis") {
                    Some(_) => Some(self.vector(fields, "axis", 3)?),
                    None => None,
                },
                tyre: match field(fields, "tyre_radius") {
                    Some(_) => self.scalar(fields, "tyre_radius")?,
                    None => Expr::zero(),
                },
            },
            _ => ContactKind::KnifeEdge {
                at: self.vector(fields, "at", 3).unwrap_or_else(zero3),
                direction: self
                    .vector(fields, "direction", 3)
                    .unwrap_or_else(|| [Expr::one(), Expr::zero(), Expr::zero()]),
            },
        };
        Some(Contact {
            name: name.name.clone(),
            body,
            kind,
            span,
        })
    }

    /// The body a `parent`, `child` or `body` field names (`ground` allowed for a parent:
    /// `Some(None)`).
    fn body_name(
        &mut self,
        fields: &[Field],
        key: &str,
        bodies: &BTreeMap<&str, usize>,
        ground: Ground,
    ) -> Option<Option<usize>> {
        let f = field(fields, key)?;
        let name = names_of(&f.value).filter(|n| n.len() == 1);
        let Some(name) = name.map(|mut n| n.remove(0)) else {
            self.errors.push(Diagnostic::error(
                Code::E0274,
                format!("`{key}` names a body"),
                f.value.span(),
                "not a body name",
            ));
            return None;
        };
        if ground == Ground::Allowed && name.name == "ground" {
            return Some(None);
        }
        match bodies.get(name.name.as_str()) {
            Some(&b) => Some(Some(b)),
            None => {
                let mut known: Vec<String> = bodies.keys().map(|b| format!("`{b}`")).collect();
                if ground == Ground::Allowed {
                    known.push("`ground`".into());
                }
                self.errors.push(
                    Diagnostic::error(
                        Code::E0274,
                        format!("no body is called `{}`", name.name),
                        name.span,
                        "not a body",
                    )
                    .with_note(format!("the bodies are {}", known.join(", "))),
                );
                None
            }
        }
    }

    /// The joints in an order with parents first; E0275 unless every body is the child of
    /// exactly one joint and the joints form a tree hanging from the ground.
    fn tree_order(&mut self, items: &Items, joints: &[Joint], bodies: usize) -> Option<Vec<usize>> {
        let mut parent_joint: Vec<Vec<usize>> = vec![Vec::new(); bodies];
        for (j, joint) in joints.iter().enumerate() {
            parent_joint[joint.child].push(j);
        }
        let mut ok = true;
        for (b, list) in parent_joint.iter().enumerate() {
            let (name, _, span) = items.bodies[b];
            if list.len() != 1 {
                ok = false;
                let mut d = Diagnostic::error(
                    Code::E0275,
                    format!("the body `{}` is the child of {} joints", name.name, list.len()),
                    span,
                    "expected exactly one joint with this body as `child`",
                )
                .with_note("bodies and joints form a tree hanging from the ground; close a loop with `constraints holonomic { … }`");
                if let Some(&second) = list.get(1) {
                    d = d.with_secondary(joints[second].span, "a second joint with this child");
                }
                self.errors.push(d);
            }
        }
        if !ok {
            return None;
        }
        let mut order = Vec::new();
        let mut placed = vec![false; bodies];
        while order.len() < joints.len() {
            let next = (0..joints.len())
                .find(|&j| !placed[joints[j].child] && joints[j].parent.is_none_or(|p| placed[p]));
            let Some(j) = next else {
                let stuck = (0..joints.len())
                    .find(|&j| !placed[joints[j].child])
                    .unwrap_or(0);
                self.errors.push(
                    Diagnostic::error(Code::E0275, "the joints form a loop", joints[stuck].span, "this joint's parent hangs from its own child")
                        .with_note("bodies and joints form a tree hanging from the ground; close a loop with `constraints holonomic { … }`"),
                );
                return None;
            };
            placed[joints[j].child] = true;
            order.push(j);
        }
        Some(order)
    }

    /// The algebroid of the joints: `tangent` when every joint is scalar or planar, otherwise
    /// explicit, with the left-invariant sections of each spherical and free joint.
    pub(super) fn joint_algebroid(
        &mut self,
        mb: &Multibody,
        kin: &Kinematics,
        span: Span,
    ) -> Algebroid {
        let velocities: Vec<Handle> = mb
            .joints
            .iter()
            .flat_map(|j| j.velocities.clone())
            .collect();
        let keys = self.scope.symbols.keys(&velocities);
        let n = velocities.len();
        let mut base = vec![self.scope.time.clone()];
        base.extend(self.coordinates.iter().cloned());
        let anchors = keys
            .iter()
            .map(|y| {
                base.iter()
                    .map(|x| {
                        kin.rates
                            .get(x)
                            .map(|r| r.diff(y).expand())
                            .unwrap_or_else(Expr::zero)
                    })
                    .collect()
            })
            .collect();
        let mut anchor0 = vec![Expr::zero(); base.len()];
        anchor0[0] = Expr::one();
        let mut c = vec![vec![vec![Expr::zero(); n]; n]; n];
        for joint in &mb.joints {
            let s = &joint.sections;
            let (linear, angular) = match joint.kind {
                JointKind::Spherical => (None, &s[..]),
                JointKind::Free => (Some(&s[..3]), &s[3..]),
                _ => continue,
            };
            for a in 0..3 {
                let (b, d) = ((a + 1) % 3, (a + 2) % 3);
                // [ω_a, ω_b] = ω_d and [ω_a, v_b] = v_d for (a, b, d) cyclic.
                c[angular[a]][angular[b]][angular[d]] = Expr::one();
                c[angular[b]][angular[a]][angular[d]] = -Expr::one();
                if let Some(v) = linear {
                    c[angular[a]][v[b]][v[d]] = Expr::one();
                    c[v[b]][angular[a]][v[d]] = -Expr::one();
                    c[angular[b]][v[a]][v[d]] = -Expr::one();
                    c[v[a]][angular[b]][v[d]] = Expr::one();
                }
            }
        }
        let tangent = self.scope.tangent;
        let top = self.of_kind(NameKind::Momentum);
        let names = if top.len() == n {
            top
        } else {
            (1..=n).map(|a| format!("p{a}")).collect()
        };
        let momenta = self.default_momenta(names, span);
        Algebroid {
            kind: if tangent {
                AlgebroidKind::Tangent
            } else {
                AlgebroidKind::Explicit
            },
            sections: if tangent {
                self.coordinates.clone()
            } else {
                (1..=n).map(|a| format!("e{a}")).collect()
            },
            velocities,
            momenta,
            anchor0,
            anchors,
            c0: vec![vec![Expr::zero(); n]; n],
            c,
            structure: Default::default(),
        }
    }

    /// The contacts' constraints, as if written in `constraints nonholonomic { … }`, after
    /// `written` (the spec's own): a row that depends on earlier ones (two wheels on one axle
    /// share their lateral row) is left out. Then, as if written in `constraints holonomic`,
    /// the height of each rolling contact's lowest point where the joints do not already keep
    /// it on the ground (a second wheel of a vehicle whose first wheel's contact is its origin).
    pub(super) fn contact_constraints(
        &mut self,
        mb: &Multibody,
        kin: &Kinematics,
        velocities: &[Handle],
        written: &[RawConstraint],
    ) -> Vec<RawConstraint> {
        let keys = self.scope.symbols.keys(velocities);
        let row = |value: &Expr| -> Vec<Expr> { keys.iter().map(|y| value.diff(y)).collect() };
        let mut rows: Vec<Vec<Expr>> = written
            .iter()
            .filter(|c| !c.holonomic)
            .map(|c| row(&c.value))
            .collect();
        let mut out = Vec::new();
        for contact in &mb.contacts {
            for value in kin.contact_constraints(&contact.kind, contact.body) {
                rows.push(row(&value));
                // The quick test at random points proves independence without eliminating the
                // contact rows (each a page of trigonometric terms) symbolically.
                if cas::first_dependent_row(&rows).is_some() {
                    rows.pop();
                    continue;
                }
                out.push(RawConstraint {
                    value,
                    alone: None,
                    span: contact.span,
                    holonomic: false,
                });
            }
        }
        out.extend(mb.contacts.iter().filter_map(|contact| {
            let height = kin.contact_height(&contact.kind, contact.body)?;
            (!height.vanishes()).then(|| RawConstraint {
                value: height.contract_trig(),
                alone: None,
                span: contact.span,
                holonomic: true,
            })
        }));
        out
    }
}
