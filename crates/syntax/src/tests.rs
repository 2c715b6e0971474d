//! Tests of the parser: tree shapes as S-expressions, errors as rendered text.

use crate::ast::*;
use crate::{parse, parse_expr, render_plain};

/// The tree of an expression, fully parenthesised.
fn sexpr(e: &Expr) -> String {
    let list = |args: &[Expr]| args.iter().map(sexpr).collect::<Vec<_>>().join(" ");
    match &e.kind {
        ExprKind::Number(n) => n.clone(),
        ExprKind::Name(n) => n.clone(),
        ExprKind::Primed { name, order, args } => match args {
            None => format!("(prime{order} {})", name.name),
            Some(args) => format!("(prime{order} {} {})", name.name, list(args)),
        },
        ExprKind::Call { func, args } => format!("({} {})", func.name, list(args)),
        ExprKind::Partial(q) => format!("(d {})", q.name),
        ExprKind::Bracket(a, b) => format!("({{}} {} {})", sexpr(a), sexpr(b)),
        ExprKind::Neg(a) => format!("(neg {})", sexpr(a)),
        ExprKind::Binary { op, lhs, rhs } => {
            format!("({} {} {})", op.symbol(), sexpr(lhs), sexpr(rhs))
        }
    }
}

fn expr(source: &str) -> String {
    match parse_expr(source) {
        Ok(e) => sexpr(&e),
        Err(d) => panic!("{}", render_plain("expr", source, &d)),
    }
}

fn spec(source: &str) -> Spec {
    match parse(source) {
        Ok(spec) => spec,
        Err(d) => panic!("{}", render_plain("test.mech", source, &d)),
    }
}

/// The rendered diagnostics for a source that must not parse.
fn errors(source: &str) -> String {
    match parse(source) {
        Ok(spec) => panic!("parsed: {spec:#?}"),
        Err(d) => render_plain("test.mech", source, &d),
    }
}

/// `[message @ line:column]` for each diagnostic.
fn error_summary(source: &str) -> Vec<String> {
    let diagnostics = parse(source).expect_err("must not parse");
    diagnostics
        .iter()
        .map(|d| {
            let (line, column) = crate::line_col(source, d.span().expect("located").start);
            format!("{} @ {line}:{column}", d.message)
        })
        .collect()
}

fn text(source: &str, span: Span) -> &str {
    &source[span.start..span.end]
}

const BALL: &str = r#"# Sphere rolling without sliding on a turntable turning at Omega(t)  ([IMMS07], §VI.3)
system ball_on_turntable
time t
parameters m, k, r
functions Omega(t)
coordinates x, y

algebroid {
  sections e1, e2, e3, e4, e5
  velocities u1, u2, w1, w2, w3
  anchor e0 = d/dt
  anchor e1 = d/dx
  anchor e2 = d/dy
  bracket [e3, e4] = -e5
  bracket [e4, e5] = -e3
  bracket [e5, e3] = -e4
}

lagrangian = m/2*(u1^2 + u2^2) + k^2/2*(w1^2 + w2^2 + w3^2)

constraints nonholonomic {
  u1 - r*w2 + Omega(t)*y = 0
  u2 + r*w1 - Omega(t)*x = 0
}

expect equations {
  u1' = -k^2/(k^2 + m*r^2) * (Omega'(t)*y + Omega(t)*u2)
}
expect omega {
  (T(e4), T(e3)) = k^2*w3
}
latex { w1 = "\\omega_x" }
"#;

fn names(idents: &[Ident]) -> Vec<&str> {
    idents.iter().map(|i| i.name.as_str()).collect()
}

