//! Computer players: `rules/<variant>/bots.yaml` (levels and their parameters) and a Rhai
//! decision script that sees only the bot's own view, never the game.
//!
//! A bot's memory is what the kernel says its seat knows, minus what it has forgotten: at the
//! start of each of its turns it forgets each remembered hand card with the level's
//! `forget_chance` (never one lying face up), and an event that shows it a card again brings that
//! card back.

use super::host::api::{Card, Slot, from_value};
use super::host::error::{SourceDiagnostic, VariantError};
use super::host::view::{BotView, LentToView, remembers};
use crate::kernel::{Action, Arg, CardIdx, Game, Loc, RuleError, Seat, Table};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rhai::{AST, Array, CallFnOptions, Dynamic, Engine, ImmutableString, Map, Scope};
use serde::Deserialize;
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// The difficulty levels every `bots.yaml` defines.
pub const LEVELS: [&str; 4] = ["easy", "medium", "hard", "expert"];

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct BotsFile {
    /// The decision script, relative to the variant's folder.
    script: String,
    /// Rhai modules for the script, by name (as in `variant.yaml`).
    #[serde(default)]
    modules: BTreeMap<String, String>,
    levels: BTreeMap<String, serde_yaml::Mapping>,
}

/// A variant's computer players: levels and the compiled decision script.
pub struct BotBook {
    engine: Engine,
    ast: AST,
    /// The bot script compiled at load time (`decide` runs compiled when it is).
    program: super::compiled::Program,
    /// `decide`, when it is compiled.
    decide: Option<super::compiled::FnId>,
    /// The engine `decide` runs on (the variant's: `Variant::set_engine`).
    pub(crate) engine_kind: super::host::EngineKind,
    pub(crate) levels: BTreeMap<String, Level>,
    /// The entry script's source name, where a call to `decide` begins.
    path: String,
    /// Script sources by the name Rhai reports them under, for diagnostics.
    pub(crate) sources: HashMap<String, (PathBuf, String)>,
    /// Calls of functions that exist nowhere, in the bot script and its modules.
    pub unknown_calls: Vec<super::host::error::SourceDiagnostic>,
}

#[derive(Debug)]
pub(crate) struct Level {
    /// The level's parameters as the map `decide` gets (made once: a copy of a map value is a
    /// copy of its entries, while making one from a `Map` builds it again entry by entry).
    pub(crate) params: Dynamic,
    /// Copies of `params` lent to a compiled `decide` that keeps its parameters as given, back
    /// for the next decision (one a thread deciding at once): a decision copies no map.
    pub(crate) spare_params: Mutex<Vec<Dynamic>>,
    forget_chance: f64,
}

/// The most spare copies of a level's parameters kept (more threads copy again).
const MAX_SPARE_PARAMS: usize = 64;

impl Level {
    /// The parameters for one decision: a spare copy, or a new one.
    fn lend_params(&self) -> Dynamic {
        let spare = self
            .spare_params
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .pop();
        spare.unwrap_or_else(|| self.params.clone())
    }

    /// Parameters lent to a decision, back as they were given.
    fn return_params(&self, params: Dynamic) {
        let mut spare = self.spare_params.lock().unwrap_or_else(|e| e.into_inner());
        if spare.len() < MAX_SPARE_PARAMS {
            spare.push(params);
        }
    }
}

/// One computer player in one game: its memory and randomness. Serializable, so a server saves
/// it beside the game (`Game::save`) and a restored bot decides exactly as the original would.
#[derive(Clone, Debug, PartialEq, serde::Serialize, Deserialize)]
pub struct Bot {
    /// The seat it plays.
    pub seat: Seat,
    /// Its level, as `bots.yaml` names it.
    pub level: String,
    pub(crate) forgotten: Vec<bool>,
    seen: usize,
    rng: ChaCha8Rng,
}

impl Bot {
    /// The number of the first event this bot has not observed yet (see `Game::event_count`):
    /// a host may forget the events before the lowest of its bots' `seen`.
    pub fn seen(&self) -> usize {
        self.seen
    }
}

fn file_error(path: &Path, src: &str, message: String) -> VariantError {
    VariantError::Config(Box::new(SourceDiagnostic::new(
        path,
        src,
        (0, src.find('\n').unwrap_or(src.len())),
        message,
        "in this file",
    )))
}

