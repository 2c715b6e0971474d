//! Syntax errors: pest's failures turned into [`Diagnostic`]s, as many as can be found.
//!
//! pest stops at the first error. To report more, the source is cut into *logical lines* — the
//! top-level items and, inside `{ … }` blocks, the block's lines — by a small scanner that knows
//! brackets, strings, comments and the continuation rules. After each error the logical line
//! holding it is blanked (replaced by spaces, so every offset stays put) and the file parsed again,
//! until it parses or [`MAX_ERRORS`] are found. Before that, the scanner looks for unclosed
//! delimiters and reports them at the opening one: a `{` still open when a line starts at column 0
//! with an item keyword is taken to be missing its `}` there.
//!
//! pest's parse attempts say which tokens would have been accepted at the furthest position it
//! reached; [`expectation`] turns them into words ("an expression", "`=`", "end of line") and
//! never shows a rule name.

use std::collections::BTreeSet;
use std::ops::Range;

use pest::error::{Error, ErrorVariant, InputLocation};
use pest::Parser as _;

use crate::ast::Span;
use crate::codes;
use crate::grammar::{Rule, SpecParser};
use diagnostic::{line_col, Diagnostic};

/// At most this many syntax errors are reported for one file.
pub(crate) const MAX_ERRORS: usize = 20;

/// The item keywords: a line starting at column 0 with one of these (and a space) starts an item.
/// (`momenta` is left out: it may also be an unindented line of an `algebroid { }` block.)
const ITEM_KEYWORDS: &[&str] = &[
    "system",
    "time",
    "parameters",
    "functions",
    "coordinates",
    "inputs",
    "action",
    "algebroid",
    "let",
    "lagrangian",
    "hamiltonian",
    "constraints",
    "forces",
    "frame",
    "symmetry",
    "latex",
    "expect",
    "gravity",
    "discrete",
    "body",
    "joint",
    "contact",
];

/// The diagnostics for a `source` that `rule` does not accept.
pub(crate) fn diagnose(source: &str, rule: Rule) -> Vec<Diagnostic> {
    // Token-level detail makes the messages precise. The switch is global to the process and
    // stays on (turning it off again would race with other threads): later pest parses record
    // their attempts too, which costs a little time and changes no result.
    pest::set_error_detail(true);
    if rule != Rule::file {
        return match SpecParser::parse(rule, source) {
            Ok(_) => Vec::new(),
            Err(e) => vec![syntax_error(source, &e, &[])],
        };
    }

    let layout = Layout::scan(source);
    let mut diagnostics = layout.diagnostics(source);
    let mut text = source.to_string();
    for range in &layout.blanked {
        blank(&mut text, range.clone());
    }
    while diagnostics.len() < MAX_ERRORS {
        let Err(error) = SpecParser::parse(Rule::file, &text) else {
            break;
        };
        let diagnostic = syntax_error(source, &error, &layout.unmatched);
        let at = diagnostic.span().map_or(source.len(), |span| span.start);
        diagnostics.push(diagnostic);
        match layout.innermost_line(at) {
            Some(line) if !text[line.clone()].trim().is_empty() => blank(&mut text, line),
            _ => break,
        }
    }
    if diagnostics.is_empty() {
        // The scanner and the grammar disagree: report the first error as it is.
        if let Err(e) = SpecParser::parse(Rule::file, source) {
            diagnostics.push(syntax_error(source, &e, &[]));
        }
    }
    diagnostics.sort_by_key(Diagnostic::span);
    diagnostics.dedup();
    diagnostics
}

/// Replaces every byte of `range` except line breaks by a space (ASCII, so `text` stays UTF-8).
fn blank(text: &mut String, range: Range<usize>) {
    let blanked: String = text[range.clone()]
        .bytes()
        .map(|b| {
            if b == b'\n' || b == b'\r' {
                b as char
            } else {
                ' '
            }
        })
        .collect();
    text.replace_range(range, &blanked);
}

// ---------------------------------------------------------------------------------------------
// The scanner

