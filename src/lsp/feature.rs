//! What the server knows of a `.feature` buffer: its problems as `deckspec check` finds them,
//! the word under the cursor (a `@rule:` tag, the action after `does`), what may be typed there,
//! and where a name is defined (a rule in its rulebook, an action's hook in the scripts).

use super::position::range;
use crate::scenarios::ScriptProvider;
use crate::script::Variant;
use crate::spec::suite;
use lsp_types::{
    CompletionItem, CompletionItemKind, Diagnostic, DiagnosticSeverity, Documentation,
    MarkupContent, MarkupKind, Range,
};
use std::path::PathBuf;
use std::sync::Arc;

/// Every problem `deckspec check` finds in `src`, as the editor shows them: the message, then
/// the hint (a did-you-mean) on its own line.
pub fn diagnostics(src: &str, provider: &ScriptProvider) -> Vec<Diagnostic> {
    let (_, _, problems) = suite::check_file(src, provider);
    problems
        .into_iter()
        .map(|p| {
            let mut message = p.message.clone();
            if let Some(help) = &p.help {
                message.push_str("\nhelp: ");
                message.push_str(help);
            }
            Diagnostic {
                range: range(src, p.span.start, p.span.end),
                severity: Some(DiagnosticSeverity::ERROR),
                source: Some("deckspec".into()),
                message,
                ..Diagnostic::default()
            }
        })
        .collect()
}

/// The variant the file plays: the first `Given a <variant> game …`.
pub fn variant_name(src: &str) -> Option<&str> {
    src.lines().find_map(|line| {
        let rest = line.trim_start().strip_prefix("Given a ")?;
        let (name, after) = rest.split_once(' ')?;
        after.starts_with("game").then_some(name)
    })
}

/// The variant the file plays, loaded.
fn variant(src: &str, provider: &ScriptProvider) -> Option<Arc<Variant>> {
    provider.load(variant_name(src)?).ok()
}

