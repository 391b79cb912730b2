//! Variants as scripts: load `rules/<variant>/` (YAML config, Rhai scripts, rulebook), compile the
//! scripts once under one sandboxed engine, and run their hooks as the kernel's `Rules`.
//!
//! This is the only module that imports rhai.

pub mod api;
pub mod bots;
pub mod config;
pub mod error;
pub mod rulebook;

use crate::kernel::{Action, Game, RuleError, Rules, Seat, SourcePos, Table, Timer};
use api::{GameHandle, Player, Refusal};
use config::HouseRuleDoc;
pub use error::{SourceDiagnostic, VariantError};
use rhai::{AST, CallFnOptions, Dynamic, Engine, EvalAltResult, INT, Scope};
use rulebook::Rulebook;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// Limits every rule script runs under.
pub const MAX_OPERATIONS: u64 = 500_000;
pub const MAX_CALL_LEVELS: usize = 48;
/// The native stack every thread that runs scripts gets (`std::thread::Builder::stack_size`):
/// enough for the deepest recursion the limits above allow.
pub const SCRIPT_STACK_BYTES: usize = 64 * 1024 * 1024;

/// The one constructor of the scripting engine: a raw engine with the standard packages, the
/// kernel API, no `eval`, no clock (the `no_time` feature), strict variables and hard limits.
/// Modules resolve under `module_root` only.
pub fn sandboxed_engine(module_root: &Path) -> Engine {
    let mut engine = Engine::new_raw();
    engine.register_global_module(rhai::packages::Package::as_shared_module(
        &rhai::packages::StandardPackage::new(),
    ));
    engine
        .set_max_operations(MAX_OPERATIONS)
        .set_max_call_levels(MAX_CALL_LEVELS)
        .set_max_expr_depths(64, 64)
        .set_max_string_size(16 * 1024)
        .set_max_array_size(16 * 1024)
        .set_max_map_size(1024)
        .set_max_modules(32)
        .set_max_variables(512)
        .set_strict_variables(true)
        .disable_symbol("eval");
    engine.set_module_resolver(rhai::module_resolvers::FileModuleResolver::new_with_path(
        module_root,
    ));
    // Scripts print only when a designer asks for it.
    if std::env::var_os("DECKSPEC_SCRIPT_PRINT").is_some() {
        engine.on_print(|s| eprintln!("[script] {s}"));
        engine.on_debug(|s, _, pos| eprintln!("[script {pos}] {s}"));
    } else {
        engine.on_print(|_| {});
        engine.on_debug(|_, _, _| {});
    }
    api::register(&mut engine);
    engine
}

/// A loaded variant: its table, compiled scripts, rulebook and sources.
pub struct Variant {
    pub name: String,
    pub dir: PathBuf,
    pub description: String,
    table: Arc<Table>,
    engine: Engine,
    ast: AST,
    pub rulebook: Rulebook,
    pub house_rules: Vec<HouseRuleDoc>,
    /// Computer players, when the variant has a `bots.yaml`.
    pub bots: Option<bots::BotBook>,
    /// Script sources by the name Rhai reports them under, for diagnostics.
    sources: HashMap<String, (PathBuf, String)>,
    /// Script hook names by action name (`snap` → `on_snap`).
    action_hooks: HashMap<String, String>,
    hooks: HashSet<(String, usize)>,
    entry: String,
}

impl std::fmt::Debug for Variant {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Variant").field("name", &self.name).finish()
    }
}

pub(crate) fn read(path: &Path) -> Result<String, VariantError> {
    std::fs::read_to_string(path).map_err(|e| VariantError::Io {
        path: path.display().to_string(),
        message: e.to_string(),
    })
}

/// The variants under a rules folder (each subfolder with a `variant.yaml`), sorted.
pub fn variant_names(rules_dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(rules_dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| e.path().join("variant.yaml").is_file())
        .filter_map(|e| e.file_name().to_str().map(str::to_string))
        .collect();
    names.sort();
    names
}

