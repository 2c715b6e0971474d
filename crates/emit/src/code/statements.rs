//! The printing of a straight-line program into C and Rust statements: literals of the emitted
//! precision, the math functions of that precision (`sinf` for `float`), and the division guards.

use cas::program::{Call, Node, Operand, Program};

use super::{Float, Function, Language, Layout};

/// A literal for a rational constant: the shortest decimal that reads back as the nearest
/// `f64` (or `f32`), always with a decimal point or an exponent.
pub fn literal(numerator: &str, denominator: &str, float: Float) -> String {
    let value = cas::program::constant_value(numerator, denominator);
    let text = match float {
        Float::F64 => format!("{value:?}"),
        Float::F32 => format!("{:?}", value as f32),
    };
    if text.contains('.') || text.contains('e') || text.contains("inf") || text.contains("NaN") {
        text
    } else {
        format!("{text}.0")
    }
}

pub(super) fn operand(
    o: &Operand,
    language: Language,
    float: Float,
    input: &dyn Fn(usize) -> String,
) -> String {
    match o {
        Operand::Input(k) => input(*k),
        Operand::Constant(c) => {
            let lit = literal(c.numerator(), c.denominator(), float);
            match (language, float) {
                // A `float` literal, so that no operation is promoted to `double`.
                (Language::C, Float::F32) => format!("{lit}f"),
                (Language::C, Float::F64) => lit,
                // A bare float literal takes the type `Real` from the operation it is in.
                (Language::Rust, _) => lit,
            }
        }
        Operand::Node(k) => format!("t{k}"),
    }
}

/// One statement per node of a function, then the output assignments (see
/// [`program_statements`]), with the inputs named by the argument layout (`x[3]`, `p[0]`, …).
pub fn statements(
    layout: &Layout,
    f: &Function,
    language: Language,
    float: Float,
) -> (Vec<String>, Vec<String>) {
    let own = f.state.as_ref().map(|state| Layout {
        state: state.clone(),
        ..layout.clone()
    });
    let layout = own.as_ref().unwrap_or(layout);
    let input = |k: usize| match layout.place(k) {
        ("t", _) => "t".to_string(),
        (array, i) => format!("{array}[{i}]"),
    };
    program_statements(&f.program, language, float, &input)
}

/// One statement per node, each output assigned right after the node that computes it (the second
/// list holds the outputs that are inputs or constants). Each division is preceded, the first time
/// its denominator is used, by a guard that returns the 1-based position of the denominator in
/// `Program::denominators` when its magnitude is not above the epsilon (C: `return k;`, Rust:
/// `return Err(SingularAt(k));`).
pub fn program_statements(
    p: &Program,
    language: Language,
    float: Float,
    input: &dyn Fn(usize) -> String,
) -> (Vec<String>, Vec<String>) {
    let op = |o: &Operand| operand(o, language, float, input);
    let mut by_node: std::collections::BTreeMap<usize, Vec<&str>> = Default::default();
    for (name, o) in &p.outputs {
        if let Operand::Node(k) = o {
            by_node.entry(*k).or_default().push(name);
        }
    }
    let mut body = Vec::new();
    let mut guarded = std::collections::BTreeSet::new();
    // Each input's name, printed once.
    let mut names: Vec<Option<String>> = vec![None; p.inputs.len()];
    // Each constant's literal, printed once (a decimal is printed through the float formatter).
    let mut literals: std::collections::HashMap<Operand, String> = Default::default();
    let mut push = |line: &mut String, o: &Operand| match o {
        Operand::Node(j) => {
            line.push('t');
            push_display(line, *j);
        }
        Operand::Input(k) => line.push_str(names[*k].get_or_insert_with(|| input(*k))),
        constant => {
            if !literals.contains_key(constant) {
                literals.insert(constant.clone(), op(constant));
            }
            line.push_str(&literals[constant]);
        }
    };
    for (k, node) in p.nodes.iter().enumerate() {
        if let Node::Div(_, b) = node {
            let denominator = op(b);
            let position = p.division_of.get(&k).map_or(0, |i| i + 1);
            if !guarded.contains(&denominator) {
                body.push(guard(&denominator, position, language, float));
                guarded.insert(denominator);
            }
        }
        let mut line = String::with_capacity(40);
        match language {
            Language::C => line.push_str("const dalembert_real t"),
            Language::Rust => line.push_str("let t"),
        }
        push_display(&mut line, k);
        line.push_str(match language {
            Language::C => " = ",
            Language::Rust => ": Real = ",
        });
        write_value(&mut line, node, language, float, &mut push);
        line.push(';');
        body.push(line);
        // Each output is stored as soon as its value exists (short live ranges: see
        // `Program::scheduled`).
        for name in by_node.get(&k).into_iter().flatten() {
            let mut line = String::with_capacity(name.len() + 12);
            line.push_str(name);
            line.push_str(" = t");
            push_display(&mut line, k);
            line.push(';');
            body.push(line);
        }
    }
    let assignments = p
        .outputs
        .iter()
        .filter(|(_, o)| !matches!(o, Operand::Node(_)))
        .map(|(name, o)| {
            let mut line = String::with_capacity(name.len() + 24);
            line.push_str(name);
            line.push_str(" = ");
            push(&mut line, o);
            line.push(';');
            line
        })
        .collect();
    (body, assignments)
}

