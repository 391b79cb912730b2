//! Mutants of a rule script, for `deckspec mutate`: small wrong versions of the script, each one
//! edit at an exact place found by Rhai's own tokenizer (so strings and comments are never
//! edited by accident). Whether a mutant still compiles is the caller's check (loading it).

use super::host::tokens::{Tok, hooks, tokenize};
use rhai::Token;

/// What kind of edit a mutant is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MutationKind {
    /// `==`/`!=`, `<`/`<=`, `>`/`>=` flipped.
    Comparison,
    /// `&&`/`||` swapped.
    Logical,
    /// An `if` condition negated.
    NegatedCondition,
    /// An integer constant made one more, one less, or 0.
    Constant,
    /// A `game.…` call statement removed.
    RemovedCall,
    /// A `refuse(…)` statement removed.
    RemovedRefuse,
    /// An assignment statement removed.
    RemovedAssignment,
    /// A string naming a declared pile, phase, event or variable swapped for another of its kind.
    SwappedName,
    /// An `if` or `else` branch emptied.
    RemovedBranch,
}

impl MutationKind {
    /// The kind in words, for reports.
    pub fn describe(self) -> &'static str {
        match self {
            MutationKind::Comparison => "comparison flipped",
            MutationKind::Logical => "&&/|| swapped",
            MutationKind::NegatedCondition => "condition negated",
            MutationKind::Constant => "constant changed",
            MutationKind::RemovedCall => "game call removed",
            MutationKind::RemovedRefuse => "refusal removed",
            MutationKind::RemovedAssignment => "assignment removed",
            MutationKind::SwappedName => "name swapped",
            MutationKind::RemovedBranch => "branch emptied",
        }
    }
}

/// One mutant: replace `source[start..end]` with `replacement`.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Mutation {
    /// The kind of edit.
    pub kind: MutationKind,
    /// Byte range in the script.
    pub start: usize,
    /// Byte range end (exclusive).
    pub end: usize,
    /// 1-based line of `start`.
    pub line: usize,
    /// 1-based column (characters) of `start`.
    pub column: usize,
    /// The text replaced.
    pub original: String,
    /// The text put in its place.
    pub replacement: String,
    /// The function the edit is in (`None`: top level).
    pub hook: Option<String>,
}

impl Mutation {
    /// The script with this edit applied.
    pub fn apply(&self, source: &str) -> String {
        let mut out = String::with_capacity(source.len() + self.replacement.len());
        out.push_str(&source[..self.start]);
        out.push_str(&self.replacement);
        out.push_str(&source[self.end..]);
        out
    }
}

/// The declared names a string literal may be swapped among, one list per kind (piles, phases,
/// events, game variables, player variables…); a literal is swapped for the next name of its list.
pub type NameGroups = Vec<Vec<String>>;

