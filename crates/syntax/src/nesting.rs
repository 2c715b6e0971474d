//! The nesting limit: text nested deeper than any mechanics needs is refused before it is parsed.
//!
//! The grammar and the walks over the syntax tree that follow it (name resolution, the
//! translation into the symbolic kernel) recurse once per level of nesting, so a spec with
//! thousands of nested parentheses, a tower `a^b^c^…` of thousands of powers or thousands of
//! signs `- - - x` in a row would overflow the stack and crash instead of being answered. This
//! scan runs first, over the raw text, and refuses such input with E0105 at the place where the
//! limit is passed. The limits are far above anything a physical system needs (the deepest
//! shipped spec nests 8 brackets) and far below what the stack holds.
//!
//! A long chain of one operator (`a + b + c + …`) nests too: the tree of a sum of `n` terms is
//! `n` levels deep. The command line gives its work a stack of 1 GiB for such sums; the scan
//! bounds the operators of a whole spec by [`MAX_OPERATORS`], about a fifth of what that stack
//! holds at the measured 1 KiB or so per level (a sum of 199,999 terms derives in a second).

use diagnostic::{Diagnostic, Span};

use crate::codes;

/// The most binary and unary operators (`+ - * / ^`) a spec may hold in all.
pub const MAX_OPERATORS: usize = 200_000;

/// The most brackets `(`, `[`, `{` that may be open at once.
pub const MAX_NESTING: usize = 200;

/// The most operators of one tower that nest to the right: powers `a^b^c` (right-associative)
/// and signs `- - x` in a row.
pub const MAX_CHAIN: usize = 200;

/// A run of operators that nest to the right (a tower of powers, signs in a row): how many, and
/// where the first one is.
#[derive(Default)]
struct Run {
    count: usize,
    start: usize,
}

impl Run {
    /// Counts the operator at `at`; the run's start when it has grown past [`MAX_CHAIN`].
    fn extend(&mut self, at: usize) -> Option<usize> {
        if self.count == 0 {
            self.start = at;
        }
        self.count += 1;
        (self.count > MAX_CHAIN).then_some(self.start)
    }
}

/// The towers the scan is counting at one bracket level.
#[derive(Default)]
struct Level {
    powers: Run,
    signs: Run,
}

/// E0105 at the first place where `source` nests deeper than [`MAX_NESTING`] brackets or builds
/// a tower of more than [`MAX_CHAIN`] powers or signs, or holds more than [`MAX_OPERATORS`]
/// operators; `Ok` otherwise.
pub(crate) fn check(source: &str) -> diagnostic::Result<()> {
    let mut open: Vec<usize> = Vec::new();
    let mut levels: Vec<Level> = vec![Level::default()];
    let mut previous_significant: Option<char> = None;
    let mut operators = 0usize;
    let mut chars = source.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        match c {
            '#' => {
                while chars.next_if(|&(_, c)| c != '\n').is_some() {}
                continue;
            }
            '"' => {
                while let Some((_, c)) = chars.next_if(|&(_, c)| c != '\n') {
                    if c == '"' {
                        break;
                    }
                    if c == '\\' {
                        chars.next_if(|&(_, c)| c == '\\' || c == '"');
                    }
                }
            }
            ' ' | '\t' | '\r' => continue,
            '+' | '-' | '*' | '/' | '^' => {
                if operators == MAX_OPERATORS {
                    return Err(vec![too_many(i)]);
                }
                operators += 1;
            }
            _ => {}
        }
        match c {
            '(' | '[' | '{' => {
                open.push(i);
                if open.len() > MAX_NESTING {
                    return Err(vec![too_deep(i, c)]);
                }
                levels.push(Level::default());
            }
            ')' | ']' | '}' => {
                // An unmatched closer is the grammar's to report.
                if open.pop().is_some() {
                    levels.pop();
                }
            }
            '^' => {
                if let Some(start) = levels.last_mut().expect("a level").powers.extend(i) {
                    return Err(vec![too_long(source, start, i, "powers `^`")]);
                }
            }
            '-' if previous_significant.is_none_or(|p| !ends_operand(p)) => {
                if let Some(start) = levels.last_mut().expect("a level").signs.extend(i) {
                    return Err(vec![too_long(source, start, i, "signs `-` in a row")]);
                }
            }
            '+' | '-' | '*' | '/' | ',' | '=' | '\n' | ';' => {
                *levels.last_mut().expect("a level") = Level::default();
            }
            _ => {
                levels.last_mut().expect("a level").signs = Run::default();
            }
        }
        if c != '\n' {
            previous_significant = Some(c);
        } else {
            previous_significant = None;
        }
    }
    Ok(())
}

