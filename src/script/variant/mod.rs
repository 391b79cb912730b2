//! A variant loaded from `rules/<variant>/` and run as the kernel's `Rules`: each hook called on
//! the engine it was compiled for, with the game lent to the call, and script errors mapped to
//! refusals or faults at their script positions.

#[cfg(test)]
mod bot_tests;
pub mod config;
pub mod describe;
mod load;
pub mod rulebook;

pub use load::{MAX_EXTENDS_DEPTH, variant_names};

use super::bots;
use super::compiled;
use super::compiled::COMPILED_LIMITS;
use super::host::api::{self, GameHandle, Player};
use super::host::effects;
use super::host::error::SourceDiagnostic;
use super::host::{EngineKind, panic_text, script_error, stopped_by_limit, with_deadline};
use crate::kernel::{Action, Game, RuleError, Rules, Seat, Table, Timer};
use config::HouseRuleDoc;
use rhai::{AST, CallFnOptions, Dynamic, Engine, EvalAltResult, INT, Scope};
use rulebook::Rulebook;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// What watches a variant's interpreter run, attached to its engine at load: coverage's probe
/// (`script::probe`). A variant loaded with one runs its hooks on the interpreter.
pub(crate) trait EngineObserver: Send + Sync {
    /// Register its callbacks on the variant's engine.
    fn attach(self: Arc<Self>, engine: &mut Engine);
    /// Itself, for the one that attached it to read back what it gathered.
    fn as_any(&self) -> &dyn std::any::Any;
    /// An action's hook is about to run: the rules may refuse it.
    fn try_begins(&self) {}
    /// The action's hook has returned, refused or not.
    fn try_ends(&self, _refused: bool) {}
}

/// A loaded variant: its table, compiled scripts, rulebook and sources.
pub struct Variant {
    /// Its `name:` in `variant.yaml`.
    pub name: String,
    /// The folder it was loaded from.
    pub dir: PathBuf,
    /// Its `description:` in `variant.yaml` (empty when there is none).
    pub description: String,
    table: Arc<Table>,
    engine: Engine,
    ast: AST,
    /// Its numbered rules (`rulebook.yaml`), its own or inherited.
    pub rulebook: Rulebook,
    /// The variant whose rulebook this is, when it is inherited (`extends:`).
    pub rulebook_from: Option<String>,
    /// Its house rules, each with its default, type, range and `doc:`.
    pub house_rules: Vec<HouseRuleDoc>,
    /// Computer players, when the variant (or one it extends) has a `bots.yaml`.
    pub bots: Option<bots::BotBook>,
    /// The variant whose bots these are, when they are inherited.
    pub bots_from: Option<String>,
    /// The variant this one extends directly, if any.
    pub extends: Option<String>,
    /// Each action's `doc:` from `variant.yaml`, by action name.
    pub action_docs: std::collections::BTreeMap<String, String>,
    /// What `deckspec prove` explores (`prove:` in `variant.yaml`; empty when it says nothing).
    pub prove: Vec<config::ProveConfig>,
    /// Rulebook rules no explored game can play, with why (`prove_unplayed:`).
    pub prove_unplayed: Vec<(String, String)>,
    /// Functions inherited from a base script, by name: the file they are written in.
    fn_files: HashMap<String, String>,
    /// Calls of functions that exist nowhere, in the rule scripts and modules (`deckspec check`).
    pub unknown_calls: Vec<SourceDiagnostic>,
    /// The fields the rule scripts write in each event's payload, by event (where the call names
    /// the event and writes the payload as a map literal).
    pub event_fields: std::collections::BTreeMap<String, std::collections::BTreeSet<String>>,
    /// The names the rule scripts and modules call, or write as text (`rules_may_call`).
    rule_calls: HashSet<String>,
    /// Script sources by the name Rhai reports them under, for diagnostics.
    sources: HashMap<String, (PathBuf, String)>,
    /// By declared action (as `table.actions`), its hook's name (`snap` → `on_snap`) and its
    /// compiled function when it is compiled (found once, at load).
    action_hooks: Vec<(String, Option<compiled::FnId>)>,
    /// By declared action: whether its hook refuses only before it first changes the game
    /// (`sources::refusals`), so that a legality check may stop at that change (`check_act`).
    checked_until_change: Vec<bool>,
    hooks: HashSet<(String, usize)>,
    entry: String,
    /// What counts the nodes its hooks run, when loaded for coverage.
    probe: Option<Arc<dyn EngineObserver>>,
    /// Its functions compiled at load time.
    program: compiled::Program,
    /// Which engine runs its hooks.
    engine_kind: EngineKind,
}

