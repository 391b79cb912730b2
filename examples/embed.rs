//! deckspec embedded in a program of its own, as a library without the server, terminal and
//! command-line crates: load a bundled variant, seat its bots, play one game through the kernel's
//! API and print its opening actions, its outcome and what one player was sent.
//!
//! ```text
//! cargo run --no-default-features --example embed                  # cambia, seed 42
//! cargo run --no-default-features --example embed -- recall 7      # a variant and a seed
//! ```
//!
//! A program of your own depends on the library alone with, in its `Cargo.toml`,
//! `deckspec = { path = "../deckspec", default-features = false }` (README, "Embedding the
//! kernel").

use deckspec::kernel::playout::{RandomAgent, Step};
use deckspec::kernel::{Game, RuleError, Rules, Seat};
use deckspec::record::action_command;
use deckspec::script::Variant;
use deckspec::script::bots::Bot;
use std::error::Error;
use std::path::Path;
use std::process::ExitCode;

/// Steps (an action, or the clock run to the next timer) after which the game is called endless.
const MAX_STEPS: usize = 10_000;
/// The actions printed as they are played; the rest are counted.
const SHOWN: usize = 12;

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let name = args.next().unwrap_or_else(|| "cambia".to_string());
    let seed = match args.next().map(|s| s.parse::<u64>()) {
        None => 42,
        Some(Ok(seed)) => seed,
        Some(Err(e)) => {
            eprintln!("error: the seed: {e}");
            return ExitCode::from(2);
        }
    };
    // Rule scripts may nest deeply: every thread that runs them gets this much stack.
    let played = std::thread::Builder::new()
        .stack_size(deckspec::script::SCRIPT_STACK_BYTES)
        .spawn(move || play(&name, seed).map_err(|e| e.to_string()))
        .map_err(|e| e.to_string())
        .and_then(|thread| thread.join().map_err(|_| "the game panicked".to_string()))
        .and_then(|result| result);
    match played {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn play(name: &str, seed: u64) -> Result<(), Box<dyn Error>> {
    // The variants bundled with deckspec; a program of its own has its own folder of them.
    let rules_dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("rules");
    // Loaded and compiled once; a `Variant` is Send + Sync, shared by any number of games.
    let variant = Variant::load_named(&rules_dir, name)?;
    let book = variant
        .bots
        .as_ref()
        .ok_or_else(|| format!("{name} has no bots.yaml"))?;

    let range = &variant.table().players;
    let count = if range.contains(3) { 3 } else { range.min };
    let players: Vec<String> = ["ann", "bob", "cat", "dan", "eve", "fay", "gus", "hal"]
        .iter()
        .take(count)
        .map(|p| p.to_string())
        .collect();
    let mut game = Game::new(variant.table().clone(), players.clone(), seed, &[])?;
    game.start(&variant)?; // the deal

    // Every seat a bot, of the levels in the variant's bots.yaml; each decides from its own view
    // and memory only.
    let levels: Vec<&str> = book.levels().collect();
    let mut bots: Vec<Bot> = (0..count)
        .map(|i| {
            let (seat, level) = (Seat(i as u8), levels[i % levels.len()]);
            book.bot(seat, level, &game, seed.wrapping_add(i as u64))
                .ok_or_else(|| format!("no bot level {level}"))
        })
        .collect::<Result<_, _>>()?;
    let seated: Vec<String> = bots
        .iter()
        .map(|b| format!("{} ({})", players[b.seat.index()], b.level))
        .collect();
    println!("{name}, seed {seed}: {}", seated.join(", "));

    let (mut delivered, mut sent_to_ann) = (0, 0);
    let (mut actions, mut timers, mut refusals) = (0, 0, 0);
    while !game.is_over() {
        if actions + timers > MAX_STEPS {
            return Err(format!("no end after {MAX_STEPS} steps").into());
        }
        // The seat whose turn it is asks first; any bot may act out of turn (a snap).
        let first = game.state.current.map_or(0, |s| s.index());
        let mut acted = false;
        for k in 0..count {
            let bot = &mut bots[(first + k) % count];
            let Some(action) = book.decide(bot, &game)? else {
                continue;
            };
            // Written as a player types it, before the action changes what its slots hold.
            let text = action_command(&game, &action);
            match game.apply(&variant, &action) {
                Ok(()) => {
                    actions += 1;
                    if actions <= SHOWN {
                        let who = &players[bot.seat.index()];
                        println!("{actions:>4}. {who}: {text}");
                    } else if actions == SHOWN + 1 {
                        println!("   …");
                    }
                    acted = true;
                    break;
                }
                // Refused: the game is exactly as it was.
                Err(RuleError::Refused(_)) => refusals += 1,
                Err(fault) => return Err(fault.into()),
            }
        }
        if !acted {
            // Nobody acts: the clock runs to the next timer (a turn timer, a snap window).
            if game.run_out(&variant)? {
                timers += 1;
            } else {
                // No timer runs either: the player whose turn it is must move.
                match RandomAgent::new(seed ^ actions as u64).step(&mut game, &variant)? {
                    Step::Acted(_) => actions += 1,
                    Step::Waited => timers += 1,
                    Step::Stuck => return Err("the game is stuck".into()),
                }
            }
        }
        // What a server would send ann (as JSON) since the last step; events are numbered for
        // the whole game, and forgotten once delivered and seen by every bot.
        sent_to_ann += game.rendered_events(Seat(0), delivered).len();
        delivered = game.event_count();
        for bot in &mut bots {
            book.observe(bot, &game);
        }
        let seen = bots.iter().map(Bot::seen).min().unwrap_or(delivered);
        game.forget_events_before(seen.min(delivered));
    }

    let outcome = game.state.outcome.clone().expect("the game is over");
    let winners: Vec<&str> = outcome
        .winners
        .iter()
        .map(|s| players[s.index()].as_str())
        .collect();
    println!(
        "over after {actions} actions and {timers} timers ({refusals} refused tries): {} ({})",
        if winners.is_empty() {
            "a draw".to_string()
        } else {
            format!("{} won", winners.join(" and "))
        },
        outcome.reason
    );
    // A score hook may change the game it reads: each score is taken on a copy.
    let scores = (0..count)
        .map(|i| {
            let mut copy = game.trial();
            let score = variant.score(&mut copy, Seat(i as u8));
            copy.recycle();
            score.map(|s| format!("{} {s}", players[i]))
        })
        .collect::<Result<Vec<_>, _>>()?;
    println!("scores: {}", scores.join(", "));
    let saved = serde_json::to_string(&game.save())?;
    println!(
        "{} events in all, {sent_to_ann} of them sent to ann; the finished game saves as {} bytes of JSON",
        game.event_count(),
        saved.len()
    );
    Ok(())
}
