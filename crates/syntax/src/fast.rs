//! The fast path of `syntax::parse`: a hand-written recursive descent over
//! `grammar/dalembert.pest` that builds the same [`Spec`] as the pest parser and the walk of
//! `parse.rs`, or answers `None`.
//!
//! pest spends about 3,000 instructions a byte on a spec (its rule calls, call-limit checks and
//! backtracking snapshots): a millisecond for the ten-link chain's Lagrangian, before any
//! mechanics. This parser reads the grammar's rules one function each, with their semantics:
//!
//! - ordered choice, and a failed alternative, optional part or repetition leaves the position
//!   where it was;
//! - between the parts of a non-atomic rule, and between the repetitions of `x*` and `x+` in
//!   one, the implicit skip `WHITESPACE* ~ (COMMENT ~ WHITESPACE*)*` ([`Fast::skip`]); nothing is
//!   skipped inside the atomic rules (`ident`, `number`, `primed_name`, `partial`, `string`, the
//!   keywords);
//! - a rule's span runs from where it starts to where its last part ends, so a skip before an
//!   optional part that is absent counts (in `x' + y`, the span of the primed `x'` ends after
//!   its space, as pest gives it);
//! - expressions are the flat sequence `neg* primary (infix neg* primary)*`, folded by the
//!   binding powers of pest's Pratt parser as `parse.rs` configures it.
//!
//! It never reports an error: wherever the text is not a spec, `None` sends it to the pest
//! parser, whose failures become the diagnostics (`recover`): a bad spec gets pest's
//! diagnostics, and a spec the same tree as pest gives it, which the tests check on every spec
//! shipped and on thousands of edits of them (`fast_tests`).

use crate::ast::*;

mod expr;

/// A value and the position after it, or `None` when the rule does not match.
type Got<T> = Option<(T, usize)>;

/// A line `kw ~ ident_list` of a block: its keyword and what its names make.
type ListLine<K> = (&'static str, fn(Vec<Ident>) -> K);

/// The parser over one source text.
struct Fast<'s> {
    source: &'s str,
    bytes: &'s [u8],
}

/// Parses a whole spec, or `None` when the text is not one (the pest parser then reports why).
pub(crate) fn parse(source: &str) -> Option<Spec> {
    let p = Fast {
        source,
        bytes: source.as_bytes(),
    };
    p.file()
}

/// A line of a `frame` block.
enum FrameLine {
    Velocities(Vec<Ident>),
    Row(Equation),
}

impl<'s> Fast<'s> {
    // -----------------------------------------------------------------------------------------
    // Characters and tokens

    fn byte(&self, at: usize) -> Option<u8> {
        self.bytes.get(at).copied()
    }

    fn literal(&self, at: usize, text: &str) -> Option<usize> {
        self.bytes[at..]
            .starts_with(text.as_bytes())
            .then_some(at + text.len())
    }

    /// pest's `NEWLINE`: `"\n" | "\r\n" | "\r"`.
    fn newline(&self, at: usize) -> Option<usize> {
        match (self.byte(at), self.byte(at + 1)) {
            (Some(b'\n'), _) => Some(at + 1),
            (Some(b'\r'), Some(b'\n')) => Some(at + 2),
            (Some(b'\r'), _) => Some(at + 1),
            _ => None,
        }
    }

    /// `sep = _{ NEWLINE | ";" }`.
    fn sep(&self, at: usize) -> Option<usize> {
        self.newline(at).or_else(|| self.literal(at, ";"))
    }

    /// The implicit skip: `WHITESPACE* ~ (COMMENT ~ WHITESPACE*)*`, with `WHITESPACE` a space
    /// or a tab and `COMMENT` a `#` and the rest of its line.
    fn skip(&self, mut at: usize) -> usize {
        loop {
            while matches!(self.byte(at), Some(b' ' | b'\t')) {
                at += 1;
            }
            if self.byte(at) != Some(b'#') {
                return at;
            }
            while !matches!(self.byte(at), None | Some(b'\n' | b'\r')) {
                at += 1;
            }
        }
    }

