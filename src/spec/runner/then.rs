//! The Thens: each checks the game against what the step says, and a mismatch says what was
//! expected and what was found. Also the texts that describe actions and places in failures.

use super::run::{Failure, Run, faces_text, literal_text};
use crate::kernel::{Action, Arg, CardIdx, Face, Game, Loc, Payload, RuleError, Seat, Value};
use crate::spec::ast::*;
use serde_json::Value as Json;

impl Run<'_> {
    /// `<player>'s bot chose …` / `… waited`: compare with the last `bot acts`, cards by identity
    /// (a slot names the card that was in it when the bot chose).
    pub(super) fn bot_chose(
        &self,
        step: &Step,
        player: &Name,
        expected: Option<&ActionCall>,
    ) -> Result<(), Failure> {
        let seat = self.seat(player);
        let Some((who, chosen, before)) = &self.bot_choice else {
            return Err(Failure::at(
                step,
                format!(
                    "no bot has acted yet: write `When {}'s bot acts` first",
                    player.node
                ),
            ));
        };
        if *who != seat {
            return Err(Failure::at(
                step,
                format!(
                    "the last bot to act was {}'s, not {}'s",
                    before.state.players[who.index()],
                    player.node
                ),
            ));
        }
        let found = chosen
            .as_ref()
            .map_or("to wait".to_string(), |a| describe_action(before, a));
        let expected = match expected {
            None => None,
            Some(call) => Some(self.action(step, player, call)?),
        };
        let same = match (&expected, chosen) {
            (None, None) => true,
            (Some(e), Some(c)) => {
                let key = |a: &Action| -> Vec<Result<CardIdx, Arg>> {
                    a.args
                        .iter()
                        .map(|arg| arg_card(before, a.seat, arg))
                        .collect()
                };
                e.name == c.name && key(e) == key(c)
            }
            _ => false,
        };
        if !same {
            let wanted = expected
                .as_ref()
                .map_or("to wait".to_string(), |a| describe_action(before, a));
            return Err(Failure::mismatch(
                step,
                format!("{}'s bot chose {wanted}", player.node),
                format!("it chose {found}"),
            ));
        }
        Ok(())
    }

    pub(super) fn then(&mut self, step: &Step, body: &StepBody) -> Result<(), Failure> {
        let st = &self.game.state;
        let table = self.game.table.clone();
        match body {
            StepBody::Rejected { reason } => {
                let Some((actual, _)) = self.refusal.take() else {
                    return Err(Failure::mismatch(
                        step,
                        "the last action to be rejected",
                        if self.last_accepted {
                            "it was accepted"
                        } else {
                            "there was no action"
                        },
                    ));
                };
                if let Some(reason) = reason
                    && !actual.to_lowercase().contains(&reason.node.to_lowercase())
                {
                    return Err(Failure::mismatch(
                        step,
                        format!("rejected with \"{}\"", reason.node),
                        format!("rejected with \"{actual}\""),
                    ));
                }
            }
            StepBody::Holds { player, cards } => {
                let seat = self.seat(player);
                let mut hand: Vec<Option<Face>> = st
                    .hand(seat)
                    .iter()
                    .map(|c| c.map(|c| st.face(c)))
                    .collect();
                while hand.last() == Some(&None) {
                    hand.pop();
                }
                let mut want: Vec<SlotPattern> = cards.iter().map(|c| c.node).collect();
                while want.last() == Some(&SlotPattern::Empty) {
                    want.pop();
                }
                let ok = hand.len() == want.len()
                    && hand.iter().zip(&want).all(|(h, w)| match w {
                        SlotPattern::Any => h.is_some(),
                        SlotPattern::Empty => h.is_none(),
                        SlotPattern::Card(f) => *h == Some(*f),
                    });
                if !ok {
                    let expected = want
                        .iter()
                        .map(|w| match w {
                            SlotPattern::Any => "?".into(),
                            SlotPattern::Empty => "_".into(),
                            SlotPattern::Card(f) => f.to_string(),
                        })
                        .collect::<Vec<_>>()
                        .join(", ");
                    return Err(Failure::mismatch(
                        step,
                        format!("{} holds {expected}", player.node),
                        format!("{} holds {}", player.node, faces_text(&hand)),
                    ));
                }
            }
            StepBody::HoldsCount { player, count } => {
                let n = st.hand(self.seat(player)).iter().flatten().count();
                if n != *count as usize {
                    return Err(Failure::mismatch(
                        step,
                        format!("{count} cards"),
                        format!("{n} cards"),
                    ));
                }
            }
            StepBody::SlotIs { player, slot, card } => {
                let found = st
                    .hand(self.seat(player))
                    .get(*slot as usize)
                    .copied()
                    .flatten()
                    .map(|c| st.face(c));
                if found != *card {
                    let text = |f: Option<Face>| f.map_or("empty".to_string(), |f| f.to_string());
                    return Err(Failure::mismatch(step, text(*card), text(found)));
                }
            }
            StepBody::DrawPileIs(faces) | StepBody::DiscardPileIs(faces) => {
                let is_draw = matches!(body, StepBody::DrawPileIs(_));
                let pile = if is_draw {
                    table.draw_pile
                } else {
                    table.discard_pile
                };
                let pile =
                    pile.ok_or_else(|| Failure::at(step, "this variant has no such pile"))?;
                let actual: Vec<Option<Face>> = st
                    .pile(pile)
                    .iter()
                    .rev()
                    .map(|&c| Some(st.face(c)))
                    .collect();
                let want: Vec<Option<Face>> = faces.iter().map(|f| Some(f.node)).collect();
                // The draw pile is compared from the top as far as listed; the discard pile whole.
                let ok = if is_draw {
                    actual.starts_with(&want)
                } else {
                    actual == want
                };
                if !ok {
                    let shown = if is_draw {
                        &actual[..actual.len().min(want.len().max(1))]
                    } else {
                        &actual[..]
                    };
                    return Err(Failure::mismatch(
                        step,
                        faces_text(&want),
                        faces_text(shown),
                    ));
                }
            }
            StepBody::DrawPileHas(n) => {
                let len = st.pile(table.draw_pile.expect("draw pile")).len();
                if len != *n as usize {
                    return Err(Failure::mismatch(
                        step,
                        format!("{n} cards"),
                        format!("{len} cards"),
                    ));
                }
            }
            StepBody::DiscardPileHas(n) => {
                let Some(pile) = table.discard_pile else {
                    return Err(Failure::at(
                        step,
                        format!("{} has no discard pile", table.variant),
                    ));
                };
                let len = st.pile(pile).len();
                if len != *n as usize {
                    return Err(Failure::mismatch(
                        step,
                        format!("{n} cards"),
                        format!("{len} cards"),
                    ));
                }
            }
            StepBody::SetupRejected { .. } => {
                return Err(Failure::mismatch(
                    step,
                    "the rules refuse to set up this game",
                    "the game was set up",
                ));
            }
            StepBody::SeesInOrder { player, events } => {
                let seat = self.seat(player);
                let received: Vec<&str> = self
                    .game
                    .events_for(seat, self.marker)
                    .map(|e| &*e.name)
                    .collect();
                let mut rest = received.iter();
                let missing = events
                    .iter()
                    .find(|want| !rest.any(|got| *got == want.node));
                if let Some(missing) = missing {
                    let wanted: Vec<&str> = events.iter().map(|e| e.node.as_str()).collect();
                    return Err(Failure::mismatch(
                        step,
                        format!("{} sees, in order: {}", player.node, wanted.join(", ")),
                        format!(
                            "no {} after the events before it; {} saw: {}",
                            missing.node,
                            player.node,
                            if received.is_empty() {
                                "nothing".to_string()
                            } else {
                                received.join(", ")
                            }
                        ),
                    ));
                }
            }
            StepBody::MayDo {
                player,
                action,
                allowed,
            } => {
                let action = self.action(step, player, action)?;
                let mut trial = self.game.trial();
                let verdict = trial.apply(self.rules, &action);
                let command = describe_action(&self.game, &action);
                match (verdict, *allowed) {
                    (Ok(()), true) | (Err(RuleError::Refused(_)), false) => {}
                    (Ok(()), false) => {
                        return Err(Failure::mismatch(
                            step,
                            format!("{} may not do {command}", player.node),
                            "the rules accept it",
                        ));
                    }
                    (Err(RuleError::Refused(reason)), true) => {
                        return Err(Failure::mismatch(
                            step,
                            format!("{} may do {command}", player.node),
                            format!("the rules refuse it: {reason}"),
                        ));
                    }
                    (Err(fault), _) => {
                        return Err(Failure::rule(step, self.rules, "script error", &fault));
                    }
                }
            }
            StepBody::DrawPileTop(face) | StepBody::DiscardPileTop(face) => {
                let pile = if matches!(body, StepBody::DrawPileTop(_)) {
                    table.draw_pile
                } else {
                    table.discard_pile
                };
                let pile =
                    pile.ok_or_else(|| Failure::at(step, "this variant has no such pile"))?;
                let top = st.pile(pile).last().map(|&c| st.face(c));
                if top != Some(*face) {
                    return Err(Failure::mismatch(
                        step,
                        face.to_string(),
                        top.map_or("an empty pile".into(), |f| f.to_string()),
                    ));
                }
            }
            StepBody::Turn(player) => {
                let current = st.current.map(|s| st.players[s.index()].clone());
                if current.as_deref() != Some(player.node.as_str()) || self.game.is_over() {
                    let found = if self.game.is_over() {
                        "the game is over".to_string()
                    } else {
                        current.map_or("nobody's turn".into(), |c| format!("{c}'s turn"))
                    };
                    return Err(Failure::mismatch(
                        step,
                        format!("{}'s turn", player.node),
                        found,
                    ));
                }
            }
            StepBody::PhaseIs(phase) => {
                let actual = table.phase_name(st.phase);
                if actual != phase.node {
                    return Err(Failure::mismatch(
                        step,
                        phase.node.clone(),
                        actual.to_string(),
                    ));
                }
            }
            StepBody::Knows { player, target } | StepBody::DoesNotKnow { player, target } => {
                let seat = self.seat(player);
                let card = self.target(step, seat, target)?;
                let positive = matches!(body, StepBody::Knows { .. });
                let face = st.face(card);
                if positive && !st.knows(seat, card) {
                    return Err(Failure::mismatch(
                        step,
                        format!("{} knows {face}", player.node),
                        format!("{} does not know it", player.node),
                    ));
                }
                if !positive {
                    if st.knows(seat, card) {
                        return Err(Failure::mismatch(
                            step,
                            format!("{} does not know {face}", player.node),
                            format!("{} knows it", player.node),
                        ));
                    }
                    if self.game.ever_saw(seat, card) {
                        return Err(Failure::mismatch(
                            step,
                            format!("{} was never shown {face}", player.node),
                            format!("an event delivered to {} showed it", player.node),
                        ));
                    }
                }
            }
            StepBody::EveryoneKnows(target) => {
                let card = match target {
                    KnowTarget::Card(face) => self.card(step, *face, None)?,
                    KnowTarget::Slot { owner, .. } => {
                        self.target(step, self.seat(owner), target)?
                    }
                };
                let unaware: Vec<&str> = (0..st.player_count())
                    .filter(|&s| !st.knows(Seat(s as u8), card))
                    .map(|s| st.players[s].as_str())
                    .collect();
                if !unaware.is_empty() {
                    return Err(Failure::mismatch(
                        step,
                        format!("every player knows {}", st.face(card)),
                        format!(
                            "{} {} not",
                            unaware.join(" and "),
                            if unaware.len() == 1 { "does" } else { "do" }
                        ),
                    ));
                }
            }
            StepBody::FaceState { player, slots, up } => {
                let seat = self.seat(player);
                let side = |up: bool| if up { "face up" } else { "face down" };
                for slot in slots {
                    let target = KnowTarget::Slot {
                        owner: player.clone(),
                        slot: slot.node,
                    };
                    let card = self.target(step, seat, &target)?;
                    if st.is_face_up(card) != *up {
                        return Err(Failure::mismatch(
                            step,
                            format!("{}'s slot {} is {}", player.node, slot.node, side(*up)),
                            format!("{} lies {}", st.face(card), side(!*up)),
                        ));
                    }
                }
            }
            StepBody::ScoreIs { player, score } => {
                let seat = self.seat(player);
                let mut trial = self.game.trial();
                let actual = self
                    .rules
                    .score(&mut trial, seat)
                    .map_err(|e| Failure::rule(step, self.rules, "scoring failed", &e))?;
                if actual.to_string() != score.node && (actual as f64).to_string() != score.node {
                    return Err(Failure::mismatch(
                        step,
                        score.node.clone(),
                        actual.to_string(),
                    ));
                }
            }
            StepBody::Win(players) => {
                let Some(outcome) = &st.outcome else {
                    return Err(Failure::mismatch(
                        step,
                        "the game to be over",
                        "the game is not over",
                    ));
                };
                let mut want: Vec<&str> = players.iter().map(|p| p.node.as_str()).collect();
                let mut got: Vec<&str> = outcome
                    .winners
                    .iter()
                    .map(|s| st.players[s.index()].as_str())
                    .collect();
                want.sort();
                got.sort();
                if want != got {
                    let found = if got.is_empty() {
                        "a draw".into()
                    } else {
                        format!("winners: {}", got.join(", "))
                    };
                    return Err(Failure::mismatch(
                        step,
                        format!("winners: {}", want.join(", ")),
                        found,
                    ));
                }
            }
            StepBody::Draw => match &st.outcome {
                Some(o) if o.winners.is_empty() => {}
                Some(o) => {
                    let got: Vec<&str> = o
                        .winners
                        .iter()
                        .map(|s| st.players[s.index()].as_str())
                        .collect();
                    return Err(Failure::mismatch(
                        step,
                        "a draw",
                        format!("winners: {}", got.join(", ")),
                    ));
                }
                None => {
                    return Err(Failure::mismatch(
                        step,
                        "the game to be over (a draw)",
                        "the game is not over",
                    ));
                }
            },
            StepBody::Over | StepBody::NotOver => {
                let want = matches!(body, StepBody::Over);
                if self.game.is_over() != want {
                    let text = |over: bool| {
                        if over {
                            "the game is over"
                        } else {
                            "the game is not over"
                        }
                    };
                    return Err(Failure::mismatch(step, text(want), text(!want)));
                }
            }
            StepBody::Property {
                player,
                name,
                value,
            } => {
                let key = name.node.replace(' ', "_");
                let actual = match player {
                    Some(p) => table
                        .player_var(&key)
                        .map(|i| &st.player_vars[self.seat(p).index()][i]),
                    None => table.game_var(&key).map(|i| &st.game_vars[i]),
                };
                let Some(actual) = actual else {
                    return Err(Failure::at(
                        step,
                        format!("`{}` is not a property of {}", name.node, table.variant),
                    ));
                };
                let found = self.value_text(actual);
                let expected = literal_text(&value.node);
                let same = found == expected
                    || (matches!(actual, Value::Unit)
                        && ["none", "null", "nobody", "()"].contains(&expected.as_str()));
                if !same {
                    return Err(Failure::mismatch(step, expected, found));
                }
            }
            StepBody::Sees {
                audience,
                event,
                fields,
                times,
            } => self.sees(step, audience, event, fields, *times)?,
            StepBody::Receives { player } => {
                let doc = step.doc.as_ref().ok_or_else(|| {
                    Failure::at(step, "`receives:` needs a doc string with a JSON object")
                })?;
                let seat = self.seat(player);
                let expected = self.fill_card_ids(step, seat, &doc.content)?;
                let expected: Json = serde_json::from_str(&expected)
                    .map_err(|e| Failure::at(step, format!("the doc string is not JSON: {e}")))?;
                let events = self.game.rendered_events(seat, self.marker);
                if !events.iter().any(|e| subset(&expected, e)) {
                    let found = if events.is_empty() {
                        format!("no events for {}", player.node)
                    } else {
                        match super::diff::closest(&expected, &events) {
                            Some((event, diff)) => format!(
                                "the closest, {}:\n{}",
                                event.get("type").map_or_else(
                                    || "an event".to_string(),
                                    |t| format!("a {t} event")
                                ),
                                diff.join("\n")
                            ),
                            None => {
                                let kinds: Vec<String> = events
                                    .iter()
                                    .map(|e| e.get("type").map_or("?".into(), Json::to_string))
                                    .collect();
                                format!(
                                    "no {} event; {} received {}",
                                    expected.get("type").map_or("such".into(), Json::to_string),
                                    player.node,
                                    kinds.join(", ")
                                )
                            }
                        }
                    };
                    return Err(Failure::mismatch(
                        step,
                        format!("an event containing {expected}"),
                        found,
                    ));
                }
            }
            StepBody::BotChose { player, action } => {
                self.bot_chose(step, player, action.as_ref())?
            }
            StepBody::NewGame { .. }
            | StepBody::Seed(_)
            | StepBody::DeckIs(_)
            | StepBody::HouseRule { .. }
            | StepBody::HouseRules(_)
            | StepBody::Did { .. }
            | StepBody::Does { .. }
            | StepBody::BotSeat { .. }
            | StepBody::BotActs { .. }
            | StepBody::TimePasses { .. }
            | StepBody::TimeRunsOut => {
                return Err(Failure::at(step, "this step is not a Then step"));
            }
        }
        Ok(())
    }

    /// Replace `"{7S}"` in a JSON text by that card's public id. A face the deck has more than
    /// once is the card of it that `receiver` holds, or else the only one outside the draw pile
    /// (see `Run::card`).
    pub(super) fn fill_card_ids(
        &self,
        step: &Step,
        receiver: Seat,
        text: &str,
    ) -> Result<String, Failure> {
        let mut out = text.to_string();
        let mut faces: Vec<Face> = self.game.state.cards.iter().map(|c| c.face).collect();
        faces.sort_by_key(|f| crate::kernel::table::face_code(*f));
        faces.dedup();
        for face in faces {
            let key = format!("\"{{{face}}}\"");
            if out.contains(&key) {
                let card = self.card(step, face, Some(receiver))?;
                let id = self.game.state.cards[card.0 as usize].public_id;
                out = out.replace(
                    &key,
                    &format!("\"{}\"", crate::kernel::event::public_id_text(id)),
                );
            }
        }
        Ok(out)
    }

    pub(super) fn sees(
        &self,
        step: &Step,
        audience: &Audience,
        event: &Spanned<String>,
        fields: &[FieldMatch],
        times: Option<u32>,
    ) -> Result<(), Failure> {
        let st = &self.game.state;
        let count_for = |seat: Seat| -> usize {
            self.game
                .events_for(seat, self.marker)
                .filter(|e| *e.name == *event.node)
                .filter(|e| {
                    let rendered = e.render(st, &self.game.table, seat);
                    fields
                        .iter()
                        .all(|f| self.field_matches(&e.payload, &rendered, f))
                })
                .count()
        };
        let described = || {
            let mut d = event.node.clone();
            for (i, f) in fields.iter().enumerate() {
                d.push_str(if i == 0 { " with " } else { " and " });
                d.push_str(&format!("{} {}", f.path.node, literal_text(&f.value.node)));
            }
            d
        };
        let want = |n: usize| match times {
            Some(t) => n == t as usize,
            None => n >= 1,
        };
        let times_text = times.map_or("at least once".to_string(), |t| format!("{t} times"));
        let seats: Vec<Seat> = (0..st.player_count())
            .filter_map(|i| u8::try_from(i).ok().map(Seat))
            .collect();
        let counts: Vec<(String, usize)> = seats
            .iter()
            .map(|&s| (st.players[s.index()].clone(), count_for(s)))
            .collect();
        let summary = || {
            let mut text = counts
                .iter()
                .map(|(p, n)| format!("{p} saw it {n} times"))
                .collect::<Vec<_>>()
                .join(", ");
            let names: Vec<String> = self
                .game
                .events_since(self.marker)
                .iter()
                .map(|e| e.name.to_string())
                .collect();
            text.push_str(&format!(
                "; events since the last When: {}",
                if names.is_empty() {
                    "none".into()
                } else {
                    names.join(", ")
                }
            ));
            text
        };
        let ok = match audience {
            Audience::Everyone => counts.iter().all(|(_, n)| want(*n)),
            Audience::Only(p) => counts
                .iter()
                .all(|(name, n)| if *name == p.node { want(*n) } else { *n == 0 }),
            Audience::Player(p) => counts.iter().any(|(name, n)| *name == p.node && want(*n)),
            Audience::NotPlayer(p) => counts.iter().any(|(name, n)| *name == p.node && *n == 0),
            Audience::Nobody => counts.iter().all(|(_, n)| *n == 0),
        };
        if !ok {
            let expected = match audience {
                Audience::Everyone => format!("every player sees {} {times_text}", described()),
                Audience::Only(p) => format!("only {} sees {} {times_text}", p.node, described()),
                Audience::Player(p) => format!("{} sees {} {times_text}", p.node, described()),
                Audience::NotPlayer(p) => format!("{} does not see {}", p.node, described()),
                Audience::Nobody => format!("nobody sees {}", described()),
            };
            return Err(Failure::mismatch(step, expected, summary()));
        }
        Ok(())
    }

    /// Whether one `with <path> <value>` holds for an event as one recipient sees it.
    pub(super) fn field_matches(
        &self,
        payload: &Payload,
        rendered: &Json,
        field: &FieldMatch,
    ) -> bool {
        let st = &self.game.state;
        // Cards and players match by identity, whatever the recipient may see of them.
        if let Some(node) = payload.get_path(&field.path.node) {
            match (node, &field.value.node) {
                (Payload::Card(c), Literal::Card(face)) => return st.face(c.card) == *face,
                (Payload::Player(s), Literal::Word(w)) => return st.players[s.index()] == *w,
                _ => {}
            }
        }
        let mut json = rendered;
        for key in field.path.node.split('.') {
            json = match json {
                Json::Object(map) => match map.get(key) {
                    Some(v) => v,
                    None => return false,
                },
                Json::Array(items) => match key.parse::<usize>().ok().and_then(|i| items.get(i)) {
                    Some(v) => v,
                    None => return false,
                },
                _ => return false,
            };
        }
        match (&field.value.node, json) {
            (Literal::Bool(b), Json::Bool(j)) => b == j,
            (Literal::Number(n), Json::Number(j)) => n.parse::<f64>().ok() == j.as_f64(),
            (Literal::Word(w) | Literal::Text(w), Json::String(s)) => w == s,
            (Literal::Word(w), Json::Object(map)) => {
                map.get("id").and_then(Json::as_str) == Some(w)
            }
            (Literal::Card(f), Json::String(s)) => f.to_string() == *s,
            (Literal::Number(n), Json::String(s)) => n == s,
            (Literal::Word(w), Json::Null) => w == "null" || w == "none",
            _ => false,
        }
    }
}

