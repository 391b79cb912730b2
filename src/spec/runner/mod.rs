//! Run scenarios: build the Given position, perform the Whens, check the Thens, and say exactly
//! which step failed, what was expected and what was found.
//!
//! Variants come in through `VariantProvider`; the runner knows nothing of scripts. The parts:
//! `expand` (backgrounds and outline rows into concrete scenarios), `check` (static checks of
//! names against the variant), `run` (the Givens' setup and the Whens), `givens` (placing cards
//! for a Given position) and `then` (checking the Thens and describing what was found).

use crate::kernel::{Action, Game, RuleError, Rules, Seat};
use crate::spec::ast::{Span, Step};
use std::sync::Arc;

mod check;
mod diff;
mod expand;
mod givens;
mod position;
mod run;
mod then;

pub use check::{check, variant_of};
pub use expand::expand;
pub use run::{Failure, Moment, action_for, card_in, literal_value, run, run_observed};
pub use then::{describe_action, describe_loc, subset};

/// A variant as the runner needs it.
pub trait SpecVariant: Rules + Send + Sync {
    /// The rule ids of the variant's rulebook.
    fn rule_ids(&self) -> Vec<String>;
    /// A script fault in one line: the message and `at FILE:LINE:COL`.
    fn describe_fault(&self, error: &RuleError) -> String;
    /// A script fault as a rendered diagnostic on the script's source, if it has a position.
    fn render_fault(&self, error: &RuleError) -> Option<String>;
    /// The computer-player levels of the variant (empty when it has none).
    fn bot_levels(&self) -> Vec<String>;
    /// A computer player at `level` for `seat` of `game`, seeded by `seed`: each call decides
    /// an action to try, or `None` to wait, from the bot's own view.
    fn bot<'a>(&'a self, seat: Seat, level: &str, game: &Game, seed: u64) -> Option<BotPlayer<'a>>;
}

/// A computer player as the runner drives it.
pub type BotPlayer<'a> = Box<dyn FnMut(&Game) -> Result<Option<Action>, RuleError> + Send + 'a>;

/// Why a variant cannot be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unavailable {
    /// There is no variant of that name.
    Unknown,
    /// It exists but does not load: the load error in one line.
    Broken(String),
}

impl std::fmt::Display for Unavailable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Unavailable::Unknown => write!(f, "there is no such variant"),
            Unavailable::Broken(reason) => write!(f, "it does not load ({reason})"),
        }
    }
}

/// Where the runner gets variants from.
pub trait VariantProvider {
    /// The variant, or why it cannot be used.
    fn variant(&self, name: &str) -> Result<Arc<dyn SpecVariant>, Unavailable>;
    /// Names of the variants there are, for suggestions.
    fn names(&self) -> Vec<String>;
}

/// One scenario ready to run: steps from the backgrounds and the scenario, placeholders filled.
#[derive(Clone, Debug)]
pub struct Concrete {
    /// The scenario's name; an outline row's is its filled name and ` (n)`, n counting the rows
    /// of its `Examples:` from 1.
    pub name: String,
    /// The `Scenario:` line.
    pub span: Span,
    /// Its tags and those it inherits (feature, rule, examples), without `@`.
    pub tags: Vec<String>,
    /// The background steps, then the scenario's own.
    pub steps: Vec<Step>,
    /// Steps whose text came from an Examples row: the row, for locating problems.
    pub example_row: Option<Span>,
}