/// How the source falls into logical lines, and the delimiters that do not match.
#[derive(Debug, Default)]
struct Layout {
    /// Logical lines, top-level items and the lines of blocks, from their first significant
    /// character up to (not including) the separator that ends them.
    lines: Vec<Range<usize>>,
    /// Delimiters never closed.
    unclosed: Vec<Unclosed>,
    /// Offsets of closing delimiters that close nothing.
    unmatched: Vec<usize>,
    /// Offsets of the opening quotes of strings not closed on their line.
    unterminated: Vec<usize>,
    /// Ranges to blank before parsing because they were reported by the scanner.
    blanked: Vec<Range<usize>>,
}

#[derive(Debug)]
struct Unclosed {
    /// The opening delimiter and its offset.
    open: char,
    at: usize,
    /// Where the scanner gave up on it.
    end: UnclosedEnd,
}

#[derive(Debug)]
enum UnclosedEnd {
    /// The file ended.
    Eof,
    /// A new item started at this keyword.
    Item(Span),
    /// This closing delimiter closed an outer one.
    Closer(usize, char),
}

struct Frame {
    open: char,
    at: usize,
    /// A `{ … }` block (newlines separate its lines) rather than a bracket `( [ {f, g}`.
    block: bool,
    /// Start of the block's current line.
    line_start: Option<usize>,
}

fn closer_of(open: char) -> char {
    match open {
        '(' => ')',
        '[' => ']',
        _ => '}',
    }
}

fn is_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

impl Layout {
    fn scan(source: &str) -> Layout {
        let mut layout = Layout::default();
        let mut stack: Vec<Frame> = Vec::new();
        let mut item_start: Option<usize> = None;
        let mut last: Option<char> = None; // last significant character
        let mut last_on_line: Option<char> = None; // … on this physical line
        let mut chars = source.char_indices().peekable();
        let mut line_begins = true;

        while let Some((i, c)) = chars.next() {
            if std::mem::take(&mut line_begins) && !stack.is_empty() && c.is_ascii_alphabetic() {
                let word_end = source[i..]
                    .find(|c: char| !is_name_char(c))
                    .map_or(source.len(), |n| i + n);
                let word = &source[i..word_end];
                let spaced = source[word_end..].starts_with([' ', '\t']);
                if spaced && ITEM_KEYWORDS.contains(&word) {
                    let keyword = Span::new(i, word_end);
                    for frame in stack.drain(..) {
                        layout.unclosed.push(Unclosed {
                            open: frame.open,
                            at: frame.at,
                            end: UnclosedEnd::Item(keyword),
                        });
                    }
                    if let Some(start) = item_start.take() {
                        layout.lines.push(start..i);
                        layout.blanked.push(start..i);
                    }
                    last = None;
                }
            }
            let line_sensitive = stack.last().is_none_or(|f| f.block);
            match c {
                '\n' | ';' => {
                    if c == '\n' {
                        line_begins = true;
                        last_on_line = None;
                    }
                    let continues = matches!(last, Some('+' | '-' | '*' | '/' | '^' | ','));
                    if line_sensitive && (c == ';' || !continues) {
                        let start = match stack.last_mut() {
                            Some(frame) => frame.line_start.take(),
                            None => item_start.take(),
                        };
                        if let Some(start) = start {
                            layout.lines.push(start..i);
                        }
                        last = None;
                    }
                    continue;
                }
                ' ' | '\t' | '\r' => continue,
                '#' => {
                    while chars.next_if(|&(_, c)| c != '\n').is_some() {}
                    continue;
                }
                _ => {}
            }
            // A significant character.
            if line_sensitive {
                let start = match stack.last_mut() {
                    Some(frame) => &mut frame.line_start,
                    None => &mut item_start,
                };
                start.get_or_insert(i);
            }
            match c {
                '"' => loop {
                    match chars.next_if(|&(_, c)| c != '\n') {
                        Some((_, '"')) => break,
                        Some((_, '\\')) => {
                            chars.next_if(|&(_, c)| c == '\\' || c == '"');
                        }
                        Some(_) => {}
                        None => {
                            layout.unterminated.push(i);
                            break;
                        }
                    }
                },
                '(' | '[' | '{' => stack.push(Frame {
                    open: c,
                    at: i,
                    block: c == '{' && last_on_line.is_some_and(is_name_char),
                    line_start: None,
                }),
                ')' | ']' | '}' => match stack.iter().rposition(|f| closer_of(f.open) == c) {
                    Some(depth) => {
                        for frame in stack.drain(depth + 1..) {
                            layout.unclosed.push(Unclosed {
                                open: frame.open,
                                at: frame.at,
                                end: UnclosedEnd::Closer(i, c),
                            });
                        }
                        let frame = stack.pop().expect("the matching frame");
                        if let Some(start) = frame.line_start {
                            layout.lines.push(start..i);
                        }
                    }
                    None => layout.unmatched.push(i),
                },
                _ => {}
            }
            last = Some(c);
            last_on_line = Some(c);
        }

        let end = source.len();
        if let Some(start) = stack.last_mut().and_then(|f| f.line_start.take()) {
            layout.lines.push(start..end);
        }
        for frame in stack.drain(..) {
            layout.unclosed.push(Unclosed {
                open: frame.open,
                at: frame.at,
                end: UnclosedEnd::Eof,
            });
        }
        if let Some(start) = item_start {
            layout.lines.push(start..end);
        }
        // An unterminated string hides the delimiters after it: report only the string.
        for &at in &layout.unterminated {
            if let Some(line) = layout.outermost_line(at) {
                layout.unclosed.retain(|u| !line.contains(&u.at));
                layout.blanked.push(line);
            }
        }
        // Items broken by a delimiter closed in the wrong place are blanked whole.
        for unclosed in &layout.unclosed {
            if matches!(unclosed.end, UnclosedEnd::Closer(..) | UnclosedEnd::Eof) {
                if let Some(line) = layout.outermost_line(unclosed.at) {
                    layout.blanked.push(line);
                }
            }
        }
        layout
    }

