//! From text to [`Spec`]: the pest grammar `grammar/dalembert.pest`, and the walk from its parse
//! tree to the AST.
//!
//! The walk may assume the tree has the shape the grammar gives it: a tree that does not is a bug
//! in this file, not in the spec, hence the `unreachable!`s. Problems in the spec are all found by
//! the grammar and reported by the `recover` module.

use std::sync::LazyLock;

use pest::iterators::{Pair, Pairs};
use pest::pratt_parser::{Assoc, Op, PrattParser};
use pest::Parser as _;

use crate::ast::*;
use crate::recover;
use diagnostic::Result;

use crate::grammar::{Rule, SpecParser};

/// Parses a whole spec.
///
/// On failure, reports as many syntax errors as it can find (one per broken item or block line,
/// in source order), each with a readable message at the offending place.
pub fn parse(source: &str) -> Result<Spec> {
    crate::nesting::check(source)?;
    if let Some(spec) = crate::fast::parse(source) {
        return Ok(spec);
    }
    match SpecParser::parse(Rule::file, source) {
        Ok(mut pairs) => Ok(spec(pairs.next().expect("the file rule"))),
        Err(_) => Err(recover::diagnose(source, Rule::file)),
    }
}

/// The tree of the pest parser alone, `None` where it refuses the text (the fast path's tests
/// compare the two).
#[cfg(test)]
pub(crate) fn pest_tree(source: &str) -> Option<Spec> {
    let mut pairs = SpecParser::parse(Rule::file, source).ok()?;
    Some(spec(pairs.next().expect("the file rule")))
}

/// Parses one expression, which may span several lines (as if written inside parentheses).
pub fn parse_expr(source: &str) -> Result<Expr> {
    crate::nesting::check(source)?;
    match SpecParser::parse(Rule::expr_only, source) {
        Ok(mut pairs) => {
            let only = pairs.next().expect("the expr_only rule");
            Ok(expr(only.into_inner().next().expect("an expression")))
        }
        Err(_) => Err(recover::diagnose(source, Rule::expr_only)),
    }
}

fn span(pair: &Pair<Rule>) -> Span {
    let s = pair.as_span();
    Span::new(s.start(), s.end())
}

fn ident(pair: Pair<Rule>) -> Ident {
    debug_assert_eq!(pair.as_rule(), Rule::ident);
    Ident {
        name: pair.as_str().to_string(),
        span: span(&pair),
    }
}

/// The children of `pair` without its keyword.
fn after_keyword(pair: Pair<Rule>) -> Pairs<Rule> {
    let mut inner = pair.into_inner();
    inner.next().expect("a keyword");
    inner
}

fn idents(pairs: Pairs<Rule>) -> Vec<Ident> {
    pairs.map(ident).collect()
}

fn first_ident(pairs: Pairs<Rule>) -> Ident {
    ident(pairs.into_iter().next().expect("a name"))
}

fn spec(file: Pair<Rule>) -> Spec {
    let items = file
        .into_inner()
        .filter(|p| p.as_rule() != Rule::EOI)
        .map(item)
        .collect();
    Spec { items }
}