impl BotBook {
    /// Load `dir/bots.yaml`, or `None` when the variant has no bots. Names its scripts write as
    /// literals are resolved in `table`, the variant's.
    pub(crate) fn load(
        root: &super::host::files::RulesRoot,
        dir: &Path,
        table: &Arc<crate::kernel::Table>,
    ) -> Result<Option<BotBook>, VariantError> {
        let path = dir.join("bots.yaml");
        if !path.is_file() {
            return Ok(None);
        }
        let src = super::sources::read_file(root, &path)?;
        let file: BotsFile = serde_yaml::from_str(&src).map_err(|e| {
            let p = super::host::error::ConfigProblem::from_yaml(&src, &e);
            VariantError::Config(Box::new(SourceDiagnostic::new(
                &path, &src, p.span, p.message, "here",
            )))
        })?;
        for level in LEVELS {
            if file.levels.contains_key(level) {
                continue;
            }
            // A level written wrong is the likely cause: point at it.
            let extra = file
                .levels
                .keys()
                .map(String::as_str)
                .filter(|k| !LEVELS.contains(k));
            let message =
                format!("bots.yaml needs the level `{level}` (levels: easy, medium, hard, expert)");
            return Err(match crate::suggest::did_you_mean(level, extra) {
                Some(typo) => VariantError::Config(Box::new(SourceDiagnostic::new(
                    &path,
                    &src,
                    super::host::error::locate(&src, &["levels", typo], None),
                    format!("{message}; is `{typo}` meant to be `{level}`?"),
                    "this level",
                ))),
                None => file_error(&path, &src, message),
            });
        }
        let mut engine = super::host::sandboxed_engine(root);
        register(&mut engine);
        let mut sources = HashMap::new();
        let modules = super::sources::load_modules(
            &mut engine,
            root,
            &path,
            &src,
            &file.modules,
            &mut sources,
        )?;
        let (script_path, script) =
            super::sources::read_named(root, &path, &src, &["script"], &file.script)?;
        let ast = super::sources::compile(&engine, &script_path, &script)?;
        let unknown_calls = super::sources::lint(
            &engine,
            &modules,
            &[super::sources::Compiled {
                path: script_path.clone(),
                src: script.clone(),
                ast: ast.clone(),
                module: None,
            }],
            &ast,
            table,
            super::host::bot_natives::BOT_TABLES,
        );
        if !ast
            .iter_functions()
            .any(|f| f.name == "decide" && f.params.len() == 2)
        {
            return Err(file_error(
                &script_path,
                &script,
                "a bot script needs `fn decide(view, params)`".into(),
            ));
        }
        let mut levels = BTreeMap::new();
        for (name, params) in file.levels {
            let mut map = Map::new();
            for (k, v) in &params {
                let key = k.as_str().unwrap_or_default().to_string();
                let value = super::sources::yaml_value(v).ok_or_else(|| {
                    file_error(
                        &path,
                        &src,
                        format!("level `{name}`: `{key}` needs a plain value"),
                    )
                })?;
                map.insert(key.into(), from_value(&value));
            }
            let forget_chance = params
                .get("forget_chance")
                .and_then(serde_yaml::Value::as_f64)
                .unwrap_or(0.0);
            levels.insert(
                name,
                Level {
                    params: Dynamic::from_map(map),
                    spare_params: Mutex::default(),
                    forget_chance,
                },
            );
        }
        let path = script_path.display().to_string();
        sources.insert(path.clone(), (script_path, script));
        let module_asts: Vec<(String, &AST)> = modules
            .iter()
            .filter_map(|m| Some((m.module.clone()?, &m.ast)))
            .collect();
        let program = super::compiled::Program::compile(
            &engine,
            super::host::bot_natives::BOT_TABLES,
            Some(table),
            &ast,
            &module_asts,
        );
        let decide = program.compiled("decide", 2);
        Ok(Some(BotBook {
            program,
            decide,
            engine_kind: super::host::EngineKind::default(),
            engine,
            ast,
            levels,
            path,
            sources,
            unknown_calls,
        }))
    }

    /// How many of its script functions are compiled, of how many, and those that are not.
    pub fn compiled(&self) -> ((usize, usize), &[super::compiled::Fallback]) {
        (self.program.counts(), &self.program.fallbacks)
    }

