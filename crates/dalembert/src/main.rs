//! The `dalembert` command line.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use dalembert::{Budgets, Code, CodeOptions, Diagnostic, Float, Form, Target, Verdict};

/// Expression trees are built and dropped node by node; mimalloc serves them faster than the
/// system allocator (docs/architecture.md has the measurements). Outputs do not depend on it.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// dalembert: exact equations of motion for constrained mechanical systems on Lie algebroids.
#[derive(Parser)]
#[command(version, about)]
struct Cli {
    /// Show the informational logs of dalembert's dependencies (`RUST_LOG`, when set, decides
    /// instead).
    #[arg(short, long, global = true)]
    verbose: bool,
    #[command(subcommand)]
    command: Command,
}

/// The watchdog of one run: wall time and memory, for `derive` and `check` alike.
#[derive(clap::Args)]
struct WatchdogArgs {
    /// Give up (exit 1, nothing written) after this many seconds of work (E0503).
    #[arg(long, default_value_t = 600)]
    timeout: u64,
    /// Give up (exit 1, nothing written) when the process holds more than this many MiB of
    /// memory (E0504); the default is three quarters of the machine's memory.
    #[arg(long)]
    max_memory: Option<u64>,
}

impl WatchdogArgs {
    fn arm(&self) {
        let limits = dalembert::watchdog::Limits {
            time: std::time::Duration::from_secs(self.timeout),
            memory: self
                .max_memory
                .map_or_else(dalembert::watchdog::default_memory_budget, |mib| mib << 20),
        };
        dalembert::watchdog::arm(limits, |diagnostic| {
            fail(std::slice::from_ref(diagnostic));
            eprintln!("dalembert: nothing written");
        });
    }
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum FloatArg {
    F64,
    F32,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum SolveArg {
    Auto,
    Symbolic,
    Numeric,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum ArithmeticArg {
    Auto,
    Exact,
    Double,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum MethodArg {
    Multipliers,
    Induced,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum FormArg {
    Explicit,
    Implicit,
    Both,
    /// Only `forward_dynamics` and `inverse_dynamics` of a tree of joints (O(n) code).
    Tree,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum WorkArg {
    /// Work arrays are locals of each function.
    Stack,
    /// Work arrays come from the caller: the C functions that need them take a last argument
    /// `work` of `SYSTEM_FUNCTION_WORK` values (a macro of the header).
    Caller,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum LatexLevelArg {
    /// The report's sections are `\section`s (a standalone document).
    Section,
    /// `\subsection`s: the body is `\input` inside a section of the paper.
    Subsection,
    /// `\subsubsection`s.
    Subsubsection,
}

#[derive(Subcommand)]
enum Command {
    /// Derive the equations of each spec and write the requested artifacts.
    Derive {
        /// Spec files (`*.mech`).
        #[arg(required = true)]
        specs: Vec<PathBuf>,
        /// Comma-separated targets: json, latex, c, rust, cmake (a CMake project with the C and a
        /// test), crate (a no_std Cargo package with the Rust and a test).
        #[arg(long, default_value = "json,latex", value_delimiter = ',')]
        emit: Vec<String>,
        /// The default float type of emitted code.
        #[arg(long, value_enum, default_value = "f64")]
        float: FloatArg,
        /// Which functions the emitted code provides: `explicit` (rhs, dynamics, rhs_jacobian and
        /// the companions), `implicit` (W, the forcing and the constraints), `both`, or `tree`
        /// (only the O(n) forward_dynamics and inverse_dynamics of a spec with bodies and joints).
        #[arg(long, value_enum, default_value = "both")]
        form: FormArg,
        /// How accelerations are obtained: `symbolic` (closed form), `numeric` (the implicit form,
        /// solved by the emitted code), or `auto` (the closed form when it fits a budget of
        /// expression size and time, else the implicit form; the choice is printed as a note).
        #[arg(long, value_enum, default_value = "auto")]
        solve: SolveArg,
        /// Which equations the outputs lead with and the emitted code integrates:
        /// `multipliers` (Lagrange–d'Alembert on the state (x, y)) or `induced` (the
        /// unconstrained equations of the restricted Lagrangian on the constraint distribution D,
        /// [GLMM09] Theorem 5.1, on the state (x, v); needs linear constraints and a mechanical
        /// Lagrangian, and implies the closed form).
        #[arg(long, value_enum, default_value = "multipliers")]
        method: MethodArg,
        /// Refuse to write code whose largest function exceeds this many operations (E0502).
        #[arg(long, default_value_t = 2_000_000)]
        max_ops: usize,
        /// Stop a derivation at the first stage that builds an expression of more than this many
        /// tree nodes (E0501).
        #[arg(long, default_value_t = mech::base::budget::DEFAULT_MAX_TERMS)]
        max_terms: usize,
        /// Rewrite iterations of each equality-saturation run on emitted programs.
        #[arg(long, default_value_t = cas::egraph::Limits::default().iterations)]
        egraph_iters: usize,
        /// E-nodes of each equality-saturation run on emitted programs.
        #[arg(long, default_value_t = cas::egraph::Limits::default().nodes)]
        egraph_nodes: usize,
        /// Baumgarte stabilisation of the emitted rhs and dynamics (off by default): the
        /// accelerations keep f'' + 2 ALPHA f' + BETA^2 f = 0 for holonomic constraints and
        /// Psi' + 2 ALPHA Psi = 0 for nonholonomic ones. Two non-negative decimals, `ALPHA,BETA`
        /// (e.g. `10,10`); without constraints it changes nothing.
        #[arg(long, value_name = "ALPHA,BETA", value_parser = parse_baumgarte)]
        baumgarte: Option<dalembert::Baumgarte>,
        /// Where the emitted C keeps its work arrays (the implicit route's matrices, the
        /// projections' Jacobians): on each function's stack, or in an array the caller passes.
        /// The header states every function's footprint either way.
        #[arg(long, value_enum, default_value = "stack")]
        work: WorkArg,
        /// The sectioning command of the LaTeX document's top sections.
        #[arg(long, value_enum, default_value = "section")]
        latex_level: LatexLevelArg,
        /// Comma-separated JSON paths of the quantities the LaTeX document shows (equations,
        /// multipliers, hamiltonian.bracket, …), with the sections that hold them; all when
        /// omitted. A path the document does not display is an error that lists those it does.
        #[arg(long, value_delimiter = ',')]
        latex_sections: Vec<String>,
        /// Print on stderr, at the end, where the run's time went: the wall milliseconds of each
        /// stage (parse, resolve, derive and its steps, describe, lower, each target, write),
        /// nested as the pipeline nests them, summed over the specs; then the wall time from
        /// reading the specs to the last file written (the process's start and exit excluded).
        #[arg(long)]
        profile: bool,
        #[command(flatten)]
        watchdog: WatchdogArgs,
        /// Output directory.
        #[arg(short = 'o', long = "out", default_value = "out")]
        out: PathBuf,
    },
    /// Linearise a spec about an equilibrium or a steady motion: A and B (and the eigenvalues at a
    /// numeric point) on the constraint manifold, in independent coordinates and velocities.
    Linearize {
        /// The spec file (`*.mech`).
        spec: PathBuf,
        /// The point, `NAME=VALUE,…`: state entries (`x`, `theta'`, `v1`), inputs and parameters,
        /// spelled as in the spec; values are expressions and may use the parameters and new
        /// names (`v1=V`). State entries and inputs not given are zero.
        #[arg(long, default_value = "")]
        at: String,
        /// Comma-separated outputs: json, latex, c, rust.
        #[arg(long, default_value = "json,latex", value_delimiter = ',')]
        emit: Vec<String>,
        /// The float type of the emitted code.
        #[arg(long, value_enum, default_value = "f64")]
        float: FloatArg,
        /// Which form is linearised: `symbolic` (the closed form, differentiated), `numeric` (the
        /// implicit form, differentiated implicitly at the point), or `auto` (as `derive`). The C
        /// and Rust outputs need the closed form.
        #[arg(long, value_enum, default_value = "auto")]
        solve: SolveArg,
        /// The arithmetic of A, B and the eigenvalues: `exact` (rational, the parameters may stay
        /// symbols), `double` (double precision; every parameter needs a number), or `auto`
        /// (exact, but double precision at a numeric point of a system whose equations exceed
        /// 20000 expression nodes, such as a bicycle's contact rows).
        #[arg(long, value_enum, default_value = "auto")]
        arithmetic: ArithmeticArg,
        #[command(flatten)]
        watchdog: WatchdogArgs,
        /// Output directory.
        #[arg(short = 'o', long = "out", default_value = "out")]
        out: PathBuf,
    },
    /// Reduce a spec by the symmetry group it declares (`symmetry SE2 on x, y, theta`): write the
    /// reduced system (the Atiyah algebroid over the shape space, its Lagrangian and constraints)
    /// as a spec, `<system>_reduced.mech`, that `derive` reads.
    Reduce {
        /// The spec file (`*.mech`).
        spec: PathBuf,
        #[command(flatten)]
        watchdog: WatchdogArgs,
        /// Output directory.
        #[arg(short = 'o', long = "out", default_value = "out")]
        out: PathBuf,
    },
    /// Integrate a spec in process (no C compiler): the emitted functions' programs, Dormand-Prince
    /// 5(4) or RK4, a CSV of the states, energy, multipliers and constraint residuals, and an SVG
    /// plot of them.
    Simulate {
        /// The spec file (`*.mech`).
        spec: PathBuf,
        /// Every parameter's value, `NAME=VALUE,…`.
        #[arg(long, default_value = "")]
        set: String,
        /// The initial state, `NAME=VALUE,…` (`x=0.1,theta'=2`); entries not given are zero. It
        /// must satisfy the constraints (see --project-init).
        #[arg(long, default_value = "")]
        init: String,
        /// Inputs and given functions of time as expressions of time, `NAME=EXPR,…`
        /// (`F=sin(2*t),Omega=1/2`); those not given are zero.
        #[arg(long, default_value = "")]
        input: String,
        /// The final time.
        #[arg(long)]
        until: f64,
        /// The output interval (default: until/1000); with --method rk4 or variational also the
        /// step.
        #[arg(long)]
        dt: Option<f64>,
        /// `dp54`: adaptive Dormand-Prince 5(4) (default), `rk4`: classic Runge-Kutta with a
        /// fixed step, or `variational`: the midpoint rule's variational integrator (the
        /// spec's discrete equations, `discrete midpoint`) with a fixed step.
        #[arg(long, default_value = "dp54", value_parser = ["dp54", "rk4", "variational"])]
        method: String,
        /// Relative tolerance of Dormand-Prince.
        #[arg(long, default_value_t = sim::DEFAULT_RTOL)]
        rtol: f64,
        /// Absolute tolerance of Dormand-Prince.
        #[arg(long, default_value_t = sim::DEFAULT_ATOL)]
        atol: f64,
        /// Move an initial state that is off the constraints onto them (the emitted projections)
        /// instead of refusing it.
        #[arg(long)]
        project_init: bool,
        /// Do not project onto the constraints after each step (to see the drift).
        #[arg(long)]
        no_project: bool,
        /// Which form is integrated: `symbolic`, `numeric` (the implicit form, solved at every
        /// step) or `auto` (as `derive`).
        #[arg(long, value_enum, default_value = "auto")]
        solve: SolveArg,
        #[command(flatten)]
        watchdog: WatchdogArgs,
        /// Output directory.
        #[arg(short = 'o', long = "out", default_value = "out")]
        out: PathBuf,
    },
    /// Derive each spec and prove its `expect` blocks.
    Check {
        /// Spec files (`*.mech`).
        #[arg(required = true)]
        specs: Vec<PathBuf>,
        #[command(flatten)]
        watchdog: WatchdogArgs,
    },
}

/// Reports the diagnostics of the spec at `path` on stderr: those with a place in its text
/// `source` as rustc does, those without one (a budget of the outputs, an argument, the file
/// itself) as `PATH: error[E0502]: message` and their notes.
fn report(path: &Path, source: &str, diagnostics: &[Diagnostic]) {
    let name = path.display().to_string();
    let (located, unlocated): (Vec<&Diagnostic>, Vec<&Diagnostic>) =
        diagnostics.iter().partition(|d| d.primary.is_some());
    if !located.is_empty() {
        let located: Vec<Diagnostic> = located.into_iter().cloned().collect();
        print("", &name, source, &located);
    }
    for d in unlocated {
        print(&format!("{name}: "), &name, source, std::slice::from_ref(d));
    }
}

/// Reports a failure of the command itself, which concerns no spec, as `dalembert: error[…]: …`.
fn fail(diagnostics: &[Diagnostic]) {
    for d in diagnostics {
        print("dalembert: ", "", "", std::slice::from_ref(d));
    }
}

/// Prints diagnostics on stderr after `prefix`: coloured on a terminal, else plain.
fn print(prefix: &str, name: &str, source: &str, diagnostics: &[Diagnostic]) {
    eprint!("{prefix}");
    if std::io::stderr().is_terminal() {
        let mut writer =
            syntax::termcolor::StandardStream::stderr(syntax::termcolor::ColorChoice::Auto);
        if dalembert::render_terminal(name, source, diagnostics, &mut writer).is_ok() {
            return;
        }
    }
    eprint!("{}", dalembert::render_plain(name, source, diagnostics));
}

fn targets(names: &[String]) -> syntax::Result<Vec<Target>> {
    let mut out: Vec<Target> = Vec::new();
    for name in names {
        let t = Target::from_name(name.trim()).ok_or_else(|| {
            vec![Diagnostic::unlocated(
                Code::E0004,
                format!("unknown target `{name}` (expected json, latex, c, rust, cmake or crate)"),
            )]
        })?;
        if !out.contains(&t) {
            out.push(t);
        }
    }
    out.sort();
    Ok(out)
}

fn read(path: &Path) -> Option<String> {
    match dalembert::read_spec(path) {
        Ok(s) => Some(s),
        Err(unreadable) => {
            report(path, &unreadable.text, &unreadable.diagnostics);
            None
        }
    }
}

/// The last line of `--profile`: the wall time of `derive` (reading, deriving, rendering and
/// writing every spec), which leaves out only the process's start (loading, the command line,
/// the lock) and its exit, as a reference timed inside its own process leaves out its start.
fn in_process(elapsed: std::time::Duration) -> String {
    format!(
        "\nin process: {:.1} ms (from reading the specs to the last file written)",
        elapsed.as_secs_f64() * 1e3
    )
}

fn derive(specs: &[PathBuf], emit: &[String], budgets: &Budgets, out: &Path) -> ExitCode {
    let targets = match targets(emit) {
        Ok(t) => t,
        Err(diagnostics) => {
            fail(&diagnostics);
            return ExitCode::from(2);
        }
    };
    let mut artifacts = Vec::new();
    let mut failed = false;
    for path in specs {
        let Some(source) = read(path) else {
            failed = true;
            continue;
        };
        let spinner = sim::Spinner::new(format!("deriving {}", path.display()));
        let derived = dalembert::derive_spec(&source, &targets, budgets);
        spinner.finish();
        match derived {
            Ok(a) => {
                let notes: std::collections::BTreeSet<&String> =
                    a.iter().flat_map(|a| &a.notes).collect();
                for note in notes {
                    eprintln!("{}: note: {note}", path.display());
                }
                artifacts.extend(a)
            }
            Err(diagnostics) => {
                report(path, &source, &diagnostics);
                failed = true;
            }
        }
    }
    if failed {
        eprintln!("dalembert: nothing written");
        return ExitCode::from(1);
    }
    dalembert::watchdog::disarm();
    write_artifacts(out, &artifacts)
}

fn check(specs: &[PathBuf]) -> ExitCode {
    let mut failed = false;
    for path in specs {
        let Some(source) = read(path) else {
            failed = true;
            continue;
        };
        match dalembert::check_source(&source) {
            Ok((system, outcomes)) => {
                let mut held = 0;
                for o in &outcomes {
                    let (line, _) = syntax::line_col(&source, o.span.start);
                    match &o.verdict {
                        Verdict::Holds => {
                            held += 1;
                            println!(
                                "{}:{line}: expect {} {}: holds",
                                path.display(),
                                o.kind,
                                o.key
                            );
                        }
                        Verdict::Differs(by) => {
                            failed = true;
                            println!(
                                "{}:{line}: expect {} {}: differs by {}",
                                path.display(),
                                o.kind,
                                o.key,
                                cas::print::spec(by, &system)
                            );
                        }
                    }
                }
                println!(
                    "{}: {held} of {} expectations hold",
                    path.display(),
                    outcomes.len()
                );
            }
            Err(diagnostics) => {
                report(path, &source, &diagnostics);
                failed = true;
            }
        }
    }
    if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// The stack of the thread that does a run's work. A spec's expressions are walked recursively,
/// one level per operator of a chain (a sum of 100,000 terms is 100,000 levels deep); the parser
/// refuses more operators than such a stack holds (`syntax::nesting`, E0105), and the memory is
/// only reserved: the pages a run does not reach are never touched.
const WORKER_STACK: usize = 1 << 30;

fn main() -> ExitCode {
    dalembert::pages::without_huge_pages();
    let cli = Cli::parse();
    // Held until the process has ended, past Symbolica's own teardown (see `lock`), and taken
    // before the worker starts (`lock::hold` says why).
    if let Err(e) = dalembert::lock::hold() {
        fail(&[Diagnostic::unlocated(
            Code::E0005,
            format!(
                "cannot take the lock {}: {e}",
                dalembert::lock::lock_path().display()
            ),
        )]);
        return ExitCode::from(1);
    }
    // One worker thread does everything symbolic (Symbolica allows one thread per user): the
    // main thread only waits for it.
    let worker = std::thread::Builder::new()
        .name("dalembert".into())
        .stack_size(WORKER_STACK)
        .spawn(move || run(cli));
    match worker.map(std::thread::JoinHandle::join) {
        Ok(Ok(code)) => code,
        Ok(Err(_)) => ExitCode::from(101),
        Err(e) => {
            fail(&[Diagnostic::unlocated(
                Code::E0005,
                format!("cannot start the worker thread: {e}"),
            )]);
            ExitCode::from(1)
        }
    }
}

/// The run of one command line, on the worker thread.
fn run(cli: Cli) -> ExitCode {
    cas::logging::init(if cli.verbose {
        cas::logging::Verbosity::Info
    } else {
        cas::logging::Verbosity::Quiet
    });
    match &cli.command {
        Command::Derive {
            specs,
            emit,
            float,
            form,
            solve,
            method,
            max_ops,
            max_terms,
            egraph_iters,
            egraph_nodes,
            baumgarte,
            work,
            latex_level,
            latex_sections,
            profile,
            watchdog,
            out,
        } => {
            watchdog.arm();
            if *profile {
                timing::enable();
            }
            let code = CodeOptions {
                float: match float {
                    FloatArg::F64 => Float::F64,
                    FloatArg::F32 => Float::F32,
                },
                form: match form {
                    FormArg::Explicit => Form::Explicit,
                    FormArg::Implicit => Form::Implicit,
                    FormArg::Both => Form::Both,
                    FormArg::Tree => Form::Tree,
                },
                egraph: cas::egraph::Limits {
                    iterations: *egraph_iters,
                    nodes: *egraph_nodes,
                },
                baumgarte: *baumgarte,
                work: match work {
                    WorkArg::Stack => dalembert::Work::Stack,
                    WorkArg::Caller => dalembert::Work::Caller,
                },
            };
            let budgets = Budgets {
                code,
                derive: dalembert::Options {
                    solve: solve_choice(*solve),
                    max_terms: *max_terms,
                    method: match method {
                        MethodArg::Multipliers => dalembert::Method::Multipliers,
                        MethodArg::Induced => dalembert::Method::Induced,
                    },
                    deadline: None,
                    effort_limit: None,
                    closed_form_terms: None,
                },
                max_ops: Some(*max_ops),
                time_limit: None,
                latex: dalembert::LatexOptions {
                    level: match latex_level {
                        LatexLevelArg::Section => dalembert::SectionLevel::Section,
                        LatexLevelArg::Subsection => dalembert::SectionLevel::Subsection,
                        LatexLevelArg::Subsubsection => dalembert::SectionLevel::Subsubsection,
                    },
                    keys: latex_sections.clone(),
                },
            };
            let started = std::time::Instant::now();
            let code = derive(specs, emit, &budgets, out);
            if *profile {
                eprint!("{}", timing::table());
                eprintln!("{}", in_process(started.elapsed()));
            }
            code
        }
        Command::Linearize {
            spec,
            at,
            emit,
            float,
            solve,
            arithmetic,
            watchdog,
            out,
        } => {
            watchdog.arm();
            let requested = match arithmetic {
                ArithmeticArg::Auto => mech::linearize::Requested::Auto,
                ArithmeticArg::Exact => mech::linearize::Requested::Exact,
                ArithmeticArg::Double => mech::linearize::Requested::Double,
            };
            let solve = dalembert::Options {
                solve: solve_choice(*solve),
                ..dalembert::Options::default()
            };
            let options = CodeOptions {
                float: match float {
                    FloatArg::F64 => Float::F64,
                    FloatArg::F32 => Float::F32,
                },
                ..CodeOptions::default()
            };
            linearize(spec, at, emit, (solve, options, requested), out)
        }
        Command::Reduce {
            spec,
            watchdog,
            out,
        } => {
            watchdog.arm();
            run_one(spec, out, |source| {
                let _spinner = sim::Spinner::new(format!("reducing {}", spec.display()));
                dalembert::reduce::reduce_spec(source).map(|r| (r.summary, r.artifacts))
            })
        }
        Command::Simulate {
            spec,
            set,
            init,
            input,
            until,
            dt,
            method,
            rtol,
            atol,
            project_init,
            no_project,
            solve,
            watchdog,
            out,
        } => {
            watchdog.arm();
            let request = dalembert::simulate::Request {
                set: set.clone(),
                init: init.clone(),
                input: input.clone(),
                until: *until,
                dt: *dt,
                integrator: match method.as_str() {
                    "rk4" => dalembert::simulate::Integrator::RungeKutta,
                    "variational" => dalembert::simulate::Integrator::Variational,
                    _ => dalembert::simulate::Integrator::DormandPrince,
                },
                tolerances: (*rtol, *atol),
                project_init: *project_init,
                no_project: *no_project,
                progress: std::io::stderr().is_terminal(),
            };
            let options = dalembert::Options {
                solve: solve_choice(*solve),
                ..dalembert::Options::default()
            };
            simulate(spec, &request, &options, out)
        }
        Command::Check { specs, watchdog } => {
            watchdog.arm();
            check(specs)
        }
    }
}

fn simulate(
    spec: &Path,
    request: &dalembert::simulate::Request,
    options: &dalembert::Options,
    out: &Path,
) -> ExitCode {
    run_one(spec, out, |source| {
        dalembert::simulate::simulate_spec(source, request, options)
            .map(|s| (s.summary, s.artifacts))
    })
}

/// One spec through `work`: its failures reported (nothing written), or its summary printed
/// and its artifacts written.
fn run_one(
    spec: &Path,
    out: &Path,
    work: impl FnOnce(&str) -> syntax::Result<(Vec<String>, Vec<dalembert::Artifact>)>,
) -> ExitCode {
    let Some(source) = read(spec) else {
        return ExitCode::from(1);
    };
    let (summary, artifacts) = match work(&source) {
        Ok(done) => done,
        Err(diagnostics) => {
            report(spec, &source, &diagnostics);
            eprintln!("dalembert: nothing written");
            return ExitCode::from(1);
        }
    };
    dalembert::watchdog::disarm();
    for line in &summary {
        println!("{line}");
    }
    write_artifacts(out, &artifacts)
}

fn solve_choice(solve: SolveArg) -> dalembert::Solve {
    match solve {
        SolveArg::Auto => dalembert::Solve::Auto,
        SolveArg::Symbolic => dalembert::Solve::Symbolic,
        SolveArg::Numeric => dalembert::Solve::Numeric,
    }
}

fn linearize(
    spec: &Path,
    at: &str,
    emit: &[String],
    (solve, options, requested): (dalembert::Options, CodeOptions, mech::linearize::Requested),
    out: &Path,
) -> ExitCode {
    let targets = match targets(emit) {
        Ok(t) => t,
        Err(diagnostics) => {
            fail(&diagnostics);
            return ExitCode::from(2);
        }
    };
    run_one(spec, out, |source| {
        let _spinner = sim::Spinner::new(format!("linearising {}", spec.display()));
        dalembert::linearize::linearize_spec_in(source, at, &targets, (solve, options), requested)
            .map(|l| (l.summary, l.artifacts))
    })
}

/// Writes `artifacts` into `out` (all or nothing) and lists them on stderr.
fn write_artifacts(out: &Path, artifacts: &[dalembert::Artifact]) -> ExitCode {
    let written = timing::timed("write", || dalembert::output::write_all(out, artifacts));
    if let Err(e) = written {
        fail(&[Diagnostic::unlocated(
            Code::E0517,
            format!("cannot write to {}: {e}", out.display()),
        )]);
        return ExitCode::from(1);
    }
    for a in artifacts {
        eprintln!("wrote {}", out.join(&a.file_name).display());
    }
    ExitCode::SUCCESS
}

/// `ALPHA,BETA` as two exact rationals (`10,10`, `0.5,2`).
fn parse_baumgarte(text: &str) -> Result<dalembert::Baumgarte, String> {
    let decimal = |part: &str| -> Result<(i64, i64), String> {
        let part = part.trim();
        let (whole, fraction) = part.split_once('.').unwrap_or((part, ""));
        let digits = format!("{whole}{fraction}");
        if whole.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) || fraction.len() > 12 {
            return Err(format!("`{part}` is not a non-negative decimal number"));
        }
        let numerator: i64 = digits
            .parse()
            .map_err(|_| format!("`{part}` is too large"))?;
        Ok((numerator, 10_i64.pow(fraction.len() as u32)))
    };
    let (alpha, beta) = text
        .split_once(',')
        .ok_or_else(|| "expected `ALPHA,BETA`, two numbers separated by a comma".to_string())?;
    let lowest = |(n, d): (i64, i64)| {
        let (mut a, mut b) = (n, d);
        while b != 0 {
            (a, b) = (b, a % b);
        }
        let g = a.max(1);
        (n / g, d / g)
    };
    Ok(dalembert::Baumgarte {
        alpha: lowest(decimal(alpha)?),
        beta: lowest(decimal(beta)?),
    })
}
