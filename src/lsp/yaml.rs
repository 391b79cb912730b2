//! What the server knows of a `variant.yaml` buffer: the keys each part of the variant schema
//! takes (with what each is for) and the values some keys take (`type:`, `role:`, `actor:`, an
//! action's `phases:`), hover over a key, and where an action's hook is. A test holds the keys
//! to the ones the loader accepts.

use super::position::{floor_char_boundary, line_at, range};
use crate::script::Variant;
use lsp_types::{CompletionItem, CompletionItemKind, Documentation, MarkupContent, MarkupKind};

/// A part of `variant.yaml` and the keys it takes.
struct Part {
    /// The keys above it: `*` any name (an entry of a mapping), `-` an item of a list.
    at: &'static [&'static str],
    keys: &'static [(&'static str, &'static str)],
}

/// The variant schema, part by part.
const SCHEMA: &[Part] = &[
    Part {
        at: &[],
        keys: &[
            ("name", "The variant's name (its folder's)."),
            ("description", "What the variant is, in a few words."),
            ("script", "The entry script, relative to this file."),
            (
                "extends",
                "The `variant.yaml` of a variant this one builds on.",
            ),
            (
                "modules",
                "Rhai modules by name, as paths: scripts call `name::function(…)`.",
            ),
            (
                "players",
                "How many players a game may have: `{ min: 2, max: 8 }`.",
            ),
            (
                "deck",
                "The deck: the 52 cards, and jokers if this says so.",
            ),
            (
                "max_hand_slots",
                "The most slots a hand may have (default 64, at most 1024).",
            ),
            (
                "hand_layout",
                "How a hand lies on the table: `{ rows: 2, columns: 2 }`.",
            ),
            (
                "points",
                "Points by rank (`A`, `2`…`10`, `J`, `Q`, `K`, `JK`) or by face (`KH`).",
            ),
            (
                "piles",
                "The piles by name, each with its `role` and `face_up`.",
            ),
            ("phases", "The phases in order; a game starts in the first."),
            ("house_rules", "What a game may set at its start, by name."),
            (
                "vars",
                "The variables the scripts keep (`game:`, `player:`), with starting values.",
            ),
            ("timers", "The names of the timers the scripts may set."),
            ("events", "The names of the events the scripts may send."),
            (
                "actions",
                "The actions players may take, by name; each has an `on_<name>` hook.",
            ),
            ("prove", "The configurations `deckspec prove` explores."),
            (
                "prove_unplayed",
                "Rulebook rules `deckspec prove` cannot play, each with why.",
            ),
        ],
    },
    Part {
        at: &["players"],
        keys: &[("min", "The fewest players."), ("max", "The most players.")],
    },
    Part {
        at: &["deck"],
        keys: &[
            (
                "jokers",
                "How many jokers the deck has besides its 52 cards.",
            ),
            (
                "jokers_house_rule",
                "A boolean house rule: the jokers are in only when it is true.",
            ),
        ],
    },
    Part {
        at: &["hand_layout"],
        keys: &[
            ("rows", "Rows of a hand on the table."),
            ("columns", "Columns of a hand on the table."),
        ],
    },
    Part {
        at: &["piles", "*"],
        keys: &[
            (
                "role",
                "`draw` or `discard`: which pile `the draw pile` / `the discard pile` mean.",
            ),
            (
                "face_up",
                "Cards entering a face-up pile become known to every player.",
            ),
        ],
    },
    Part {
        at: &["house_rules", "*"],
        keys: &[
            (
                "default",
                "The value a game gets when it does not set the rule.",
            ),
            (
                "type",
                "`integer`, `number`, `boolean`, `text`, `choice` or `list`.",
            ),
            ("choices", "For `type: choice`: the words the rule may be."),
            ("doc", "What the rule does."),
            (
                "min",
                "For a number (or a list's entries): the smallest value.",
            ),
            (
                "max",
                "For a number (or a list's entries): the largest value.",
            ),
        ],
    },
    Part {
        at: &["vars"],
        keys: &[
            (
                "game",
                "Game variables, by name, with their starting values.",
            ),
            (
                "player",
                "Player variables, by name: a value, or `{ value: …, public: true }`.",
            ),
        ],
    },
    Part {
        at: &["actions", "*"],
        keys: &[
            (
                "actor",
                "`current` (default), `anyone`, or `var.<game variable holding a player>`.",
            ),
            (
                "phases",
                "The phases the action may be taken in; none given: every phase.",
            ),
            (
                "when",
                "Conditions: `house.<rule>`, `var.<variable>`, `me.<variable>`, `pile.<pile>`.",
            ),
            (
                "forms",
                "The argument lists the action takes; none given: no arguments.",
            ),
            (
                "reveals",
                "`true`: the action turns up a card its actor need not know, by design.",
            ),
            ("doc", "What the action does."),
        ],
    },
    Part {
        at: &["prove", "-"],
        keys: &[
            ("players", "Players per game."),
            (
                "house_rules",
                "House rules that differ from their defaults.",
            ),
            (
                "deck",
                "A reduced deck: the only cards the games are dealt from.",
            ),
            (
                "exhaustive",
                "Every reachable state of each deal must be explored.",
            ),
            ("max_states", "States found per deal, at most."),
        ],
    },
];

