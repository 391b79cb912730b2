//! The game state and its primitive operations: where each card is, who knows it, piles, hands,
//! phase, turn, clock, timers, variables and the seeded random generator.
//!
//! Every card is in exactly one place: `cards[i].loc` and the zone contents always agree, because
//! only the functions here move cards.

use super::card::{CardIdx, Face};
use super::limits;
use super::table::{PhaseId, PileId, Table};
use super::value::{Seat, Value};
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// Where a card is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Loc {
    /// In a player's hand, at a slot. Slots keep their place when cards leave, so a hand may
    /// have gaps.
    Hand {
        /// Whose hand.
        seat: Seat,
        /// The slot, 0-based.
        slot: u16,
    },
    /// In a pile (see `GameState::piles` for the order).
    Pile(PileId),
}

/// One physical card of the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CardState {
    /// What the card shows; only players who know the card may be told.
    pub face: Face,
    /// What players see as the card's id; random, and renewed when the card is shuffled.
    pub public_id: u32,
    /// Bit `s` set: the player in seat `s` knows this card's face.
    pub known_by: u32,
    /// Where the card is; always agrees with `GameState::hands` and `GameState::piles`.
    pub loc: Loc,
    /// The card lies face up in a hand: every player knows it for as long as it lies so
    /// (`GameState::set_face_up`). Only a card in a hand lies face up; a pile shows its cards
    /// by its own `face_up`.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub face_up: bool,
}

/// A running timer, set by the rules (`GameState::set_timer`) and fired through
/// `Rules::timer` when the game clock reaches its deadline (`Game::advance`, `Game::run_out`).
#[derive(Debug, PartialEq, Serialize, Deserialize)]
pub struct Timer {
    /// The timer's name, one of the variant's `Table::timers` (scripts can set no other).
    /// Setting a timer of the same name again replaces it.
    pub name: String,
    /// Game-clock time in milliseconds at which it fires.
    pub deadline: u64,
    /// The player the timer concerns (a turn timer's player, say), passed to the rules when it
    /// fires; `None` for a game-wide timer.
    pub seat: Option<Seat>,
    /// Order of setting, so timers with the same deadline fire in the order they were set.
    pub seq: u64,
}

impl Clone for Timer {
    fn clone(&self) -> Timer {
        Timer {
            name: self.name.clone(),
            deadline: self.deadline,
            seat: self.seat,
            seq: self.seq,
        }
    }

    /// Into the memory of the name it had: a state copy (`GameState::clone_from`, once per
    /// checked step) allocates nothing for its timers.
    fn clone_from(&mut self, source: &Timer) {
        self.name.clone_from(&source.name);
        self.deadline = source.deadline;
        self.seat = source.seat;
        self.seq = source.seq;
    }
}

/// How the game ended.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Outcome {
    /// Empty for a draw.
    pub winners: Vec<Seat>,
    /// Why it ended, in the variant's words (for example `deck exhausted`); the rules choose it.
    pub reason: String,
}

