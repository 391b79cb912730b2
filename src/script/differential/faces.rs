//! Generated hooks that read cards' faces and pass them on, played in a game on both engines:
//! every binding form (a `let`, a `const`, a copy, a parameter, a function's result, an item of
//! an array, an entry of a map) between a face and where it goes (an event for everyone or for
//! one player, a game variable, a private or a public player variable), with the card hidden,
//! held, or shown to its holder or to everyone first, and values computed from a face. The two
//! engines must give the same result and the same game, events included, and the face guard
//! must hold: no face reaches a player who does not know its card.

use super::super::host::EngineKind;
use super::super::variant::Variant;
use crate::kernel::{Action, Game, Seat};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::path::{Path, PathBuf};

/// The fixture variant the hooks are played in, under `tests/engines/fixtures/`.
pub const VARIANT: &str = "generated";

/// The actions (and hooks, `on_case_N`) of the variant, one a generated hook.
pub const CASES: usize = 8;

/// The script's fixed part: setup, and helpers that pass a value on.
const PRELUDE: &str = r#"
fn setup(game) {
    game.deal("deck", game.house("hand_size"));
    start_turn(game, game.player_at(0));
}

fn start_turn(game, p) {
    game.set_current(p);
    game.set_phase("playing");
}

fn on_timer(game, name, p) {
    ()
}

fn pass(x) { x }
fn in_list(x) { [x] }
fn in_map(x) { #{ v: x } }
fn first_of(list) { list[0] }
fn send(game, x) { game.broadcast("note", #{ v: x }); }
"#;

/// Where a hook reads its card.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Source {
    DeckTop,
    OwnHand,
    OtherHand,
}

/// What one generated hook does, as the guard's oracle needs it.
#[derive(Clone, Copy, Debug)]
struct Case {
    source: Source,
    /// Players who learn the card in the hook before its face is read (bit 0: the acting
    /// player, ann; bit 1: bob).
    learn: u32,
    /// Whether the value that reaches the sink is the face as read (passed on only), not
    /// computed from it.
    passed_on: bool,
    /// Who reads the sink (bit per player, as `learn`).
    readers: u32,
}

/// The script of `seed` (the prelude and `CASES` generated hooks), and what each hook does.
fn script_and_cases(seed: u64) -> (String, Vec<Case>) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut out = String::from(PRELUDE);
    let mut cases = Vec::new();
    for i in 0..CASES {
        out.push_str(&format!("\nfn on_case_{i}(game, p, args) {{\n"));
        cases.push(hook(&mut rng, &mut out));
        out.push_str("}\n");
    }
    (out, cases)
}

/// The script of `seed`: the prelude and `CASES` generated hooks.
pub fn script(seed: u64) -> String {
    script_and_cases(seed).0
}

fn pick<T: Copy>(rng: &mut ChaCha8Rng, items: &[T]) -> T {
    items[rng.random_range(0..items.len())]
}

/// One hook: a card, who learns it, a face of it, a chain of bindings, and where it goes.
fn hook(rng: &mut ChaCha8Rng, out: &mut String) -> Case {
    let (source, card) = pick(
        rng,
        &[
            (Source::DeckTop, "game.top(\"deck\")"),
            (Source::OwnHand, "game.hand(p)[0]"),
            (Source::OtherHand, "game.hand(game.player_at(1))[0]"),
        ],
    );
    out.push_str(&format!("    let c = {card};\n"));
    let (learn, step) = pick(
        rng,
        &[
            (0, ""),
            (0, ""),
            (0b01, "    game.reveal(c, p);\n"),
            (0b11, "    game.to_pile(c, \"discard\");\n"),
            (0b10, "    game.reveal(c, game.player_at(1));\n"),
        ],
    );
    out.push_str(step);
    let read = pick(
        rng,
        &[
            "face",
            "face",
            "rank",
            "suit",
            "rank_number",
            "points",
            "is_red",
        ],
    );
    out.push_str(&format!("    let x0 = game.{read}(c);\n"));
    let steps = rng.random_range(0..5);
    let mut passed_on = true;
    // Whether the value is an array or a map (which `+` joins, keeping its items as they are).
    let mut container = false;
    for i in 0..steps {
        let from = format!("x{i}");
        let (keyword, value) = match rng.random_range(0..10) {
            0 => ("const", from.clone()),
            1 => ("let", format!("pass({from})")),
            2 => ("let", format!("[1, {from}]")),
            3 => ("let", format!("in_list({from})")),
            4 => ("let", format!("in_map({from})")),
            5 => ("let", format!("#{{ a: {from}, b: 2 }}")),
            6 => ("let", format!("first_of([{from}])")),
            7 => ("let", format!("`the ${{{from}}}`")),
            8 => ("let", format!("{from} + {from}")),
            _ => ("let", from.clone()),
        };
        match value.as_bytes().first() {
            // Text made from the value: a new value.
            Some(b'`') => (passed_on, container) = (false, false),
            Some(b'[' | b'#') => container = true,
            _ if value.starts_with("in_") => container = true,
            // A number or a text added to itself is a new value; arrays and maps joined keep
            // their items.
            _ if value.contains(" + ") && !container => passed_on = false,
            _ => {}
        }
        out.push_str(&format!("    {keyword} x{} = {value};\n", i + 1));
    }
    let last = format!("x{steps}");
    let (readers, sink) = match rng.random_range(0..8) {
        0 => (0b11, format!("game.broadcast(\"note\", #{{ v: {last} }});")),
        1 => (0b01, format!("game.tell(p, \"note\", #{{ v: {last} }});")),
        2 => (
            0b10,
            format!("game.tell(game.player_at(1), \"note\", #{{ v: {last} }});"),
        ),
        3 => (0b11, format!("send(game, {last});")),
        4 => (0b11, format!("game.set(\"kept\", {last});")),
        5 => (0b01, format!("game.pset(p, \"secret\", {last});")),
        6 => (0b11, format!("game.pset(p, \"shown\", {last});")),
        _ => (
            0b10,
            format!("game.pset(game.player_at(1), \"secret\", {last});"),
        ),
    };
    out.push_str(&format!("    {sink}\n"));
    Case {
        source,
        learn,
        passed_on,
        readers,
    }
}

/// What a run of generated hooks found.
#[derive(Debug, Clone, Default)]
pub struct Report {
    /// Scripts generated.
    pub programs: u64,
    /// Hooks played on both engines.
    pub hooks: u64,
    /// Hooks the face guard refused (the same on both engines).
    pub guarded: u64,
    /// Where the engines differed or the guard did not do what its rule says: the seed, the
    /// hook and what happened.
    pub problems: Vec<String>,
}

impl std::fmt::Display for Report {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} face programs: {} hooks on both engines ({} refused by the face guard), {} problems",
            self.programs,
            self.hooks,
            self.guarded,
            self.problems.len()
        )
    }
}