/// The keys above byte `at` (the mapping keys of the lines less indented, outermost first; `-`
/// for an item of a list), and the text of the line before the cursor.
fn context(src: &str, at: usize) -> (Vec<String>, &str) {
    let (line_start, _) = line_at(src, at);
    let typed = &src[line_start..at];
    let trimmed = typed.trim_start();
    // The column of the cursor's key, past a `- ` that opens a list item.
    let mut col = typed.len() - trimmed.len();
    let mut path = Vec::new();
    if trimmed.starts_with("- ") {
        path.push("-".to_string());
    }
    let item_col = |line: &str| {
        let t = line.trim_start();
        let depth = line.len() - t.len();
        match t.strip_prefix("- ") {
            Some(_) => (depth, depth + 2, true),
            None => (depth, depth, false),
        }
    };
    for line in src[..line_start].lines().rev() {
        let t = line.trim_start();
        if t.is_empty() || t.starts_with('#') || col == 0 {
            if col == 0 {
                break;
            }
            continue;
        }
        let (depth, key_col, is_item) = item_col(line);
        let key = t
            .trim_start_matches("- ")
            .split_once(':')
            .map(|(k, _)| k.trim());
        if key_col == col && is_item {
            // A key of the same list item: the item is the parent.
            path.push("-".to_string());
            col = depth;
        } else if key_col < col {
            let Some(key) = key else { continue };
            path.push(key.to_string());
            col = depth;
            if is_item {
                path.push("-".to_string());
            }
        }
    }
    path.reverse();
    (path, typed)
}

fn part(path: &[String]) -> Option<&'static Part> {
    SCHEMA.iter().find(|p| {
        p.at.len() == path.len() && p.at.iter().zip(path).all(|(a, k)| *a == "*" || a == k)
    })
}

