//! Line breaking of displayed equations, measured by how wide they print.
//!
//! An equation `lhs = rhs` whose row is too wide for one column of a two-column paper is cut into
//! *pieces* by the structure of its right-hand side, and the pieces are laid out greedily on the
//! rows of an `align`:
//!
//! - a sum at its top-level terms (each with its sign);
//! - a product between its factors, and inside a factor that is itself too wide (a sum or the
//!   power of a sum, in `\Bigl( … \Bigr)`), with a sum that would open with a minus sign flipped
//!   so that no `-( - …` appears;
//! - a quotient with a symbolic denominator as `\frac{1}{D} \Bigl( N \Bigr)`, or as
//!   `\Bigl( N \Bigr) \Big/ \Bigl( D \Bigr)` when `D` is long too.
//!
//! Widths are not counted in characters of source (`\left(` prints one glyph, `\cos` three) but
//! estimated by [`width`], in glyphs of about half an em. A row is the left-hand side's column
//! (the widest left-hand side of its `align`) plus what follows the `&`; continuation rows start
//! after a `\quad`. A left-hand side too long to share a row moves to a row of its own at the
//! left margin, and the right-hand side follows on the next rows after `= `. A bracket never opens
//! or closes a row alone.

use std::cell::RefCell;
use std::collections::HashMap;

use cas::Expr;
use model::System;

use super::{tex, with_memo};

/// The widest row, in glyph widths (see [`width`]): about 210pt at 10pt, inside one column of a
/// two-column article (246pt) with room for the estimate's error.
pub(super) const WIDTH: f32 = 42.0;

/// The width of `= ` after the left-hand side (the relation and its spaces).
pub(super) const EQUALS: f32 = 2.7;

/// The width of `\quad`.
pub(super) const QUAD: f32 = 2.0;

/// Whether a left-hand side is too long to share its rows with the right-hand side.
pub(super) fn is_long(lhs: &str) -> bool {
    width(lhs) > WIDTH / 3.0
}

/// Rows of an `align` for `lhs = rhs` (`rhs` in its display form) in an `align` whose left
/// column is `column` wide: one row when it fits, else broken into pieces (see the module
/// documentation).
pub(super) fn equation(system: &System, lhs: &str, rhs: &Expr, column: f32) -> Vec<String> {
    let _stage = timing::stage("line breaking");
    // The rows depend on the column only through the room it leaves the right-hand side.
    let key = (
        lhs.to_string(),
        rhs.clone(),
        column.max(width(lhs)).to_bits(),
    );
    if let Some(rows) = BROKEN.with(|b| b.borrow().as_ref()?.get(&key).cloned()) {
        return rows;
    }
    let broken = rows(lhs, tex(system, rhs), column, |room| {
        pieces(system, rhs, room)
    });
    BROKEN.with(|b| {
        if let Some(memo) = b.borrow_mut().as_mut() {
            memo.insert(key, broken.clone());
        }
    });
    broken
}

/// An equation's rows by its left-hand side, right-hand side and the width of its left column
/// (at least the left-hand side's).
type BrokenRows = HashMap<(String, Expr, u32), Vec<String>>;

std::thread_local! {
    /// The equations broken while one document is written. A display of several equations is
    /// broken twice, the second time to the width of its widest left-hand side, which leaves
    /// every equation whose left-hand side is that wide where it was. Looked up only, never
    /// iterated.
    static BROKEN: RefCell<Option<BrokenRows>> = const { RefCell::new(None) };
}

/// Starts remembering broken equations (for the document being written).
pub(super) fn open_broken() {
    BROKEN.with(|b| *b.borrow_mut() = Some(HashMap::new()));
}

/// Forgets the broken equations.
pub(super) fn close_broken() {
    BROKEN.with(|b| *b.borrow_mut() = None);
}

