//! Turning syntax-tree expressions into [`cas::Expr`]s, with every name checked.

use diagnostic::Code;
use std::collections::BTreeMap;

use cas::{Expr, Func};
use diagnostic::Diagnostic;
use syntax::ast::{BinOp, Expr as Ast, ExprKind, Span};

use crate::symbols::Symbols;

/// What a declared name is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NameKind {
    /// The time variable.
    Time,
    /// A constant parameter.
    Parameter,
    /// A given function of time.
    Function,
    /// A base coordinate.
    Coordinate,
    /// A control input.
    Input,
    /// A fibre coordinate (velocity) of an explicit or Lie-algebra algebroid.
    Velocity,
    /// A section name (valid in brackets only).
    Section,
    /// A momentum name.
    Momentum,
    /// A momentum of the `frame`, `η_A = T_A^B p_B`.
    FrameMomentum,
    /// A fibre coordinate of the constraint distribution `D` in the frame, `y = v^a f_a`.
    FrameVelocity,
    /// The contact variable.
    Action,
}

/// Where an expression is being read, which decides what may appear in it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScopeKind {
    /// Lagrangian, constraints, forces, expected values: time, parameters, functions of time,
    /// coordinates, velocities, inputs (and, in expected values, multipliers).
    Observable,
    /// The right-hand side of an `anchor` line: the above, without velocities, plus `d/dq`.
    Anchor,
    /// The right-hand side of a `bracket` line: functions of the base, plus section names.
    Bracket,
    /// A function on the dual `V*` (Hamiltonian-side expected values): time, parameters,
    /// functions of time, coordinates, inputs and momenta, but no velocities.
    Phase,
    /// A function on the dual written in the momenta of the frame (Dirac-side expected values):
    /// as [`ScopeKind::Phase`], with the frame momenta as well.
    Frame,
    /// A function on `D` (induced-route expected values): as [`ScopeKind::Observable`], with the
    /// fibre coordinates of `D` as well.
    Induced,
    /// A function on `W_0 = E* ×_Q M` (vakonomic expected values, [IMMS08] §5.1): as
    /// [`ScopeKind::Observable`], with the momenta (the multipliers `p_α` among them) as well.
    Vakonomic,
}

/// The declared names of a spec and the rules to read expressions with them.
#[derive(Clone, Debug, Default)]
pub struct Scope {
    /// Every declared name: its kind and where it was declared.
    pub names: BTreeMap<String, (NameKind, Span)>,
    /// The time variable.
    pub time: String,
    /// Whether `q'` denotes the velocity of coordinate `q` (`algebroid tangent`).
    pub tangent: bool,
    /// The number of multipliers `lambda1…` that expected values may name.
    pub multipliers: usize,
    /// The symbol table, shared with the system: `q'`, `Omega'(t)` and `lambda1` are made here.
    pub symbols: Symbols,
}

/// The most digits of the numerator or denominator of a number under a fractional power (E0227).
pub const MAX_ROOT_DIGITS: usize = 15;

/// E0227 when `base` is a number too large to take a root of: simplifying `N^(1/k)` exactly means
/// factoring `N`, which for a 31-digit `N` took minutes (found by the CI's generated specs).
fn huge_root(base: &Expr, span: Span) -> Option<Diagnostic> {
    let cas::View::Number {
        numerator,
        denominator,
    } = base.view()
    else {
        return None;
    };
    let digits = |s: &str| s.trim_start_matches('-').len();
    if digits(&numerator) <= MAX_ROOT_DIGITS && digits(&denominator) <= MAX_ROOT_DIGITS {
        return None;
    }
    Some(
        Diagnostic::error(
            Code::E0227,
            "a fractional power of a number this large",
            span,
            format!("more than {MAX_ROOT_DIGITS} digits under a root"),
        )
        .with_note("its exact simplification needs the prime factors of the number"),
    )
}

/// The largest numerator or denominator of a numeric exponent (E0226).
pub const MAX_EXPONENT: u32 = 1000;

/// The placeholder symbol standing for `d/dq` in an anchor.
pub fn partial_placeholder(q: &str) -> String {
    format!("{q}__partial")
}