/// What may be typed at byte `at` of `variant.yaml`: the keys of the part the cursor is in, or
/// the values its key takes.
pub fn completions(src: &str, at: usize, variant: Option<&Variant>) -> Vec<CompletionItem> {
    let at = floor_char_boundary(src, at.min(src.len()));
    let (path, typed) = context(src, at);
    let line = typed.trim_start().trim_start_matches("- ");
    let mut out = Vec::new();
    if let Some((key, value)) = line.split_once(':') {
        let partial = value.rsplit(['[', ',', ' ']).next().unwrap_or("").trim();
        let key = key.trim();
        let values: Vec<(String, &str)> = match (path.first().map(String::as_str), key) {
            (Some("house_rules"), "type") => {
                ["integer", "number", "boolean", "text", "choice", "list"]
                    .iter()
                    .map(|v| (v.to_string(), "a house rule's type"))
                    .collect()
            }
            (Some("piles"), "role") => ["draw", "discard"]
                .iter()
                .map(|v| (v.to_string(), "a pile's role"))
                .collect(),
            (_, "face_up" | "reveals" | "exhaustive") => ["true", "false"]
                .iter()
                .map(|v| (v.to_string(), "a boolean"))
                .collect(),
            (Some("actions"), "actor") => {
                let mut v = vec![
                    ("current".to_string(), "the current player"),
                    ("anyone".to_string(), "any player"),
                ];
                if let Some(variant) = variant {
                    v.extend(
                        variant
                            .table()
                            .game_vars
                            .iter()
                            .map(|g| (format!("var.{}", g.0), "the player in a game variable")),
                    );
                }
                v
            }
            (Some("actions"), "phases") => variant
                .map(|v| {
                    v.table()
                        .phases
                        .iter()
                        .map(|p| (p.name.clone(), "a phase"))
                        .collect()
                })
                .unwrap_or_default(),
            _ => Vec::new(),
        };
        for (value, detail) in values.into_iter().filter(|(v, _)| v.starts_with(partial)) {
            out.push(CompletionItem {
                label: value,
                kind: Some(CompletionItemKind::VALUE),
                detail: Some(detail.to_string()),
                ..CompletionItem::default()
            });
        }
        return out;
    }
    let Some(part) = part(&path) else {
        return out;
    };
    let partial = line.trim();
    for (key, doc) in part.keys.iter().filter(|(k, _)| k.starts_with(partial)) {
        out.push(CompletionItem {
            label: key.to_string(),
            kind: Some(CompletionItemKind::PROPERTY),
            documentation: Some(Documentation::MarkupContent(MarkupContent {
                kind: MarkupKind::Markdown,
                value: doc.to_string(),
            })),
            insert_text: Some(format!("{key}: ")),
            ..CompletionItem::default()
        });
    }
    out
}

/// What a hover over a key of `variant.yaml` shows: what the key is for.
pub fn hover(src: &str, at: usize) -> Option<(String, lsp_types::Range)> {
    let at = floor_char_boundary(src, at.min(src.len()));
    let (line_start, line) = line_at(src, at);
    let text = line.trim_start();
    let item = text.strip_prefix("- ").unwrap_or(text);
    let key_start = line_start + (line.len() - item.len());
    let (key, _) = item.split_once(':')?;
    let key_end = key_start + key.len();
    if !(key_start..=key_end).contains(&at) {
        return None;
    }
    let (path, _) = context(src, key_start);
    let doc = part(&path)?.keys.iter().find(|(k, _)| *k == key.trim())?.1;
    Some((
        format!("`{}`: {doc}", key.trim()),
        range(src, key_start, key_end),
    ))
}

/// The action a line of `variant.yaml` declares (a key directly under `actions:`), at byte `at`.
pub fn action_at(src: &str, at: usize) -> Option<&str> {
    let at = floor_char_boundary(src, at.min(src.len()));
    let (line_start, line) = line_at(src, at);
    let (path, _) = context(src, line_start + (line.len() - line.trim_start().len()));
    let (key, _) = line.trim_start().split_once(':')?;
    (path == ["actions"]).then_some(key.trim())
}

/// The rule id a line of `rulebook.yaml` declares (`- id: CAM-SNAP-5`), at byte `at`.
pub fn rule_id_at(src: &str, at: usize) -> Option<&str> {
    let (_, line) = line_at(src, at);
    let t = line.trim_start();
    let id = t
        .strip_prefix("- ")
        .unwrap_or(t)
        .strip_prefix("id:")?
        .trim();
    (!id.is_empty()).then_some(id.trim_matches(['"', '\'']))
}

