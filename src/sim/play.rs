//! Playing one game: every seat uniformly random (`play_random`, the speed benchmark) or any mix
//! of bots and random seats (`play_seated`).

use super::engines::Twin;
use super::verify::Verify;
use super::{BotStats, GameSummary, Limit, MAX_STEPS, Refusal, Seating, SimError};
use crate::kernel::playout::{RandomAgent, Step};
use crate::kernel::{Game, RuleError, Rules, Value};

/// Play one game of a study: every seat random, or with bots; with `verify`, every step checked
/// (`verify.rs`); with `compare` (the same variant on the interpreter), every hook call run on
/// both engines and compared (`engines.rs`). The game is the same with or without checks.
pub fn play(
    variant: &crate::script::Variant,
    seating: &[Seating],
    seed: u64,
    house: &[(String, Value)],
    verify: bool,
    compare: Option<&crate::script::Variant>,
) -> Result<(GameSummary, BotStats), SimError> {
    let twin = compare.map(|reference| Twin::new(reference, variant));
    let rules: &dyn Rules = match &twin {
        Some(twin) => twin,
        None => variant,
    };
    if seating.iter().all(|s| *s == Seating::Random) {
        // The events are kept only to be verified or compared.
        let keep_events = verify || compare.is_some();
        random_game(
            rules,
            seating.len(),
            seed,
            house,
            verify,
            keep_events,
            Limit::Fail,
        )
        .map(|g| (g, BotStats::default()))
    } else {
        seated_game(
            variant,
            rules,
            seating,
            seed,
            house,
            verify,
            None,
            compare,
            Limit::Fail,
        )
    }
}

/// Play one game with `rules` (the variant, or a wrapper of it that watches every step), seats
/// as `seating` says (bots from the variant's `bots.yaml`); with `Limit::Stop`, a game still
/// going at the limit is summarized unfinished rather than failed.
pub fn play_observed(
    variant: &crate::script::Variant,
    rules: &dyn Rules,
    seating: &[Seating],
    seed: u64,
    house: &[(String, Value)],
    limit: Limit,
) -> Result<(GameSummary, BotStats), SimError> {
    if seating.iter().all(|s| *s == Seating::Random) {
        random_game(rules, seating.len(), seed, house, false, false, limit)
            .map(|g| (g, BotStats::default()))
    } else {
        seated_game(
            variant, rules, seating, seed, house, false, None, None, limit,
        )
    }
}

/// Play one game with uniformly random legal actions for every seat.
pub fn play_random(
    rules: &dyn Rules,
    players: usize,
    seed: u64,
    house: &[(String, Value)],
) -> Result<GameSummary, SimError> {
    random_game(rules, players, seed, house, false, false, Limit::Fail)
}

fn names(players: usize) -> Vec<String> {
    (0..players).map(|i| format!("p{i}")).collect()
}

/// The checks of a game, if verified: before and after each step, and at the end.
struct Checks<'a>(Option<Verify<'a>>, u64);

impl Checks<'_> {
    fn before(&self, game: &Game) {
        if let Some(v) = &self.0 {
            v.before(game);
        }
    }

    fn after(&self, game: &Game) -> Result<(), SimError> {
        match &self.0 {
            Some(v) => v
                .after(game)
                .map_err(|what| SimError::Verify { seed: self.1, what }),
            None => Ok(()),
        }
    }

    fn finish(&self, game: &Game) -> Result<(), SimError> {
        match &self.0 {
            Some(v) => v
                .finish(game)
                .map_err(|what| SimError::Verify { seed: self.1, what }),
            None => Ok(()),
        }
    }
}

