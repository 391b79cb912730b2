//! `deckspec play`: one person against the variant's bots, at a terminal or through a pipe (one
//! command per line, plain output: how QA scripts and the tests drive it), optionally recorded
//! as a scenario (`--record`).

use super::{EXIT_BROKEN, EXIT_OK, render};
use crate::kernel::Seat;
use crate::play::{Reply, Session, Setup};
use crate::script::Variant;
use std::io::{BufRead, IsTerminal};
use std::path::PathBuf;

/// How long each event line waits on a terminal, so that the bots' moves can be followed.
const EVENT_DELAY: std::time::Duration = std::time::Duration::from_millis(120);

/// Tab completion of the commands legal now (`help`'s list) and the session's own words.
struct Completion {
    commands: std::rc::Rc<std::cell::RefCell<Vec<String>>>,
}

impl rustyline::completion::Completer for Completion {
    type Candidate = String;

    fn complete(
        &self,
        line: &str,
        pos: usize,
        _: &rustyline::Context<'_>,
    ) -> rustyline::Result<(usize, Vec<String>)> {
        let typed = line.get(..pos).unwrap_or(line);
        let matches = self
            .commands
            .borrow()
            .iter()
            .filter(|c| c.starts_with(typed))
            .cloned()
            .collect();
        Ok((0, matches))
    }
}

impl rustyline::hint::Hinter for Completion {
    type Hint = String;
}
impl rustyline::highlight::Highlighter for Completion {}
impl rustyline::validate::Validator for Completion {}
impl rustyline::Helper for Completion {}

/// Where commands come from: a line editor with history and completion on a terminal, plain
/// lines otherwise.
enum Input {
    Terminal(
        Box<rustyline::Editor<Completion, rustyline::history::DefaultHistory>>,
        std::rc::Rc<std::cell::RefCell<Vec<String>>>,
    ),
    Pipe(std::io::Lines<std::io::StdinLock<'static>>),
}

impl Input {
    fn open() -> Input {
        if std::io::stdin().is_terminal() && std::io::stdout().is_terminal() {
            let commands = std::rc::Rc::new(std::cell::RefCell::new(Vec::new()));
            if let Ok(mut editor) = rustyline::Editor::new() {
                editor.set_helper(Some(Completion {
                    commands: commands.clone(),
                }));
                return Input::Terminal(Box::new(editor), commands);
            }
        }
        Input::Pipe(std::io::stdin().lock().lines())
    }

    fn is_terminal(&self) -> bool {
        matches!(self, Input::Terminal(..))
    }