impl Variant {
    /// Load `rules_dir/<name>/`.
    pub fn load_named(rules_dir: &Path, name: &str) -> Result<Variant, VariantError> {
        let dir = rules_dir.join(name);
        if !dir.join("variant.yaml").is_file() {
            let names = variant_names(rules_dir);
            let help = match crate::suggest::did_you_mean(name, names.iter().map(String::as_str)) {
                Some(n) => format!("did you mean `{n}`?"),
                None => format!("the variants there are: {}", names.join(", ")),
            };
            return Err(VariantError::Unknown {
                name: name.to_string(),
                dir: rules_dir.display().to_string(),
                help,
            });
        }
        Variant::load(&dir)
    }

    /// Load a variant folder: `variant.yaml`, its entry script and `rulebook.yaml`.
    pub fn load(dir: &Path) -> Result<Variant, VariantError> {
        let yaml_path = dir.join("variant.yaml");
        let yaml = read(&yaml_path)?;
        let config_error = |path: &Path, src: &str, p: error::ConfigProblem| {
            VariantError::Config(Box::new(SourceDiagnostic::new(
                path, src, p.span, p.message, "here",
            )))
        };
        let (file, table, house_rules) = match extends_of(&yaml) {
            None => config::load(&yaml).map_err(|p| config_error(&yaml_path, &yaml, p))?,
            Some(base) => {
                let base_path = normalize(&dir.join(&base));
                let base_src = read(&base_path)?;
                let mut merged: serde_yaml::Value =
                    serde_yaml::from_str(&base_src).map_err(|e| {
                        config_error(
                            &base_path,
                            &base_src,
                            error::ConfigProblem::from_yaml(&base_src, &e),
                        )
                    })?;
                let own: serde_yaml::Value = serde_yaml::from_str(&yaml).map_err(|e| {
                    config_error(
                        &yaml_path,
                        &yaml,
                        error::ConfigProblem::from_yaml(&yaml, &e),
                    )
                })?;
                config::merge(&mut merged, own);
                config::load_value(&yaml, merged).map_err(|p| config_error(&yaml_path, &yaml, p))?
            }
        };

        let module_root = dir.parent().unwrap_or(dir);
        let mut engine = sandboxed_engine(module_root);
        let mut sources = HashMap::new();
        for (name, path) in &file.modules {
            let path = normalize(&dir.join(path));
            let src = read(&path)?;
            let source_name = path.display().to_string();
            let mut ast = compile(&engine, &path, &src)?;
            ast.set_source(source_name.clone());
            let module =
                rhai::Module::eval_ast_as_new(Scope::new(), &ast, &engine).map_err(|e| {
                    let pos = e.position();
                    VariantError::Script(Box::new(SourceDiagnostic::at_line(
                        &path,
                        &src,
                        pos.line().unwrap_or(1),
                        pos.position().unwrap_or(1),
                        format!("module `{name}` does not load: {e}"),
                        "here",
                    )))
                })?;
            engine.register_static_module(name.as_str(), module.into());
            sources.insert(source_name, (path, src));
        }

        let script_path = dir.join(&file.script);
        let script = read(&script_path)?;
        let entry = script_path.display().to_string();
        let mut ast = compile(&engine, &script_path, &script)?;
        ast.set_source(entry.clone());

        let hooks: HashSet<(String, usize)> = ast
            .iter_functions()
            .map(|f| (f.name.to_string(), f.params.len()))
            .collect();
        let missing = |hook: &str, arity: usize| !hooks.contains(&(hook.to_string(), arity));
        let script_error = |message: String| {
            VariantError::Script(Box::new(SourceDiagnostic::new(
                &script_path,
                &script,
                (0, script.find('\n').unwrap_or(script.len())),
                message,
                "in this script",
            )))
        };
        for (hook, params) in [("setup", "game"), ("start_turn", "game, player")] {
            let arity = params.split(',').count();
            if missing(hook, arity) {
                return Err(script_error(format!(
                    "the script defines no `fn {hook}({params})`, which every variant needs"
                )));
            }
        }
        if !table.timers.is_empty() && missing("on_timer", 3) {
            return Err(script_error(
                "variant.yaml declares timers, but the script defines no `fn on_timer(game, name, player)`".into(),
            ));
        }
        let mut action_hooks = HashMap::new();
        for action in &table.actions {
            let hook = format!("on_{}", action.name);
            if missing(&hook, 3) {
                let span = error::locate(&yaml, &["actions", &action.name], None);
                return Err(VariantError::Config(Box::new(SourceDiagnostic::new(
                    &yaml_path,
                    &yaml,
                    span,
                    format!(
                        "action `{}` has no hook: define `fn {hook}(game, player, args)` in {}",
                        action.name,
                        script_path.display()
                    ),
                    "declared here",
                ))));
            }
            action_hooks.insert(action.name.to_string(), hook);
        }

        let rulebook = Rulebook::load(&dir.join("rulebook.yaml"))?;
        let bots = bots::BotBook::load(dir)?;
        sources.insert(entry.clone(), (script_path.clone(), script));
        Ok(Variant {
            name: file.name.clone(),
            dir: dir.to_path_buf(),
            description: file.description.clone(),
            table: Arc::new(table),
            engine,
            ast,
            rulebook,
            house_rules,
            bots,
            sources,
            action_hooks,
            hooks,
            entry,
        })
    }

