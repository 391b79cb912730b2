//! The Rhai host: the one sandboxed engine constructor, the limits every script call runs under
//! (operations, depth, variables, sizes, time) and how a script error becomes a refusal or a
//! fault. Everything here is the platform's rule for both engines; nothing here knows a variant,
//! the compiler or bots.

pub(crate) mod api;
pub(crate) mod bot_natives;
pub(crate) mod effects;
pub mod error;
pub mod files;
pub(crate) mod items;
pub(crate) mod names;
pub(crate) mod natives;
pub mod reference;
pub(crate) mod resolver;
pub mod tokens;
pub(crate) mod view;

use crate::kernel::{RuleError, SourcePos};
use api::Refusal;
use rhai::{Dynamic, Engine, EvalAltResult};
use std::collections::HashMap;
use std::io::Write as _;
use std::path::{Path, PathBuf};

// Limits every rule script runs under.
/// The most Rhai operations one hook call may run.
pub(crate) const MAX_OPERATIONS: u64 = 500_000;
/// The deepest nesting of script function calls.
pub(crate) const MAX_CALL_LEVELS: usize = 48;
/// The most variables one function call may have in scope at once.
const MAX_VARIABLES: usize = 512;
/// The longest string a script may build, in bytes.
pub(crate) const MAX_STRING_BYTES: usize = 16 * 1024;
/// The most items in one script array.
const MAX_ARRAY_ITEMS: usize = 16 * 1024;
/// The most entries in one script object map.
const MAX_MAP_ENTRIES: usize = 1024;
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
    engine.set_module_resolver(resolver::ConfinedResolver::new(root.clone()));
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

/// The deadline of a call starting now, on the script clock's scale but from the real time: the
/// clock's own reading may be stale (its thread not run for a while on a loaded machine, or
/// under valgrind, which runs one thread at a time), and a stale start would stop the call
/// early. A stale clock while the call runs only stops it later.
fn deadline_from_now() -> Deadline {
    let limit = u64::try_from(MAX_CALL_TIME.as_millis()).unwrap_or(u64::MAX);
    match script_clock() {
        Some(start) => Deadline::Clock(
            u64::try_from(start.elapsed().as_millis())
                .unwrap_or(u64::MAX)
                .saturating_add(limit),
        ),
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
fn normalize(path: &Path) -> PathBuf {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A call's deadline is a full `MAX_CALL_TIME` of real time from its start, even when the
    /// script clock is stale (its thread not run for a while): under valgrind on a loaded
    /// machine a stale clock once stopped hooks that take microseconds.
    #[test]
    fn a_stale_script_clock_does_not_shorten_a_call() {
        let Some(start) = script_clock() else {
            return; // no clock thread: the deadline is the system clock's, never stale
        };
        std::thread::sleep(std::time::Duration::from_millis(50));
        // The clock as a starved thread would leave it, read at the call's start.
        CLOCK_MS.store(0, std::sync::atomic::Ordering::Relaxed);
        let Deadline::Clock(limit) = deadline_from_now() else {
            panic!("a clock deadline");
        };
        let real = u64::try_from(start.elapsed().as_millis()).expect("a small number");
        let full = u64::try_from(MAX_CALL_TIME.as_millis()).expect("a small number");
        assert!(
            limit + 5 >= real + full,
            "limit {limit} ms, real time {real} ms"
        );
    }
}
