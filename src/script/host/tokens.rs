//! A rule script's tokens with exact byte ranges (Rhai's own tokenizer, so strings and comments
//! are never mistaken for code), and the top-level functions they belong to. Shared by
//! `mutants` (where to edit) and `probe` (which function a line is in).

use rhai::{Engine, Token};

/// One token of a script with its byte range.
pub(crate) struct Tok {
    pub(crate) token: Token,
    /// Byte offset of its first character.
    pub(crate) start: usize,
    /// Byte offset just past it.
    pub(crate) end: usize,
    /// Inside a `${…}` of an interpolated string: never the start of a statement to remove.
    pub(crate) in_text: bool,
}

/// The enclosing `fn` of each token.
pub(crate) fn hooks(tokens: &[Tok]) -> Vec<Option<String>> {
    let mut out = Vec::with_capacity(tokens.len());
    let mut current: Option<String> = None;
    let mut depth = 0i32;
    let mut pending: Option<String> = None;
    for (i, t) in tokens.iter().enumerate() {
        match &t.token {
            Token::Fn => {
                if let Some(Tok {
                    token: Token::Identifier(name),
                    ..
                }) = tokens.get(i + 1)
                {
                    pending = Some(name.to_string());
                }
            }
            Token::LeftBrace | Token::MapStart => {
                if depth == 0 && pending.is_some() {
                    current = pending.take();
                }
                depth += 1;
            }
            Token::RightBrace => {
                depth -= 1;
                if depth == 0 {
                    out.push(current.take());
                    continue;
                }
            }
            _ => {}
        }
        out.push(current.clone());
    }
    out
}

/// The script's tokens with byte ranges (comments skipped by the tokenizer).
pub(crate) fn tokenize(source: &str) -> Vec<Tok> {
    let engine = Engine::new_raw();
    let line_starts: Vec<usize> = std::iter::once(0)
        .chain(source.match_indices('\n').map(|(i, _)| i + 1))
        .collect();
    let offset = |line: usize, column: usize| -> Option<usize> {
        let start = *line_starts.get(line.checked_sub(1)?)?;
        let text = &source[start..];
        let skip = column.checked_sub(1)?;
        Some(start + text.char_indices().nth(skip).map_or(text.len(), |(i, _)| i))
    };
    let inputs = [source];
    let (stream, control) = engine.lex(&inputs);
    let mut out = Vec::new();
    // Brace depths at which an interpolated string's `${` opened: when its `}` closes, the
    // tokenizer must be told to read text again (what Rhai's parser does).
    let mut interpolations: Vec<i32> = Vec::new();
    let mut depth = 0i32;
    for (token, pos) in stream {
        if matches!(token, Token::EOF | Token::LexError(_)) {
            break;
        }
        let in_text = !interpolations.is_empty();
        match token {
            Token::InterpolatedString(_) => interpolations.push(depth),
            Token::LeftBrace | Token::MapStart => depth += 1,
            Token::RightBrace => {
                depth -= 1;
                if interpolations.last() == Some(&depth) {
                    interpolations.pop();
                    control.borrow_mut().is_within_text = true;
                }
            }
            _ => {}
        }
        let (Some(line), Some(column)) = (pos.line(), pos.position()) else {
            continue;
        };
        let Some(start) = offset(line, column) else {
            continue;
        };
        let end = start + token_len(&token, &source[start..]);
        out.push(Tok {
            token,
            start,
            end,
            in_text,
        });
    }
    out
}

/// The length in bytes of the token's text at the start of `rest`.
fn token_len(token: &Token, rest: &str) -> usize {
    match token {
        Token::StringConstant(_) if rest.starts_with('"') => {
            let mut escaped = false;
            for (i, c) in rest.char_indices().skip(1) {
                match c {
                    '\\' if !escaped => escaped = true,
                    '"' if !escaped => return i + 1,
                    _ => escaped = false,
                }
            }
            rest.len()
        }
        Token::IntegerConstant(_)
        | Token::Identifier(_)
        | Token::StringConstant(_)
        | Token::Custom(_) => rest
            .char_indices()
            .find(|(_, c)| !(c.is_alphanumeric() || *c == '_'))
            .map_or(rest.len(), |(i, _)| i),
        other if other.is_literal() => other.literal_syntax().len().max(1),
        // Floats, characters, interpolated strings: never edited; their extent matters only as
        // the end of a condition or statement, which a scan of the number or word gives.
        _ => rest
            .char_indices()
            .find(|(_, c)| !(c.is_alphanumeric() || *c == '_' || *c == '.'))
            .map_or(rest.len(), |(i, _)| i)
            .max(1),
    }
}

/// A top-level function of a script: its name and the lines from `fn` to its closing brace.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FnSpan {
    /// Its name.
    pub name: String,
    /// The line of its `fn` keyword (1-based).
    pub first_line: usize,
    /// The line of its closing brace.
    pub last_line: usize,
}

/// The top-level functions of `source`, in source order.
pub fn fn_spans(source: &str) -> Vec<FnSpan> {
    let tokens = tokenize(source);
    let owners = hooks(&tokens);
    let line_of = |at: usize| source[..at].matches('\n').count() + 1;
    let mut out: Vec<FnSpan> = Vec::new();
    let mut fn_keyword: Option<usize> = None;
    for (t, owner) in tokens.iter().zip(&owners) {
        if matches!(t.token, Token::Fn) && owner.is_none() {
            fn_keyword = Some(t.start);
        }
        let Some(name) = owner else { continue };
        match out.last_mut() {
            Some(span) if span.name == *name && fn_keyword.is_none() => {
                span.last_line = line_of(t.start);
            }
            _ => {
                let first = fn_keyword.take().unwrap_or(t.start);
                out.push(FnSpan {
                    name: name.clone(),
                    first_line: line_of(first),
                    last_line: line_of(t.start),
                });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn functions_span_from_fn_to_their_closing_brace() {
        let source = "// top\nconst X = 1;\nfn a(game) {\n    let m = #{ k: 1 };\n    if m.k == 1 {\n        x();\n    }\n}\n\nprivate fn b() { 2 }\n";
        let spans = fn_spans(source);
        let shown: Vec<(&str, usize, usize)> = spans
            .iter()
            .map(|s| (s.name.as_str(), s.first_line, s.last_line))
            .collect();
        assert_eq!(shown, vec![("a", 3, 8), ("b", 10, 10)]);
    }
}