#[test]
fn ball_on_turntable() {
    let spec = spec(BALL);
    let kinds: Vec<&ItemKind> = spec.items.iter().map(|i| &i.kind).collect();
    assert_eq!(kinds.len(), 11);

    let ItemKind::System(name) = kinds[0] else {
        panic!()
    };
    assert_eq!(name.name, "ball_on_turntable");
    assert_eq!(text(BALL, spec.items[0].span), "system ball_on_turntable");
    let ItemKind::Time(t) = kinds[1] else {
        panic!()
    };
    assert_eq!(t.name, "t");
    let ItemKind::Parameters(p) = kinds[2] else {
        panic!()
    };
    assert_eq!(names(p), ["m", "k", "r"]);
    let ItemKind::Functions(f) = kinds[3] else {
        panic!()
    };
    assert_eq!(
        (f[0].name.name.as_str(), f[0].argument.name.as_str()),
        ("Omega", "t")
    );
    assert_eq!(text(BALL, f[0].span), "Omega(t)");
    let ItemKind::Coordinates(q) = kinds[4] else {
        panic!()
    };
    assert_eq!(names(q), ["x", "y"]);

    let ItemKind::Algebroid(a) = kinds[5] else {
        panic!()
    };
    assert!(a.preset.is_none());
    let lines: Vec<String> = a
        .body
        .iter()
        .map(|line| match &line.kind {
            AlgebroidItemKind::Sections(s) => format!("sections {}", names(s).join(" ")),
            AlgebroidItemKind::Velocities(v) => format!("velocities {}", names(v).join(" ")),
            AlgebroidItemKind::Momenta(p) => format!("momenta {}", names(p).join(" ")),
            AlgebroidItemKind::Anchor { section, value } => {
                format!("anchor {} {}", section.name, sexpr(value))
            }
            AlgebroidItemKind::Bracket { left, right, value } => {
                format!("bracket {} {} {}", left.name, right.name, sexpr(value))
            }
        })
        .collect();
    assert_eq!(
        lines,
        [
            "sections e1 e2 e3 e4 e5",
            "velocities u1 u2 w1 w2 w3",
            "anchor e0 (d t)",
            "anchor e1 (d x)",
            "anchor e2 (d y)",
            "bracket e3 e4 (neg e5)",
            "bracket e4 e5 (neg e3)",
            "bracket e5 e3 (neg e4)",
        ]
    );
    assert_eq!(text(BALL, a.body[7].span), "bracket [e5, e3] = -e4");

    let ItemKind::Lagrangian(l) = kinds[6] else {
        panic!()
    };
    assert_eq!(
        sexpr(l),
        "(+ (* (/ m 2) (+ (^ u1 2) (^ u2 2))) (* (/ (^ k 2) 2) (+ (+ (^ w1 2) (^ w2 2)) (^ w3 2))))"
    );
    assert_eq!(
        text(BALL, l.span),
        "m/2*(u1^2 + u2^2) + k^2/2*(w1^2 + w2^2 + w3^2)"
    );

    let ItemKind::Constraints {
        kind,
        kind_span,
        equations,
    } = kinds[7]
    else {
        panic!()
    };
    assert_eq!(*kind, ConstraintKind::Nonholonomic);
    assert_eq!(text(BALL, *kind_span), "nonholonomic");
    assert_eq!(equations.len(), 2);
    assert_eq!(
        sexpr(&equations[0].lhs),
        "(+ (- u1 (* r w2)) (* (Omega t) y))"
    );
    assert_eq!(sexpr(&equations[1].rhs), "0");
    assert_eq!(text(BALL, equations[1].span), "u2 + r*w1 - Omega(t)*x = 0");

    let ItemKind::Expect(eq) = kinds[8] else {
        panic!()
    };
    assert_eq!(eq.kind.name, "equations");
    let entry = &eq.entries[0];
    let Some(Key::Single(key)) = &entry.key else {
        panic!()
    };
    assert_eq!(sexpr(key), "(prime1 u1)");
    assert_eq!(
        sexpr(&entry.value),
        "(* (/ (neg (^ k 2)) (+ (^ k 2) (* m (^ r 2)))) (+ (* (prime1 Omega t) y) (* (Omega t) u2)))"
    );

    let ItemKind::Expect(omega) = kinds[9] else {
        panic!()
    };
    let Some(Key::Tuple(items, span)) = &omega.entries[0].key else {
        panic!()
    };
    assert_eq!(
        items.iter().map(sexpr).collect::<Vec<_>>(),
        ["(T e4)", "(T e3)"]
    );
    assert_eq!(text(BALL, *span), "(T(e4), T(e3))");

    let ItemKind::Latex(latex) = kinds[10] else {
        panic!()
    };
    assert_eq!(latex[0].name.name, "w1");
    assert_eq!(latex[0].text, r"\omega_x");
}