/// Everything that changes during a game, except the event log. (Its `Clone` is in
/// `snapshot.rs`: `clone_from` reuses the copy's memory.)
#[derive(Debug, PartialEq, Serialize, Deserialize)]
pub struct GameState {
    /// Player names in seat order, as given to `Game::new`; distinct. Shared between copies.
    pub players: Arc<Vec<String>>,
    /// Every physical card of the game, indexed by [`CardIdx`]: its face, public id, knowledge
    /// and location.
    pub cards: Vec<CardState>,
    /// Hands by seat, each by slot (0-based); `None` is an empty slot.
    pub hands: Vec<Vec<Option<CardIdx>>>,
    /// Top of a pile is the last element.
    pub piles: Vec<Vec<CardIdx>>,
    /// The current phase (index into `Table::phases`; `Table::phase_name` names it).
    pub phase: PhaseId,
    /// Whose turn it is; `None` until the rules start the first turn.
    pub current: Option<Seat>,
    /// Game clock in milliseconds.
    pub clock: u64,
    /// The running timers, in the order they were set (not by deadline).
    pub timers: Vec<Timer>,
    pub(super) timer_seq: u64,
    /// The game's seeded generator: shuffles and every random choice of the rules. Seeded from
    /// `Game::new`'s seed, so the same seed and actions replay the same game. Behind an `Arc`,
    /// as is `id_rng`: each is some 300 bytes, a game is moved whole twice a hook call (lent to
    /// the script and back), and a step's copy of the state shares them until one draws
    /// (`Arc::make_mut`), which few steps do.
    pub rng: Arc<ChaCha8Rng>,
    /// Public card ids come from their own generator, so that ids say nothing about the deal;
    /// a host keys it with a secret (`Game::with_id_key`).
    #[serde(default = "unkeyed_ids")]
    pub id_rng: Arc<ChaCha8Rng>,
    /// The most slots a hand may have (the variant's `max_hand_slots`).
    #[serde(default = "default_hand_slots")]
    pub max_hand_slots: u16,
    /// House-rule values, indexed like `Table::house_rules` (defaults, then what `Game::new` set).
    /// Fixed for the game, so copies of the state share them.
    pub house: Arc<Vec<Value>>,
    /// Game variables, indexed like `Table::game_vars`. Shared by copies of the state until one
    /// changes them (`Arc::make_mut`), as each player's are: most steps of a matching stage
    /// change none.
    pub game_vars: Arc<Vec<Value>>,
    /// Player variables by seat, each indexed like `Table::player_vars`. Each player's are
    /// shared by copies of the state until one changes them (`Arc::make_mut`): a step's copy
    /// then costs a count, not the values.
    pub player_vars: Vec<Arc<Vec<Value>>>,
    /// How the game ended; `None` while it runs. Set by `Game::finish`.
    pub outcome: Option<Outcome>,
    /// Set once the setup phases are over and turns have begun.
    pub turns_started: bool,
}

/// A misuse of a primitive by the rules (a script bug, not a player's illegal move).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StateError {
    /// A seat number beyond the players of the game.
    #[error("seat {0} does not exist")]
    NoSeat(u8),
    /// A hand slot that does not exist: the player's name and the slot (0-based).
    #[error("{0}'s hand has no slot {1}")]
    NoSlot(String, usize),
    /// A card asked of an empty pile; holds the pile's name.
    #[error("the pile `{0}` is empty")]
    EmptyPile(String),
    /// A card index beyond the cards of the game.
    #[error("card#{0} does not exist")]
    NoCard(u16),
    /// Swapping a card with itself.
    #[error("a card cannot be swapped with itself")]
    SameCard,
    /// A game with no players or more than `limits::MAX_PLAYERS`; holds the count asked for.
    #[error("a game needs between 1 and 32 players, not {0}")]
    PlayerCount(usize),
    #[error("slot {slot} is beyond the largest hand of this variant ({max} slots)")]
    /// Putting a card in a slot at or beyond the variant's hand size (`max_hand_slots`).
    SlotLimit {
        /// The slot asked for (0-based).
        slot: usize,
        /// How many slots a hand may have.
        max: usize,
    },
    /// A deck larger than `limits::MAX_DECK_CARDS`; holds its size.
    #[error("a deck of {0} cards is more than a game can hold")]
    DeckSize(usize),
    /// A timer whose deadline would not fit the game clock; holds its length in milliseconds.
    #[error("a timer of {0} ms would run past the end of the game clock")]
    ClockOverflow(u64),
    /// `Game::finish` named the same winner twice; holds the player's name.
    #[error("{0} is named twice among the winners")]
    DuplicateWinner(String),
    /// A step emitted more than `limits::MAX_EVENTS_PER_STEP` events (the limit).
    #[error("one step may send at most {0} events")]
    TooManyEvents(usize),
    /// An event payload of more than `limits::MAX_PAYLOAD_NODES` values (the limit).
    #[error("an event may hold at most {0} values")]
    PayloadTooLarge(usize),
    /// The payloads of one step held more than `limits::MAX_STEP_PAYLOAD_NODES` values (the limit).
    #[error("the events of one step may hold at most {0} values in all")]
    StepPayloadTooLarge(usize),
    /// An event payload nested deeper than `limits::MAX_VALUE_DEPTH` (the limit).
    #[error("an event's values may nest at most {0} deep")]
    PayloadTooDeep(usize),
    /// Turning a card face up or down that is not in a hand (a pile shows its cards by its own
    /// `face_up`); holds the card's index.
    #[error("only a card in a hand can lie face up or face down, and card#{0} is in a pile")]
    FaceUpOutsideHand(u16),
}

