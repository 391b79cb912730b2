//! Hostile inputs the must-fail fixtures cannot hold as plain files (symlinks out of the rules
//! folder, FIFOs, oversized and non-UTF-8 files), a rules implementation that panics, the deepest
//! recursion the script limits allow on every thread that runs scripts, what other players' views
//! hold, public card ids, and house-rule values out of type or range.

use deckspec::kernel::{Action, Game, RuleError, Rules, Seat, Timer, Value};
use deckspec::script::{EngineKind, Variant};
use std::path::{Path, PathBuf};
use std::sync::Arc;

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// A rules folder in a temporary directory holding one small working variant `v`.
fn rules_folder() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let v = dir.path().join("rules/v");
    std::fs::create_dir_all(&v).expect("the variant folder");
    let fixture = repo().join("tests/hostile/rules/deep_recursion");
    for file in ["variant.yaml", "rules.rhai", "rulebook.yaml"] {
        std::fs::copy(fixture.join(file), v.join(file)).expect("a fixture file");
    }
    for (file, from, to) in [
        ("variant.yaml", "name: deep_recursion", "name: v"),
        ("rulebook.yaml", "variant: deep_recursion", "variant: v"),
    ] {
        let yaml = std::fs::read_to_string(v.join(file)).expect(file);
        std::fs::write(v.join(file), yaml.replace(from, to)).expect(file);
    }
    (dir, v)
}

/// Load `v` after `change` and return its error, with the temporary folder written `<tmp>`.
fn load_error(change: impl FnOnce(&Path)) -> String {
    let (dir, v) = rules_folder();
    change(&v);
    let error = Variant::load_named(&dir.path().join("rules"), "v")
        .expect_err("the variant must not load")
        .short();
    error.replace(&dir.path().display().to_string(), "<tmp>")
}

fn append(path: &Path, text: &str) {
    let mut s = std::fs::read_to_string(path).expect("the file exists");
    s.push_str(text);
    std::fs::write(path, s).expect("the file is writable");
}

#[test]
fn rule_files_outside_the_rules_folder_or_not_plain_text_are_refused() {
    type Change = Box<dyn FnOnce(&Path)>;
    let cases: Vec<(&str, Change, &str)> = vec![
        (
            "variant.yaml is a symlink to /etc/passwd",
            Box::new(|v: &Path| {
                std::fs::remove_file(v.join("variant.yaml")).unwrap();
                std::os::unix::fs::symlink("/etc/passwd", v.join("variant.yaml")).unwrap();
            }),
            "<tmp>/rules/v/variant.yaml: `<tmp>/rules/v/variant.yaml` leaves the rules folder <tmp>/rules",
        ),
        (
            "extends names a symlink that leads out",
            Box::new(|v: &Path| {
                std::os::unix::fs::symlink("/etc/passwd", v.join("base.yaml")).unwrap();
                append(&v.join("variant.yaml"), "extends: base.yaml\n");
            }),
            "<tmp>/rules/v/variant.yaml:18:10: `base.yaml` leaves the rules folder <tmp>/rules",
        ),
        (
            "a module is a FIFO (reading it would block forever)",
            Box::new(|v: &Path| {
                let made = std::process::Command::new("mkfifo")
                    .arg(v.join("pipe.rhai"))
                    .status()
                    .expect("mkfifo runs");
                assert!(made.success());
                append(&v.join("variant.yaml"), "modules: { pipe: pipe.rhai }\n");
            }),
            "<tmp>/rules/v/variant.yaml:18:18: `pipe.rhai` is not a regular file (<tmp>/rules/v/pipe.rhai)",
        ),
        (
            "a module is a device, reached through ../",
            Box::new(|v: &Path| {
                append(
                    &v.join("variant.yaml"),
                    "modules: { zero: ../../../../../../../../dev/zero }\n",
                );
            }),
            "<tmp>/rules/v/variant.yaml:18:18: `../../../../../../../../dev/zero` leaves the rules folder <tmp>/rules",
        ),
        (
            "a module of 2 MiB",
            Box::new(|v: &Path| {
                std::fs::write(v.join("big.rhai"), "// x\n".repeat(400_000)).unwrap();
                append(&v.join("variant.yaml"), "modules: { big: big.rhai }\n");
            }),
            "<tmp>/rules/v/variant.yaml:18:17: `big.rhai` is 2000000 bytes; rule files are at most 1048576 bytes",
        ),
        (
            "a script that is not UTF-8",
            Box::new(|v: &Path| {
                std::fs::write(v.join("rules.rhai"), b"fn setup(game) {}\n\xff\xfe\n").unwrap();
            }),
            "<tmp>/rules/v/variant.yaml:3:9: `rules.rhai` is not UTF-8 text (invalid byte at offset 18)",
        ),
    ];
    for (what, change, expected) in cases {
        let error = load_error(change);
        assert_eq!(error, expected, "{what}");
        assert!(
            !error.contains("root:"),
            "{what}: the file's content is shown"
        );
    }
}

