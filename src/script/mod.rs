//! Variants as scripts: load `rules/<variant>/` (YAML config, Rhai scripts, rulebook), compile the
//! scripts once under one sandboxed engine, and run their hooks as the kernel's `Rules`.
//!
//! This is the only module that imports rhai.

pub(crate) mod api;
mod bot_natives;
pub mod bots;
pub mod compiled;
pub mod config;
pub mod differential;
pub mod error;
pub mod files;
pub(crate) mod items;
mod lint;
mod load;
pub mod mutants;
pub(crate) mod names;
pub(crate) mod natives;
pub mod probe;
pub mod rulebook;
pub mod tokens;

pub use load::{MAX_EXTENDS_DEPTH, variant_names};

use crate::kernel::{Action, Game, RuleError, Rules, Seat, SourcePos, Table, Timer};
use api::{GameHandle, Player, Refusal};
use config::HouseRuleDoc;
pub use error::{SourceDiagnostic, VariantError};
use rhai::{AST, CallFnOptions, Dynamic, Engine, EvalAltResult, INT, Scope};
use rulebook::Rulebook;
use std::collections::{HashMap, HashSet};
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

// Limits every rule script runs under.
/// The most Rhai operations one hook call may run.
pub(crate) const MAX_OPERATIONS: u64 = 500_000;
/// The deepest nesting of script function calls.
pub(crate) const MAX_CALL_LEVELS: usize = 48;
/// The most variables one function call may have in scope at once.
pub(crate) const MAX_VARIABLES: usize = 512;
/// The longest string a script may build, in bytes.
pub(crate) const MAX_STRING_BYTES: usize = 16 * 1024;
/// The most items in one script array.
pub(crate) const MAX_ARRAY_ITEMS: usize = 16 * 1024;
/// The most entries in one script object map.
pub(crate) const MAX_MAP_ENTRIES: usize = 1024;
/// The limits of compiled code: the interpreter's.
pub(crate) static COMPILED_LIMITS: compiled::Limits = compiled::Limits {
    max_operations: MAX_OPERATIONS,
    max_call_levels: MAX_CALL_LEVELS,
};
/// The native stack every thread that runs scripts gets (`std::thread::Builder::stack_size`).
/// The deepest script the limits above allow (48 nested calls, each from inside a 28-deep
/// expression) needs 2-4 MiB in a debug build; this leaves a wide margin. Only touched pages
/// cost memory.
pub const SCRIPT_STACK_BYTES: usize = 32 * 1024 * 1024;

/// Rhai's standard package as one module, built once and shared by every engine (it holds
/// functions only): the compiled engine finds its type iterators in it too.
pub(crate) fn standard_package() -> rhai::Shared<rhai::Module> {
    static PACKAGE: std::sync::OnceLock<rhai::Shared<rhai::Module>> = std::sync::OnceLock::new();
    PACKAGE
        .get_or_init(|| {
            rhai::packages::Package::as_shared_module(&rhai::packages::StandardPackage::new())
        })
        .clone()
}

