//! Simulation: play many seeded games of a variant with computer seats and summarize them.

use crate::kernel::playout::{RandomAgent, Step};
use crate::kernel::{Game, RuleError, Rules, Value};

/// What one simulated game came to.
#[derive(Clone, Debug, PartialEq)]
pub struct GameSummary {
    pub seed: u64,
    pub actions: u64,
    pub winners: Vec<usize>,
    pub reason: String,
    pub scores: Vec<i64>,
}

/// Why a simulated game could not be finished.
#[derive(Debug, thiserror::Error)]
pub enum SimError {
    #[error("game {seed}: cannot start: {message}")]
    Start { seed: u64, message: String },
    #[error("game {seed}: {error}")]
    Rules { seed: u64, error: RuleError },
    #[error("game {seed}: no end after {steps} steps")]
    Endless { seed: u64, steps: u64 },
    #[error("game {seed}: stuck: no action is legal and no timer runs")]
    Stuck { seed: u64 },
}

/// Steps after which a game counts as endless.
pub const MAX_STEPS: u64 = 100_000;

/// Play one game with uniformly random legal actions for every seat.
pub fn play_random(
    rules: &dyn Rules,
    players: usize,
    seed: u64,
    house: &[(String, Value)],
) -> Result<GameSummary, SimError> {
    let names = (0..players).map(|i| format!("p{i}")).collect();
    let start = |message: String| SimError::Start { seed, message };
    let mut game =
        Game::new(rules.table().clone(), names, seed, house).map_err(|e| start(e.to_string()))?;
    game.start(rules).map_err(|e| start(e.to_string()))?;
    let mut agent = RandomAgent::new(seed);
    let mut actions = 0;
    while !game.is_over() {
        if actions >= MAX_STEPS {
            return Err(SimError::Endless {
                seed,
                steps: actions,
            });
        }
        match agent.step(&mut game, rules) {
            Ok(Step::Acted(_)) => actions += 1,
            Ok(Step::Waited) => {}
            Ok(Step::Stuck) => return Err(SimError::Stuck { seed }),
            Err(error) => return Err(SimError::Rules { seed, error }),
        }
    }
    summarize(rules, &mut game, seed, actions)
}

fn summarize(
    rules: &dyn Rules,
    game: &mut Game,
    seed: u64,
    actions: u64,
) -> Result<GameSummary, SimError> {
    let outcome = game
        .state
        .outcome
        .clone()
        .unwrap_or(crate::kernel::Outcome {
            winners: Vec::new(),
            reason: String::new(),
        });
    let scores = (0..game.state.player_count())
        .map(|s| rules.score(&mut game.trial(), crate::kernel::Seat(s as u8)))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|error| SimError::Rules { seed, error })?;
    Ok(GameSummary {
        seed,
        actions,
        winners: outcome.winners.iter().map(|s| s.index()).collect(),
        reason: outcome.reason,
        scores,
    })
}

/// Who plays a seat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Seating {
    /// Uniformly random among the seat's legal actions and waiting.
    Random,
    /// A computer player of this level (`easy`, `medium`, `hard`, `expert`).
    Bot(String),
}

impl std::str::FromStr for Seating {
    type Err = String;

    fn from_str(s: &str) -> Result<Seating, String> {
        match s {
            "random" => Ok(Seating::Random),
            level if crate::script::bots::LEVELS.contains(&level) => {
                Ok(Seating::Bot(level.to_string()))
            }
            other => Err(format!(
                "`{other}` is not a seat kind: use random, easy, medium, hard or expert{}",
                crate::suggest::suggestion(other, ["random", "easy", "medium", "hard", "expert"])
                    .map(|s| format!(" ({s})"))
                    .unwrap_or_default()
            )),
        }
    }
}

/// How the computer players behaved in a game.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BotStats {
    pub decisions: u64,
    /// Bot actions the rules refused (each is a bot-script bug).
    pub refusals: Vec<String>,
    /// Bot actions naming a card the bot did not remember (peeks excepted).
    pub unknown_cards: Vec<String>,
}

