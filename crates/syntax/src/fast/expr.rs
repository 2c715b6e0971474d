//! Expressions: the flat sequence `neg* primary (infix neg* primary)*` of `expr` and
//! `expr_nl`, the primaries, and the fold of the sequence by pest's Pratt parser's binding
//! powers (see the parent module).

use super::{Fast, Got};
use crate::ast::*;

/// One element of an expression's flat sequence.
enum Token {
    Neg(Span),
    Infix(BinOp),
    Primary(Expr),
}

impl Fast<'_> {
    /// `expr = { operand ~ (infix ~ nl* ~ operand)* }`.
    pub(super) fn expr(&self, at: usize) -> Got<Expr> {
        let mut tokens = Vec::new();
        let first = self.operand(at, &mut tokens)?;
        let further = |p: usize, tokens: &mut Vec<Token>| {
            let (op, p) = self.infix(p)?;
            let p = self.skip(self.newlines(self.skip(p)));
            self.after_infix(op, p, tokens)
        };
        let end = self.operations(self.skip(first), &mut tokens, further);
        Some((fold(tokens), end))
    }

    /// `expr_nl = { nl* ~ operand ~ (nl* ~ infix ~ nl* ~ operand)* ~ nl* }`.
    pub(super) fn expr_nl(&self, at: usize) -> Got<Expr> {
        let mut tokens = Vec::new();
        let at = self.skip(self.newlines(at));
        let first = self.operand(at, &mut tokens)?;
        let further = |p: usize, tokens: &mut Vec<Token>| {
            let p = self.skip(self.newlines(p));
            let (op, p) = self.infix(p)?;
            let p = self.skip(self.newlines(self.skip(p)));
            self.after_infix(op, p, tokens)
        };
        let end = self.operations(self.skip(first), &mut tokens, further);
        let end = self.newlines(self.skip(end));
        Some((fold(tokens), end))
    }

    /// The operator `op` and the operand at `at` pushed onto `tokens`, or nothing.
    fn after_infix(&self, op: BinOp, at: usize, tokens: &mut Vec<Token>) -> Option<usize> {
        let mark = tokens.len();
        tokens.push(Token::Infix(op));
        let end = self.operand(at, tokens);
        if end.is_none() {
            tokens.truncate(mark);
        }
        end
    }

    /// `(operation)*` from `at` in a non-atomic rule (each further one after a skip): where it
    /// ends, its tokens pushed.
    fn operations(
        &self,
        at: usize,
        tokens: &mut Vec<Token>,
        operation: impl Fn(usize, &mut Vec<Token>) -> Option<usize>,
    ) -> usize {
        let Some(mut end) = operation(at, tokens) else {
            return at;
        };
        while let Some(after) = operation(self.skip(end), tokens) {
            end = after;
        }
        end
    }

    /// `operand = _{ neg* ~ primary }`, its signs and primary pushed onto `tokens`.
    fn operand(&self, at: usize, tokens: &mut Vec<Token>) -> Option<usize> {
        let neg = |p: usize| self.literal(p, "-").map(|e| (Span::new(p, e), e));
        let (signs, at) = self.many(at, neg);
        let (primary, end) = self.primary(self.skip(at))?;
        tokens.extend(signs.into_iter().map(Token::Neg));
        tokens.push(Token::Primary(primary));
        Some(end)
    }

    /// `infix = _{ add | sub | mul | div | pow }`.
    fn infix(&self, at: usize) -> Got<BinOp> {
        let op = match self.byte(at)? {
            b'+' => BinOp::Add,
            b'-' => BinOp::Sub,
            b'*' => BinOp::Mul,
            b'/' => BinOp::Div,
            b'^' => BinOp::Pow,
            _ => return None,
        };
        Some((op, at + 1))
    }

    /// `primary = _{ number | partial | primed | call | paren | bracket | ident }`.
    fn primary(&self, at: usize) -> Got<Expr> {
        self.number(at)
            .or_else(|| self.partial(at))
            .or_else(|| self.primed(at))
            .or_else(|| self.call(at))
            .or_else(|| self.paren(at))
            .or_else(|| self.bracket(at))
            .or_else(|| {
                let (name, end) = self.ident(at)?;
                Some((at_span(ExprKind::Name(name.name), at, end), end))
            })
    }

    /// `number = @{ ASCII_DIGIT+ ~ ("." ~ ASCII_DIGIT+)? }`.
    fn number(&self, at: usize) -> Got<Expr> {
        let digits = |from: usize| {
            let mut end = from;
            while self.byte(end).is_some_and(|b| b.is_ascii_digit()) {
                end += 1;
            }
            (end > from).then_some(end)
        };
        let whole = digits(at)?;
        let end = self.literal(whole, ".").and_then(digits).unwrap_or(whole);
        let text = self.source[at..end].to_string();
        Some((at_span(ExprKind::Number(text), at, end), end))
    }

    /// `partial = ${ "d/d" ~ ident }`.
    fn partial(&self, at: usize) -> Got<Expr> {
        let (name, end) = self.ident(self.literal(at, "d/d")?)?;
        Some((at_span(ExprKind::Partial(name), at, end), end))
    }

    /// `primed = { primed_name ~ ("(" ~ expr_nl ~ ("," ~ expr_nl)* ~ ")")? }` with
    /// `primed_name = ${ ident ~ primes }` and `primes = @{ "'"+ }`.
    fn primed(&self, at: usize) -> Got<Expr> {
        let (name, after_name) = self.ident(at)?;
        let mut primes = after_name;
        while self.byte(primes) == Some(b'\'') {
            primes += 1;
        }
        if primes == after_name {
            return None;
        }
        let order = (primes - after_name) as u32;
        let after = self.skip(primes);
        let (args, end) = match self.arguments(after) {
            Some((args, end)) => (Some(args), end),
            None => (None, after),
        };
        let kind = ExprKind::Primed { name, order, args };
        Some((at_span(kind, at, end), end))
    }

    /// `call = { ident ~ "(" ~ expr_nl ~ ("," ~ expr_nl)* ~ ")" }`.
    fn call(&self, at: usize) -> Got<Expr> {
        let (func, after) = self.ident(at)?;
        let (args, end) = self.arguments(self.skip(after))?;
        Some((at_span(ExprKind::Call { func, args }, at, end), end))
    }

    /// `"(" ~ expr_nl ~ ("," ~ expr_nl)* ~ ")"`: the arguments of a call.
    pub(super) fn arguments(&self, at: usize) -> Got<Vec<Expr>> {
        let at = self.literal(at, "(")?;
        let (first, at) = self.expr_nl(self.skip(at))?;
        let next = |p: usize| self.expr_nl(self.skip(self.literal(p, ",")?));
        let (mut rest, at) = self.many(self.skip(at), next);
        let end = self.literal(self.skip(at), ")")?;
        rest.insert(0, first);
        Some((rest, end))
    }

    /// `paren = { "(" ~ expr_nl ~ ")" }`: no node of its own, but the span includes the
    /// parentheses.
    fn paren(&self, at: usize) -> Got<Expr> {
        let after = self.literal(at, "(")?;
        let (inner, after) = self.expr_nl(self.skip(after))?;
        let end = self.literal(self.skip(after), ")")?;
        Some((
            Expr {
                span: Span::new(at, end),
                ..inner
            },
            end,
        ))
    }

    /// `bracket = { "{" ~ expr_nl ~ "," ~ expr_nl ~ "}" }`.
    fn bracket(&self, at: usize) -> Got<Expr> {
        let after = self.literal(at, "{")?;
        let (f, after) = self.expr_nl(self.skip(after))?;
        let after = self.literal(self.skip(after), ",")?;
        let (g, after) = self.expr_nl(self.skip(after))?;
        let end = self.literal(self.skip(after), "}")?;
        let kind = ExprKind::Bracket(Box::new(f), Box::new(g));
        Some((at_span(kind, at, end), end))
    }
}

