//! Static checks of what a scenario says about cards against the game it sets up: every card it
//! names is in this game's deck (house rules included), no card is placed more often than the
//! deck has it, and hands, slots and counts fit the variant's bounds.

use super::check::contains;
use super::run::literal_value;
use crate::kernel::limits::MAX_PLAYERS;
use crate::kernel::table::{FACE_CODES, face_code};
use crate::kernel::{Face, Table, Value};
use crate::spec::ast::*;
use crate::spec::diag::{LineIndex, Problem};
use std::collections::HashMap;

/// The deck a scenario's game is dealt from, by face.
pub(super) struct Deck {
    /// How many cards of each face, by `face_code`.
    counts: [usize; FACE_CODES],
    size: usize,
    /// Why there are no jokers, when there are none, and the house rule that would add them.
    no_jokers: String,
    /// Whether the scenario names its deck (`the deck is …`).
    reduced: bool,
    jokers_rule: Option<String>,
    /// False when the setup may be missing a step (its file has a parse problem there): the
    /// deck is then unknown, and no problem is reported about it.
    known: bool,
}

impl Deck {
    /// The deck for the house rules the scenario's setup Givens set (defaults for the others).
    /// `known` is false when a setup step may be missing.
    pub(super) fn of(table: &Table, setup: &[Step], known: bool) -> Deck {
        let mut house: Vec<Value> = table.house_rules.iter().map(|h| h.1.clone()).collect();
        let mut set = |name: &Spanned<String>, value: &Spanned<Literal>| {
            if let Some(i) = table.house_rule(&name.node)
                && let Some(slot) = house.get_mut(i)
            {
                *slot = literal_value(&value.node);
            }
        };
        for step in setup {
            match &step.body {
                Some(StepBody::HouseRule { name, value }) => set(name, value),
                Some(StepBody::HouseRules(rows)) => rows.iter().for_each(|(n, v)| set(n, v)),
                _ => {}
            }
        }
        let named = setup.iter().find_map(|step| match &step.body {
            Some(StepBody::DeckIs(faces)) => Some(faces.iter().map(|f| f.node).collect::<Vec<_>>()),
            _ => None,
        });
        let reduced = named.is_some();
        let faces = named.unwrap_or_else(|| table.deck_for(&house));
        let mut counts = [0; FACE_CODES];
        for face in &faces {
            counts[face_code(*face)] += 1;
        }
        let jokers_rule = table
            .deck
            .jokers_rule
            .filter(|_| table.deck.jokers > 0)
            .and_then(|rule| table.house_rules.get(rule))
            .map(|h| h.0.clone());
        let no_jokers = match &jokers_rule {
            _ if reduced => "the deck this scenario names has none".to_string(),
            Some(rule) => format!(
                "{} has jokers only while the house rule {rule} is true",
                table.variant
            ),
            None => format!("{} plays without jokers", table.variant),
        };
        Deck {
            counts,
            size: faces.len(),
            no_jokers,
            reduced,
            jokers_rule,
            known,
        }
    }

    fn count(&self, face: Face) -> usize {
        self.counts.get(face_code(face)).copied().unwrap_or(0)
    }

    /// A problem when `face` is not in the deck at all.
    fn absent(&self, face: Face, span: Span) -> Option<Problem> {
        (self.known && self.count(face) == 0).then(|| {
            let why = if face.is_joker() {
                self.no_jokers.clone()
            } else if self.reduced {
                "the deck this scenario names".to_string()
            } else {
                "a standard deck of 52 cards".to_string()
            };
            Problem::new(
                format!("there is no {face} in this game's deck ({why})"),
                span,
                "not in the deck",
            )
            .with_help(
                self.jokers_rule
                    .as_ref()
                    .filter(|_| face.is_joker() && !self.reduced)
                    .map(|rule| format!("set `the house rule {rule} is true` to play with jokers")),
            )
        })
    }
}

fn times(n: usize) -> String {
    match n {
        1 => "once".into(),
        2 => "twice".into(),
        n => format!("{n} times"),
    }
}

fn how_many(n: usize) -> String {
    match n {
        1 => "one".into(),
        2 => "two".into(),
        n => n.to_string(),
    }
}

