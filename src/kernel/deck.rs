//! A reduced deck: a game dealt from chosen cards instead of its variant's 52 (and jokers), as
//! `deckspec prove` explores small configurations and a scenario's `Given the deck is …` sets up.
//! The rules are the variant's own; only the cards differ.

use super::card::{Face, Suit};
use super::game::{Action, Game, RuleError, Rules};
use super::limits::MAX_DECK_CARDS;
use super::state::Timer;
use super::table::Table;
use super::value::Seat;
use std::sync::Arc;

/// Why a list of cards cannot be a deck.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DeckProblem {
    /// No cards at all.
    #[error("a deck needs at least one card")]
    Empty,
    /// More cards than a game may have.
    #[error("a deck has at most {MAX_DECK_CARDS} cards, not {0}")]
    TooMany(usize),
    /// A suited card named twice (a deck has each suited card once; jokers may repeat).
    #[error("{0} is named twice: a deck has each card once (only jokers, JK, may repeat)")]
    Twice(Face),
}

/// The cards of a reduced deck, checked and in the standard order (suits S H D C, Ace to King,
/// jokers last), so that the same cards written in another order make the same game.
pub fn reduced_deck(mut cards: Vec<Face>) -> Result<Vec<Face>, DeckProblem> {
    if cards.is_empty() {
        return Err(DeckProblem::Empty);
    }
    if cards.len() > MAX_DECK_CARDS {
        return Err(DeckProblem::TooMany(cards.len()));
    }
    cards.sort_by_key(|&f| order(f));
    if let Some(pair) = cards.windows(2).find(|w| w[0] == w[1] && !w[0].is_joker()) {
        return Err(DeckProblem::Twice(pair[0]));
    }
    Ok(cards)
}

/// A face's place in the standard deck's order.
fn order(face: Face) -> (usize, u8) {
    match face.suit {
        None => (Suit::ALL.len(), 0),
        Some(suit) => (
            Suit::ALL.iter().position(|&s| s == suit).unwrap_or(0),
            face.rank.0,
        ),
    }
}

/// A variant's rules, played from a reduced deck: every hook is the variant's; the table is its
/// own but for the deck. Give it to `Game::new` (through `table()`) and to the game as its rules.
pub struct WithDeck<'a> {
    rules: &'a dyn Rules,
    table: Arc<Table>,
}

impl<'a> WithDeck<'a> {
    /// `rules` dealt from `cards` (checked by [`reduced_deck`]).
    pub fn new(rules: &'a dyn Rules, cards: Vec<Face>) -> Result<WithDeck<'a>, DeckProblem> {
        let mut table = Table::clone(rules.table());
        table.deck.cards = Some(reduced_deck(cards)?);
        Ok(WithDeck {
            rules,
            table: Arc::new(table),
        })
    }
}

impl Rules for WithDeck<'_> {
    fn table(&self) -> &Arc<Table> {
        &self.table
    }

    fn setup(&self, game: &mut Game) -> Result<(), RuleError> {
        self.rules.setup(game)
    }

    fn end_setup(&self, game: &mut Game, first: Seat) -> Result<(), RuleError> {
        self.rules.end_setup(game, first)
    }

    fn start_turn(&self, game: &mut Game, seat: Seat) -> Result<(), RuleError> {
        self.rules.start_turn(game, seat)
    }

    fn act(&self, game: &mut Game, action: &Action) -> Result<(), RuleError> {
        self.rules.act(game, action)
    }

    fn timer(&self, game: &mut Game, timer: &Timer) -> Result<(), RuleError> {
        self.rules.timer(game, timer)
    }

    fn score(&self, game: &mut Game, seat: Seat) -> Result<i64, RuleError> {
        self.rules.score(game, seat)
    }

    fn score_changes_nothing(&self) -> bool {
        self.rules.score_changes_nothing()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn faces(text: &str) -> Vec<Face> {
        text.split(' ')
            .map(|f| f.parse().expect("a face"))
            .collect()
    }

    #[test]
    fn a_reduced_deck_is_sorted_and_names_each_suited_card_once() {
        assert_eq!(
            reduced_deck(faces("JK KD AS 2S AH JK")),
            Ok(faces("AS 2S AH KD JK JK"))
        );
        assert_eq!(
            reduced_deck(faces("AS 7H AS")),
            Err(DeckProblem::Twice("AS".parse().expect("a face")))
        );
        assert_eq!(reduced_deck(Vec::new()), Err(DeckProblem::Empty));
        assert_eq!(
            reduced_deck(vec![Face::joker(); MAX_DECK_CARDS + 1]),
            Err(DeckProblem::TooMany(MAX_DECK_CARDS + 1))
        );
    }
}