impl Scope {
    /// Reads `ast` in the given scope.
    pub fn convert(&self, ast: &Ast, kind: ScopeKind) -> Result<Expr, Vec<Diagnostic>> {
        let mut errors = Vec::new();
        let expr = self.walk(ast, kind, &mut errors);
        if errors.is_empty() && !expr.is_finite_real() {
            errors.push(
                Diagnostic::error(
                    Code::E0225,
                    "this expression is not a finite real number",
                    ast.span,
                    "it evaluates to an infinity or an imaginary number",
                )
                .with_note("for example 0^(-1), log(0) and sqrt(-1) are not allowed"),
            );
        }
        if errors.is_empty() {
            Ok(expr)
        } else {
            Err(errors)
        }
    }

    /// The terms of a chain of `+` and `−`, walked left to right. What a `−` subtracts is one
    /// term, negated, even when it is a sum: `a − (b + c)` is `a + (−1)·(b + c)`, as the
    /// subtraction itself forms it (the negation is not distributed over the sum).
    fn terms(&self, ast: &Ast, kind: ScopeKind, errors: &mut Vec<Diagnostic>, out: &mut Vec<Expr>) {
        match &ast.kind {
            ExprKind::Binary {
                op: BinOp::Add,
                lhs,
                rhs,
            } => {
                self.terms(lhs, kind, errors, out);
                self.terms(rhs, kind, errors, out);
            }
            ExprKind::Binary {
                op: BinOp::Sub,
                lhs,
                rhs,
            } => {
                self.terms(lhs, kind, errors, out);
                out.push(-self.walk(rhs, kind, errors));
            }
            _ => out.push(self.walk(ast, kind, errors)),
        }
    }

    /// The factors of a chain of `*`, walked left to right.
    fn factors(
        &self,
        ast: &Ast,
        kind: ScopeKind,
        errors: &mut Vec<Diagnostic>,
        out: &mut Vec<Expr>,
    ) {
        match &ast.kind {
            ExprKind::Binary {
                op: BinOp::Mul,
                lhs,
                rhs,
            } => {
                self.factors(lhs, kind, errors, out);
                self.factors(rhs, kind, errors, out);
            }
            _ => out.push(self.walk(ast, kind, errors)),
        }
    }

    fn walk(&self, ast: &Ast, kind: ScopeKind, errors: &mut Vec<Diagnostic>) -> Expr {
        match &ast.kind {
            ExprKind::Number(text) => number(text, ast.span, errors),
            ExprKind::Name(name) => self.name(name, ast.span, kind, errors),
            ExprKind::Primed { name, order, args } => {
                self.primed(&name.name, *order, args.as_deref(), ast.span, kind, errors)
            }
            ExprKind::Call { func, args } => self.call(&func.name, args, ast.span, kind, errors),
            ExprKind::Partial(q) => {
                if kind != ScopeKind::Anchor {
                    errors.push(Diagnostic::error(
                        Code::E0211,
                        "`d/dq` may only appear on the right of an `anchor` line",
                        ast.span,
                        "coordinate vector field here",
                    ));
                    return Expr::zero();
                }
                match self.names.get(&q.name) {
                    Some((NameKind::Coordinate | NameKind::Time, _)) => {
                        Expr::symbol(&partial_placeholder(&q.name))
                    }
                    _ => {
                        errors.push(
                            Diagnostic::error(
                                Code::E0212,
                                format!("`d/d{}` is not a coordinate vector field", q.name),
                                q.span,
                                "not a coordinate or the time variable",
                            )
                            .with_help("declare it in `coordinates`"),
                        );
                        Expr::zero()
                    }
                }
            }
            ExprKind::Bracket(..) => {
                errors.push(Diagnostic::error(
                    Code::E0213,
                    "a bracket `{f, g}` may only appear as the key of an `expect bracket` entry",
                    ast.span,
                    "bracket here",
                ));
                Expr::zero()
            }
            ExprKind::Neg(inner) => -self.walk(inner, kind, errors),
            // A chain of sums or of products is formed once (a normalised sum or product does
            // not depend on the order it was formed in): added one operand at a time, a sum of
            // `k` terms would be renormalised `k` times.
            ExprKind::Binary {
                op: BinOp::Add | BinOp::Sub,
                ..
            } => {
                let mut terms = Vec::new();
                self.terms(ast, kind, errors, &mut terms);
                Expr::sum(terms)
            }
            ExprKind::Binary { op: BinOp::Mul, .. } => {
                let mut factors = Vec::new();
                self.factors(ast, kind, errors, &mut factors);
                Expr::product(factors)
            }
            ExprKind::Binary {
                op: BinOp::Div,
                lhs,
                rhs,
            } => {
                let a = self.walk(lhs, kind, errors);
                let b = self.walk(rhs, kind, errors);
                quotient(a, b, rhs.span, errors)
            }
            ExprKind::Binary {
                op: BinOp::Pow,
                lhs,
                rhs,
            } => {
                let a = self.walk(lhs, kind, errors);
                let b = self.walk(rhs, kind, errors);
                power(a, b, lhs.span, rhs.span, errors)
            }
        }
    }

