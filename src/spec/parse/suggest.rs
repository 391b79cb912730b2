//! "Did you mean": the step form closest to an unknown step, and the word where the step first
//! departs from it.

use super::kind_word;
use crate::spec::ast::{Span, StepKind};

/// A human-readable step form, the words it is compared by, and the kinds it is written with.
struct Template {
    text: &'static str,
    /// Literal words; `*` is one value, `**` any number of words.
    pattern: &'static str,
    kinds: &'static [StepKind],
    /// A catch-all form (`the <property> is <value>`), suggested only when nothing fixed is close.
    general: bool,
}

const GIVEN: &[StepKind] = &[StepKind::Given];
const WHEN: &[StepKind] = &[StepKind::When];
const THEN: &[StepKind] = &[StepKind::Then];
const GIVEN_THEN: &[StepKind] = &[StepKind::Given, StepKind::Then];

const fn template(
    text: &'static str,
    pattern: &'static str,
    kinds: &'static [StepKind],
) -> Template {
    Template {
        text,
        pattern,
        kinds,
        general: false,
    }
}

/// Every step form written with `kind`, as the grammar's README writes it (`<player> holds <card>,
/// <card>, …`), for an editor's completion.
pub fn step_forms(kind: StepKind) -> impl Iterator<Item = &'static str> {
    TEMPLATES
        .iter()
        .filter(move |t| t.kinds.contains(&kind))
        .map(|t| t.text)
}

/// Every step form, for "did you mean". Ties go to the earlier form.
const TEMPLATES: &[Template] = &[
    template(
        "a <variant> game with players <player>, <player>, …",
        "a * game with players **",
        GIVEN,
    ),
    template("the seed is <n>", "the seed is *", GIVEN),
    template(
        "the house rule <name> is <value>",
        "the house rule * is **",
        GIVEN,
    ),
    template("the house rules:", "the house rules :", GIVEN),
    template("<player> holds <card>, <card>, …", "* holds **", GIVEN_THEN),
    template("<player> holds <n> cards", "* holds * cards", THEN),
    template(
        "<player>'s slot <n> is face up",
        "* 's slot * is face up",
        GIVEN_THEN,
    ),
    template(
        "<player>'s slot <n> is face down",
        "* 's slot * is face down",
        GIVEN_THEN,
    ),
    template(
        "<player>'s slots <n> and <n> are face up",
        "* 's slots ** are face up",
        GIVEN_THEN,
    ),
    template("<player>'s slot <n> is <card>", "* 's slot * is *", THEN),
    template(
        "the draw pile is <card>, <card>, …",
        "the draw pile is **",
        GIVEN,
    ),
    template(
        "the draw pile has <n> cards",
        "the draw pile has * cards",
        GIVEN_THEN,
    ),
    template(
        "the draw pile top is <card>",
        "the draw pile top is *",
        THEN,
    ),
    template(
        "the discard pile is <card>, <card>, …",
        "the discard pile is **",
        GIVEN_THEN,
    ),
    template(
        "the discard pile is empty",
        "the discard pile is empty",
        GIVEN_THEN,
    ),
    template(
        "the discard pile top is <card>",
        "the discard pile top is *",
        THEN,
    ),
    template("it is <player>'s turn", "it is * 's turn", GIVEN_THEN),
    template("everyone knows <card or slot>", "everyone knows **", THEN),
    template(
        "the setup is rejected with \"<text>\"",
        "the setup is rejected **",
        THEN,
    ),
    template(
        "the discard pile has <n> cards",
        "the discard pile has * cards",
        THEN,
    ),
    template("nobody sees <event>", "nobody sees **", THEN),
    template(
        "<player> sees, in order: <event>, <event>, …",
        "* sees, in order: **",
        THEN,
    ),
    template("<player> may do <action> [<args>]", "* may do **", THEN),
    template(
        "<player> may not do <action> [<args>]",
        "* may not do **",
        THEN,
    ),
    template("<player> knows <card or slot>", "* knows **", GIVEN_THEN),
    template(
        "<player> does not know <card or slot>",
        "* does not know **",
        THEN,
    ),
    template("<player> did <action> [<args>]", "* did **", GIVEN),
    template("<player> does <action> [<args>]", "* does **", WHEN),
    template("<player> is a <level> bot", "* is a * bot", GIVEN),
    template("<player> is an <level> bot", "* is an * bot", GIVEN),
    template("<player>'s bot acts", "* 's bot acts", WHEN),
    template(
        "<player>'s bot chose <action> [<args>]",
        "* 's bot chose **",
        THEN,
    ),
    template("<player>'s bot waited", "* 's bot waited", THEN),
    template("<n> seconds pass", "* seconds pass", WHEN),
    template("time runs out", "time runs out", WHEN),
    template("the phase is <phase>", "the phase is *", THEN),
    template("the action is rejected", "the action is rejected", THEN),
    template(
        "the action is rejected with \"<text>\"",
        "the action is rejected with **",
        THEN,
    ),
    template("<player>'s score is <n>", "* 's score is *", THEN),
    template("<player> wins", "* wins", THEN),
    template("<player> and <player> win", "* and ** win", THEN),
    template("the game is a draw", "the game is a draw", THEN),
    template("the game is over", "the game is over", THEN),
    template("the game is not over", "the game is not over", THEN),
    template(
        "everyone sees <event> [with <field> <value>] [<n> times]",
        "everyone sees **",
        THEN,
    ),
    template(
        "only <player> sees <event> [with <field> <value>] [<n> times]",
        "only * sees **",
        THEN,
    ),
    template(
        "<player> sees <event> [with <field> <value>] [<n> times]",
        "* sees **",
        THEN,
    ),
    template(
        "<player> does not see <event> [with <field> <value>]",
        "* does not see **",
        THEN,
    ),
    template("<player> receives:", "* receives :", THEN),
    Template {
        text: "<player>'s <property> is <value>",
        pattern: "* 's ** is **",
        kinds: THEN,
        general: true,
    },
    Template {
        text: "the <property> is <value>",
        pattern: "the ** is **",
        kinds: THEN,
        general: true,
    },
];