/// Every mutant of `source`, in source order.
pub fn mutations(source: &str, names: &NameGroups) -> Vec<Mutation> {
    let tokens = tokenize(source);
    let hooks = hooks(&tokens);
    let mut out = Vec::new();
    let line_col = |at: usize| {
        let before = &source[..at];
        let line = before.matches('\n').count() + 1;
        let column = before[before.rfind('\n').map_or(0, |i| i + 1)..]
            .chars()
            .count()
            + 1;
        (line, column)
    };
    let mut push = |kind, start: usize, end: usize, replacement: String, i: usize| {
        let (line, column) = line_col(start);
        out.push(Mutation {
            kind,
            start,
            end,
            line,
            column,
            original: source[start..end].to_string(),
            replacement,
            hook: hooks[i].clone(),
        });
    };
    for (i, t) in tokens.iter().enumerate() {
        let flipped = match t.token {
            Token::EqualsTo => Some((MutationKind::Comparison, "!=")),
            Token::NotEqualsTo => Some((MutationKind::Comparison, "==")),
            Token::LessThan => Some((MutationKind::Comparison, "<=")),
            Token::LessThanEqualsTo => Some((MutationKind::Comparison, "<")),
            Token::GreaterThan => Some((MutationKind::Comparison, ">=")),
            Token::GreaterThanEqualsTo => Some((MutationKind::Comparison, ">")),
            Token::And => Some((MutationKind::Logical, "||")),
            Token::Or => Some((MutationKind::Logical, "&&")),
            _ => None,
        };
        if let Some((kind, to)) = flipped {
            push(kind, t.start, t.end, to.to_string(), i);
            continue;
        }
        match &t.token {
            Token::IntegerConstant(n) => {
                let n = *n;
                let mut values = vec![n.saturating_add(1), n.saturating_sub(1)];
                if n != 0 && n != 1 && n != -1 {
                    values.push(0);
                }
                values.retain(|v| *v != n);
                values.dedup();
                for v in values {
                    let text = if v < 0 {
                        format!("({v})")
                    } else {
                        v.to_string()
                    };
                    push(MutationKind::Constant, t.start, t.end, text, i);
                }
            }
            Token::StringConstant(s) if source[t.start..].starts_with('"') => {
                if let Some(group) = names.iter().find(|g| g.iter().any(|n| n == s.as_str()))
                    && group.len() > 1
                {
                    let at = group.iter().position(|n| n == s.as_str()).unwrap_or(0);
                    let other = &group[(at + 1) % group.len()];
                    push(
                        MutationKind::SwappedName,
                        t.start,
                        t.end,
                        format!("\"{other}\""),
                        i,
                    );
                }
            }
            Token::If => {
                let Some(open) = block_after(&tokens, i + 1) else {
                    continue;
                };
                let (cond_start, cond_end) = (tokens[i + 1].start, tokens[open - 1].end);
                push(
                    MutationKind::NegatedCondition,
                    cond_start,
                    cond_end,
                    format!("!({})", &source[cond_start..cond_end]),
                    i + 1,
                );
                if let Some(close) = matching(&tokens, open) {
                    push_branch(&tokens, open, close, &mut push);
                    // `else { … }` (an `else if` is its own `if`).
                    if tokens
                        .get(close + 1)
                        .is_some_and(|t| t.token == Token::Else)
                        && tokens
                            .get(close + 2)
                            .is_some_and(|t| t.token == Token::LeftBrace)
                        && let Some(else_close) = matching(&tokens, close + 2)
                    {
                        push_branch(&tokens, close + 2, else_close, &mut push);
                    }
                }
            }
            _ => {}
        }
        // Statements: at the start of one (after `;`, `{` or `}`).
        let at_statement_start = !t.in_text
            && (i == 0
                || matches!(
                    tokens[i - 1].token,
                    Token::SemiColon | Token::LeftBrace | Token::RightBrace
                ));
        if !at_statement_start {
            continue;
        }
        let kind = match (&t.token, tokens.get(i + 1).map(|t| &t.token)) {
            (Token::Identifier(name), Some(Token::Period)) if name.as_str() == "game" => {
                Some(MutationKind::RemovedCall)
            }
            (Token::Identifier(name), Some(Token::LeftParen)) if name.as_str() == "refuse" => {
                Some(MutationKind::RemovedRefuse)
            }
            (Token::Return, Some(Token::Identifier(name))) if name.as_str() == "refuse" => {
                Some(MutationKind::RemovedRefuse)
            }
            (Token::Identifier(_), Some(next)) if is_assignment(next) => {
                Some(MutationKind::RemovedAssignment)
            }
            _ => None,
        };
        if let Some(kind) = kind
            && let Some(last) = statement_end(&tokens, i)
        {
            push(kind, t.start, tokens[last].end, String::new(), i);
        }
    }
    out
}

fn push_branch(
    tokens: &[Tok],
    open: usize,
    close: usize,
    push: &mut impl FnMut(MutationKind, usize, usize, String, usize),
) {
    if close > open + 1 {
        push(
            MutationKind::RemovedBranch,
            tokens[open].start,
            tokens[close].end,
            "{}".to_string(),
            open,
        );
    }
}

fn is_assignment(token: &Token) -> bool {
    matches!(
        token,
        Token::Equals
            | Token::PlusAssign
            | Token::MinusAssign
            | Token::MultiplyAssign
            | Token::DivideAssign
            | Token::ModuloAssign
    )
}

/// The index of the `{` that opens the block after an `if` condition starting at `from`.
fn block_after(tokens: &[Tok], from: usize) -> Option<usize> {
    let mut depth = 0i32;
    for (i, t) in tokens.iter().enumerate().skip(from) {
        match t.token {
            Token::LeftParen | Token::LeftBracket | Token::MapStart => depth += 1,
            Token::RightParen | Token::RightBracket => depth -= 1,
            Token::LeftBrace if depth == 0 => return (i > from).then_some(i),
            Token::LeftBrace => depth += 1,
            Token::RightBrace => depth -= 1,
            Token::SemiColon if depth == 0 => return None,
            _ => {}
        }
    }
    None
}