impl GameState {
    /// A new game: every card of the deck shuffled into the draw pile (or the first pile).
    pub fn new(
        table: &Table,
        players: Vec<String>,
        seed: u64,
        house: Vec<Value>,
    ) -> Result<GameState, StateError> {
        if players.is_empty() || players.len() > limits::MAX_PLAYERS {
            return Err(StateError::PlayerCount(players.len()));
        }
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut faces = table.deck_for(&house);
        if faces.len() > limits::MAX_DECK_CARDS {
            return Err(StateError::DeckSize(faces.len()));
        }
        let max_hand_slots =
            u16::try_from(table.max_hand_slots.min(limits::MAX_HAND_SLOTS)).unwrap_or(u16::MAX);
        faces.shuffle(&mut rng);
        let stock = table.draw_pile.unwrap_or(PileId(0));
        let mut id_rng = id_generator(seed);
        let ids = unique_ids(&mut id_rng, faces.len());
        let cards: Vec<CardState> = faces
            .iter()
            .zip(ids)
            .map(|(&face, public_id)| CardState {
                face,
                public_id,
                known_by: 0,
                loc: Loc::Pile(stock),
                face_up: false,
            })
            .collect();
        let mut piles = vec![Vec::new(); table.piles.len().max(1)];
        // At most MAX_DECK_CARDS cards, so every index fits a CardIdx.
        piles[stock.0 as usize] = (0..cards.len())
            .map(|i| CardIdx(i.try_into().unwrap_or(u16::MAX)))
            .collect();
        let n = players.len();
        Ok(GameState {
            players: Arc::new(players),
            cards,
            hands: vec![Vec::new(); n],
            piles,
            phase: PhaseId(0),
            current: None,
            clock: 0,
            timers: Vec::new(),
            timer_seq: 0,
            rng: Arc::new(rng),
            id_rng: Arc::new(id_rng),
            max_hand_slots,
            house: Arc::new(house),
            game_vars: Arc::new(table.game_vars.iter().map(|v| v.1.clone()).collect()),
            // Every player starts with the same values, shared until one changes.
            player_vars: {
                let start = Arc::new(table.player_vars.iter().map(|v| v.1.clone()).collect());
                (0..n).map(|_| Arc::clone(&start)).collect()
            },
            outcome: None,
            turns_started: false,
        })
    }

    /// A state with no players and no cards (a placeholder; no game is played on it).
    pub fn empty() -> GameState {
        GameState {
            players: Arc::new(Vec::new()),
            cards: Vec::new(),
            hands: Vec::new(),
            piles: Vec::new(),
            phase: PhaseId(0),
            current: None,
            clock: 0,
            timers: Vec::new(),
            timer_seq: 0,
            rng: Arc::new(ChaCha8Rng::seed_from_u64(0)),
            id_rng: Arc::new(ChaCha8Rng::seed_from_u64(0)),
            max_hand_slots: 0,
            house: Arc::default(),
            game_vars: Arc::default(),
            player_vars: Vec::new(),
            outcome: None,
            turns_started: false,
        }
    }

    /// How many players the game has (1 to `limits::MAX_PLAYERS`).
    pub fn player_count(&self) -> usize {
        self.players.len()
    }

    /// A knowledge mask with every player's bit set.
    pub fn all_players_mask(&self) -> u32 {
        if self.players.len() == 32 {
            u32::MAX
        } else {
            (1u32 << self.players.len()) - 1
        }
    }

    /// The seat itself if it is a player of this game, else [`StateError::NoSeat`].
    pub fn seat(&self, seat: Seat) -> Result<Seat, StateError> {
        if seat.index() < self.players.len() {
            Ok(seat)
        } else {
            Err(StateError::NoSeat(seat.0))
        }
    }

    /// The seat of the player with this name, if there is one.
    pub fn seat_of(&self, name: &str) -> Option<Seat> {
        self.players
            .iter()
            .position(|p| p == name)
            .map(|i| Seat(i as u8))
    }

    /// A card's state, or [`StateError::NoCard`] for an index beyond the deck.
    pub fn card(&self, card: CardIdx) -> Result<&CardState, StateError> {
        self.cards
            .get(card.0 as usize)
            .ok_or(StateError::NoCard(card.0))
    }

    /// A card's face, whoever knows it: do not show it to a player without checking `knows`.
    /// Panics for an index beyond the deck; [`GameState::card`] checks.
    pub fn face(&self, card: CardIdx) -> Face {
        self.cards[card.0 as usize].face
    }