/// Whether `c`, the last significant character, ends an operand (so a `-` after it subtracts).
fn ends_operand(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | ')' | ']' | '}' | '\'' | '.' | '"')
}

fn too_many(at: usize) -> Diagnostic {
    Diagnostic::error(
        codes::NESTING,
        format!("the spec has more than {MAX_OPERATORS} operators"),
        Span::new(at, at + 1),
        format!("operator {}", MAX_OPERATORS + 1),
    )
    .with_help(format!(
        "a spec may hold at most {MAX_OPERATORS} operators `+ - * / ^` in all"
    ))
}

fn too_deep(at: usize, bracket: char) -> Diagnostic {
    Diagnostic::error(
        codes::NESTING,
        format!("brackets nested more than {MAX_NESTING} deep"),
        Span::new(at, at + bracket.len_utf8()),
        format!("this `{bracket}` opens level {}", MAX_NESTING + 1),
    )
    .with_help(format!(
        "at most {MAX_NESTING} brackets may be open at once: multiply some of them out"
    ))
}

fn too_long(source: &str, start: usize, at: usize, what: &str) -> Diagnostic {
    let (line, column) = diagnostic::line_col(source, start);
    Diagnostic::error(
        codes::NESTING,
        format!("more than {MAX_CHAIN} {what} nest in one expression"),
        Span::new(at, at + 1),
        format!("operator {} of this tower", MAX_CHAIN + 1),
    )
    .with_note(format!("the tower starts at {line}:{column}"))
    .with_help(format!("at most {MAX_CHAIN} may nest in one expression"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use diagnostic::Code;

    fn code(source: &str) -> Option<Code> {
        check(source).err().map(|d| d[0].code)
    }

    #[test]
    fn a_spec_of_too_many_operators_is_refused() {
        let terms = vec!["x"; MAX_OPERATORS + 2].join("+");
        let d = check(&terms).unwrap_err().remove(0);
        assert_eq!(d.code, Code::E0105);
        assert_eq!(d.span().unwrap().start, 2 * MAX_OPERATORS + 1);
        assert_eq!(code(&vec!["x"; MAX_OPERATORS + 1].join("+")), None);
    }

    #[test]
    fn ordinary_specs_pass() {
        let sum: Vec<String> = (0..20_000).map(|k| format!("x^{k}")).collect();
        assert_eq!(code(&format!("lagrangian = {}", sum.join(" + "))), None);
        assert_eq!(
            code("lagrangian = -(a - -b)^-2 - (-c)^2 # ((((((( in a comment"),
            None
        );
        assert_eq!(code(r#"latex { m = "\((((((" }"#), None);
        assert_eq!(
            code(&format!("l = {}x{}", "(".repeat(200), ")".repeat(200))),
            None
        );
    }

    #[test]
    fn deep_brackets_are_refused_at_the_first_one_too_deep() {
        let source = format!("l = {}x{}", "[".repeat(300), "]".repeat(300));
        let d = check(&source).unwrap_err().remove(0);
        assert_eq!(d.code, Code::E0105);
        assert_eq!(d.span().unwrap().start, 4 + MAX_NESTING);
    }

    #[test]
    fn towers_of_powers_and_of_signs_are_refused() {
        let powers = format!("l = x{}", "^x".repeat(MAX_CHAIN + 1));
        assert_eq!(code(&powers), Some(Code::E0105));
        let signs = format!("l = a - {}b", "- ".repeat(MAX_CHAIN + 1));
        assert_eq!(code(&signs), Some(Code::E0105));
        // Signs inside a tower of powers do not move where the tower is said to start.
        let mixed = format!("l = x{}", "^-x".repeat(MAX_CHAIN + 1));
        let d = check(&mixed).unwrap_err().remove(0);
        assert_eq!(d.notes, ["the tower starts at 1:6"]);
        // Many powers and signs, but no tower: each term starts a new one.
        let terms = vec!["-x^2^3"; 1000].join(" * ");
        assert_eq!(code(&format!("l = {terms}")), None);
    }
}
