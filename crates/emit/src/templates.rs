//! Every template of the emitted text, parsed once into one tera instance, by its path under
//! `templates/`: the C header and source and the Rust module (`c/system.h`, `c/system.c`,
//! `rust/system.rs`) with the Rust kernels they include (`rust/kernels/`), the statement blocks
//! the functions share (`c/snippets/`, `rust/snippets/`), and the LaTeX
//! document, body and bibliography (`latex/`). The package files are the `package` crate's.

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

/// The top folders of `templates/`, each parsed on its own: a template includes only templates
/// of its own folder, and a run parses only the folders of the targets it renders (parsing
/// every template cost 15 ms, most of a small system's C).
const FOLDERS: [&str; 3] = ["c/", "rust/", "latex/"];

/// Each folder's templates, once parsed.
static PARSED: [std::sync::OnceLock<Tera>; FOLDERS.len()] =
    [const { std::sync::OnceLock::new() }; FOLDERS.len()];

/// The templates of the folder `FOLDERS[folder]`, parsed once (by [`prepare`]'s thread when it
/// was started: a caller that comes while it parses waits for it). The stage `templates` is the
/// time the calling thread spends on them, parsing or waiting.
fn parsed(folder: usize) -> &'static Tera {
    let _stage = timing::stage("templates");
    PARSED[folder].get_or_init(|| {
        let mut tera = Tera::default();
        let templates = TEMPLATES
            .iter()
            .copied()
            .filter(|(path, _)| path.starts_with(FOLDERS[folder]));
        tera.add_raw_templates(templates)
            .expect("the templates are valid tera");
        tera
    })
}

/// Starts parsing the templates of `targets` on a thread of their own, so that the derivation,
/// which runs meanwhile, finds them parsed when it renders (parsing is text work that touches
/// no CAS: the one-thread rule of the `cas` crate is kept). Folders parsed already start no
/// thread. Outputs do not depend on it.
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
    let folders: Vec<usize> = (0..FOLDERS.len())
        .filter(|&f| wanted[f] && PARSED[f].get().is_none())
        .collect();
    if !folders.is_empty() {
        std::thread::spawn(move || {
            for folder in folders {
                parsed(folder);
            }
        });
    }
}

/// The template at `path` (under `templates/`) rendered with `context`.
pub fn render(path: &str, context: &Context) -> Result<String, tera::Error> {
    let folder = FOLDERS
        .iter()
        .position(|folder| path.starts_with(folder))
        .ok_or_else(|| tera::Error::template_not_found(path))?;
    parsed(folder).render(path, context)
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
        for (folder, name) in FOLDERS.iter().enumerate() {
            assert!(parsed(folder).get_template_names().count() > 0, "{name}");
        }
        assert!(TEMPLATES
            .iter()
            .all(|(path, _)| FOLDERS.iter().any(|f| path.starts_with(f))));
    }
}
