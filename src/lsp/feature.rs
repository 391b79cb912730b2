//! What the server knows of a `.feature` buffer: its problems as `deckspec check` finds them,
//! the word under the cursor (a `@rule:` tag, an action, an event, a phase, a house rule), what
//! may be typed where the cursor is (step forms, players, cards, the variant's names), and where
//! a name is defined (a rule in its rulebook, an action's hook in the scripts) or cited.

use super::position::{Target, line_at, range};
use crate::scenarios::ScriptProvider;
use crate::script::Variant;
use crate::script::host::reference::NameKind;
use crate::script::variant::describe;
use crate::spec::ast::StepKind;
use crate::spec::suite;
use lsp_types::{
    CompletionItem, CompletionItemKind, Diagnostic, DiagnosticSeverity, Documentation,
    InsertTextFormat, MarkupContent, MarkupKind, Range,
};
use std::path::{Path, PathBuf};
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

/// The players the file's first `Given a <variant> game with players …` names.
pub fn player_names(src: &str) -> Vec<&str> {
    src.lines()
        .find_map(|line| line.split_once(" game with players "))
        .map(|(_, names)| {
            names
                .split([','])
                .flat_map(|n| n.split(" and "))
                .map(str::trim)
                .filter(|n| !n.is_empty())
                .collect()
        })
        .unwrap_or_default()
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
    /// An action: after `does`, `did`, `may do`, `may not do`, `bot chose`.
    Action(&'s str),
    /// An event: after `sees`, `see`, or in a `sees, in order:` list.
    Event(&'s str),
    /// A phase: after `the phase is`.
    Phase(&'s str),
    /// A house rule: after `the house rule`.
    HouseRule(&'s str),
}

/// What the words before a position of a step ask for there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Slot {
    Action,
    Event,
    Phase,
    HouseRule,
    Card,
    Level,
}

/// What `before` (a line's text up to a word, trimmed at its end) asks for next.
fn slot_after(before: &str) -> Option<Slot> {
    let ends = |words: &[&str]| words.iter().any(|w| before.ends_with(w));
    if ends(&[" does", " did", " may do", " may not do", " bot chose"]) {
        return Some(Slot::Action);
    }
    if ends(&[" sees", " see", "in order:"])
        || (before.ends_with(',') && before.contains(" sees, in order:"))
    {
        return Some(Slot::Event);
    }
    if before.ends_with("the phase is") {
        return Some(Slot::Phase);
    }
    if before.ends_with("the house rule") {
        return Some(Slot::HouseRule);
    }
    if ends(&[" is a", " is an"]) {
        return Some(Slot::Level);
    }
    let holds_list = before.contains(" holds ") && before.ends_with(',');
    let pile_list = before.contains(" pile is ") && before.ends_with(',');
    if holds_list
        || pile_list
        || ends(&[" holds", " pile is", " top is", " knows", " not know"])
        || (before.contains("'s slot ") && before.ends_with(" is"))
    {
        return Some(Slot::Card);
    }
    None
}

/// The known word at byte `at` of `src`, with its bytes.
pub fn word_at(src: &str, at: usize) -> Option<(Word<'_>, usize, usize)> {
    let (line_start, line) = line_at(src, at);
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
        let before = line[..from - line_start].trim_end();
        let word = token.trim_end_matches([',', ':']);
        let to = from + word.len();
        return match slot_after(before)? {
            Slot::Action => Some((Word::Action(word), from, to)),
            Slot::Event => Some((Word::Event(word), from, to)),
            Slot::Phase => Some((Word::Phase(word), from, to)),
            Slot::HouseRule => Some((Word::HouseRule(word), from, to)),
            Slot::Card | Slot::Level => None,
        };
    }
    None
}

/// An event's fields as the scripts write them, in words.
fn event_fields(variant: &Variant, event: &str) -> String {
    match variant.event_fields.get(event) {
        Some(fields) if !fields.is_empty() => {
            let fields: Vec<String> = fields.iter().map(|f| format!("`{f}`")).collect();
            format!("Fields: {}", fields.join(", "))
        }
        _ => "Fields: none written in a `broadcast` or `tell` call".to_string(),
    }
}

/// A house rule's Markdown: its type, default, range and doc.
fn house_rule_markdown(variant: &Variant, name: &str) -> Option<String> {
    let h = variant.house_rules.iter().find(|h| h.name == name)?;
    Some(format!(
        "**{}** (a house rule of {}: {})\n\n{}",
        h.name,
        variant.name,
        describe::house_rule_about(h),
        h.doc
    ))
}

/// What a hover over byte `at` shows: a rule's text and source, an action's doc and forms, an
/// event's fields, a phase, a house rule's type, default and range.
pub fn hover(src: &str, at: usize, provider: &ScriptProvider) -> Option<(String, Range)> {
    let (word, from, to) = word_at(src, at)?;
    let variant = variant(src, provider)?;
    let table = variant.table();
    let text = match word {
        Word::Rule(id) => {
            let rule = variant.rulebook.rules.iter().find(|r| r.id == id)?;
            format!(
                "**{}** ({})\n\n{}\n\nSource: {}",
                rule.id, variant.rulebook.variant, rule.text, rule.source
            )
        }
        Word::Action(name) => {
            let action = table.actions.iter().find(|a| &*a.name == name)?;
            describe::action_markdown(&variant, action)
        }
        Word::Event(name) => {
            table.events.iter().find(|e| &***e == name)?;
            format!(
                "**{name}** (an event of {})\n\n{}",
                variant.name,
                event_fields(&variant, name)
            )
        }
        Word::Phase(name) => {
            let phase = table.phases.iter().find(|p| p.name == name)?;
            let setup = if phase.setup { " (a setup phase)" } else { "" };
            format!("**{name}**: a phase of {}{setup}", variant.name)
        }
        Word::HouseRule(name) => house_rule_markdown(&variant, name)?,
    };
    Some((text, range(src, from, to)))
}

fn markdown(value: String) -> Documentation {
    Documentation::MarkupContent(MarkupContent {
        kind: MarkupKind::Markdown,
        value,
    })
}

fn item(label: &str, kind: CompletionItemKind, detail: String) -> CompletionItem {
    CompletionItem {
        label: label.to_string(),
        kind: Some(kind),
        detail: Some(detail),
        ..CompletionItem::default()
    }
}

/// The kind of the step at byte `line_start`: its keyword's, or for `And`/`But` the kind of the
/// step before it.
fn step_kind(src: &str, line_start: usize) -> Option<StepKind> {
    for line in src[..line_start].lines().rev().chain(std::iter::once("")) {
        let word = line.trim_start().split(' ').next().unwrap_or("");
        match word {
            "Given" => return Some(StepKind::Given),
            "When" => return Some(StepKind::When),
            "Then" => return Some(StepKind::Then),
            _ if line.trim_start().starts_with("Scenario") => return None,
            _ => {}
        }
    }
    None
}

/// A step form as a snippet: each `<placeholder>` a tab stop.
fn snippet(form: &str) -> String {
    let mut out = String::new();
    let mut stop = 0;
    let mut rest = form;
    while let Some(open) = rest.find('<') {
        let Some(close) = rest[open..].find('>') else {
            break;
        };
        out.push_str(&rest[..open].replace('$', "\\$"));
        stop += 1;
        out.push_str(&format!("${{{stop}:{}}}", &rest[open + 1..open + close]));
        rest = &rest[open + close + 1..];
    }
    out.push_str(&rest.replace('$', "\\$"));
    out
}

/// Every card face a scenario may write, for completion.
fn card_faces(variant: &Variant) -> Vec<String> {
    let ranks = [
        "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K",
    ];
    let mut out: Vec<String> = ranks
        .iter()
        .flat_map(|r| ["S", "H", "D", "C"].map(|s| format!("{r}{s}")))
        .collect();
    if variant.table().deck.jokers > 0 {
        out.push("JK".into());
    }
    out
}

/// What may be typed at byte `at`: step keywords at the start of a line, step forms and players
/// after a keyword, the variant's actions (with their forms), an action's words, events and
/// their fields, phases, house rules and their values, bot levels, cards, and rule ids after
/// `@rule:`.
pub fn completions(src: &str, at: usize, provider: &ScriptProvider) -> Vec<CompletionItem> {
    let at = super::position::floor_char_boundary(src, at.min(src.len()));
    let (line_start, _) = line_at(src, at);
    let typed = &src[line_start..at];
    let partial = typed.rsplit(' ').next().unwrap_or("");
    let before = typed[..typed.len() - partial.len()].trim_end();
    let keep = |label: &str| label.starts_with(partial);
    let mut out = Vec::new();
    let Some(variant) = variant(src, provider) else {
        if before.is_empty() {
            out.extend(keywords(partial));
        }
        return out;
    };
    let table = variant.table();
    if let Some(id) = partial.strip_prefix("@rule:") {
        for rule in variant
            .rulebook
            .rules
            .iter()
            .filter(|r| r.id.starts_with(id))
        {
            out.push(item(
                &format!("@rule:{}", rule.id),
                CompletionItemKind::REFERENCE,
                rule.text.clone(),
            ));
        }
        return out;
    }
    if before.is_empty() {
        out.extend(keywords(partial));
        return out;
    }
    let words: Vec<&str> = before.split_whitespace().collect();
    // Right after the keyword: the step forms of its kind, and the players.
    if words.len() == 1 && ["Given", "When", "Then", "And", "But"].contains(&words[0]) {
        let kind = match words[0] {
            "Given" => Some(StepKind::Given),
            "When" => Some(StepKind::When),
            "Then" => Some(StepKind::Then),
            _ => step_kind(src, line_start),
        };
        if let Some(kind) = kind {
            for form in crate::spec::parse::step_forms(kind).filter(|f| keep(f)) {
                let mut it = item(form, CompletionItemKind::SNIPPET, "a step form".into());
                it.insert_text = Some(snippet(form));
                it.insert_text_format = Some(InsertTextFormat::SNIPPET);
                out.push(it);
            }
        }
        for player in player_names(src).into_iter().filter(|p| keep(p)) {
            out.push(item(
                player,
                CompletionItemKind::VARIABLE,
                "a player".into(),
            ));
        }
        return out;
    }
    // A house rule's value: `the house rule <name> is `.
    if let [.., "house", "rule", name, "is"] = words[..]
        && let Some(h) = variant.house_rules.iter().find(|h| h.name == name)
    {
        let values: Vec<String> = match &h.kind {
            crate::kernel::HouseRuleType::Boolean => vec!["true".into(), "false".into()],
            crate::kernel::HouseRuleType::Choice(c) => c.clone(),
            _ => vec![describe::shown(&h.default)],
        };
        for v in values.iter().filter(|v| keep(v)) {
            out.push(item(
                v,
                CompletionItemKind::VALUE,
                describe::house_rule_about(h),
            ));
        }
        return out;
    }
    // An event's field: `sees <event> with `.
    if let [.., "sees" | "see", event, "with"] = words[..] {
        for field in variant.event_fields.get(event).into_iter().flatten() {
            if keep(field) {
                out.push(item(
                    field,
                    CompletionItemKind::FIELD,
                    format!("a field of {event}"),
                ));
            }
        }
        return out;
    }
    // An action's words: `does <action> `.
    if let [.., "does" | "did" | "do" | "chose", action] = words[..]
        && let Some(decl) = table.actions.iter().find(|a| &*a.name == action)
    {
        for form in &decl.forms {
            if let Some(crate::kernel::ArgDomain::Word(w)) = form.args.first()
                && keep(w)
                && !out.iter().any(|i: &CompletionItem| &i.label == w)
            {
                out.push(item(
                    w,
                    CompletionItemKind::ENUM_MEMBER,
                    format!("a form of {action}"),
                ));
            }
        }
        return out;
    }
    match slot_after(before) {
        Some(Slot::Action) => {
            for action in table.actions.iter().filter(|a| keep(&a.name)) {
                let mut it = item(
                    &action.name,
                    CompletionItemKind::FUNCTION,
                    describe::forms(table, action).join(" · "),
                );
                it.documentation = Some(markdown(describe::action_markdown(&variant, action)));
                out.push(it);
            }
        }
        Some(Slot::Event) => {
            for event in table.events.iter().filter(|e| keep(e)) {
                let mut it = item(
                    event,
                    CompletionItemKind::EVENT,
                    format!("an event of {}", variant.name),
                );
                it.documentation = Some(markdown(event_fields(&variant, event)));
                out.push(it);
            }
        }
        Some(Slot::Phase) => {
            for phase in table.phases.iter().filter(|p| keep(&p.name)) {
                out.push(item(
                    &phase.name,
                    CompletionItemKind::ENUM_MEMBER,
                    format!("a phase of {}", variant.name),
                ));
            }
        }
        Some(Slot::HouseRule) => {
            for h in variant.house_rules.iter().filter(|h| keep(&h.name)) {
                let mut it = item(
                    &h.name,
                    CompletionItemKind::PROPERTY,
                    describe::house_rule_about(h),
                );
                it.documentation = Some(markdown(h.doc.clone()));
                out.push(it);
            }
        }
        Some(Slot::Level) => {
            let levels = variant.bots.iter().flat_map(|b| b.levels());
            for level in levels.filter(|l| keep(l)) {
                out.push(item(
                    level,
                    CompletionItemKind::ENUM_MEMBER,
                    "a bot level".into(),
                ));
            }
        }
        Some(Slot::Card) => {
            for face in card_faces(&variant).iter().filter(|f| keep(f)) {
                out.push(item(face, CompletionItemKind::CONSTANT, "a card".into()));
            }
        }
        None => {}
    }
    out
}

fn keywords(partial: &str) -> Vec<CompletionItem> {
    ["Given", "When", "Then", "And", "But"]
        .iter()
        .filter(|k| k.starts_with(partial))
        .map(|k| CompletionItem {
            label: k.to_string(),
            kind: Some(CompletionItemKind::KEYWORD),
            ..CompletionItem::default()
        })
        .collect()
}

/// Where the word at byte `at` is defined: a rule's entry in its rulebook, an action's hook
/// (`fn on_<action>`) in the variant's scripts, a phase, event or house rule in `variant.yaml`.
pub fn definition(
    src: &str,
    at: usize,
    provider: &ScriptProvider,
    rules_dir: &Path,
) -> Option<Target> {
    let (word, _, _) = word_at(src, at)?;
    let variant = variant(src, provider)?;
    match word {
        Word::Rule(id) => rule_entry(&variant, id, rules_dir),
        Word::Action(name) => hook(&variant, name),
        Word::Event(name) => super::script::declaration(provider, &variant, NameKind::Event, name),
        Word::Phase(name) => super::script::declaration(provider, &variant, NameKind::Phase, name),
        Word::HouseRule(name) => {
            super::script::declaration(provider, &variant, NameKind::HouseRule, name)
        }
    }
}

/// A rule's `id:` line in the rulebook the variant reads.
pub fn rule_entry(variant: &Variant, id: &str, rules_dir: &Path) -> Option<Target> {
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
    Some(Target {
        path,
        text,
        start,
        end,
    })
}

/// An action's hook, `fn on_<action>(`, in the variant's scripts.
pub fn hook(variant: &Variant, action: &str) -> Option<Target> {
    let needle = format!("fn on_{action}(");
    variant.rule_scripts().into_iter().find_map(|(path, text)| {
        let start = text.find(&needle)?;
        let end = start + needle.len() - 1;
        Some(Target {
            path,
            text,
            start,
            end,
        })
    })
}

/// Every `@rule:<id>` tag in `sources` (scenario files with their texts).
pub fn citations(id: &str, sources: &[(PathBuf, String)]) -> Vec<Target> {
    let needle = format!("@rule:{id}");
    let mut out = Vec::new();
    for (path, text) in sources {
        for (start, _) in text.match_indices(&needle) {
            let end = start + needle.len();
            let whole = text[end..].chars().next().is_none_or(|c| c.is_whitespace());
            if whole {
                out.push(Target {
                    path: path.clone(),
                    text: text.clone(),
                    start,
                    end,
                });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{Slot, Word, player_names, slot_after, snippet, variant_name, word_at};

    #[test]
    fn the_word_under_the_cursor_is_a_rule_tag_or_a_name_a_step_takes() {
        let src = "  @rule:CAM-SNAP-5 @slow\n    When bob does snap 9C\n    Then the phase is game_over\n    Then ann sees, in order: a, player_snap\n";
        let tag = src.find("SNAP").unwrap();
        assert_eq!(word_at(src, tag), Some((Word::Rule("CAM-SNAP-5"), 2, 18)));
        let snap = src.find("snap 9C").unwrap();
        assert_eq!(
            word_at(src, snap + 2),
            Some((Word::Action("snap"), snap, snap + 4))
        );
        assert_eq!(word_at(src, src.find("9C").unwrap()), None);
        assert_eq!(word_at(src, src.find("bob").unwrap()), None);
        let over = src.find("game_over").unwrap();
        assert_eq!(
            word_at(src, over),
            Some((Word::Phase("game_over"), over, over + 9))
        );
        let a = src.find(": a,").unwrap() + 2;
        assert_eq!(word_at(src, a), Some((Word::Event("a"), a, a + 1)));
        let ps = src.find("player_snap").unwrap();
        assert_eq!(
            word_at(src, ps + 3),
            Some((Word::Event("player_snap"), ps, ps + 11))
        );
    }

    #[test]
    fn the_words_before_a_position_say_what_it_takes() {
        assert_eq!(slot_after("When ann does"), Some(Slot::Action));
        assert_eq!(slot_after("Then bob may not do"), Some(Slot::Action));
        assert_eq!(slot_after("Then everyone sees"), Some(Slot::Event));
        assert_eq!(slot_after("Given the house rule"), Some(Slot::HouseRule));
        assert_eq!(slot_after("Given ann holds 7S,"), Some(Slot::Card));
        assert_eq!(slot_after("Then ann's slot 0 is"), Some(Slot::Card));
        assert_eq!(slot_after("Given ann is a"), Some(Slot::Level));
        assert_eq!(slot_after("Given the seed is"), None);
    }

    #[test]
    fn the_variant_and_players_are_the_first_new_game_steps() {
        let src =
            "Feature: f\n  Background:\n    Given a cambia game with players ann, bob and cid\n";
        assert_eq!(variant_name(src), Some("cambia"));
        assert_eq!(player_names(src), ["ann", "bob", "cid"]);
        assert_eq!(variant_name("Feature: f\n"), None);
    }

    #[test]
    fn a_step_form_becomes_a_snippet_with_a_stop_for_each_placeholder() {
        assert_eq!(
            snippet("<player>'s slot <n> is <card>"),
            "${1:player}'s slot ${2:n} is ${3:card}"
        );
        assert_eq!(snippet("time runs out"), "time runs out");
    }
}
