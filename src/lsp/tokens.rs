//! Semantic tokens for `.feature` buffers, so that an editor without a grammar for deckspec's
//! scenario language colours it: headers and step keywords, tags, comments, doc strings, table
//! pipes, the action after `does`, players, cards, numbers, quoted text and placeholders.

use lsp_types::{SemanticToken, SemanticTokenType, SemanticTokensLegend};

/// The token types, in the legend's order (a token's type is its index here).
pub const TYPES: &[SemanticTokenType] = &[
    SemanticTokenType::KEYWORD,
    SemanticTokenType::DECORATOR,
    SemanticTokenType::COMMENT,
    SemanticTokenType::STRING,
    SemanticTokenType::OPERATOR,
    SemanticTokenType::FUNCTION,
    SemanticTokenType::VARIABLE,
    SemanticTokenType::ENUM_MEMBER,
    SemanticTokenType::NUMBER,
    SemanticTokenType::PARAMETER,
];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u32)]
enum Type {
    Keyword,
    Decorator,
    Comment,
    String,
    Operator,
    Function,
    Variable,
    EnumMember,
    Number,
    Parameter,
}

/// What the server tells the client its tokens mean.
pub fn legend() -> SemanticTokensLegend {
    SemanticTokensLegend {
        token_types: TYPES.to_vec(),
        token_modifiers: Vec::new(),
    }
}

const HEADERS: &[&str] = &[
    "Feature:",
    "Rule:",
    "Background:",
    "Scenario Outline:",
    "Scenario Template:",
    "Scenario:",
    "Examples:",
    "Example:",
];
const KEYWORDS: &[&str] = &["Given", "When", "Then", "And", "But"];

/// Whether `word` is a card face as scenarios write it (`7S`, `10H`, `JK`).
fn is_card(word: &str) -> bool {
    if word == "JK" {
        return true;
    }
    let Some(rank) = word.strip_suffix(['S', 'H', 'D', 'C']) else {
        return false;
    };
    matches!(
        rank,
        "A" | "2" | "3" | "4" | "5" | "6" | "7" | "8" | "9" | "10" | "J" | "Q" | "K"
    )
}

/// One line's tokens: (byte start in the line, byte length, type).
fn step_tokens(line: &str, players: &[&str], out: &mut Vec<(usize, usize, Type)>) {
    let mut previous: Vec<&str> = Vec::new();
    let mut i = 0;
    let bytes = line.as_bytes();
    while i < line.len() {
        let c = bytes[i];
        if c == b' ' || c == b',' || c == b':' {
            i += 1;
            continue;
        }
        if c == b'"' {
            let end = line[i + 1..].find('"').map_or(line.len(), |e| i + 2 + e);
            out.push((i, end - i, Type::String));
            i = end;
            continue;
        }
        if c == b'<'
            && let Some(e) = line[i..].find('>')
        {
            out.push((i, e + 1, Type::Parameter));
            i += e + 1;
            continue;
        }
        let end = line[i..]
            .find([' ', ',', ':', '"'])
            .map_or(line.len(), |e| i + e);
        let word = &line[i..end.max(i + 1)];
        let end = i + word.len();
        let kind = if previous.is_empty() && KEYWORDS.contains(&word) {
            Some(Type::Keyword)
        } else if matches!(previous.last(), Some(&("does" | "did" | "chose")))
            || previous.ends_with(&["may", "do"])
        {
            Some(Type::Function)
        } else if is_card(word) {
            Some(Type::EnumMember)
        } else if word.chars().all(|c| c.is_ascii_digit() || c == '.') {
            Some(Type::Number)
        } else {
            let name = word.strip_suffix("'s").unwrap_or(word);
            players.contains(&name).then_some(Type::Variable)
        };
        if let Some(kind) = kind {
            let len = if kind == Type::Variable {
                word.strip_suffix("'s").unwrap_or(word).len()
            } else {
                word.len()
            };
            out.push((i, len, kind));
        }
        previous.push(word);
        i = end;
    }
}

