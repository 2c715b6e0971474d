//! The emitted functions, run in process: each function's straight-line program (the one the C
//! and Rust are printed from) is evaluated by `cas::program::Program::evaluate`, and the fixed
//! code after it — the implicit route's `L D Lᵀ` and Schur-complement solve, the projections'
//! Gauss–Newton steps — is the emitted Rust's own kernels (`templates/rust/kernels/`, included
//! here as they are emitted), the twins of the C kernels of `templates/c/system.c`, step for
//! step. So a simulation and the emitted code compute the same numbers.

// The emitted kernels are compiled in as they are emitted, and they keep the emitted code's
// style: the C guard's negated comparison (which refuses NaN) and index loops.
#![allow(clippy::neg_cmp_op_on_partial_ord, clippy::needless_range_loop)]

use std::collections::BTreeMap;

use emit::code::{Array, CodeOptions, Function, Kernel, Layout, Slot, SolveSpec};

/// One function, ready to run.
struct Compiled {
    function: Function,
    /// The position of each output slot (`xdot[3]`, `energy0_`) among the program's outputs.
    slots: BTreeMap<String, usize>,
}

/// The emitted functions of a flow.
pub struct Machine {
    layout: Layout,
    functions: Vec<Compiled>,
    /// For `--project-init` on a system whose code has no `project_velocity` (the projections
    /// are emitted for holonomic constraints): `Ψ` and `μ = ∂Ψ/∂y` of its constraints, built the
    /// way `velocity_constraints` is, and the number of constraints, velocities and coordinates.
    start: Option<(Compiled, usize, usize, usize)>,
}

/// The values a function wrote, by slot.
pub struct Slots(BTreeMap<String, f64>);

impl Slots {
    /// The value of entry `index` of `array`.
    pub fn get(&self, array: &Array, index: usize) -> Option<f64> {
        self.0.get(&array.at(index).to_string()).copied()
    }

    /// The entries of `array`, in order.
    pub fn array(&self, array: &Array) -> Vec<f64> {
        (0..).map_while(|k| self.get(array, k)).collect()
    }
}

/// The arguments every function reads besides the state.
pub struct Arguments {
    /// `p`.
    pub parameters: Vec<f64>,
    /// `u` at time `t`.
    pub inputs: Box<dyn Fn(f64) -> Vec<f64>>,
    /// `f` at time `t`.
    pub functions: Box<dyn Fn(f64) -> Vec<f64>>,
}

impl Machine {
    /// The functions `emit` makes of `flow` (explicit and implicit, without stabilisation).
    pub fn new(flow: &report::Flow, system: &model::System) -> Machine {
        let (layout, functions) = emit::code::functions(flow, system, CodeOptions::default());
        let functions = functions
            .into_iter()
            .map(|function| {
                let slots = function
                    .program
                    .outputs
                    .iter()
                    .enumerate()
                    .map(|(k, (name, _))| (name.clone(), k))
                    .collect();
                Compiled { function, slots }
            })
            .collect();
        let mut machine = Machine {
            layout,
            functions,
            start: None,
        };
        if !machine.has("project_velocity") && !system.constraints.is_empty() {
            machine.start = machine.start_projection(system);
        }
        machine
    }

    /// `Ψ` and `μ` of the constraints as a program (see [`Machine::start`]).
    fn start_projection(&self, system: &model::System) -> Option<(Compiled, usize, usize, usize)> {
        let velocities = &system.keys(&system.algebroid.velocities);
        let mut program = cas::program::Program::new(self.layout.symbols());
        for (a, c) in system.constraints.iter().enumerate() {
            program
                .output(Array::Velocity.at(a).to_string(), &c.psi)
                .ok()?;
        }
        for (a, c) in system.constraints.iter().enumerate() {
            for (k, y) in velocities.iter().enumerate() {
                let slot = Array::VelocityJacobian.at(a * velocities.len() + k);
                program.output(slot.to_string(), &c.psi.diff(y)).ok()?;
            }
        }
        let slots = program
            .outputs
            .iter()
            .enumerate()
            .map(|(k, (name, _))| (name.clone(), k))
            .collect();
        let function = Function {
            name: "velocity_constraints".into(),
            doc: String::new(),
            outputs: Vec::new(),
            program,
            solve: None,
            stabilisation: None,
            kernel: None,
            saturation: None,
            state: None,
            sparsity: None,
        };
        let (rows, columns) = (system.constraints.len(), velocities.len());
        Some((
            Compiled { function, slots },
            rows,
            columns,
            system.coordinates.len(),
        ))
    }

