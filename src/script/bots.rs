//! Computer players: `rules/<variant>/bots.yaml` (levels and their parameters) and a Rhai
//! decision script that sees only the bot's own view, never the game.
//!
//! A bot's memory is what the kernel says its seat knows, minus what it has forgotten: at the
//! start of each of its turns it forgets each remembered hand card with the level's
//! `forget_chance`, and an event that shows it a card again brings that card back.

use super::api::{self, Card, Player, R, Slot, arg_value, from_value};
use super::error::{SourceDiagnostic, VariantError};
use crate::kernel::{Action, Arg, CardIdx, Game, Loc, RuleError, Seat};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rhai::{AST, Array, CallFnOptions, Dynamic, Engine, INT, ImmutableString, Map, Scope};
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
    /// The engine `decide` runs on (the variant's: `Variant::set_engine`).
    pub(crate) engine_kind: super::EngineKind,
    levels: BTreeMap<String, Level>,
    /// The entry script's source name, where a call to `decide` begins.
    path: String,
    /// Script sources by the name Rhai reports them under, for diagnostics.
    pub(crate) sources: HashMap<String, (PathBuf, String)>,
    /// Calls of functions that exist nowhere, in the bot script and its modules.
    pub unknown_calls: Vec<super::SourceDiagnostic>,
}

#[derive(Clone, Debug)]
struct Level {
    params: Map,
    forget_chance: f64,
}

