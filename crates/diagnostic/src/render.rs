//! Rendering diagnostics as text.
//!
//! Every stage of the compiler reports problems as [`Diagnostic`]s that point into the spec's
//! source through [`Span`]s, and collects as many as it can before giving up
//! ([`Result`] carries a `Vec`). Two renderers turn them into text:
//!
//! - [`render_plain`]: deterministic, uncoloured, independent of the terminal, for tests and
//!   golden files;
//! - [`render_terminal`]: coloured, through `codespan-reporting`, for people.
//!
//! The plain format follows rustc:
//!
//! ```text
//! error[E0101]: expected `=`, found `m`
//!  --> ball.mech:3:12
//!   |
//! 3 | lagrangian m/2*u^2
//!   |            ^ expected `=`
//!   = help: write `lagrangian = EXPR`
//! ```
//!
//! A diagnostic without a place in the spec ([`Diagnostic::unlocated`]) is its headline and its
//! notes:
//!
//! ```text
//! error[E0502]: the emitted function `rhs` has 20 operations, above the budget --max-ops 10
//!  = help: raise --max-ops, or use --form implicit
//! ```

use std::fmt::Write as _;
use std::io;

use codespan_reporting::diagnostic as cs;
use codespan_reporting::files::SimpleFile;
use codespan_reporting::term;
use codespan_reporting::term::termcolor::WriteColor;

use crate::{Diagnostic, Severity, Span};

/// The 1-based line and column (counted in characters) of byte `offset` in `source`.
///
/// An offset past the end is clamped to the end; an offset inside a multi-byte character counts
/// as that character.
pub fn line_col(source: &str, offset: usize) -> (usize, usize) {
    let offset = floor_char_boundary(source, offset);
    let before = &source[..offset];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let column = source[line_start..offset].chars().count() + 1;
    (line, column)
}

fn floor_char_boundary(source: &str, offset: usize) -> usize {
    let mut offset = offset.min(source.len());
    while !source.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

/// The text of 1-based line `line` without its line break.
fn line_text(source: &str, line: usize) -> &str {
    let text = source.split('\n').nth(line - 1).unwrap_or("");
    text.strip_suffix('\r').unwrap_or(text)
}

const TAB: &str = "    ";

/// Renders diagnostics as plain text, the same on every machine: no colours, no dependence on the
/// terminal's width, columns counted in characters from 1, tabs shown as four spaces.
/// Diagnostics are separated by a blank line.
pub fn render_plain(file_name: &str, source: &str, diagnostics: &[Diagnostic]) -> String {
    let mut out = String::new();
    for (i, diagnostic) in diagnostics.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        render_one(&mut out, file_name, source, diagnostic);
    }
    out
}

fn render_one(out: &mut String, file_name: &str, source: &str, d: &Diagnostic) {
    let _ = writeln!(out, "{}[{}]: {}", d.severity.as_str(), d.code, d.message);
    let Some(primary) = &d.primary else {
        render_notes(out, "", d);
        return;
    };
    // Labels with their place, primary first; drawn line by line in source order.
    struct Mark<'a> {
        line: usize,
        column: usize,
        width: usize,
        primary: bool,
        message: &'a str,
    }
    let mut marks: Vec<Mark> = std::iter::once((primary, true))
        .chain(d.secondary.iter().map(|l| (l, false)))
        .map(|(label, primary)| {
            let (line, column) = line_col(source, label.span.start);
            let text = line_text(source, line);
            let start = floor_char_boundary(source, label.span.start);
            let end = floor_char_boundary(source, label.span.end.max(label.span.start));
            // Only the part of the span on its first line is underlined.
            let on_line = source[start..end].split('\n').next().unwrap_or("");
            let prefix: String = text.chars().take(column - 1).collect();
            Mark {
                line,
                column: display_width(&prefix) + 1,
                width: display_width(on_line).max(1),
                primary,
                message: &label.message,
            }
        })
        .collect();
    marks.sort_by_key(|m| (m.line, !m.primary, m.column));

    let (line, column) = line_col(source, primary.span.start);
    let gutter = marks
        .iter()
        .map(|m| m.line)
        .max()
        .unwrap_or(line)
        .to_string()
        .len();
    let pad = " ".repeat(gutter);

    let _ = writeln!(out, "{pad}--> {file_name}:{line}:{column}");
    let _ = writeln!(out, "{pad} |");
    let mut previous: Option<usize> = None;
    let mut window = Window::whole();
    for mark in &marks {
        if previous != Some(mark.line) {
            if previous.is_some_and(|p| mark.line > p + 1) {
                let _ = writeln!(out, "...");
            }
            let text = line_text(source, mark.line).replace('\t', TAB);
            window = Window::around(text.chars().count(), mark.column);
            let shown = format!("{:>gutter$} | {}", mark.line, window.show(&text));
            let _ = writeln!(out, "{}", shown.trim_end());
            previous = Some(mark.line);
        }
        let (column, width) = window.mark(mark.column, mark.width);
        let underline = if mark.primary { "^" } else { "-" }.repeat(width);
        let marker = format!("{}{} {}", " ".repeat(column - 1), underline, mark.message);
        let _ = writeln!(out, "{pad} | {}", marker.trim_end());
    }
    render_notes(out, &pad, d);
}