pub(super) fn random_game(
    rules: &dyn Rules,
    players: usize,
    seed: u64,
    house: &[(String, Value)],
    verify: bool,
    keep_events: bool,
    limit: Limit,
) -> Result<GameSummary, SimError> {
    let checks = Checks(
        verify.then(|| Verify::new(rules, seed, names(players), house)),
        seed,
    );
    let rules: &dyn Rules = match &checks.0 {
        Some(v) => v,
        None => rules,
    };
    let start = |message: String| SimError::Start { seed, message };
    let mut game = Game::new(rules.table().clone(), names(players), seed, house)
        .map_err(|e| start(e.to_string()))?;
    // Unless they are verified or compared, nobody reads the events of a random game: each is
    // checked and counted, not kept.
    game.set_keep_events(keep_events);
    checks.before(&game);
    game.start(rules).map_err(|e| start(e.to_string()))?;
    checks.after(&game)?;
    let mut agent = RandomAgent::new(seed);
    let mut actions = 0;
    while !game.is_over() {
        checks.before(&game);
        match limit {
            Limit::Stop(max) if actions >= max => {
                return summarize(rules, &mut game, seed, actions).map(unfinished);
            }
            Limit::Fail if actions >= MAX_STEPS => {
                return Err(SimError::Endless {
                    seed,
                    steps: actions,
                });
            }
            _ => {}
        }
        actions += random_step(&mut agent, &mut game, rules, seed)?;
        checks.after(&game)?;
        // Those kept were verified or compared: forgotten.
        game.forget_events_before(game.event_count());
    }
    checks.finish(&game)?;
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
    let read_only = rules.score_changes_nothing();
    let scores = (0..game.state.player_count())
        .map(|s| {
            let seat = crate::kernel::Seat(s as u8);
            if read_only {
                return rules.score(game, seat);
            }
            // Each player's score on a fresh copy (a score hook may change it); the copy's memory
            // serves the next one.
            let mut trial = game.trial();
            let score = rules.score(&mut trial, seat);
            trial.recycle();
            score
        })
        .collect::<Result<Vec<_>, _>>()
        .map_err(|error| SimError::Rules { seed, error })?;
    Ok(GameSummary {
        seed,
        actions,
        winners: outcome.winners.iter().map(|s| s.index()).collect(),
        reason: outcome.reason,
        scores,
        unfinished: false,
    })
}

/// A summary of a game stopped at its step limit.
fn unfinished(summary: GameSummary) -> GameSummary {
    GameSummary {
        unfinished: true,
        reason: "step limit".into(),
        winners: Vec::new(),
        ..summary
    }
}

/// Play one game with the given seats; bots come from the variant's `bots.yaml`.
pub fn play_seated(
    variant: &crate::script::Variant,
    seating: &[Seating],
    seed: u64,
    house: &[(String, Value)],
) -> Result<(GameSummary, BotStats), SimError> {
    seated_game(
        variant,
        variant,
        seating,
        seed,
        house,
        false,
        None,
        None,
        Limit::Fail,
    )
}

/// Play one game of a study and write it as a scenario that replays it (`record`): the same
/// game `play` plays, with `header` as the file's opening comment.
pub fn record_game(
    variant: &crate::script::Variant,
    seating: &[Seating],
    seed: u64,
    house: &[(String, Value)],
    house_text: &[(String, String)],
    header: &str,
) -> Result<String, SimError> {
    let recorder = crate::record::Recorder::new(variant, house_text);
    seated_game(
        variant,
        variant,
        seating,
        seed,
        house,
        false,
        Some(&recorder),
        None,
        Limit::Fail,
    )?;
    let text = recorder.text().ok_or(SimError::Start {
        seed,
        message: "the recording was not written".into(),
    })?;
    let comment: String = header.lines().map(|l| format!("# {l}\n")).collect();
    Ok(text.replacen("# {HEADER}\n", &comment, 1))
}