    /// The variant's table (cards, piles, phases, actions, house rules), shared by its games.
    /// The same as `Rules::table`, without importing the trait.
    pub fn table(&self) -> &Arc<Table> {
        &self.table
    }

    pub fn has_hook(&self, name: &str, arity: usize) -> bool {
        self.hooks.contains(&(name.to_string(), arity))
    }

    /// Call a script hook with the game as its first argument. The game moves into a shared
    /// handle for the call and back out after it.
    fn call(
        &self,
        game: &mut Game,
        hook: &str,
        mut args: Vec<Dynamic>,
    ) -> Result<Dynamic, RuleError> {
        let handle = GameHandle(Arc::new(Mutex::new(std::mem::take(game))));
        args.insert(0, Dynamic::from(handle.clone()));
        let mut scope = Scope::new();
        let options = CallFnOptions::new().eval_ast(false).rewind_scope(true);
        let result = self
            .engine
            .call_fn_with_options::<Dynamic>(options, &mut scope, &self.ast, hook, args);
        drop(scope);
        *game = match Arc::try_unwrap(handle.0) {
            Ok(m) => m.into_inner().unwrap_or_else(|e| e.into_inner()),
            // A script kept a copy of the handle (in a returned value): take the game back anyway.
            Err(shared) => std::mem::take(&mut *shared.lock().unwrap_or_else(|e| e.into_inner())),
        };
        result.map_err(|e| self.rule_error(*e))
    }

    /// Turn a script error into a refusal (from `refuse`) or a fault with its script position.
    fn rule_error(&self, err: EvalAltResult) -> RuleError {
        script_error(err, &self.entry, &self.sources)
    }

    /// A script fault as a diagnostic on the script's own text.
    pub fn diagnose(&self, error: &RuleError) -> Option<SourceDiagnostic> {
        let RuleError::Fault {
            message,
            pos: Some(pos),
        } = error
        else {
            return None;
        };
        let bot_sources = self.bots.as_ref().map(|b| &b.sources);
        let (path, src) = self
            .sources
            .values()
            .chain(bot_sources.into_iter().flat_map(|s| s.values()))
            .find(|(p, _)| p.display().to_string() == pos.file)?;
        Some(SourceDiagnostic::at_line(
            path,
            src,
            pos.line,
            pos.column.max(1),
            format!("script error: {message}"),
            "failed here",
        ))
    }
}

/// Turn a script error into a refusal (from `refuse`) or a fault at the innermost script position
/// (`entry` is the script the call began in; `sources` maps Rhai's source names to files).
pub(crate) fn script_error(
    err: EvalAltResult,
    entry: &str,
    sources: &HashMap<String, (PathBuf, String)>,
) -> RuleError {
    let mut source = entry.to_string();
    let mut pos = err.position();
    let mut trail = Vec::new();
    let mut e = &err;
    loop {
        match e {
            EvalAltResult::ErrorInFunctionCall(name, src, inner, p) => {
                trail.push(name.clone());
                if !src.is_empty() {
                    source = src.clone();
                }
                if !p.is_none() {
                    pos = *p;
                }
                e = inner;
            }
            EvalAltResult::ErrorInModule(name, inner, p) => {
                if !name.is_empty() {
                    source = name.clone();
                }
                if !p.is_none() {
                    pos = *p;
                }
                e = inner;
            }
            _ => break,
        }
    }
    if let EvalAltResult::ErrorRuntime(value, _) = e
        && let Some(refusal) = value.read_lock::<Refusal>()
    {
        return RuleError::Refused(refusal.0.clone());
    }
    if !e.position().is_none() {
        pos = e.position();
    }
    let message = match e {
        EvalAltResult::ErrorRuntime(value, _) => value.to_string(),
        EvalAltResult::ErrorTooManyOperations(_) => {
            format!("the script ran more than {MAX_OPERATIONS} operations (an endless loop?)")
        }
        other => {
            let text = other.to_string();
            match text.rfind(" (line ") {
                Some(i) => text[..i].to_string(),
                None => text,
            }
        }
    };
    let message = match trail.first() {
        Some(hook) => format!("{message} (in `{hook}`)"),
        None => message,
    };
    let file = sources
        .get(&source)
        .map_or(source.clone(), |(p, _)| p.display().to_string());
    RuleError::Fault {
        message,
        pos: pos.line().map(|line| SourcePos {
            file,
            line,
            column: pos.position().unwrap_or(0),
        }),
    }
}