fn item(pair: Pair<Rule>) -> Item {
    let span = span(&pair);
    let rule = pair.as_rule();
    let kind = match rule {
        Rule::system_item => ItemKind::System(first_ident(after_keyword(pair))),
        Rule::time_item => ItemKind::Time(first_ident(after_keyword(pair))),
        Rule::discrete_item => ItemKind::Discrete(first_ident(after_keyword(pair))),
        Rule::action_item => ItemKind::Action(first_ident(after_keyword(pair))),
        Rule::parameters_item => ItemKind::Parameters(idents(after_keyword(pair))),
        Rule::coordinates_item => ItemKind::Coordinates(idents(after_keyword(pair))),
        Rule::inputs_item => ItemKind::Inputs(idents(after_keyword(pair))),
        Rule::momenta_item => ItemKind::Momenta(idents(after_keyword(pair))),
        Rule::functions_item => {
            ItemKind::Functions(after_keyword(pair).map(function_decl).collect())
        }
        Rule::algebroid_item => ItemKind::Algebroid(algebroid(pair)),
        Rule::let_item => {
            let mut inner = after_keyword(pair);
            let name = ident(inner.next().expect("a let name"));
            ItemKind::Let {
                name,
                value: expr(inner.next().expect("a let value")),
            }
        }
        Rule::lagrangian_item => ItemKind::Lagrangian(expr(after_keyword(pair).next().unwrap())),
        Rule::hamiltonian_item => ItemKind::Hamiltonian(expr(after_keyword(pair).next().unwrap())),
        Rule::constraints_item => {
            let mut inner = after_keyword(pair);
            let kind_pair = inner.next().expect("a constraint kind");
            let kind = match kind_pair.as_str() {
                "nonholonomic" => ConstraintKind::Nonholonomic,
                "vakonomic" => ConstraintKind::Vakonomic,
                "holonomic" => ConstraintKind::Holonomic,
                other => unreachable!("constraint kind {other}"),
            };
            ItemKind::Constraints {
                kind,
                kind_span: self::span(&kind_pair),
                equations: inner.map(equation).collect(),
            }
        }
        Rule::forces_item => ItemKind::Forces(after_keyword(pair).map(equation).collect()),
        Rule::symmetry_item => {
            let mut inner = after_keyword(pair);
            let name = ident(inner.next().expect("a symmetry name"));
            ItemKind::Symmetry {
                name,
                entries: inner.map(equation).collect(),
            }
        }
        Rule::group_item => ItemKind::Group(group(pair)),
        Rule::frame_item => {
            let mut block = FrameBlock {
                velocities: Vec::new(),
                rows: Vec::new(),
            };
            for line in after_keyword(pair) {
                match line.as_rule() {
                    Rule::velocities_line => block.velocities.extend(idents(after_keyword(line))),
                    _ => block.rows.push(equation(line)),
                }
            }
            ItemKind::Frame(block)
        }
        Rule::latex_item => ItemKind::Latex(after_keyword(pair).map(latex_override).collect()),
        Rule::expect_item => {
            let mut inner = after_keyword(pair);
            let kind = ident(inner.next().expect("an expect kind"));
            ItemKind::Expect(ExpectBlock {
                kind,
                entries: inner.map(expect_entry).collect(),
            })
        }
        Rule::gravity_item => {
            let vector = after_keyword(pair).next().expect("a vector");
            ItemKind::Gravity(vector.into_inner().map(expr).collect())
        }
        Rule::body_item => {
            let mut inner = after_keyword(pair);
            let name = ident(inner.next().expect("a body name"));
            ItemKind::Body {
                name,
                fields: inner.map(field).collect(),
            }
        }
        Rule::joint_item | Rule::contact_item => {
            let mut inner = after_keyword(pair);
            let name = ident(inner.next().expect("a name"));
            let kind = ident(inner.next().expect("a kind"));
            let fields = inner.map(field).collect();
            if rule == Rule::joint_item {
                ItemKind::Joint { name, kind, fields }
            } else {
                ItemKind::Contact { name, kind, fields }
            }
        }
        other => unreachable!("item rule {other:?}"),
    };
    Item { kind, span }
}

fn function_decl(pair: Pair<Rule>) -> FunctionDecl {
    let span = span(&pair);
    let mut inner = pair.into_inner();
    let name = ident(inner.next().expect("a function name"));
    let argument = ident(inner.next().expect("an argument"));
    FunctionDecl {
        name,
        argument,
        span,
    }
}

fn algebroid(pair: Pair<Rule>) -> Algebroid {
    let mut preset = None;
    let mut body = Vec::new();
    for child in after_keyword(pair) {
        match child.as_rule() {
            Rule::ident => preset = Some(ident(child)),
            Rule::algebroid_body => body = child.into_inner().map(algebroid_line).collect(),
            other => unreachable!("algebroid child {other:?}"),
        }
    }
    Algebroid { preset, body }
}