    fn is_name_char(&self, at: usize) -> bool {
        self.byte(at)
            .is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_')
    }

    /// Where the name `ASCII_ALPHA ~ name_char*` at `at` ends, if one starts there.
    fn name_end(&self, at: usize) -> Option<usize> {
        if !self.byte(at)?.is_ascii_alphabetic() {
            return None;
        }
        let mut end = at + 1;
        while self.is_name_char(end) {
            end += 1;
        }
        Some(end)
    }

    /// `ident = @{ ASCII_ALPHA ~ name_char* }`.
    fn ident(&self, at: usize) -> Got<Ident> {
        let end = self.name_end(at)?;
        let name = self.source[at..end].to_string();
        Some((
            Ident {
                name,
                span: Span::new(at, end),
            },
            end,
        ))
    }

    /// A keyword rule `@{ "word" ~ !name_char }`.
    fn keyword(&self, at: usize, word: &str) -> Option<usize> {
        let end = self.literal(at, word)?;
        (!self.is_name_char(end)).then_some(end)
    }

    /// `x*` in a non-atomic rule: `(x ~ (skip ~ x)*)?`.
    fn many<T>(&self, at: usize, x: impl Fn(usize) -> Got<T>) -> (Vec<T>, usize) {
        let mut out = Vec::new();
        let Some((first, mut end)) = x(at) else {
            return (out, at);
        };
        out.push(first);
        while let Some((next, after)) = x(self.skip(end)) {
            out.push(next);
            end = after;
        }
        (out, end)
    }

    /// `x+` in a non-atomic rule: `x ~ (skip ~ x)*`.
    fn some<T>(&self, at: usize, x: impl Fn(usize) -> Got<T>) -> Got<Vec<T>> {
        let (out, end) = self.many(at, x);
        (!out.is_empty()).then_some((out, end))
    }

    /// `nl*`.
    fn newlines(&self, at: usize) -> usize {
        self.many(at, |p| self.newline(p).map(|e| ((), e))).1
    }

    /// `sep*`.
    fn seps(&self, at: usize) -> usize {
        self.many(at, |p| self.sep(p).map(|e| ((), e))).1
    }

    // -----------------------------------------------------------------------------------------
    // Files and items

    /// `file = { SOI ~ sep* ~ (item ~ (sep+ ~ item)*)? ~ sep* ~ EOI }`.
    fn file(&self) -> Option<Spec> {
        let at = self.skip(0);
        let at = self.skip(self.seps(at));
        let (items, at) = self.separated(at, |p| self.item(p));
        let at = self.skip(self.seps(self.skip(at)));
        (at == self.bytes.len()).then_some(Spec { items })
    }

    /// `item`: the first of its alternatives that matches.
    fn item(&self, at: usize) -> Got<Item> {
        let word = &self.source[at..self.name_end(at)?];
        let kind = match word {
            "system" => self.named_item(at, "system", ItemKind::System),
            "time" => self.named_item(at, "time", ItemKind::Time),
            "parameters" => self.list_item(at, "parameters", ItemKind::Parameters),
            "functions" => self.functions_item(at),
            "coordinates" => self.list_item(at, "coordinates", ItemKind::Coordinates),
            "inputs" => self.list_item(at, "inputs", ItemKind::Inputs),
            "action" => self.named_item(at, "action", ItemKind::Action),
            "momenta" => self.list_item(at, "momenta", ItemKind::Momenta),
            "algebroid" => self.algebroid_item(at),
            "let" => self.let_item(at),
            "lagrangian" => self.value_item(at, "lagrangian", ItemKind::Lagrangian),
            "hamiltonian" => self.value_item(at, "hamiltonian", ItemKind::Hamiltonian),
            "constraints" => self.constraints_item(at),
            "forces" => self.forces_item(at),
            "frame" => self.frame_item(at),
            "symmetry" => self.group_item(at).or_else(|| self.symmetry_item(at)),
            "latex" => self.latex_item(at),
            "expect" => self.expect_item(at),
            "gravity" => self.gravity_item(at),
            "body" => self.body_item(at),
            "joint" | "contact" => self.joint_or_contact_item(at, word),
            "discrete" => self.named_item(at, "discrete", ItemKind::Discrete),
            _ => None,
        };
        let (kind, end) = kind?;
        Some((
            Item {
                kind,
                span: Span::new(at, end),
            },
            end,
        ))
    }

