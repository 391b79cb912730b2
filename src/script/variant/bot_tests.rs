//! Bots driven through a loaded variant: the level parameters each decision gets, a view lent
//! the game against one of a copy, and what a view remembers (the tests of `script::bots` that
//! need a whole variant, which sits above it).

use super::super::bots::*;
use super::super::host::view::{LentToView, SPARE_VIEW, ViewData};
use crate::kernel::{CardIdx, Game, Seat};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::path::Path;
use std::sync::{Mutex, OnceLock};

/// A bots.yaml for Check's bots whose every level has `params` (`forget_chance` 0 besides).
fn levels_with(params: &str) -> String {
    "script: bots.rhai\nlevels:\n".to_string()
        + ["easy", "medium", "hard", "expert"]
            .map(|l| format!("  {l}: {{ {params}forget_chance: 0.0 }}\n"))
            .concat()
            .as_str()
}

/// Check with these bots.yaml and bots.rhai texts on `engine`, and a two-player game of it,
/// started.
fn check_with_bots(
    yaml: &str,
    script: &str,
    engine: crate::script::host::EngineKind,
) -> (crate::script::variant::Variant, Game) {
    let rules = Path::new(env!("CARGO_MANIFEST_DIR")).join("rules");
    let dir = rules.join("check");
    let texts = [
        (dir.join("bots.yaml"), yaml.to_string()),
        (dir.join("bots.rhai"), script.to_string()),
    ];
    let mut variant = crate::script::variant::Variant::load_named_with(&rules, "check", &texts)
        .expect("the variant loads");
    variant.set_engine(engine);
    let names = vec!["ann".to_string(), "bob".to_string()];
    let mut game = Game::new(variant.table().clone(), names, 5, &[]).expect("a game");
    game.start(&variant).expect("the game starts");
    (variant, game)
}