    /// The first card showing this face (decks have each suited face once; jokers share one).
    pub fn card_with_face(&self, face: Face) -> Option<CardIdx> {
        self.cards
            .iter()
            .position(|c| c.face == face)
            .map(|i| CardIdx(i as u16))
    }

    /// The card with this public id now (ids change on shuffles). `Game::card_from_id` takes the
    /// hex text clients send.
    pub fn card_by_public_id(&self, id: u32) -> Option<CardIdx> {
        self.cards
            .iter()
            .position(|c| c.public_id == id)
            .map(|i| CardIdx(i as u16))
    }

    /// Whether the player in `seat` knows the card's face now. Panics for a card beyond the deck.
    pub fn knows(&self, seat: Seat, card: CardIdx) -> bool {
        self.cards[card.0 as usize].known_by & seat.bit() != 0
    }

    /// Let one player know a card's face (a peek). Emitting an event is up to the rules.
    /// Panics for a card beyond the deck.
    pub fn reveal_to(&mut self, card: CardIdx, seat: Seat) {
        self.cards[card.0 as usize].known_by |= seat.bit();
    }

    /// Let every player know a card's face. Panics for a card beyond the deck.
    pub fn reveal_to_all(&mut self, card: CardIdx) {
        let all = self.all_players_mask();
        self.cards[card.0 as usize].known_by = all;
    }

    /// Whether the card lies face up in a hand (everyone knows it while it does). Panics for a
    /// card beyond the deck.
    pub fn is_face_up(&self, card: CardIdx) -> bool {
        self.cards[card.0 as usize].face_up
    }

    /// Turn a card in a hand face up (every player knows it for as long as it lies so, bots
    /// included: none forgets it) or face down again (what players learned of it stays, as a
    /// peek's would). A card that leaves the hands stops lying face up. Panics for a card
    /// beyond the deck; [`StateError::FaceUpOutsideHand`] for a card in a pile.
    pub fn set_face_up(&mut self, card: CardIdx, up: bool) -> Result<(), StateError> {
        let all = self.all_players_mask();
        let c = &mut self.cards[card.0 as usize];
        if !matches!(c.loc, Loc::Hand { .. }) {
            return Err(StateError::FaceUpOutsideHand(card.0));
        }
        c.face_up = up;
        if up {
            c.known_by = all;
        }
        Ok(())
    }

    /// A player's hand by slot; `None` is an empty slot. Panics for a seat beyond the players.
    pub fn hand(&self, seat: Seat) -> &[Option<CardIdx>] {
        &self.hands[seat.index()]
    }

    /// A pile's cards, bottom first (the top is the last). Panics for a pile the table lacks.
    pub fn pile(&self, pile: PileId) -> &[CardIdx] {
        &self.piles[pile.0 as usize]
    }

    /// The card in a hand slot (`None`: the slot is empty), or an error if the seat or the slot
    /// (0-based) does not exist.
    pub fn slot(&self, seat: Seat, slot: usize) -> Result<Option<CardIdx>, StateError> {
        self.seat(seat)?;
        self.hands[seat.index()]
            .get(slot)
            .copied()
            .ok_or_else(|| StateError::NoSlot(self.players[seat.index()].clone(), slot))
    }

    /// Take a card out of wherever it is. A hand keeps an empty slot where it was.
    fn lift(&mut self, card: CardIdx) {
        match self.cards[card.0 as usize].loc {
            Loc::Hand { seat, slot } => self.hands[seat.index()][slot as usize] = None,
            Loc::Pile(pile) => {
                let cards = &mut self.piles[pile.0 as usize];
                if cards.last() == Some(&card) {
                    cards.pop();
                } else if let Some(pos) = cards.iter().position(|&c| c == card) {
                    cards.remove(pos);
                }
            }
        }
    }

    /// Put a card on top of a pile. Entering a face-up pile shows it to everyone.
    pub fn move_to_pile(&mut self, table: &Table, card: CardIdx, pile: PileId) {
        self.lift(card);
        self.piles[pile.0 as usize].push(card);
        self.cards[card.0 as usize].loc = Loc::Pile(pile);
        self.cards[card.0 as usize].face_up = false;
        if table.piles[pile.0 as usize].face_up {
            self.reveal_to_all(card);
        }
    }