    fn containing(&self, at: usize) -> impl Iterator<Item = &Range<usize>> {
        self.lines
            .iter()
            .filter(move |l| l.start <= at && at <= l.end)
    }

    /// The smallest logical line holding offset `at` (its end included).
    fn innermost_line(&self, at: usize) -> Option<Range<usize>> {
        self.containing(at).min_by_key(|l| l.len()).cloned()
    }

    fn outermost_line(&self, at: usize) -> Option<Range<usize>> {
        self.containing(at).max_by_key(|l| l.len()).cloned()
    }

    /// The problems the scanner found by itself: unterminated strings, unclosed delimiters.
    fn diagnostics(&self, source: &str) -> Vec<Diagnostic> {
        let strings = self.unterminated.iter().map(|&at| {
            Diagnostic::error(
                codes::UNTERMINATED,
                "unterminated string",
                Span::new(at, at + 1),
                "this string is never closed",
            )
            .with_help("a string ends with `\"` on the same line")
        });
        let delimiters = self.unclosed.iter().map(|u| {
            let close = closer_of(u.open);
            let d = Diagnostic::error(
                codes::UNCLOSED,
                format!("unclosed `{}`", u.open),
                Span::new(u.at, u.at + 1),
                "this delimiter is never closed",
            );
            match u.end {
                UnclosedEnd::Eof => d
                    .with_note(format!("the file ends before the matching `{close}`"))
                    .with_help(format!("add `{close}` where the block ends")),
                UnclosedEnd::Item(keyword) => {
                    let (line, _) = line_col(source, keyword.start);
                    d.with_secondary(keyword, "a new item starts here")
                        .with_note(format!(
                            "a new item starts on line {line} while this `{}` is still open",
                            u.open
                        ))
                        .with_help(format!("add `{close}` before line {line}"))
                }
                UnclosedEnd::Closer(at, c) => d
                    .with_secondary(
                        Span::new(at, at + 1),
                        format!("this `{c}` closes an outer delimiter"),
                    )
                    .with_help(format!("add `{close}` before this `{c}`")),
            }
        });
        strings.chain(delimiters).collect()
    }
}

// ---------------------------------------------------------------------------------------------
// pest errors

/// What pest would have accepted, in words, in the order they are listed.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Expected {
    Item,
    AlgebroidLine,
    ConstraintKind,
    Expression,
    Name,
    Digit,
    Operator,
    Token(&'static str),
    String,
    EndOfLine,
}