    /// The names of its levels, sorted.
    pub fn levels(&self) -> impl Iterator<Item = &str> {
        self.levels.keys().map(String::as_str)
    }

    /// A new bot for `seat` of `game` at `level`, with its own randomness from `seed`.
    /// `None` if the level does not exist.
    pub fn bot(&self, seat: Seat, level: &str, game: &Game, seed: u64) -> Option<Bot> {
        self.levels.get(level)?;
        Some(Bot {
            seat,
            level: level.to_string(),
            forgotten: vec![false; game.state.cards.len()],
            seen: 0,
            rng: ChaCha8Rng::seed_from_u64(seed ^ (0xb07 + seat.0 as u64 * 0x9e37_79b9)),
        })
    }

    /// Update the bot's memory with what happened since it last looked.
    pub fn observe(&self, bot: &mut Bot, game: &Game) {
        let level = &self.levels[&bot.level];
        let mut shown = Vec::new();
        for event in game.events_since(bot.seen) {
            if !event.to.includes(bot.seat) {
                continue;
            }
            shown.clear();
            event.shown_cards(bot.seat, &mut shown);
            for card in &shown {
                bot.forgotten[card.0 as usize] = false;
            }
            let my_turn = &*event.name == "game_player_turn"
                && matches!(event.payload.get_path("user"), Some(crate::kernel::Payload::Player(s)) if *s == bot.seat);
            if my_turn && level.forget_chance > 0.0 {
                for (i, c) in game.state.cards.iter().enumerate() {
                    // A card lying face up is in plain sight: nobody forgets it.
                    let in_hand = matches!(c.loc, Loc::Hand { .. }) && !c.face_up;
                    if in_hand
                        && c.known_by & bot.seat.bit() != 0
                        && !bot.forgotten[i]
                        && bot.rng.random::<f64>() < level.forget_chance
                    {
                        bot.forgotten[i] = true;
                    }
                }
            }
        }
        bot.seen = game.event_count();
    }

    /// Whether the bot remembers this card now.
    pub fn remembers(&self, bot: &Bot, game: &Game, card: CardIdx) -> bool {
        remembers(game, bot.seat, &bot.forgotten, card)
    }

    /// A bot naming an action the variant does not have: a bug in the bot script, shown where the
    /// name is written when it is written once as a string.
    fn unknown_action(&self, name: &str, table: &Table) -> RuleError {
        let names = table.actions.iter().map(|a| &*a.name);
        let message = format!(
            "bot script: `{name}` is not an action of {}{}",
            table.variant,
            super::host::error::suggest(name, names)
        );
        let quoted = format!("\"{name}\"");
        let mut hits = self.sources.iter().flat_map(|(_, (path, src))| {
            src.match_indices(&quoted)
                .map(move |(at, _)| (path, src, at))
        });
        match (hits.next(), hits.next()) {
            (Some((path, src, at)), None) => {
                let (line, column) = super::host::error::line_col(src, at);
                RuleError::Fault {
                    message,
                    pos: Some(crate::kernel::SourcePos {
                        file: path.display().to_string(),
                        line,
                        column,
                    }),
                }
            }
            _ => RuleError::fault(message),
        }
    }

    /// The bot's choice: an action to try, or `None` to wait.
    pub fn decide(&self, bot: &mut Bot, game: &Game) -> Result<Option<Action>, RuleError> {
        self.observe(bot, game);
        // The view owns the game it shows: a copy, whose memory serves the next copies.
        let mut copy = game.trial();
        let decided = self.decide_observed(bot, &mut copy);
        copy.recycle();
        decided
    }

    /// `decide`, with the view lent `game` itself for the decision instead of a copy: the same
    /// choice, without copying the game. `game` is back as it was when this returns (a panic
    /// included).
    pub fn decide_lending(
        &self,
        bot: &mut Bot,
        game: &mut Game,
    ) -> Result<Option<Action>, RuleError> {
        self.observe(bot, game);
        self.decide_observed(bot, game)
    }

