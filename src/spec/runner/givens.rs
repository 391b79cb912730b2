//! The Given position: hands, piles and knowledge placed by re-assigning faces after the
//! variant's own deal (see ARCHITECTURE.md, "Scenario positions by re-assigning faces").

use super::run::{Failure, Run};
use crate::kernel::{CardIdx, Face};
use crate::spec::ast::*;

impl Run<'_> {
    pub(super) fn pin(&mut self, step: &Step, face: Face) -> Result<(), Failure> {
        if !self.pinned.insert(face) {
            return Err(Failure::at(
                step,
                format!("{face} is placed twice: each card exists once"),
            ));
        }
        Ok(())
    }

    /// A card object from the bottom of the draw pile that no placement has fixed.
    pub(super) fn spare_card(&self, step: &Step) -> Result<CardIdx, Failure> {
        let st = &self.game.state;
        let draw = self.game.table.draw_pile.expect("a draw pile is required");
        st.pile(draw)
            .iter()
            .copied()
            .find(|&c| !self.pinned.contains(&st.face(c)))
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
                            self.game.state.assign_face(card, face);
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
                    self.game.state.assign_face(card, face.node);
                }
            }
            StepBody::DrawPileHas(n) => {
                let draw = table.draw_pile.expect("a draw pile is required");
                let n = *n as usize;
                let discard = table.discard_pile;
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
                    self.game.state.assign_face(card, face.node);
                }
            }
            StepBody::Knows { player, target } => {
                let seat = self.seat(player);
                let card = self.target(step, target)?;
                self.game.state.reveal_to(card, seat);
            }
            _ => {}
        }
        Ok(())
    }
}