    fn name(&self, name: &str, span: Span, kind: ScopeKind, errors: &mut Vec<Diagnostic>) -> Expr {
        if let Some(a) = name
            .strip_prefix("lambda")
            .and_then(|a| a.parse::<usize>().ok())
        {
            if !self.names.contains_key(name) && a >= 1 && a <= self.multipliers {
                return self.symbols.expr(self.symbols.multiplier(a));
            }
        }
        let Some((declared, _)) = self.names.get(name) else {
            if name == "pi" {
                // π, exact (Symbolica's constant).
                return Expr::symbol("pi");
            }
            if name == "e0" && kind == ScopeKind::Bracket {
                errors.push(
                    Diagnostic::error(
                        Code::E0223,
                        "the reference section `e0` cannot appear on the right of a bracket",
                        span,
                        "brackets take values in the sections e_α",
                    )
                    .with_note(
                        "for a Lie affgebroid every bracket has no e0 component ([IMMS07], §II.3)",
                    ),
                );
                return Expr::zero();
            }
            errors.push(unknown_name(name, span));
            return Expr::zero();
        };
        let allowed = match declared {
            NameKind::Time | NameKind::Parameter | NameKind::Coordinate | NameKind::Input => true,
            NameKind::Velocity => matches!(
                kind,
                ScopeKind::Observable | ScopeKind::Induced | ScopeKind::Vakonomic
            ),
            NameKind::FrameVelocity => kind == ScopeKind::Induced,
            NameKind::Momentum => matches!(
                kind,
                ScopeKind::Phase | ScopeKind::Frame | ScopeKind::Vakonomic
            ),
            NameKind::FrameMomentum => kind == ScopeKind::Frame,
            NameKind::Section => kind == ScopeKind::Bracket,
            NameKind::Function => {
                errors.push(
                    Diagnostic::error(
                        Code::E0215,
                        format!("the function of time `{name}` must be applied"),
                        span,
                        "function used as a value",
                    )
                    .with_help(format!("write `{name}({})`", self.time)),
                );
                return Expr::zero();
            }
            NameKind::Action => matches!(kind, ScopeKind::Observable | ScopeKind::Phase),
        };
        if !allowed {
            errors.push(Diagnostic::error(
                Code::E0216,
                format!("`{name}` ({}) cannot appear here", describe(declared)),
                span,
                match kind {
                    ScopeKind::Observable => "not allowed in this expression",
                    ScopeKind::Anchor => "an anchor may depend on the base coordinates only",
                    ScopeKind::Bracket => "a bracket may depend on the base coordinates only",
                    ScopeKind::Phase => "a function on the dual may not contain velocities",
                    ScopeKind::Frame => {
                        "a function on the dual may not contain velocities (frame momenta are allowed)"
                    }
                    ScopeKind::Induced => "not allowed in a function on D",
                    ScopeKind::Vakonomic => "not allowed in a function on W_0",
                },
            ));
            return Expr::zero();
        }
        self.declared(name)
    }

    /// The declared name `name` (its own key) as an expression.
    fn declared(&self, name: &str) -> Expr {
        self.symbols.expr(self.symbols.handle(name))
    }

