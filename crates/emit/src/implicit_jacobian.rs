//! The Jacobians of the implicit route (`rhs_jacobian`, `rhs_jacobian_u`, `rhs_jacobian_p` of a
//! system whose accelerations the emitted code solves at run time), by implicit differentiation.
//!
//! The accelerations `a` and multipliers `λ` solve `[W μᵀ; μ 0] [a; λ] = [b; β]`. Differentiating
//! by an argument `ζ` (a state entry, an input, a parameter):
//!
//! ```text
//! [W μᵀ; μ 0] [∂a; ∂λ] = [∂b − ∂W a − ∂μᵀ λ; ∂β − ∂μ a]
//! ```
//!
//! — the same matrix, so the same `L D Lᵀ` of `W` and the same Schur complement serve every
//! column. The program computes the derivatives of `W`, `b`, `μ`, `β` by forward differentiation
//! of `implicit`'s program (and those of the coordinates' rates, which are written directly),
//! into work arrays that the function's declaration zeroes, so that only the entries that are
//! not identically zero are written; the fixed code after it calls `implicit`, solves for `a`
//! and `λ`, then solves once per column.
//!
//! The pattern is structural: a coordinate row where the program has a path from the argument,
//! all velocity rows of a column where any of `∂W, ∂b, ∂μ, ∂β` does (the solve couples them).
//! Systems too large for the derivatives of every entry (more than [`LIMIT`] derivative slots)
//! get no Jacobian on this route, and neither does a Jacobian whose program would exceed
//! [`MAX_OPS`] operations: rustc's debug builds overflow their stack on the debug information of
//! a function with tens of thousands of `let` bindings (measured: the 6-joint arm's 12 953).

use std::collections::{HashMap, HashSet};

use cas::program::{Operand, Program};

use crate::array::Array;
use crate::function::{wrts, Function, Layout, Output, SolveSpec, Sparsity, Wrt};

/// The most derivative entries (program nodes × columns) the forward differentiation may make.
pub const LIMIT: usize = 400_000;

/// The most operations of an emitted Jacobian's program on this route.
pub const MAX_OPS: usize = 4_000;

/// The Jacobians of the implicit route, ready to be differentiated: the program of the slots
/// they differentiate ([`slots`]), cut once for all of them, and the arguments they
/// differentiate by.
pub struct Jacobians {
    part: Program,
    wrts: Vec<Wrt>,
    solve: SolveSpec,
}

impl Jacobians {
    /// The Jacobians of the program `whole` of every slot of the route's functions (`mass[…]`,
    /// `forcing[…]`, `jacobian[…]`, `bias[…]`, `xdot[…]`), `solve` the shape of `rhs`'s solve.
    /// An argument array whose derivative entries would pass [`LIMIT`] gets none.
    pub fn of(whole: &Program, layout: &Layout, solve: &SolveSpec) -> Jacobians {
        let wrts: Vec<Wrt> = wrts(layout)
            .into_iter()
            .filter(|wrt| whole.nodes.len() * wrt.inputs.len() <= LIMIT)
            .collect();
        let part = if wrts.is_empty() {
            Program::new(Vec::new())
        } else {
            slot_program(whole, solve)
        };
        Jacobians {
            part,
            wrts,
            solve: solve.clone(),
        }
    }

    /// The arguments differentiated by, one Jacobian each, in the order of the functions.
    pub fn wrts(&self) -> &[Wrt] {
        &self.wrts
    }

    /// Whether differentiating is work on plain data ([`Program::is_plain`]: no division,
    /// power, logarithm or square root, which most mechanical systems' `W` and forcing have
    /// none of), which may run beside the CAS ([`crate::parallel`]).
    pub fn is_plain(&self) -> bool {
        self.part.is_plain()
    }

    /// The Jacobian by `wrt`, or `None` when it would pass [`MAX_OPS`].
    pub fn function(&self, wrt: &Wrt) -> Option<Function> {
        function(&self.part, wrt, &self.solve)
    }

    /// An estimate of the work of the Jacobian by `wrt`, for ordering work: the derivative
    /// entries it may form.
    pub fn cost(&self, wrt: &Wrt) -> usize {
        self.part.nodes.len() * wrt.inputs.len()
    }
}

/// The slots differentiated, in order: the coordinates' rates, then `W`, `b`, `μ`, `β`.
fn slots(s: &SolveSpec) -> Vec<String> {
    let (n, r, m) = (s.n, s.r, s.m);
    [
        (Array::Xdot, m),
        (Array::Mass, n * n),
        (Array::Forcing, n),
        (Array::Jacobian, r * n),
        (Array::Bias, r),
    ]
    .iter()
    .flat_map(|(array, len)| (0..*len).map(|k| array.at(k).to_string()))
    .collect()
}