/// Every fenced example of `docs/spec-language.md` that is meant to be spec text parses.
#[test]
fn examples_of_the_language_document() {
    let doc = include_str!("../../../docs/spec-language.md");
    let blocks: Vec<&str> = doc
        .split("```")
        .skip(1)
        .step_by(2)
        .map(|b| b.strip_prefix('\n').unwrap_or(b))
        .collect();
    let algebroid = blocks
        .iter()
        .find(|b| b.starts_with("algebroid {"))
        .expect("the explicit algebroid example");
    let spec = spec(algebroid);
    let ItemKind::Algebroid(a) = &spec.items[0].kind else {
        panic!()
    };
    assert_eq!(a.body.len(), 8);
    let AlgebroidItemKind::Anchor { value, .. } = &a.body[5].kind else {
        panic!()
    };
    assert_eq!(sexpr(value), "(+ (d y) (* x (d t)))");
    let AlgebroidItemKind::Bracket { value, .. } = &a.body[7].kind else {
        panic!()
    };
    assert_eq!(sexpr(value), "(* (Omega t) e2)");

    // The items of the table, one per line.
    let table = "system s\ntime t\nparameters m, k, r\nfunctions Omega(t), f(t)\n\
                 coordinates x, y\ninputs u1, u2\naction z\nmomenta p1, p2\nalgebroid tangent\n\
                 algebroid so3 { velocities w1, w2, w3 }\nlagrangian = x'^2/2\nhamiltonian = p1^2/2\n\
                 constraints vakonomic { x' = y }\nforces { x = -k*x' }\nlatex { w1 = \"\\\\omega_1\" }\n\
                 expect first_integrals {\n  x'^2 + y'^2\n}\n";
    let spec = self::spec(table);
    assert_eq!(spec.items.len(), 16);
    let ItemKind::Algebroid(so3) = &spec.items[9].kind else {
        panic!()
    };
    assert_eq!(so3.preset.as_ref().unwrap().name, "so3");
    assert_eq!(so3.body.len(), 1);
    let ItemKind::Algebroid(tangent) = &spec.items[8].kind else {
        panic!()
    };
    assert_eq!(tangent.preset.as_ref().unwrap().name, "tangent");
    assert!(tangent.body.is_empty());
    let ItemKind::Constraints { kind, .. } = &spec.items[12].kind else {
        panic!()
    };
    assert_eq!(kind, &ConstraintKind::Vakonomic);
    let ItemKind::Expect(e) = &spec.items[15].kind else {
        panic!()
    };
    assert!(e.entries[0].key.is_none());
}