    /// `{ kw ~ ident }`.
    fn named_item(&self, at: usize, word: &str, kind: fn(Ident) -> ItemKind) -> Got<ItemKind> {
        let at = self.keyword(at, word)?;
        let (name, end) = self.ident(self.skip(at))?;
        Some((kind(name), end))
    }

    /// `{ kw ~ ident_list }`.
    fn list_item(&self, at: usize, word: &str, kind: fn(Vec<Ident>) -> ItemKind) -> Got<ItemKind> {
        let at = self.keyword(at, word)?;
        let (names, end) = self.ident_list(self.skip(at))?;
        Some((kind(names), end))
    }

    /// `{ kw ~ "=" ~ expr }`.
    fn value_item(&self, at: usize, word: &str, kind: fn(Expr) -> ItemKind) -> Got<ItemKind> {
        let at = self.keyword(at, word)?;
        let at = self.literal(self.skip(at), "=")?;
        let (value, end) = self.expr(self.skip(at))?;
        Some((kind(value), end))
    }

    /// `ident_list = _{ ident ~ ("," ~ nl* ~ ident)* }`.
    fn ident_list(&self, at: usize) -> Got<Vec<Ident>> {
        self.list(at, |p| self.ident(p))
    }

    /// `x ~ ("," ~ nl* ~ x)*`.
    fn list<T>(&self, at: usize, x: impl Fn(usize) -> Got<T>) -> Got<Vec<T>> {
        let (first, end) = x(at)?;
        let next = |p: usize| {
            let p = self.literal(p, ",")?;
            let p = self.skip(self.newlines(self.skip(p)));
            x(p)
        };
        let (mut rest, end) = self.many(self.skip(end), next);
        rest.insert(0, first);
        Some((rest, end))
    }

    /// `functions_item = { kw_functions ~ function_decl ~ ("," ~ nl* ~ function_decl)* }`.
    fn functions_item(&self, at: usize) -> Got<ItemKind> {
        let at = self.keyword(at, "functions")?;
        let (decls, end) = self.list(self.skip(at), |p| self.function_decl(p))?;
        Some((ItemKind::Functions(decls), end))
    }

    /// `function_decl = { ident ~ "(" ~ ident ~ ")" }`.
    fn function_decl(&self, start: usize) -> Got<FunctionDecl> {
        let (name, at) = self.ident(start)?;
        let at = self.literal(self.skip(at), "(")?;
        let (argument, at) = self.ident(self.skip(at))?;
        let end = self.literal(self.skip(at), ")")?;
        Some((
            FunctionDecl {
                name,
                argument,
                span: Span::new(start, end),
            },
            end,
        ))
    }

    /// `"{" ~ sep* ~ (line ~ (sep+ ~ line)*)? ~ sep* ~ "}"`: the lines of a block.
    fn block<T>(&self, at: usize, line: impl Fn(usize) -> Got<T>) -> Got<Vec<T>> {
        let at = self.literal(at, "{")?;
        let at = self.skip(self.seps(self.skip(at)));
        let (lines, at) = self.separated(at, line);
        let at = self.skip(self.seps(self.skip(at)));
        let end = self.literal(at, "}")?;
        Some((lines, end))
    }

