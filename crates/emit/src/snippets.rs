//! The statement blocks the emitted functions share, one template per block and language:
//! `templates/c/snippets/<name>.c` and `templates/rust/snippets/<name>.rs`. A block is a list
//! of statements, indented by the function it lands in; the templates put each control tag on
//! a line of its own, and the blank lines that leaves are dropped.

use serde::Serialize;

use crate::function::Language;

/// The blocks, by name.
const SNIPPETS: &[(&str, &str, &str)] = &[
    (
        "implicit_declarations",
        include_str!("../../../templates/c/snippets/implicit_declarations.c"),
        include_str!("../../../templates/rust/snippets/implicit_declarations.rs"),
    ),
    (
        "implicit_solve",
        include_str!("../../../templates/c/snippets/implicit_solve.c"),
        include_str!("../../../templates/rust/snippets/implicit_solve.rs"),
    ),
    (
        "projection",
        include_str!("../../../templates/c/snippets/projection.c"),
        include_str!("../../../templates/rust/snippets/projection.rs"),
    ),
    (
        "acceleration_residual",
        include_str!("../../../templates/c/snippets/acceleration_residual.c"),
        include_str!("../../../templates/rust/snippets/acceleration_residual.rs"),
    ),
    (
        "stabilisation_bias",
        include_str!("../../../templates/c/snippets/stabilisation_bias.c"),
        include_str!("../../../templates/rust/snippets/stabilisation_bias.rs"),
    ),
    (
        "stabilisation_rates",
        include_str!("../../../templates/c/snippets/stabilisation_rates.c"),
        include_str!("../../../templates/rust/snippets/stabilisation_rates.rs"),
    ),
];

/// The template's name for `language`.
fn template_name(name: &str, language: Language) -> String {
    match language {
        Language::C => format!("c/{name}.c"),
        Language::Rust => format!("rust/{name}.rs"),
    }
}

fn parsed() -> &'static tera::Tera {
    static PARSED: std::sync::OnceLock<tera::Tera> = std::sync::OnceLock::new();
    PARSED.get_or_init(|| {
        let mut tera = tera::Tera::default();
        for (name, c, rust) in SNIPPETS {
            tera.add_raw_template(&template_name(name, Language::C), c)
                .expect("the C snippets are valid tera");
            tera.add_raw_template(&template_name(name, Language::Rust), rust)
                .expect("the Rust snippets are valid tera");
        }
        tera
    })
}

/// The statements of the block `name` in `language`, with `context`. The templates are part
/// of the program and read only fields every context has, so a failure is a bug here.
pub fn statements(name: &str, language: Language, context: &impl Serialize) -> Vec<String> {
    let template = template_name(name, language);
    let context = tera::Context::from_serialize(context).expect("a snippet's context is a map");
    let text = parsed()
        .render(&template, &context)
        .unwrap_or_else(|e| panic!("the snippet {template}: {e:?}"));
    text.lines()
        .filter(|line| !line.trim().is_empty())
        .map(str::to_string)
        .collect()
}