#[test]
fn a_folder_without_rules_says_how_to_point_at_them() {
    let dir = tempfile::tempdir().unwrap();
    let error = Variant::load_named(&dir.path().join("rules"), "cambia").unwrap_err();
    assert_eq!(
        error
            .to_string()
            .replace(&dir.path().display().to_string(), "<tmp>"),
        "there is no rules folder `<tmp>/rules` here"
    );
    let empty = dir.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    let error = Variant::load_named(&empty, "cambia").unwrap_err();
    assert!(
        matches!(
            &error,
            deckspec::script::VariantError::Unknown { help, .. } if help.ends_with("holds no variant (a folder with a variant.yaml)")
        ),
        "{error:?}"
    );
    let error = Variant::load_named(Path::new("rules"), "../rules/cambia").unwrap_err();
    assert_eq!(
        error.to_string(),
        "`../rules/cambia` is not a variant name: variant names are letters, digits, `_` and `-`"
    );
}

/// Delegates to a variant, but panics in the middle of an action, after the script moved cards.
struct Panicking<'a>(&'a Variant);

impl Rules for Panicking<'_> {
    fn table(&self) -> &Arc<deckspec::kernel::Table> {
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
        self.0.act(game, action)?;
        panic!("a bug in the rules");
    }
    fn timer(&self, game: &mut Game, timer: &Timer) -> Result<(), RuleError> {
        self.0.timer(game, timer)
    }
    fn score(&self, game: &mut Game, seat: Seat) -> Result<i64, RuleError> {
        self.0.score(game, seat)
    }
}

#[test]
fn a_panic_inside_a_step_leaves_the_game_as_it_was() {
    let cambia = Variant::load_named(&repo().join("rules"), "cambia").unwrap();
    let players = vec!["ann".to_string(), "bob".to_string()];
    let mut game = Game::new(cambia.table().clone(), players, 3, &[]).unwrap();
    game.start(&cambia).unwrap();
    let current = game.state.current.unwrap();
    let before = serde_json::to_string(&game.save()).unwrap();
    let draw = Action {
        seat: current,
        name: "draw_stockpile".into(),
        args: vec![],
    };
    let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        game.apply(&Panicking(&cambia), &draw)
    }));
    assert!(caught.is_err(), "the panic reaches the host");
    assert_eq!(serde_json::to_string(&game.save()).unwrap(), before);
    // And the game plays on.
    game.apply(&cambia, &draw).unwrap();
}