impl Variant {
    /// The engine its scripts were compiled for.
    pub(crate) fn engine(&self) -> &Engine {
        &self.engine
    }

    /// What was attached to its engine at load (`load_named_observed`).
    pub(crate) fn observer(&self) -> Option<&dyn EngineObserver> {
        self.probe.as_deref()
    }

    /// The file a node ran in, from the Rhai source name the engine reported and the function
    /// it ran in: a module's node is in the module's file; an inherited function's, which runs
    /// inside the merged entry script, in the file it is written in. `None` for an `import`ed
    /// file outside the variant's scripts.
    pub(crate) fn file_of(&self, source: &str, function: &str) -> Option<&Path> {
        let module = Some(source).filter(|s| *s != self.entry && self.sources.contains_key(*s));
        let file = match module {
            Some(m) => m,
            None => self
                .fn_files
                .get(function)
                .map_or(self.entry.as_str(), String::as_str),
        };
        self.sources.get(file).map(|(path, _)| path.as_path())
    }
}

impl std::fmt::Debug for Variant {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Variant").field("name", &self.name).finish()
    }
}

impl Variant {
    /// The rule scripts and modules it was compiled from (not its bots), each as its path and
    /// text, sorted by path; a derived variant's list includes its bases' scripts.
    pub fn rule_scripts(&self) -> Vec<(PathBuf, String)> {
        let mut scripts: Vec<(PathBuf, String)> = self.sources.values().cloned().collect();
        scripts.sort();
        scripts.dedup();
        scripts
    }

    /// Whether the rule scripts (not the bots) may call the function `name`: they call it by
    /// name, or hold it as text (as `Fn("name")` does), or call a function named at run time.
    pub fn rules_may_call(&self, name: &str) -> bool {
        ["call", "Fn", "curry", "eval"]
            .iter()
            .chain(std::iter::once(&name))
            .any(|n| self.rule_calls.contains(*n))
    }

    /// The variant's table (cards, piles, phases, actions, house rules), shared by its games.
    /// The same as `Rules::table`, without importing the trait.
    pub fn table(&self) -> &Arc<Table> {
        &self.table
    }

    /// The engine that runs its hooks.
    pub fn engine_kind(&self) -> EngineKind {
        self.engine_kind
    }

    /// Run its hooks on `kind` from now on. A variant loaded for coverage stays interpreted:
    /// its probe counts the interpreter's steps.
    pub fn set_engine(&mut self, kind: EngineKind) {
        if self.probe.is_none() {
            self.engine_kind = kind;
            if let Some(bots) = &mut self.bots {
                bots.engine_kind = kind;
            }
        }
    }

    /// The actions whose hooks refuse only before they first change the game: a legality check
    /// of one (`Game::accepts`) stops at its first change (see `Rules::check_act`).
    pub fn checked_until_change(&self) -> Vec<&str> {
        self.table
            .actions
            .iter()
            .zip(&self.checked_until_change)
            .filter(|&(_, &quick)| quick)
            .map(|(a, _)| &*a.name)
            .collect()
    }

    /// How many of its script functions (modules' included) are compiled, of how many.
    pub fn compiled_counts(&self) -> (usize, usize) {
        self.program.counts()
    }

    /// How many of its script functions are compiled into their callers as well (small ones,
    /// at their call sites).
    pub fn inlined_count(&self) -> usize {
        self.program.inlined()
    }

    /// The functions the compiler left to the interpreter, and why (`deckspec check`).
    pub fn interpreted_functions(&self) -> &[compiled::Fallback] {
        &self.program.fallbacks
    }