/// The one constructor of the scripting engine: a raw engine with the standard packages, the
/// kernel API, no `eval`, no clock (the `no_time` feature), strict variables and hard limits.
/// `import` resolves inside the rules folder only.
pub(crate) fn sandboxed_engine(root: &files::RulesRoot) -> Engine {
    let mut engine = Engine::new_raw();
    engine.register_global_module(standard_package());
    engine
        // The operation limit is the progress callback's (`count_operation`), which also counts
        // what built-ins run for the script: Rhai's own limit would not.
        .set_max_operations(0)
        .set_max_call_levels(MAX_CALL_LEVELS)
        .set_max_expr_depths(64, 64)
        .set_max_string_size(MAX_STRING_BYTES)
        .set_max_array_size(MAX_ARRAY_ITEMS)
        .set_max_map_size(MAX_MAP_ENTRIES)
        .set_max_modules(32)
        .set_max_variables(MAX_VARIABLES)
        .set_strict_variables(true)
        .disable_symbol("eval");
    engine.set_module_resolver(load::ConfinedResolver::new(root.clone()));
    // Every operation is counted against the call's limit, and the time looked at every 64.
    engine.on_progress(|_| count_operation().map(Dynamic::from));
    // Scripts print only when a designer asks for it.
    if std::env::var_os("DECKSPEC_SCRIPT_PRINT").is_some() {
        // A script's `print` and `debug` are for its author; a closed stderr must not stop a game.
        engine.on_print(|s| {
            let _ = writeln!(std::io::stderr(), "[script] {s}");
        });
        engine.on_debug(|s, _, pos| {
            let _ = writeln!(std::io::stderr(), "[script {pos}] {s}");
        });
    } else {
        engine.on_print(|_| {});
        engine.on_debug(|_, _, _| {});
    }
    api::register(&mut engine);
    engine
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
    /// Functions inherited from a base script, by name: the file they are written in.
    fn_files: HashMap<String, String>,
    /// Calls of functions that exist nowhere, in the rule scripts and modules (`deckspec check`).
    pub unknown_calls: Vec<SourceDiagnostic>,
    /// Script sources by the name Rhai reports them under, for diagnostics.
    sources: HashMap<String, (PathBuf, String)>,
    /// By declared action (as `table.actions`), its hook's name (`snap` → `on_snap`) and its
    /// compiled function when it is compiled (found once, at load).
    action_hooks: Vec<(String, Option<compiled::FnId>)>,
    hooks: HashSet<(String, usize)>,
    entry: String,
    /// What counts the nodes its hooks run, when loaded for coverage.
    probe: Option<Arc<probe::Probe>>,
    /// Its functions compiled at load time.
    program: compiled::Program,
    /// Which engine runs its hooks.
    engine_kind: EngineKind,
}

/// Which engine runs rule scripts: Rhai's interpreter (the reference) or the load-time compiler
/// (each function it does not handle still runs on the interpreter).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum EngineKind {
    /// Rhai's tree-walking interpreter.
    Interpreted,
    /// Closures compiled at load time.
    #[default]
    Compiled,
}

impl EngineKind {
    /// Its name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            EngineKind::Interpreted => "interpreted",
            EngineKind::Compiled => "compiled",
        }
    }
}