/// The `= note: …` and `= help: …` lines, after a gutter of `pad`.
fn render_notes(out: &mut String, pad: &str, d: &Diagnostic) {
    for note in &d.notes {
        let _ = writeln!(out, "{pad} = note: {note}");
    }
    for help in &d.help {
        let _ = writeln!(out, "{pad} = help: {help}");
    }
}

/// Whether a line that `d` marks is longer than [`MAX_SHOWN`] characters.
fn has_long_line(source: &str, d: &Diagnostic) -> bool {
    let Some(primary) = &d.primary else {
        return false;
    };
    std::iter::once(primary).chain(&d.secondary).any(|label| {
        let (line, _) = line_col(source, label.span.start);
        line_text(source, line).chars().count() > MAX_SHOWN
    })
}

/// The most characters of a source line a diagnostic shows: a longer line is shown as a window
/// around its first mark, elided with `…` on either side, so that neither the line nor the caret
/// row below it runs to thousands of characters.
pub const MAX_SHOWN: usize = 100;

/// The characters of a source line that are shown, `[start, end)` in display columns from 0.
#[derive(Clone, Copy)]
struct Window {
    start: usize,
    end: usize,
    /// Whether the line goes on before `start` / after `end` (shown as `…`).
    cut_before: bool,
    cut_after: bool,
}

impl Window {
    fn whole() -> Window {
        Window {
            start: 0,
            end: usize::MAX,
            cut_before: false,
            cut_after: false,
        }
    }

    /// The window of a line of `length` characters that shows the 1-based `column`, with some
    /// context before it.
    fn around(length: usize, column: usize) -> Window {
        if length <= MAX_SHOWN {
            return Window::whole();
        }
        let start = column
            .saturating_sub(1 + MAX_SHOWN / 4)
            .min(length - MAX_SHOWN);
        let end = start + MAX_SHOWN;
        Window {
            start,
            end,
            cut_before: start > 0,
            cut_after: end < length,
        }
    }

    /// The shown part of `text`.
    fn show(&self, text: &str) -> String {
        let mut shown = String::new();
        if self.cut_before {
            shown.push('…');
        }
        shown.extend(text.chars().skip(self.start).take(self.end - self.start));
        if self.cut_after {
            shown.push('…');
        }
        shown
    }

    /// The 1-based column and width of a mark at `column` of `width` characters in the shown
    /// text (clamped to the window, at least one character wide).
    fn mark(&self, column: usize, width: usize) -> (usize, usize) {
        let offset = usize::from(self.cut_before);
        let first = (column - 1).clamp(self.start, self.end.saturating_sub(1).max(self.start));
        let last = (column - 1 + width).min(self.end);
        (
            first - self.start + offset + 1,
            last.saturating_sub(first).max(1),
        )
    }
}

fn display_width(text: &str) -> usize {
    text.chars()
        .map(|c| if c == '\t' { TAB.len() } else { 1 })
        .sum()
}