    /// The decision of a bot that has observed `game`, on a view lent `game`.
    fn decide_observed(&self, bot: &mut Bot, game: &mut Game) -> Result<Option<Action>, RuleError> {
        // The view gets a copy of the flags, not the remembered set: most decisions ask about
        // a few cards.
        let rng = ChaCha8Rng::seed_from_u64(bot.rng.random());
        let lent = LentToView::new(game, bot.seat, &bot.forgotten, rng);
        let view = BotView(lent.data().clone());
        let level = &self.levels[&bot.level];
        let mut scope = Scope::new();
        let result = super::host::with_deadline(|| {
            let compiled = match self.engine_kind {
                super::host::EngineKind::Compiled => self.decide,
                super::host::EngineKind::Interpreted => None,
            };
            match compiled {
                // `decide` leaves `params` as given: lent, and back for the next decision.
                Some(id) if self.program.lends(id, 1) => {
                    let args = vec![Dynamic::from(view), level.lend_params()];
                    let (result, params) = self.program.call_compiled_lending(
                        &self.engine,
                        &super::compiled::COMPILED_LIMITS,
                        id,
                        "decide",
                        args,
                        1,
                    );
                    level.return_params(params);
                    result
                }
                Some(id) => self.program.call_compiled(
                    &self.engine,
                    &super::compiled::COMPILED_LIMITS,
                    id,
                    "decide",
                    vec![Dynamic::from(view), level.params.clone()],
                ),
                None => self.engine.call_fn_with_options::<Dynamic>(
                    CallFnOptions::new().eval_ast(false).rewind_scope(true),
                    &mut scope,
                    &self.ast,
                    "decide",
                    vec![Dynamic::from(view), level.params.clone()],
                ),
            }
        })
        .map_err(|e| {
            let e = super::host::stopped_by_limit(e);
            match super::host::script_error(
                *e,
                &self.path,
                &self.sources,
                &HashMap::new(),
                "decide",
            ) {
                RuleError::Fault { message, pos } => RuleError::Fault {
                    message: format!("bot script: {message}"),
                    pos,
                },
                // `refuse` means nothing to a bot: say so rather than pass it on as a refusal.
                RuleError::Refused(reason) => RuleError::fault(format!(
                    "bot script: called refuse(\"{reason}\"); a bot returns () to wait"
                )),
            }
        })?;
        // The result may hold the view: it is read before the view gives the game back.
        self.action_of(result, bot, &lent.data().game.table)
    }

    /// The action a bot's `decide` returned (`None` for `()`).
    fn action_of(
        &self,
        result: Dynamic,
        bot: &Bot,
        table: &Table,
    ) -> Result<Option<Action>, RuleError> {
        if result.is_unit() {
            return Ok(None);
        }
        if !result.is_map() {
            return Err(RuleError::fault(format!(
                "bot script: decide returned {result}, not an action map or ()"
            )));
        }
        let Some(map) = result.try_cast::<Map>() else {
            return Err(RuleError::fault(
                "bot script: decide's map could not be read",
            ));
        };
        let name = map
            .get("action")
            .and_then(|a| a.clone().into_immutable_string().ok())
            .ok_or_else(|| RuleError::fault("bot script: the action map needs `action`"))?;
        if table.action(&name).is_none() {
            return Err(self.unknown_action(&name, table));
        }
        let args = match map.get("args") {
            None => Vec::new(),
            Some(a) => a
                .clone()
                .try_cast::<Array>()
                .ok_or_else(|| RuleError::fault("bot script: `args` must be an array"))?
                .iter()
                .map(to_arg)
                .collect::<Result<_, _>>()?,
        };
        Ok(Some(Action {
            seat: bot.seat,
            name: name.as_str().into(),
            args,
        }))
    }
}

fn to_arg(d: &Dynamic) -> Result<Arg, RuleError> {
    // Read in place: copying a card or slot value only to learn its type allocates.
    let slot = d.read_lock::<Slot>().map(|s| *s);
    Ok(if let Some(c) = d.read_lock::<Card>() {
        Arg::Card(c.0)
    } else if let Some(s) = slot {
        Arg::Slot {
            seat: s.seat,
            slot: s.slot,
        }
    } else if let Some(i) = super::host::api::int_of(d) {
        Arg::Int(i)
    } else if let Some(s) = d.read_lock::<ImmutableString>() {
        if s.as_str() == "drawn" {
            Arg::Drawn
        } else {
            Arg::Word(s.to_string())
        }
    } else {
        return Err(RuleError::fault(format!(
            "bot script: `{d}` is not an action argument"
        )));
    })
}

