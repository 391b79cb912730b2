//! Benchmarks (`cargo bench -p deckspec-tools`): per variant, one scripted action, a whole random 4-player game and
//! a whole 4-player game of expert bots (each on both script engines), and a variant load (with
//! its compilation); and parsing plus running the whole spec suite.

use criterion::{Criterion, criterion_group, criterion_main};
use deckspec::kernel::{Game, Rules};
use deckspec::scenarios::ScriptProvider;
use deckspec::script::{EngineKind, Variant, variant_names};
use deckspec::sim::Seating;
use deckspec::spec::suite::{self, Filter};
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The repository's root: the tools crate is one folder below it.
fn repo_root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

fn rules_dir() -> PathBuf {
    repo_root().join("rules")
}

fn per_variant(c: &mut Criterion) {
    for name in variant_names(&rules_dir()) {
        let variant = Variant::load_named(&rules_dir(), &name).expect("the variant loads");
        let mut group = c.benchmark_group(&name);

        group.bench_function("load", |b| {
            b.iter(|| Variant::load_named(&rules_dir(), black_box(&name)).expect("loads"))
        });

        for engine in [EngineKind::Compiled, EngineKind::Interpreted] {
            let mut variant = Variant::load_named(&rules_dir(), &name).expect("the variant loads");
            variant.set_engine(engine);
            group.bench_function(format!("random game (4 players, {})", engine.name()), |b| {
                let mut seed = 0;
                b.iter(|| {
                    seed += 1;
                    deckspec::sim::play_random(&variant, 4, seed, &[]).expect("a game ends")
                })
            });
            let bots = vec![Seating::Bot("expert".into()); 4];
            group.bench_function(
                format!("expert bots game (4 players, {})", engine.name()),
                |b| {
                    let mut seed = 0;
                    b.iter(|| {
                        seed += 1;
                        deckspec::sim::play_seated(&variant, &bots, seed, &[]).expect("a game ends")
                    })
                },
            );
        }

        // One scripted action: the first legal action of a fresh game, applied to a copy.
        let players = (0..4).map(|i| format!("p{i}")).collect();
        let mut game = Game::new(variant.table().clone(), players, 7, &[]).expect("a game");
        game.start(&variant).expect("setup");
        if variant.table().phases[game.state.phase.0 as usize].setup {
            let first = game.state.current.unwrap_or(deckspec::kernel::Seat(0));
            game.transact(|g| variant.end_setup(g, first))
                .expect("turns start");
        }
        let action = game
            .legal_actions(&variant)
            .into_iter()
            .next()
            .expect("a legal action");
        group.bench_function("one action", |b| {
            b.iter_batched(
                || game.trial(),
                |mut g| g.apply(&variant, black_box(&action)).expect("applies"),
                criterion::BatchSize::SmallInput,
            )
        });
        group.finish();
    }
}

fn spec_suite(c: &mut Criterion) {
    let root = repo_root();
    let files = suite::feature_files(&[root.join("spec-tests")]).expect("spec-tests");
    let sources: Vec<(String, Arc<String>)> = files
        .iter()
        .map(|f| {
            (
                f.display().to_string(),
                Arc::new(std::fs::read_to_string(f).expect("readable")),
            )
        })
        .collect();
    c.bench_function("spec suite: parse and run every scenario", |b| {
        b.iter(|| {
            let provider = ScriptProvider::new(&rules_dir());
            for (path, src) in &sources {
                let result = suite::run_file(path, src.clone(), &provider, &Filter::default());
                assert!(result.problems.is_empty());
            }
        })
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = per_variant, spec_suite
}
criterion_main!(benches);