/// The program of the differentiated slots ([`slots`]), in their order, cut from `whole`: a
/// slot `whole` does not compute is zero.
fn slot_program(whole: &Program, s: &SolveSpec) -> Program {
    let names = slots(s);
    let wanted: HashSet<&str> = names.iter().map(String::as_str).collect();
    let mut part = whole.select(&|slot| wanted.contains(slot).then(|| slot.to_string()));
    let mut computed: HashMap<&str, &Operand> = HashMap::new();
    for (slot, operand) in &part.outputs {
        computed.entry(slot.as_str()).or_insert(operand);
    }
    let ordered: Vec<(String, Operand)> = names
        .iter()
        .map(|name| {
            let operand = computed
                .get(name.as_str())
                .map_or_else(Operand::zero, |&operand| operand.clone());
            (name.clone(), operand)
        })
        .collect();
    part.outputs = ordered;
    part
}

/// One Jacobian function of the slot program `part` ([`slot_program`]: an output per slot), or
/// `None` when its program would need more than [`MAX_OPS`] operations: told during the
/// differentiation as soon as its derivatives and the values they read pass it
/// ([`Program::jacobian_within`]), else counted when the program is scheduled
/// ([`Program::scheduled_within`]).
fn function(part: &Program, wrt: &Wrt, s: &SolveSpec) -> Option<Function> {
    let (n, r, m) = (s.n, s.r, s.m);
    let slots = part.outputs.len();
    let columns = wrt.inputs.len();
    // Past MAX_OPS nodes that the derivatives need, the program needs more than MAX_OPS: stop.
    let d = part.jacobian_within("d", &wrt.inputs, MAX_OPS)?;
    let entry = |slot: usize, j: usize| d.outputs[slot * columns + j].1.clone();
    let structural = |o: &Operand| !o.is_zero();
    let block = |j: usize| (m..slots).any(|slot| structural(&entry(slot, j)));
    let blocks: Vec<usize> = (0..columns).filter(|&j| block(j)).collect();
    let sparsity = Sparsity::of(m + n, columns, |i, j| {
        if i < m {
            structural(&entry(i, j))
        } else {
            blocks.contains(&j)
        }
    });
    let mut outputs = Vec::new();
    let mut starts = Vec::new();
    for (k, (i, j)) in sparsity.entries().enumerate() {
        if i < m {
            outputs.push((Array::Jac.at(k).to_string(), entry(i, j)));
        } else if i == m {
            starts.push(k);
        }
    }
    // The derivatives of W, b, μ, β of each block, into work arrays that start zeroed
    // ([`Array::is_zero_initialised`]): only the entries that are not identically zero are
    // written (most are: a derivative of W by one angle has a row and a column).
    let derivatives = [
        (Array::MassDerivative, n * n),
        (Array::ForcingDerivative, n),
        (Array::JacobianDerivative, r * n),
        (Array::BiasDerivative, r),
    ];
    for (b, &j) in blocks.iter().enumerate() {
        let mut slot = m;
        for (array, len) in &derivatives {
            debug_assert!(array.is_zero_initialised());
            for k in 0..*len {
                let value = entry(slot + k, j);
                if !value.is_zero() {
                    outputs.push((array.at(b * len + k).to_string(), value));
                }
            }
            slot += len;
        }
    }
    let mut program = d;
    program.outputs = outputs;
    let program = program.scheduled_within(MAX_OPS)?;
    let (rows, nnz) = (m + n, sparsity.nnz());
    Some(Function {
        name: wrt.name.into(),
        doc: format!(
            "The Jacobian of the right-hand side with respect to {} ({}), {rows} x {columns}, by implicit differentiation of the implicit form: [W mu^T; mu 0] [da; dlambda] = [db - dW a - dmu^T lambda; dbeta - dmu a], with the L D L^T of W and the Schur complement of rhs; its {nnz} structural non-zeros in compressed column form, jac[k] = d(xdot_i)/d({}_j) for the k-th entry of the pattern (column j holds entries COLIND[j] .. COLIND[j+1]-1, in rows ROW[k]); every other entry is identically zero.",
            wrt.what, wrt.array, wrt.array
        ),
        outputs: vec![Output {
            name: Array::Jac,
            len: nnz,
            doc: format!("{nnz} non-zeros of {rows} x {columns}, compressed column"),
        }],
        program,
        solve: Some(SolveSpec {
            dynamics: false,
            kinetic_from_mass: false,
            jacobian: Some(starts),
            ..s.clone()
        }),
        stabilisation: None,
        kernel: None,
        saturation: None,
        state: None,
        sparsity: Some(sparsity),
    })
}

