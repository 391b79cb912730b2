//! The kernel's hard bounds: how big a game may get and how much one step may do. Every host
//! (tests, simulations, servers) gets the same limits; a variant may declare smaller ones.

/// Players in one game: knowledge is a 32-bit mask per card.
pub const MAX_PLAYERS: usize = 32;

/// Jokers a deck may add to its 52 cards.
pub const MAX_JOKERS: usize = 52;

/// Cards in one game (52 plus the jokers); card indices are 16-bit.
pub const MAX_DECK_CARDS: usize = 52 + MAX_JOKERS;

/// Slots in one hand, unless the variant declares fewer (`max_hand_slots` in `variant.yaml`).
pub const MAX_HAND_SLOTS: usize = 1024;

/// The hand size a variant gets when it declares none.
pub const DEFAULT_MAX_HAND_SLOTS: usize = 64;

/// Events one step (an action, a timer, setup) may emit.
pub const MAX_EVENTS_PER_STEP: usize = 1_000;

/// Values (fields, list items, cards…) in one event's payload.
pub const MAX_PAYLOAD_NODES: usize = 4_096;

/// Values in all the payloads of one step.
pub const MAX_STEP_PAYLOAD_NODES: usize = 65_536;

/// How deep payloads and variable values may nest.
pub const MAX_VALUE_DEPTH: usize = 32;

/// Timers that may fire while the clock advances once (`Game::advance`).
pub const MAX_TIMERS_PER_ADVANCE: usize = 10_000;

/// The longest a timer may run, in milliseconds (one day).
pub const MAX_TIMER_MILLIS: u64 = 24 * 60 * 60 * 1000;

/// The largest points value a card may have (so no sum of a hand can overflow).
pub const MAX_CARD_POINTS: i64 = 1_000_000;
