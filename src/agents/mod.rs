//! Games for agents: a variant offered to one seat at a time (its out-of-turn windows and timers
//! included), with a fixed action enumeration, a fixed-size observation of each seat's view and
//! the variant's bots as policies. The Python package (`python/`) stands on it.

pub mod actions;
pub mod env;
pub mod observe;

pub use actions::{ActionSpace, PASS};
pub use env::{Config, Env, EnvError, Move, Reward, SavedEnv};
pub use observe::Layout;