/// Rows for `lhs = t_1 + t_2 + …` with the terms (in their display form) in the order given,
/// not in the printers' order: a sum as the spec writes it.
pub(super) fn equation_of_terms(
    system: &System,
    lhs: &str,
    terms: &[Expr],
    column: f32,
) -> Vec<String> {
    let signed: Vec<cas::print::SignedTerm> = terms
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let negative = tex(system, t).starts_with('-');
            let sign = match (i, negative) {
                (0, false) => "",
                (0, true) => "-",
                (_, false) => "+ ",
                (_, true) => "- ",
            };
            let magnitude = if negative {
                (-t.clone()).distribute_signs()
            } else {
                t.clone()
            };
            let text = tex(system, &magnitude);
            (sign.to_string(), magnitude, text)
        })
        .collect();
    let whole = signed
        .iter()
        .map(|(sign, _, text)| format!("{sign}{text}"))
        .collect::<Vec<_>>()
        .join(" ");
    rows(lhs, whole, column, |room| {
        signed
            .iter()
            .flat_map(|(sign, magnitude, text)| term(system, sign, magnitude, text, room))
            .collect()
    })
}

/// Rows for `lhs = whole`: one row when it fits in an `align` whose left column is `column`
/// wide, else the pieces `cut` gives for the room of a row.
fn rows(
    lhs: &str,
    whole: String,
    column: f32,
    cut: impl FnOnce(f32) -> Vec<String>,
) -> Vec<String> {
    let lhs_width = width(lhs);
    if lhs_width.max(column) + EQUALS + width(&whole) <= WIDTH {
        return vec![format!("{lhs} &= {whole}")];
    }
    if is_long(lhs) {
        return moved_left(vec![lhs.to_string()], cut(WIDTH - 2.0 * QUAD));
    }
    let column = column.max(lhs_width);
    fill(lhs, cut(WIDTH - column - EQUALS), column)
}

/// Rows for `lhs = pieces…` in an `align` whose left column is `column` wide (at least the
/// left-hand side's width), as many pieces per row as fit.
pub(super) fn fill(lhs: &str, pieces: Vec<String>, column: f32) -> Vec<String> {
    if is_long(lhs) {
        return moved_left(vec![lhs.to_string()], pieces);
    }
    let column = column.max(width(lhs));
    lay(
        format!("{lhs} &="),
        column + EQUALS,
        "&\\quad",
        column + QUAD,
        pieces,
    )
}

/// Rows for a left-hand side too long to share a row (given as pieces, possibly broken): it
/// starts at the left margin, and the right-hand side follows on the rows below, after `= `.
pub(super) fn moved_left(lhs: Vec<String>, rhs: Vec<String>) -> Vec<String> {
    let mut rows = lay(String::from("&"), 0.0, "&\\quad", QUAD, lhs);
    rows.extend(lay(
        String::from("&\\quad ="),
        QUAD + EQUALS,
        "&\\qquad",
        2.0 * QUAD,
        rhs,
    ));
    rows
}

/// Marks the first piece of a term broken over several rows: it opens a row of its own.
const OWN_ROW: char = '\u{2}';

/// Marks a piece that continues a product: joined to the row by a thin space, or opening a row
/// with `\times` so that it does not read as a new term.
const FACTOR: char = '\u{1}';

/// Rows holding `pieces` after the text `first` (already `first_indent` wide), the following
/// rows starting with `next` (`next_indent` wide). A row is broken only after it holds a piece.
pub(super) fn lay(
    first: String,
    first_indent: f32,
    next: &str,
    next_indent: f32,
    pieces: Vec<String>,
) -> Vec<String> {
    let mut rows = Vec::new();
    let mut current = first;
    let mut used = first_indent;
    let mut on_row = 0;
    for piece in pieces {
        let text = piece.trim_start_matches([OWN_ROW, FACTOR]);
        let marks = &piece[..piece.len() - text.len()];
        let (own_row, factor) = (marks.contains(OWN_ROW), marks.contains(FACTOR));
        let text_width = width(text);
        let joined = text_width + if factor { 0.35 } else { 0.0 };
        if on_row > 0 && (own_row || used + joined > WIDTH) {
            rows.push(current);
            current = next.to_string();
            used = next_indent;
            on_row = 0;
        }
        let (glue, w) = match (factor, on_row > 0) {
            (true, true) => ("\\, ", joined),
            (true, false) => (" \\times ", text_width + 2.2),
            (false, _) => (" ", text_width),
        };
        let glue = if current.is_empty() || current.ends_with('&') {
            glue.trim_start()
        } else {
            glue
        };
        current.push_str(glue);
        current.push_str(text);
        used += w;
        on_row += 1;
    }
    rows.push(current);
    debug_assert!(
        rows.iter().all(|r| !r.contains([OWN_ROW, FACTOR])),
        "a mark left in {rows:?}"
    );
    rows
}

