//! Every template of the emitted text, compiled in and parsed once when first needed (each with
//! the templates it includes: [`unit_of`]), by its path under `templates/`: the C header and
//! source and the Rust module (`c/system.h`, `c/system.c`, `rust/system.rs`) with the Rust
//! kernels they include (`rust/kernels/`), the statement blocks the functions share
//! (`c/snippets/`, `rust/snippets/`), and the LaTeX document, body and bibliography (`latex/`).
//! The package files are the `package` crate's.

use tera::{Context, Tera};

/// Each template, by its path under `templates/`.
const TEMPLATES: &[(&str, &str)] = &[
    ("c/system.h", include_str!("../../../templates/c/system.h")),
    ("c/system.c", include_str!("../../../templates/c/system.c")),
    (
        "rust/kernels/ldl.rs",
        include_str!("../../../templates/rust/kernels/ldl.rs"),
    ),
    (
        "rust/kernels/gauss_newton.rs",
        include_str!("../../../templates/rust/kernels/gauss_newton.rs"),
    ),
    (
        "rust/kernels/schur.rs",
        include_str!("../../../templates/rust/kernels/schur.rs"),
    ),
    (
        "rust/kernels/kinetic_energy.rs",
        include_str!("../../../templates/rust/kernels/kinetic_energy.rs"),
    ),
    (
        "rust/system.rs",
        include_str!("../../../templates/rust/system.rs"),
    ),
    (
        "c/snippets/implicit_declarations.c",
        include_str!("../../../templates/c/snippets/implicit_declarations.c"),
    ),
    (
        "rust/snippets/implicit_declarations.rs",
        include_str!("../../../templates/rust/snippets/implicit_declarations.rs"),
    ),
    (
        "c/snippets/implicit_solve.c",
        include_str!("../../../templates/c/snippets/implicit_solve.c"),
    ),
    (
        "rust/snippets/implicit_solve.rs",
        include_str!("../../../templates/rust/snippets/implicit_solve.rs"),
    ),
    (
        "c/snippets/projection.c",
        include_str!("../../../templates/c/snippets/projection.c"),
    ),
    (
        "rust/snippets/projection.rs",
        include_str!("../../../templates/rust/snippets/projection.rs"),
    ),
    (
        "c/snippets/acceleration_residual.c",
        include_str!("../../../templates/c/snippets/acceleration_residual.c"),
    ),
    (
        "rust/snippets/acceleration_residual.rs",
        include_str!("../../../templates/rust/snippets/acceleration_residual.rs"),
    ),
    (
        "c/snippets/stabilisation_bias.c",
        include_str!("../../../templates/c/snippets/stabilisation_bias.c"),
    ),
    (
        "rust/snippets/stabilisation_bias.rs",
        include_str!("../../../templates/rust/snippets/stabilisation_bias.rs"),
    ),
    (
        "c/snippets/stabilisation_rates.c",
        include_str!("../../../templates/c/snippets/stabilisation_rates.c"),
    ),
    (
        "rust/snippets/stabilisation_rates.rs",
        include_str!("../../../templates/rust/snippets/stabilisation_rates.rs"),
    ),
    (
        "c/snippets/discrete_step.c",
        include_str!("../../../templates/c/snippets/discrete_step.c"),
    ),
    (
        "rust/snippets/discrete_step.rs",
        include_str!("../../../templates/rust/snippets/discrete_step.rs"),
    ),
    (
        "rust/kernels/lu.rs",
        include_str!("../../../templates/rust/kernels/lu.rs"),
    ),
    (
        "latex/document.tex",
        include_str!("../../../templates/latex/document.tex"),
    ),
    (
        "latex/body.tex",
        include_str!("../../../templates/latex/body.tex"),
    ),
    (
        "latex/references.bib",
        include_str!("../../../templates/latex/references.bib"),
    ),
];

/// The top folders of `templates/`, one per kind of target: a run parses only the templates of
/// the targets it renders.
const FOLDERS: [&str; 3] = ["c/", "rust/", "latex/"];

/// The template a template is parsed with: the one that includes it (`{% include %}`), else
/// itself. Only the Rust module includes others (its kernels); every other template is parsed
/// on its own, so that a run waits only for the parse of the templates it renders (a small
/// system's C renders the header and the source and none of the snippets, two fifths of the C
/// templates' text), and two threads may parse two of them at once.
fn unit_of(path: &str) -> &str {
    if path.starts_with("rust/kernels/") {
        "rust/system.rs"
    } else {
        path
    }
}