    /// `(x ~ (sep+ ~ x)*)?`: the items of a file, the lines of a block.
    fn separated<T>(&self, at: usize, x: impl Fn(usize) -> Got<T>) -> (Vec<T>, usize) {
        let Some((first, end)) = x(at) else {
            return (Vec::new(), at);
        };
        let further = |p: usize| {
            let (_, p) = self.some(p, |q| self.sep(q).map(|e| ((), e)))?;
            x(self.skip(p))
        };
        let (mut rest, end) = self.many(self.skip(end), further);
        rest.insert(0, first);
        (rest, end)
    }

    /// `algebroid_item = { kw_algebroid ~ (algebroid_body | ident ~ algebroid_body?) }`.
    fn algebroid_item(&self, at: usize) -> Got<ItemKind> {
        let at = self.skip(self.keyword(at, "algebroid")?);
        let (preset, body, end) = match self.block(at, |p| self.algebroid_line(p)) {
            Some((body, end)) => (None, body, end),
            None => {
                let (name, after) = self.ident(at)?;
                match self.block(self.skip(after), |p| self.algebroid_line(p)) {
                    Some((body, end)) => (Some(name), body, end),
                    None => (Some(name), Vec::new(), self.skip(after)),
                }
            }
        };
        Some((ItemKind::Algebroid(Algebroid { preset, body }), end))
    }

    /// `algebroid_line = _{ sections_line | velocities_line | momenta_line | anchor_line |
    /// bracket_line }`.
    fn algebroid_line(&self, start: usize) -> Got<AlgebroidItem> {
        let lists: [ListLine<AlgebroidItemKind>; 3] = [
            ("sections", AlgebroidItemKind::Sections),
            ("velocities", AlgebroidItemKind::Velocities),
            ("momenta", AlgebroidItemKind::Momenta),
        ];
        let (kind, end) = self
            .list_line(start, &lists)
            .or_else(|| self.anchor_line(start))
            .or_else(|| self.bracket_line(start))?;
        Some((
            AlgebroidItem {
                kind,
                span: Span::new(start, end),
            },
            end,
        ))
    }

    /// The first of `lines` (`kw ~ ident_list`) that matches.
    fn list_line<K>(&self, start: usize, lines: &[ListLine<K>]) -> Got<K> {
        lines.iter().find_map(|&(word, kind)| {
            let at = self.keyword(start, word)?;
            let (names, end) = self.ident_list(self.skip(at))?;
            Some((kind(names), end))
        })
    }

    /// `anchor_line = { kw_anchor ~ ident ~ "=" ~ expr }`.
    fn anchor_line(&self, at: usize) -> Got<AlgebroidItemKind> {
        let ((section, value), end) = self.definition(at, "anchor")?;
        Some((AlgebroidItemKind::Anchor { section, value }, end))
    }

    /// `bracket_line = { kw_bracket ~ "[" ~ nl* ~ ident ~ nl* ~ "," ~ nl* ~ ident ~ nl* ~ "]" ~
    /// "=" ~ expr }`.
    fn bracket_line(&self, at: usize) -> Got<AlgebroidItemKind> {
        let at = self.keyword(at, "bracket")?;
        let at = self.literal(self.skip(at), "[")?;
        let at = self.skip(self.newlines(self.skip(at)));
        let (left, at) = self.ident(at)?;
        let at = self.skip(self.newlines(self.skip(at)));
        let at = self.literal(at, ",")?;
        let at = self.skip(self.newlines(self.skip(at)));
        let (right, at) = self.ident(at)?;
        let at = self.skip(self.newlines(self.skip(at)));
        let at = self.literal(at, "]")?;
        let at = self.literal(self.skip(at), "=")?;
        let (value, end) = self.expr(self.skip(at))?;
        Some((AlgebroidItemKind::Bracket { left, right, value }, end))
    }