/// Play one game with the given seats; bots come from the variant's `bots.yaml`.
pub fn play_seated(
    variant: &crate::script::Variant,
    seating: &[Seating],
    seed: u64,
    house: &[(String, Value)],
) -> Result<(GameSummary, BotStats), SimError> {
    use crate::kernel::{Arg, Seat};
    use rand::SeedableRng;
    use rand::seq::SliceRandom;
    let start = |message: String| SimError::Start { seed, message };
    let names = (0..seating.len()).map(|i| format!("p{i}")).collect();
    let mut game =
        Game::new(variant.table().clone(), names, seed, house).map_err(|e| start(e.to_string()))?;
    game.start(variant).map_err(|e| start(e.to_string()))?;
    let cards = game.state.cards.len();
    let needs_bots = seating.iter().any(|s| matches!(s, Seating::Bot(_)));
    let book = match (&variant.bots, needs_bots) {
        (Some(book), _) => Some(book),
        (None, false) => None,
        (None, true) => return Err(start(format!("{} has no bots.yaml", variant.name))),
    };
    let mut bots: Vec<Option<crate::script::bots::Bot>> = seating
        .iter()
        .enumerate()
        .map(|(i, s)| match (s, book) {
            (Seating::Bot(level), Some(book)) => book.bot(Seat(i as u8), level, cards, seed),
            _ => None,
        })
        .collect();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed ^ 0x5eed_5eed);
    let mut stats = BotStats::default();
    let mut actions = 0;
    let mut steps = 0u64;
    let n = seating.len();
    while !game.is_over() {
        steps += 1;
        if steps > MAX_STEPS {
            return Err(SimError::Endless { seed, steps });
        }
        let first = game.state.current.map_or(0, |s| s.index());
        let mut acted = false;
        for k in 0..n {
            let seat = Seat(((first + k) % n) as u8);
            match (&seating[seat.index()], bots[seat.index()].as_mut(), book) {
                (Seating::Bot(_), Some(bot), Some(book)) => {
                    stats.decisions += 1;
                    let decision = book
                        .decide(bot, &game)
                        .map_err(|error| SimError::Rules { seed, error })?;
                    let Some(action) = decision else { continue };
                    // Peeks exist to learn unknown cards; anything else must use remembered ones.
                    let is_peek = action.name.contains("peek")
                        || action
                            .args
                            .iter()
                            .any(|a| matches!(a, Arg::Word(w) if w.contains("peek")));
                    if !is_peek {
                        for arg in &action.args {
                            let card = match arg {
                                Arg::Card(c) => Some(*c),
                                Arg::Slot { seat, slot } => game
                                    .state
                                    .hand(*seat)
                                    .get(*slot as usize)
                                    .copied()
                                    .flatten(),
                                _ => None,
                            };
                            if let Some(card) = card
                                && !book.remembers(bot, &game, card)
                            {
                                stats.unknown_cards.push(format!("{action:?}"));
                            }
                        }
                    }
                    match game.apply(variant, &action) {
                        Ok(()) => acted = true,
                        Err(RuleError::Refused(reason)) => {
                            stats.refusals.push(format!("{action:?}: {reason}"))
                        }
                        Err(error) => return Err(SimError::Rules { seed, error }),
                    }
                }
                _ => {
                    let mut options: Vec<Option<crate::kernel::Action>> = game
                        .candidates()
                        .into_iter()
                        .filter(|a| a.seat == seat)
                        .map(Some)
                        .collect();
                    options.push(None);
                    options.shuffle(&mut rng);
                    for option in options {
                        let Some(action) = option else { break };
                        match game.apply(variant, &action) {
                            Ok(()) => {
                                acted = true;
                                break;
                            }
                            Err(RuleError::Refused(_)) => {}
                            Err(error) => return Err(SimError::Rules { seed, error }),
                        }
                    }
                }
            }
            if acted {
                actions += 1;
                break;
            }
        }
        if !acted {
            let fired = game
                .run_out(variant)
                .map_err(|error| SimError::Rules { seed, error })?;
            if !fired {
                // Nobody chose to act and no timer runs: the current player must move.
                let mut agent = RandomAgent::new(seed ^ steps);
                match agent.step(&mut game, variant) {
                    Ok(Step::Acted(_)) => actions += 1,
                    Ok(Step::Waited) => {}
                    Ok(Step::Stuck) => return Err(SimError::Stuck { seed }),
                    Err(error) => return Err(SimError::Rules { seed, error }),
                }
            }
        }
    }
    Ok((summarize(variant, &mut game, seed, actions)?, stats))
}
