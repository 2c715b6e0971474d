//! [GLMM09] §4–§5: the nonholonomic algebroid `(D, ε_P)` of a mechanical Lagrangian and its
//! bracket on `D*`.
//!
//! For `L = ½ G(y, y) − V(x)` (no term linear in the velocities) on a Lie algebroid `E` with linear
//! constraints `D ⊂ E`, the `G`-orthogonal projection `P: E → D` turns `D` into a skew algebroid
//! with `[X, Y]_P = P[X, Y]_E` (4.6) and the anchor of `E` (Theorem 5.1: its unconstrained
//! dynamics is the nonholonomic one). In the frame `X_a` of `D` — the sections of the system's
//! frame along `C` ([`model::frame`]) — with `G_ab = G(X_a, X_b)` (a form of the structure
//! functions that needs no complement and no Gram–Schmidt):
//!
//! `𝒞^c_ab = G^{cd} G(X_d, [X_a, X_b]_E)`, `ρ_D(X_a) = ρ(X_a)`.
//!
//! Its bracket on `D*` (§4, after (4.6)), in our sign (`{q, p} = +1`; the paper's
//! `{ξ_b, x^j} = ρ^j_b` is our `{x^j, ξ_b} = ρ^j_b`), on the coordinates `(x^i, ξ_a)`,
//! `ξ_a = ⟨p, X_a⟩`:
//!
//! `{x^i, x^j} = 0`, `{x^i, ξ_a} = ρ^i_a`, `{ξ_a, ξ_b} = −𝒞^c_ab ξ_c`,
//!
//! and with `H_D = ½ G^{ab} ξ_a ξ_b + V` the motion is `ḟ = {f, H_D} + F_b ∂f/∂ξ_b`, with the
//! forces `F_b = ⟨F, X_b⟩` (our extension). This is a second route to the Dirac side's bracket on
//! `S` ([`crate::hamilton::dirac`]): the two are built differently (a metric projection here; a
//! completion of the frame and the solution of (27) there) and proved equal on every golden.
//!
//! # The induced Lagrangian route (Theorem 5.1, (2.7))
//!
//! On `D` with fibre coordinates `v^a` (`y = v^a X_a`), the restricted Lagrangian
//! `l(x, v) = L(x, v^a X_a)` has the *unconstrained* algebroid Euler–Lagrange equations of
//! `(D, ε_P)`: `ẋ^i = ρ^i_a v^a` and
//! `d/dt ∂l/∂v^b = 𝒞^c_ab v^a ∂l/∂v^c + ρ^i_b ∂l/∂x^i + F_b`,
//! solved as `G_D v̇ = 𝒞^c_ab v^a ∂l/∂v^c + ρ_b(l) + F_b − ∂²l/∂v^b∂x^i ẋ^i − ∂_t ∂l/∂v^b`.
//! These are the nonholonomic equations without multipliers — the second route to them, proved
//! equal to Lagrange–d'Alembert on every golden where it applies.
//!
//! # Noether (§5, (5.3)–(5.6), Theorem 5.3)
//!
//! For a declared `(X, f)` with `X = f^a(x) X_a` and `f(x)`, the defect
//! `S = d_T(X)(l) − d_T(f)` with `d_T(X)(l) = f^a ρ_a(l) + (v^a ρ_a(f^c) + 𝒞^c_ab v^a f^b) ∂l/∂v^c`
//! and `d_T(f) = v^a ρ_a(f)` splits by degree in `v` into the Killing (2), potential (0) and
//! gauge (1) conditions. When `S ≡ 0`, `F = f^a ∂l/∂v^a − f` is a first integral; otherwise
//! `d/dt (f^a ∂l/∂v^a) = d_T(X)(l)` is the momentum equation (5.6).

use cas::Expr;
use model::System;

use crate::lagrange::lagrangian::Regular;

/// Why the projected structure could not be derived.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unavailable {
    /// The Dirac side's reason (no adapted frame, an affgebroid): the frame and the Lie
    /// algebroid are needed here too.
    Frame(String),
    /// `L` has terms linear in the velocities or is not quadratic: not mechanical.
    NotMechanical,
    /// `G_D` is singular; its determinant.
    Singular(String),
    /// The frame of `D` and `G_D⁻¹` have this many nodes, above [`MAX_SIZE`].
    Large(usize),
    /// An entry past the frame (structure constants, equations, table, Jacobiators) passed the
    /// size budget (`--max-terms`); the deadline is reported by the caller, as E0503.
    Swelled,
}