fn at_span(kind: ExprKind, start: usize, end: usize) -> Expr {
    Expr {
        kind,
        span: Span::new(start, end),
    }
}

// ---------------------------------------------------------------------------------------------
// Precedence

/// The binding power of an infix operator, as pest's Pratt parser numbers the levels
/// `parse.rs` gives it (`+ -`, then `* /`, then unary `-`, then `^`).
fn binding_power(op: BinOp) -> u32 {
    match op {
        BinOp::Add | BinOp::Sub => 20,
        BinOp::Mul | BinOp::Div => 30,
        BinOp::Pow => 50,
    }
}

/// The binding power of unary `-`.
const NEG: u32 = 40;

/// An expression's flat sequence folded as pest's Pratt parser folds it: `-x^2 = -(x^2)`,
/// `2^-1*3 = (2^(-1))*3`, `+ - * /` to the left and `^` to the right.
fn fold(tokens: Vec<Token>) -> Expr {
    pratt(&mut tokens.into_iter().peekable(), 0)
}

fn pratt(tokens: &mut std::iter::Peekable<std::vec::IntoIter<Token>>, floor: u32) -> Expr {
    let mut lhs = match tokens.next() {
        Some(Token::Neg(sign)) => {
            let operand = pratt(tokens, NEG - 1);
            Expr {
                span: sign.join(operand.span),
                kind: ExprKind::Neg(Box::new(operand)),
            }
        }
        Some(Token::Primary(primary)) => primary,
        _ => unreachable!("an operand starts with a sign or a primary"),
    };
    while let Some(&Token::Infix(op)) = tokens.peek() {
        let power = binding_power(op);
        if floor >= power {
            break;
        }
        tokens.next();
        let rhs = match op {
            BinOp::Pow => pratt(tokens, power - 1),
            _ => pratt(tokens, power),
        };
        lhs = Expr {
            span: lhs.span.join(rhs.span),
            kind: ExprKind::Binary {
                op,
                lhs: Box::new(lhs),
                rhs: Box::new(rhs),
            },
        };
    }
    lhs
}