    /// `kw ~ ident ~ "=" ~ expr`: a name and its value.
    fn definition(&self, at: usize, word: &str) -> Got<(Ident, Expr)> {
        let at = self.keyword(at, word)?;
        let (name, at) = self.ident(self.skip(at))?;
        let at = self.literal(self.skip(at), "=")?;
        let (value, end) = self.expr(self.skip(at))?;
        Some(((name, value), end))
    }

    /// `let_item = { kw_let ~ ident ~ "=" ~ expr }`.
    fn let_item(&self, at: usize) -> Got<ItemKind> {
        let ((name, value), end) = self.definition(at, "let")?;
        Some((ItemKind::Let { name, value }, end))
    }

    /// `constraints_item = { kw_constraints ~ constraint_kind ~ "{" … "}" }` with
    /// `constraint_kind = @{ ("nonholonomic" | "vakonomic" | "holonomic") ~ !name_char }`.
    fn constraints_item(&self, at: usize) -> Got<ItemKind> {
        let at = self.skip(self.keyword(at, "constraints")?);
        let kinds = [
            ("nonholonomic", ConstraintKind::Nonholonomic),
            ("vakonomic", ConstraintKind::Vakonomic),
            ("holonomic", ConstraintKind::Holonomic),
        ];
        let (kind, after) = kinds
            .into_iter()
            .find_map(|(word, kind)| Some((kind, self.keyword(at, word)?)))?;
        let (equations, end) = self.block(self.skip(after), |p| self.equation(p))?;
        Some((
            ItemKind::Constraints {
                kind,
                kind_span: Span::new(at, after),
                equations,
            },
            end,
        ))
    }

    /// `equation = { expr ~ "=" ~ expr }`.
    fn equation(&self, start: usize) -> Got<Equation> {
        let (lhs, at) = self.expr(start)?;
        let at = self.literal(self.skip(at), "=")?;
        let (rhs, end) = self.expr(self.skip(at))?;
        Some((
            Equation {
                lhs,
                rhs,
                span: Span::new(start, end),
            },
            end,
        ))
    }

    /// `forces_item = { kw_forces ~ "{" … "}" }`.
    fn forces_item(&self, at: usize) -> Got<ItemKind> {
        let at = self.keyword(at, "forces")?;
        let (equations, end) = self.block(self.skip(at), |p| self.equation(p))?;
        Some((ItemKind::Forces(equations), end))
    }

    /// `frame_item = { kw_frame ~ "{" … "}" }`, `frame_line = _{ velocities_line | equation }`.
    fn frame_item(&self, at: usize) -> Got<ItemKind> {
        let at = self.keyword(at, "frame")?;
        let line = |p: usize| -> Got<FrameLine> {
            let velocities = self
                .keyword(p, "velocities")
                .and_then(|q| self.ident_list(self.skip(q)));
            match velocities {
                Some((names, end)) => Some((FrameLine::Velocities(names), end)),
                None => self.equation(p).map(|(e, end)| (FrameLine::Row(e), end)),
            }
        };
        let (lines, end) = self.block(self.skip(at), line)?;
        let mut block = FrameBlock {
            velocities: Vec::new(),
            rows: Vec::new(),
        };
        for line in lines {
            match line {
                FrameLine::Velocities(names) => block.velocities.extend(names),
                FrameLine::Row(row) => block.rows.push(row),
            }
        }
        Some((ItemKind::Frame(block), end))
    }

    /// `group_item = { kw_symmetry ~ ident ~ kw_on ~ ident_list ~ group_body? }`.
    fn group_item(&self, at: usize) -> Got<ItemKind> {
        let at = self.keyword(at, "symmetry")?;
        let (name, at) = self.ident(self.skip(at))?;
        let at = self.keyword(self.skip(at), "on")?;
        let (coordinates, at) = self.ident_list(self.skip(at))?;
        let at = self.skip(at);
        let (body, end) = self
            .block(at, |p| self.group_line(p))
            .unwrap_or((Vec::new(), at));
        Some((
            ItemKind::Group(GroupDecl {
                name,
                coordinates,
                body,
            }),
            end,
        ))
    }