/// Problems with the cards, slots and counts of one step.
pub(super) fn check_step(step: &Step, table: &Table, deck: &Deck, out: &mut Vec<Problem>) {
    let Some(body) = &step.body else { return };
    let max_slots = table.max_hand_slots;
    let at = step.text_span;
    let slot_problem = |slot: u32, span: Span| {
        Problem::new(
            format!(
                "slot {slot} does not exist: a hand in {} has slots 0 to {}",
                table.variant,
                max_slots.saturating_sub(1)
            ),
            span,
            "no such slot",
        )
    };
    // The faces the step names, each where it is written.
    let mut faces: Vec<(Face, Span)> = Vec::new();
    let mut action_args = |action: &ActionCall, faces: &mut Vec<(Face, Span)>| {
        for arg in &action.args {
            match &arg.node {
                ArgExpr::Card(face) => faces.push((*face, arg.span)),
                ArgExpr::Slot { slot, .. } if *slot as usize >= max_slots => {
                    out.push(slot_problem(*slot, arg.span))
                }
                _ => {}
            }
        }
    };
    let mut problems = Vec::new();
    match body {
        StepBody::NewGame { players, .. } => {
            if let Some(p) = players.get(MAX_PLAYERS) {
                problems.push(Problem::new(
                    format!("a game has at most {MAX_PLAYERS} players"),
                    p.span,
                    "one too many",
                ));
            }
        }
        StepBody::Holds { cards, .. } => {
            if let Some(beyond) = cards.get(max_slots) {
                problems.push(
                    Problem::new(
                        format!(
                            "{} slots are listed, but a hand in {} has at most {max_slots}",
                            cards.len(),
                            table.variant
                        ),
                        beyond.span,
                        "beyond the last slot",
                    )
                    .with_help(Some(format!(
                        "`max_hand_slots` in rules/{}/variant.yaml sets how many slots a hand may have",
                        table.variant
                    ))),
                );
            }
            for card in cards {
                if let SlotPattern::Card(face) = card.node {
                    faces.push((face, card.span));
                }
            }
        }
        StepBody::HoldsCount { count, .. } if *count as usize > max_slots => {
            problems.push(Problem::new(
                format!(
                    "a hand in {} holds at most {max_slots} cards, not {count}",
                    table.variant
                ),
                at,
                "cannot hold",
            ))
        }
        StepBody::SlotIs { slot, card, .. } => {
            if *slot as usize >= max_slots {
                problems.push(slot_problem(*slot, at));
            }
            faces.extend(card.map(|face| (face, at)));
        }
        StepBody::DrawPileIs(list) | StepBody::DiscardPileIs(list) => {
            faces.extend(list.iter().map(|f| (f.node, f.span)));
        }
        StepBody::DeckIs(list) => {
            let mut seen: Vec<Face> = Vec::new();
            for card in list {
                if !card.node.is_joker() && seen.contains(&card.node) {
                    problems.push(
                        Problem::new(
                            format!("{} is named twice: a deck has each card once", card.node),
                            card.span,
                            "named twice",
                        )
                        .with_help(Some("only jokers (JK) may be named more than once".into())),
                    );
                }
                seen.push(card.node);
            }
            if list.len() > crate::kernel::limits::MAX_DECK_CARDS {
                problems.push(Problem::new(
                    format!(
                        "a deck has at most {} cards, not {}",
                        crate::kernel::limits::MAX_DECK_CARDS,
                        list.len()
                    ),
                    at,
                    "too many cards",
                ));
            }
        }
        StepBody::DrawPileHas(n) if deck.known && *n as usize > deck.size => {
            problems.push(Problem::new(
                format!(
                    "the draw pile cannot have {n} cards: this game's deck has {}",
                    deck.size
                ),
                at,
                "too many",
            ))
        }
        StepBody::DrawPileTop(face) | StepBody::DiscardPileTop(face) => faces.push((*face, at)),
        StepBody::FaceState { slots, .. } => {
            for slot in slots.iter().filter(|s| s.node as usize >= max_slots) {
                problems.push(slot_problem(slot.node, slot.span));
            }
        }
        StepBody::Knows { target, .. }
        | StepBody::DoesNotKnow { target, .. }
        | StepBody::EveryoneKnows(target) => match target {
            KnowTarget::Card(face) => faces.push((*face, at)),
            KnowTarget::Slot { slot, .. } if *slot as usize >= max_slots => {
                problems.push(slot_problem(*slot, at))
            }
            KnowTarget::Slot { .. } => {}
        },
        StepBody::Did { action, .. }
        | StepBody::Does { action, .. }
        | StepBody::MayDo { action, .. }
        | StepBody::BotChose {
            action: Some(action),
            ..
        } => action_args(action, &mut faces),
        _ => {}
    }
    out.extend(problems);
    out.extend(
        faces
            .into_iter()
            .filter_map(|(face, span)| deck.absent(face, span)),
    );
}

/// Problems when the setup Givens place a face more often than the deck has it: at the card
/// that is one too many. In an outline's run, a problem that a cell of the row takes part in
/// says so.
pub(super) fn check_placements(
    setup: &[Step],
    deck: &Deck,
    row: Option<Span>,
    lines: &LineIndex,
    out: &mut Vec<Problem>,
) {
    if !deck.known {
        return;
    }
    let mut placed: HashMap<Face, Vec<Span>> = HashMap::new();
    for step in setup {
        let cards: Vec<(Face, Span)> = match &step.body {
            Some(StepBody::Holds { cards, .. }) => cards
                .iter()
                .filter_map(|c| match c.node {
                    SlotPattern::Card(face) => Some((face, c.span)),
                    _ => None,
                })
                .collect(),
            Some(StepBody::DrawPileIs(faces) | StepBody::DiscardPileIs(faces)) => {
                faces.iter().map(|f| (f.node, f.span)).collect()
            }
            _ => continue,
        };
        for (face, span) in cards {
            let spans = placed.entry(face).or_default();
            spans.push(span);
            let have = deck.count(face);
            if spans.len() != have + 1 || have == 0 {
                continue;
            }
            let in_row = |s: &Span| row.is_some_and(|row| contains(row, *s));
            let suffix = match row {
                Some(_) if in_row(&span) => format!(
                    " (the step on line {}, with this row)",
                    lines.line(step.span.start)
                ),
                Some(row) if spans.iter().any(in_row) => {
                    format!(" (with the Examples row on line {})", lines.line(row.start))
                }
                _ => String::new(),
            };
            out.push(
                Problem::new(
                    format!(
                        "{face} is placed {}, but this game's deck has {}{suffix}",
                        times(spans.len()),
                        how_many(have)
                    ),
                    span,
                    "one too many",
                )
                .with_help(Some(
                    "each card is in one place: name it in one hand or pile only".into(),
                )),
            );
        }
    }
}