#[test]
fn precedence_and_associativity() {
    assert_eq!(expr("a + b*c"), "(+ a (* b c))");
    assert_eq!(expr("a - b - c"), "(- (- a b) c)");
    assert_eq!(expr("a/b*c"), "(* (/ a b) c)");
    assert_eq!(expr("a/b/c"), "(/ (/ a b) c)");
    assert_eq!(expr("a^b^c"), "(^ a (^ b c))");
    assert_eq!(expr("-x^2"), "(neg (^ x 2))");
    assert_eq!(expr("-a*b"), "(* (neg a) b)");
    assert_eq!(expr("a*-b"), "(* a (neg b))");
    assert_eq!(expr("a - -b"), "(- a (neg b))");
    assert_eq!(expr("2^-1"), "(^ 2 (neg 1))");
    assert_eq!(expr("2^-1*3"), "(* (^ 2 (neg 1)) 3)");
    assert_eq!(expr("2^-x^2"), "(^ 2 (neg (^ x 2)))");
    assert_eq!(expr("(-x)^2"), "(^ (neg x) 2)");
    assert_eq!(expr("0.25*x"), "(* 0.25 x)");
    assert_eq!(
        expr("sin(a)^2 + cos(a)^2"),
        "(+ (^ (sin a) 2) (^ (cos a) 2))"
    );
    assert_eq!(expr("J(f, g, h)"), "(J f g h)");
    assert_eq!(expr("{f, g*h}"), "({} f (* g h))");
}

#[test]
fn primes() {
    assert_eq!(expr("x'"), "(prime1 x)");
    assert_eq!(expr("x''"), "(prime2 x)");
    assert_eq!(expr("x'^2"), "(^ (prime1 x) 2)");
    assert_eq!(expr("Omega'(t)"), "(prime1 Omega t)");
    assert_eq!(expr("Omega''(t)*y"), "(* (prime2 Omega t) y)");
    let e = parse_expr("Omega''(t)").unwrap();
    let ExprKind::Primed { name, .. } = &e.kind else {
        panic!()
    };
    assert_eq!((name.span, e.span), (Span::new(0, 5), Span::new(0, 10)));
}

/// `d/d` followed at once by a name is a partial; anything else is a division.
#[test]
fn partials_and_divisions() {
    assert_eq!(expr("d/dx"), "(d x)");
    assert_eq!(expr("d/dt + x*d/dy"), "(+ (d t) (* x (d y)))");
    assert_eq!(expr("d/x"), "(/ d x)");
    assert_eq!(expr("d / dx"), "(/ d dx)");
    assert_eq!(expr("d/ dx"), "(/ d dx)");
    assert_eq!(expr("pd/dx"), "(/ pd dx)");
    assert_eq!(expr("d/d"), "(/ d d)");
    let e = parse_expr("2*d/dq1").unwrap();
    let ExprKind::Binary { rhs, .. } = &e.kind else {
        panic!()
    };
    let ExprKind::Partial(q) = &rhs.kind else {
        panic!()
    };
    assert_eq!(
        (q.name.as_str(), q.span, rhs.span),
        ("q1", Span::new(5, 7), Span::new(2, 7))
    );
}

#[test]
fn spans_cover_parentheses_and_operators() {
    let source = "(a + b)*-c";
    let e = parse_expr(source).unwrap();
    assert_eq!(text(source, e.span), source);
    let ExprKind::Binary { lhs, rhs, .. } = &e.kind else {
        panic!()
    };
    assert_eq!(text(source, lhs.span), "(a + b)");
    assert_eq!(text(source, rhs.span), "-c");
}

#[test]
fn expect_keys() {
    let source =
        "expect omega {\n  (T(e4), V(e3)) = 1\n  (1, 2, 3) = x\n  (a) = 2\n  x*y\n  {f, g} = 0\n}";
    let spec = spec(source);
    let ItemKind::Expect(block) = &spec.items[0].kind else {
        panic!()
    };
    let keys: Vec<String> = block
        .entries
        .iter()
        .map(|e| match &e.key {
            None => format!("- {}", sexpr(&e.value)),
            Some(Key::Single(k)) => format!("single {}", sexpr(k)),
            Some(Key::Tuple(items, _)) => {
                format!(
                    "tuple {}",
                    items.iter().map(sexpr).collect::<Vec<_>>().join(" ")
                )
            }
        })
        .collect();
    assert_eq!(
        keys,
        [
            "tuple (T e4) (V e3)",
            "tuple 1 2 3",
            "single a",
            "- (* x y)",
            "single ({} f g)"
        ]
    );
    assert_eq!(text(source, block.entries[3].span), "x*y");
}