/// The pieces `inner` cuts within the room it is given, with `open` glued to the first (or
/// before it, when `open` is long) and `close` to the last: `inner` gets `room` less what is
/// glued on, so that no piece grows wider than `room`.
///
/// A long `open` stands on a row of its own, but its opening bracket stays glued to the first
/// piece (a row never ends with `\Bigl(`).
fn wrap(open: &str, close: &str, room: f32, inner: impl FnOnce(f32) -> Vec<String>) -> Vec<String> {
    let (alone, glued) = if width(open) > WIDTH / 3.0 {
        match open.rfind("\\Bigl(") {
            Some(at) => (open[..at].trim_end(), &open[at..]),
            None => (open.trim_end(), ""),
        }
    } else {
        ("", open)
    };
    let mut inner = inner(room - width(glued) - width(close));
    if let Some(first) = inner.first_mut() {
        prefix(first, glued);
    }
    if !alone.is_empty() {
        inner.insert(0, alone.to_string());
    }
    if let Some(last) = inner.last_mut() {
        last.push_str(close);
    }
    inner
}

/// Puts `text` at the front of `piece`, after its marks.
fn prefix(piece: &mut String, text: &str) {
    piece.insert_str(marks(piece), text);
}

/// The length of the layout marks (`OWN_ROW`, `FACTOR`) a piece opens with, before its text.
fn marks(piece: &str) -> usize {
    piece.len() - piece.trim_start_matches([OWN_ROW, FACTOR]).len()
}

/// `pieces` of one term of a sum after `sign`, the first marked to open a row of its own unless
/// the term is the sum's first (`sign` `""` or `"-"`), which stays with what opens the sum.
fn own_row(sign: &str, mut pieces: Vec<String>) -> Vec<String> {
    if !sign.ends_with(' ') {
        return pieces;
    }
    if let Some(first) = pieces.first_mut() {
        first.insert(0, OWN_ROW);
    }
    pieces
}

/// A product split by its structure into the factors with negative integer powers (the
/// denominator) and the others, without normalising anything: the split of the display form the
/// printers show, the same in every process.
fn fraction(e: &Expr) -> (Expr, Expr) {
    let _stage = timing::stage("fraction");
    let factors = match e.view() {
        cas::View::Mul(factors) => factors,
        _ => vec![e.clone()],
    };
    let mut numerator = Expr::one();
    let mut denominator = Expr::one();
    for f in factors {
        match f.view() {
            cas::View::Pow(base, exponent)
                if exponent
                    .as_small_rational()
                    .is_some_and(|(n, d)| d == 1 && n < 0) =>
            {
                let (n, _) = exponent.as_small_rational().expect("checked");
                denominator = denominator * base.powi(-n);
            }
            _ => numerator = numerator * f.clone(),
        }
    }
    (numerator, denominator)
}

/// Whether an expression (a sum by its first term) prints with a minus sign first.
fn leads_negative(system: &System, e: &Expr) -> bool {
    let _stage = timing::stage("leads negative");
    cas::print::latex_leads_negative(e, &system)
}

/// An expression cut into the pieces a row may be broken between, none wider than `room`
/// where the structure allows.
pub(super) fn pieces(system: &System, e: &Expr, room: f32) -> Vec<String> {
    let whole = tex(system, e);
    if width(&whole) <= room {
        return vec![whole];
    }
    let (numerator, denominator) = fraction(e);
    if denominator.as_small_rational() != Some((1, 1)) {
        return quotient(system, numerator, &denominator, room);
    }
    match e.view() {
        cas::View::Add(_) => terms(system, e, room),
        cas::View::Pow(base, exponent) if matches!(base.view(), cas::View::Add(_)) => wrap(
            "\\Bigl( ",
            &format!(" \\Bigr)^{{{}}}", tex(system, &exponent)),
            room,
            |room| terms(system, &base, room),
        ),
        cas::View::Mul(_) => product(system, e, room).unwrap_or_else(|| vec![whole]),
        _ => vec![whole],
    }
}