/// A word under the cursor that the server knows.
#[derive(Debug, PartialEq)]
pub enum Word<'s> {
    /// `@rule:ID`: the id.
    Rule(&'s str),
    /// The action after `<player> does`.
    Action(&'s str),
}

/// The known word at byte `at` of `src`, with its bytes.
pub fn word_at(src: &str, at: usize) -> Option<(Word<'_>, usize, usize)> {
    let at = at.min(src.len());
    let line_start = src[..at].rfind('\n').map_or(0, |i| i + 1);
    let line_end = src[at..].find(['\n', '\r']).map_or(src.len(), |i| at + i);
    let line = &src[line_start..line_end];
    let mut start = 0;
    for token in line.split(' ') {
        let (from, to) = (line_start + start, line_start + start + token.len());
        start += token.len() + 1;
        if !(from..=to).contains(&at) || token.is_empty() {
            continue;
        }
        if let Some(id) = token.strip_prefix("@rule:") {
            return Some((Word::Rule(id), from, to));
        }
        // The word after ` does ` (`When ann does draw_stockpile 7S`).
        let before = line[..from - line_start].trim_end();
        if before.ends_with(" does") || before.ends_with(" do") {
            return Some((Word::Action(token), from, to));
        }
    }
    None
}

/// What a hover over byte `at` shows: a rule's text and source, an action's doc and who may
/// send it.
pub fn hover(src: &str, at: usize, provider: &ScriptProvider) -> Option<(String, Range)> {
    let (word, from, to) = word_at(src, at)?;
    let variant = variant(src, provider)?;
    let text = match word {
        Word::Rule(id) => {
            let rule = variant.rulebook.rules.iter().find(|r| r.id == id)?;
            format!(
                "**{}** ({})\n\n{}\n\nSource: {}",
                rule.id, variant.rulebook.variant, rule.text, rule.source
            )
        }
        Word::Action(name) => {
            variant.table().actions.iter().find(|a| &*a.name == name)?;
            let doc = variant.action_docs.get(name).map_or("", String::as_str);
            format!("**{name}** (an action of {})\n\n{doc}", variant.name)
        }
    };
    Some((text, range(src, from, to)))
}

/// What may be typed at byte `at`: the variant's actions after `does`, its rule ids after
/// `@rule:`, and the step keywords at the start of a line.
pub fn completions(src: &str, at: usize, provider: &ScriptProvider) -> Vec<CompletionItem> {
    let at = at.min(src.len());
    let line_start = src[..at].rfind('\n').map_or(0, |i| i + 1);
    let typed = &src[line_start..at];
    let partial = typed.rsplit(' ').next().unwrap_or("");
    let before = typed[..typed.len() - partial.len()].trim_end();
    let mut out = Vec::new();
    if let Some(id) = partial.strip_prefix("@rule:") {
        if let Some(variant) = variant(src, provider) {
            for rule in variant
                .rulebook
                .rules
                .iter()
                .filter(|r| r.id.starts_with(id))
            {
                out.push(CompletionItem {
                    label: format!("@rule:{}", rule.id),
                    kind: Some(CompletionItemKind::REFERENCE),
                    detail: Some(rule.text.clone()),
                    ..CompletionItem::default()
                });
            }
        }
        return out;
    }
    if before.ends_with(" does") || before.ends_with(" do") {
        if let Some(variant) = variant(src, provider) {
            for action in variant.table().actions.iter() {
                if !action.name.starts_with(partial) {
                    continue;
                }
                let doc = variant.action_docs.get(&*action.name).cloned();
                out.push(CompletionItem {
                    label: action.name.to_string(),
                    kind: Some(CompletionItemKind::FUNCTION),
                    detail: Some(format!("an action of {}", variant.name)),
                    documentation: doc.map(|d| {
                        Documentation::MarkupContent(MarkupContent {
                            kind: MarkupKind::Markdown,
                            value: d,
                        })
                    }),
                    ..CompletionItem::default()
                });
            }
        }
        return out;
    }
    if before.is_empty() {
        for keyword in ["Given", "When", "Then", "And", "But"] {
            if keyword.starts_with(partial) {
                out.push(CompletionItem {
                    label: keyword.to_string(),
                    kind: Some(CompletionItemKind::KEYWORD),
                    ..CompletionItem::default()
                });
            }
        }
    }
    out
}

/// Where the word at byte `at` is defined: a rule's entry in its rulebook, an action's hook
/// (`fn on_<action>`) in the variant's scripts. The file, and the byte range there.
pub fn definition(
    src: &str,
    at: usize,
    provider: &ScriptProvider,
    rules_dir: &std::path::Path,
) -> Option<(PathBuf, String, usize, usize)> {
    let (word, _, _) = word_at(src, at)?;
    let variant = variant(src, provider)?;
    match word {
        Word::Rule(id) => {
            let owner = variant.rulebook_from.as_deref().unwrap_or(&variant.name);
            let path = rules_dir.join(owner).join("rulebook.yaml");
            let text = std::fs::read_to_string(&path).ok()?;
            let needle = format!("id: {id}");
            let start = text
                .match_indices(&needle)
                .find(|(i, _)| {
                    let end = i + needle.len();
                    text[end..].chars().next().is_none_or(|c| c.is_whitespace())
                })?
                .0;
            let end = start + needle.len();
            Some((path, text, start, end))
        }
        Word::Action(name) => {
            let needle = format!("fn on_{name}(");
            variant
                .rule_scripts()
                .into_iter()
                .find_map(|(path, source)| {
                    let start = source.find(&needle)?;
                    let end = start + needle.len() - 1;
                    Some((path, source, start, end))
                })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Word, variant_name, word_at};

    #[test]
    fn the_word_under_the_cursor_is_a_rule_tag_or_an_action_after_does() {
        let src = "  @rule:CAM-SNAP-5 @slow\n    When bob does snap 9C\n";
        let tag = src.find("SNAP").unwrap();
        assert_eq!(word_at(src, tag), Some((Word::Rule("CAM-SNAP-5"), 2, 18)));
        let snap = src.find("snap 9C").unwrap();
        assert_eq!(
            word_at(src, snap + 2),
            Some((Word::Action("snap"), snap, snap + 4))
        );
        assert_eq!(word_at(src, src.find("9C").unwrap()), None);
        assert_eq!(word_at(src, src.find("bob").unwrap()), None);
    }

    #[test]
    fn the_variant_is_the_first_new_game_step() {
        let src = "Feature: f\n  Background:\n    Given a cambia game with players ann, bob\n";
        assert_eq!(variant_name(src), Some("cambia"));
        assert_eq!(variant_name("Feature: f\n"), None);
    }
}
