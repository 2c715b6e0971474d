//! The functions emitted as code, as straight-line programs, and their printing into C and Rust
//! statements. The templates in `templates/c/` and `templates/rust/` lay the statements out.
//!
//! Every function takes the same arguments, in this order (documented in the emitted header):
//! `t` (time), `x[N]` (the state: coordinates, then velocities), `p[P]` (parameters), `u[U]`
//! (inputs), `f[F]` (the values of the given functions of time and of their derivatives that the
//! equations use, e.g. `Omega(t)`, `Omega'(t)`), then its outputs.

use cas::egraph::{Limits, Stop};
use cas::program::{Call, Node, OpCount, Operand, Program};
use cas::Expr;
use mech::nonholonomic::energy_balance;
use mech::{Derivation, ImplicitDerivation};
use model::names::{self, Decoded};
use model::System;

/// Which functions to emit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    /// `rhs`, `dynamics`, `rhs_jacobian`.
    Explicit,
    /// `implicit`.
    Implicit,
    /// All of them.
    Both,
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
}

impl Default for CodeOptions {
    fn default() -> CodeOptions {
        CodeOptions {
            form: Form::Both,
            float: Float::F64,
            egraph: Limits::default(),
        }
    }
}

/// One output array of a function.
#[derive(Clone, Debug)]
pub struct Output {
    /// The argument name.
    pub name: String,
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
    pub solve: Option<crate::numeric::SolveSpec>,
    /// How equality saturation of its program ended (`None`: it was not run).
    pub saturation: Option<Stop>,
    /// The symbols its `x` argument holds when they are not the Lagrangian state: the phase
    /// coordinates of the Hamiltonian side.
    pub state: Option<Vec<String>>,
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
            time: system.time.clone(),
            state,
            parameters: system.parameters.clone(),
            inputs: system.inputs.clone(),
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
    let mut found: Vec<(usize, u32, String)> = Vec::new();
    for e in exprs {
        for s in e.symbols() {
            if let Some((f, order)) = system.function_order(&s) {
                let index = system.functions.iter().position(|g| g == f).unwrap_or(0);
                if !found.iter().any(|(_, _, n)| *n == s) {
                    found.push((index, order, s));
                }
            }
        }
    }
    found.sort();
    found.into_iter().map(|(_, _, s)| s).collect()
}

/// The expressions of each function, before they become programs.
struct Plan {
    name: &'static str,
    doc: String,
    outputs: Vec<(String, String, Vec<Expr>)>,
    /// The phase state its `x` holds, if not the Lagrangian state.
    state: Option<Vec<String>>,
}

