//! Steps of a uniformly random agent through `agents::Env` (the model under the Python
//! package), with an observation and a mask each step as PettingZoo's `last()` makes, for a
//! fixed number of games (fixed work, so that `perf stat -e instructions` or CPU time compares
//! builds on this noisy machine):
//!
//! ```text
//! cargo run --release --example agents_rate -- [variant] [players] [games]
//! ```

use deckspec::agents::{Config, Env};
use deckspec::script::Variant;
use rand::{RngExt, SeedableRng};
use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let name = args.next().unwrap_or_else(|| "cambia".to_string());
    let number = |what: &str, given: Option<String>, default: u64| match given {
        None => Ok(default),
        Some(s) => s.parse::<u64>().map_err(|e| format!("{what} `{s}`: {e}")),
    };
    let (players, games) = match (
        number("players", args.next(), 4),
        number("games", args.next(), 50),
    ) {
        (Ok(p), Ok(g)) => (p as usize, g),
        (Err(e), _) | (_, Err(e)) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let variant = match Variant::load_named(Path::new("rules"), &name) {
        Ok(v) => Arc::new(v),
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(0);
    let start = std::time::Instant::now();
    let mut steps = 0u64;
    let (mut obs, mut mask) = (Vec::new(), Vec::new());
    for seed in 0..games {
        let mut env = match Env::new(variant.clone(), Config::seats(players, seed)) {
            Ok(env) => env,
            Err(e) => {
                eprintln!("error: game {seed}: {e}");
                return ExitCode::FAILURE;
            }
        };
        obs.resize(env.layout().len(), 0.0);
        mask.resize(env.space().len(), 0);
        while let Some(seat) = env.agent() {
            env.observe(seat, &mut obs);
            env.write_mask(seat, &mut mask);
            let legal = env.legal();
            if let Err(e) = env.step(legal[rng.random_range(0..legal.len())]) {
                eprintln!("error: game {seed}, step {}: {e}", env.steps().len());
                return ExitCode::FAILURE;
            }
            steps += 1;
        }
    }
    let t = start.elapsed().as_secs_f64();
    println!(
        "{name}, {players} players: {steps} steps in {games} games, {t:.2} s: {:.0} steps/s",
        steps as f64 / t
    );
    ExitCode::SUCCESS
}
