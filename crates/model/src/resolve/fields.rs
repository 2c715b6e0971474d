//! Reading the fields of `body`, `joint` and `contact` blocks: which keys a block takes, names,
//! scalars and vectors of constants (E0272, E0273, E0276).

use diagnostic::Code;
use std::collections::BTreeMap;

use cas::Expr;
use diagnostic::Diagnostic;
use syntax::ast::{Expr as Ast, ExprKind, Field, FieldValue, Ident, Span};

use super::Resolver;
use crate::multibody::{Mat3, Vec3};
use crate::scope::{NameKind, ScopeKind};

pub(super) fn field<'f>(fields: &'f [Field], key: &str) -> Option<&'f Field> {
    fields.iter().find(|f| f.key.name == key)
}

/// The names a field lists: one name, or a vector of names.
pub(super) fn names_of(value: &FieldValue) -> Option<Vec<Ident>> {
    let name = |e: &Ast| match &e.kind {
        ExprKind::Name(n) => Some(Ident {
            name: n.clone(),
            span: e.span,
        }),
        _ => None,
    };
    match value {
        FieldValue::Scalar(e) => Some(vec![name(e)?]),
        FieldValue::Vector(list, _) => list.iter().map(name).collect(),
    }
}

/// The keys each kind of block takes, required ones first.
pub(super) fn keys(what: &str) -> (&'static [&'static str], &'static [&'static str]) {
    match what {
        "body" => (&["mass"], &["center", "inertia"]),
        "revolute" | "prismatic" => (
            &["parent", "child"],
            &[
                "at",
                "frame_axis",
                "frame_angle",
                "frame_matrix",
                "frame_quaternion",
                "axis",
                "velocity",
                "force",
            ],
        ),
        "planar" => (
            &["parent", "child"],
            &[
                "at",
                "frame_axis",
                "frame_angle",
                "frame_matrix",
                "frame_quaternion",
                "coordinates",
                "velocities",
                "force",
            ],
        ),
        "spherical" => (
            &["parent", "child", "quaternion", "velocities"],
            &[
                "at",
                "frame_axis",
                "frame_angle",
                "frame_matrix",
                "frame_quaternion",
                "torque",
            ],
        ),
        "free" => (
            &["parent", "child", "position", "quaternion", "velocities"],
            &[
                "at",
                "frame_axis",
                "frame_angle",
                "frame_matrix",
                "frame_quaternion",
                "force",
                "torque",
            ],
        ),
        "fixed" => (
            &["parent", "child"],
            &[
                "at",
                "frame_axis",
                "frame_angle",
                "frame_matrix",
                "frame_quaternion",
            ],
        ),
        "rolling" => (&["body", "radius"], &["axis", "tyre_radius"]),
        "knife_edge" => (&["body"], &["at", "direction"]),
        _ => (&[], &[]),
    }
}

pub(super) fn unknown_kind(kind: &Ident, what: &str, known: &str) -> Diagnostic {
    Diagnostic::error(
        Code::E0271,
        format!("unknown {what} kind `{}`", kind.name),
        kind.span,
        format!("not a {what} kind"),
    )
    .with_note(format!("the {what} kinds are {known}"))
}

pub(super) fn wrong_length(at: Span, n: usize, what: &str) -> Diagnostic {
    let expected = if n == 1 {
        "expected one value, not a list".to_string()
    } else {
        format!("expected {n} {what}")
    };
    Diagnostic::error(Code::E0273, "a value of the wrong shape", at, expected)
}

impl Resolver {
    pub(super) fn check_keys(&mut self, what: &str, described: &str, fields: &[Field], span: Span) {
        let (required, optional) = keys(what);
        let mut seen: BTreeMap<&str, Span> = BTreeMap::new();
        for f in fields {
            let key = f.key.name.as_str();
            if !required.contains(&key) && !optional.contains(&key) {
                let all: Vec<String> = required
                    .iter()
                    .chain(optional)
                    .map(|k| format!("`{k}`"))
                    .collect();
                self.errors.push(
                    Diagnostic::error(
                        Code::E0272,
                        format!("{described} has no key `{key}`"),
                        f.key.span,
                        "unknown key",
                    )
                    .with_note(format!("its keys are {}", all.join(", "))),
                );
            } else if let Some(first) = seen.insert(key, f.key.span) {
                self.errors.push(
                    Diagnostic::error(
                        Code::E0272,
                        format!("`{key}` is given twice"),
                        f.key.span,
                        "given again here",
                    )
                    .with_secondary(first, "first given here"),
                );
            }
        }
        for key in required {
            if !fields.iter().any(|f| f.key.name == *key) {
                self.errors.push(
                    Diagnostic::error(
                        Code::E0272,
                        format!("{described} needs `{key}`"),
                        span,
                        format!("no `{key}` line in this block"),
                    )
                    .with_help(format!("add `{key} = …`")),
                );
            }
        }
    }