/// `N / D` with a symbolic `D`: `\frac{1}{D} \Bigl( N \Bigr)`, or `\Bigl( N \Bigr) \Big/
/// \Bigl( D \Bigr)` when `D` is long. The bracket opens with a positive term; a sign goes in
/// front.
fn quotient(system: &System, numerator: Expr, denominator: &Expr, room: f32) -> Vec<String> {
    let (numerator, sign) = if leads_negative(system, &numerator) {
        ((-numerator).distribute_signs(), "-")
    } else {
        (numerator, "")
    };
    let bottom = tex(system, denominator);
    if width(&bottom) <= room / 2.0 {
        return wrap(
            &format!("{sign}\\frac{{1}}{{{bottom}}} \\Bigl( "),
            " \\Bigr)",
            room,
            |room| pieces(system, &numerator, room),
        );
    }
    let mut out = wrap(&format!("{sign}\\Bigl( "), " \\Bigr)", room, |room| {
        pieces(system, &numerator, room)
    });
    out.extend(wrap("\\Big/ \\Bigl( ", " \\Bigr)", room, |room| {
        pieces(system, denominator, room)
    }));
    out
}

/// A sum by its signed terms, a term too wide for `room` broken in turn.
fn terms(system: &System, e: &Expr, room: f32) -> Vec<String> {
    let signed = with_memo(|memo| match memo {
        Some(memo) => memo.signed_terms(e, &system),
        None => cas::print::latex_signed_terms(e, &system),
    });
    let mut out: Vec<String> = signed
        .into_iter()
        .flat_map(|(sign, magnitude, text)| term(system, &sign, &magnitude, &text, room))
        .collect();
    // A first term whose signs merged to a plus (`- -a`) opens the sum without it.
    if let Some(first) = out.first_mut() {
        let marks = marks(first);
        if first[marks..].starts_with("+ ") {
            first.replace_range(marks..marks + 2, "");
        }
    }
    out
}

/// One term of a sum after its `sign` (`text` is its magnitude's LaTeX): one piece when it fits
/// `room`, else its magnitude broken in turn, on a row of its own.
fn term(system: &System, sign: &str, magnitude: &Expr, text: &str, room: f32) -> Vec<String> {
    let piece = format!("{sign}{text}");
    if width(&piece) <= room {
        return vec![piece];
    }
    let mut out = own_row(
        sign,
        wrap(sign, "", room, |room| pieces(system, magnitude, room)),
    );
    if let Some(first) = out.first_mut() {
        merge_signs(first);
    }
    out
}

/// A term's sign followed by a magnitude that the breaking made open with a minus (a bracket
/// flipped so that it opens with a positive term) reads as one sign: `- -a` is `+ a`, `+ -a` is
/// `- a`.
fn merge_signs(piece: &mut String) {
    let marks = marks(piece);
    let rest = &piece[marks..];
    let merged = [("- -", "+ "), ("+ -", "- "), ("--", "")]
        .iter()
        .find_map(|(double, single)| {
            rest.strip_prefix(double)
                .map(|tail| format!("{single}{}", tail.trim_start()))
        });
    if let Some(merged) = merged {
        piece.replace_range(marks.., &merged);
    }
}

/// A product by its factors in printed order, the coefficient glued to the first. Its widest
/// bracket (a sum, or the power of a sum) is broken inside, as is any factor too wide for
/// `room`; `None` when it is not a plain product.
fn product(system: &System, e: &Expr, room: f32) -> Option<Vec<String>> {
    let cut = with_memo(|memo| match memo {
        Some(memo) => memo.factors(e, &system),
        None => cas::print::latex_factors(e, &system),
    })?;
    let mut negative = cut.negative;
    // The sign and the coefficient are glued to the first factor.
    let glued = 2.2 + cut.coefficient.as_deref().map_or(0.0, |c| width(c) + 0.3);
    let widest_bracket = cut
        .factors
        .iter()
        .enumerate()
        .filter(|(_, (f, _))| bracket_base(f).is_some())
        .max_by(|(_, (_, a)), (_, (_, b))| width(a).total_cmp(&width(b)))
        .map(|(k, _)| k);
    let mut out: Vec<String> = Vec::new();
    for (k, (factor, text)) in cut.factors.into_iter().enumerate() {
        let room = if k == 0 { room - glued } else { room };
        let factor_pieces = match bracket_base(&factor) {
            Some((sum, exponent)) if Some(k) == widest_bracket || width(&text) > room => {
                // `-(a - b)` reads `(b - a)` with the sign in front; never `-( - …`.
                let sum = if exponent.is_none() && leads_negative(system, &sum) {
                    negative = !negative;
                    (-sum).distribute_signs()
                } else {
                    sum
                };
                let close = match exponent {
                    Some(n) => format!(" \\Bigr)^{{{}}}", tex(system, &n)),
                    None => " \\Bigr)".to_string(),
                };
                wrap("\\Bigl( ", &close, room, |room| terms(system, &sum, room))
            }
            _ if width(&text) <= room => vec![text],
            _ => pieces(system, &factor, room),
        };
        let mut factor_pieces = factor_pieces.into_iter();
        match (out.is_empty(), factor_pieces.next()) {
            (false, Some(first)) => out.push(format!("{FACTOR}{first}")),
            (true, Some(first)) => out.push(first),
            (_, None) => {}
        }
        out.extend(factor_pieces);
    }
    let first = out.first_mut()?;
    if let Some(c) = cut.coefficient {
        prefix(first, &format!("{c} "));
    }
    if negative {
        prefix(first, "-");
    }
    Some(out)
}