/// `variant` gives the table and bots; `base` runs the rules (the variant, or a `Twin` of it);
/// with `reference` (the variant on the interpreter), every bot decision is also made on it and
/// compared.
#[allow(
    clippy::too_many_arguments,
    reason = "one private function with its callers' switches"
)]
fn seated_game(
    variant: &crate::script::Variant,
    base: &dyn Rules,
    seating: &[Seating],
    seed: u64,
    house: &[(String, Value)],
    verify: bool,
    recorder: Option<&crate::record::Recorder>,
    reference: Option<&crate::script::Variant>,
    limit: Limit,
) -> Result<(GameSummary, BotStats), SimError> {
    use crate::kernel::{Arg, Seat};
    use rand::SeedableRng;
    use rand::seq::SliceRandom;
    let start = |message: String| SimError::Start { seed, message };
    let checks = Checks(
        verify.then(|| Verify::new(base, seed, names(seating.len()), house)),
        seed,
    );
    let rules: &dyn Rules = match (&checks.0, recorder) {
        (_, Some(r)) => r,
        (Some(v), None) => v,
        (None, None) => base,
    };
    let mut game = Game::new(variant.table().clone(), names(seating.len()), seed, house)
        .map_err(|e| start(e.to_string()))?;
    checks.before(&game);
    game.start(rules).map_err(|e| start(e.to_string()))?;
    if let Some(r) = recorder {
        r.start(&game, seed);
    }
    checks.after(&game)?;
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
            (Seating::Bot(level), Some(book)) => book.bot(Seat(i as u8), level, &game, seed),
            _ => None,
        })
        .collect();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed ^ 0x5eed_5eed);
    let mut stats = BotStats::default();
    let mut actions = 0;
    let mut steps = 0u64;
    let n = seating.len();
    while !game.is_over() {
        checks.before(&game);
        steps += 1;
        match limit {
            Limit::Stop(max) if steps > max => {
                let summary = summarize(rules, &mut game, seed, actions).map(unfinished)?;
                return Ok((summary, stats));
            }
            Limit::Fail if steps > MAX_STEPS => return Err(SimError::Endless { seed, steps }),
            _ => {}
        }
        let first = game.state.current.map_or(0, |s| s.index());
        let mut acted = false;
        for k in 0..n {
            let seat = Seat(((first + k) % n) as u8);
            match (&seating[seat.index()], bots[seat.index()].as_mut(), book) {
                (Seating::Bot(_), Some(bot), Some(book)) => {
                    stats.decisions += 1;
                    let decision = match reference.and_then(|r| r.bots.as_ref()) {
                        Some(reference) => {
                            let mut twin = bot.clone();
                            let before = crate::script::operations_spent();
                            let expected = reference.decide(&mut twin, &game);
                            let between = crate::script::operations_spent();
                            // The copy's decision against the lending one's.
                            let got = book.decide_lending(bot, &mut game);
                            let (interpreted_ops, compiled_ops) = (
                                between - before,
                                crate::script::operations_spent() - between,
                            );
                            // A decision made without an error counts the same operations.
                            let differs = if expected != got || twin != *bot {
                                Some(format!("interpreted {expected:?}, compiled {got:?}"))
                            } else if got.is_ok() && interpreted_ops != compiled_ops {
                                Some(format!(
                                    "interpreted {interpreted_ops} operations, compiled {compiled_ops}"
                                ))
                            } else {
                                None
                            };
                            if let Some(how) = differs {
                                return Err(SimError::Rules {
                                    seed,
                                    error: RuleError::fault(format!(
                                        "the engines differ on a decision of the {} bot in seat {}: {how}",
                                        bot.level,
                                        bot.seat.index()
                                    )),
                                });
                            }
                            got
                        }
                        None => book.decide_lending(bot, &mut game),
                    }
                    .map_err(|error| SimError::Rules { seed, error })?;
                    let Some(action) = decision else { continue };
                    // Actions declared `reveals: true` (peeks, flips) exist to turn up unknown
                    // cards; anything else must use remembered ones.
                    if !game.reveals(&action) {
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
                    match game.apply(rules, &action) {
                        Ok(()) => acted = true,
                        Err(RuleError::Refused(reason)) => stats.refusals.push(Refusal {
                            seat: seat.index(),
                            action: crate::record::action_command(&game, &action),
                            reason,
                        }),
                        Err(error) => return Err(SimError::Rules { seed, error }),
                    }
                }
                _ => {
                    // By number, as `RandomAgent` does; the number past the seat's candidates
                    // is waiting.
                    let set = game.candidate_set(Some(seat));
                    let mut order: Vec<usize> = (0..=set.len()).collect();
                    order.shuffle(&mut rng);
                    for i in order {
                        let Some(action) = set.get(i) else { break };
                        match game.apply(rules, &action) {
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
                .run_out(rules)
                .map_err(|error| SimError::Rules { seed, error })?;
            if !fired {
                // Nobody chose to act and no timer runs: the current player must move.
                let mut agent = RandomAgent::new(seed ^ steps);
                actions += random_step(&mut agent, &mut game, rules, seed)?;
            }
        }
        checks.after(&game)?;
        // Events every bot has observed are no longer needed.
        let observed = bots.iter().flatten().map(|b| b.seen()).min();
        game.forget_events_before(observed.unwrap_or(game.event_count()));
    }
    checks.finish(&game)?;
    let summary = summarize(rules, &mut game, seed, actions)?;
    if let Some(r) = recorder {
        let title = format!("{} game of seed {seed}", variant.name);
        r.finish(&game, &title, "{HEADER}", &summary.scores);
    }
    Ok((summary, stats))
}

/// One random step: 1 if an action was taken, 0 if a timer ran out; stuck or a fault is an error.
fn random_step(
    agent: &mut RandomAgent,
    game: &mut Game,
    rules: &dyn Rules,
    seed: u64,
) -> Result<u64, SimError> {
    match agent.step(game, rules) {
        Ok(Step::Acted(_)) => Ok(1),
        Ok(Step::Waited) => Ok(0),
        Ok(Step::Stuck) => Err(SimError::Stuck { seed }),
        Err(error) => Err(SimError::Rules { seed, error }),
    }
}