/// Renders diagnostics for a terminal through `codespan-reporting`, coloured when `writer`
/// supports it (for instance a `termcolor::StandardStream` made with `ColorChoice::Auto`).
pub fn render_terminal(
    file_name: &str,
    source: &str,
    diagnostics: &[Diagnostic],
    writer: &mut dyn WriteColor,
) -> io::Result<()> {
    let file = SimpleFile::new(file_name, source);
    let config = term::Config::default();
    for d in diagnostics {
        if has_long_line(source, d) {
            // codespan shows whole lines: the plain renderer's window keeps long ones readable.
            writer
                .write_all(render_plain(file_name, source, std::slice::from_ref(d)).as_bytes())?;
            continue;
        }
        let severity = match d.severity {
            Severity::Error => cs::Severity::Error,
            Severity::Warning => cs::Severity::Warning,
        };
        let clamp = |span: Span| {
            let start = floor_char_boundary(source, span.start);
            start..floor_char_boundary(source, span.end).max(start)
        };
        // A diagnostic without a place has no labels: codespan prints its headline and notes.
        let mut labels: Vec<cs::Label<()>> = Vec::new();
        if let Some(primary) = &d.primary {
            labels.push(cs::Label::primary((), clamp(primary.span)).with_message(&primary.message));
            labels.extend(
                d.secondary
                    .iter()
                    .map(|l| cs::Label::secondary((), clamp(l.span)).with_message(&l.message)),
            );
        }
        let notes = d
            .notes
            .iter()
            .map(|n| format!("note: {n}"))
            .chain(d.help.iter().map(|h| format!("help: {h}")))
            .collect();
        let diagnostic = cs::Diagnostic::new(severity)
            .with_code(d.code.as_str())
            .with_message(&d.message)
            .with_labels(labels)
            .with_notes(notes);
        term::emit(writer, &config, &file, &diagnostic).map_err(|e| match e {
            codespan_reporting::files::Error::Io(e) => e,
            other => io::Error::other(other.to_string()),
        })?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Code;

    #[test]
    fn line_col_counts_characters_from_one() {
        let source = "ab\nçd\n";
        assert_eq!(line_col(source, 0), (1, 1));
        assert_eq!(line_col(source, 2), (1, 3));
        assert_eq!(line_col(source, 3), (2, 1));
        assert_eq!(line_col(source, 5), (2, 2)); // after the two-byte `ç`
        assert_eq!(line_col(source, 4), (2, 1)); // inside `ç`
        assert_eq!(line_col(source, 100), (3, 1));
    }

    #[test]
    fn plain_rendering_is_rustc_like() {
        let source = "system s\nlagrangian m/2*u^2\n";
        let d = Diagnostic::error(
            Code::E0101,
            "expected `=`, found `m`",
            Span::new(20, 21),
            "expected `=`",
        )
        .with_secondary(Span::new(0, 6), "in this spec")
        .with_note("a note")
        .with_help("write `lagrangian = EXPR`");
        let text = render_plain("ball.mech", source, &[d]);
        let expected = "\
error[E0101]: expected `=`, found `m`
 --> ball.mech:2:12
  |
1 | system s
  | ------ in this spec
2 | lagrangian m/2*u^2
  |            ^ expected `=`
  = note: a note
  = help: write `lagrangian = EXPR`
";
        assert_eq!(text, expected);
    }

    #[test]
    fn an_unlocated_diagnostic_is_its_headline_and_notes() {
        let d = Diagnostic::unlocated(Code::E0502, "too many operations")
            .with_note("a note")
            .with_help("raise --max-ops");
        let expected = "\
error[E0502]: too many operations
 = note: a note
 = help: raise --max-ops
";
        assert_eq!(
            render_plain("ball.mech", "system s\n", std::slice::from_ref(&d)),
            expected
        );
        let located = Diagnostic::error(Code::E0101, "m", Span::new(0, 6), "here");
        let both = render_plain("a.mech", "system s\n", &[d.clone(), located]);
        assert!(both.starts_with(&format!("{expected}\nerror[E0101]: m\n --> a.mech:1:1\n")));
        let mut buffer = term::termcolor::Buffer::no_color();
        render_terminal("ball.mech", "system s\n", &[d], &mut buffer).unwrap();
        let text = String::from_utf8(buffer.into_inner()).unwrap();
        assert!(
            text.starts_with("error[E0502]: too many operations\n"),
            "{text}"
        );
        assert!(text.contains("= help: raise --max-ops"), "{text}");
        assert!(!text.contains("-->"), "{text}");
    }

    #[test]
    fn plain_rendering_shows_tabs_as_four_spaces() {
        let source = "\tlagrangian = @\n";
        let d = Diagnostic::error(Code::E0101, "m", Span::new(14, 15), "here");
        let text = render_plain("a.mech", source, &[d]);
        assert_eq!(
            text,
            "error[E0101]: m\n --> a.mech:1:15\n  |\n1 |     lagrangian = @\n  |                  ^ here\n"
        );
    }

    #[test]
    fn a_long_line_is_shown_as_a_window_around_its_mark() {
        let line = format!("{}@{}", "a".repeat(5_000), "b".repeat(5_000));
        let d = Diagnostic::error(Code::E0101, "m", Span::new(5_000, 5_001), "here");
        let out = render_plain("f", &line, &[d]);
        assert!(
            out.lines().all(|l| l.chars().count() <= MAX_SHOWN + 12),
            "{out}"
        );
        let shown = format!("{}@{}", "a".repeat(25), "b".repeat(74));
        let caret = format!("  | {}^ here", " ".repeat(26));
        assert!(out.contains(&format!("1 | …{shown}…\n{caret}\n")), "{out}");
        // A mark near the end: the window ends with the line, without `…`.
        let d = Diagnostic::error(Code::E0101, "m", Span::new(10_000, 10_001), "end");
        let out = render_plain("f", &line, &[d]);
        assert!(
            out.contains(&format!("1 | …{}\n", "b".repeat(MAX_SHOWN))),
            "{out}"
        );
        assert!(
            out.contains(&format!("  | {}^ end", " ".repeat(MAX_SHOWN))),
            "{out}"
        );
    }

    #[test]
    fn terminal_rendering_runs() {
        let source = "system s\n";
        let d = Diagnostic::warning(Code::E0101, "odd", Span::new(9, 9), "here");
        let mut buffer = term::termcolor::Buffer::no_color();
        render_terminal("a.mech", source, &[d], &mut buffer).unwrap();
        let text = String::from_utf8(buffer.into_inner()).unwrap();
        assert!(text.contains("warning[E0101]: odd"), "{text}");
    }
}
