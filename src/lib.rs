//! deckspec: a scripting-driven rules platform for memory card games, with a formal scenario spec.
//!
//! - [`kernel`]: the game engine (no scripting, no parsing, no I/O): games, views, events, saving.
//! - [`script`]: variants written as Rhai scripts and YAML (`Variant`), and their bots.
//! - [`spec`]: the scenario language: parsing, checking and running `.feature` files.
//! - [`scenarios`]: running scenario files against script variants (`ScriptProvider`).
//! - [`play`]: a play-test session, a person against bots (`deckspec play`).
//! - [`record`]: a played game written as a scenario file that replays it.
//! - [`serve`]: `deckspec serve`, games hosted over HTTP and WebSocket with a SQLite store
//!   (feature `serve`).
//! - [`mutate`]: mutation testing of rule scripts against their scenarios (`deckspec mutate`).
//! - [`sim`]: studies of many seeded games with computer seats, and their summaries.
//! - [`scaffold`]: a new variant and its scenarios folder (`deckspec new`).
//! - [`command_line`]: the `deckspec` program itself (feature `cli`).
//!
//! The features `cli`, `serve` and `play` (`deckspec play` at a terminal) are on by default;
//! with `default-features = false` the library builds alone, without the server, terminal and
//! command-line crates (tokio, axum, hyper, rusqlite, rustyline, clap, indicatif, mimalloc).
//! `examples/embed.rs` plays a game that way.
//!
//! Embedding a game in a server:
//!
//! ```
//! use deckspec::kernel::{Action, Arg, Game, RuleError, Rules, Seat};
//! use deckspec::script::Variant;
//! use std::path::Path;
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! // Load and compile a variant once; it is Send + Sync, so share it between games and threads.
//! let cambia = Variant::load_named(Path::new("rules"), "cambia")?;
//! let players = vec!["ann".to_string(), "bob".to_string()];
//! let house_rules = [("penalty_draw_count".to_string(), deckspec::kernel::Value::Int(3))];
//! let mut game = Game::new(cambia.table().clone(), players, 42, &house_rules)?;
//! game.start(&cambia)?; // deal; a random (seeded) player starts
//!
//! let ann = game.state.seat_of("ann").unwrap();
//! let current = game.state.current.unwrap();
//! let draw = |seat| Action { seat, name: "draw_stockpile".into(), args: vec![] };
//! if current == ann {
//!     game.apply(&cambia, &draw(ann))?;
//! } else {
//!     // Out of turn: refused, and the game is exactly as it was.
//!     assert_eq!(game.apply(&cambia, &draw(ann)), Err(RuleError::Refused("not your turn".into())));
//! }
//!
//! game.advance(&cambia, 15_000)?; // the game clock: the turn timer fires
//! let bob = Seat(1);
//! let events = game.rendered_events(bob, 0); // what bob received, as JSON, from event 0 on
//! let view = game.view(bob); // what bob may see now (`kernel::View`; `view.to_json()` to send)
//! assert!(events.iter().any(|e| e["type"] == "game_player_turn"));
//! assert_eq!(view.players[0].hand.len(), 4);
//! assert!(view.players[0].hand[0].as_ref().unwrap().face.is_none()); // ann's card: hidden from bob
//!
//! // Clients name cards by public id; a card in bob's hand:
//! let id = &view.players[1].hand[0].as_ref().unwrap().id;
//! let card = game.card_from_id(id).unwrap();
//! let _snap = Action { seat: bob, name: "snap".into(), args: vec![Arg::Card(card)] };
//!
//! // Serializable, and restorable with the variant's table.
//! let saved = serde_json::to_string(&game.save())?;
//! let back = Game::restore(cambia.table().clone(), serde_json::from_str(&saved)?)?;
//! assert_eq!(back.state, game.state);
//! # Ok(())
//! # }
//! ```
//!
//! Seating a computer player, and keeping a long-running game small:
//!
//! ```
//! use deckspec::kernel::{Game, Seat};
//! use deckspec::script::{Variant, bots::Bot};
//! use std::path::Path;
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let recall = Variant::load_named(Path::new("rules"), "recall")?;
//! let players = vec!["ann".to_string(), "bot".to_string()];
//! let mut game = Game::new(recall.table().clone(), players, 7, &[])?;
//! game.start(&recall)?;
//! // Levels come from rules/recall/bots.yaml; the bot's seed is its own.
//! let book = recall.bots.as_ref().unwrap();
//! let mut bot = book.bot(Seat(1), "hard", &game, 7).unwrap();
//!
//! // Ask the bot whenever the game changes; it decides from its own view only.
//! if let Some(action) = book.decide(&mut bot, &game)? {
//!     game.apply(&recall, &action)?; // a bot's action is checked like anyone's
//! }
//!
//! // Deliver new events to clients, then forget them: events are numbered for the whole game,
//! // and a bot must have seen an event (`decide` or `observe`) before it is forgotten.
//! let mut sent = 0;
//! let for_ann = game.rendered_events(Seat(0), sent);
//! sent = game.event_count();
//! book.observe(&mut bot, &game);
//! game.forget_events_before(sent.min(bot.seen()));
//! assert!(game.log.is_empty() && !for_ann.is_empty());
//!
//! // The bot is saved beside the game.
//! let saved_bot: Bot = serde_json::from_str(&serde_json::to_string(&bot)?)?;
//! assert_eq!(saved_bot, bot);
//! # Ok(())
//! # }
//! ```

#![deny(missing_docs)]

// README.md's Rust examples compile and run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeExamples;

pub mod agents;
#[cfg(feature = "mimalloc")]
pub mod allocator;
pub mod balance;
#[cfg(feature = "cli")]
mod cli;
pub mod coverage;
pub mod kernel;
#[cfg(feature = "lsp")]
pub mod lsp;
pub mod mutate;
pub mod play;
pub mod prove;
pub mod record;
// The simulation report page is the command line's (`simulate --report`); the coverage page
// shares its helpers.
#[cfg_attr(not(feature = "cli"), allow(dead_code))]
mod report;
pub mod scaffold;
pub mod scenarios;
pub mod script;
#[cfg(feature = "serve")]
pub mod serve;
pub mod sim;
pub mod spec;
pub mod strength;
mod suggest;

/// The `deckspec` command line, as the binary runs it: reads the process's arguments (exiting
/// with clap's message on bad ones), runs the command on a thread with the stack rule scripts
/// need (`script::SCRIPT_STACK_BYTES`), and returns the exit status: 0 success, 1 a scenario or
/// game failed, 2 bad input (README.md lists them).
#[cfg(feature = "cli")]
pub fn command_line() -> i32 {
    use clap::Parser;
    let cli = cli::Cli::parse();
    std::thread::Builder::new()
        .name("deckspec".into())
        .stack_size(script::SCRIPT_STACK_BYTES)
        .spawn(move || cli::run(cli))
        .map(|thread| thread.join().unwrap_or(cli::EXIT_BROKEN))
        .unwrap_or_else(|e| {
            eprintln!("error: cannot start: {e}");
            cli::EXIT_BROKEN
        })
}