    pub(super) fn listed_names(
        &mut self,
        fields: &[Field],
        keys: &[&str],
    ) -> Option<(Vec<Ident>, Span)> {
        let f = keys.iter().find_map(|k| field(fields, k))?;
        match names_of(&f.value) {
            Some(names) => Some((names, f.value.span())),
            None => {
                self.errors.push(
                    Diagnostic::error(
                        Code::E0273,
                        format!("`{}` takes names", f.key.name),
                        f.value.span(),
                        "not a name or a list of names",
                    )
                    .with_help(format!("write `{} = (a, b, c)`", f.key.name)),
                );
                None
            }
        }
    }

    /// `inertia = (Ixx, Iyy, Izz)` or `(Ixx, Iyy, Izz, Ixy, Iyz, Ixz)`.
    pub(super) fn inertia(&mut self, fields: &[Field]) -> Option<Mat3> {
        let f = field(fields, "inertia")?;
        let FieldValue::Vector(list, at) = &f.value else {
            self.errors.push(wrong_length(
                f.value.span(),
                3,
                "moments (or six entries with the products)",
            ));
            return None;
        };
        if list.len() != 3 && list.len() != 6 {
            self.errors.push(wrong_length(
                *at,
                3,
                "moments (or six entries with the products)",
            ));
            return None;
        }
        let v: Vec<Expr> = list
            .iter()
            .map(|e| self.constant(e))
            .collect::<Option<_>>()?;
        let off = |k: usize| v.get(k).cloned().unwrap_or_else(Expr::zero);
        Some([
            [v[0].clone(), off(3), off(5)],
            [off(3), v[1].clone(), off(4)],
            [off(5), off(4), v[2].clone()],
        ])
    }

    pub(super) fn scalar(&mut self, fields: &[Field], key: &str) -> Option<Expr> {
        let f = field(fields, key)?;
        match &f.value {
            FieldValue::Scalar(e) => self.constant(e),
            FieldValue::Vector(_, at) => {
                self.errors.push(wrong_length(*at, 1, "value"));
                None
            }
        }
    }

    pub(super) fn vector(&mut self, fields: &[Field], key: &str, n: usize) -> Option<Vec3> {
        let f = field(fields, key)?;
        match &f.value {
            FieldValue::Vector(list, at) => self.vector_of(list, *at, n, key),
            FieldValue::Scalar(e) => {
                self.errors.push(wrong_length(e.span, n, "components"));
                None
            }
        }
    }

    /// The `n` components of `key`, each an expression of the parameters.
    pub(super) fn constants(&mut self, fields: &[Field], key: &str, n: usize) -> Option<Vec<Expr>> {
        let f = field(fields, key)?;
        let FieldValue::Vector(list, at) = &f.value else {
            self.errors
                .push(wrong_length(f.value.span(), n, "components"));
            return None;
        };
        if list.len() != n {
            self.errors.push(wrong_length(*at, n, "components"));
            return None;
        }
        list.iter().map(|e| self.constant(e)).collect()
    }

    pub(super) fn vector_of(
        &mut self,
        list: &[Ast],
        at: Span,
        n: usize,
        _key: &str,
    ) -> Option<Vec3> {
        if list.len() != n {
            self.errors.push(wrong_length(at, n, "components"));
            return None;
        }
        let v: Vec<Expr> = list
            .iter()
            .map(|e| self.constant(e))
            .collect::<Option<_>>()?;
        Some([v[0].clone(), v[1].clone(), v[2].clone()])
    }

    /// An expression of the parameters only (E0276 otherwise).
    pub(super) fn constant(&mut self, e: &Ast) -> Option<Expr> {
        let value = match self.scope.convert(e, ScopeKind::Observable) {
            Ok(v) => v,
            Err(d) => {
                self.errors.extend(d);
                return None;
            }
        };
        let parameter = |s: &String| {
            s == cas::PI_NAME
                || matches!(
                    self.scope.names.get(s.as_str()),
                    Some((NameKind::Parameter, _))
                )
        };
        if let Some(other) = value.symbols().iter().find(|s| !parameter(s)) {
            self.errors.push(
                Diagnostic::error(Code::E0276, "a body's or joint's geometry is a constant", e.span, format!("depends on `{}`", self.scope.symbols.declared_name(self.scope.symbols.handle(other))))
                    .with_note("masses, centres, inertias, joint points, axes and radii are numbers or parameters; forces may depend on the state"),
            );
            return None;
        }
        Some(value)
    }
}
