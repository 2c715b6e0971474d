//! The front end alone (`syntax`: parse, diagnostics, the expression printer, and `specgen`)
//! under libFuzzer. It never reaches the symbolic kernel, so unlike `pipeline` it may run while
//! tests or another dalembert run, and it runs thousands of inputs per second. See
//! `docs/fuzzing.md`.
//!
//! The first byte chooses what the rest is:
//! - `0 mod 4`: bytes driving `specgen`. The generated spec must parse (it is valid by
//!   construction); the same spec damaged in one place must parse or be diagnosed.
//! - `1 mod 4`: an expression. If it parses, its printed text (what later stages quote in their
//!   messages) must parse back and print identically.
//! - otherwise: spec text.
//!
//! Every diagnostic must carry a syntax code and point inside the file, on character
//! boundaries, and render; a panic anywhere is a crash.
#![no_main]

use libfuzzer_sys::fuzz_target;
use syntax::{Diagnostic, Span};

fn inside(source: &str, span: Span) -> bool {
    span.start <= span.end
        && span.end <= source.len()
        && source.is_char_boundary(span.start)
        && source.is_char_boundary(span.end)
}

fn check_diagnostics(source: &str, diagnostics: &[Diagnostic]) {
    assert!(!diagnostics.is_empty(), "an error without diagnostics");
    for d in diagnostics {
        assert!(d.code.starts_with("E01"), "{} from the parser", d.code);
        assert!(
            d.span().is_some_and(|span| inside(source, span)),
            "{} at {:?}",
            d.code,
            d.span()
        );
        for label in &d.secondary {
            assert!(inside(source, label.span), "{} at {:?}", d.code, label.span);
        }
    }
    let text = syntax::render_plain("fuzz.mech", source, diagnostics);
    assert!(text.starts_with("error[E01"), "{text}");
}

fn spec(source: &str) {
    if let Err(diagnostics) = syntax::parse(source) {
        check_diagnostics(source, &diagnostics);
    }
}

fn expression(source: &str) {
    match syntax::parse_expr(source) {
        Ok(e) => {
            let printed = e.to_string();
            let again = syntax::parse_expr(&printed).unwrap_or_else(|d| {
                panic!(
                    "`{source}` prints as `{printed}`, which does not parse:\n{}",
                    syntax::render_plain("printed", &printed, &d)
                )
            });
            assert_eq!(
                again.to_string(),
                printed,
                "printing `{source}` is not stable"
            );
        }
        Err(diagnostics) => check_diagnostics(source, &diagnostics),
    }
}

fn generated(bytes: &[u8]) {
    let split = bytes.len().saturating_sub(8);
    let valid = specgen::generate(&bytes[..split]);
    if let Err(d) = syntax::parse(&valid) {
        panic!(
            "a generated spec does not parse:\n{}\n{valid}",
            syntax::render_plain("gen.mech", &valid, &d)
        );
    }
    spec(&specgen::corrupt(&valid, &bytes[split..]));
}

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    match mode % 4 {
        0 => generated(rest),
        1 => {
            if let Ok(text) = std::str::from_utf8(rest) {
                expression(text);
            }
        }
        _ => {
            if let Ok(text) = std::str::from_utf8(rest) {
                spec(text);
            }
        }
    }
});