/// The position in [`TEMPLATES`] of the template `path` is parsed with, if it is one.
fn unit_index(path: &str) -> Option<usize> {
    let unit = unit_of(path);
    TEMPLATES.iter().position(|(p, _)| *p == unit)
}

/// Each unit's parse, by the position of its template in [`TEMPLATES`] (the other entries stay
/// empty).
static PARSED: [std::sync::OnceLock<Tera>; TEMPLATES.len()] =
    [const { std::sync::OnceLock::new() }; TEMPLATES.len()];

/// The templates of the unit at position `unit`, parsed once: by [`prepare`]'s thread when it
/// got there first (a caller that comes while it parses waits for it), else by the caller. The
/// stage `templates` is the time the calling thread spends on them, parsing or waiting.
fn parsed(unit: usize) -> &'static Tera {
    let _stage = timing::stage("templates");
    PARSED[unit].get_or_init(|| {
        let head = TEMPLATES[unit].0;
        let mut tera = Tera::default();
        let templates = TEMPLATES
            .iter()
            .copied()
            .filter(|(path, _)| unit_of(path) == head);
        tera.add_raw_templates(templates)
            .expect("the templates are valid tera");
        tera
    })
}

/// Starts parsing the templates of `targets` on a thread of their own, so that the derivation,
/// which runs meanwhile, finds them parsed when it renders (parsing is text work that touches
/// no CAS: the one-thread rule of the `cas` crate is kept). The units are parsed in the order of
/// [`TEMPLATES`], each language's system first, then the snippets; units parsed already are
/// skipped, and a run that needs none starts no thread. Outputs do not depend on it.
pub fn prepare(targets: &[crate::Target]) {
    use crate::Target;
    let mut wanted = [false; FOLDERS.len()];
    for target in targets {
        match target {
            Target::C | Target::Cmake => wanted[0] = true,
            Target::Rust | Target::Crate => wanted[1] = true,
            Target::Latex => wanted[2] = true,
            Target::Json => {}
        }
    }
    let units: Vec<usize> = (0..TEMPLATES.len())
        .filter(|&k| {
            let path = TEMPLATES[k].0;
            unit_of(path) == path
                && PARSED[k].get().is_none()
                && FOLDERS
                    .iter()
                    .zip(wanted)
                    .any(|(folder, wanted)| wanted && path.starts_with(folder))
        })
        .collect();
    if !units.is_empty() {
        std::thread::spawn(move || {
            for unit in units {
                parsed(unit);
            }
        });
    }
}

/// The template at `path` (under `templates/`) rendered with `context`.
pub fn render(path: &str, context: &Context) -> Result<String, tera::Error> {
    let unit = unit_index(path).ok_or_else(|| tera::Error::template_not_found(path))?;
    parsed(unit).render(path, context)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_template_file_is_compiled_in() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../templates");
        let mut on_disk = Vec::new();
        for folder in [
            "c",
            "c/snippets",
            "rust",
            "rust/kernels",
            "rust/snippets",
            "latex",
        ] {
            for entry in std::fs::read_dir(root.join(folder)).unwrap() {
                let path = entry.unwrap().path();
                if path.is_file() {
                    on_disk.push(format!(
                        "{folder}/{}",
                        path.file_name().unwrap().to_string_lossy()
                    ));
                }
            }
        }
        on_disk.sort();
        let mut compiled: Vec<String> = TEMPLATES.iter().map(|(p, _)| p.to_string()).collect();
        compiled.sort();
        assert_eq!(on_disk, compiled);
        // Every template is parsed with its unit, and every unit holds what its head includes.
        for (path, text) in TEMPLATES {
            let unit = unit_index(path).expect("a unit's head is compiled in");
            assert!(
                parsed(unit).get_template_names().any(|n| n == *path),
                "{path}"
            );
            for include in text.split("{% include \"").skip(1) {
                let included = include.split('"').next().unwrap();
                assert_eq!(
                    unit_of(included),
                    unit_of(path),
                    "{path} includes {included}"
                );
            }
        }
        assert!(TEMPLATES
            .iter()
            .all(|(path, _)| FOLDERS.iter().any(|f| path.starts_with(f))));
    }
}
