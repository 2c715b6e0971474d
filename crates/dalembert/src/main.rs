//! The `dalembert` command line.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use dalembert::{CodeOptions, Diagnostic, Float, Form, Target, Verdict};

/// dalembert: exact equations of motion for constrained mechanical systems on Lie algebroids.
#[derive(Parser)]
#[command(version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum FloatArg {
    F64,
    F32,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum FormArg {
    Explicit,
    Implicit,
    Both,
}

#[derive(Subcommand)]
enum Command {
    /// Derive the equations of each spec and write the requested artifacts.
    Derive {
        /// Spec files (`*.mech`).
        #[arg(required = true)]
        specs: Vec<PathBuf>,
        /// Comma-separated targets: json, latex, c, rust.
        #[arg(long, default_value = "json,latex", value_delimiter = ',')]
        emit: Vec<String>,
        /// The default float type of emitted code.
        #[arg(long, value_enum, default_value = "f64")]
        float: FloatArg,
        /// Which functions the emitted code provides.
        #[arg(long, value_enum, default_value = "both")]
        form: FormArg,
        /// Output directory.
        #[arg(short = 'o', long = "out", default_value = "out")]
        out: PathBuf,
    },
    /// Derive each spec and prove its `expect` blocks.
    Check {
        /// Spec files (`*.mech`).
        #[arg(required = true)]
        specs: Vec<PathBuf>,
    },
}

fn report(path: &Path, source: &str, diagnostics: &[Diagnostic]) {
    let name = path.display().to_string();
    let stderr = std::io::stderr();
    if stderr.is_terminal() {
        let mut writer =
            syntax::termcolor::StandardStream::stderr(syntax::termcolor::ColorChoice::Auto);
        if dalembert::render_terminal(&name, source, diagnostics, &mut writer).is_ok() {
            return;
        }
    }
    eprint!("{}", dalembert::render_plain(&name, source, diagnostics));
}

fn targets(names: &[String]) -> Result<Vec<Target>, String> {
    let mut out: Vec<Target> = Vec::new();
    for name in names {
        let t = Target::from_name(name.trim())
            .ok_or_else(|| format!("unknown target `{name}` (expected json, latex, c or rust)"))?;
        if !out.contains(&t) {
            out.push(t);
        }
    }
    out.sort();
    Ok(out)
}

fn load(path: &Path) -> Option<(String, dalembert::Derivation)> {
    let source = match dalembert::read_spec(path) {
        Ok(s) => s,
        Err(message) => {
            eprintln!("{message}");
            return None;
        }
    };
    match dalembert::compile(&source) {
        Ok(d) => Some((source, d)),
        Err(diagnostics) => {
            report(path, &source, &diagnostics);
            None
        }
    }
}

fn derive(specs: &[PathBuf], emit: &[String], options: CodeOptions, out: &Path) -> ExitCode {
    let targets = match targets(emit) {
        Ok(t) => t,
        Err(message) => {
            eprintln!("dalembert: {message}");
            return ExitCode::from(2);
        }
    };
    let mut artifacts = Vec::new();
    let mut failed = false;
    for path in specs {
        let Some((_, derivation)) = load(path) else {
            failed = true;
            continue;
        };
        match dalembert::render_with(&derivation, &targets, options) {
            Ok(a) => artifacts.extend(a),
            Err(message) => {
                eprintln!("{}: error: {message}", path.display());
                failed = true;
            }
        }
    }
    if failed {
        eprintln!("dalembert: nothing written");
        return ExitCode::from(1);
    }
    if let Err(e) = dalembert::output::write_all(out, &artifacts) {
        eprintln!("dalembert: cannot write to {}: {e}", out.display());
        return ExitCode::from(1);
    }
    for a in &artifacts {
        eprintln!("wrote {}", out.join(&a.file_name).display());
    }
    ExitCode::SUCCESS
}

fn check(specs: &[PathBuf]) -> ExitCode {
    let mut failed = false;
    for path in specs {
        let Some((source, derivation)) = load(path) else {
            failed = true;
            continue;
        };
        match dalembert::check(&derivation) {
            Ok(outcomes) => {
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
                                dalembert::show(&derivation, by)
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

fn main() -> ExitCode {
    let cli = Cli::parse();
    let _lock = match dalembert::lock::acquire() {
        Ok(lock) => lock,
        Err(e) => {
            eprintln!(
                "dalembert: cannot take the lock {}: {e}",
                dalembert::lock::lock_path().display()
            );
            return ExitCode::from(1);
        }
    };
    match &cli.command {
        Command::Derive {
            specs,
            emit,
            float,
            form,
            out,
        } => {
            let options = CodeOptions {
                float: match float {
                    FloatArg::F64 => Float::F64,
                    FloatArg::F32 => Float::F32,
                },
                form: match form {
                    FormArg::Explicit => Form::Explicit,
                    FormArg::Implicit => Form::Implicit,
                    FormArg::Both => Form::Both,
                },
            };
            derive(specs, emit, options, out)
        }
        Command::Check { specs } => check(specs),
    }
}