/// The sum inside a bracketed factor, with the power it is raised to (`None` for a bare sum);
/// `None` for any other factor.
fn bracket_base(factor: &Expr) -> Option<(Expr, Option<Expr>)> {
    match factor.view() {
        cas::View::Add(_) => Some((factor.clone(), None)),
        cas::View::Pow(base, exponent) if matches!(base.view(), cas::View::Add(_)) => {
            Some((base, Some(exponent)))
        }
        _ => None,
    }
}

/// How wide `tex` (math mode) prints, in glyphs of about half an em (an italic letter): sub- and
/// superscripts at 70%, a fraction as its wider part, accents and fonts as their argument,
/// `\left`/`\Bigl` sizes as their delimiter, binary operators and relations with their spaces.
/// An estimate, good to about a tenth, which is what line breaking needs.
pub(super) fn width(tex: &str) -> f32 {
    let _stage = timing::stage("width");
    let mut m = Measure {
        bytes: tex.as_bytes(),
        at: 0,
    };
    m.until_close()
}

/// A cursor over LaTeX source being measured, byte by byte: every character that is not ASCII
/// is one glyph, counted at its first byte (its continuation bytes, `0b10xx_xxxx`, count
/// nothing).
struct Measure<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Measure<'_> {
    /// The character at the cursor: ASCII as itself, the first byte of any other as `¤`, its
    /// continuation bytes as `\0`.
    fn peek(&self) -> Option<char> {
        self.bytes.get(self.at).map(|&b| match b {
            0..=0x7f => char::from(b),
            0x80..=0xbf => '\0',
            _ => '¤',
        })
    }

    /// The tokens up to the closing brace of the current group (consumed) or the end.
    fn until_close(&mut self) -> f32 {
        let mut w = 0.0;
        while let Some(c) = self.peek() {
            if c == '}' {
                self.at += 1;
                break;
            }
            w += self.token();
        }
        w
    }

    /// A `{…}` group or a single token.
    fn argument(&mut self) -> f32 {
        while self.peek() == Some(' ') {
            self.at += 1;
        }
        if self.peek() == Some('{') {
            self.at += 1;
            self.until_close()
        } else {
            self.token()
        }
    }

    fn token(&mut self) -> f32 {
        let Some(c) = self.peek() else {
            return 0.0;
        };
        self.at += 1;
        match c {
            '\\' => self.command(),
            '^' | '_' => 0.7 * self.argument(),
            '{' => self.until_close(),
            '}' | ' ' | '&' | '\n' | '\'' | '\0' => 0.0,
            '+' | '-' | '/' => 2.2,
            '=' | '<' | '>' => EQUALS,
            '(' | ')' | '[' | ']' | '|' => 0.8,
            ',' | '.' | ';' => 0.6,
            'm' | 'w' | 'M' | 'W' => 1.7,
            'i' | 'j' | 'l' | 't' | 'f' | 'r' => 0.8,
            c if c.is_ascii_uppercase() => 1.5,
            _ => 1.1,
        }
    }

    /// The command after a backslash.
    fn command(&mut self) -> f32 {
        let start = self.at;
        while self.peek().is_some_and(|c| c.is_ascii_alphabetic()) {
            self.at += 1;
        }
        if self.at == start {
            // A control symbol: `\,`, `\{`, `\\`, ….
            let Some(c) = self.peek() else {
                return 0.0;
            };
            self.at += 1;
            return match c {
                ',' => 0.35,
                ';' | ':' => 0.55,
                '{' | '}' | '|' => 1.0,
                '!' | '\\' => 0.0,
                _ => 1.0,
            };
        }
        let name = std::str::from_utf8(&self.bytes[start..self.at]).expect("ASCII letters");
        match name {
            "frac" | "dfrac" | "tfrac" => {
                let top = self.argument();
                let bottom = self.argument();
                top.max(bottom) + 0.4
            }
            "dot" | "ddot" | "dddot" | "tilde" | "bar" | "hat" | "vec" | "mathrm" | "mathcal"
            | "mathbf" | "mathit" | "boldsymbol" | "text" | "operatorname" | "overline" => {
                self.argument()
            }
            "sqrt" => self.argument() + 1.6,
            "label" => {
                self.argument();
                0.0
            }
            "left" | "right" | "bigl" | "bigr" | "Bigl" | "Bigr" | "big" | "Big" | "biggl"
            | "biggr" | "nonumber" | "displaystyle" | "limits" => 0.0,
            "quad" => QUAD,
            "qquad" => 2.0 * QUAD,
            "sin" | "cos" | "tan" | "exp" | "log" | "ln" | "det" | "sinh" | "cosh" | "tanh" => {
                0.9 * name.len() as f32 + 0.3
            }
            "wedge" | "cdot" | "times" | "otimes" | "circ" | "pm" | "mp" => 2.2,
            "to" | "mapsto" | "rightarrow" | "approx" | "equiv" | "leq" | "geq" | "neq" => EQUALS,
            "phi" | "varphi" | "psi" | "omega" | "mu" => 1.3,
            // Upper-case Greek letters.
            _ if name.starts_with(|c: char| c.is_ascii_uppercase()) => 1.5,
            _ => 1.1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{merge_signs, width};

    /// A term's sign and a magnitude opening with a minus read as one sign, never `- -a`.
    #[test]
    fn a_sign_and_a_leading_minus_merge() {
        let merged = |text: &str| {
            let mut piece = text.to_string();
            merge_signs(&mut piece);
            piece
        };
        assert_eq!(
            merged("- -\\dot{\\psi}\\, \\Bigl( "),
            "+ \\dot{\\psi}\\, \\Bigl( "
        );
        assert_eq!(merged("+ -2 \\Bigl( "), "- 2 \\Bigl( ");
        assert_eq!(merged("--x"), "x");
        assert_eq!(merged("- x"), "- x");
    }

    #[test]
    fn widths_count_what_prints() {
        // `\left(` and `\right)` print one glyph each, `\cos` three, a thin space little.
        assert!(width("\\cos\\left(q_{1}\\right)") < 7.0);
        assert!(width("\\cos\\left(q_{1}\\right)") > 5.0);
        // A fraction is as wide as its wider part.
        assert!((width("\\frac{m}{2}") - width("m") - 0.4).abs() < 1e-6);
        // Accents and upright names are their argument.
        assert_eq!(width("\\dot{\\mathrm{th}}_{1}"), width("th_{1}"));
        // Labels and line ends print nothing.
        assert_eq!(width("x \\label{eq:a:b} \\\\"), width("x"));
        // A character that is not ASCII is one glyph, like an ordinary letter, in a script too.
        assert_eq!(width("é"), width("a"));
        assert_eq!(width("x_{αβ} + \\mathrm{é}"), width("x_{ab} + \\mathrm{a}"));
        assert_eq!(width("\\é"), width("\\{"));
    }
}

#[cfg(test)]
mod calibration {
    /// Prints the estimated width of every line of the file named by `DALEMBERT_WIDTHS`
    /// (compare with what TeX measures; run with `--ignored --nocapture`).
    #[test]
    #[ignore]
    fn print_estimated_widths() {
        let Ok(path) = std::env::var("DALEMBERT_WIDTHS") else {
            return;
        };
        for line in std::fs::read_to_string(path).unwrap().lines() {
            println!("W {}", super::width(line));
        }
    }
}