/// `expected` is contained in `actual`: objects by key, arrays element by element, numbers by value.
pub fn subset(expected: &Json, actual: &Json) -> bool {
    match (expected, actual) {
        (Json::Object(e), Json::Object(a)) => e
            .iter()
            .all(|(k, v)| a.get(k).is_some_and(|av| subset(v, av))),
        (Json::Array(e), Json::Array(a)) => {
            e.len() == a.len() && e.iter().zip(a).all(|(x, y)| subset(x, y))
        }
        (Json::Number(e), Json::Number(a)) => e.as_f64() == a.as_f64(),
        (e, a) => e == a,
    }
}

/// Where a card is, as a short text (for failure messages).
pub fn describe_loc(game: &Game, card: CardIdx) -> String {
    match game.state.cards[card.0 as usize].loc {
        Loc::Hand { seat, slot } => format!("{}'s slot {slot}", game.state.players[seat.index()]),
        Loc::Pile(p) => game.table.piles[p.0 as usize].name.clone(),
    }
}

/// The card an argument of `actor` names in `game` (a slot names the card in it, and a bare
/// number the actor's own slot, as the rule scripts read it), or the argument itself.
fn arg_card(game: &Game, actor: Seat, arg: &Arg) -> Result<CardIdx, Arg> {
    match arg {
        Arg::Card(c) => Ok(*c),
        Arg::Int(i) => usize::try_from(*i)
            .ok()
            .and_then(|i| game.state.hand(actor).get(i).copied().flatten())
            .ok_or_else(|| arg.clone()),
        Arg::Slot { seat, slot } => game
            .state
            .hand(*seat)
            .get(*slot as usize)
            .copied()
            .flatten()
            .ok_or_else(|| arg.clone()),
        other => Err(other.clone()),
    }
}

/// An action as a scenario would write it, each card with where it was: `jack_swap bob's slot 1
/// (7S) and ann's slot 0 (KH)`.
pub fn describe_action(game: &Game, action: &Action) -> String {
    let args: Vec<String> = action
        .args
        .iter()
        .map(|arg| match (arg, arg_card(game, action.seat, arg)) {
            (Arg::Slot { .. }, Ok(card)) | (Arg::Card(_), Ok(card)) => {
                format!("{} ({})", describe_loc(game, card), game.state.face(card))
            }
            (Arg::Slot { seat, slot }, Err(_)) => {
                format!("{}'s slot {slot} (empty)", game.state.players[seat.index()])
            }
            (Arg::Word(w), _) => w.clone(),
            (Arg::Int(i), _) => i.to_string(),
            (Arg::Float(f), _) => f.to_string(),
            (Arg::Drawn, _) => "drawn".into(),
            (Arg::Card(_), Err(_)) => unreachable!("a card argument always names a card"),
        })
        .collect();
    if args.is_empty() {
        action.name.to_string()
    } else {
        format!("{} {}", action.name, args.join(" and "))
    }
}