impl Expected {
    fn describe(&self) -> String {
        match self {
            Expected::Item => "an item".into(),
            Expected::AlgebroidLine => "an algebroid line".into(),
            Expected::ConstraintKind => "`nonholonomic`, `vakonomic` or `holonomic`".into(),
            Expected::Expression => "an expression".into(),
            Expected::Name => "a name".into(),
            Expected::Digit => "a digit".into(),
            Expected::Operator => "an operator".into(),
            Expected::Token(t) => format!("`{t}`"),
            Expected::String => "a string in double quotes".into(),
            Expected::EndOfLine => "end of line".into(),
        }
    }
}

const ALGEBROID_KEYWORDS: &[&str] = &["sections", "velocities", "momenta", "anchor", "bracket"];
/// The keywords that start an algebroid line and no item.
const ALGEBROID_ONLY: &[&str] = &["sections", "velocities", "anchor", "bracket"];
const PUNCTUATION: &[&str] = &["=", "(", ")", "[", "]", "{", "}", ",", "'", "\""];

/// Turns pest's expected tokens (or, without them, its expected rules) into words.
///
/// pest does not export its token type, so the tokens come as their `Display` text: a literal is
/// itself, a range is `a..z` (no literal of the grammar looks like that).
fn expectation(tokens: &[String], rules: &[Rule]) -> BTreeSet<Expected> {
    let keywords: Vec<String> = rules
        .iter()
        .filter_map(|rule| format!("{rule:?}").strip_prefix("kw_").map(str::to_string))
        .collect();
    let mut strings: BTreeSet<&str> = keywords.iter().map(String::as_str).collect();
    let (mut letters, mut digits) = (false, false);
    for token in tokens {
        match token.as_str() {
            "0..9" => digits = true,
            "a..z" | "A..Z" => letters = true,
            token => {
                strings.insert(token);
            }
        }
    }
    for rule in rules {
        match rule {
            Rule::EOI => {
                strings.insert("\n");
            }
            // The whole file fails where an item should start.
            Rule::file => {
                strings.insert("system");
            }
            Rule::ident => letters = true,
            Rule::number | Rule::expr | Rule::expr_nl | Rule::neg | Rule::paren => {
                strings.insert("d/d");
            }
            Rule::add | Rule::sub | Rule::mul | Rule::div | Rule::pow => {
                strings.insert("+");
            }
            Rule::constraint_kind => {
                strings.insert("vakonomic");
            }
            Rule::string => {
                strings.insert("\"");
            }
            _ => {}
        }
    }

    let mut expected = BTreeSet::new();
    let expression = strings.contains("d/d");
    let operator = ["+", "*", "/", "^"].iter().any(|op| strings.contains(op));
    if expression {
        expected.insert(Expected::Expression);
    } else if letters {
        expected.insert(Expected::Name);
    } else if digits {
        expected.insert(Expected::Digit);
    }
    if operator {
        expected.insert(Expected::Operator);
    }
    for s in &strings {
        match *s {
            "\n" | "\r" | "\r\n" | ";" => {
                expected.insert(Expected::EndOfLine);
            }
            "nonholonomic" | "vakonomic" | "holonomic" => {
                expected.insert(Expected::ConstraintKind);
            }
            "\"" => {
                expected.insert(Expected::String);
            }
            s if ITEM_KEYWORDS.contains(&s) => {
                expected.insert(Expected::Item);
            }
            s if ALGEBROID_ONLY.contains(&s) => {
                expected.insert(Expected::AlgebroidLine);
            }
            "momenta" => {} // an item and an algebroid line: the other keywords decide

            s => {
                if let Some(p) = PUNCTUATION.iter().find(|p| **p == s) {
                    expected.insert(Expected::Token(p));
                }
            }
        }
    }
    // An expression's own brackets, a call's `(` after a name and the primes of a name are
    // implied by "an expression" / "an operator".
    if expression {
        expected.remove(&Expected::Token("("));
        expected.remove(&Expected::Token("{"));
    }
    if operator {
        expected.remove(&Expected::Token("("));
        expected.remove(&Expected::Token("'"));
    }
    // A blank line may come wherever an item or a line of a block may, and inside brackets a
    // newline is only whitespace: "end of line" would say nothing there.
    let line_start = [
        Expected::Item,
        Expected::AlgebroidLine,
        Expected::Expression,
        Expected::Name,
    ];
    let bracketed = [Expected::Token(")"), Expected::Token("]")];
    if line_start
        .iter()
        .chain(&bracketed)
        .any(|e| expected.contains(e))
    {
        expected.remove(&Expected::EndOfLine);
    }
    expected
}