/// `a/b/../c` as `a/c`, without touching the file system (paths stay as the user wrote them).
pub(crate) fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            std::path::Component::ParentDir
                if matches!(
                    out.components().next_back(),
                    Some(std::path::Component::Normal(_))
                ) =>
            {
                out.pop();
            }
            std::path::Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

/// The `extends:` line of a variant file, read before the file is parsed as a whole.
fn extends_of(yaml: &str) -> Option<String> {
    let value: serde_yaml::Value = serde_yaml::from_str(yaml).ok()?;
    value.get("extends")?.as_str().map(str::to_string)
}

/// Compile a script, or say where it does not compile.
pub(crate) fn compile(engine: &Engine, path: &Path, src: &str) -> Result<AST, VariantError> {
    engine.compile(src).map_err(|e| {
        let pos = e.position();
        VariantError::Script(Box::new(SourceDiagnostic::at_line(
            path,
            src,
            pos.line().unwrap_or(1),
            pos.position().unwrap_or(1),
            format!("script does not compile: {}", e.err_type()),
            "here",
        )))
    })
}

fn player(seat: Seat) -> Dynamic {
    Dynamic::from(Player(seat))
}

impl Rules for Variant {
    fn table(&self) -> &Arc<Table> {
        &self.table
    }

    fn setup(&self, game: &mut Game) -> Result<(), RuleError> {
        self.call(game, "setup", vec![]).map(drop)
    }

    fn end_setup(&self, game: &mut Game, first: Seat) -> Result<(), RuleError> {
        if self.has_hook("end_setup", 2) {
            self.call(game, "end_setup", vec![player(first)]).map(drop)
        } else {
            self.start_turn(game, first)
        }
    }

    fn start_turn(&self, game: &mut Game, seat: Seat) -> Result<(), RuleError> {
        self.call(game, "start_turn", vec![player(seat)]).map(drop)
    }

    fn act(&self, game: &mut Game, action: &Action) -> Result<(), RuleError> {
        let Some(hook) = self.action_hooks.get(&*action.name) else {
            return Err(RuleError::Refused(format!(
                "`{}` is not an action of {}",
                action.name, self.name
            )));
        };
        let args: rhai::Array = action.args.iter().map(api::arg_value).collect();
        self.call(game, hook, vec![player(action.seat), Dynamic::from(args)])
            .map(drop)
    }

    fn timer(&self, game: &mut Game, timer: &Timer) -> Result<(), RuleError> {
        let who = timer.seat.map_or(Dynamic::UNIT, player);
        self.call(
            game,
            "on_timer",
            vec![Dynamic::from(timer.name.clone()), who],
        )
        .map(drop)
    }

    fn score(&self, game: &mut Game, seat: Seat) -> Result<i64, RuleError> {
        if self.has_hook("score", 2) {
            let value = self.call(game, "score", vec![player(seat)])?;
            return value.clone().try_cast::<INT>().ok_or_else(|| {
                RuleError::fault(format!(
                    "`score` returned a {}, not an integer",
                    value.type_name()
                ))
            });
        }
        Ok(game
            .state
            .hand(seat)
            .iter()
            .flatten()
            .map(|&c| self.table.points_of(game.state.face(c)))
            .sum())
    }
}