/// The largest frame of `D` plus `G_D⁻¹` (total nodes) for which the projected structure and the
/// induced route are derived. The snakeboard in its paper's frame: 255 nodes; in the frame
/// computed from its constraints: 1433, for which they took about a minute.
pub const MAX_SIZE: usize = 800;

impl std::fmt::Display for Unavailable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Unavailable::Frame(why) => f.write_str(why),
            Unavailable::NotMechanical => f.write_str(
                "L is not mechanical (½ G(y, y) − V): the projected structure of [GLMM09] §5 needs a metric and no gyroscopic terms",
            ),
            Unavailable::Singular(det) => write!(f, "the metric on D is singular: det G_D = {det}"),
            // Not the count itself: the size of a form depends on the order in which the process
            // created its symbols (what it derived before), and outputs must not.
            Unavailable::Large(_) => write!(
                f,
                "the frame of D and the inverse metric have more than {MAX_SIZE} nodes: declare a simpler `frame`"
            ),
            Unavailable::Swelled => f.write_str(
                "an entry of the projected structure passed the size budget (--max-terms): declare a simpler `frame`",
            ),
        }
    }
}

/// The nonholonomic algebroid `(D, ε_P)` and its bracket on `D*`.
#[derive(Clone, Debug)]
pub struct Projected {
    /// `ξ_a`, the momenta of the sections along `C`.
    pub momenta: Vec<String>,
    /// `p_B`, the algebroid's momenta (the components of a section of `E` pair with them).
    pub algebroid_momenta: Vec<String>,
    /// `G_ab = G(X_a, X_b)`.
    pub metric: Vec<Vec<Expr>>,
    /// `ρ^i(X_a)` as `anchors[a][i]` over the coordinates.
    pub anchors: Vec<Vec<Expr>>,
    /// `𝒞^c_ab` as `structure[a][b][c]`.
    pub structure: Vec<Vec<Vec<Expr>>>,
    /// `H_D(x, ξ)`.
    pub hamiltonian: Expr,
    /// `F_b = ⟨F, X_b⟩` as functions of `(x, ξ)`.
    pub forces: Vec<Expr>,
    /// The coordinates of `D*`: base coordinates, then the `ξ_a`.
    pub coordinates: Vec<String>,
    /// `ḟ` of each coordinate.
    pub rates: Vec<Expr>,
    /// `{c_i, c_j}` for `i < j` over `coordinates`.
    pub table: Vec<(usize, usize, Expr)>,
    /// `J(c_i, c_j, c_k)` for `i < j < k`.
    pub jacobiators: Vec<(usize, usize, usize, Expr)>,
    /// `X_a` by components on the algebroid's sections `e_B`.
    pub sections: Vec<Vec<Expr>>,
    /// `G_D⁻¹`.
    pub metric_inverse: Vec<Vec<Expr>>,
    /// Whether `(D, ε_P)` is Lie: its curvature, anchor defect and section Jacobiator.
    pub lie: crate::hamilton::lie::Lie,
    /// The induced Lagrangian route.
    pub induced: Induced,
    /// The declared symmetries, tested.
    pub noether: Vec<Noether>,
}

/// The Noether test of one declared symmetry.
#[derive(Clone, Debug)]
pub struct Noether {
    /// The symmetry's name.
    pub name: String,
    /// The degree-2 part of the defect `S` (Killing condition).
    pub killing: Expr,
    /// The degree-0 part (potential condition `ρ(X)(V) = 0`).
    pub potential: Expr,
    /// The degree-1 part (gauge condition).
    pub gauge: Expr,
    /// `f^a ∂l/∂v^a − f`: a first integral when the three parts vanish.
    pub integral: Expr,
    /// Whether `S ≡ 0`.
    pub holds: bool,
}