    fn has_hook(&self, name: &str, arity: usize) -> bool {
        self.hooks.contains(&(name.to_string(), arity))
    }

    /// Call a script hook with the game as its first argument. The game moves into a shared
    /// handle for the call and back out after it.
    fn call<const N: usize>(
        &self,
        game: &mut Game,
        hook: &str,
        args: [Dynamic; N],
    ) -> Result<Dynamic, RuleError> {
        self.call_found(game, hook, self.program.compiled(hook, N + 1), args)
    }

    /// `call`, with the hook's compiled function already found (`Program::compiled`).
    fn call_found<const N: usize>(
        &self,
        game: &mut Game,
        hook: &str,
        compiled: Option<compiled::FnId>,
        args: [Dynamic; N],
    ) -> Result<Dynamic, RuleError> {
        let mut lent = Lent::new(game);
        let handle = lent.value();
        let compiled = match self.engine_kind {
            EngineKind::Compiled => compiled,
            EngineKind::Interpreted => None,
        };
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            with_deadline(|| {
                if let Some(id) = compiled {
                    // Straight onto the compiled call's stack, with no list made for them.
                    let args = std::iter::once(handle).chain(args);
                    let (result, back) =
                        self.program
                            .call_hook(&self.engine, &COMPILED_LIMITS, id, hook, args);
                    return (result.map_err(|e| *stopped_by_limit(e)), back);
                }
                let mut all = Vec::with_capacity(N + 1);
                all.push(handle);
                all.extend(args);
                let options = CallFnOptions::new().eval_ast(false).rewind_scope(true);
                let result = self
                    .engine
                    .call_fn_with_options::<Dynamic>(
                        options,
                        &mut Scope::new(),
                        &self.ast,
                        hook,
                        all,
                    )
                    .map_err(|e| *stopped_by_limit(e));
                (result, None)
            })
        }));
        let result = result.map(|(result, back)| {
            if let Some(back) = back {
                lent.keep_value(back);
            }
            result
        });
        drop(lent);
        match result {
            // Only a legality check that stops at the first change raises it (`check_act`).
            Ok(Err(e)) if effects::stopped_at_change(&e) => Ok(Dynamic::UNIT),
            Ok(result) => result.map_err(|e| self.rule_error(e, hook)),
            Err(panic) => Err(RuleError::fault(format!(
                "internal error while running `{hook}`: {}",
                panic_text(&*panic)
            ))),
        }
    }

    /// Turn a script error into a refusal (from `refuse`) or a fault with its script position.
    fn rule_error(&self, err: EvalAltResult, hook: &str) -> RuleError {
        script_error(err, &self.entry, &self.sources, &self.fn_files, hook)
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

/// The game lent to a script call: moved back out of the handle when the call ends, on every
/// exit path (a panic included), even if a script kept a copy of the handle.
struct Lent<'a> {
    game: &'a mut Game,
    handle: GameHandle,
    /// The handle as a script value, when the last call on this thread gave it back unchanged:
    /// made again, it is three allocations.
    value: Option<Dynamic>,
}

thread_local! {
    /// A handle no script holds any more, kept for the next call on this thread: lending a game
    /// then allocates nothing (the handle holds an empty game between calls). With it, its
    /// script value when a call gave that back (see `Lent::value`).
    static SPARE_HANDLE: std::cell::RefCell<Option<(GameHandle, Option<Dynamic>)>> = const { std::cell::RefCell::new(None) };
}

