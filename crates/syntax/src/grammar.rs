//! The pest parser generated from `grammar/dalembert.pest`: its `Rule`s are shared by the walk to
//! the AST (`parse`) and by the recovery that reports every syntax error it can find (`recover`).

/// The parser of `grammar/dalembert.pest`.
#[derive(pest_derive::Parser)]
#[grammar = "../../grammar/dalembert.pest"]
pub(crate) struct SpecParser;