/// The semantic tokens of a scenario file, delta-encoded as the protocol sends them.
pub fn semantic_tokens(src: &str) -> Vec<SemanticToken> {
    let players = super::feature::player_names(src);
    let mut out = Vec::new();
    let (mut last_line, mut last_start) = (0u32, 0u32);
    let mut in_doc: Option<&str> = None;
    for (number, line) in src.lines().enumerate() {
        let trimmed = line.trim_start();
        let indent = line.len() - trimmed.len();
        let mut tokens: Vec<(usize, usize, Type)> = Vec::new();
        if let Some(fence) = in_doc {
            if trimmed.starts_with(fence) {
                in_doc = None;
            }
            if !trimmed.is_empty() {
                tokens.push((indent, trimmed.len(), Type::String));
            }
        } else if trimmed.starts_with("\"\"\"") || trimmed.starts_with("```") {
            in_doc = Some(&trimmed[..3]);
            tokens.push((indent, trimmed.len(), Type::String));
        } else if trimmed.starts_with('#') {
            tokens.push((indent, trimmed.len(), Type::Comment));
        } else if trimmed.starts_with('@') {
            let mut at = indent;
            for tag in trimmed.split(' ') {
                if tag.starts_with('@') {
                    tokens.push((at, tag.len(), Type::Decorator));
                }
                at += tag.len() + 1;
            }
        } else if let Some(h) = HEADERS.iter().find(|h| trimmed.starts_with(*h)) {
            tokens.push((indent, h.len(), Type::Keyword));
        } else if trimmed.starts_with('|') {
            for (i, c) in trimmed.char_indices() {
                let escaped = i > 0 && trimmed.as_bytes()[i - 1] == b'\\';
                if c == '|' && !escaped {
                    tokens.push((indent + i, 1, Type::Operator));
                }
            }
        } else {
            step_tokens(trimmed, &players, &mut tokens);
            for t in &mut tokens {
                t.0 += indent;
            }
        }
        tokens.sort_by_key(|t| t.0);
        let line_number = u32::try_from(number).unwrap_or(u32::MAX);
        for (start, len, kind) in tokens {
            let units = |s: &str| -> u32 {
                u32::try_from(s.chars().map(char::len_utf16).sum::<usize>()).unwrap_or(u32::MAX)
            };
            let (Some(before), Some(text)) = (line.get(..start), line.get(start..start + len))
            else {
                continue;
            };
            let (column, length) = (units(before), units(text));
            let delta_line = line_number - last_line;
            let delta_start = if delta_line == 0 {
                column - last_start
            } else {
                column
            };
            out.push(SemanticToken {
                delta_line,
                delta_start,
                length,
                token_type: kind as u32,
                token_modifiers_bitset: 0,
            });
            (last_line, last_start) = (line_number, column);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{Type, is_card, semantic_tokens};

    /// The tokens as (line, column, length, type), undoing the deltas.
    fn decoded(src: &str) -> Vec<(u32, u32, u32, u32)> {
        let (mut line, mut col) = (0, 0);
        semantic_tokens(src)
            .into_iter()
            .map(|t| {
                if t.delta_line > 0 {
                    col = 0;
                }
                line += t.delta_line;
                col += t.delta_start;
                (line, col, t.length, t.token_type)
            })
            .collect()
    }

    #[test]
    fn a_scenario_is_coloured_by_what_each_word_is() {
        let src = "@rule:CAM-1\nFeature: f\n  Scenario: s\n    Given a cambia game with players ann, bob\n    When ann does snap 7S\n    # note\n    Then bob's score is 3\n";
        let t = decoded(src);
        let has = |line, col, len, ty: Type| t.contains(&(line, col, len, ty as u32));
        assert!(has(0, 0, 11, Type::Decorator));
        assert!(has(1, 0, 8, Type::Keyword));
        assert!(has(2, 2, 9, Type::Keyword));
        assert!(has(3, 4, 5, Type::Keyword));
        assert!(has(4, 9, 3, Type::Variable));
        assert!(has(4, 18, 4, Type::Function));
        assert!(has(4, 23, 2, Type::EnumMember));
        assert!(has(5, 4, 6, Type::Comment));
        assert!(has(6, 9, 3, Type::Variable));
        assert!(has(6, 24, 1, Type::Number));
        assert!(!t.iter().any(|x| x.0 == 3 && x.3 == Type::EnumMember as u32));
    }

    #[test]
    fn doc_strings_and_tables_are_strings_and_pipes() {
        let src = "    Then ann receives:\n      \"\"\"\n      Given nothing\n      \"\"\"\n      | a | b \\| c |\n";
        let t = decoded(src);
        assert!(t.contains(&(2, 6, 13, Type::String as u32)));
        assert!(!t.iter().any(|x| x.0 == 2 && x.3 == Type::Keyword as u32));
        let pipes = t
            .iter()
            .filter(|x| x.0 == 4 && x.3 == Type::Operator as u32)
            .count();
        assert_eq!(pipes, 3);
    }

    #[test]
    fn cards_are_ranks_with_suits_and_the_joker() {
        assert!(is_card("10H") && is_card("AS") && is_card("JK"));
        assert!(!is_card("1S") && !is_card("ann") && !is_card("S"));
    }
}