#[cfg(test)]
mod tests {
    use super::{SCHEMA, action_at, completions, context, hover, rule_id_at};
    use crate::script::config;
    use std::collections::BTreeSet;

    /// The keys serde says a part takes: its "expected one of" list for an unknown key.
    fn accepted<T: serde::de::DeserializeOwned + std::fmt::Debug>(yaml: &str) -> BTreeSet<String> {
        let error = serde_yaml::from_str::<T>(yaml).unwrap_err().to_string();
        // "expected one of `a`, `b`", "expected `a` or `b`": the quoted words after "expected".
        let (_, list) = error
            .split_once("expected ")
            .unwrap_or_else(|| panic!("{error}"));
        let list = list.split(" at line").next().unwrap_or(list);
        list.split('`')
            .skip(1)
            .step_by(2)
            .map(str::to_string)
            .collect()
    }

    fn keys(at: &[&str]) -> BTreeSet<String> {
        SCHEMA
            .iter()
            .find(|p| p.at == at)
            .unwrap()
            .keys
            .iter()
            .map(|(k, _)| k.to_string())
            .collect()
    }

    #[test]
    fn the_schema_has_the_keys_the_loader_accepts() {
        let bogus = "zz_not_a_key: 1\n";
        assert_eq!(keys(&[]), accepted::<config::VariantFile>(bogus));
        assert_eq!(keys(&["players"]), accepted::<config::PlayersFile>(bogus));
        assert_eq!(keys(&["deck"]), accepted::<config::DeckFile>(bogus));
        assert_eq!(
            keys(&["hand_layout"]),
            accepted::<config::HandLayoutFile>(bogus)
        );
        assert_eq!(keys(&["piles", "*"]), accepted::<config::PileFile>(bogus));
        assert_eq!(
            keys(&["house_rules", "*"]),
            accepted::<config::HouseRuleFile>(bogus)
        );
        assert_eq!(keys(&["vars"]), accepted::<config::VarsFile>(bogus));
        assert_eq!(
            keys(&["actions", "*"]),
            accepted::<config::ActionFile>(bogus)
        );
        assert_eq!(keys(&["prove", "-"]), accepted::<config::ProveFile>(bogus));
    }

    #[test]
    fn the_context_is_the_keys_above_the_cursor() {
        let src = "name: x\nactions:\n  snap:\n    doc: d\n    ph";
        assert_eq!(context(src, src.len()).0, ["actions", "snap"]);
        let src = "prove:\n  - players: 2\n    de";
        assert_eq!(context(src, src.len()).0, ["prove", "-"]);
        let src = "piles:\n  discard:\n    role: discard\nph";
        assert_eq!(context(src, src.len()).0, Vec::<String>::new());
    }

    #[test]
    fn keys_and_values_are_offered_where_they_fit() {
        let labels = |src: &str| -> Vec<String> {
            completions(src, src.len(), None)
                .into_iter()
                .map(|c| c.label)
                .collect()
        };
        assert_eq!(labels("name: x\nactions:\n  snap:\n    re"), ["reveals"]);
        assert_eq!(labels("house_rules:\n  a:\n    type: bo"), ["boolean"]);
        assert_eq!(labels("piles:\n  d:\n    role: d"), ["draw", "discard"]);
        assert!(labels("ex").contains(&"extends".to_string()));
        let src = "actions:\n  snap:\n    doc: d\n";
        let (text, _) = hover(src, src.find("doc").unwrap() + 1).unwrap();
        assert!(text.starts_with("`doc`: What the action does"), "{text}");
        assert_eq!(action_at(src, src.find("snap").unwrap()), Some("snap"));
        assert_eq!(action_at(src, src.find("doc").unwrap()), None);
        assert_eq!(rule_id_at("rules:\n  - id: CAM-1\n", 12), Some("CAM-1"));
    }
}