    /// Put a card at the bottom of a pile.
    pub fn move_under_pile(&mut self, table: &Table, card: CardIdx, pile: PileId) {
        self.lift(card);
        self.piles[pile.0 as usize].insert(0, card);
        self.cards[card.0 as usize].loc = Loc::Pile(pile);
        self.cards[card.0 as usize].face_up = false;
        if table.piles[pile.0 as usize].face_up {
            self.reveal_to_all(card);
        }
    }

    /// Put a card into a hand slot, growing the hand with empty slots if needed.
    /// Whatever was in the slot must have been moved away first.
    pub fn move_to_slot(
        &mut self,
        card: CardIdx,
        seat: Seat,
        slot: usize,
    ) -> Result<(), StateError> {
        self.seat(seat)?;
        self.card(card)?;
        let max = usize::from(self.max_hand_slots);
        let Some(slot16) = u16::try_from(slot).ok().filter(|_| slot < max) else {
            return Err(StateError::SlotLimit { slot, max });
        };
        if let Some(Some(old)) = self.hands[seat.index()].get(slot)
            && *old != card
        {
            // Keep every card in exactly one place: the occupant goes where the card came from.
            let from = self.cards[card.0 as usize].loc;
            let old = *old;
            self.lift(card);
            self.place(old, from);
        } else {
            self.lift(card);
        }
        let hand = &mut self.hands[seat.index()];
        if hand.len() <= slot {
            hand.resize(slot + 1, None);
        }
        hand[slot] = Some(card);
        self.cards[card.0 as usize].loc = Loc::Hand { seat, slot: slot16 };
        Ok(())
    }

    fn place(&mut self, card: CardIdx, loc: Loc) {
        match loc {
            Loc::Hand { seat, slot } => self.hands[seat.index()][slot as usize] = Some(card),
            Loc::Pile(pile) => {
                self.piles[pile.0 as usize].push(card);
                self.cards[card.0 as usize].face_up = false;
            }
        }
        self.cards[card.0 as usize].loc = loc;
    }

    /// Add a card to a hand: into the first empty slot, else a new slot at the end. Returns the slot.
    pub fn add_to_hand(&mut self, card: CardIdx, seat: Seat) -> Result<usize, StateError> {
        self.seat(seat)?;
        let slot = self.hands[seat.index()]
            .iter()
            .position(Option::is_none)
            .unwrap_or(self.hands[seat.index()].len());
        self.move_to_slot(card, seat, slot)?;
        Ok(slot)
    }

    /// Add a card to a new slot at the end of a hand. Returns the slot.
    pub fn append_to_hand(&mut self, card: CardIdx, seat: Seat) -> Result<usize, StateError> {
        self.seat(seat)?;
        let slot = self.hands[seat.index()].len();
        self.move_to_slot(card, seat, slot)?;
        Ok(slot)
    }

    /// Close the gaps in a hand: later cards shift down.
    pub fn compact_hand(&mut self, seat: Seat) -> Result<(), StateError> {
        self.seat(seat)?;
        let cards: Vec<CardIdx> = self.hands[seat.index()].iter().flatten().copied().collect();
        self.hands[seat.index()] = cards.iter().map(|&c| Some(c)).collect();
        // Compacting never makes a hand longer, so every slot still fits.
        for (slot, card) in (0u16..).zip(cards) {
            self.cards[card.0 as usize].loc = Loc::Hand { seat, slot };
        }
        Ok(())
    }

    /// Drop trailing empty slots of a hand.
    pub fn trim_hand(&mut self, seat: Seat) {
        let hand = &mut self.hands[seat.index()];
        while hand.last() == Some(&None) {
            hand.pop();
        }
    }

    /// Exchange the places of two cards. What each player knows stays with the cards.
    pub fn swap(&mut self, a: CardIdx, b: CardIdx) -> Result<(), StateError> {
        if a == b {
            return Err(StateError::SameCard);
        }
        let (la, pa) = self.position(a);
        let (lb, pb) = self.position(b);
        self.put_at(a, lb, pb);
        self.put_at(b, la, pa);
        Ok(())
    }

    /// A card's location and, in a pile, its index from the bottom.
    fn position(&self, card: CardIdx) -> (Loc, usize) {
        let loc = self.cards[card.0 as usize].loc;
        let pos = match loc {
            Loc::Hand { slot, .. } => slot as usize,
            Loc::Pile(pile) => self.piles[pile.0 as usize]
                .iter()
                .position(|&c| c == card)
                .unwrap_or(0),
        };
        (loc, pos)
    }