fn algebroid_line(pair: Pair<Rule>) -> AlgebroidItem {
    let span = span(&pair);
    let rule = pair.as_rule();
    let mut inner = after_keyword(pair);
    let kind = match rule {
        Rule::sections_line => AlgebroidItemKind::Sections(idents(inner)),
        Rule::velocities_line => AlgebroidItemKind::Velocities(idents(inner)),
        Rule::momenta_line => AlgebroidItemKind::Momenta(idents(inner)),
        Rule::anchor_line => AlgebroidItemKind::Anchor {
            section: ident(inner.next().expect("a section")),
            value: expr(inner.next().expect("a value")),
        },
        Rule::bracket_line => AlgebroidItemKind::Bracket {
            left: ident(inner.next().expect("a section")),
            right: ident(inner.next().expect("a section")),
            value: expr(inner.next().expect("a value")),
        },
        other => unreachable!("algebroid line {other:?}"),
    };
    AlgebroidItem { kind, span }
}

fn group(pair: Pair<Rule>) -> GroupDecl {
    let mut inner = after_keyword(pair);
    let name = ident(inner.next().expect("a group name"));
    inner.next().expect("`on`");
    let mut coordinates = Vec::new();
    let mut body = Vec::new();
    for child in inner {
        match child.as_rule() {
            Rule::ident => coordinates.push(ident(child)),
            Rule::group_body => body = child.into_inner().map(group_line).collect(),
            other => unreachable!("group child {other:?}"),
        }
    }
    GroupDecl {
        name,
        coordinates,
        body,
    }
}

fn group_line(pair: Pair<Rule>) -> GroupLine {
    let span = span(&pair);
    let rule = pair.as_rule();
    let mut inner = after_keyword(pair);
    let kind = match rule {
        Rule::sections_line => GroupLineKind::Sections(idents(inner)),
        Rule::velocities_line => GroupLineKind::Velocities(idents(inner)),
        Rule::momenta_line => GroupLineKind::Momenta(idents(inner)),
        Rule::momentum_line => GroupLineKind::Momentum(idents(inner)),
        Rule::generator_line => GroupLineKind::Generator {
            name: ident(inner.next().expect("a generator name")),
            value: expr(inner.next().expect("a vector field")),
        },
        Rule::connection_line => {
            let value = inner.next().expect("a connection");
            match value.as_rule() {
                Rule::connection_body => {
                    GroupLineKind::ConnectionForm(value.into_inner().map(equation).collect())
                }
                _ => GroupLineKind::Connection(ident(value)),
            }
        }
        Rule::side_line => GroupLineKind::Side(first_ident(inner)),
        other => unreachable!("group line {other:?}"),
    };
    GroupLine { kind, span }
}

fn equation(pair: Pair<Rule>) -> Equation {
    let span = span(&pair);
    let mut inner = pair.into_inner();
    Equation {
        lhs: expr(inner.next().expect("a left-hand side")),
        rhs: expr(inner.next().expect("a right-hand side")),
        span,
    }
}

fn field(pair: Pair<Rule>) -> Field {
    let span = span(&pair);
    let mut inner = pair.into_inner();
    let key = ident(inner.next().expect("a key"));
    let value = inner.next().expect("a value");
    let value = match value.as_rule() {
        Rule::vector => {
            let at = self::span(&value);
            FieldValue::Vector(value.into_inner().map(expr).collect(), at)
        }
        _ => FieldValue::Scalar(expr(value)),
    };
    Field { key, value, span }
}

fn latex_override(pair: Pair<Rule>) -> LatexOverride {
    let span = span(&pair);
    let mut inner = pair.into_inner();
    let name = ident(inner.next().expect("a name"));
    let string = inner.next().expect("a string");
    let raw = string
        .into_inner()
        .next()
        .expect("string contents")
        .as_str();
    LatexOverride {
        name,
        text: LatexOverride::unescape(raw),
        span,
    }
}

