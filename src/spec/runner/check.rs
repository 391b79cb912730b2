//! Static checks of one scenario against its variant, before anything runs: players, actions,
//! house rules, phases, properties, events, bot levels and rule tags, each with a suggestion.

use super::position::{Deck, check_placements, check_step};
use super::{Concrete, Unavailable, VariantProvider};
use crate::spec::ast::*;
use crate::spec::diag::{LineIndex, Problem, suggestion};
use std::collections::HashSet;

/// Static checks of one scenario against its variant: names of players, actions, house rules,
/// phases, properties, events and rule tags, each with a suggestion; the cards, slots and counts
/// of its steps against the game's deck and bounds. `lines` indexes the scenario's file: a
/// problem with a value from an Examples row names the step's line.
///
/// `complete` is false for a scenario whose file has a parse problem inside it (or inside its
/// Background): steps may be missing, so only what a missing step cannot change is checked
/// (not the deck, which house rules change, nor which step comes first).
pub fn check(
    scenario: &Concrete,
    provider: &dyn VariantProvider,
    tag_spans: &[Tag],
    lines: &LineIndex,
    complete: bool,
) -> Vec<Problem> {
    let mut problems = Vec::new();
    let Some(first) = scenario.steps.first() else {
        if !complete {
            return Vec::new();
        }
        return vec![Problem::new(
            "a scenario needs steps, starting with `Given a <variant> game with players …`",
            scenario.span,
            "this scenario",
        )];
    };
    let Some(StepBody::NewGame { variant, players }) = &first.body else {
        if !complete {
            return Vec::new();
        }
        return vec![Problem::new(
            "the first step must be `Given a <variant> game with players …`",
            first.span,
            "expected the game step here",
        )];
    };
    let v = match provider.variant(&variant.node) {
        Ok(v) => v,
        Err(reason) => {
            // A variant that exists but does not load is not misspelled: no suggestion.
            let names = provider.names();
            let help = (reason == Unavailable::Unknown)
                .then(|| {
                    suggestion(&variant.node, names.iter().map(String::as_str)).or_else(|| {
                        (!names.is_empty())
                            .then(|| format!("the variants are: {}", names.join(", ")))
                    })
                })
                .flatten();
            return vec![
                Problem::new(
                    format!("variant `{}` cannot be used: {reason}", variant.node),
                    variant.span,
                    "this variant",
                )
                .with_help(help),
            ];
        }
    };
    let table = v.table();
    // A scenario that expects its setup to be refused (`Then the setup is rejected`) may describe
    // a game the rules refuse: its player count and house-rule ranges are the run's to judge.
    let expects_rejection = scenario
        .steps
        .iter()
        .any(|s| matches!(s.body, Some(StepBody::SetupRejected { .. })));
    // More than any game may have is said by the bounds check.
    if !expects_rejection
        && players.len() <= crate::kernel::limits::MAX_PLAYERS
        && !table.players.contains(players.len())
    {
        problems.push(Problem::new(
            format!(
                "{} is for {} players, not {}: {}",
                table.variant,
                table.players,
                players.len(),
                table.players.bound_for(players.len())
            ),
            first.span,
            "this game",
        ));
    }
    let names: Vec<&str> = players.iter().map(|p| p.node.as_str()).collect();
    let mut seen_players = HashSet::new();
    for p in players {
        if !seen_players.insert(&p.node) {
            problems.push(Problem::new(
                format!("player `{}` is listed twice", p.node),
                p.span,
                "again here",
            ));
        }
    }
    let player = |n: &Name, problems: &mut Vec<Problem>| {
        if !names.contains(&n.node.as_str()) {
            problems.push(
                Problem::new(
                    format!("`{}` is not a player of this game", n.node),
                    n.span,
                    "unknown player",
                )
                .with_help(
                    suggestion(&n.node, names.iter().copied())
                        .or_else(|| Some(format!("the players are: {}", names.join(", ")))),
                ),
            );
        }
    };
    let rule_ids = v.rule_ids();
    for tag in tag_spans {
        if let Some(id) = tag.name.strip_prefix("rule:")
            && !rule_ids.iter().any(|r| r == id)
        {
            problems.push(
                Problem::new(
                    format!(
                        "rule `{id}` is not in rules/{}/rulebook.yaml",
                        table.variant
                    ),
                    tag.span,
                    "unknown rule",
                )
                .with_help(suggestion(id, rule_ids.iter().map(String::as_str))),
            );
        }
    }
    let known =
        |kind: &str, word: &Spanned<String>, candidates: Vec<&str>, problems: &mut Vec<Problem>| {
            if !candidates.contains(&word.node.as_str()) {
                problems.push(
                    Problem::new(
                        format!("`{}` is not {kind} of {}", word.node, table.variant),
                        word.span,
                        format!(
                            "unknown {}",
                            kind.trim_start_matches("a ").trim_start_matches("an ")
                        ),
                    )
                    .with_help(suggestion(&word.node, candidates.iter().copied())),
                );
            }
        };
    let actions: Vec<&str> = table.actions.iter().map(|a| &*a.name).collect();
    let house: Vec<&str> = table.house_rules.iter().map(|h| h.0.as_str()).collect();
    let phases: Vec<&str> = table.phases.iter().map(|p| p.name.as_str()).collect();
    let events: Vec<&str> = table.events.iter().map(|e| &**e).collect();
    let setup_end = scenario
        .steps
        .iter()
        .position(|s| s.kind != StepKind::Given)
        .unwrap_or(scenario.steps.len());
    let setup = &scenario.steps[..setup_end];
    let deck = Deck::of(table, setup, complete);
    let mut from_row: Vec<(Problem, Vec<usize>)> = Vec::new();
    let mut decks = 0;
    for step in &scenario.steps {
        let Some(body) = &step.body else { continue };
        let before = problems.len();
        check_step(step, table, &deck, &mut problems);
        match body {
            StepBody::NewGame { .. } if !std::ptr::eq(step, first) => problems.push(Problem::new(
                "only the first step may start a game",
                step.span,
                "a second game step",
            )),
            StepBody::DeckIs(_) => {
                decks += 1;
                if decks > 1 {
                    problems.push(Problem::new(
                        "the deck is named once in a scenario",
                        step.span,
                        "a second deck step",
                    ));
                }
            }
            StepBody::HouseRule { name, value } => {
                known("a house rule", name, house.clone(), &mut problems);
                if !expects_rejection {
                    house_value(table, name, value, &mut problems);
                }
            }
            StepBody::HouseRules(rows) => {
                for (name, value) in rows {
                    known("a house rule", name, house.clone(), &mut problems);
                    if !expects_rejection {
                        house_value(table, name, value, &mut problems);
                    }
                }
            }
            StepBody::Holds { player: p, .. }
            | StepBody::HoldsCount { player: p, .. }
            | StepBody::SlotIs { player: p, .. }
            | StepBody::FaceState { player: p, .. }
            | StepBody::Turn(p)
            | StepBody::ScoreIs { player: p, .. }
            | StepBody::Receives { player: p } => player(p, &mut problems),
            StepBody::Knows { player: p, target } | StepBody::DoesNotKnow { player: p, target } => {
                player(p, &mut problems);
                if let KnowTarget::Slot { owner, .. } = target {
                    player(owner, &mut problems);
                }
            }
            StepBody::EveryoneKnows(KnowTarget::Slot { owner, .. }) => player(owner, &mut problems),
            StepBody::Did { player: p, action }
            | StepBody::Does { player: p, action }
            | StepBody::MayDo {
                player: p, action, ..
            }
            | StepBody::BotChose {
                player: p,
                action: Some(action),
            } => {
                player(p, &mut problems);
                known("an action", &action.name, actions.clone(), &mut problems);
                for arg in &action.args {
                    if let ArgExpr::Slot { owner: Some(o), .. } = &arg.node {
                        player(o, &mut problems);
                    }
                }
            }
            StepBody::Win(ps) => ps.iter().for_each(|p| player(p, &mut problems)),
            StepBody::BotSeat { player: p, level } => {
                player(p, &mut problems);
                let levels = v.bot_levels();
                if levels.is_empty() {
                    problems.push(Problem::new(
                        format!("{} has no computer players (no bots.yaml)", table.variant),
                        level.span,
                        "no such bot",
                    ));
                } else {
                    known(
                        "a bot level",
                        level,
                        levels.iter().map(String::as_str).collect(),
                        &mut problems,
                    );
                }
            }
            StepBody::BotActs { player: p }
            | StepBody::BotChose {
                player: p,
                action: None,
            } => player(p, &mut problems),
            StepBody::PhaseIs(phase) => known("a phase", phase, phases.clone(), &mut problems),
            StepBody::Property {
                player: p, name, ..
            } => {
                let key = name.node.replace(' ', "_");
                let vars: Vec<&str> = match p {
                    Some(p) => {
                        player(p, &mut problems);
                        table.player_vars.iter().map(|v| v.0.as_str()).collect()
                    }
                    None => table.game_vars.iter().map(|v| v.0.as_str()).collect(),
                };
                if !vars.contains(&key.as_str()) {
                    let kind = if p.is_some() {
                        "a player property"
                    } else {
                        "a property"
                    };
                    problems.push(
                        Problem::new(
                            format!("`{}` is not {kind} of {}", name.node, table.variant),
                            name.span,
                            "unknown property",
                        )
                        .with_help(
                            suggestion(&key, vars.iter().copied()).or_else(|| {
                                Some(format!("the properties are: {}", vars.join(", ")))
                            }),
                        ),
                    );
                }
            }
            StepBody::Sees {
                audience, event, ..
            } => {
                match audience {
                    Audience::Only(p) | Audience::Player(p) | Audience::NotPlayer(p) => {
                        player(p, &mut problems)
                    }
                    Audience::Everyone | Audience::Nobody => {}
                }
                known("an event", event, events.clone(), &mut problems);
            }
            StepBody::SeesInOrder {
                player: p,
                events: names,
            } => {
                player(p, &mut problems);
                for event in names {
                    known("an event", event, events.clone(), &mut problems);
                }
            }

            _ => {}
        }
        // A value that came from an Examples row is shown at its cell, once, with the lines of
        // the steps that use it.
        if let Some(row) = scenario.example_row {
            for problem in problems.split_off(before) {
                if !contains(row, problem.span) {
                    problems.push(problem);
                    continue;
                }
                let line = lines.line(step.span.start);
                match from_row.iter_mut().find(|(p, _)| *p == problem) {
                    Some((_, used_by)) => used_by.push(line),
                    None => from_row.push((problem, vec![line])),
                }
            }
        }
    }
    for (mut problem, used_by) in from_row {
        let used_by: Vec<String> = used_by.iter().map(usize::to_string).collect();
        problem.message.push_str(&match used_by.as_slice() {
            [one] => format!(" (the step on line {one}, with this row)"),
            [init @ .., last] => format!(
                " (the steps on lines {} and {last}, with this row)",
                init.join(", ")
            ),
            [] => String::new(),
        });
        problems.push(problem);
    }
    check_placements(setup, &deck, scenario.example_row, lines, &mut problems);
    problems
}