    fn primed(
        &self,
        name: &str,
        order: u32,
        args: Option<&[Ast]>,
        span: Span,
        kind: ScopeKind,
        errors: &mut Vec<Diagnostic>,
    ) -> Expr {
        match self.names.get(name) {
            Some((NameKind::Function, _)) => {
                self.check_time_argument(name, args, span, errors);
                self.symbols.expr(
                    self.symbols
                        .function_derivative(self.symbols.handle(name), order),
                )
            }
            Some((NameKind::Coordinate, _))
                if self.tangent
                    && order == 1
                    && args.is_none()
                    && matches!(
                        kind,
                        ScopeKind::Observable | ScopeKind::Induced | ScopeKind::Vakonomic
                    ) =>
            {
                self.symbols
                    .expr(self.symbols.velocity(self.symbols.handle(name)))
            }
            Some((NameKind::Coordinate, _)) if self.tangent && args.is_none() => {
                errors.push(Diagnostic::error(
                    Code::E0217,
                    format!("`{name}{}` cannot appear here", "'".repeat(order as usize)),
                    span,
                    if order > 1 {
                        "accelerations may only appear as keys of `expect equations`"
                    } else if matches!(kind, ScopeKind::Phase | ScopeKind::Frame) {
                        "functions on the dual are written with coordinates and momenta, not velocities"
                    } else {
                        "velocities may not appear in anchors or brackets"
                    },
                ));
                Expr::zero()
            }
            Some(_) => {
                errors.push(
                    Diagnostic::error(
                        Code::E0218,
                        format!("`{name}` cannot be differentiated here"),
                        span,
                        "primes are for functions of time and, under `algebroid tangent`, coordinates",
                    )
                    .with_note("time derivatives of state variables may only be keys of `expect equations`"),
                );
                Expr::zero()
            }
            None => {
                errors.push(unknown_name(name, span));
                Expr::zero()
            }
        }
    }

    fn check_time_argument(
        &self,
        name: &str,
        args: Option<&[Ast]>,
        span: Span,
        errors: &mut Vec<Diagnostic>,
    ) {
        let ok = matches!(args, Some([arg]) if matches!(&arg.kind, ExprKind::Name(t) if *t == self.time));
        if !ok {
            errors.push(
                Diagnostic::error(
                    Code::E0219,
                    format!(
                        "the function of time `{name}` takes exactly the argument `{}`",
                        self.time
                    ),
                    span,
                    "wrong argument",
                )
                .with_help(format!("write `{name}({})`", self.time)),
            );
        }
    }

    fn call(
        &self,
        func: &str,
        args: &[Ast],
        span: Span,
        kind: ScopeKind,
        errors: &mut Vec<Diagnostic>,
    ) -> Expr {
        if let Some((NameKind::Function, _)) = self.names.get(func) {
            self.check_time_argument(func, Some(args), span, errors);
            return self.declared(func);
        }
        let builtin = match func {
            "sin" => Func::Sin,
            "cos" => Func::Cos,
            "tan" => Func::Tan,
            "exp" => Func::Exp,
            "log" => Func::Log,
            "sqrt" => Func::Sqrt,
            _ => {
                let message = match self.names.get(func) {
                    Some((declared, _)) => {
                        format!("`{func}` ({}) is not a function", describe(declared))
                    }
                    None => format!("unknown function `{func}`"),
                };
                errors.push(
                    Diagnostic::error(Code::E0220, message, span, "called here").with_help(
                        "the functions are sin, cos, tan, exp, log, sqrt and the declared functions of time",
                    ),
                );
                return Expr::zero();
            }
        };
        if args.len() != 1 {
            errors.push(Diagnostic::error(
                Code::E0221,
                format!("`{func}` takes 1 argument but {} were given", args.len()),
                span,
                "wrong number of arguments",
            ));
            return Expr::zero();
        }
        let arg = self.walk(&args[0], kind, errors);
        if builtin == Func::Sqrt {
            if let Some(e) = huge_root(&arg, args[0].span) {
                errors.push(e);
                return Expr::zero();
            }
        }
        Expr::apply(builtin, arg)
    }
}

fn number(text: &str, span: Span, errors: &mut Vec<Diagnostic>) -> Expr {
    match Expr::from_decimal(text) {
        Some(e) => e,
        None => {
            errors.push(Diagnostic::error(
                Code::E0222,
                format!("`{text}` is not a number dalembert can read"),
                span,
                "number here",
            ));
            Expr::zero()
        }
    }
}

fn unknown_name(name: &str, span: Span) -> Diagnostic {
    Diagnostic::error(Code::E0210, format!("unknown name `{name}`"), span, "not declared")
        .with_help("declare it in `parameters`, `coordinates`, `functions`, `inputs` or the algebroid's `velocities`")
}