fn expect_entry(pair: Pair<Rule>) -> ExpectEntry {
    let span = span(&pair);
    let mut inner: Vec<Pair<Rule>> = pair.into_inner().collect();
    let value = expr(inner.pop().expect("a value"));
    let key = inner.pop().map(|key| match key.as_rule() {
        Rule::key_tuple => {
            let key_span = self::span(&key);
            Key::Tuple(key.into_inner().map(expr).collect(), key_span)
        }
        _ => Key::Single(expr(key)),
    });
    ExpectEntry { key, value, span }
}

// ---------------------------------------------------------------------------------------------
// Expressions

/// `+ -` < `* /` < unary `-` < `^` (right-associative): `-x^2 = -(x^2)`, `2^-1*3 = (2^(-1))*3`.
static PRATT: LazyLock<PrattParser<Rule>> = LazyLock::new(|| {
    PrattParser::new()
        .op(Op::infix(Rule::add, Assoc::Left) | Op::infix(Rule::sub, Assoc::Left))
        .op(Op::infix(Rule::mul, Assoc::Left) | Op::infix(Rule::div, Assoc::Left))
        .op(Op::prefix(Rule::neg))
        .op(Op::infix(Rule::pow, Assoc::Right))
});

/// Builds an `expr` or `expr_nl` pair.
fn expr(pair: Pair<Rule>) -> Expr {
    debug_assert!(matches!(pair.as_rule(), Rule::expr | Rule::expr_nl));
    PRATT
        .map_primary(primary)
        .map_prefix(|op, operand| Expr {
            span: span(&op).join(operand.span),
            kind: ExprKind::Neg(Box::new(operand)),
        })
        .map_infix(|lhs, op, rhs| {
            let op = match op.as_rule() {
                Rule::add => BinOp::Add,
                Rule::sub => BinOp::Sub,
                Rule::mul => BinOp::Mul,
                Rule::div => BinOp::Div,
                Rule::pow => BinOp::Pow,
                other => unreachable!("operator {other:?}"),
            };
            Expr {
                span: lhs.span.join(rhs.span),
                kind: ExprKind::Binary {
                    op,
                    lhs: Box::new(lhs),
                    rhs: Box::new(rhs),
                },
            }
        })
        .parse(pair.into_inner())
}

fn primary(pair: Pair<Rule>) -> Expr {
    let span = span(&pair);
    let kind = match pair.as_rule() {
        Rule::number => ExprKind::Number(pair.as_str().to_string()),
        Rule::ident => ExprKind::Name(pair.as_str().to_string()),
        Rule::partial => ExprKind::Partial(first_ident(pair.into_inner())),
        Rule::primed => {
            let mut inner = pair.into_inner();
            let mut head = inner.next().expect("a primed name").into_inner();
            let name = ident(head.next().expect("a name"));
            let order = head.next().expect("primes").as_str().len() as u32;
            let args: Vec<Expr> = inner.map(expr).collect();
            ExprKind::Primed {
                name,
                order,
                args: (!args.is_empty()).then_some(args),
            }
        }
        Rule::call => {
            let mut inner = pair.into_inner();
            let func = ident(inner.next().expect("a function name"));
            ExprKind::Call {
                func,
                args: inner.map(expr).collect(),
            }
        }
        Rule::paren => {
            // Parentheses leave no node of their own, but the span includes them.
            let inner = expr(pair.into_inner().next().expect("an expression"));
            return Expr { span, ..inner };
        }
        Rule::bracket => {
            let mut inner = pair.into_inner();
            let f = expr(inner.next().expect("an expression"));
            let g = expr(inner.next().expect("an expression"));
            ExprKind::Bracket(Box::new(f), Box::new(g))
        }
        other => unreachable!("primary {other:?}"),
    };
    Expr { kind, span }
}