/// The value of `node` after `line`, its operands written by `push`.
fn write_value(
    line: &mut String,
    node: &Node,
    language: Language,
    float: Float,
    push: &mut dyn FnMut(&mut String, &Operand),
) {
    let mut infix = |a: &Operand, symbol: &str, b: &Operand| {
        push(line, a);
        line.push_str(symbol);
        push(line, b);
    };
    match node {
        Node::Add(a, b) => infix(a, " + ", b),
        Node::Sub(a, b) => infix(a, " - ", b),
        Node::Mul(a, b) => infix(a, " * ", b),
        Node::Div(a, b) => infix(a, " / ", b),
        Node::Neg(a) => {
            line.push('-');
            push(line, a);
        }
        Node::Call(c, _) => {
            let name = match language {
                Language::C => c_math(c.name(), float),
                Language::Rust => format!("Real::{}", rust_call(*c)),
            };
            write_call(line, &name, node, push);
        }
        Node::Pow(..) => {
            let name = match language {
                Language::C => c_math("pow", float),
                Language::Rust => "Real::powf".to_string(),
            };
            write_call(line, &name, node, push);
        }
    }
}

/// `name(operands…)` after `line`.
fn write_call(
    line: &mut String,
    name: &str,
    node: &Node,
    push: &mut dyn FnMut(&mut String, &Operand),
) {
    line.push_str(name);
    line.push('(');
    for (i, operand) in node.operands().enumerate() {
        if i > 0 {
            line.push_str(", ");
        }
        push(line, operand);
    }
    line.push(')');
}

/// The guard before the first division by `denominator`: return its 1-based position when its
/// magnitude is not above the epsilon.
fn guard(denominator: &str, position: usize, language: Language, float: Float) -> String {
    match language {
        Language::C => format!(
            "if (!({}({denominator}) > DALEMBERT_EPSILON)) return {position};",
            c_math("fabs", float),
        ),
        Language::Rust => format!(
            "if !(Real::abs({denominator}) > EPSILON) {{ return Err(SingularAt({position})); }}"
        ),
    }
}

/// Appends `value` to `line` without a string of its own.
fn push_display(line: &mut String, value: usize) {
    line.push_str(cas::program::decimal(value, &mut [0u8; 20]));
}

/// The C math function `name` (`sin`, `fabs`, `pow`, …) of the emitted precision: `sinf` for
/// `float`, so that single-precision code never computes through `double`.
pub fn c_math(name: &str, float: Float) -> String {
    match float {
        Float::F64 => name.to_string(),
        Float::F32 => format!("{name}f"),
    }
}

/// The `std`-only float methods (`Real::sin`, `Real::powf`, …) the Rust printing of `programs`
/// calls, in name order. The kernels of `templates/rust/kernels` call none (`Real::abs` is in
/// `core`).
pub fn rust_std_calls<'a>(programs: impl IntoIterator<Item = &'a Program>) -> Vec<&'static str> {
    let calls: std::collections::BTreeSet<&'static str> = programs
        .into_iter()
        .flat_map(|p| &p.nodes)
        .filter_map(|node| match node {
            Node::Call(c, _) => Some(rust_call(*c)),
            Node::Pow(..) => Some("powf"),
            _ => None,
        })
        .collect();
    calls.into_iter().collect()
}

fn rust_call(c: Call) -> &'static str {
    match c {
        Call::Log => "ln",
        other => other.name(),
    }
}