fn plans(d: &Derivation, form: Form) -> Vec<Plan> {
    let system = &d.system;
    let n = system.rank();
    let state = d.state();
    let show = |s: &str| system.spec_name(s);
    let xdot: Vec<Expr> = d.rates();
    let induced = d.method == mech::Method::Induced;
    let xdot_doc = state
        .iter()
        .map(|s| format!("{}'", show(s)))
        .collect::<Vec<_>>()
        .join(", ");
    let mut plans = Vec::new();
    if matches!(form, Form::Explicit | Form::Both) {
        plans.push(Plan {
            name: "rhs",
            doc: "The explicit right-hand side of the first-order system: xdot = d(x)/dt.".into(),
            outputs: vec![("xdot".into(), xdot_doc.clone(), xdot.clone())],
            state: None,
        });
        let r = system.constraints.len();
        // On the induced method's state the multipliers are the reaction forces on D and the
        // residuals vanish identically (y = v^a X_a lies in D).
        let lambda: Vec<Expr> = d.multipliers().iter().map(|l| d.on_state(l)).collect();
        let residual: Vec<Expr> = system
            .constraints
            .iter()
            .map(|c| d.on_state(&c.psi))
            .collect();
        // The balance law: equal to the derivative of E_L along the dynamics (proved on every
        // golden), without differentiating the accelerations.
        let energy_rate = d.on_state(&energy_balance(system, &d.lagrangian, d.multipliers()));
        let doc = if induced {
            "Everything at once, with common subexpressions shared, on the state (x, v) of D (the induced method): the right-hand side, the multipliers of the Lagrange-d'Alembert form at y = v^a X_a (the reaction forces), the constraint residuals Psi^a (identically zero on D) and the energy E_l with its rate dE_l/dt along the motion."
        } else {
            "Everything at once, with common subexpressions shared: the right-hand side, the multipliers, the constraint residuals Psi^a (zero on the constraint surface) and the energy E_L with its rate dE_L/dt along the motion."
        };
        plans.push(Plan {
            name: "dynamics",
            doc: doc.into(),
            outputs: vec![
                ("xdot".into(), xdot_doc.clone(), xdot.clone()),
                (
                    "lambda".into(),
                    (1..=r)
                        .map(|a| format!("lambda{a}"))
                        .collect::<Vec<_>>()
                        .join(", "),
                    lambda,
                ),
                (
                    "residual".into(),
                    (1..=r)
                        .map(|a| format!("Psi{a}"))
                        .collect::<Vec<_>>()
                        .join(", "),
                    residual,
                ),
                (
                    "energy".into(),
                    "E_L, dE_L/dt".into(),
                    vec![d.energy(), energy_rate],
                ),
            ],
            state: None,
        });
        plans.push(Plan {
            name: "rhs_jacobian",
            doc: "The Jacobian of the right-hand side with respect to the state, row-major: jac[i*N + j] = d(xdot_i)/d(x_j).".into(),
            outputs: vec![("jac".into(), format!("{} x {} row-major", state.len(), state.len()), Vec::new())],
            state: None,
        });
        if let Some(plan) = hamilton_plan(d) {
            plans.push(plan);
        }
    }
    // The implicit form is Lagrange–d'Alembert's, on the algebroid's state.
    if matches!(form, Form::Implicit | Form::Both) && !induced {
        let mass: Vec<Expr> = d.lagrangian.hessian.iter().flatten().cloned().collect();
        let mu: Vec<Expr> = system
            .constraints
            .iter()
            .flat_map(|c| c.mu.clone())
            .collect();
        let bias: Vec<Expr> = system
            .constraints
            .iter()
            .map(|c| (-mech::lagrangian::admissible_apply(system, &c.psi)).simplify())
            .collect();
        let r = system.constraints.len();
        plans.push(Plan {
            name: "implicit",
            doc: "The implicit form: the accelerations a = d(y)/dt and multipliers lambda solve [W mu^T; mu 0] [a; lambda] = [forcing; bias], with W the mass matrix (n x n, row-major), mu the constraint Jacobian (r x n, row-major), forcing_alpha = F_alpha + rho_alpha(L) - (rho_0 + y rho)(p_alpha) + (C_0 + y C) p, and bias_a = -(rho_0 + y rho)(Psi^a). The coordinates evolve by the first entries of rhs.".into(),
            outputs: vec![
                ("mass".into(), format!("W, {n} x {n} row-major"), mass),
                ("forcing".into(), format!("{n} entries"), d.lagrangian.forcing.clone()),
                ("jacobian".into(), format!("mu, {r} x {n} row-major"), mu),
                ("bias".into(), format!("{r} entries"), bias),
            ],
            state: None,
        });
    }
    plans
}

/// The Hamiltonian right-hand side on the phase coordinates of the Hamiltonian side (`B̄`, or
/// `V*` without constraints; seed 000 §II.5–§V): the motion the nonholonomic bracket generates,
/// and `H` itself, so that a controller can integrate in momenta and monitor the energy.
fn hamilton_plan(d: &Derivation) -> Option<Plan> {
    let h = d.hamiltonian.as_ref().ok()?;
    let system = &d.system;
    let phase = mech::hamiltonian::phase_state(system);
    let rates_on_phase = match &h.constrained {
        Some(c) => &c.rates,
        None => &h.free_rates,
    };
    let rates: Vec<Expr> = h
        .coordinates
        .iter()
        .map(|c| {
            let k = phase
                .iter()
                .position(|s| s == c)
                .expect("a phase coordinate");
            rates_on_phase[k].clone()
        })
        .collect();
    let doc = h
        .coordinates
        .iter()
        .map(|s| format!("{}'", system.spec_name(s)))
        .collect::<Vec<_>>()
        .join(", ");
    Some(Plan {
        name: "hamilton",
        doc: "The Hamiltonian side: d(x)/dt for the phase state x of this function (coordinates, then the momenta that remain on the constraint submanifold of the dual, the others being functions of these), as generated by the nonholonomic bracket (seed 000 line 1675 as corrected), and the Hamiltonian H there.".into(),
        outputs: vec![
            ("xdot".into(), doc, rates),
            ("hamiltonian".into(), "H".into(), vec![h.restrict(&h.hamiltonian)]),
        ],
        state: Some(h.coordinates.clone()),
    })
}