fn join_or(words: &[String]) -> String {
    match words {
        [] => "something else".into(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

/// What is at `at` in the source: its description and span.
fn found(source: &str, at: usize) -> (String, Span) {
    let rest = &source[at.min(source.len())..];
    match rest.chars().next() {
        None => ("end of file".into(), Span::new(at, at)),
        Some('\n' | '\r') => ("end of line".into(), Span::new(at, at)),
        Some(c) if is_name_char(c) => {
            let len = rest.find(|c: char| !is_name_char(c)).unwrap_or(rest.len());
            (format!("`{}`", &rest[..len]), Span::new(at, at + len))
        }
        Some(c) => (format!("`{c}`"), Span::new(at, at + c.len_utf8())),
    }
}

/// Whether `c` may appear in a spec outside strings and comments.
fn in_alphabet(c: char) -> bool {
    is_name_char(c) || c.is_whitespace() || "+-*/^=()[]{},;'\"#.".contains(c)
}

fn syntax_error(source: &str, error: &Error<Rule>, unmatched: &[usize]) -> Diagnostic {
    // The tokens pest tried at the furthest place it reached, if any of them is more than
    // whitespace; otherwise (the furthest attempt was a lookahead, as in `timestep`) the rules it
    // tried where it failed.
    let attempts = error.parse_attempts().and_then(|attempts| {
        let tokens: Vec<String> = attempts
            .expected_tokens()
            .iter()
            .map(ToString::to_string)
            .filter(|t| !matches!(t.as_str(), " " | "\t" | "#"))
            .collect();
        (!tokens.is_empty()).then_some((attempts.max_position, tokens))
    });
    let (at, tokens) = attempts.unwrap_or_else(|| match error.location {
        InputLocation::Pos(p) | InputLocation::Span((p, _)) => (p, Vec::new()),
    });
    let rules = match &error.variant {
        ErrorVariant::ParsingError { positives, .. } if tokens.is_empty() => positives.clone(),
        _ => Vec::new(),
    };
    let (what, span) = found(source, at);
    if unmatched.contains(&at) {
        return Diagnostic::error(
            codes::UNMATCHED,
            format!("unmatched {what}"),
            span,
            format!("this {what} closes nothing"),
        );
    }

    let expected = expectation(&tokens, &rules);
    let words: Vec<String> = expected.iter().map(Expected::describe).collect();
    let expected_text = format!("expected {}", join_or(&words));
    let first = source[at.min(source.len())..].chars().next();
    let message = match first {
        Some(c) if !in_alphabet(c) => format!("unexpected character `{c}`"),
        _ => format!("{expected_text}, found {what}"),
    };
    let mut d = Diagnostic::error(codes::SYNTAX, message, span, expected_text);

    let at_line_start = expected.contains(&Expected::Item)
        || expected.contains(&Expected::Token("}")) && !expected.contains(&Expected::Operator);
    if at_line_start && matches!(first, Some('+' | '-' | '*' | '/' | '^')) {
        d = d.with_help(
            "an expression continues on the next line only after an operator: \
             move the operator to the end of the previous line",
        );
    } else if expected.contains(&Expected::Item) {
        d = d.with_help(format!(
            "an item starts with one of {}",
            join_or(&backticked(ITEM_KEYWORDS.iter().chain(["momenta"].iter())))
        ));
    }
    if expected.contains(&Expected::AlgebroidLine) {
        d = d.with_help(format!(
            "an algebroid block holds {} lines",
            join_or(&backticked(ALGEBROID_KEYWORDS.iter()))
        ));
    }
    if expected == BTreeSet::from([Expected::Token("\"")])
        && matches!(first, None | Some('\n' | '\r'))
    {
        d.message = "unterminated string".into();
        d = d.with_help("a string ends with `\"` on the same line");
    }
    d
}

fn backticked<'a>(words: impl Iterator<Item = &'a &'a str>) -> Vec<String> {
    words.map(|w| format!("`{w}`")).collect()
}