/// The work arrays of the per-column solves.
pub fn arrays(s: &SolveSpec, blocks: usize) -> Vec<(&'static str, usize)> {
    let (n, r) = (s.n, s.r);
    if blocks == 0 {
        return Vec::new();
    }
    let mut out = vec![("dw_", blocks * n * n), ("db_", blocks * n), ("v_", n)];
    if r > 0 {
        out.extend([
            ("dmu_", blocks * r * n),
            ("dbeta_", blocks * r),
            ("sb_", r),
            ("dl_", r),
        ]);
    }
    out
}

/// The floating-point operations of the per-column solves (after the solve of `a`, `λ`).
pub fn flops(s: &SolveSpec, blocks: usize) -> usize {
    let (n, r) = (s.n, s.r);
    let right = n * 2 * (n + r) + r * 2 * n;
    let schur = if r > 0 {
        r * (2 * n * n) + r * (1 + 2 * n) + r * r * 2 * n + r * r * r + r * n * 2
    } else {
        0
    };
    blocks * (right + 2 * n * n + schur)
}

#[cfg(test)]
pub(crate) mod tests {
    use cas::{Expr, Func};

    use super::*;

    /// A cart with a pendulum (`x`, `q`; velocities `v`, `w`), pushed by `u`: the slots of its
    /// implicit form, as `numeric::functions` builds them, with the second forcing divided by
    /// `denominator` when one is given.
    pub(crate) fn pendulum_cart(denominator: Option<Expr>) -> (Program, Layout, SolveSpec) {
        let layout = Layout {
            time: "t".into(),
            state: ["x", "q", "v", "w"].map(String::from).to_vec(),
            parameters: ["m", "l", "g"].map(String::from).to_vec(),
            inputs: vec!["u".into()],
            functions: Vec::new(),
        };
        let s = |name: &str| Expr::symbol(name);
        let (sin, cos) = (
            Expr::apply(Func::Sin, s("q")),
            Expr::apply(Func::Cos, s("q")),
        );
        let coupling = s("m") * s("l") * cos.clone();
        let forcing = [
            s("u") + s("m") * s("l") * sin.clone() * s("w").powi(2),
            -(s("m") * s("g") * s("l") * sin),
        ];
        let mut whole = Program::new(layout.symbols());
        let slots = [
            ("xdot[0]", s("v")),
            ("xdot[1]", s("w")),
            ("mass[0]", Expr::int(2) * s("m")),
            ("mass[1]", coupling.clone()),
            ("mass[2]", coupling),
            ("mass[3]", s("m") * s("l").powi(2)),
            ("forcing[0]", forcing[0].clone()),
            (
                "forcing[1]",
                match denominator {
                    Some(d) => forcing[1].clone() / d,
                    None => forcing[1].clone(),
                },
            ),
        ];
        for (slot, value) in &slots {
            whole.output(*slot, value).unwrap();
        }
        let solve = SolveSpec {
            n: 2,
            r: 0,
            m: 2,
            dynamics: false,
            prefix: "cart".into(),
            implicit_ops: 0,
            kinetic_from_mass: false,
            jacobian: None,
        };
        (whole, layout, solve)
    }

    /// The Jacobians of the cart: one per argument array, computing something where the
    /// argument moves the rates (the inputs' Jacobian is constant); plain without a division,
    /// with its denominators otherwise.
    #[test]
    fn jacobians_are_cut_once_and_differentiated_by_each_argument() {
        let (whole, layout, solve) = pendulum_cart(None);
        let jacobians = Jacobians::of(&whole, &layout, &solve);
        assert!(jacobians.is_plain());
        let functions: Vec<Function> = jacobians
            .wrts()
            .iter()
            .filter_map(|wrt| jacobians.function(wrt))
            .collect();
        let names: Vec<&str> = functions.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(names, ["rhs_jacobian", "rhs_jacobian_u", "rhs_jacobian_p"]);
        assert!(functions[0].program.op_count().total() > 0);
        assert!(functions[2].program.op_count().total() > 0);
        assert!(functions.iter().all(|f| f.program.is_plain()));
        let (whole, layout, solve) = pendulum_cart(Some(Expr::one() + Expr::symbol("l")));
        let divided = Jacobians::of(&whole, &layout, &solve);
        assert!(!divided.is_plain());
        assert!(divided
            .wrts()
            .iter()
            .filter_map(|wrt| divided.function(wrt))
            .any(|f| !f.program.denominators.is_empty()));
    }
}