/// One word of a step for comparing with templates: lower case, with its byte range in the text.
struct Word {
    text: String,
    start: usize,
    end: usize,
}

/// The words of a step for comparing with templates: commas dropped, `'s` and a final `:` split off.
/// Only the first words of a step are compared with the forms, so a long line costs no more
/// than a short one (every form fits in far fewer words).
const COMPARED_WORDS: usize = 32;

/// A word longer than this is too far from every word of every form to be compared letter by
/// letter.
const COMPARED_LEN: usize = 32;

fn step_words(text: &str) -> Vec<Word> {
    let mut words = Vec::new();
    let mut from = 0;
    for raw in text.split_whitespace().take(COMPARED_WORDS) {
        let at = from + text[from..].find(raw).unwrap_or(0);
        from = at + raw.len();
        let lead = raw.len() - raw.trim_start_matches(',').len();
        let mut word = raw.trim_matches(',');
        let start = at + lead;
        let colon = word.ends_with(':');
        if colon {
            word = &word[..word.len() - 1];
        }
        let stem = word
            .strip_suffix("'s")
            .or_else(|| word.strip_suffix("\u{2019}s"))
            .filter(|s| !s.is_empty());
        let mut push = |text: &str, start: usize| {
            words.push(Word {
                text: text.to_lowercase(),
                start,
                end: start + text.len(),
            });
        };
        match stem {
            Some(stem) => {
                push(stem, start);
                push(&word[stem.len()..], start + stem.len());
            }
            None if !word.is_empty() => push(word, start),
            None => {}
        }
        if colon {
            push(":", start + word.len());
        }
    }
    for word in &mut words {
        if word.text == "\u{2019}s" {
            word.text = "'s".to_string();
        }
    }
    words
}

/// Where a step first departs from a template.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Departure {
    /// At this word (misspelled, extra, or where a word is missing).
    Word(usize),
    /// A word is missing at the end.
    End,
}

