//! The package templates, `templates/cmake/` and `templates/cargo/`, parsed once. Every byte
//! of a package file that is not the emitted code itself comes from one of them; the modules
//! `cmake` and `cargo` only compute the values they print.

use serde::Serialize;

/// One package template.
#[derive(Clone, Copy, Debug)]
pub enum Template {
    /// `cmake/CMakeLists.txt`.
    CmakeLists,
    /// `cmake/README.md`.
    CmakeReadme,
    /// `cmake/test.c`: the C smoke test.
    CmakeTest,
    /// `cargo/Cargo.toml`.
    CargoManifest,
    /// `cargo/README.md`.
    CargoReadme,
    /// `cargo/lib.md`: the crate documentation, before it becomes `//!` lines.
    CargoDocs,
    /// `cargo/lib.rs`.
    CargoLib,
    /// `cargo/integrate.rs`: the Rust smoke test.
    CargoTest,
}

/// Every template: its name and its text.
const TEMPLATES: [(&str, &str); 8] = [
    (
        "cmake/CMakeLists.txt",
        include_str!("../../../templates/cmake/CMakeLists.txt"),
    ),
    (
        "cmake/README.md",
        include_str!("../../../templates/cmake/README.md"),
    ),
    (
        "cmake/test.c",
        include_str!("../../../templates/cmake/test.c"),
    ),
    (
        "cargo/Cargo.toml",
        include_str!("../../../templates/cargo/Cargo.toml"),
    ),
    (
        "cargo/README.md",
        include_str!("../../../templates/cargo/README.md"),
    ),
    (
        "cargo/lib.md",
        include_str!("../../../templates/cargo/lib.md"),
    ),
    (
        "cargo/lib.rs",
        include_str!("../../../templates/cargo/lib.rs"),
    ),
    (
        "cargo/integrate.rs",
        include_str!("../../../templates/cargo/integrate.rs"),
    ),
];

impl Template {
    /// The template's name, its path under `templates/`.
    fn name(self) -> &'static str {
        TEMPLATES[self as usize].0
    }
}

fn parsed() -> &'static tera::Tera {
    static PARSED: std::sync::OnceLock<tera::Tera> = std::sync::OnceLock::new();
    PARSED.get_or_init(|| {
        let mut tera = tera::Tera::default();
        tera.add_raw_templates(TEMPLATES)
            .expect("the package templates are valid tera");
        tera
    })
}

/// `template` rendered with `context`. The templates are part of the program and every value
/// they read is always present, so a failure is a bug of this crate (the tests render every
/// golden system).
pub fn render(template: Template, context: &impl Serialize) -> String {
    let context = tera::Context::from_serialize(context).expect("the context is a JSON object");
    parsed()
        .render(template.name(), &context)
        .unwrap_or_else(|e| panic!("the package template {}: {e:?}", template.name()))
}