/// Each decision gets the level's parameters as bots.yaml writes them: lent to a compiled
/// `decide` that leaves them as given (and back for the next decision), copied for one that
/// changes them or that runs on the interpreter.
#[test]
fn every_decision_gets_the_level_parameters_as_written() {
    use crate::script::host::EngineKind;
    let yaml = levels_with("marker: 1, ");
    let check = r#"if params.marker != 1 { throw `decide got ${params}`; }"#;
    // The body of `decide`, and whether it leaves `params` as given.
    let bodies = [
        (format!("{check} ()"), true),
        // Another function gets a copy, whatever it does with it.
        (format!("{check} change(params); ()"), true),
        (format!("{check} params.marker = 2; ()"), false),
        (format!(r#"{check} params.remove("marker"); ()"#), false),
    ];
    for (body, kept) in bodies {
        let script =
            format!("fn decide(view, params) {{ {body} }}\nfn change(p) {{ p.marker = 3; }}");
        for engine in [EngineKind::Compiled, EngineKind::Interpreted] {
            let (variant, game) = check_with_bots(&yaml, &script, engine);
            let book = variant.bots.as_ref().expect("bots");
            let mut bot = book.bot(Seat(0), "hard", &game, 5).expect("a level");
            for _ in 0..3 {
                let decided = book.decide(&mut bot, &game);
                assert!(matches!(decided, Ok(None)), "{body}: {decided:?}");
            }
            let lent = kept && engine == EngineKind::Compiled;
            let spare = book.levels["hard"].spare_params.lock().expect("unpoisoned");
            assert_eq!(spare.len(), usize::from(lent), "{body} on {engine:?}");
            assert!(
                spare
                    .iter()
                    .all(|p| p.to_string() == book.levels["hard"].params.to_string())
            );
        }
    }
}

/// A bundled variant and a started 3-player game of it, with a random agent from `seed`.
fn three_player_game(
    name: &str,
    seed: u64,
) -> (
    crate::script::variant::Variant,
    Game,
    crate::kernel::playout::RandomAgent,
) {
    let rules = Path::new(env!("CARGO_MANIFEST_DIR")).join("rules");
    let variant = crate::script::variant::Variant::load_named(&rules, name).expect("loads");
    let names = ["ann", "bob", "cy"].map(String::from).to_vec();
    let mut game = Game::new(variant.table().clone(), names, seed, &[]).expect("a game");
    game.start(&variant).expect("starts");
    (
        variant,
        game,
        crate::kernel::playout::RandomAgent::new(seed),
    )
}

/// A view lent the game decides as a view of a copy does, and the game is back as it was;
/// a view something still holds leaves a copy in the game's place.
#[test]
fn a_view_lent_the_game_decides_as_one_of_a_copy() {
    let rules = Path::new(env!("CARGO_MANIFEST_DIR")).join("rules");
    for name in ["check", "cambia"] {
        let (variant, mut game, mut agent) = three_player_game(name, 9);
        let book = variant.bots.as_ref().expect("bots");
        let mut bots: Vec<Bot> = (0..3)
            .map(|i| book.bot(Seat(i), "expert", &game, 9).expect("a level"))
            .collect();
        for _ in 0..40 {
            for bot in &mut bots {
                let mut twin = bot.clone();
                let before = format!("{game:?}");
                // On the view of the last decision (another seat's), used again...
                let lent = book.decide_lending(bot, &mut game);
                assert_eq!(format!("{game:?}"), before, "{name}: the game is back");
                // ...and on a new one.
                SPARE_VIEW.with_borrow_mut(|spare| *spare = None);
                let copied = book.decide(&mut twin, &game);
                assert_eq!(copied, lent, "{name}");
                assert_eq!(twin, *bot, "{name}");
            }
            if game.is_over() {
                break;
            }
            agent.step(&mut game, &variant).expect("a step");
        }
    }
    let variant = crate::script::variant::Variant::load_named(&rules, "check").expect("loads");
    let names = ["ann", "bob"].map(String::from).to_vec();
    let mut game = Game::new(variant.table().clone(), names, 3, &[]).expect("a game");
    game.start(&variant).expect("starts");
    let before = format!("{game:?}");
    let held = {
        let lent = LentToView::new(&mut game, Seat(0), &[], ChaCha8Rng::seed_from_u64(0));
        lent.data().clone()
    };
    assert_eq!(
        format!("{game:?}"),
        before,
        "a copy of the held view's game"
    );
    assert_eq!(format!("{:?}", held.game), before);
    assert!(
        SPARE_VIEW.with_borrow(Option::is_none),
        "a view still held is not used again"
    );
}

/// A view remembers exactly the cards its bot remembers: known to its seat, not forgotten.
#[test]
fn a_view_remembers_what_its_bot_remembers() {
    let (variant, mut game, mut agent) = three_player_game("check", 4);
    let book = variant.bots.as_ref().expect("bots");
    let mut bots: Vec<Bot> = (0..3)
        .map(|i| book.bot(Seat(i), "easy", &game, 4).expect("a level"))
        .collect();
    let (mut remembered, mut forgotten) = (0, 0);
    for _ in 0..80 {
        for bot in &mut bots {
            book.observe(bot, &game);
            let view = ViewData {
                me: bot.seat,
                forgotten: bot.forgotten.clone(),
                game: game.trial(),
                candidates: OnceLock::new(),
                rng: Mutex::new(ChaCha8Rng::seed_from_u64(0)),
            };
            let cards = game.state.cards.len();
            for i in 0..cards + 2 {
                let card = CardIdx(i as u16);
                let expected = i < cards && book.remembers(bot, &game, card);
                assert_eq!(view.remembers(card), expected, "card {i}");
                remembered += usize::from(expected);
                forgotten +=
                    usize::from(i < cards && game.state.knows(bot.seat, card) && !expected);
            }
        }
        if game.is_over() {
            break;
        }
        agent.step(&mut game, &variant).expect("a step");
    }
    assert!(remembered > 0 && forgotten > 0, "{remembered} {forgotten}");
}

/// The view's entries on one card, which compiled code calls in place (`chain/direct.rs`), give
/// what the interpreter gives: on a card, and, the general way, on anything else.
#[test]
fn a_view_card_entry_gives_the_same_on_both_engines() {
    use crate::script::host::EngineKind;
    let yaml = levels_with("");
    let bodies = [
        r#"let c = view.hand(view.me)[2]; let d = view.hand(view.players[1])[1];
           throw `${[view.known(c), view.rank(c), view.points(c), view.owner(c), view.is_face_up(c),
                     view.owner(d), view.slot(d), view.phase == "awaiting_draw",
                     switch view.phase { "awaiting_draw" => 1, _ => 2 }]}`;"#,
        "let n = 5; view.rank(n)",
        "let v = 5; let c = view.hand(view.me)[0]; v.known(c)",
        "let c = view.hand(view.me)[0]; view.known(c, 1)",
    ];
    for body in bodies {
        let outcomes = [EngineKind::Compiled, EngineKind::Interpreted].map(|engine| {
            let script = format!("fn decide(view, params) {{ {body} }}");
            let (variant, game) = check_with_bots(&yaml, &script, engine);
            let book = variant.bots.as_ref().expect("bots");
            let mut bot = book.bot(Seat(0), "hard", &game, 5).expect("a level");
            format!("{:?}", book.decide(&mut bot, &game))
        });
        assert_eq!(outcomes[0], outcomes[1], "{body}");
        assert!(outcomes[0].starts_with("Err("), "{body}: {}", outcomes[0]);
    }
}