    /// `group_line = _{ sections_line | velocities_line | momenta_line | momentum_line |
    /// generator_line | connection_line | side_line }`.
    fn group_line(&self, start: usize) -> Got<GroupLine> {
        let lists: [ListLine<GroupLineKind>; 4] = [
            ("sections", GroupLineKind::Sections),
            ("velocities", GroupLineKind::Velocities),
            ("momenta", GroupLineKind::Momenta),
            ("momentum", GroupLineKind::Momentum),
        ];
        let (kind, end) = self
            .list_line(start, &lists)
            .or_else(|| self.generator_line(start))
            .or_else(|| self.connection_line(start))
            .or_else(|| {
                let at = self.keyword(start, "action")?;
                let (side, end) = self.ident(self.skip(at))?;
                Some((GroupLineKind::Side(side), end))
            })?;
        Some((
            GroupLine {
                kind,
                span: Span::new(start, end),
            },
            end,
        ))
    }

    /// `generator_line = { kw_generator ~ ident ~ "=" ~ expr }`.
    fn generator_line(&self, at: usize) -> Got<GroupLineKind> {
        let ((name, value), end) = self.definition(at, "generator")?;
        Some((GroupLineKind::Generator { name, value }, end))
    }

    /// `connection_line = { kw_connection ~ (connection_body | ident) }`.
    fn connection_line(&self, at: usize) -> Got<GroupLineKind> {
        let at = self.skip(self.keyword(at, "connection")?);
        match self.block(at, |p| self.equation(p)) {
            Some((rows, end)) => Some((GroupLineKind::ConnectionForm(rows), end)),
            None => {
                let (name, end) = self.ident(at)?;
                Some((GroupLineKind::Connection(name), end))
            }
        }
    }

    /// `symmetry_item = { kw_symmetry ~ ident ~ "{" … "}" }`.
    fn symmetry_item(&self, at: usize) -> Got<ItemKind> {
        let at = self.keyword(at, "symmetry")?;
        let (name, at) = self.ident(self.skip(at))?;
        let (entries, end) = self.block(self.skip(at), |p| self.equation(p))?;
        Some((ItemKind::Symmetry { name, entries }, end))
    }

    /// `latex_item = { kw_latex ~ "{" … "}" }`, `latex_entry = { ident ~ "=" ~ string }`.
    fn latex_item(&self, at: usize) -> Got<ItemKind> {
        let at = self.keyword(at, "latex")?;
        let entry = |start: usize| {
            let (name, at) = self.ident(start)?;
            let at = self.literal(self.skip(at), "=")?;
            let (raw, end) = self.string(self.skip(at))?;
            Some((
                LatexOverride {
                    name,
                    text: LatexOverride::unescape(raw),
                    span: Span::new(start, end),
                },
                end,
            ))
        };
        let (entries, end) = self.block(self.skip(at), entry)?;
        Some((ItemKind::Latex(entries), end))
    }