    fn put_at(&mut self, card: CardIdx, loc: Loc, pos: usize) {
        match loc {
            Loc::Hand { seat, .. } => self.hands[seat.index()][pos] = Some(card),
            Loc::Pile(pile) => {
                self.piles[pile.0 as usize][pos] = card;
                self.cards[card.0 as usize].face_up = false;
            }
        }
        self.cards[card.0 as usize].loc = loc;
    }

    /// Shuffle a pile face down: nobody knows its cards any more, and they get new public ids
    /// so that no one can follow a card through the shuffle.
    pub fn shuffle_pile(&mut self, pile: PileId) {
        let mut cards = std::mem::take(&mut self.piles[pile.0 as usize]);
        self.shuffle_face_down(&mut cards, pile);
        self.piles[pile.0 as usize] = cards;
    }

    /// Shuffle cards that are going face down into `pile`: everyone forgets them, and they get
    /// new public ids.
    fn shuffle_face_down(&mut self, cards: &mut [CardIdx], pile: PileId) {
        cards.shuffle(Arc::make_mut(&mut self.rng));
        let ids = self.fresh_ids(cards.len());
        for (&card, id) in cards.iter().zip(ids) {
            let c = &mut self.cards[card.0 as usize];
            c.known_by = 0;
            c.face_up = false;
            c.public_id = id;
            c.loc = Loc::Pile(pile);
        }
    }

    /// Move all but the top `keep` cards of `from` under the cards of `to`, shuffled face down
    /// (a reshuffle of a discard pile into a draw pile). Returns how many cards moved.
    pub fn recycle(&mut self, from: PileId, to: PileId, keep: usize) -> usize {
        let source = &mut self.piles[from.0 as usize];
        let n = source.len().saturating_sub(keep);
        let mut moved: Vec<CardIdx> = source.drain(..n).collect();
        self.shuffle_face_down(&mut moved, to);
        let target = &mut self.piles[to.0 as usize];
        moved.append(target);
        *target = moved;
        n
    }

    fn fresh_ids(&mut self, n: usize) -> Vec<u32> {
        let mut out = Vec::with_capacity(n);
        while out.len() < n {
            let id = Arc::make_mut(&mut self.id_rng).random_range(0x1000_0000..=u32::MAX);
            if !out.contains(&id) && !self.cards.iter().any(|c| c.public_id == id) {
                out.push(id);
            }
        }
        out
    }

    /// A uniformly random integer in `0..n` from the game's generator (`n` > 0).
    pub fn random_below(&mut self, n: u64) -> u64 {
        Arc::make_mut(&mut self.rng).random_range(0..n.max(1))
    }

    /// Start (or restart) the timer `name`, firing `millis` milliseconds of game clock from now.
    /// A timer of the same name is replaced. [`StateError::ClockOverflow`] if the deadline would
    /// not fit in a `u64`.
    pub fn set_timer(
        &mut self,
        name: &str,
        millis: u64,
        seat: Option<Seat>,
    ) -> Result<(), StateError> {
        let deadline = self
            .clock
            .checked_add(millis)
            .ok_or(StateError::ClockOverflow(millis))?;
        self.cancel_timer(name);
        self.timer_seq += 1;
        self.timers.push(Timer {
            name: name.to_string(),
            deadline,
            seat,
            seq: self.timer_seq,
        });
        Ok(())
    }

    /// Give every card a new public id from a generator keyed by `key` (see `Game::with_id_key`).
    pub fn rekey_ids(&mut self, key: [u8; 32]) {
        let id_rng = Arc::make_mut(&mut self.id_rng);
        *id_rng = ChaCha8Rng::from_seed(key);
        let ids = unique_ids(id_rng, self.cards.len());
        for (card, id) in self.cards.iter_mut().zip(ids) {
            card.public_id = id;
        }
    }

    /// Stop the timer `name`, if it runs.
    pub fn cancel_timer(&mut self, name: &str) {
        self.timers.retain(|t| t.name != name);
    }

    /// The index of the timer that fires next, if any fires at or before `limit`.
    pub fn next_timer(&self, limit: u64) -> Option<usize> {
        self.timers
            .iter()
            .enumerate()
            .filter(|(_, t)| t.deadline <= limit)
            .min_by_key(|(_, t)| (t.deadline, t.seq))
            .map(|(i, _)| i)
    }