impl<'a> Lent<'a> {
    /// Move the game into a shared handle (its place keeps the handle's empty game).
    fn new(game: &'a mut Game) -> Lent<'a> {
        let (handle, value) = SPARE_HANDLE
            .with(|spare| spare.borrow_mut().take())
            .unwrap_or_else(|| (GameHandle(Arc::new(Mutex::new(Game::default()))), None));
        std::mem::swap(game, &mut *handle.lock());
        Lent {
            game,
            handle,
            value,
        }
    }

    /// The handle as a script value, for the call's first argument.
    fn value(&mut self) -> Dynamic {
        self.value
            .take()
            .unwrap_or_else(|| Dynamic::from(self.handle.clone()))
    }

    /// Keep `value`, which a call gave back, for the next call, when it is this handle still as
    /// made (untagged, writable).
    fn keep_value(&mut self, value: Dynamic) {
        let same = value.tag() == 0
            && !value.is_read_only()
            && value
                .read_lock::<GameHandle>()
                .is_some_and(|h| Arc::ptr_eq(&h.0, &self.handle.0));
        if same {
            self.value = Some(value);
        }
    }
}

impl Drop for Lent<'_> {
    fn drop(&mut self) {
        std::mem::swap(self.game, &mut *self.handle.lock());
        // Kept only when nothing else holds it (the kept value holds one count), so no script
        // value can reach the next game.
        let held = 1 + usize::from(self.value.is_some());
        if Arc::strong_count(&self.handle.0) == held {
            let handle = self.handle.clone();
            let value = self.value.take();
            SPARE_HANDLE.with(|spare| *spare.borrow_mut() = Some((handle, value)));
        }
    }
}

fn player(seat: Seat) -> Dynamic {
    Dynamic::from(Player(seat))
}

impl Rules for Variant {
    fn table(&self) -> &Arc<Table> {
        &self.table
    }

    fn setup(&self, game: &mut Game) -> Result<(), RuleError> {
        self.call(game, "setup", []).map(drop)
    }

    fn end_setup(&self, game: &mut Game, first: Seat) -> Result<(), RuleError> {
        if self.has_hook("end_setup", 2) {
            self.call(game, "end_setup", [player(first)]).map(drop)
        } else {
            self.start_turn(game, first)
        }
    }

    fn start_turn(&self, game: &mut Game, seat: Seat) -> Result<(), RuleError> {
        self.call(game, "start_turn", [player(seat)]).map(drop)
    }

    fn act(&self, game: &mut Game, action: &Action) -> Result<(), RuleError> {
        let found = self.table.action_index(&action.name);
        let Some((hook, compiled)) = found.and_then(|i| self.action_hooks.get(i)) else {
            return Err(RuleError::Refused(format!(
                "`{}` is not an action of {}",
                action.name, self.name
            )));
        };
        let args: rhai::Array = action.args.iter().map(api::arg_value).collect();
        let args = [player(action.seat), Dynamic::from_array(args)];
        let Some(observer) = self.observer() else {
            return self.call_found(game, hook, *compiled, args).map(drop);
        };
        observer.try_begins();
        let result = self.call_found(game, hook, *compiled, args).map(drop);
        observer.try_ends(matches!(result, Err(RuleError::Refused(_))));
        result
    }

    fn check_act(&self, game: &mut Game, action: &Action) -> Option<Result<(), RuleError>> {
        let quick = self
            .table
            .action_index(&action.name)
            .and_then(|i| self.checked_until_change.get(i).copied())
            .unwrap_or(false);
        // A probed variant counts every node an action runs: it runs them all.
        (quick && self.observer().is_none())
            .then(|| effects::until_change(|| self.act(game, action)))
    }

    fn timer(&self, game: &mut Game, timer: &Timer) -> Result<(), RuleError> {
        let who = timer.seat.map_or(Dynamic::UNIT, player);
        self.call(game, "on_timer", [Dynamic::from(timer.name.clone()), who])
            .map(drop)
    }

    fn score(&self, game: &mut Game, seat: Seat) -> Result<i64, RuleError> {
        if self.has_hook("score", 2) {
            let value = self.call(game, "score", [player(seat)])?;
            return value.clone().try_cast::<INT>().ok_or_else(|| {
                RuleError::fault(format!(
                    "`score` returned a {}, not an integer",
                    api::script_type_name(&value)
                ))
            });
        }
        game.state
            .hand(seat)
            .iter()
            .flatten()
            .try_fold(0i64, |sum, &c| {
                sum.checked_add(self.table.points_of(game.state.face(c)))
            })
            .ok_or_else(|| RuleError::fault("the hand's points add up past the largest integer"))
    }

    /// Without a `score` hook the points are only read.
    fn score_changes_nothing(&self) -> bool {
        !self.has_hook("score", 2)
    }
}