/// What the face guard's refusals say.
const GUARD_SAYS: &str = "was read from the face of a card that";

/// Play `programs` generated scripts from `first_seed` on, each hook in a new game on each
/// engine, in the fixture variant `generated` under `fixtures`. Each hook must give the same
/// result and game on both, and be refused by the face guard exactly when its rule says: the
/// face is passed on as read, and some reader of where it goes does not know the card. Run it
/// on a script thread.
pub fn run(fixtures: &Path, first_seed: u64, programs: u64) -> Report {
    let mut report = Report::default();
    let path: PathBuf = fixtures.join(VARIANT).join("rules.rhai");
    for n in 0..programs {
        let seed = first_seed.wrapping_add(n);
        report.programs += 1;
        let (text, cases) = script_and_cases(seed);
        let texts = [(path.clone(), text)];
        let load = |engine| {
            Variant::load_named_with(fixtures, VARIANT, &texts).map(|mut v| {
                v.set_engine(engine);
                v
            })
        };
        let (compiled, interpreted) =
            match (load(EngineKind::Compiled), load(EngineKind::Interpreted)) {
                (Ok(c), Ok(i)) => (c, i),
                (Err(e), _) | (_, Err(e)) => {
                    report
                        .problems
                        .push(format!("seed {seed}: does not load: {e}"));
                    continue;
                }
            };
        for (i, case) in cases.iter().enumerate() {
            report.hooks += 1;
            let (a, known) = play(&compiled, seed, i, case.source);
            let (b, _) = play(&interpreted, seed, i, case.source);
            if a != b {
                report.problems.push(format!(
                    "seed {seed} case_{i}: the engines differ\n  compiled    {}\n  interpreted {}",
                    a.0, b.0
                ));
                continue;
            }
            let refused = a.0.contains(GUARD_SAYS);
            report.guarded += u64::from(refused);
            let knows = known | case.learn;
            let expected = case.passed_on && knows & case.readers != case.readers;
            if refused != expected {
                report.problems.push(format!(
                    "seed {seed} case_{i}: the face guard {} ({case:?}, known by {knows:#b}): {}",
                    if expected {
                        "let it pass"
                    } else {
                        "refused it"
                    },
                    a.0
                ));
            }
        }
    }
    report
}

/// One hook played in a new game: its result's text and the game after it, and who knew the
/// hook's card (from `source`) when the hook began.
fn play(variant: &Variant, seed: u64, case: usize, source: Source) -> ((String, String), u32) {
    let players = vec!["ann".to_string(), "bob".to_string()];
    let mut game = match Game::new(variant.table().clone(), players, seed, &[]) {
        Ok(g) => g,
        Err(e) => return ((format!("Err(no game: {e})"), String::new()), 0),
    };
    if let Err(e) = game.start(variant) {
        return ((format!("Err(setup: {e})"), String::new()), 0);
    }
    let card = match source {
        Source::DeckTop => variant
            .table()
            .pile("deck")
            .and_then(|deck| game.state.pile(deck).last().copied()),
        Source::OwnHand => game.state.hand(Seat(0)).first().copied().flatten(),
        Source::OtherHand => game.state.hand(Seat(1)).first().copied().flatten(),
    };
    let known = card
        .and_then(|c| game.state.card(c).ok())
        .map_or(0, |c| c.known_by);
    let action = Action {
        seat: Seat(0),
        name: format!("case_{case}").into(),
        args: vec![],
    };
    let result = game.apply(variant, &action);
    let saved = serde_json::to_string(&game.save()).unwrap_or_default();
    ((format!("{result:?}"), saved), known)
}