/// One computer player in one game: its memory and randomness. Serializable, so a server saves
/// it beside the game (`Game::save`) and a restored bot decides exactly as the original would.
#[derive(Clone, Debug, PartialEq, serde::Serialize, Deserialize)]
pub struct Bot {
    /// The seat it plays.
    pub seat: Seat,
    /// Its level, as `bots.yaml` names it.
    pub level: String,
    forgotten: Vec<bool>,
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

/// What a bot sees: its own hand and the table as far as it remembers, public variables,
/// and the actions it may try.
#[derive(Clone)]
pub struct BotView(Arc<ViewData>);

struct ViewData {
    me: Seat,
    current: Option<Seat>,
    phase: String,
    players: Vec<String>,
    hands: Vec<Vec<Option<CardIdx>>>,
    /// Rank (short form) and points of each card the bot remembers; `None` otherwise.
    known: Vec<Option<(String, i64)>>,
    locations: Vec<Loc>,
    piles: Vec<(String, Vec<CardIdx>)>,
    game: Game,
    candidates: Vec<Action>,
    rng: Mutex<ChaCha8Rng>,
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
    /// Load `dir/bots.yaml`, or `None` when the variant has no bots.
    pub(crate) fn load(
        root: &super::files::RulesRoot,
        dir: &Path,
    ) -> Result<Option<BotBook>, VariantError> {
        let path = dir.join("bots.yaml");
        if !path.is_file() {
            return Ok(None);
        }
        let src = super::load::read_file(root, &path)?;
        let file: BotsFile = serde_yaml::from_str(&src).map_err(|e| {
            let p = super::error::ConfigProblem::from_yaml(&src, &e);
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
                    super::error::locate(&src, &["levels", typo], None),
                    format!("{message}; is `{typo}` meant to be `{level}`?"),
                    "this level",
                ))),
                None => file_error(&path, &src, message),
            });
        }
        let mut engine = super::sandboxed_engine(root);
        register(&mut engine);
        let mut sources = HashMap::new();
        let modules =
            super::load::load_modules(&mut engine, root, &path, &src, &file.modules, &mut sources)?;
        let (script_path, script) =
            super::load::read_named(root, &path, &src, &["script"], &file.script)?;
        let ast = super::load::compile(&engine, &script_path, &script)?;
        let unknown_calls = super::load::lint(
            &engine,
            &modules,
            &[super::load::Compiled {
                path: script_path.clone(),
                src: script.clone(),
                ast: ast.clone(),
                module: None,
            }],
            &ast,
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
                let value = super::config::yaml_value(v).ok_or_else(|| {
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
                    params: map,
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
        let program = super::compiled::Program::compile(&engine, &ast, &module_asts);
        Ok(Some(BotBook {
            program,
            engine_kind: super::EngineKind::default(),
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
                    let in_hand = matches!(c.loc, Loc::Hand { .. });
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
        game.state.knows(bot.seat, card) && !bot.forgotten[card.0 as usize]
    }

    /// A bot naming an action the variant does not have: a bug in the bot script, shown where the
    /// name is written when it is written once as a string.
    fn unknown_action(&self, name: &str, game: &Game) -> RuleError {
        let names = game.table.actions.iter().map(|a| &*a.name);
        let message = format!(
            "bot script: `{name}` is not an action of {}{}",
            game.table.variant,
            super::error::suggest(name, names)
        );
        let quoted = format!("\"{name}\"");
        let mut hits = self.sources.iter().flat_map(|(_, (path, src))| {
            src.match_indices(&quoted)
                .map(move |(at, _)| (path, src, at))
        });
        match (hits.next(), hits.next()) {
            (Some((path, src, at)), None) => {
                let (line, column) = super::error::line_col(src, at);
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
        let st = &game.state;
        let known = (0..st.cards.len())
            .map(|i| {
                let card = CardIdx(i as u16);
                self.remembers(bot, game, card).then(|| {
                    let face = st.face(card);
                    (face.rank.short().to_string(), game.table.points_of(face))
                })
            })
            .collect();
        let candidates = game
            .candidates()
            .into_iter()
            .filter(|a| a.seat == bot.seat)
            .collect();
        let view = BotView(Arc::new(ViewData {
            me: bot.seat,
            current: st.current,
            phase: game.table.phase_name(st.phase).to_string(),
            players: st.players.to_vec(),
            hands: st.hands.clone(),
            known,
            locations: st.cards.iter().map(|c| c.loc).collect(),
            piles: game
                .table
                .piles
                .iter()
                .zip(&st.piles)
                .map(|(d, p)| (d.name.clone(), p.clone()))
                .collect(),
            game: game.trial(),
            candidates,
            rng: Mutex::new(ChaCha8Rng::seed_from_u64(bot.rng.random())),
        }));
        let params = Dynamic::from(self.levels[&bot.level].params.clone());
        let mut scope = Scope::new();
        let result = super::with_deadline(|| {
            let args = vec![Dynamic::from(view), params];
            let compiled = self.engine_kind == super::EngineKind::Compiled
                && self.program.has("decide", args.len());
            match compiled {
                true => self
                    .program
                    .call(&self.engine, &super::COMPILED_LIMITS, "decide", args)
                    .expect("`decide` is compiled"),
                false => self.engine.call_fn_with_options::<Dynamic>(
                    CallFnOptions::new().eval_ast(false).rewind_scope(true),
                    &mut scope,
                    &self.ast,
                    "decide",
                    args,
                ),
            }
        })
        .map_err(|e| {
            match super::script_error(*e, &self.path, &self.sources, &HashMap::new(), "decide") {
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
        if result.is_unit() {
            return Ok(None);
        }
        let Some(map) = result.clone().try_cast::<Map>() else {
            return Err(RuleError::fault(format!(
                "bot script: decide returned {result}, not an action map or ()"
            )));
        };
        let name = map
            .get("action")
            .and_then(|a| a.clone().into_immutable_string().ok())
            .ok_or_else(|| RuleError::fault("bot script: the action map needs `action`"))?;
        if game.table.action(&name).is_none() {
            return Err(self.unknown_action(&name, game));
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
    Ok(if let Some(c) = d.clone().try_cast::<Card>() {
        Arg::Card(c.0)
    } else if let Some(s) = d.clone().try_cast::<Slot>() {
        Arg::Slot {
            seat: s.seat,
            slot: s.slot,
        }
    } else if let Some(i) = d.clone().try_cast::<INT>() {
        Arg::Int(i)
    } else if let Some(s) = d.clone().try_cast::<ImmutableString>() {
        if s == "drawn" {
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

fn view_card(c: Option<CardIdx>) -> Dynamic {
    c.map_or(Dynamic::UNIT, |c| Dynamic::from(Card(c)))
}

/// The view API of bot scripts.
fn register(engine: &mut Engine) {
    // A card's index survives reshuffles: a bot prints a card without it.
    engine
        .register_fn("to_string", |_: &mut Card| "card".to_string())
        .register_fn("to_debug", |_: &mut Card| "card".to_string());
    engine
        .register_type_with_name::<BotView>("BotView")
        .register_get("me", |v: &mut BotView| Player(v.0.me))
        .register_get("current", |v: &mut BotView| {
            v.0.current
                .map_or(Dynamic::UNIT, |s| Dynamic::from(Player(s)))
        })
        .register_get("is_my_turn", |v: &mut BotView| v.0.current == Some(v.0.me))
        .register_get("phase", |v: &mut BotView| v.0.phase.clone())
        .register_get("clock", |v: &mut BotView| {
            v.0.game.state.clock as f64 / 1000.0
        })
        .register_get("players", |v: &mut BotView| -> Array {
            (0..v.0.players.len())
                .map(|i| Dynamic::from(Player(Seat(i as u8))))
                .collect()
        })
        .register_fn("hand", |v: &mut BotView, p: Player| -> Array {
            v.0.hands
                .get(p.0.index())
                .map_or_else(Array::new, |h| h.iter().map(|&c| view_card(c)).collect())
        })
        .register_fn("known", |v: &mut BotView, c: Card| {
            v.0.known[c.0.0 as usize].is_some()
        })
        .register_fn("rank", |v: &mut BotView, c: Card| {
            v.0.known[c.0.0 as usize]
                .as_ref()
                .map_or(Dynamic::UNIT, |(r, _)| Dynamic::from(r.clone()))
        })
        .register_fn("points", |v: &mut BotView, c: Card| {
            v.0.known[c.0.0 as usize]
                .as_ref()
                .map_or(Dynamic::UNIT, |(_, p)| Dynamic::from(*p as INT))
        })
        .register_fn("owner", |v: &mut BotView, c: Card| {
            match v.0.locations[c.0.0 as usize] {
                Loc::Hand { seat, .. } => Dynamic::from(Player(seat)),
                Loc::Pile(_) => Dynamic::UNIT,
            }
        })
        .register_fn("slot", |v: &mut BotView, c: Card| {
            match v.0.locations[c.0.0 as usize] {
                Loc::Hand { seat, slot } => Dynamic::from(Slot {
                    seat,
                    slot: slot as u32,
                }),
                Loc::Pile(_) => Dynamic::UNIT,
            }
        })
        .register_fn("top", |v: &mut BotView, pile: &str| -> R<Dynamic> {
            let id = api::pile_id(&v.0.game, pile)?;
            Ok(view_card(v.0.piles[id.0 as usize].1.last().copied()))
        })
        .register_fn("pile_size", |v: &mut BotView, pile: &str| -> R<INT> {
            let id = api::pile_id(&v.0.game, pile)?;
            Ok(v.0.piles[id.0 as usize].1.len() as INT)
        })
        .register_fn("get", |v: &mut BotView, name: &str| -> R<Dynamic> {
            let g = &v.0.game;
            match g.table.game_var(name) {
                Some(i) => Ok(from_value(&g.state.game_vars[i])),
                None => api::unknown_var(g, name, false),
            }
        })
        .register_fn(
            "pget",
            |v: &mut BotView, p: Player, name: &str| -> R<Dynamic> {
                let g = &v.0.game;
                let Some(i) = g.table.player_var(name) else {
                    return api::unknown_var(g, name, true);
                };
                if !g.table.player_var_visible(i, p.0.index(), v.0.me.index()) {
                    return api::err(format!(
                        "`{name}` is private to each player: a bot sees only its own (declare it `{{ value: …, public: true }}` in variant.yaml if every player may see it)"
                    ));
                }
                match g.state.player_vars.get(p.0.index()) {
                    Some(vars) => Ok(from_value(&vars[i])),
                    None => api::err(format!("there is no player in seat {}", p.0.0)),
                }
            },
        )
        .register_fn("house", |v: &mut BotView, name: &str| -> R<Dynamic> {
            api::house_rule(&v.0.game, name)
        })
        .register_get("candidates", |v: &mut BotView| -> Array {
            v.0.candidates
                .iter()
                .map(|a| {
                    let mut m = Map::new();
                    m.insert("action".into(), Dynamic::from(a.name.clone()));
                    m.insert(
                        "args".into(),
                        Dynamic::from(a.args.iter().map(arg_value).collect::<Array>()),
                    );
                    Dynamic::from(m)
                })
                .collect()
        })
        .register_fn("can", |v: &mut BotView, action: &str| {
            v.0.candidates.iter().any(|a| &*a.name == action)
        })
        .register_fn("random", |v: &mut BotView| {
            v.0.rng
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .random::<f64>()
        })
        .register_fn("pick", |v: &mut BotView, items: Array| {
            if items.is_empty() {
                return Dynamic::UNIT;
            }
            let i =
                v.0.rng
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .random_range(0..items.len());
            items[i].clone()
        });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bot_prints_a_card_without_its_index() {
        let root =
            crate::script::files::RulesRoot::new(Path::new(".")).expect("the package folder");
        let mut engine = crate::script::sandboxed_engine(&root);
        register(&mut engine);
        let mut scope = Scope::new();
        scope.push("c", Card(CardIdx(17)));
        let text: String = engine
            .eval_with_scope(&mut scope, r#"`${c} ${to_debug(c)} ${c.to_string()}`"#)
            .expect("the script runs");
        assert_eq!(text, "card card card");
    }
}
