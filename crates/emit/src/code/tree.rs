//! `--form tree`: the recursions of a tree of joints alone (`forward_dynamics`,
//! `inverse_dynamics`), O(n) code for a controller, without the dense `W` of `implicit` that
//! takes a compiler minutes on a long chain.

use cas::Expr;
use model::System;
use report::Flow;

use super::{companion_plan, expressions, plan_functions, Plan};
use crate::function::{CodeOptions, Function, Layout};

/// The companions `--form tree` emits.
pub const TREE_FUNCTIONS: [&str; 2] = ["forward_dynamics", "inverse_dynamics"];

/// `--form tree`: the recursions' companions alone, on the arguments they read (none when the
/// system is not a tree of joints: the caller refuses that with E0505).
pub(super) fn tree_functions(
    flow: &Flow,
    system: &System,
    options: CodeOptions,
) -> (Layout, Vec<Function>) {
    let plans: Vec<Plan> = flow
        .companions
        .iter()
        .filter(|c| TREE_FUNCTIONS.contains(&c.name.as_str()))
        .map(|c| companion_plan(system, c))
        .collect();
    let every: Vec<&Expr> = expressions(&plans).collect();
    let layout = Layout::of(system, flow.state.clone(), &every);
    let functions = plan_functions(plans, flow, &layout, options);
    (layout, functions)
}
