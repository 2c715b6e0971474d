//! [IMMS07] §II.4–§II.5: the calculus of a Lie affgebroid and of its dual that every formalism
//! shares.
//!
//! - the anchor applied to a function, `ρ_A(f) = ρ^i_A ∂_i f` for `A = 0` (`e_0`) or a section
//!   `e_α`, and along the admissible velocity `ρ_0 + y^γ ρ_γ`;
//! - the phase space `V*` with coordinates `(x^i, p_α)`: its linear Poisson bracket
//!   `{f, g} = ρ^i_α (∂_i f ∂g/∂p_α − ∂f/∂p_α ∂_i g) − C^γ_αβ p_γ ∂f/∂p_α ∂g/∂p_β` and the
//!   Hamiltonian vector field of a section `h` (§II.5),
//!   `X_h(f) = ρ^i_0 ∂_i f + C^γ_0α p_γ ∂f/∂p_α + {f, H}`, plus `F_α ∂f/∂p_α` for the forces.

use cas::Expr;
use model::symbols::Handle;
use model::System;

/// `ρ_A(f) = ρ^i_A ∂_i f` for `A = 0` (`e_0`) or `A = α + 1`.
pub fn anchor_apply(system: &System, a: usize, f: &Expr) -> Expr {
    let alg = &system.algebroid;
    let field = if a == 0 {
        &alg.anchor0
    } else {
        &alg.anchors[a - 1]
    };
    system.apply_base_field(field, f)
}

/// `(ρ_0 + y^γ ρ_γ)(f)`: the base part of the derivative of `f` along a SODE.
pub fn admissible_apply(system: &System, f: &Expr) -> Expr {
    system.apply_base_field(&system.admissible_velocity(), f)
}

/// The phase space `V*` of a system: brackets and vector fields on functions of `(x, p)`.
pub struct Phase<'a> {
    system: &'a System,
    momenta: Vec<Handle>,
    hamiltonian: Expr,
    forces: Vec<Expr>,
}

impl<'a> Phase<'a> {
    /// The phase space of `system` with Hamiltonian `h` and forces `forces` (functions of
    /// `(x, p)`).
    pub fn new(system: &'a System, h: Expr, forces: Vec<Expr>) -> Phase<'a> {
        Phase {
            system,
            momenta: system.algebroid.momenta.clone(),
            hamiltonian: h,
            forces,
        }
    }

    fn p(&self, a: usize) -> Expr {
        self.system.expr(self.momenta[a])
    }

    fn dp(&self, f: &Expr, a: usize) -> Expr {
        f.diff(&self.system.key(self.momenta[a]))
    }

    /// `ρ_A(f)` for `A = 0` (`e_0`) or `A = α + 1`.
    fn anchor(&self, a: usize, f: &Expr) -> Expr {
        anchor_apply(self.system, a, f)
    }

    /// The linear Poisson bracket `{f, g}` of `V*`.
    pub fn poisson(&self, f: &Expr, g: &Expr) -> Expr {
        let alg = &self.system.algebroid;
        let n = alg.sections.len();
        let fp: Vec<Expr> = (0..n).map(|a| self.dp(f, a)).collect();
        let gp: Vec<Expr> = (0..n).map(|a| self.dp(g, a)).collect();
        let mut total = Expr::zero();
        for a in 0..n {
            if !gp[a].is_literal_zero() {
                total = total + self.anchor(a + 1, f) * gp[a].clone();
            }
            if !fp[a].is_literal_zero() {
                total = total - fp[a].clone() * self.anchor(a + 1, g);
            }
        }
        for (a, fa) in fp.iter().enumerate().filter(|(_, e)| !e.is_literal_zero()) {
            for (b, gb) in gp.iter().enumerate().filter(|(_, e)| !e.is_literal_zero()) {
                let pc = (0..n).fold(Expr::zero(), |acc, c| {
                    acc + alg.c[a][b][c].clone() * self.p(c)
                });
                total = total - pc * fa.clone() * gb.clone();
            }
        }
        total
    }

    /// `X_h(f)` with the forces: Hamilton's vector field of the section `h`.
    pub fn hamilton(&self, f: &Expr) -> Expr {
        let alg = &self.system.algebroid;
        let n = alg.sections.len();
        let mut total = self.anchor(0, f) + self.poisson(f, &self.hamiltonian);
        for a in 0..n {
            let fp = self.dp(f, a);
            if fp.is_literal_zero() {
                continue;
            }
            let pc0 = (0..n).fold(Expr::zero(), |acc, c| {
                acc + alg.c0[a][c].clone() * self.p(c)
            });
            total = total + (pc0 + self.forces[a].clone()) * fp;
        }
        total
    }
}

/// The symbols of the phase space: base coordinates, then momenta.
pub fn phase_state(system: &System) -> Vec<String> {
    system
        .keys(&system.coordinates)
        .into_iter()
        .chain(system.keys(&system.algebroid.momenta))
        .collect()
}
