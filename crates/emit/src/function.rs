//! The function IR of code generation: the functions a flow becomes (a [`Layout`] of arguments
//! shared by all, and per function its output arrays, its straight-line program and the numeric
//! solve that may follow it), and the options that choose them. The `code` module builds them
//! from closed-form rates and prints them; the `numeric` module builds them from rates solved at
//! run time. Neither module imports the other's internals: both speak this IR.

use cas::egraph::{Limits, Stop};
use cas::program::{OpCount, Program};
use cas::Expr;
use model::System;
use serde::Serialize;

pub use crate::array::Array;

/// Which functions to emit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    /// `rhs`, `dynamics`, `rhs_jacobian`.
    Explicit,
    /// `implicit`.
    Implicit,
    /// All of them.
    Both,
    /// Only the recursions of a tree of joints (`forward_dynamics`, `inverse_dynamics`): O(n)
    /// code that compiles in seconds where the dense `W` of `implicit` takes minutes.
    Tree,
}

/// The floating-point type of the emitted code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Float {
    /// `double` / `f64`.
    F64,
    /// `float` / `f32`.
    F32,
}

/// Options for code emission.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CodeOptions {
    /// Which functions.
    pub form: Form,
    /// Which float type by default.
    pub float: Float,
    /// The budget of each equality-saturation run (`--egraph-iters`, `--egraph-nodes`).
    pub egraph: Limits,
    /// Baumgarte stabilisation of `rhs` and `dynamics` (`--baumgarte ALPHA,BETA`), off by
    /// default.
    pub baumgarte: Option<Baumgarte>,
    /// Where the C functions keep their work arrays (`--work`).
    pub work: Work,
}

/// Where the work arrays of the C functions live (`--work`): the Gram and mass matrices of the
/// implicit route's solve, the Jacobians of the projections, the stabilisation's terms.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Work {
    /// On the function's stack (the default).
    #[default]
    Stack,
    /// In an array the caller passes as the last argument `work`, of the length the header's
    /// macro `SYSTEM_FUNCTION_WORK` gives: no array is on the stack.
    Caller,
}

/// Baumgarte stabilisation (`--baumgarte ALPHA,BETA`; `docs/code-generation.md`): the emitted
/// accelerations keep `f̈ + 2α ḟ + β² f = 0` for each holonomic constraint and `Ψ̇ + 2α Ψ = 0` for
/// each nonholonomic one, instead of `f̈ = 0` and `Ψ̇ = 0`, so that a drift off the constraints
/// decays. Exact rationals `(numerator, denominator)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Baumgarte {
    /// `α`.
    pub alpha: (i64, i64),
    /// `β`.
    pub beta: (i64, i64),
}

impl Baumgarte {
    /// `α = a, β = b` as they read in the documentation of the emitted functions.
    pub fn describe(&self) -> String {
        let show = |(n, d): (i64, i64)| {
            if d == 1 {
                n.to_string()
            } else {
                format!("{n}/{d}")
            }
        };
        format!("alpha = {}, beta = {}", show(self.alpha), show(self.beta))
    }

    /// The documentation `doc` of a function, with what the stabilisation does to it.
    pub fn document(&self, doc: &str) -> String {
        format!("{doc} With Baumgarte stabilisation ({}): the accelerations keep f'' + 2 alpha f' + beta^2 f = 0 for each holonomic constraint and Psi' + 2 alpha Psi = 0 for each nonholonomic one, so a drift off the constraints decays.", self.describe())
    }
}

/// Which state function a piece of emitted code belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// `rhs`: the rates of the state.
    Rhs,
    /// `dynamics`: the rates, and the multipliers, residuals and energy balance beside them.
    Dynamics,
}

/// How a function applies Baumgarte stabilisation (see [`Baumgarte`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stabilisation {
    /// Closed-form rates: with `k_a = 2α Ψ^a + β² f^a` (the local `bk_`), `g = 𝒞⁻¹ k` (from `bc_`),
    /// the rates of the velocities move by `−g_b Z_b` (the fibre parts of the constraint-force
    /// directions, `bz_`); in `dynamics` the multipliers by `−g` and the energy rate by
    /// `g_b μ^b_α y^α` (`bp_`).
    Rates {
        /// Constraints.
        rows: usize,
        /// Velocities.
        velocities: usize,
        /// Coordinates: the velocities' rates start at `xdot[offset]`.
        offset: usize,
        /// Whether the multipliers and energy rate are written too.
        dynamics: bool,
    },
    /// Rates solved at run time: the bias `β` of `μ a = β` loses `k` (`bk_`) before the solve.
    Bias {
        /// Constraints.
        rows: usize,
    },
}

impl Default for CodeOptions {
    fn default() -> CodeOptions {
        CodeOptions {
            form: Form::Both,
            float: Float::F64,
            egraph: Limits::default(),
            baumgarte: None,
            work: Work::Stack,
        }
    }
}

