//! The statement blocks the emitted functions share, one template per block and language:
//! `templates/c/snippets/<name>.c` and `templates/rust/snippets/<name>.rs`. A block is a list
//! of statements, indented by the function it lands in; the templates put each control tag on
//! a line of its own, and the blank lines that leaves are dropped.

use serde::Serialize;

use crate::function::Language;

/// The template's path for `language`.
fn template_path(name: &str, language: Language) -> String {
    match language {
        Language::C => format!("c/snippets/{name}.c"),
        Language::Rust => format!("rust/snippets/{name}.rs"),
    }
}

/// The statements of the block `name` in `language`, with `context`. The templates are part
/// of the program and read only fields every context has, so a failure is a bug here.
pub fn statements(name: &str, language: Language, context: &impl Serialize) -> Vec<String> {
    let template = template_path(name, language);
    let context = tera::Context::from_serialize(context).expect("a snippet's context is a map");
    let text = crate::templates::render(&template, &context)
        .unwrap_or_else(|e| panic!("the snippet {template}: {e:?}"));
    text.lines()
        .filter(|line| !line.trim().is_empty())
        .map(str::to_string)
        .collect()
}