#[test]
fn the_deepest_legal_recursion_runs_on_every_script_thread() {
    let run = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_deckspec"))
            .args(args)
            .current_dir(repo())
            .output()
            .expect("the binary runs")
    };
    let out = run(&[
        "simulate",
        "deep_recursion",
        "--rules",
        "tests/hostile/rules",
        "--players",
        "2",
        "--games",
        "4",
        "--jobs",
        "2",
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "simulate --jobs 2: {stderr}");
    let out = run(&[
        "test",
        "--rules",
        "tests/hostile/rules",
        "tests/hostile/deep_recursion.feature",
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "test: {stdout}");
    assert!(stdout.ends_with("1 passed, 0 failed\n"), "{stdout}");
}

#[test]
fn other_players_private_variables_are_not_in_a_view() {
    let recall = Variant::load_named(&repo().join("rules"), "recall").unwrap();
    let players = vec!["ann".to_string(), "bob".to_string()];
    let mut game = Game::new(recall.table().clone(), players, 11, &[]).unwrap();
    game.start(&recall).unwrap();
    let peek = Action {
        seat: Seat(0),
        name: "initial_peek".into(),
        args: vec![deckspec::kernel::Arg::Int(1), deckspec::kernel::Arg::Int(3)],
    };
    game.apply(&recall, &peek).unwrap();
    let ann = &game.view(Seat(0)).players[0];
    let seen_by_bob = &game.view(Seat(1)).players[0];
    assert_eq!(ann.vars["peeked_cards"].as_array().map(Vec::len), Some(2));
    assert_eq!(
        seen_by_bob.vars.get("peeked_cards"),
        None,
        "{seen_by_bob:?}"
    );
    assert_eq!(seen_by_bob.vars["peeked"], serde_json::json!(true));
}

#[test]
fn public_ids_say_nothing_about_the_deal() {
    let cambia = Variant::load_named(&repo().join("rules"), "cambia").unwrap();
    let players = || vec!["ann".to_string(), "bob".to_string()];
    let plain = Game::new(cambia.table().clone(), players(), 5, &[]).unwrap();
    let keyed = Game::new(cambia.table().clone(), players(), 5, &[])
        .unwrap()
        .with_id_key([7; 32]);
    let faces = |g: &Game| g.state.cards.iter().map(|c| c.face).collect::<Vec<_>>();
    let ids = |g: &Game| {
        g.state
            .cards
            .iter()
            .map(|c| c.public_id)
            .collect::<Vec<_>>()
    };
    assert_eq!(
        faces(&plain),
        faces(&keyed),
        "the key does not change the deal"
    );
    assert_eq!(
        plain.state.rng, keyed.state.rng,
        "ids do not draw from the deal's generator"
    );
    assert!(ids(&plain).iter().zip(ids(&keyed)).all(|(a, b)| *a != b));
    let again = Game::new(cambia.table().clone(), players(), 5, &[]).unwrap();
    assert_eq!(
        ids(&plain),
        ids(&again),
        "without a key, ids are reproducible"
    );
}

#[test]
fn house_rule_values_of_the_wrong_type_or_range_are_refused() {
    let cambia = Variant::load_named(&repo().join("rules"), "cambia").unwrap();
    let cases = [
        (
            "penalty_draw_count",
            Value::Float(2.5),
            "house rule `penalty_draw_count` takes an integer, not `2.5`",
        ),
        (
            "penalty_draw_count",
            Value::Int(-5),
            "house rule `penalty_draw_count` is -5, outside 0 to 10",
        ),
        (
            "penalty_draw_count",
            Value::Str("three".into()),
            "house rule `penalty_draw_count` takes an integer, not `three`",
        ),
        (
            "turn_timer_seconds",
            Value::Int(0),
            "house rule `turn_timer_seconds` is 0, outside 1 to 3600",
        ),
    ];
    for (name, value, expected) in cases {
        let error = Game::new(
            cambia.table().clone(),
            vec!["ann".into(), "bob".into()],
            0,
            &[(name.to_string(), value)],
        )
        .unwrap_err();
        assert_eq!(error.to_string(), expected);
    }
    // The variant's player range (cambia: 2 to 12) is checked too.
    let error = Game::new(cambia.table().clone(), vec!["ann".into()], 0, &[]).unwrap_err();
    assert_eq!(
        error.to_string(),
        "cambia is for 2 to 12 players, not 1: at least 2 players"
    );
}

#[test]
fn a_script_call_past_its_time_limit_fails_and_leaves_the_game_as_it_was() {
    let (dir, v) = rules_folder();
    // Few operations, each slow: sorting a copy of 16,000 numbers, until the clock stops it.
    append(
        &v.join("rules.rhai"),
        "\nfn on_slow(game, p, args) {\n    let a = [];\n    for i in 0..16000 { a.push(16000 - i); }\n    game.set(\"note\", 1);\n    loop { let b = a; b.sort(); }\n}\n",
    );
    append(&v.join("variant.yaml"), "  slow:\n    phases: [playing]\n");
    // The fixture's setup recurses as deep as the limits allow: a script thread's stack.
    std::thread::Builder::new()
        .stack_size(deckspec::script::SCRIPT_STACK_BYTES)
        .spawn(move || slow_call_fails(&dir))
        .expect("a thread")
        .join()
        .expect("the check passes");
}

fn slow_call_fails(dir: &tempfile::TempDir) {
    for kind in [EngineKind::Compiled, EngineKind::Interpreted] {
        let mut variant = Variant::load_named(&dir.path().join("rules"), "v").unwrap();
        variant.set_engine(kind);
        let players = vec!["ann".to_string(), "bob".to_string()];
        let mut game = Game::new(variant.table().clone(), players, 3, &[]).unwrap();
        game.start(&variant).unwrap();
        let before = serde_json::to_string(&game.save()).unwrap();
        let slow = Action {
            seat: Seat(0),
            name: "slow".into(),
            args: vec![],
        };
        let started = std::time::Instant::now();
        let error = game.apply(&variant, &slow).unwrap_err().to_string();
        let took = started.elapsed();
        assert!(
            error.contains("ran longer than 1 s in one call") && error.contains("on_slow"),
            "{kind:?}: {error}"
        );
        // About a second (the script clock ticks every 10 ms, so the call's start and end
        // are each read up to a tick late), far under the operation limit's minutes.
        assert!(
            took.as_secs_f64() >= 0.95,
            "{kind:?}: stopped after {took:?}"
        );
        assert_eq!(serde_json::to_string(&game.save()).unwrap(), before);
    }
}
