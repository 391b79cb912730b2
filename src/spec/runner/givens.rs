//! The Given position: hands, piles and knowledge placed by re-assigning faces after the
//! variant's own deal (see ARCHITECTURE.md, "Scenario positions by re-assigning faces").

use super::run::{Failure, Run};
use crate::kernel::{CardIdx, Face, Value};
use crate::spec::ast::*;

impl Run<'_> {
    /// Count one more placement of `face`: a face may be placed as often as the deck has it.
    pub(super) fn pin(&mut self, step: &Step, face: Face) -> Result<(), Failure> {
        let have = self
            .game
            .state
            .cards
            .iter()
            .filter(|c| c.face == face)
            .count();
        let placed = self.placed.entry(face).or_insert(0);
        *placed += 1;
        if have == 0 {
            return Err(Failure::at(
                step,
                format!("there is no {face} in this game's deck"),
            ));
        }
        if *placed > have {
            return Err(Failure::at(
                step,
                if have == 1 {
                    format!("{face} is placed twice: each card exists once")
                } else {
                    format!("{face} is placed {placed} times, but this game's deck has {have}")
                },
            ));
        }
        Ok(())
    }

    /// Give `card` the face `face` (it was pinned with `pin`): it swaps faces with a card of
    /// that face that no placement has fixed, and is fixed itself.
    pub(super) fn give_face(
        &mut self,
        step: &Step,
        card: CardIdx,
        face: Face,
    ) -> Result<(), Failure> {
        let st = &mut self.game.state;
        if st.face(card) != face {
            let holder = (0..st.cards.len())
                .filter_map(|i| u16::try_from(i).ok().map(CardIdx))
                .find(|c| *c != card && st.face(*c) == face && !self.pinned.contains(c))
                .ok_or_else(|| {
                    Failure::at(
                        step,
                        format!("every {face} of this game's deck is placed already"),
                    )
                })?;
            let old = st.face(card);
            st.cards[holder.0 as usize].face = old;
            st.cards[card.0 as usize].face = face;
        }
        self.pinned.insert(card);
        Ok(())
    }

    /// A card object from the bottom of the draw pile that no placement has fixed.
    pub(super) fn spare_card(&self, step: &Step) -> Result<CardIdx, Failure> {
        let st = &self.game.state;
        let draw = self.game.table.draw_pile.expect("a draw pile is required");
        st.pile(draw)
            .iter()
            .copied()
            .find(|c| !self.pinned.contains(c))
            .ok_or_else(|| {
                Failure::at(
                    step,
                    "there are not enough cards left in the draw pile to place these",
                )
            })
    }

    pub(super) fn bury_in_draw_pile(&mut self, card: CardIdx) {
        let table = self.game.table.clone();
        let draw = table.draw_pile.expect("a draw pile is required");
        self.game.state.move_under_pile(&table, card, draw);
        self.game.state.cards[card.0 as usize].known_by = 0;
    }

    pub(super) fn place(&mut self, step: &Step, body: &StepBody) -> Result<(), Failure> {
        let table = self.game.table.clone();
        match body {
            StepBody::Holds { player, cards } => {
                let seat = self.seat(player);
                let want = cards.len();
                if want > table.max_hand_slots {
                    return Err(Failure::at(
                        step,
                        format!(
                            "{want} slots are listed, but a hand in {} has at most {}",
                            table.variant, table.max_hand_slots
                        ),
                    ));
                }
                // Fit the hand to the listed slots, then give each slot its face.
                let hand: Vec<Option<CardIdx>> = self.game.state.hand(seat).to_vec();
                for (slot, card) in hand.iter().enumerate() {
                    if let Some(card) = card
                        && (slot >= want || cards[slot].node == SlotPattern::Empty)
                    {
                        self.bury_in_draw_pile(*card);
                    }
                }
                for (slot, pattern) in cards.iter().enumerate() {
                    match pattern.node {
                        SlotPattern::Empty => {}
                        SlotPattern::Any => {
                            return Err(Failure::at(step, "`?` can only be used in Then steps"));
                        }
                        SlotPattern::Card(face) => {
                            self.pin(step, face)?;
                            let card = match self.game.state.hand(seat).get(slot).copied().flatten()
                            {
                                Some(c) => c,
                                None => {
                                    let c = self.spare_card(step)?;
                                    self.game
                                        .state
                                        .move_to_slot(c, seat, slot)
                                        .map_err(|e| Failure::at(step, e.to_string()))?;
                                    c
                                }
                            };
                            self.give_face(step, card, face)?;
                        }
                    }
                }
                self.game.state.trim_hand(seat);
                let hand = &mut self.game.state.hands[seat.index()];
                if hand.len() < want {
                    hand.resize(want, None);
                }
            }
            StepBody::DiscardPileIs(faces) => {
                let discard = table.discard_pile.ok_or_else(|| {
                    Failure::at(step, format!("{} has no discard pile", table.variant))
                })?;
                while self.game.state.pile(discard).len() > faces.len() {
                    let bottom = self.game.state.pile(discard)[0];
                    self.bury_in_draw_pile(bottom);
                }
                while self.game.state.pile(discard).len() < faces.len() {
                    let c = self.spare_card(step)?;
                    self.game.state.move_under_pile(&table, c, discard);
                }
                for (i, face) in faces.iter().enumerate() {
                    self.pin(step, face.node)?;
                    let pile = self.game.state.pile(discard);
                    let card = pile[pile.len() - 1 - i];
                    self.give_face(step, card, face.node)?;
                }
                self.discard_given = Some(faces.len());
            }
            StepBody::DrawPileHas(n) => {
                let draw = table.draw_pile.expect("a draw pile is required");
                let n = *n as usize;
                let discard = table.discard_pile;
                let surplus = self.game.state.pile(draw).len().saturating_sub(n);
                if surplus > 0 && self.discard_given == Some(0) {
                    return Err(Failure::at(
                        step,
                        format!(
                            "the draw pile cannot have {n} cards: the other {surplus} cards would go under the discard pile, but a Given says the discard pile is empty"
                        ),
                    ));
                }
                while self.game.state.pile(draw).len() > n {
                    let Some(discard) = discard else {
                        return Err(Failure::at(
                            step,
                            "surplus cards go under the discard pile, but this variant has none",
                        ));
                    };
                    // Keep the top n; the bottom cards go under the discard pile.
                    let bottom = self.game.state.pile(draw)[0];
                    self.game.state.move_under_pile(&table, bottom, discard);
                }
                if self.game.state.pile(draw).len() < n {
                    return Err(Failure::at(
                        step,
                        format!(
                            "only {} cards are left for the draw pile",
                            self.game.state.pile(draw).len()
                        ),
                    ));
                }
            }
            StepBody::DrawPileIs(faces) => {
                let draw = table.draw_pile.expect("a draw pile is required");
                if self.game.state.pile(draw).len() < faces.len() {
                    return Err(Failure::at(
                        step,
                        format!(
                            "the draw pile holds only {} cards",
                            self.game.state.pile(draw).len()
                        ),
                    ));
                }
                for (i, face) in faces.iter().enumerate() {
                    self.pin(step, face.node)?;
                    let pile = self.game.state.pile(draw);
                    let card = pile[pile.len() - 1 - i];
                    self.give_face(step, card, face.node)?;
                }
            }
            StepBody::Knows { player, target } => {
                let seat = self.seat(player);
                let card = self.target(step, seat, target)?;
                self.game.state.reveal_to(card, seat);
            }
            _ => {}
        }
        Ok(())
    }

    /// `Given ann's slots 0 and 3 are face up` (or `face down`): turns those cards so, in the
    /// order written among the `did` steps.
    pub(super) fn turn_face(
        &mut self,
        step: &Step,
        player: &Name,
        slots: &[Spanned<u32>],
        up: bool,
    ) -> Result<(), Failure> {
        let seat = self.seat(player);
        for slot in slots {
            let target = KnowTarget::Slot {
                owner: player.clone(),
                slot: slot.node,
            };
            let card = self.target(step, seat, &target)?;
            self.game
                .state
                .set_face_up(card, up)
                .map_err(|e| Failure::at(step, e.to_string()))?;
        }
        Ok(())
    }

    /// `Given ann's collection_rank is 7`, `Given the discard_pile_sealed is true`: a property the
    /// variant exposes set, in the order written. The value takes the kind of the variable's
    /// declared default (or current value): text for a rank kept as text, a player for a name,
    /// a card for a face, `()` for `none`.
    pub(super) fn set_property(
        &mut self,
        step: &Step,
        player: Option<&Name>,
        name: &Spanned<String>,
        value: &Spanned<Literal>,
    ) -> Result<(), Failure> {
        let table = self.game.table.clone();
        let key = name.node.replace(' ', "_");
        let unknown = || {
            Failure::at(
                step,
                format!("`{}` is not a property of {}", name.node, table.variant),
            )
        };
        let (index, declared) = match player {
            Some(_) => table.player_var(&key).map(|i| (i, &table.player_vars[i].1)),
            None => table.game_var(&key).map(|i| (i, &table.game_vars[i].1)),
        }
        .ok_or_else(unknown)?;
        let current = match player {
            Some(p) => self.game.state.player_vars[self.seat(p).index()][index].clone(),
            None => self.game.state.game_vars[index].clone(),
        };
        let kind = if matches!(current, Value::Unit) {
            declared.clone()
        } else {
            current
        };
        let value = self.property_value(step, &value.node, &kind)?;
        match player {
            Some(p) => {
                let seat = self.seat(p);
                std::sync::Arc::make_mut(&mut self.game.state.player_vars[seat.index()])[index] =
                    value;
            }
            None => std::sync::Arc::make_mut(&mut self.game.state.game_vars)[index] = value,
        }
        Ok(())
    }

    /// A literal as a value of the kind `like` is.
    fn property_value(&self, step: &Step, lit: &Literal, like: &Value) -> Result<Value, Failure> {
        let st = &self.game.state;
        let player = |w: &str| st.seat_of(w).map(Value::Player);
        Ok(match lit {
            Literal::Word(w) if ["none", "null", "nobody"].contains(&w.as_str()) => Value::Unit,
            Literal::Word(w) if player(w).is_some() => player(w).unwrap_or_default(),
            Literal::Card(face) if matches!(like, Value::Card(_)) => {
                Value::Card(self.card(step, *face, None)?)
            }
            Literal::Number(n) if matches!(like, Value::Str(_)) => Value::Str(n.clone()),
            Literal::Bool(b) if matches!(like, Value::Str(_)) => Value::Str(b.to_string()),
            other => super::run::literal_value(other),
        })
    }

    /// After every placement: a placement Given that a later one undid (a hand given twice, …)
    /// does not describe the position, and fails at its step.
    pub(super) fn verify(&self, step: &Step, body: &StepBody) -> Result<(), Failure> {
        let st = &self.game.state;
        let table = &self.game.table;
        let top_first = |pile: Option<crate::kernel::PileId>| -> Vec<Face> {
            pile.map_or_else(Vec::new, |p| {
                st.pile(p).iter().rev().map(|&c| st.face(c)).collect()
            })
        };
        let text = |faces: &[Face]| -> String {
            if faces.is_empty() {
                "nothing".into()
            } else {
                faces
                    .iter()
                    .map(Face::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            }
        };
        let (expected, found) = match body {
            StepBody::Holds { player, cards } => {
                let mut hand: Vec<Option<Face>> = st
                    .hand(self.seat(player))
                    .iter()
                    .map(|c| c.map(|c| st.face(c)))
                    .collect();
                while hand.last() == Some(&None) {
                    hand.pop();
                }
                let mut want: Vec<Option<Face>> = cards
                    .iter()
                    .map(|c| match c.node {
                        SlotPattern::Card(face) => Some(face),
                        _ => None,
                    })
                    .collect();
                while want.last() == Some(&None) {
                    want.pop();
                }
                if hand == want {
                    return Ok(());
                }
                let show = |faces: &[Option<Face>]| {
                    faces
                        .iter()
                        .map(|f| f.map_or("_".to_string(), |f| f.to_string()))
                        .collect::<Vec<_>>()
                        .join(", ")
                };
                (
                    format!("{} holds {}", player.node, show(&want)),
                    format!("{} holds {}", player.node, show(&hand)),
                )
            }
            StepBody::DiscardPileIs(faces) => {
                let actual = top_first(table.discard_pile);
                let want: Vec<Face> = faces.iter().map(|f| f.node).collect();
                let ok = if want.is_empty() {
                    actual.is_empty()
                } else {
                    actual.starts_with(&want)
                };
                if ok {
                    return Ok(());
                }
                (
                    format!("the discard pile is {} (top first)", text(&want)),
                    format!("the discard pile is {}", text(&actual)),
                )
            }
            StepBody::DrawPileIs(faces) => {
                let actual = top_first(table.draw_pile);
                let want: Vec<Face> = faces.iter().map(|f| f.node).collect();
                if actual.starts_with(&want) {
                    return Ok(());
                }
                (
                    format!("the draw pile starts {}", text(&want)),
                    format!(
                        "the draw pile starts {}",
                        text(&actual[..want.len().min(actual.len())])
                    ),
                )
            }
            StepBody::DrawPileHas(n) => {
                let len = table.draw_pile.map_or(0, |p| st.pile(p).len());
                if len == *n as usize {
                    return Ok(());
                }
                (format!("{n} cards"), format!("{len} cards"))
            }
            _ => return Ok(()),
        };
        Err(Failure {
            span: step.span,
            message: "this Given does not hold once the other Givens are placed".into(),
            expected: Some(expected),
            found: Some(found),
            script: None,
        })
    }
}