/// A phrase naming a kind of name, for messages.
pub fn describe(kind: &NameKind) -> &'static str {
    match kind {
        NameKind::Time => "the time variable",
        NameKind::Parameter => "a parameter",
        NameKind::Function => "a function of time",
        NameKind::Coordinate => "a coordinate",
        NameKind::Input => "an input",
        NameKind::Velocity => "a velocity",
        NameKind::Section => "a section",
        NameKind::Momentum => "a momentum",
        NameKind::FrameMomentum => "a frame momentum",
        NameKind::FrameVelocity => "a velocity of the constraint distribution",
        NameKind::Action => "the action variable",
    }
}

/// `a / b`, or E0214 when `b` is zero.
fn quotient(a: Expr, b: Expr, rhs: Span, errors: &mut Vec<Diagnostic>) -> Expr {
    if b.is_zero() && errors.is_empty() {
        errors.push(Diagnostic::error(
            Code::E0214,
            "division by zero",
            rhs,
            "this is zero",
        ));
        return Expr::zero();
    }
    a / b
}

/// `a ^ b`, or E0226 when `b` is a number too large to raise to exactly, E0227 when `a` is a
/// number too large to take a root of.
fn power(a: Expr, b: Expr, lhs: Span, rhs: Span, errors: &mut Vec<Diagnostic>) -> Expr {
    if let cas::View::Number {
        numerator,
        denominator,
    } = b.view()
    {
        let small = |digits: &str| {
            digits
                .trim_start_matches('-')
                .parse::<u32>()
                .is_ok_and(|n| n <= MAX_EXPONENT)
        };
        if !(small(&numerator) && small(&denominator)) {
            errors.push(
                Diagnostic::error(
                    Code::E0226,
                    "this exponent is too large",
                    rhs,
                    format!(
                        "the exponent {} is not a ratio of integers of at most {MAX_EXPONENT}",
                        if denominator == "1" {
                            numerator.clone()
                        } else {
                            format!("{numerator}/{denominator}")
                        }
                    ),
                )
                .with_note("exact powers of such size have millions of digits, or none at all"),
            );
            return Expr::zero();
        }
        if denominator != "1" {
            if let Some(e) = huge_root(&a, lhs) {
                errors.push(e);
                return Expr::zero();
            }
        }
    }
    a.pow(&b)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `text` read with every bare name a parameter.
    fn read(text: &str) -> Expr {
        let ast = syntax::parse_expr(text).expect("an expression");
        let mut scope = Scope::default();
        for name in ast.bare_names() {
            scope.names.insert(name, (NameKind::Parameter, ast.span));
        }
        scope
            .convert(&ast, ScopeKind::Observable)
            .expect("converts")
    }

    /// Chains of sums and products are formed at once; the atoms are those the binary operations
    /// give one at a time, also where a subtraction takes a sum (its negation stays a factor of
    /// the sum, as Symbolica's subtraction leaves it) and where parentheses group a sum or a
    /// product inside a chain.
    #[test]
    fn chains_form_the_atoms_of_binary_operations() {
        let s = Expr::symbol;
        let (a, b, c, d) = (s("a"), s("b"), s("c"), s("d"));
        let cases = [
            (
                "a + b - c + d",
                a.clone() + b.clone() - c.clone() + d.clone(),
            ),
            (
                "a - (b + c) - d",
                a.clone() - (b.clone() + c.clone()) - d.clone(),
            ),
            ("a - (b - c)", a.clone() - (b.clone() - c.clone())),
            (
                "a + (b - c) * d",
                a.clone() + (b.clone() - c.clone()) * d.clone(),
            ),
            ("-a + b", -a.clone() + b.clone()),
            (
                "a * b * (c * d) * 2",
                a.clone() * b.clone() * (c.clone() * d.clone()) * Expr::int(2),
            ),
            (
                "a * (b + c) * a",
                a.clone() * (b.clone() + c.clone()) * a.clone(),
            ),
            (
                "a / b * c - 1/2 * d",
                a.clone() / b.clone() * c.clone() - Expr::rational(1, 2) * d.clone(),
            ),
        ];
        for (text, binary) in cases {
            assert_eq!(read(text), binary, "{text}");
        }
    }
}