/// One output array of a function.
#[derive(Clone, Debug)]
pub struct Output {
    /// The array, which names the argument.
    pub name: Array,
    /// Its length.
    pub len: usize,
    /// What each entry is, for the documentation.
    pub doc: String,
}

/// One emitted function.
#[derive(Clone, Debug)]
pub struct Function {
    /// Its name (without the system prefix).
    pub name: String,
    /// What it computes.
    pub doc: String,
    /// Its output arrays, in argument order (the program's outputs are their entries in order).
    pub outputs: Vec<Output>,
    /// The program.
    pub program: Program,
    /// The numeric solve that follows the program, if the function has one.
    pub solve: Option<SolveSpec>,
    /// Baumgarte stabilisation of its rates, when `--baumgarte` asks for it.
    pub stabilisation: Option<Stabilisation>,
    /// The fixed code that follows the program (and the solve), if any: a projection onto the
    /// constraints, or the acceleration-level residuals of `dynamics` (written by the `project` module).
    pub kernel: Option<Kernel>,
    /// How equality saturation of its program ended (`None`: it was not run).
    pub saturation: Option<Stop>,
    /// The symbols its `x` argument holds when they are not the Lagrangian state: the phase
    /// coordinates of the Hamiltonian side.
    pub state: Option<Vec<String>>,
    /// For a Jacobian, the pattern of its one output: the program writes only the structural
    /// non-zeros, in compressed column order.
    pub sparsity: Option<Sparsity>,
}

/// A sparsity pattern in compressed column form (CasADi's convention): the non-zeros of column
/// `j` are entries `colind[j] .. colind[j + 1]` of the values, in the rows `row[k]`, rows
/// increasing within a column.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sparsity {
    /// Rows of the matrix.
    pub rows: usize,
    /// Columns of the matrix.
    pub columns: usize,
    /// `columns + 1` offsets into the values.
    pub colind: Vec<usize>,
    /// The row of each value.
    pub row: Vec<usize>,
}

impl Sparsity {
    /// The pattern of a dense `rows × columns` matrix whose entry `(i, j)` is non-zero when
    /// `nonzero(i, j)`.
    pub fn of(rows: usize, columns: usize, nonzero: impl Fn(usize, usize) -> bool) -> Sparsity {
        let mut colind = vec![0];
        let mut row = Vec::new();
        for j in 0..columns {
            row.extend((0..rows).filter(|&i| nonzero(i, j)));
            colind.push(row.len());
        }
        Sparsity {
            rows,
            columns,
            colind,
            row,
        }
    }

    /// The number of structural non-zeros.
    pub fn nnz(&self) -> usize {
        self.row.len()
    }

    /// The entries `(row, column)` in value order.
    pub fn entries(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        (0..self.columns)
            .flat_map(move |j| (self.colind[j]..self.colind[j + 1]).map(move |k| (self.row[k], j)))
    }
}

/// Fixed code after a function's program, the same for every system up to its sizes (the
/// `project` module writes it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Kernel {
    /// `project_position`: Gauss–Newton steps onto the holonomic constraints `f = 0` in the
    /// coordinates, calling `position_constraints`.
    ProjectPosition {
        /// Holonomic constraints.
        rows: usize,
        /// Coordinates.
        columns: usize,
        /// The Gauss–Newton steps it takes.
        steps: usize,
        /// The operations of one `position_constraints` call.
        call_ops: usize,
    },
    /// `project_velocity`: steps onto `Ψ = 0` in the velocities, calling `velocity_constraints`.
    ProjectVelocity {
        /// Constraints.
        rows: usize,
        /// Velocities.
        columns: usize,
        /// Coordinates: the velocities start at `x[offset]`.
        offset: usize,
        /// The steps it takes: one when every `Ψ` is affine in the velocities (then one step is
        /// exact), `PROJECTION_ITERATIONS` otherwise.
        steps: usize,
        /// The operations of one `velocity_constraints` call.
        call_ops: usize,
    },
    /// The acceleration-level residuals of `dynamics`, `dΨ^a/dt` along the computed rates, from
    /// the gradient the program writes to the local `dpsi_`.
    AccelerationResidual {
        /// Constraints.
        rows: usize,
        /// State entries.
        state_len: usize,
    },
}

/// The argument layout shared by every function.
#[derive(Clone, Debug)]
pub struct Layout {
    /// Time symbol.
    pub time: String,
    /// State symbols (internal names).
    pub state: Vec<String>,
    /// Parameter symbols.
    pub parameters: Vec<String>,
    /// Input symbols.
    pub inputs: Vec<String>,
    /// Function-of-time symbols (values and derivatives) used.
    pub functions: Vec<String>,
}

impl Layout {
    /// The layout of `system`'s functions on `state`, whose expressions are `every` (they decide
    /// which functions of time and derivatives are arguments).
    pub fn of(system: &System, state: Vec<String>, every: &[&Expr]) -> Layout {
        Layout {
            time: system.key(system.time),
            state,
            parameters: system.keys(&system.parameters),
            inputs: system.keys(&system.inputs),
            functions: function_symbols(system, every),
        }
    }