/// The unconstrained dynamics of the restricted Lagrangian on `(D, ε_P)`.
#[derive(Clone, Debug)]
pub struct Induced {
    /// The fibre coordinates `v^a` of `D`.
    pub velocities: Vec<String>,
    /// `y^B = v^a X_a^B`: the algebroid velocities on `D`.
    pub on_d: std::collections::BTreeMap<String, Expr>,
    /// `l(x, v)`.
    pub lagrangian: Expr,
    /// `∂l/∂v^a`.
    pub momenta: Vec<Expr>,
    /// `E_l = v^a ∂l/∂v^a − l`.
    pub energy: Expr,
    /// The state: base coordinates, then the `v^a`.
    pub state: Vec<String>,
    /// `ẋ^i`, then `v̇^a`.
    pub rates: Vec<Expr>,
}

/// Derives the projected structure of a closed-form derivation (see the module documentation).
///
/// `allows` guards the entries past the frame that swell (see [`Expr::simplify_within`]): the
/// structure constants, `H_D`, the forces, the induced equations, the table and its Jacobiators
/// (not the Lie test or the Noether test).
pub fn derive(d: Regular<'_>, allows: &dyn Fn(&Expr) -> bool) -> Result<Projected, Unavailable> {
    let system = d.system;
    let simplify = |e: Expr| e.simplify_within(allows).ok_or(Unavailable::Swelled);
    if system.constraints.is_empty() {
        return Err(Unavailable::Frame(
            crate::hamilton::dirac::Unavailable::Unconstrained.to_string(),
        ));
    }
    let frame =
        crate::hamilton::dirac::structure(system).map_err(|e| Unavailable::Frame(e.to_string()))?;
    let velocities = &system.keys(&system.algebroid.velocities);
    let form = system
        .lagrangian
        .quadratic_form(velocities)
        .ok_or(Unavailable::NotMechanical)?;
    if !form.linear.iter().all(Expr::is_zero) {
        return Err(Unavailable::NotMechanical);
    }
    let w = &d.lagrangian.hessian;
    let n = system.rank();
    let sections: Vec<&Vec<Expr>> = frame.along.iter().map(|&a| &frame.frame[a]).collect();
    let k = sections.len();
    let pairing = |x: &[Expr], y: &[Expr]| -> Expr {
        let mut total = Expr::zero();
        for a in 0..n {
            for b in 0..n {
                total = total + x[a].clone() * w[a][b].clone() * y[b].clone();
            }
        }
        total
    };
    let metric: Vec<Vec<Expr>> = sections
        .iter()
        .map(|x| sections.iter().map(|y| pairing(x, y).simplify()).collect())
        .collect();
    let det = cas::det(&metric).simplify();
    if det.vanishes() {
        return Err(Unavailable::Singular(det.to_string()));
    }
    let inverse = cas::inverse(&metric).map_err(|_| Unavailable::Singular(det.to_string()))?;
    let sections_size: usize = sections
        .iter()
        .map(|x| x.iter().map(Expr::size).sum::<usize>())
        .sum();
    let size = sections_size + inverse.iter().flatten().map(Expr::size).sum::<usize>();
    if size > MAX_SIZE {
        return Err(Unavailable::Large(size));
    }
    let mut structure = vec![vec![vec![Expr::zero(); k]; k]; k];
    for a in 0..k {
        for b in a + 1..k {
            let z = crate::hamilton::dirac::bracket_on_basis(system, sections[a], sections[b]);
            let projections: Vec<Expr> = sections.iter().map(|x| pairing(x, &z)).collect();
            for c in 0..k {
                let value = simplify((0..k).fold(Expr::zero(), |acc, e| {
                    acc + inverse[c][e].clone() * projections[e].clone()
                }))?;
                structure[b][a][c] = (-value.clone()).simplify();
                structure[a][b][c] = value;
            }
        }
    }
    let momenta: Vec<String> = frame
        .along
        .iter()
        .map(|&a| frame.momenta[a].clone())
        .collect();
    let xi = |a: usize| Expr::symbol(&momenta[a]);
    let kinetic = (0..k).fold(Expr::zero(), |acc, a| {
        (0..k).fold(acc, |acc, b| acc + inverse[a][b].clone() * xi(a) * xi(b))
    });
    let hamiltonian = simplify(kinetic * Expr::rational(1, 2) - form.constant.clone())?;
    // y = X_a v^a with v = G_D⁻¹ ξ.
    let speeds: Vec<Expr> = (0..k)
        .map(|a| (0..k).fold(Expr::zero(), |acc, b| acc + inverse[a][b].clone() * xi(b)))
        .collect();
    let to_d: std::collections::BTreeMap<String, Expr> = velocities
        .iter()
        .enumerate()
        .map(|(c, y)| {
            let value = (0..k).fold(Expr::zero(), |acc, a| {
                acc + sections[a][c].clone() * speeds[a].clone()
            });
            (y.clone(), value)
        })
        .collect();
    let forces: Vec<Expr> = sections
        .iter()
        .map(|x| {
            simplify(
                x.iter()
                    .zip(&system.forces)
                    .fold(Expr::zero(), |acc, (t, f)| acc + t.clone() * f.clone())
                    .subs(&to_d),
            )
        })
        .collect::<Result<_, _>>()?;
    let anchors: Vec<Vec<Expr>> = frame
        .along
        .iter()
        .map(|&a| frame.anchors[a].clone())
        .collect();
    let induced = induced(d, &sections, &anchors, &structure, &inverse, allows)?;
    let lie = crate::hamilton::lie::derive(&crate::hamilton::lie::Projection {
        system,
        metric: w,
        sections: &sections.iter().map(|x| (*x).clone()).collect::<Vec<_>>(),
        metric_inverse: &inverse,
        anchors: &anchors,
        structure: &structure,
    });
    let mut coordinates = system.keys(&system.coordinates);
    coordinates.extend(momenta.iter().cloned());
    let mut out = Projected {
        momenta,
        algebroid_momenta: system.keys(&system.algebroid.momenta),
        metric,
        anchors,
        structure,
        hamiltonian,
        forces,
        coordinates,
        rates: Vec::new(),
        table: Vec::new(),
        jacobiators: Vec::new(),
        sections: sections.iter().map(|x| (*x).clone()).collect(),
        metric_inverse: inverse,
        lie,
        induced,
        noether: Vec::new(),
    };
    out.noether = system
        .symmetries
        .iter()
        .map(|s| noether(system, &out, s))
        .collect();
    out.rates = out
        .coordinates
        .iter()
        .map(|c| out.dynamics_within(system, &Expr::symbol(c), allows))
        .collect::<Option<_>>()
        .ok_or(Unavailable::Swelled)?;
    let symbols: Vec<Expr> = out.coordinates.iter().map(|s| Expr::symbol(s)).collect();
    let m = symbols.len();
    for i in 0..m {
        for j in i + 1..m {
            let value = out.bracket_within(system, &symbols[i], &symbols[j], allows);
            out.table.push((i, j, value.ok_or(Unavailable::Swelled)?));
            for l in j + 1..m {
                let value =
                    out.jacobiator_within(system, &symbols[i], &symbols[j], &symbols[l], allows);
                out.jacobiators
                    .push((i, j, l, value.ok_or(Unavailable::Swelled)?));
            }
        }
    }
    Ok(out)
}