impl std::str::FromStr for EngineKind {
    type Err = String;
    fn from_str(s: &str) -> Result<EngineKind, String> {
        match s {
            "interpreted" => Ok(EngineKind::Interpreted),
            "compiled" => Ok(EngineKind::Compiled),
            other => Err(format!(
                "there is no engine `{other}`: the engines are `compiled` and `interpreted`"
            )),
        }
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

    pub(crate) fn has_hook(&self, name: &str, arity: usize) -> bool {
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

/// What a caught panic said.
pub(crate) fn panic_text(panic: &(dyn std::any::Any + Send)) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic".into())
}

/// The wall-clock time one script call (a hook, a bot's decision, loading a module) may take:
/// built-in functions can do much work in one counted operation, so operations alone do not
/// bound time. Generous: a hook normally takes microseconds.
pub const MAX_CALL_TIME: std::time::Duration = std::time::Duration::from_secs(1);

/// How often the script clock moves (see `script_clock`).
const CLOCK_STEP: std::time::Duration = std::time::Duration::from_millis(10);

/// Milliseconds since the script clock started, as of its last step.
static CLOCK_MS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// The script clock: a thread, started with the first script call, that writes the time every
/// 10 ms, so that a running script looks at the time with one memory read (often: every 64
/// operations and after every built-in) instead of asking the system. `None` when no thread
/// could be started; then the system clock is read instead.
fn script_clock() -> Option<std::time::Instant> {
    static STARTED: std::sync::OnceLock<Option<std::time::Instant>> = std::sync::OnceLock::new();
    *STARTED.get_or_init(|| {
        let start = std::time::Instant::now();
        std::thread::Builder::new()
            .name("deckspec-script-clock".into())
            .spawn(move || {
                loop {
                    std::thread::sleep(CLOCK_STEP);
                    let ms = u64::try_from(start.elapsed().as_millis()).unwrap_or(u64::MAX);
                    CLOCK_MS.store(ms, std::sync::atomic::Ordering::Relaxed);
                }
            })
            .ok()
            .map(|_| start)
    })
}

/// The time limit of the script call running on a thread.
#[derive(Clone, Copy)]
enum Deadline {
    /// No call is running.
    None,
    /// The script clock's reading (ms) past which the call stops.
    Clock(u64),
    /// No script clock: the system clock's.
    At(std::time::Instant),
}

thread_local! {
    static DEADLINE: std::cell::Cell<Deadline> = const { std::cell::Cell::new(Deadline::None) };
    /// The operations the script call running on this thread has run, wherever they ran: its
    /// own, and those of every function a built-in called for it (`a.map(|x| …)`), which Rhai
    /// counts on a copy of the caller's state and so never adds to the caller's count.
    static CALL_OPERATIONS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
    /// The operations of every script call this thread has finished, added up.
    static OPERATIONS_SPENT: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// The operations of every script call this thread has finished, added up: the difference
/// between two readings is what the calls between them counted against their limits (both
/// engines count the same for a call that ends without an error).
pub fn operations_spent() -> u64 {
    OPERATIONS_SPENT.get()
}

/// What the progress callback returns to stop a script that ran out of time.
pub(crate) const OUT_OF_TIME: &str = "deckspec: out of time";

/// What stops a script call past `MAX_OPERATIONS`, on both engines.
pub(crate) const OUT_OF_OPERATIONS: &str = "deckspec: too many operations";

/// A call stopped by a limit, as both engines report it: the limit's error alone, with no
/// position and no function around it. Where the count passes the limit inside a statement
/// differs: the interpreter stops at the operation that passes it (perhaps in a function a
/// built-in called back, which Rhai wraps: `ErrorInFunctionCall("some", …)`), the compiled
/// engine before the statement whose count passes it. The limit is the platform's rule, and one
/// call past it is one error: the hook's, named by `script_error`.
pub(crate) fn stopped_by_limit(err: Box<EvalAltResult>) -> Box<EvalAltResult> {
    let mut inner = &*err;
    while let EvalAltResult::ErrorInFunctionCall(_, _, wrapped, _) = inner {
        inner = wrapped;
    }
    match inner {
        EvalAltResult::ErrorTerminated(token, _)
            if [OUT_OF_OPERATIONS, OUT_OF_TIME].contains(&token.to_string().as_str()) =>
        {
            EvalAltResult::ErrorTerminated(token.clone(), rhai::Position::NONE).into()
        }
        _ => err,
    }
}

/// Count one operation of the script call running on this thread (the interpreter's progress
/// callback): the token that stops the call when it is past the operation or the time limit.
fn count_operation() -> Option<&'static str> {
    if matches!(DEADLINE.get(), Deadline::None) {
        // Rhai evaluating outside any script call (nothing does today): no call to stop.
        return None;
    }
    let n = CALL_OPERATIONS.get() + 1;
    CALL_OPERATIONS.set(n);
    if n > MAX_OPERATIONS {
        return Some(OUT_OF_OPERATIONS);
    }
    (n & 0x3f == 0 && past_deadline()).then_some(OUT_OF_TIME)
}

/// The operations the running call has counted so far (see `CALL_OPERATIONS`).
pub(crate) fn call_operations() -> u64 {
    CALL_OPERATIONS.get()
}

/// Set the running call's count: compiled code keeps its own count, and hands it over before
/// Rhai runs functions for it, then takes it back.
pub(crate) fn set_call_operations(n: u64) {
    CALL_OPERATIONS.set(n);
}

/// Whether the script call running on this thread is past its time limit. Both engines ask
/// every 64 operations, and compiled code after every built-in Rhai runs for it.
#[inline]
pub(crate) fn past_deadline() -> bool {
    match DEADLINE.get() {
        Deadline::None => false,
        Deadline::Clock(limit) => CLOCK_MS.load(std::sync::atomic::Ordering::Relaxed) > limit,
        Deadline::At(deadline) => std::time::Instant::now() > deadline,
    }
}

/// The deadline of a call starting now.
fn deadline_from_now() -> Deadline {
    let limit = u64::try_from(MAX_CALL_TIME.as_millis()).unwrap_or(u64::MAX);
    match script_clock() {
        Some(_) => Deadline::Clock(CLOCK_MS.load(std::sync::atomic::Ordering::Relaxed) + limit),
        None => Deadline::At(std::time::Instant::now() + MAX_CALL_TIME),
    }
}

/// Run a script call under the time limit (on this thread).
pub(crate) fn with_deadline<T>(f: impl FnOnce() -> T) -> T {
    struct Restore(Deadline);
    impl Drop for Restore {
        fn drop(&mut self) {
            DEADLINE.set(self.0);
        }
    }
    struct RestoreCount(u64);
    impl Drop for RestoreCount {
        fn drop(&mut self) {
            OPERATIONS_SPENT.set(OPERATIONS_SPENT.get() + CALL_OPERATIONS.get());
            CALL_OPERATIONS.set(self.0);
        }
    }
    let _restore = Restore(DEADLINE.replace(deadline_from_now()));
    let _restore_count = RestoreCount(CALL_OPERATIONS.replace(0));
    api::with_face_texts(f)
}

/// Turn a script error into a refusal (from `refuse`) or a fault at the innermost script position
/// (`entry` is the script the call began in; `sources` maps Rhai's source names to files).
///
/// Rhai reports its limits (operations, call depth, sizes) without a position; those point at the
/// `fn` line of the function that was called (`called`) and name it.
pub(crate) fn script_error(
    err: EvalAltResult,
    entry: &str,
    sources: &HashMap<String, (PathBuf, String)>,
    fn_files: &HashMap<String, String>,
    called: &str,
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
    // A function inherited from a base script runs inside the merged script, whose source is
    // the entry's: its positions are in its own file.
    if source == entry
        && let Some(file) = trail.last().and_then(|f| fn_files.get(f))
    {
        source = file.clone();
    }
    if let EvalAltResult::ErrorRuntime(value, _) = e
        && let Some(refusal) = value.read_lock::<Refusal>()
    {
        return RuleError::Refused(refusal.0.clone());
    }
    if !e.position().is_none() {
        pos = e.position();
    }
    let limit = matches!(
        e,
        EvalAltResult::ErrorTooManyOperations(_)
            | EvalAltResult::ErrorStackOverflow(_)
            | EvalAltResult::ErrorDataTooLarge(..)
            | EvalAltResult::ErrorTerminated(..)
            | EvalAltResult::ErrorTooManyVariables(..)
    );
    if pos.is_none()
        && limit
        && let Some((_, src)) = sources.get(&source)
        && let Some(at) = src.find(&format!("fn {called}("))
    {
        let line = src[..at].matches('\n').count() + 1;
        let column = at - src[..at].rfind('\n').map_or(0, |n| n + 1) + 1;
        pos = rhai::Position::new(
            u16::try_from(line).unwrap_or(u16::MAX),
            u16::try_from(column).unwrap_or(u16::MAX),
        );
        trail.insert(0, called.to_string());
    }
    let message = match e {
        EvalAltResult::ErrorRuntime(value, _) => value.to_string(),
        EvalAltResult::ErrorTooManyOperations(_) => {
            format!("the script ran more than {MAX_OPERATIONS} operations (an endless loop?)")
        }
        EvalAltResult::ErrorTerminated(token, _) if token.to_string() == OUT_OF_OPERATIONS => {
            format!("the script ran more than {MAX_OPERATIONS} operations (an endless loop?)")
        }
        EvalAltResult::ErrorTooManyVariables(_) => format!(
            "a function has more than {MAX_VARIABLES} variables in scope at once (parameters, `let`s and loop variables)"
        ),
        EvalAltResult::ErrorFunctionNotFound(signature, _)
            if let Some(text) = api::explain_missing(signature) =>
        {
            text
        }
        EvalAltResult::ErrorStackOverflow(_) => format!(
            "functions call each other more than {MAX_CALL_LEVELS} levels deep (endless recursion?)"
        ),
        EvalAltResult::ErrorDataTooLarge(..) => format!(
            "a value grew past the size limits (arrays hold at most {MAX_ARRAY_ITEMS} items in all, strings {MAX_STRING_BYTES} bytes, maps {MAX_MAP_ENTRIES} entries)"
        ),
        EvalAltResult::ErrorTerminated(token, _) if token.to_string() == OUT_OF_TIME => format!(
            "the script ran longer than {} s in one call (an endless loop, or loops over large arrays?)",
            MAX_CALL_TIME.as_secs_f64()
        ),
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
        self.call_found(game, hook, *compiled, args).map(drop)
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
                    value.type_name()
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