/// How far the words of a step are from a template pattern, and where they first depart from
/// it: an edit distance where `*` takes one word, `**` any number, and a literal word costs by
/// how much it differs (less than nothing when it matches, so that the form whose words the step
/// uses most wins over a vaguer one).
fn template_cost(words: &[Word], pattern: &[&str]) -> (f64, Option<Departure>) {
    let (n, m) = (words.len(), pattern.len());
    // Each cell: cost, the cell it came from, and whether that move departed from the pattern.
    let mut cells = vec![vec![(f64::INFINITY, (0, 0), false); m + 1]; n + 1];
    cells[0][0].0 = 0.0;
    for i in 0..=n {
        for j in 0..=m {
            let here = cells[i][j].0;
            if here.is_infinite() {
                continue;
            }
            let mut relax = |to: (usize, usize), cost: f64, departs: bool| {
                let cell = &mut cells[to.0][to.1];
                if here + cost < cell.0 {
                    *cell = (here + cost, (i, j), departs);
                }
            };
            let next = pattern.get(j).copied();
            if i < n {
                // An extra word, or one more word for `**`.
                match next {
                    Some("**") => relax((i + 1, j), 0.1, false),
                    _ => relax((i + 1, j), 1.0, true),
                }
            }
            match next {
                None => {}
                Some("**") => relax((i, j + 1), 0.0, false),
                Some(pat) => {
                    relax((i, j + 1), 1.0, true);
                    if i < n {
                        if pat == "*" {
                            relax((i + 1, j + 1), 0.2, false);
                        } else {
                            let word = words[i].text.as_str();
                            let similar = if word.len() > COMPARED_LEN {
                                0.0
                            } else {
                                strsim::jaro_winkler(word, pat)
                                    .max(strsim::normalized_damerau_levenshtein(word, pat))
                            };
                            let cost = if word == pat {
                                -0.5
                            } else if similar >= 0.75 {
                                2.0 * (1.0 - similar) - 0.2
                            } else {
                                2.0 * (1.0 - similar)
                            };
                            relax((i + 1, j + 1), cost, word != pat);
                        }
                    }
                }
            }
        }
    }
    // Walk back to find the first departure.
    let mut departure = None;
    let (mut i, mut j) = (n, m);
    while (i, j) != (0, 0) {
        let (_, from, departs) = cells[i][j];
        if departs {
            departure = Some(if from.0 < n {
                Departure::Word(from.0)
            } else {
                Departure::End
            });
        }
        if from == (i, j) {
            break;
        }
        (i, j) = from;
    }
    (cells[n][m].0, departure)
}

/// The step form closest to `text` (prefixed by its keyword when `kind` cannot use it), and where
/// the text first departs from it.
pub(super) fn closest_template(
    text: &str,
    kind: Option<StepKind>,
) -> (Option<String>, Option<Span>) {
    let words = step_words(text);
    let mut best: Option<(&Template, f64, Option<Departure>)> = None;
    for template in TEMPLATES {
        let pattern: Vec<&str> = template.pattern.split_whitespace().collect();
        let (mut cost, departure) = template_cost(&words, &pattern);
        if template.general {
            cost += 1.0;
        }
        if kind.is_some_and(|k| !template.kinds.contains(&k)) {
            cost += 0.5;
        }
        if best.is_none_or(|(_, c, _)| cost < c - 1e-9) {
            best = Some((template, cost, departure));
        }
    }
    let Some((template, cost, departure)) = best else {
        return (None, None);
    };
    // Too far from everything: better no suggestion than a random one.
    if cost > 2.0 {
        return (None, None);
    }
    let span = departure.map(|d| match d {
        Departure::Word(i) => Span::new(words[i].start, words[i].end),
        Departure::End => Span::new(text.len(), text.len()),
    });
    let text = match kind {
        Some(k) if !template.kinds.contains(&k) => {
            format!("{} {}", kind_word(template.kinds[0]), template.text)
        }
        _ => template.text.to_string(),
    };
    (Some(text), span)
}
