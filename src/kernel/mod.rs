//! The game kernel: cards, zones, players, phases, timers, seeded randomness, knowledge and events.
//!
//! It imports no rhai, no pest and no clap, does no I/O and reads no clock. Rules reach it
//! through the `Rules` trait; every change to a game goes through `Game::transact`.

pub mod candidates;
pub mod card;
pub mod deck;
pub mod event;
pub mod game;
pub mod limits;
pub mod playout;
pub mod seen;
mod snapshot;
pub mod state;
pub mod table;
pub mod value;
pub mod view;

pub use candidates::Candidates;
pub use card::{CardIdx, Face, Rank, Suit};
pub use deck::{DeckProblem, WithDeck, reduced_deck};
pub use event::{Audience, CardRef, EventRecord, Key, Payload, idx_key, user_key};
pub use game::{Action, Arg, Game, NewGameError, RuleError, Rules, SavedGame, SourcePos};
pub use state::{GameState, Loc, Outcome, StateError, Timer};
pub use table::{
    ActionDecl, Actor, ArgDomain, DeckDecl, FormDecl, Guard, HandLayout, HouseRuleProblem,
    HouseRuleRange, HouseRuleType, PhaseDecl, PhaseId, PileDecl, PileId, PlayerRange, Table,
};
pub use value::{Seat, Value};
pub use view::{CardView, FaceView, OutcomeView, PileView, PlayerRef, PlayerView, TimerView, View};