    /// Every input of the programs, in order: `t`, `x`, `p`, `u`, `f`.
    pub fn symbols(&self) -> Vec<String> {
        std::iter::once(self.time.clone())
            .chain(self.state.iter().cloned())
            .chain(self.parameters.iter().cloned())
            .chain(self.inputs.iter().cloned())
            .chain(self.functions.iter().cloned())
            .collect()
    }

    /// The argument array and index of program input `k`: `("x", 3)`, or `("t", 0)` for time.
    pub fn place(&self, k: usize) -> (&'static str, usize) {
        let groups = [
            ("t", 1),
            ("x", self.state.len()),
            ("p", self.parameters.len()),
            ("u", self.inputs.len()),
            ("f", self.functions.len()),
        ];
        let mut k = k;
        for (name, len) in groups {
            if k < len {
                return (name, k);
            }
            k -= len;
        }
        unreachable!("input index beyond the layout")
    }
}

/// Every expression a system's functions need, for collecting the functions of time used.
fn function_symbols(system: &System, exprs: &[&Expr]) -> Vec<String> {
    // Without declared functions of time no symbol is one: the expressions need not be read.
    if system.functions.is_empty() {
        return Vec::new();
    }
    let mut found: Vec<(usize, u32, String)> = Vec::new();
    for e in exprs {
        for s in e.symbols() {
            if let Some((f, order)) = system.function_order(system.handle(&s)) {
                let index = system.functions.iter().position(|g| *g == f).unwrap_or(0);
                if !found.iter().any(|(_, _, n)| *n == s) {
                    found.push((index, order, s));
                }
            }
        }
    }
    found.sort();
    found.into_iter().map(|(_, _, s)| s).collect()
}

/// The target language of statements.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Language {
    /// C99.
    C,
    /// Rust.
    Rust,
}

/// What the solve block after a program does; the solve templates
/// (`templates/*/snippets/implicit_*`) print its fields.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SolveSpec {
    /// Velocities `n`.
    pub n: usize,
    /// Constraints `r`.
    pub r: usize,
    /// Coordinates `m`: the accelerations go to `xdot[m..m+n]`.
    pub m: usize,
    /// Whether the multipliers and the energy rate are written too (`dynamics`).
    pub dynamics: bool,
    /// The system name, prefix of the C function `implicit` the solve calls first.
    pub prefix: String,
    /// The operations of `implicit`, counted into the caller's cost.
    pub implicit_ops: usize,
    /// Whether `energy[0]` is `energy0_ + ½ yᵀ W y`, computed from `W` before it is factored
    /// (`dynamics` of a quadratic Lagrangian).
    pub kinetic_from_mass: bool,
    /// A Jacobian by implicit differentiation (`rhs_jacobian*` of the implicit route): for each
    /// column whose velocity rows are structural, the position in `jac` of its first velocity
    /// row; the program writes the derivatives of `W`, `b`, `μ`, `β` for those columns into
    /// `dw_`, `db_`, `dmu_`, `dbeta_`, which start zeroed: only their entries that are not
    /// identically zero.
    pub jacobian: Option<Vec<usize>>,
}

/// `add, mul, div, neg, call` counts as one line.
pub fn describe_count(c: &OpCount) -> String {
    format!(
        "{} ops ({} add, {} mul, {} div, {} neg, {} call)",
        c.total(),
        c.add,
        c.mul,
        c.div,
        c.neg,
        c.call
    )
}

/// What one Jacobian of the right-hand side differentiates by: an argument array of the layout.
pub struct Wrt {
    /// The function's name.
    pub name: &'static str,
    /// The argument array (`x`, `u`, `p`).
    pub array: &'static str,
    /// What the argument is, for the documentation.
    pub what: &'static str,
    /// The differentiated symbols.
    pub symbols: Vec<String>,
    /// Their positions among the program's inputs.
    pub inputs: Vec<usize>,
}

/// The arguments the right-hand side is differentiated by: the state, the inputs, the
/// parameters (those that are not empty), each with its Jacobian's function name.
pub fn wrts(layout: &Layout) -> Vec<Wrt> {
    let (n, p, u) = (
        layout.state.len(),
        layout.parameters.len(),
        layout.inputs.len(),
    );
    let state = 1..1 + n;
    let parameters = 1 + n..1 + n + p;
    let inputs = 1 + n + p..1 + n + p + u;
    [
        ("rhs_jacobian", "x", "the state", &layout.state, state),
        ("rhs_jacobian_u", "u", "the inputs", &layout.inputs, inputs),
        (
            "rhs_jacobian_p",
            "p",
            "the parameters",
            &layout.parameters,
            parameters,
        ),
    ]
    .into_iter()
    .filter(|(_, _, _, symbols, _)| !symbols.is_empty())
    .map(|(name, array, what, symbols, inputs)| Wrt {
        name,
        array,
        what,
        symbols: symbols.clone(),
        inputs: inputs.collect(),
    })
    .collect()
}