#[test]
fn line_breaks_and_separators() {
    // After an operator, after `(` and `,`, and anywhere inside brackets.
    let source =
        "lagrangian = a +\n  b*(c\n  - d) + f(x,\n y) # comment\nparameters m,\n  k; time t\n\n\n";
    let spec = spec(source);
    let ItemKind::Lagrangian(l) = &spec.items[0].kind else {
        panic!()
    };
    assert_eq!(sexpr(l), "(+ (+ a (* b (- c d))) (f x y))");
    let ItemKind::Parameters(p) = &spec.items[1].kind else {
        panic!()
    };
    assert_eq!(names(p), ["m", "k"]);
    assert!(matches!(spec.items[2].kind, ItemKind::Time(_)));
    assert_eq!(spec.items.len(), 3);

    // Comments, blank lines and CRLF.
    let spec = self::spec("# only a comment\r\n\r\nsystem s # trailing\r\n  # indented\r\n");
    assert_eq!(spec.items.len(), 1);
    assert!(parse("").unwrap().items.is_empty());

    // A line break before an operator ends the item.
    assert_eq!(
        error_summary("lagrangian = a\n  + b\n"),
        ["expected an item, found `+` @ 2:3"]
    );
}

#[test]
fn latex_strings() {
    let spec = spec(r#"latex { a = "\\alpha"; b = "\"q\""; c = "\beta" }"#);
    let ItemKind::Latex(l) = &spec.items[0].kind else {
        panic!()
    };
    let texts: Vec<&str> = l.iter().map(|o| o.text.as_str()).collect();
    assert_eq!(texts, [r"\alpha", r#""q""#, r"\beta"]);
}

#[test]
fn keywords_are_whole_words() {
    assert_eq!(
        error_summary("timestep t\n"),
        ["expected an item, found `timestep` @ 1:1"]
    );
    // Keywords are not reserved in expressions.
    assert_eq!(expr("time*system"), "(* time system)");
}

#[test]
fn display_round_trips() {
    for source in [
        "-x^2",
        "(-x)^2",
        "a - (b - c)",
        "(a - b) - c",
        "a/(b*c)",
        "a^b^c",
        "(a^b)^c",
        "2^(-1)",
        "-(a + b)*c",
        "-(a*b)",
        "a*-b",
        "{f, g}",
        "Omega''(t)*x' + d/dx",
        "J(f, g, h)",
    ] {
        let e = parse_expr(source).unwrap();
        let printed = e.to_string();
        assert_eq!(expr(&printed), sexpr(&e), "{source} printed as {printed}");
    }
    assert_eq!(
        parse_expr("(a)*((b))+-(c)").unwrap().to_string(),
        "a*b + -c"
    );
}

// ---------------------------------------------------------------------------------------------
// Errors

#[test]
fn error_expected_equals() {
    assert_eq!(
        errors("system s\nlagrangian m/2*x'^2\n"),
        "\
error[E0101]: expected `=`, found `m`
 --> test.mech:2:12
  |
2 | lagrangian m/2*x'^2
  |            ^ expected `=`
"
    );
}

#[test]
fn error_unexpected_character() {
    assert_eq!(
        errors("lagrangian = m/2*(u1^2 + @)\n"),
        "\
error[E0101]: unexpected character `@`
 --> test.mech:1:26
  |
1 | lagrangian = m/2*(u1^2 + @)
  |                          ^ expected an expression
"
    );
}

#[test]
fn error_messages_never_show_rule_names() {
    for (source, message) in [
        ("system\n", "expected a name, found end of line @ 1:7"),
        ("system s t\n", "expected end of line, found `t` @ 1:10"),
        (
            "lagrangian = m n\n",
            "expected an operator or end of line, found `n` @ 1:16",
        ),
        (
            "lagrangian =\n",
            "expected an expression, found end of line @ 1:13",
        ),
        ("lagrangian = 2.x\n", "expected a digit, found `x` @ 1:16"),
        (
            "lagrangian = f(a b)\n",
            "expected an operator, `)` or `,`, found `b` @ 1:18",
        ),
        (
            "lagrangian = a +",
            "expected an expression, found end of file @ 1:17",
        ),
        ("functions Omega t\n", "expected `(`, found `t` @ 1:17"),
        (
            "constraints foo {\n}\n",
            "expected `nonholonomic`, `vakonomic` or `holonomic`, found `foo` @ 1:13",
        ),
        (
            "algebroid {\n  sektions e1\n}\n",
            "expected an algebroid line or `}`, found `sektions` @ 2:3",
        ),
        (
            "latex { w = 3 }\n",
            "expected a string in double quotes, found `3` @ 1:13",
        ),
        (
            "expect omega {\n  (a, b)\n}\n",
            "expected `=`, found end of line @ 2:9",
        ),
        (
            "constraints nonholonomic {\n  u = \n}\n",
            "expected an expression, found end of line @ 2:7",
        ),
        (
            "bracket [a, b] = c\n",
            "expected an item, found `bracket` @ 1:1",
        ),
        (
            "algebroid { bracket (a, b) = c }\n",
            "expected `[`, found `(` @ 1:21",
        ),
        ("}\n", "unmatched `}` @ 1:1"),
    ] {
        let summary = error_summary(source);
        assert_eq!(summary, [message], "{source:?}");
        assert!(!errors(source).contains("EOI"));
    }
}

#[test]
fn several_errors_are_collected() {
    let source = "\
system s
parameters m,, k
lagrangian = m*x'^2 @ 2
constraints nonholonomic {
  x' = 0
  y' = * 2
  z' == 1
}
expect energy {
  E = m*x'^2/2
  E' =
}
time t
";
    assert_eq!(
        error_summary(source),
        [
            "expected a name, found `,` @ 2:14",
            "unexpected character `@` @ 3:21",
            "expected an expression, found `*` @ 6:8",
            "expected an expression, found `=` @ 7:7",
            "expected an expression, found end of line @ 11:7",
        ]
    );
}

#[test]
fn missing_brace_is_reported_at_the_opening_brace() {
    let source = "\
system s
constraints nonholonomic {
  x' = 0

lagrangian = x'^2 @
expect energy { E = 0 }
";
    assert_eq!(
        errors(source),
        "\
error[E0102]: unclosed `{`
 --> test.mech:2:26
  |
2 | constraints nonholonomic {
  |                          ^ this delimiter is never closed
...
5 | lagrangian = x'^2 @
  | ---------- a new item starts here
  = note: a new item starts on line 5 while this `{` is still open
  = help: add `}` before line 5

error[E0101]: unexpected character `@`
 --> test.mech:5:19
  |
5 | lagrangian = x'^2 @
  |                   ^ expected an operator or end of line
"
    );

    assert_eq!(
        error_summary("system s\nforces {\n  x = 1\n"),
        ["unclosed `{` @ 2:8"]
    );
    let diagnostics = parse("forces {\n  x = 1\n").unwrap_err();
    assert_eq!(
        diagnostics[0].notes,
        ["the file ends before the matching `}`"]
    );
}

#[test]
fn unclosed_brackets_inside_blocks() {
    let source = "expect equations {\n  x' = (1 + 2\n}\nsystem @\n";
    assert_eq!(
        error_summary(source),
        ["unclosed `(` @ 2:8", "unexpected character `@` @ 4:8"]
    );
    let source = "latex { w = \"abc }\nsystem s\n";
    assert_eq!(error_summary(source), ["unterminated string @ 1:13"]);
}

#[test]
fn error_count_is_bounded() {
    let source = "x\n".repeat(100);
    assert_eq!(
        parse(&source).unwrap_err().len(),
        crate::recover::MAX_ERRORS
    );
}
