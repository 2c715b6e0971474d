//! The arrays an emitted function writes, named by what they hold.
//!
//! A function's program writes its values into *slots*: the entries `xdot[3]` of its output
//! arguments, and the entries of the locals its fixed code reads after the program (`dpsi_[k]`,
//! the Baumgarte terms `bk_[a]`, the implicit route's scalars `rate_` and `energy0_`). Whoever
//! reads a slot back — the kernels, `simulate`, the packages — names it by an [`Array`] variant,
//! and [`Array::name`] is the one place an array is spelled. A local's spelling ends in `_`, so
//! that it never meets an argument or a program temporary `t0, t1, …`.

use std::fmt;

/// An array (or scalar) an emitted function writes.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Array {
    /// The rates of the state: `rhs`'s and `dynamics`'s first output.
    Xdot,
    /// The constraint multipliers `λ`.
    Lambda,
    /// The velocity-level constraint residuals `Ψ^a`.
    Residual,
    /// The energy `E_L` and its rate.
    Energy,
    /// The holonomic residuals `f^a`.
    PositionResidual,
    /// The acceleration-level residuals `dΨ^a/dt`.
    AccelerationResidual,
    /// A projection's result.
    Projected,
    /// The state matrix of a linearisation.
    StateMatrix,
    /// The input matrix of a linearisation.
    InputMatrix,
    /// The mass matrix `W` of the implicit form, row-major.
    Mass,
    /// The forcing of the implicit form.
    Forcing,
    /// The constraint Jacobian `μ` of the implicit form, row-major.
    Jacobian,
    /// The bias `β` of the implicit form.
    Bias,
    /// A Jacobian function's one output.
    Jac,
    /// The holonomic constraints `f^a` at a state (`position_constraints`).
    Position,
    /// Their Jacobian `∂f/∂x`, row-major.
    PositionJacobian,
    /// The velocity-level constraints `Ψ^a` at a state (`velocity_constraints`).
    Velocity,
    /// Their Jacobian `∂Ψ/∂y`, row-major.
    VelocityJacobian,
    /// An output a flow or a companion names itself.
    Named(String),
    /// Local: the power balance's part without `λ` (a scalar).
    Rate,
    /// Local: the energy's part without the kinetic energy, `−L_0` (a scalar).
    Energy0,
    /// Local: the power of each constraint force per multiplier.
    Power,
    /// Local: the gradient of `Ψ` the acceleration residual is computed from.
    Dpsi,
    /// Local: the Baumgarte terms `k_a = 2α Ψ^a + β² f^a`.
    BaumgarteTerms,
    /// Local: the directions of the Baumgarte correction of closed-form rates.
    BaumgarteDirections,
    /// Local: the inverse of the correction's Gram matrix.
    BaumgarteInverse,
    /// Local: the power of the correction per constraint.
    BaumgartePower,
    /// Local: the derivatives of `W` by a state entry (the implicit form's Jacobian).
    MassDerivative,
    /// Local: the derivatives of the forcing.
    ForcingDerivative,
    /// Local: the derivatives of `μ`.
    JacobianDerivative,
    /// Local: the derivatives of `β`.
    BiasDerivative,
}

/// The arrays that [`Array::is_zero_initialised`].
const ZERO_INITIALISED: [Array; 4] = [
    Array::MassDerivative,
    Array::ForcingDerivative,
    Array::JacobianDerivative,
    Array::BiasDerivative,
];

impl Array {
    /// The array's spelling in the emitted code.
    pub fn name(&self) -> &str {
        match self {
            Array::Xdot => "xdot",
            Array::Lambda => "lambda",
            Array::Residual => "residual",
            Array::Energy => "energy",
            Array::PositionResidual => "position_residual",
            Array::AccelerationResidual => "acceleration_residual",
            Array::Projected => "projected",
            Array::StateMatrix => "A",
            Array::InputMatrix => "B",
            Array::Mass => "mass",
            Array::Forcing => "forcing",
            Array::Jacobian => "jacobian",
            Array::Bias => "bias",
            Array::Jac => "jac",
            Array::Position => "position",
            Array::PositionJacobian => "position_jacobian",
            Array::Velocity => "velocity",
            Array::VelocityJacobian => "velocity_jacobian",
            Array::Named(name) => name,
            Array::Rate => "rate_",
            Array::Energy0 => "energy0_",
            Array::Power => "power_",
            Array::Dpsi => "dpsi_",
            Array::BaumgarteTerms => "bk_",
            Array::BaumgarteDirections => "bz_",
            Array::BaumgarteInverse => "bc_",
            Array::BaumgartePower => "bp_",
            Array::MassDerivative => "dw_",
            Array::ForcingDerivative => "db_",
            Array::JacobianDerivative => "dmu_",
            Array::BiasDerivative => "dbeta_",
        }
    }

    /// Whether the array is a local of the function body rather than an output argument.
    pub fn is_local(&self) -> bool {
        matches!(
            self,
            Array::Rate
                | Array::Energy0
                | Array::Power
                | Array::Dpsi
                | Array::BaumgarteTerms
                | Array::BaumgarteDirections
                | Array::BaumgarteInverse
                | Array::BaumgartePower
                | Array::MassDerivative
                | Array::ForcingDerivative
                | Array::JacobianDerivative
                | Array::BiasDerivative
        )
    }

    /// Whether the array is a work array that its function's declaration fills with zeros, so
    /// that the program writes only its entries that are not identically zero: the derivatives
    /// of the implicit form, of which a Jacobian by implicit differentiation reads every entry
    /// and most are zero (a derivative of `W` by one angle has a row and a column).
    pub fn is_zero_initialised(&self) -> bool {
        ZERO_INITIALISED.contains(self)
    }

    /// Whether `name` is the spelling of an array that [`Array::is_zero_initialised`].
    pub fn is_zero_initialised_name(name: &str) -> bool {
        ZERO_INITIALISED.iter().any(|array| array.name() == name)
    }

    /// Its entry `index`.
    pub fn at(&self, index: usize) -> Slot {
        Slot {
            array: self.clone(),
            index: Some(index),
        }
    }

    /// The array as a scalar (`rate_`, `energy0_`).
    pub fn scalar(&self) -> Slot {
        Slot {
            array: self.clone(),
            index: None,
        }
    }
}

/// One value a program writes: an entry of an array, or a scalar. Its `Display` is the program
/// output's name.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Slot {
    /// The array.
    pub array: Array,
    /// The entry, or `None` for a scalar.
    pub index: Option<usize>,
}

impl fmt::Display for Slot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.index {
            // Written piece by piece: slots are named by the thousand.
            Some(i) => {
                f.write_str(self.array.name())?;
                f.write_str("[")?;
                f.write_str(cas::program::decimal(i, &mut [0u8; 20]))?;
                f.write_str("]")
            }
            None => f.write_str(self.array.name()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_are_spelled_as_the_templates_read_them() {
        assert_eq!(Array::Xdot.at(3).to_string(), "xdot[3]");
        assert_eq!(Array::Energy0.scalar().to_string(), "energy0_");
        assert_eq!(
            Array::Named("momentum".into()).at(0).to_string(),
            "momentum[0]"
        );
        // Locals, and only they, end in `_`.
        for a in [
            Array::Xdot,
            Array::Dpsi,
            Array::BaumgarteTerms,
            Array::Jac,
            Array::Rate,
        ] {
            assert_eq!(a.is_local(), a.name().ends_with('_'), "{a:?}");
        }
    }
}