/// The induced Lagrangian route (see the module documentation).
fn induced(
    d: Regular<'_>,
    sections: &[&Vec<Expr>],
    anchors: &[Vec<Expr>],
    structure: &[Vec<Vec<Expr>>],
    metric_inverse: &[Vec<Expr>],
    allows: &dyn Fn(&Expr) -> bool,
) -> Result<Induced, Unavailable> {
    let system = d.system;
    let frame = system.frame.as_ref().ok_or_else(|| {
        Unavailable::Frame(crate::hamilton::dirac::Unavailable::NotLinear.to_string())
    })?;
    let velocities = system.keys(&frame.velocities);
    let k = velocities.len();
    let v = |a: usize| system.expr(frame.velocities[a]);
    let on_d: std::collections::BTreeMap<String, Expr> = system
        .keys(&system.algebroid.velocities)
        .into_iter()
        .enumerate()
        .map(|(c, y)| {
            let value = (0..k).fold(Expr::zero(), |acc, a| acc + v(a) * sections[a][c].clone());
            (y, value)
        })
        .collect();
    let lagrangian = system.lagrangian.subs(&on_d).simplify();
    let momenta: Vec<Expr> = velocities
        .iter()
        .map(|name| lagrangian.diff(name).simplify())
        .collect();
    let energy = (momenta
        .iter()
        .enumerate()
        .fold(Expr::zero(), |acc, (a, p)| acc + v(a) * p.clone())
        - lagrangian.clone())
    .simplify();
    let coordinate_rates: Vec<Expr> = (0..system.coordinates.len())
        .map(|i| {
            (0..k)
                .fold(Expr::zero(), |acc, a| acc + anchors[a][i].clone() * v(a))
                .simplify()
        })
        .collect();
    let base = |f: &Expr| system.along(&system.coordinates, &coordinate_rates, f);
    let forcing: Vec<Expr> = (0..k)
        .map(|b| {
            let force = sections[b]
                .iter()
                .zip(&system.forces)
                .fold(Expr::zero(), |acc, (t, f)| acc + t.clone() * f.clone())
                .subs(&on_d);
            let anchor = system
                .keys(&system.coordinates)
                .iter()
                .zip(&anchors[b])
                .fold(Expr::zero(), |acc, (q, rho)| {
                    acc + rho.clone() * lagrangian.diff(q)
                });
            let bracket = (0..k).fold(Expr::zero(), |acc, a| {
                (0..k).fold(acc, |acc, c| {
                    acc + structure[a][b][c].clone() * v(a) * momenta[c].clone()
                })
            });
            force + anchor + bracket - base(&momenta[b])
        })
        .collect();
    let accelerations: Vec<Expr> = (0..k)
        .map(|a| {
            (0..k)
                .fold(Expr::zero(), |acc, b| {
                    acc + metric_inverse[a][b].clone() * forcing[b].clone()
                })
                .simplify_within(allows)
                .ok_or(Unavailable::Swelled)
        })
        .collect::<Result<_, _>>()?;
    let mut state = system.keys(&system.coordinates);
    state.extend(velocities.iter().cloned());
    Ok(Induced {
        velocities,
        on_d,
        lagrangian,
        momenta,
        energy,
        state,
        rates: coordinate_rates.into_iter().chain(accelerations).collect(),
    })
}