    /// Give card objects new faces, keeping every face exactly once: `face` goes to `card`, and the
    /// card that showed `face` takes `card`'s old face. Used to build scenario positions without
    /// disturbing where cards are or who knows which position.
    pub fn assign_face(&mut self, card: CardIdx, face: Face) -> Option<CardIdx> {
        let holder = self.card_with_face(face)?;
        let old = self.cards[card.0 as usize].face;
        self.cards[holder.0 as usize].face = old;
        self.cards[card.0 as usize].face = face;
        Some(holder)
    }

    /// Whether this state fits the table: its seats, hands, piles, phase, variables, house rules
    /// and timers are ones the table has, and every card a hand or pile holds exists. The text
    /// says what does not fit. (`Game::restore` checks it: a saved game is untrusted input.)
    pub fn check_fits(&self, table: &Table) -> Result<(), String> {
        let players = self.players.len();
        if players < table.players.min || players > table.players.max {
            return Err(format!(
                "{players} players (the rules allow {})",
                table.players
            ));
        }
        let count = |what: &str, found: usize, want: usize| {
            if found == want {
                Ok(())
            } else {
                Err(format!("{found} {what}, the rules have {want}"))
            }
        };
        count("hands", self.hands.len(), players)?;
        count("piles", self.piles.len(), table.piles.len())?;
        count("house rules", self.house.len(), table.house_rules.len())?;
        count(
            "game variables",
            self.game_vars.len(),
            table.game_vars.len(),
        )?;
        count("players' variable sets", self.player_vars.len(), players)?;
        for vars in &self.player_vars {
            count("player variables", vars.len(), table.player_vars.len())?;
        }
        if usize::from(self.phase.0) >= table.phases.len() {
            return Err(format!(
                "phase #{} (the rules have {} phases)",
                self.phase.0,
                table.phases.len()
            ));
        }
        if let Some(seat) = self.current
            && seat.index() >= players
        {
            return Err(format!("the current player is seat {}", seat.0));
        }
        for timer in &self.timers {
            if !table.timers.contains(&timer.name) {
                return Err(format!("a timer `{}` the rules do not have", timer.name));
            }
            if timer.seat.is_some_and(|s| s.index() >= players) {
                return Err(format!(
                    "the timer `{}` is for a seat that does not exist",
                    timer.name
                ));
            }
        }
        if self.cards.len() > usize::from(u16::MAX) {
            return Err(format!("{} cards", self.cards.len()));
        }
        let in_range = |card: &CardIdx| usize::from(card.0) < self.cards.len();
        let all_in_range = self.hands.iter().flatten().flatten().all(in_range)
            && self.piles.iter().flatten().all(in_range);
        if !all_in_range {
            return Err("a hand or pile holds a card that does not exist".into());
        }
        if self
            .hands
            .iter()
            .any(|h| h.len() > usize::from(self.max_hand_slots))
        {
            return Err(format!(
                "a hand has more than {} slots",
                self.max_hand_slots
            ));
        }
        Ok(())
    }

    /// Every card is in exactly one place, and records that place (checked after every random
    /// step, and when a saved game is restored).
    pub fn check_conservation(&self) -> Result<(), String> {
        let mut seen = vec![false; self.cards.len()];
        let mut visit = |card: CardIdx, loc: Loc| -> Result<(), String> {
            let i = card.0 as usize;
            if seen[i] {
                return Err(format!("card#{i} is in two places"));
            }
            seen[i] = true;
            if self.cards[i].loc != loc {
                return Err(format!(
                    "card#{i} is at {loc:?} but records {:?}",
                    self.cards[i].loc
                ));
            }
            Ok(())
        };
        for (s, hand) in self.hands.iter().enumerate() {
            for (slot, card) in hand.iter().enumerate() {
                if let Some(card) = card {
                    visit(
                        *card,
                        Loc::Hand {
                            seat: Seat(s as u8),
                            slot: slot as u16,
                        },
                    )?;
                }
            }
        }
        for (p, pile) in self.piles.iter().enumerate() {
            for &card in pile {
                visit(card, Loc::Pile(PileId(p as u16)))?;
            }
        }
        if let Some(i) = seen.iter().position(|s| !s) {
            return Err(format!("card#{i} is nowhere"));
        }
        let all = self.all_players_mask();
        for (i, c) in self.cards.iter().enumerate() {
            if c.face_up && !matches!(c.loc, Loc::Hand { .. }) {
                return Err(format!("card#{i} lies face up in a pile"));
            }
            if c.face_up && c.known_by & all != all {
                return Err(format!("card#{i} lies face up but not everyone knows it"));
            }
        }
        Ok(())
    }
}