/// The argument layout and the functions of a derivation.
pub fn functions(d: &Derivation, options: CodeOptions) -> (Layout, Vec<Function>) {
    let system = &d.system;
    let plans = plans(d, options.form);
    let every: Vec<&Expr> = plans
        .iter()
        .flat_map(|p| p.outputs.iter().flat_map(|o| o.2.iter()))
        .collect();
    let layout = Layout::of(system, d.state(), &every);
    let symbols = layout.symbols();
    let mut rhs_program: Option<Program> = None;
    let functions = plans
        .into_iter()
        .map(|plan| {
            if plan.name == "rhs_jacobian" {
                let rhs: &Program = rhs_program
                    .as_ref()
                    .expect("rhs is planned before its Jacobian");
                let n = layout.state.len();
                let (program, stop) = jacobian_program(d, rhs, &symbols, options.egraph);
                return Function {
                    name: plan.name.to_string(),
                    doc: plan.doc,
                    outputs: vec![Output {
                        name: "jac".into(),
                        len: n * n,
                        doc: plan.outputs[0].1.clone(),
                    }],
                    program: program.scheduled(),
                    solve: None,
                    saturation: Some(stop),
                    state: None,
                };
            }
            let own = plan.state.as_ref().map(|state| Layout {
                state: state.clone(),
                ..layout.clone()
            });
            let mut program = Program::new(own.as_ref().map_or(symbols.clone(), Layout::symbols));
            let mut outputs = Vec::new();
            for (name, doc, exprs) in plan.outputs {
                for (i, e) in exprs.iter().enumerate() {
                    // The factorised form, when smaller, also costs fewer operations.
                    program
                        .output(format!("{name}[{i}]"), &e.factored())
                        .unwrap_or_else(|u| {
                            panic!("{} uses `{}`, which is not an argument", plan.name, u.0)
                        });
                }
                outputs.push(Output {
                    name,
                    len: exprs.len(),
                    doc,
                });
            }
            if plan.name == "rhs" {
                rhs_program = Some(program.clone());
            }
            // Equality saturation, kept only when it saves operations; then each value placed
            // next to its first use.
            let (program, stop) = program.optimised_within(options.egraph);
            Function {
                name: plan.name.to_string(),
                doc: plan.doc,
                outputs,
                program: program.scheduled(),
                solve: None,
                saturation: Some(stop),
                state: plan.state,
            }
        })
        .collect();
    (layout, functions)
}

/// The right-hand side's programs above this size get only the forward-differentiated Jacobian:
/// differentiating their closed forms symbolically swells.
const SYMBOLIC_JACOBIAN_LIMIT: usize = 200;