/// The Noether test of `symmetry` on `(D, ε_P)` (see the module documentation).
fn noether(system: &System, p: &Projected, symmetry: &model::Symmetry) -> Noether {
    let induced = &p.induced;
    let k = induced.velocities.len();
    let v = |a: usize| Expr::symbol(&induced.velocities[a]);
    let l = &induced.lagrangian;
    let rho = |a: usize, f: &Expr| -> Expr {
        system
            .keys(&system.coordinates)
            .iter()
            .zip(&p.anchors[a])
            .fold(Expr::zero(), |acc, (q, r)| acc + r.clone() * f.diff(q))
    };
    let f = &symmetry.components;
    let mut d_x = (0..k).fold(Expr::zero(), |acc, a| acc + f[a].clone() * rho(a, l));
    for c in 0..k {
        let mut vertical = Expr::zero();
        for a in 0..k {
            vertical = vertical + v(a) * rho(a, &f[c]);
            for (b, fb) in f.iter().enumerate() {
                vertical = vertical + p.structure[a][b][c].clone() * v(a) * fb.clone();
            }
        }
        d_x = d_x + vertical * induced.momenta[c].clone();
    }
    let d_f = (0..k).fold(Expr::zero(), |acc, a| acc + v(a) * rho(a, &symmetry.gauge));
    let defect = (d_x - d_f).simplify();
    let (killing, potential, gauge) = match defect.quadratic_form(&induced.velocities) {
        Some(form) => {
            let quadratic = (0..k).fold(Expr::zero(), |acc, a| {
                (a..k).fold(acc, |acc, b| {
                    acc + form.quadratic[a][b].clone() * v(a) * v(b)
                })
            });
            let linear = (0..k).fold(Expr::zero(), |acc, a| acc + form.linear[a].clone() * v(a));
            (
                quadratic.simplify(),
                form.constant.simplify(),
                linear.simplify(),
            )
        }
        None => (defect.clone(), Expr::zero(), Expr::zero()),
    };
    let integral = ((0..k).fold(Expr::zero(), |acc, a| {
        acc + f[a].clone() * induced.momenta[a].clone()
    }) - symmetry.gauge.clone())
    .simplify();
    Noether {
        name: symmetry.name.clone(),
        holds: defect.vanishes(),
        killing,
        potential,
        gauge,
        integral,
    }
}