    /// The state moved onto the constraints for the start of a simulation: the emitted
    /// projections, or Gauss–Newton steps on `Ψ` in the velocities where none is emitted.
    pub fn project_start(&self, t: f64, x: &mut [f64], args: &Arguments) -> Result<(), String> {
        self.project(t, x, args)?;
        let Some((compiled, rows, columns, offset)) = &self.start else {
            return Ok(());
        };
        for _ in 0..emit::code::PROJECTION_ITERATIONS {
            let values = compiled.function.program.evaluate(&self.inputs(t, x, args));
            let at = |array: &Array, k: usize| values[compiled.slots[&array.at(k).to_string()]];
            let mut g: Vec<f64> = (0..*rows).map(|a| at(&Array::Velocity, a)).collect();
            let j: Vec<f64> = (0..rows * columns)
                .map(|k| at(&Array::VelocityJacobian, k))
                .collect();
            let mut s = vec![0.0; rows * rows];
            let q = &mut x[*offset..offset + columns];
            if !gauss_newton(&j, &mut g, *rows, *columns, &mut s, q) {
                return Err("the constraints are dependent here".into());
            }
        }
        Ok(())
    }

    /// The argument layout.
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// Whether the flow has the function `name`.
    pub fn has(&self, name: &str) -> bool {
        self.find(name).is_some()
    }

    fn find(&self, name: &str) -> Option<&Compiled> {
        self.functions.iter().find(|c| c.function.name == name)
    }

    /// The program inputs at `(t, x)`: `t`, `x`, `p`, `u`, `f`.
    fn inputs(&self, t: f64, x: &[f64], args: &Arguments) -> Vec<f64> {
        let mut v = Vec::with_capacity(1 + x.len() + args.parameters.len());
        v.push(t);
        v.extend_from_slice(x);
        v.extend_from_slice(&args.parameters);
        v.extend((args.inputs)(t));
        v.extend((args.functions)(t));
        v
    }

    /// Runs the function `name` at `(t, x)`: its program, then its solve.
    pub fn call(&self, name: &str, t: f64, x: &[f64], args: &Arguments) -> Result<Slots, String> {
        let compiled = self
            .find(name)
            .ok_or_else(|| format!("the system has no function `{name}`"))?;
        let values = compiled.function.program.evaluate(&self.inputs(t, x, args));
        let mut slots: BTreeMap<String, f64> = compiled
            .slots
            .iter()
            .map(|(slot, &k)| (slot.clone(), values[k]))
            .collect();
        if let Some(solve) = &compiled.function.solve {
            let implicit = self.call("implicit", t, x, args)?;
            self.solve(solve, &implicit, x, &mut slots)?;
        }
        Ok(Slots(slots))
    }