/// The view API of bot scripts: every entry of `bot_natives::BOT_NATIVES`.
fn register(engine: &mut Engine) {
    engine.register_type_with_name::<BotView>("BotView");
    super::host::natives::register(engine, super::host::bot_natives::BOT_NATIVES);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::Candidates;
    use std::sync::OnceLock;

    /// The engine bot scripts run on.
    fn bot_engine() -> Engine {
        let root =
            crate::script::host::files::RulesRoot::new(Path::new(".")).expect("the package folder");
        let mut engine = crate::script::host::sandboxed_engine(&root);
        register(&mut engine);
        engine
    }

    #[test]
    fn no_value_a_bot_sees_has_an_index_setter() {
        // The compiled engine's write-back after a getter counts the indexer setter's try and
        // writes nothing (`compiled/chain/walk.rs`): true while no such function exists.
        let names = bot_engine().collect_fn_metadata(None, |i| Some(i.metadata.name.clone()), true);
        assert!(names.iter().any(|name| name == "get$candidates"));
        assert!(!names.iter().any(|name| name == "index$set$"));
    }

    #[test]
    fn a_bot_prints_a_card_without_its_index() {
        let engine = bot_engine();
        let mut scope = Scope::new();
        scope.push("c", Card(CardIdx(17)));
        let text: String = engine
            .eval_with_scope(&mut scope, r#"`${c} ${to_debug(c)} ${c.to_string()}`"#)
            .expect("the script runs");
        assert_eq!(text, "card card card");
    }

    /// A view API script run by both engines on a view with one candidate: the same text.
    #[test]
    fn the_view_api_reads_the_same_on_both_engines() {
        let engine = bot_engine();
        let script = r#"
            fn look(view) {
                let c = view.candidates[0];
                `${type_of(c.action)} ${c.action} ${c.args} ${view.can("draw")} ${view.can("x")} `
                    + `${view.me} ${view.is_my_turn} ${view.players.len()} ${view.current}`
            }
            fn show(c) { `${c} ${c == c}` }
            fn unknown(view) { [view.get("nope"), view.top("nowhere")] }
        "#;
        let ast = engine.compile(script).expect("the script compiles");
        let program = super::super::compiled::Program::compile(
            &engine,
            super::super::host::bot_natives::BOT_TABLES,
            None,
            &ast,
            &[],
        );
        let mut view = BotView::sample();
        Arc::get_mut(&mut view.0).expect("one owner").candidates =
            OnceLock::from(Candidates::from_actions(&[Action {
                seat: Seat(0),
                name: "draw".into(),
                args: vec![Arg::Int(2)],
            }]));
        // The text `name(arg)` gives on the interpreter, and on compiled code.
        let both = |name: &str, arg: Dynamic| {
            let interpreted: String = engine
                .call_fn(&mut Scope::new(), &ast, name, (arg.clone(),))
                .expect("the interpreter runs it");
            let compiled = super::super::host::with_deadline(|| {
                program.call(
                    &engine,
                    &super::super::compiled::COMPILED_LIMITS,
                    name,
                    vec![arg],
                )
            })
            .expect("the function is compiled")
            .expect("compiled code runs it")
            .into_string()
            .expect("a string");
            (interpreted, compiled)
        };
        let (interpreted, compiled) = both("look", Dynamic::from(view));
        assert_eq!(interpreted, "string draw [2] true false seat#0 false 0 ");
        assert_eq!(compiled, interpreted);
        // A literal name the table lacks: the same error on both engines.
        let interpreted = engine
            .call_fn::<Dynamic>(
                &mut Scope::new(),
                &ast,
                "unknown",
                (Dynamic::from(BotView::sample()),),
            )
            .expect_err("`nope` is not a variable")
            .to_string();
        let compiled = super::super::host::with_deadline(|| {
            program.call(
                &engine,
                &super::super::compiled::COMPILED_LIMITS,
                "unknown",
                vec![Dynamic::from(BotView::sample())],
            )
        })
        .expect("the function is compiled")
        .expect_err("`nope` is not a variable")
        .to_string();
        assert!(
            interpreted.contains("`nope` is not a game variable"),
            "{interpreted}"
        );
        assert_eq!(compiled, interpreted);
        // The bots' `to_string` of a card hides the kernel API's, on both engines.
        let (interpreted, compiled) = both("show", Dynamic::from(Card(CardIdx(3))));
        assert_eq!(
            (interpreted.as_str(), compiled.as_str()),
            ("card true", "card true")
        );
    }
}