/// The Jacobian of the right-hand side: forward differentiation of its program (never swells)
/// or, for small systems, the simplified symbolic derivatives, whichever costs fewer operations.
fn jacobian_program(
    d: &Derivation,
    rhs: &Program,
    symbols: &[String],
    limits: Limits,
) -> (Program, Stop) {
    let state = d.state();
    let n = state.len();
    let wrt: Vec<usize> = (1..=n).collect();
    let forward = rhs.jacobian("jac", &wrt).optimised_within(limits);
    if rhs.op_count().total() > SYMBOLIC_JACOBIAN_LIMIT {
        return forward;
    }
    let mut symbolic = Program::new(symbols.to_vec());
    for (i, rate) in d.rates().iter().enumerate() {
        for (j, s) in state.iter().enumerate() {
            let entry = rate.diff(s).factored();
            if symbolic
                .output(format!("jac[{}]", i * n + j), &entry)
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

/// The documented meaning of each entry of `f`.
pub fn function_docs(system: &System, layout: &Layout) -> Vec<String> {
    layout
        .functions
        .iter()
        .map(|s| system.spec_name(s))
        .collect()
}

/// The spec-syntax name of a symbol for documentation (`x'` for a tangent velocity).
pub fn symbol_doc(system: &System, s: &str) -> String {
    match names::decode(s) {
        Decoded::Plain(_) | Decoded::TangentVelocity(_) | Decoded::FunctionDerivative(..) => {
            system.spec_name(s)
        }
        _ => s.to_string(),
    }
}

/// A literal for a rational constant: the shortest decimal that reads back as the nearest
/// `f64` (or `f32`), always with a decimal point or an exponent.
pub fn literal(numerator: &str, denominator: &str, float: Float) -> String {
    let value = cas::program::constant_value(numerator, denominator);
    let text = match float {
        Float::F64 => format!("{value:?}"),
        Float::F32 => format!("{:?}", value as f32),
    };
    if text.contains('.') || text.contains('e') || text.contains("inf") || text.contains("NaN") {
        text
    } else {
        format!("{text}.0")
    }
}

/// The target language of statements.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Language {
    /// C99.
    C,
    /// Rust.
    Rust,
}

fn operand(
    o: &Operand,
    language: Language,
    float: Float,
    input: &dyn Fn(usize) -> String,
) -> String {
    match o {
        Operand::Input(k) => input(*k),
        Operand::Constant(n, d) => {
            let lit = literal(n, d, float);
            match language {
                Language::C => format!("((dalembert_real){lit})"),
                // A bare float literal takes the type `Real` from the operation it is in.
                Language::Rust => lit,
            }
        }
        Operand::Node(k) => format!("t{k}"),
    }
}

/// One statement per node of a function, then the output assignments (see
/// [`program_statements`]), with the inputs named by the argument layout (`x[3]`, `p[0]`, …).
pub fn statements(
    layout: &Layout,
    f: &Function,
    language: Language,
    float: Float,
) -> (Vec<String>, Vec<String>) {
    let own = f.state.as_ref().map(|state| Layout {
        state: state.clone(),
        ..layout.clone()
    });
    let layout = own.as_ref().unwrap_or(layout);
    let input = |k: usize| match layout.place(k) {
        ("t", _) => "t".to_string(),
        (array, i) => format!("{array}[{i}]"),
    };
    program_statements(&f.program, language, float, &input)
}

/// One statement per node, each output assigned right after the node that computes it (the second
/// list holds the outputs that are inputs or constants). Each division is preceded, the first time
/// its denominator is used, by a guard that returns the 1-based position of the denominator in
/// `Program::denominators` when its magnitude is not above the epsilon (C: `return k;`, Rust:
/// `return Err(SingularAt(k));`).
pub fn program_statements(
    p: &Program,
    language: Language,
    float: Float,
    input: &dyn Fn(usize) -> String,
) -> (Vec<String>, Vec<String>) {
    let op = |o: &Operand| operand(o, language, float, input);
    let mut by_node: std::collections::BTreeMap<usize, Vec<&str>> = Default::default();
    for (name, o) in &p.outputs {
        if let Operand::Node(k) = o {
            by_node.entry(*k).or_default().push(name);
        }
    }
    let mut body = Vec::new();
    let mut guarded = std::collections::BTreeSet::new();
    for (k, node) in p.nodes.iter().enumerate() {
        let value = match node {
            Node::Add(a, b) => format!("{} + {}", op(a), op(b)),
            Node::Sub(a, b) => format!("{} - {}", op(a), op(b)),
            Node::Mul(a, b) => format!("{} * {}", op(a), op(b)),
            Node::Div(a, b) => {
                let denominator_index = p.division_of.get(&k).map_or(0, |i| i + 1);
                if guarded.insert(op(b)) {
                    body.push(match language {
                        Language::C => format!(
                            "if (!(fabs((double){}) > DALEMBERT_EPSILON)) return {denominator_index};",
                            op(b)
                        ),
                        Language::Rust => format!(
                            "if !(Real::abs({}) > EPSILON) {{ return Err(SingularAt({denominator_index})); }}",
                            op(b)
                        ),
                    });
                }
                format!("{} / {}", op(a), op(b))
            }
            Node::Neg(a) => format!("-{}", op(a)),
            Node::Call(c, a) => match language {
                Language::C => format!("(dalembert_real){}((double){})", c.name(), op(a)),
                Language::Rust => format!("Real::{}({})", rust_call(*c), op(a)),
            },
            Node::Pow(a, b) => match language {
                Language::C => format!("(dalembert_real)pow((double){}, (double){})", op(a), op(b)),
                Language::Rust => format!("Real::powf({}, {})", op(a), op(b)),
            },
        };
        body.push(match language {
            Language::C => format!("const dalembert_real t{k} = {value};"),
            Language::Rust => format!("let t{k}: Real = {value};"),
        });
        // Each output is stored as soon as its value exists (short live ranges: see
        // `Program::scheduled`).
        for name in by_node.get(&k).into_iter().flatten() {
            body.push(format!("{name} = t{k};"));
        }
    }
    let assignments = p
        .outputs
        .iter()
        .filter(|(_, o)| !matches!(o, Operand::Node(_)))
        .map(|(name, o)| format!("{name} = {};", op(o)))
        .collect();
    (body, assignments)
}

fn rust_call(c: Call) -> &'static str {
    match c {
        Call::Log => "ln",
        other => other.name(),
    }
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

/// The artifacts of the C and Rust targets.
pub fn render(
    d: &Derivation,
    options: CodeOptions,
    c: bool,
    rust: bool,
) -> Result<Vec<crate::Artifact>, String> {
    let (layout, functions) = functions(d, options);
    render_functions(&d.system, &layout, &functions, options, c, rust)
}

/// The functions of a system given as a first-order system on its own state: `rhs`, `dynamics`
/// (the right-hand side with an energy and its rate along the motion) and `extra` plans (with
/// their own states).
fn first_order_functions(
    system: &System,
    (state, rates): (&[String], &[Expr]),
    (rhs_doc, dynamics_doc): (&str, &str),
    energy: &Expr,
    extra: Vec<Plan>,
    options: CodeOptions,
) -> (Layout, Vec<Function>) {
    let show = |s: &str| system.spec_name(s);
    let doc_of = |state: &[String]| {
        state
            .iter()
            .map(|s| format!("{}'", show(s)))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let energy_rate = state
        .iter()
        .zip(rates)
        .fold(system.partial_base(energy, 0), |acc, (s, rate)| {
            acc + energy.diff(s) * rate.clone()
        })
        .simplify();
    let mut plans = vec![
        Plan {
            name: "rhs",
            doc: rhs_doc.into(),
            outputs: vec![("xdot".into(), doc_of(state), rates.to_vec())],
            state: None,
        },
        Plan {
            name: "dynamics",
            doc: dynamics_doc.into(),
            outputs: vec![
                ("xdot".into(), doc_of(state), rates.to_vec()),
                (
                    "energy".into(),
                    "E, dE/dt".into(),
                    vec![energy.clone(), energy_rate],
                ),
            ],
            state: None,
        },
    ];
    plans.extend(extra);
    let every: Vec<&Expr> = plans
        .iter()
        .flat_map(|p| p.outputs.iter().flat_map(|o| o.2.iter()))
        .collect();
    let layout = Layout::of(system, state.to_vec(), &every);
    let functions = plans
        .into_iter()
        .map(|plan| {
            let own = plan.state.as_ref().map(|state| Layout {
                state: state.clone(),
                ..layout.clone()
            });
            let mut program = Program::new(own.as_ref().map_or(layout.symbols(), Layout::symbols));
            let mut outputs = Vec::new();
            for (name, doc, exprs) in plan.outputs {
                for (i, e) in exprs.iter().enumerate() {
                    program
                        .output(format!("{name}[{i}]"), &e.factored())
                        .unwrap_or_else(|u| {
                            panic!("{} uses `{}`, which is not an argument", plan.name, u.0)
                        });
                }
                outputs.push(Output {
                    name,
                    len: exprs.len(),
                    doc,
                });
            }
            let (program, stop) = program.optimised_within(options.egraph);
            Function {
                name: plan.name.to_string(),
                doc: plan.doc,
                outputs,
                program: program.scheduled(),
                solve: None,
                saturation: Some(stop),
                state: plan.state,
            }
        })
        .collect();
    (layout, functions)
}

/// The functions of a vakonomic system (seed 003 §5.1) on its state `(x, y^a, p_α)`: `rhs`,
/// `dynamics` (the right-hand side with the energy `H_{W_0}|_{W_1}` and its rate) and, when the
/// Hamiltonian form exists, `hamilton` on `(x, p)`.
pub fn vakonomic_functions(
    d: &mech::VakonomicDerivation,
    options: CodeOptions,
) -> (Layout, Vec<Function>) {
    let system = &d.system;
    let v = &d.vakonomic;
    let extra = v.hamiltonian.iter().map(|h| {
        let doc = h
            .coordinates
            .iter()
            .map(|s| format!("{}'", system.spec_name(s)))
            .collect::<Vec<_>>()
            .join(", ");
        Plan {
            name: "hamilton",
            doc: "The Hamiltonian form on W_1 = E* (Theorem 5.6): d(x)/dt for the phase state x of this function (coordinates, then every momentum), generated by the vakonomic bracket (5.8), and H_W1 there.".into(),
            outputs: vec![
                ("xdot".into(), doc, h.rates.clone()),
                ("hamiltonian".into(), "H".into(), vec![h.hamiltonian.clone()]),
            ],
            state: Some(h.coordinates.clone()),
        }
    });
    first_order_functions(
        system,
        (&v.state, &v.rates),
        (
            "The vakonomic equations in explicit form (seed 003 §5.1): xdot = d(x)/dt for the state x = (coordinates, free velocities, multipliers).",
            "The right-hand side and the energy H_W0 on W_1 (p_a y^a + p_alpha Psi^alpha - L restricted) with its rate dH/dt along the motion (zero when nothing depends on time).",
        ),
        &v.energy,
        extra.collect(),
        options,
    )
}

/// The functions of a singular Lagrangian (seed 003 §4) on the variables that remain on the final
/// constraint set: `rhs` (the motion there, any gauge direction set to zero) and `dynamics` (with
/// `E_L` and its rate).
pub fn singular_functions(
    d: &mech::SingularDerivation,
    options: CodeOptions,
) -> (Layout, Vec<Function>) {
    let a = &d.algorithm;
    first_order_functions(
        &d.system,
        (&a.state, &a.rates),
        (
            "The motion on the final constraint set of the constraint algorithm (seed 003 §4): xdot = d(x)/dt for the variables that remain (the others are fixed by the constraints; directions left free by the equations are set to zero).",
            "The right-hand side and the energy E_L on the final constraint set with its rate along the motion.",
        ),
        &a.energy,
        Vec::new(),
        options,
    )
}

/// The functions of a contact system (seed 004) on `(q, q', z)`: `rhs` (the constrained
/// Herglotz field `Γ_{L,Δ}`) and `dynamics` (with `E_L` and its rate, `(∂L/∂z) E_L` on `Δ × ℝ`).
pub fn contact_functions(
    d: &mech::ContactDerivation,
    options: CodeOptions,
) -> (Layout, Vec<Function>) {
    let c = &d.contact;
    first_order_functions(
        &d.system,
        (&c.coordinates, &c.rates),
        (
            "The constrained Herglotz equations (seed 004 (63), (81)): xdot = d(x)/dt for x = (coordinates, velocities, action z), the field Gamma_{L,Delta} = P(Gamma_L).",
            "The right-hand side and the energy E_L with its rate along the motion (on the constraint surface it equals (dL/dz) E_L).",
        ),
        &c.energy,
        c.hamiltonian
            .iter()
            .map(|h| {
                let doc = h
                    .coordinates
                    .iter()
                    .map(|s| format!("{}'", d.system.spec_name(s)))
                    .collect::<Vec<_>>()
                    .join(", ");
                Plan {
                    name: "hamilton",
                    doc: "The Hamiltonian side on T*Q x R (digest 004 section 1.12): d(x)/dt for the phase state x of this function (coordinates, momenta, action z), with the multipliers of Psi = 0, and H there.".into(),
                    outputs: vec![
                        ("xdot".into(), doc, h.rates.clone()),
                        ("hamiltonian".into(), "H".into(), vec![h.hamiltonian.clone()]),
                    ],
                    state: Some(h.coordinates.clone()),
                }
            })
            .collect(),
        options,
    )
}

/// The artifacts of the C and Rust targets for a contact system.
pub fn render_contact(
    d: &mech::ContactDerivation,
    options: CodeOptions,
    c: bool,
    rust: bool,
) -> Result<Vec<crate::Artifact>, String> {
    let (layout, functions) = contact_functions(d, options);
    render_functions(&d.system, &layout, &functions, options, c, rust)
}

/// The artifacts of the C and Rust targets for a singular Lagrangian.
pub fn render_singular(
    d: &mech::SingularDerivation,
    options: CodeOptions,
    c: bool,
    rust: bool,
) -> Result<Vec<crate::Artifact>, String> {
    let (layout, functions) = singular_functions(d, options);
    render_functions(&d.system, &layout, &functions, options, c, rust)
}

/// The artifacts of the C and Rust targets for a vakonomic system.
pub fn render_vakonomic(
    d: &mech::VakonomicDerivation,
    options: CodeOptions,
    c: bool,
    rust: bool,
) -> Result<Vec<crate::Artifact>, String> {
    let (layout, functions) = vakonomic_functions(d, options);
    render_functions(&d.system, &layout, &functions, options, c, rust)
}

/// The artifacts of the C and Rust targets for a system in implicit form.
pub fn render_implicit(
    d: &ImplicitDerivation,
    options: CodeOptions,
    c: bool,
    rust: bool,
) -> Result<Vec<crate::Artifact>, String> {
    let (layout, functions) = crate::numeric::functions(d, options);
    render_functions(&d.system, &layout, &functions, options, c, rust)
}

/// Lays the functions out through the templates.
fn render_functions(
    system: &System,
    layout: &Layout,
    functions: &[Function],
    options: CodeOptions,
    c: bool,
    rust: bool,
) -> Result<Vec<crate::Artifact>, String> {
    let name = &system.name;
    let mut ctx = tera::Context::new();
    ctx.insert("version", env!("CARGO_PKG_VERSION"));
    ctx.insert("spec", &format!("system `{name}`"));
    ctx.insert("name", name);
    ctx.insert("prefix", name);
    ctx.insert("prefix_upper", &name.to_uppercase());
    ctx.insert("guard", &name.to_uppercase());
    ctx.insert("header", &format!("{name}.h"));
    ctx.insert("state_len", &layout.state.len());
    ctx.insert("param_len", &layout.parameters.len());
    ctx.insert("input_len", &layout.inputs.len());
    ctx.insert("function_len", &layout.functions.len());
    ctx.insert("multiplier_len", &system.constraints.len());
    ctx.insert("velocity_len", &system.rank());
    let docs =
        |list: &[String]| -> Vec<String> { list.iter().map(|s| symbol_doc(system, s)).collect() };
    ctx.insert("state", &docs(&layout.state));
    ctx.insert("parameters", &docs(&layout.parameters));
    ctx.insert("inputs", &docs(&layout.inputs));
    ctx.insert("function_docs", &function_docs(system, layout));
    ctx.insert(
        "default_real",
        match options.float {
            Float::F64 => "double",
            Float::F32 => "float",
        },
    );
    ctx.insert(
        "default_rust_real",
        match options.float {
            Float::F64 => "f64",
            Float::F32 => "f32",
        },
    );
    ctx.insert(
        "uses_calls",
        &functions.iter().any(|f| {
            f.program
                .nodes
                .iter()
                .any(|n| matches!(n, Node::Call(..) | Node::Pow(..)))
        }),
    );
    ctx.insert("uses_solve", &functions.iter().any(|f| f.solve.is_some()));
    let mut artifacts = Vec::new();
    let notes = saturation_notes(functions, options.egraph);
    let targets = [(c, Language::C), (rust, Language::Rust)];
    for (wanted, language) in targets {
        if !wanted {
            continue;
        }
        let mut ops = Vec::new();
        let rendered: Vec<tera::Value> = functions
            .iter()
            .map(|f| {
                let (mut body, mut assignments) = statements(layout, f, language, options.float);
                if let Some(solve) = &f.solve {
                    body.splice(0..0, crate::numeric::declarations(solve, language));
                    assignments.extend(crate::numeric::solve_lines(solve, language));
                }
                let count = match &f.solve {
                    Some(solve) => crate::numeric::describe_total(&f.program.op_count(), solve),
                    None => describe_count(&f.program.op_count()),
                };
                ops.push((f.name.clone(), total_ops(f)));
                serde_json::json!({
                    "name": f.name,
                    "doc": f.doc,
                    "state": f.state.as_ref().map(|state| docs(state)),
                    "outputs": f.outputs.iter().map(|o| serde_json::json!({"name": o.name, "len": o.len, "doc": o.doc})).collect::<Vec<_>>(),
                    "denominators": f.program.denominators.iter().map(|e| cas::print::spec(e, &|s| system.spec_name(s))).collect::<Vec<_>>(),
                    "count": count,
                    "body": body,
                    "assignments": assignments,
                })
            })
            .collect();
        let mut ctx = ctx.clone();
        ctx.insert("functions", &rendered);
        let files: &[(&str, &str, String)] = match language {
            Language::C => &[
                (
                    "system.h",
                    include_str!("../../../templates/c/system.h"),
                    format!("{name}.h"),
                ),
                (
                    "system.c",
                    include_str!("../../../templates/c/system.c"),
                    format!("{name}.c"),
                ),
            ],
            Language::Rust => &[(
                "system.rs",
                include_str!("../../../templates/rust/system.rs"),
                format!("{name}.rs"),
            )],
        };
        for (template, text, file_name) in files {
            let mut tera = tera::Tera::default();
            tera.add_raw_template(template, text)
                .map_err(|e| format!("template {template}: {e}"))?;
            let contents = tera
                .render(template, &ctx)
                .map_err(|e| format!("template {template}: {e:?}"))?;
            let code = !file_name.ends_with(".h");
            artifacts.push(crate::Artifact {
                file_name: file_name.clone(),
                contents,
                ops: if code { ops.clone() } else { Vec::new() },
                notes: if code { notes.clone() } else { Vec::new() },
            });
        }
    }
    Ok(artifacts)
}

/// A function's operations as its banner states them: its program, plus the solve and the
/// `implicit` call of the implicit route.
fn total_ops(f: &Function) -> usize {
    let own = f.program.op_count();
    match &f.solve {
        Some(solve) => crate::numeric::total(&own, solve),
        None => own.total(),
    }
}

/// One note naming the functions whose equality saturation stopped at a budget, if any.
fn saturation_notes(functions: &[Function], limits: Limits) -> Vec<String> {
    let stopped = |stop: Stop| -> Vec<&str> {
        functions
            .iter()
            .filter(|f| f.saturation == Some(stop))
            .map(|f| f.name.as_str())
            .collect()
    };
    let mut notes = Vec::new();
    let nodes = stopped(Stop::Nodes);
    if !nodes.is_empty() {
        notes.push(format!(
            "equality saturation of {} stopped at the e-node budget ({} nodes, --egraph-nodes); the cheapest program found by then is emitted",
            nodes.join(", "),
            limits.nodes
        ));
    }
    let iterations = stopped(Stop::Iterations);
    if !iterations.is_empty() {
        notes.push(format!(
            "equality saturation of {} stopped at the iteration budget ({} iterations, --egraph-iters); the cheapest program found by then is emitted",
            iterations.join(", "),
            limits.iterations
        ));
    }
    notes
}