    /// The solve of the implicit route after `rhs`'s or `dynamics`'s program (the C of
    /// `solve_lines`): `W a + μᵀ λ = b`, `μ a = β`.
    fn solve(
        &self,
        s: &SolveSpec,
        implicit: &Slots,
        x: &[f64],
        slots: &mut BTreeMap<String, f64>,
    ) -> Result<(), String> {
        let (n, r, m) = (s.n, s.r, s.m);
        let mut w = implicit.array(&Array::Mass);
        let mut a = implicit.array(&Array::Forcing);
        let mu = implicit.array(&Array::Jacobian);
        let beta = implicit.array(&Array::Bias);
        let slot = |array: Array, index: Option<usize>| Slot { array, index }.to_string();
        if s.kinetic_from_mass {
            let energy0 = slots.get(&slot(Array::Energy0, None)).copied();
            slots.insert(
                slot(Array::Energy, Some(0)),
                energy0.unwrap_or(0.0) + kinetic_energy(&w, n, &x[m..m + n]),
            );
        }
        if !ldl_factor(&mut w, n, n.saturating_sub(1)) {
            return Err("the mass matrix is singular (a pivot of its L D L^T vanished)".into());
        }
        ldl_solve(&w, n, n.saturating_sub(1), &mut a);
        let mut lambda = vec![0.0; r];
        let (mut y, mut complement) = (vec![0.0; r * n], vec![0.0; r * r]);
        if r > 0
            && !schur_solve(
                &w,
                n,
                &mu,
                &beta,
                r,
                &mut y,
                &mut complement,
                &mut lambda,
                &mut a,
            )
        {
            return Err(
                "the constraints are dependent here (a pivot of mu W^-1 mu^T vanished)".into(),
            );
        }
        for (k, value) in a.iter().enumerate() {
            slots.insert(slot(Array::Xdot, Some(m + k)), *value);
        }
        if s.dynamics {
            let mut rate = slots.get(&slot(Array::Rate, None)).copied().unwrap_or(0.0);
            for (c, l) in lambda.iter().enumerate() {
                slots.insert(slot(Array::Lambda, Some(c)), *l);
                let power = slots.get(&slot(Array::Power, Some(c))).copied();
                rate -= l * power.unwrap_or(0.0);
            }
            slots.insert(slot(Array::Energy, Some(1)), rate);
        }
        Ok(())
    }

    /// `project_position` then `project_velocity` (those the system has): the state moved onto
    /// the constraints by the emitted Gauss–Newton steps.
    pub fn project(&self, t: f64, x: &mut [f64], args: &Arguments) -> Result<(), String> {
        for (kernel, constraints, value, jacobian) in [
            (
                "project_position",
                "position_constraints",
                Array::Position,
                Array::PositionJacobian,
            ),
            (
                "project_velocity",
                "velocity_constraints",
                Array::Velocity,
                Array::VelocityJacobian,
            ),
        ] {
            let Some(compiled) = self.find(kernel) else {
                continue;
            };
            let (rows, columns, offset, steps) = match compiled.function.kernel {
                Some(Kernel::ProjectPosition {
                    rows,
                    columns,
                    steps,
                    ..
                }) => (rows, columns, 0, steps),
                Some(Kernel::ProjectVelocity {
                    rows,
                    columns,
                    offset,
                    steps,
                    ..
                }) => (rows, columns, offset, steps),
                _ => continue,
            };
            for _ in 0..steps {
                let slots = self.call(constraints, t, x, args)?;
                let mut g = slots.array(&value);
                let j = slots.array(&jacobian);
                let mut s = vec![0.0; rows * rows];
                let q = &mut x[offset..offset + columns];
                if !gauss_newton(&j, &mut g, rows, columns, &mut s, q) {
                    return Err(format!("{kernel}: the constraints are dependent here"));
                }
            }
        }
        Ok(())
    }
}

// The kernels of the emitted Rust (`templates/rust/kernels/`), compiled in as they are emitted:
// on `f64`, with the guard's default threshold, so that a pivot is refused when it is zero or
// NaN, as by the emitted code built without `DALEMBERT_EPSILON`.
type Real = f64;
const EPSILON: Real = 0.0;
include!("../../../../templates/rust/kernels/ldl.rs");
include!("../../../../templates/rust/kernels/gauss_newton.rs");
include!("../../../../templates/rust/kernels/schur.rs");
include!("../../../../templates/rust/kernels/kinetic_energy.rs");