/// The index of the `}` closing the `{` (or `#{`) at `open`.
fn matching(tokens: &[Tok], open: usize) -> Option<usize> {
    let mut depth = 0i32;
    for (i, t) in tokens.iter().enumerate().skip(open) {
        match t.token {
            Token::LeftBrace | Token::MapStart => depth += 1,
            Token::RightBrace => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

/// The last token of the statement starting at `from`: its `;`, or the token before the `}`
/// closing its block.
fn statement_end(tokens: &[Tok], from: usize) -> Option<usize> {
    let mut depth = 0i32;
    for (i, t) in tokens.iter().enumerate().skip(from) {
        match t.token {
            Token::LeftParen | Token::LeftBracket | Token::LeftBrace | Token::MapStart => {
                depth += 1;
            }
            Token::RightParen | Token::RightBracket => depth -= 1,
            Token::RightBrace if depth == 0 => return (i > from).then(|| i - 1),
            Token::RightBrace => depth -= 1,
            Token::SemiColon if depth == 0 => return Some(i),
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn edits(source: &str) -> Vec<(MutationKind, String, String, Option<String>)> {
        let names = vec![vec!["draw".to_string(), "discard".to_string()]];
        mutations(source, &names)
            .into_iter()
            .map(|m| (m.kind, m.original.clone(), m.apply(source), m.hook))
            .collect()
    }

    #[test]
    fn each_kind_of_edit_is_made_at_its_place() {
        let source = "fn act(game) {\n    if x == 1 && y { refuse(\"no\"); }\n    game.move_to(\"draw\");\n    n += 2;\n}\n";
        let found = edits(source);
        let has = |kind, original: &str, result_contains: &str| {
            assert!(
                found.iter().any(|(k, o, r, h)| *k == kind
                    && o == original
                    && r.contains(result_contains)
                    && h.as_deref() == Some("act")),
                "{kind:?} {original:?} -> {result_contains:?} in {found:#?}"
            );
        };
        has(MutationKind::Comparison, "==", "if x != 1");
        has(MutationKind::Logical, "&&", "x == 1 || y");
        has(MutationKind::Constant, "1", "x == 2");
        has(MutationKind::Constant, "1", "x == 0");
        has(
            MutationKind::NegatedCondition,
            "x == 1 && y",
            "if !(x == 1 && y) {",
        );
        has(
            MutationKind::RemovedBranch,
            "{ refuse(\"no\"); }",
            "&& y {}\n",
        );
        has(MutationKind::RemovedRefuse, "refuse(\"no\");", "&& y {  }");
        has(
            MutationKind::RemovedCall,
            "game.move_to(\"draw\");",
            "\n    \n    n += 2",
        );
        has(
            MutationKind::SwappedName,
            "\"draw\"",
            "game.move_to(\"discard\")",
        );
        has(MutationKind::Constant, "2", "n += 3");
        has(MutationKind::RemovedAssignment, "n += 2;", "\n    \n}");
        // A string that names nothing declared, and a comment, are left alone.
        assert!(!found.iter().any(|(_, o, _, _)| o == "\"no\""));
        let commented = edits("// if a == b { }\nlet z = 3;");
        assert!(
            commented
                .iter()
                .all(|(k, _, _, _)| *k == MutationKind::Constant)
        );
    }

    #[test]
    fn interpolated_strings_are_read_through() {
        // After a `${…}` the tokenizer must read text again: the comparison after it is found
        // at its place, and nothing inside the interpolation is removed as a statement.
        let source = "fn f(game) {\n    refuse(`${game.x} and ${y}`);\n    if a == b { c = 1; }\n}";
        let found = mutations(source, &Vec::new());
        let eq = found
            .iter()
            .find(|m| m.original == "==")
            .expect("the == after the string");
        assert_eq!((eq.line, eq.column), (3, 10));
        assert!(
            !found.iter().any(|m| m.original.starts_with("game.x")),
            "{found:#?}"
        );
        assert!(found.iter().any(|m| m.kind == MutationKind::RemovedRefuse));
    }

    #[test]
    fn positions_count_characters_and_lines() {
        let source = "let s = \"é\";\nif a < b { c = 1; }";
        let m = mutations(source, &Vec::new());
        let lt = m.iter().find(|m| m.original == "<").unwrap();
        assert_eq!((lt.line, lt.column), (2, 6));
        assert_eq!(lt.apply(source), "let s = \"é\";\nif a <= b { c = 1; }");
    }
}