/// For games saved before ids had their own generator.
fn unkeyed_ids() -> Arc<ChaCha8Rng> {
    Arc::new(id_generator(0))
}

fn default_hand_slots() -> u16 {
    limits::DEFAULT_MAX_HAND_SLOTS as u16
}

/// The public-id generator of a game whose host gave no key: derived from the seed, but on a
/// stream of its own, so that drawing ids never moves the deal's generator.
fn id_generator(seed: u64) -> ChaCha8Rng {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(1);
    rng
}

/// `n` distinct random public ids.
fn unique_ids(rng: &mut ChaCha8Rng, n: usize) -> Vec<u32> {
    let mut ids: Vec<u32> = Vec::with_capacity(n);
    while ids.len() < n {
        let id = rng.random_range(0x1000_0000..=u32::MAX);
        if !ids.contains(&id) {
            ids.push(id);
        }
    }
    ids
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::Game;

    fn game(players: usize) -> (Game, Arc<Table>) {
        let mut table = Table::default();
        for (name, face_up) in [("stock", false), ("up", true)] {
            table.piles.push(super::super::table::PileDecl {
                name: name.into(),
                face_up,
            });
        }
        let table = Arc::new(table);
        let names = (0..players).map(|i| format!("p{i}")).collect();
        (Game::new(table.clone(), names, 3, &[]).unwrap(), table)
    }

    #[test]
    fn a_face_up_card_is_known_to_all_while_in_a_hand_and_no_longer_lies_so_in_a_pile() {
        let (mut game, table) = game(3);
        let st = &mut game.state;
        let card = *st.pile(PileId(0)).last().unwrap();
        assert_eq!(
            st.set_face_up(card, true),
            Err(StateError::FaceUpOutsideHand(card.0)),
            "a card in a pile cannot be turned"
        );
        st.move_to_slot(card, Seat(1), 2).unwrap();
        st.reveal_to(card, Seat(1));
        st.set_face_up(card, true).unwrap();
        assert!(st.is_face_up(card));
        assert!((0..3).all(|s| st.knows(Seat(s), card)));
        st.check_conservation().unwrap();
        // Moving within the hands keeps it face up; a swap with a pile card does not.
        st.move_to_slot(card, Seat(0), 0).unwrap();
        assert!(st.is_face_up(card));
        let other = *st.pile(PileId(0)).last().unwrap();
        st.swap(card, other).unwrap();
        assert!(!st.is_face_up(card), "swapped into a pile");
        st.check_conservation().unwrap();
        st.swap(card, other).unwrap();
        st.set_face_up(card, true).unwrap();
        st.move_to_pile(&table, card, PileId(0));
        assert!(!st.is_face_up(card));
        // Face down again: what was seen stays known.
        st.move_to_slot(card, Seat(2), 0).unwrap();
        st.set_face_up(card, true).unwrap();
        st.set_face_up(card, false).unwrap();
        assert!(!st.is_face_up(card) && st.knows(Seat(0), card));
        // A shuffle forgets every card, face-up ones too.
        st.set_face_up(card, true).unwrap();
        st.move_to_pile(&table, card, PileId(1));
        st.recycle(PileId(1), PileId(0), 0);
        assert!(!st.is_face_up(card) && !st.knows(Seat(0), card));
        st.check_conservation().unwrap();
    }

    #[test]
    fn conservation_rejects_a_face_up_card_that_is_in_a_pile_or_not_known_to_all() {
        let (mut game, _) = game(2);
        let st = &mut game.state;
        let card = *st.pile(PileId(0)).last().unwrap();
        st.cards[card.0 as usize].face_up = true;
        assert!(
            st.check_conservation()
                .unwrap_err()
                .contains("face up in a pile")
        );
        st.move_to_slot(card, Seat(0), 0).unwrap();
        st.cards[card.0 as usize].face_up = true;
        st.cards[card.0 as usize].known_by = 1;
        assert!(
            st.check_conservation()
                .unwrap_err()
                .contains("not everyone knows")
        );
    }
}
