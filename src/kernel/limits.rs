//! The kernel's hard bounds: how big a game may get and how much one step may do. Every host
//! (tests, simulations, servers) gets the same limits; a variant may declare smaller ones.

/// Players in one game: knowledge is a 32-bit mask per card.
pub const MAX_PLAYERS: usize = 32;

/// Jokers a deck may add to its 52 cards.
pub const MAX_JOKERS: usize = 52;

/// Slots in one hand, unless the variant declares fewer (`max_hand_slots` in `variant.yaml`).
pub const MAX_HAND_SLOTS: usize = 1024;

/// The hand size a variant gets when it declares none.
pub const DEFAULT_MAX_HAND_SLOTS: usize = 64;
