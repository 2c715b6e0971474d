//! The Jacobians of the right-hand side: `rhs_jacobian` (∂ẋ/∂x), `rhs_jacobian_u` (∂ẋ/∂u) and
//! `rhs_jacobian_p` (∂ẋ/∂p), what an EKF, an MPC solver, an LQR design or a parameter estimator
//! needs besides the rates.
//!
//! Each is computed the cheaper of two ways: by forward differentiation of `rhs`'s straight-line
//! program (which never expands an expression), or, for small systems, as the simplified
//! symbolic derivatives of the closed-form rates. Each function writes only the structural
//! non-zeros of its matrix, in compressed column form (CasADi's convention, see [`Sparsity`]):
//! an entry is structural unless the derivative is identically zero — symbolically where the
//! symbolic derivatives are taken, else because no path of the program leads from the input to
//! the rate. The pattern is a compile-time constant of the header (`SYSTEM_RHS_JACOBIAN_COLIND`,
//! `…_ROW`, `…_NNZ`) and of the Rust module.

use cas::egraph::{Limits, Stop};
use cas::program::{Operand, Program};
use cas::Expr;

use super::{Array, Function, Layout, Output, Sparsity};
use crate::function::{wrts, Wrt};

/// The right-hand side's programs above this size get only the forward-differentiated Jacobian:
/// differentiating their closed forms symbolically swells.
const SYMBOLIC_JACOBIAN_LIMIT: usize = 200;

/// The Jacobian functions of the rates `rates` (on `layout`'s state), whose program is `rhs`.
pub fn functions(rates: &[Expr], rhs: &Program, layout: &Layout, limits: Limits) -> Vec<Function> {
    let symbols = layout.symbols();
    wrts(layout)
        .into_iter()
        .map(|wrt| function(&wrt, rates, rhs, &symbols, limits))
        .collect()
}

/// One Jacobian function.
fn function(
    wrt: &Wrt,
    rates: &[Expr],
    rhs: &Program,
    symbols: &[String],
    limits: Limits,
) -> Function {
    let (dense, stop) = dense_program(wrt, rates, rhs, symbols, limits);
    let columns = wrt.symbols.len();
    let structural = |o: &Operand| !o.is_zero();
    let sparsity = Sparsity::of(rates.len(), columns, |i, j| {
        structural(&dense.outputs[i * columns + j].1)
    });
    let mut program = dense.clone();
    program.outputs = sparsity
        .entries()
        .enumerate()
        .map(|(k, (i, j))| {
            (
                Array::Jac.at(k).to_string(),
                dense.outputs[i * columns + j].1.clone(),
            )
        })
        .collect();
    let program = program.scheduled();
    let (rows, nnz) = (rates.len(), sparsity.nnz());
    Function {
        name: wrt.name.into(),
        doc: format!(
            "The Jacobian of the right-hand side with respect to {} ({}), {rows} x {columns}: its {nnz} structural non-zeros in compressed column form, jac[k] = d(xdot_i)/d({}_j) for the k-th entry of the pattern (column j holds entries COLIND[j] .. COLIND[j+1]-1, in rows ROW[k]); every other entry is identically zero.",
            wrt.what, wrt.array, wrt.array
        ),
        outputs: vec![Output {
            name: Array::Jac,
            len: nnz,
            doc: format!("{nnz} non-zeros of {rows} x {columns}, compressed column"),
        }],
        program,
        solve: None,
        stabilisation: None,
        kernel: None,
        saturation: Some(stop),
        state: None,
        sparsity: Some(sparsity),
    }
}

/// The dense Jacobian, row-major (`jac[i * columns + j]`): forward differentiation of `rhs`
/// or, for small systems, the simplified symbolic derivatives, whichever costs fewer
/// operations. Entries that are identically zero are the constant 0.
fn dense_program(
    wrt: &Wrt,
    rates: &[Expr],
    rhs: &Program,
    symbols: &[String],
    limits: Limits,
) -> (Program, Stop) {
    let columns = wrt.symbols.len();
    let forward = rhs.jacobian("jac", &wrt.inputs).optimised_within(limits);
    if rhs.op_count().total() > SYMBOLIC_JACOBIAN_LIMIT {
        return forward;
    }
    let mut symbolic = Program::new(symbols.to_vec());
    for (i, rate) in rates.iter().enumerate() {
        for (j, s) in wrt.symbols.iter().enumerate() {
            let entry = rate.diff(s).factored();
            if symbolic
                .output(Array::Jac.at(i * columns + j).to_string(), &entry)
                .is_err()
            {
                return forward;
            }
        }
    }
    let symbolic = symbolic.optimised_within(limits);
    if symbolic.0.op_count().total() < forward.0.op_count().total() {
        symbolic
    } else {
        forward
    }
}