impl Projected {
    /// The pieces of `(D, ε_P)` in `d` (whose Hessian is the metric), for [`crate::hamilton::lie`].
    pub fn projection<'a>(&'a self, d: Regular<'a>) -> crate::hamilton::lie::Projection<'a> {
        crate::hamilton::lie::Projection {
            system: d.system,
            metric: &d.lagrangian.hessian,
            sections: &self.sections,
            metric_inverse: &self.metric_inverse,
            anchors: &self.anchors,
            structure: &self.structure,
        }
    }

    /// `{f, g}` on `D*`.
    pub fn bracket(&self, system: &System, f: &Expr, g: &Expr) -> Expr {
        self.bracket_raw(system, f, g).simplify()
    }

    /// `{f, g}` on `D*` under `allows` (size, deadline; see [`Expr::simplify_within`]).
    fn bracket_within(
        &self,
        system: &System,
        f: &Expr,
        g: &Expr,
        allows: &dyn Fn(&Expr) -> bool,
    ) -> Option<Expr> {
        self.bracket_raw(system, f, g).simplify_within(allows)
    }

    /// `{f, g}` on `D*`, not simplified.
    fn bracket_raw(&self, system: &System, f: &Expr, g: &Expr) -> Expr {
        let k = self.momenta.len();
        let fx: Vec<Expr> = self.momenta.iter().map(|x| f.diff(x)).collect();
        let gx: Vec<Expr> = self.momenta.iter().map(|x| g.diff(x)).collect();
        let mut total = Expr::zero();
        for a in 0..k {
            for (i, q) in system.keys(&system.coordinates).iter().enumerate() {
                let rho = &self.anchors[a][i];
                if rho.is_zero() {
                    continue;
                }
                total =
                    total + rho.clone() * (f.diff(q) * gx[a].clone() - fx[a].clone() * g.diff(q));
            }
            for (b, gb) in gx.iter().enumerate() {
                if fx[a].is_zero() || gb.is_zero() {
                    continue;
                }
                let c = (0..k).fold(Expr::zero(), |acc, c| {
                    acc + self.structure[a][b][c].clone() * Expr::symbol(&self.momenta[c])
                });
                total = total - c * fx[a].clone() * gb.clone();
            }
        }
        total
    }

    /// `ḟ = {f, H_D} + F_b ∂f/∂ξ_b`.
    pub fn dynamics(&self, system: &System, f: &Expr) -> Expr {
        self.dynamics_within(system, f, &|_| true)
            .expect("an unbounded guard refuses nothing")
    }

    /// `ḟ` under `allows` (size, deadline; see [`Expr::simplify_within`]).
    fn dynamics_within(
        &self,
        system: &System,
        f: &Expr,
        allows: &dyn Fn(&Expr) -> bool,
    ) -> Option<Expr> {
        let forced = self
            .momenta
            .iter()
            .zip(&self.forces)
            .fold(Expr::zero(), |acc, (x, force)| {
                acc + force.clone() * f.diff(x)
            });
        (self.bracket_raw(system, f, &self.hamiltonian) + forced).simplify_within(allows)
    }

    /// `J(f, g, h)`.
    pub fn jacobiator(&self, system: &System, f: &Expr, g: &Expr, h: &Expr) -> Expr {
        self.jacobiator_within(system, f, g, h, &|_| true)
            .expect("an unbounded guard refuses nothing")
    }

    /// `J(f, g, h)` under `allows`, each inner bracket simplified before the outer one is taken.
    fn jacobiator_within(
        &self,
        system: &System,
        f: &Expr,
        g: &Expr,
        h: &Expr,
        allows: &dyn Fn(&Expr) -> bool,
    ) -> Option<Expr> {
        let mut sum = Expr::zero();
        for (a, b, c) in [(f, g, h), (g, h, f), (h, f, g)] {
            let inner = self.bracket_within(system, b, c, allows)?;
            sum = sum + self.bracket_within(system, a, &inner, allows)?;
        }
        sum.simplify_within(allows)
    }
}