/// The variant a scenario's first step names, if it names one.
pub fn variant_of(scenario: &Concrete) -> Option<&Spanned<String>> {
    match scenario.steps.first().and_then(|s| s.body.as_ref()) {
        Some(StepBody::NewGame { variant, .. }) => Some(variant),
        _ => None,
    }
}

/// A house rule's value against the type and range the variant declares for it.
fn house_value(
    table: &crate::kernel::Table,
    name: &Spanned<String>,
    value: &Spanned<Literal>,
    problems: &mut Vec<Problem>,
) {
    use crate::kernel::HouseRuleProblem;
    let Some(i) = table.house_rule(&name.node) else {
        return;
    };
    let v = super::run::literal_value(&value.node);
    let message = match table.check_house_rule(i, &v) {
        Ok(()) => return,
        Err(HouseRuleProblem::Type { expected }) => {
            format!("house rule `{}` takes {expected}, not `{v}`", name.node)
        }
        Err(HouseRuleProblem::Range { reason }) => format!("house rule `{}` {reason}", name.node),
    };
    problems.push(Problem::new(message, value.span, "this value"));
}

/// Whether `inner` lies within `outer`.
pub(super) fn contains(outer: Span, inner: Span) -> bool {
    outer.start <= inner.start && inner.end <= outer.end
}
