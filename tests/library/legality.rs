//! A legality check that stops an action at its first change (`Rules::check_act`, for hooks that
//! refuse only before they change the game) against the whole action run and undone: the same
//! answer for every candidate of every seat over random games of every variant, on both engines,
//! and on mutants of the bundled scripts (scripts nobody wrote to suit the reading).

use deckspec::agents::{Config, Env};
use deckspec::kernel::{Action, Candidates, Game, RuleError, Rules, Seat, Table, Timer};
use deckspec::script::mutants::mutations;
use deckspec::script::{EngineKind, Variant, variant_names};
use deckspec::sim::on_script_thread;
use rand::{RngExt, SeedableRng};
use std::path::{Path, PathBuf};
use std::sync::Arc;

fn rules() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("rules")
}

/// The variant with every action run whole when its legality is checked (`check_act`'s default).
struct Whole<'a>(&'a Variant);

impl Rules for Whole<'_> {
    fn table(&self) -> &Arc<Table> {
        self.0.table()
    }
    fn setup(&self, game: &mut Game) -> Result<(), RuleError> {
        self.0.setup(game)
    }
    fn end_setup(&self, game: &mut Game, first: Seat) -> Result<(), RuleError> {
        self.0.end_setup(game, first)
    }
    fn start_turn(&self, game: &mut Game, seat: Seat) -> Result<(), RuleError> {
        self.0.start_turn(game, seat)
    }
    fn act(&self, game: &mut Game, action: &Action) -> Result<(), RuleError> {
        self.0.act(game, action)
    }
    fn timer(&self, game: &mut Game, timer: &Timer) -> Result<(), RuleError> {
        self.0.timer(game, timer)
    }
    fn score(&self, game: &mut Game, seat: Seat) -> Result<i64, RuleError> {
        self.0.score(game, seat)
    }
}

/// Play random games of `variant` through `Env` for at most `steps` steps each; at every step,
/// check every candidate of every seat both ways. The number of candidates checked, or the
/// first disagreement.
fn check(variant: Arc<Variant>, games: u64, players: usize, steps: usize) -> Result<u64, String> {
    let mut checked = 0;
    let mut candidates = Candidates::default();
    for seed in 0..games {
        let mut config = Config::seats(players, seed);
        config.max_steps = steps;
        let Ok(mut env) = Env::new(variant.clone(), config) else {
            // A mutant whose setup fails deals no game to check.
            continue;
        };
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        while env.agent().is_some() {
            let mut game = env.game().clone();
            for seat in 0..players {
                candidates.refill(&game, Some(Seat(seat as u8)));
                for action in candidates.to_vec() {
                    let whole = game.accepts(&Whole(&variant), &action);
                    let quick = game.accepts(&*variant, &action);
                    checked += 1;
                    match (&whole, &quick) {
                        (Ok(a), Ok(b)) if a == b => {}
                        // A fault after the first change: the check stopped before it.
                        (Err(_), Ok(true)) => {}
                        (Err(a), Err(b)) if a == b => {}
                        _ => {
                            return Err(format!(
                                "game {seed}, step {}: {action:?}: the whole action says {whole:?}, the quick check {quick:?}",
                                env.steps().len()
                            ));
                        }
                    }
                }
            }
            let legal = env.legal();
            if let Err(e) = env.step(legal[rng.random_range(0..legal.len())]) {
                // A mutant whose script fails ends its game here; the check is what counts.
                let _ = e;
                break;
            }
        }
    }
    Ok(checked)
}

fn load(name: &str, engine: EngineKind, texts: &[(PathBuf, String)]) -> Option<Arc<Variant>> {
    let mut v = Variant::load_named_with(&rules(), name, texts).ok()?;
    v.set_engine(engine);
    Some(Arc::new(v))
}

#[test]
fn the_quick_check_agrees_with_the_whole_action_on_every_variant_and_engine() {
    on_script_thread(|| {
        for name in variant_names(&rules()) {
            for engine in [EngineKind::Compiled, EngineKind::Interpreted] {
                let variant = load(&name, engine, &[]).expect("the variant loads");
                for players in [2, 4] {
                    let checked = check(variant.clone(), 3, players, 300)
                        .unwrap_or_else(|e| panic!("{name}, {engine:?}, {players} players: {e}"));
                    assert!(checked > 100, "{name}: only {checked} candidates checked");
                }
            }
        }
    })
    .expect("runs");
}

/// Mutants of each variant's entry script checked by a test: every `MUTANT_STRIDE`-th one.
const MUTANT_STRIDE: usize = 25;

#[test]
fn the_quick_check_agrees_with_the_whole_action_on_mutants() {
    on_script_thread(|| {
        for name in variant_names(&rules()) {
            let base = load(&name, EngineKind::Compiled, &[]).expect("the variant loads");
            let t = base.table();
            let names = vec![
                t.piles.iter().map(|p| p.name.clone()).collect(),
                t.phases.iter().map(|p| p.name.clone()).collect(),
                t.events.iter().map(|e| e.to_string()).collect(),
                t.player_vars.iter().map(|(n, _)| n.clone()).collect(),
            ];
            let mut loaded = 0;
            for (path, text) in base.rule_scripts() {
                for mutation in mutations(&text, &names).iter().step_by(MUTANT_STRIDE) {
                    let texts = [(path.clone(), mutation.apply(&text))];
                    let Some(mutant) = load(&name, EngineKind::Compiled, &texts) else {
                        continue;
                    };
                    loaded += 1;
                    check(mutant, 1, 3, 60).unwrap_or_else(|e| {
                        panic!("{name}, mutant {mutation:?} of {}: {e}", path.display())
                    });
                }
            }
            assert!(loaded >= 5, "{name}: only {loaded} mutants loaded");
        }
    })
    .expect("runs");
}

#[test]
fn bundled_variants_check_their_commonest_actions_until_the_first_change() {
    // The reading is conservative; this holds it to reading the bundled scripts well enough to
    // matter (a snap or a match is tried for every slot at every step).
    let quick = |name: &str| {
        let v = load(name, EngineKind::Compiled, &[]).expect("loads");
        v.checked_until_change()
            .into_iter()
            .map(String::from)
            .collect::<Vec<_>>()
    };
    assert!(quick("cambia").contains(&"snap".to_string()));
    assert!(quick("check").contains(&"attempt_match".to_string()));
    assert!(quick("recall").contains(&"same_rank".to_string()));
    assert!(quick("golf").contains(&"swap".to_string()));
}