    /// `string = ${ "\"" ~ string_inner ~ "\"" }` with `string_inner = @{ ("\\" ~ ("\\" |
    /// "\"") | !("\"" | NEWLINE) ~ ANY)* }`: the text between the quotes, as written.
    fn string(&self, at: usize) -> Got<&'s str> {
        let start = self.literal(at, "\"")?;
        let mut end = start;
        loop {
            match (self.byte(end), self.byte(end + 1)) {
                (Some(b'\\'), Some(b'\\' | b'"')) => end += 2,
                (None | Some(b'"' | b'\n' | b'\r'), _) => break,
                // One character: a byte of a multi-byte character is never a quote or a
                // line break, so the scan may step byte by byte.
                _ => end += 1,
            }
        }
        let after = self.literal(end, "\"")?;
        Some((&self.source[start..end], after))
    }

    /// `expect_item = { kw_expect ~ ident ~ "{" … "}" }`.
    fn expect_item(&self, at: usize) -> Got<ItemKind> {
        let at = self.keyword(at, "expect")?;
        let (kind, at) = self.ident(self.skip(at))?;
        let (entries, end) = self.block(self.skip(at), |p| self.expect_entry(p))?;
        Some((ItemKind::Expect(ExpectBlock { kind, entries }), end))
    }

    /// `expect_entry = { key_tuple ~ "=" ~ expr | expr ~ ("=" ~ expr)? }`.
    fn expect_entry(&self, start: usize) -> Got<ExpectEntry> {
        let tuple = self.tuple(start).and_then(|(keys, key_end)| {
            let at = self.literal(self.skip(key_end), "=")?;
            let (value, end) = self.expr(self.skip(at))?;
            Some((
                Some(Key::Tuple(keys, Span::new(start, key_end))),
                value,
                end,
            ))
        });
        let (key, value, end) = match tuple {
            Some(entry) => entry,
            None => {
                let (first, at) = self.expr(start)?;
                let at = self.skip(at);
                let second = self.literal(at, "=").and_then(|p| self.expr(self.skip(p)));
                match second {
                    Some((value, end)) => (Some(Key::Single(first)), value, end),
                    None => (None, first, at),
                }
            }
        };
        Some((
            ExpectEntry {
                key,
                value,
                span: Span::new(start, end),
            },
            end,
        ))
    }

    /// `key_tuple` and `vector`: `"(" ~ expr_nl ~ ("," ~ expr_nl)+ ~ ")"`.
    /// The arguments of a call with two or more of them: `("," ~ expr_nl)+` instead of `*`.
    fn tuple(&self, at: usize) -> Got<Vec<Expr>> {
        self.arguments(at).filter(|(items, _)| items.len() >= 2)
    }

    /// `gravity_item = { kw_gravity ~ "=" ~ vector }`.
    fn gravity_item(&self, at: usize) -> Got<ItemKind> {
        let at = self.keyword(at, "gravity")?;
        let at = self.literal(self.skip(at), "=")?;
        let (vector, end) = self.tuple(self.skip(at))?;
        Some((ItemKind::Gravity(vector), end))
    }

    /// `body_item = { kw_body ~ ident ~ fields }`.
    fn body_item(&self, at: usize) -> Got<ItemKind> {
        let at = self.keyword(at, "body")?;
        let (name, at) = self.ident(self.skip(at))?;
        let (fields, end) = self.block(self.skip(at), |p| self.field(p))?;
        Some((ItemKind::Body { name, fields }, end))
    }

    /// `joint_item = { kw_joint ~ ident ~ ident ~ fields }` and `contact_item`, alike.
    fn joint_or_contact_item(&self, at: usize, word: &str) -> Got<ItemKind> {
        let at = self.keyword(at, word)?;
        let (name, at) = self.ident(self.skip(at))?;
        let (kind, at) = self.ident(self.skip(at))?;
        let (fields, end) = self.block(self.skip(at), |p| self.field(p))?;
        let item = if word == "joint" {
            ItemKind::Joint { name, kind, fields }
        } else {
            ItemKind::Contact { name, kind, fields }
        };
        Some((item, end))
    }

    /// `field = { ident ~ "=" ~ (vector | expr) }`.
    fn field(&self, start: usize) -> Got<Field> {
        let (key, at) = self.ident(start)?;
        let at = self.skip(self.literal(self.skip(at), "=")?);
        let (value, end) = match self.tuple(at) {
            Some((items, end)) => (FieldValue::Vector(items, Span::new(at, end)), end),
            None => {
                let (value, end) = self.expr(at)?;
                (FieldValue::Scalar(value), end)
            }
        };
        Some((
            Field {
                key,
                value,
                span: Span::new(start, end),
            },
            end,
        ))
    }
}