    /// The next command, or `None` at the end of input (or Ctrl-D / Ctrl-C on a terminal).
    fn read(&mut self, session: &Session) -> Option<String> {
        match self {
            Input::Terminal(editor, commands) => {
                let mut words: Vec<String> = session.commands();
                words.extend(["wait", "undo", "help", "quit"].map(String::from));
                *commands.borrow_mut() = words;
                let line = editor.readline("> ").ok()?;
                let _ = editor.add_history_entry(line.as_str());
                Some(line)
            }
            Input::Pipe(lines) => {
                out!("> ");
                let line = lines.next()?.ok()?;
                outln!("{}", line.trim());
                Some(line)
            }
        }
    }
}

/// The arguments of `deckspec play`.
#[derive(clap::Args, Debug)]
pub struct PlayArgs {
    /// The variant to play.
    pub variant: String,
    /// Players at the table, you included.
    #[arg(long, default_value_t = 2)]
    pub players: usize,
    /// Your name at the table.
    #[arg(long, default_value = "you")]
    pub me: String,
    /// The computer seats: one level for all, or one per seat after yours.
    #[arg(long, value_name = "LEVEL[,LEVEL…]", default_value = "medium")]
    pub bots: String,
    /// The seed: the same seed deals the same game (default 0).
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// A house rule, `name=value` (repeatable).
    #[arg(long = "house-rule", value_name = "NAME=VALUE")]
    pub house_rules: Vec<String>,
    /// Write the game, when it ends or on `quit`, as a scenario that replays it.
    #[arg(long, value_name = "FILE.feature")]
    pub record: Option<PathBuf>,
    /// The folder holding the variants.
    #[arg(long, default_value = "rules", value_name = "DIR")]
    pub rules: PathBuf,
}

/// Bot names for the other seats.
const NAMES: [&str; 8] = ["ann", "bob", "cat", "dan", "eve", "fay", "gus", "hal"];

fn setup<'v>(args: &PlayArgs, variant: &'v Variant) -> Result<Setup<'v>, String> {
    let range = variant.table().players;
    if !range.contains(args.players) {
        return Err(format!(
            "--players: {} is for {range} players, not {}: {}",
            variant.name,
            args.players,
            range.bound_for(args.players)
        ));
    }
    if args.players > NAMES.len() + 1 {
        return Err(format!(
            "--players: play seats at most {} players",
            NAMES.len() + 1
        ));
    }
    let me = args.me.trim();
    if me.is_empty() || !me.chars().all(|c| c.is_alphanumeric() || c == '_') {
        return Err(format!(
            "--me: `{me}` is not a name (letters, digits and _)"
        ));
    }
    let mut players = vec![me.to_string()];
    players.extend(
        NAMES
            .iter()
            .filter(|n| **n != me)
            .take(args.players - 1)
            .map(|n| n.to_string()),
    );
    let levels: Vec<&str> = args.bots.split(',').map(str::trim).collect();
    let bots = args.players - 1;
    let levels: Vec<String> = match levels.len() {
        1 => std::iter::once(String::new())
            .chain(std::iter::repeat_n(levels[0].to_string(), bots))
            .collect(),
        n if n == bots => std::iter::once(String::new())
            .chain(levels.iter().map(|l| l.to_string()))
            .collect(),
        n => {
            return Err(format!(
                "--bots names {n} levels for {bots} computer seats: give one level or one per seat"
            ));
        }
    };
    let book = variant.bots.as_ref().ok_or_else(|| {
        format!(
            "{} has no computer players (no bots.yaml): it cannot be played here yet",
            variant.name
        )
    })?;
    for level in levels.iter().skip(1) {
        if !book.levels().any(|l| l == level) {
            let mut known: Vec<&str> = book.levels().collect();
            let rank = |l: &str| crate::script::bots::LEVELS.iter().position(|x| *x == l);
            known.sort_by_key(|l| rank(l));
            return Err(format!(
                "--bots: {} has no `{level}` level: its levels are {}",
                variant.name,
                known.join(", ")
            ));
        }
    }
    let mut house = Vec::new();
    let mut house_text = Vec::new();
    for rule in &args.house_rules {
        let (name, value) = super::simulate::parse_house_rule(rule)?;
        let Some(i) = variant.table().house_rule(&name) else {
            return Err(format!(
                "--house-rule: {} has no house rule `{name}`",
                variant.name
            ));
        };
        variant
            .table()
            .check_house_rule(i, &value)
            .map_err(|e| match e {
                crate::kernel::HouseRuleProblem::Type { expected } => {
                    format!("--house-rule: house rule `{name}` takes {expected}, not `{value}`")
                }
                crate::kernel::HouseRuleProblem::Range { reason } => {
                    format!("--house-rule: house rule `{name}` {reason}")
                }
            })?;
        house_text.push((
            name.clone(),
            rule.split_once('=').map_or("", |p| p.1).trim().to_string(),
        ));
        house.push((name, value));
    }
    Ok(Setup {
        variant,
        players,
        me: Seat(0),
        levels,
        seed: args.seed,
        house,
        house_text,
    })
}

pub(super) fn play(args: PlayArgs) -> i32 {
    let variant = match Variant::load_named(&args.rules, &args.variant) {
        Ok(v) => v,
        Err(e) => {
            err!("{}", render(&e));
            return EXIT_BROKEN;
        }
    };
    if let Some(file) = &args.record
        && let Err(e) = super::writable("--record", file)
    {
        errln!("error: {e}");
        return EXIT_BROKEN;
    }
    let mut session = match setup(&args, &variant).and_then(Session::new) {
        Ok(s) => s,
        Err(e) => {
            errln!("error: {e}");
            return EXIT_BROKEN;
        }
    };
    let names = session.game.state.players.join(", ");
    outln!(
        "{} · seed {} · players {names} · `help` lists what you can do",
        variant.name,
        args.seed
    );
    let mut input = Input::open();
    loop {
        for line in session.new_events().lines() {
            outln!("{line}");
            if input.is_terminal() {
                std::thread::sleep(EVENT_DELAY);
            }
        }
        if session.is_over() {
            break;
        }
        out!("{}", session.screen());
        let Some(line) = input.read(&session) else {
            outln!();
            break;
        };
        match session.command(&line) {
            Ok(Reply::Quit) => break,
            Ok(Reply::Moved) => {}
            Ok(Reply::Text(text)) => out!(
                "{text}{}",
                if text.ends_with('\n') || text.is_empty() {
                    ""
                } else {
                    "\n"
                }
            ),
            Err(e) => outln!("error: {e}"),
        }
    }
    out!("{}", session.result());
    if let Some(file) = &args.record {
        let command: Vec<String> = std::env::args()
            .enumerate()
            .map(|(i, a)| if i == 0 { "deckspec".to_string() } else { a })
            .collect();
        let header = format!(
            "Recorded by: {}\nSeed {}. Replay it with deckspec test.",
            command.join(" "),
            args.seed
        );
        if let Err(e) = std::fs::write(file, session.recording(&header)) {
            errln!("error: cannot write {}: {e}", file.display());
            return EXIT_BROKEN;
        }
        outln!("recorded in {}", file.display());
    }
    EXIT_OK
}
