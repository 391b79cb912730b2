//! Both script engines on one script, outcome against outcome: the regression programs in
//! `tests/engines/programs/` and the generated programs of `generate` run here.
//!
//! A script is an entry script and, optionally, a module registered as `lib` (as a variant's
//! `modules:` are), loaded under the one sandboxed engine every rule script runs in, with the
//! same limits. Each zero-argument function is called on the interpreter (the reference) and on
//! the compiled engine; an outcome is the value or the whole Rhai error (positions and call
//! nesting included), so two outcomes are equal only when a designer could not tell them apart,
//! and a call that ends with a value must have counted the same operations on both.

pub mod faces;
pub mod generate;

use super::compiled::COMPILED_LIMITS;
use super::compiled::Program;
use super::host::files::RulesRoot;
use super::host::{EngineKind, panic_text, sandboxed_engine, with_deadline};
use rhai::{AST, CallFnOptions, Dynamic, Engine, EvalAltResult, Module, Scope};

/// The name a script's module is registered under (`lib::f()`).
pub const MODULE_NAME: &str = "lib";

/// A script loaded for both engines.
pub struct Differential {
    engine: Engine,
    ast: AST,
    program: Program,
}

/// Why a script does not load.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoadError(pub String);

impl std::fmt::Display for LoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for LoadError {}

/// What one call gave on one engine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// The value, in Rhai's debug form (`ok [1, "a"]`), or the error's debug form with its
    /// positions (`error ErrorArithmetic(…)`).
    Finished(String),
    /// The call panicked (a defect whatever the other engine did), with the panic's text.
    Panicked(String),
    /// The compiled engine left the function to the interpreter (`deckspec check` lists why).
    NotCompiled,
}

impl std::fmt::Display for Outcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Outcome::Finished(text) => f.write_str(text),
            Outcome::Panicked(text) => write!(f, "panic: {text}"),
            Outcome::NotCompiled => f.write_str("not compiled"),
        }
    }
}

impl Differential {
    /// Load `entry` (and `module`, registered as `lib`) as a variant's scripts are loaded.
    pub fn new(entry: &str, module: Option<&str>) -> Result<Differential, LoadError> {
        // Scripts here import nothing from files: the root is only for the resolver's confinement.
        let root = RulesRoot::new(std::env::temp_dir().as_path())
            .ok_or_else(|| LoadError("no rules root in the temporary folder".into()))?;
        let mut engine = sandboxed_engine(&root);
        let mut modules = Vec::new();
        if let Some(text) = module {
            let mut ast = engine
                .compile(text)
                .map_err(|e| LoadError(format!("module: {e}")))?;
            refuse_folded_constants(&ast, "module")?;
            ast.set_source(MODULE_NAME);
            let module = with_deadline(|| Module::eval_ast_as_new(Scope::new(), &ast, &engine))
                .map_err(|e| LoadError(format!("module: {e}")))?;
            engine.register_static_module(MODULE_NAME, module.into());
            modules.push((MODULE_NAME.to_string(), ast));
        }
        let mut ast = engine
            .compile(entry)
            .map_err(|e| LoadError(format!("script: {e}")))?;
        refuse_folded_constants(&ast, "script")?;
        ast.set_source("script");
        let named: Vec<(String, &AST)> = modules.iter().map(|(n, a)| (n.clone(), a)).collect();
        let program = Program::compile(&engine, super::host::natives::RULES, None, &ast, &named);
        Ok(Differential {
            engine,
            ast,
            program,
        })
    }

    /// The entry script's functions that take no arguments, by name.
    pub fn functions(&self) -> Vec<String> {
        let mut names: Vec<String> = self
            .ast
            .iter_functions()
            .filter(|f| f.params.is_empty())
            .map(|f| f.name.to_string())
            .collect();
        names.sort();
        names
    }

    /// Why functions were left to the interpreter, one line each.
    pub fn fallbacks(&self) -> Vec<String> {
        self.program
            .fallbacks
            .iter()
            .map(|f| format!("{}: {}", f.function, f.reason))
            .collect()
    }

    /// Call `name` (no arguments) on `engine`, under the limits every hook call runs under.
    /// Run it on a thread with `SCRIPT_STACK_BYTES` of stack (`sim::on_script_thread`).
    pub fn run(&self, name: &str, engine: EngineKind) -> Outcome {
        self.run_counted(name, engine).0
    }

    /// `run`, and the operations the call counted against its limit (its own and those of the
    /// functions built-ins called for it): the same on both engines for a call that ends with a
    /// value (a failing one stops counting where each engine stops).
    pub fn run_counted(&self, name: &str, engine: EngineKind) -> (Outcome, u64) {
        let call = || match engine {
            EngineKind::Interpreted => {
                let options = CallFnOptions::new().eval_ast(false).rewind_scope(true);
                Some(with_deadline(|| {
                    let result = self.engine.call_fn_with_options::<Dynamic>(
                        options,
                        &mut Scope::new(),
                        &self.ast,
                        name,
                        (),
                    );
                    (result, super::host::call_operations())
                }))
            }
            EngineKind::Compiled => {
                let id = self.program.compiled(name, 0)?;
                Some(with_deadline(|| {
                    let result = self.program.call_compiled(
                        &self.engine,
                        &COMPILED_LIMITS,
                        id,
                        name,
                        Vec::<Dynamic>::new(),
                    );
                    (result, super::host::call_operations())
                }))
            }
        };
        match std::panic::catch_unwind(std::panic::AssertUnwindSafe(call)) {
            Ok(Some((result, operations))) => {
                // A limit's error as the platform reports it on both engines.
                let result = result.map_err(super::host::stopped_by_limit);
                (Outcome::Finished(shown(result)), operations)
            }
            Ok(None) => (Outcome::NotCompiled, 0),
            Err(panic) => (Outcome::Panicked(panic_text(panic.as_ref())), 0),
        }
    }

    /// Both engines' outcomes of `name`: `None` when they agree and neither panicked. A
    /// function the compiler leaves to the interpreter agrees by construction (the interpreter
    /// runs it on both).
    pub fn difference(&self, name: &str) -> Option<(Outcome, Outcome)> {
        let reference = self.run(name, EngineKind::Interpreted);
        let compiled = self.run(name, EngineKind::Compiled);
        differ(&reference, &compiled).then_some((reference, compiled))
    }
}

/// The load-time refusal a variant's script gets for changing a folded constant.
fn refuse_folded_constants(ast: &AST, what: &str) -> Result<(), LoadError> {
    match super::sources::lint::folded_constant_assignment(ast) {
        Some(pos) => Err(LoadError(format!(
            "{what}: {} ({pos})",
            super::sources::lint::CONSTANT_CHANGED
        ))),
        None => Ok(()),
    }
}

/// Whether two outcomes differ: a panic on either side always does; a function left to the
/// interpreter never does.
fn differ(interpreted: &Outcome, compiled: &Outcome) -> bool {
    let panicked =
        matches!(interpreted, Outcome::Panicked(_)) || matches!(compiled, Outcome::Panicked(_));
    panicked || (*compiled != Outcome::NotCompiled && interpreted != compiled)
}

/// A result as text: the value's debug form, or the error's (with its positions).
fn shown(result: Result<Dynamic, Box<EvalAltResult>>) -> String {
    match result {
        Ok(v) => format!("ok {v:?}"),
        Err(e) => format!("error {e:?}"),
    }
}

/// A difference the run found: the seed and function that replay it, and both outcomes.
#[derive(Debug, Clone)]
pub struct Difference {
    /// The program's seed (`generate::program(seed, cases)`).
    pub seed: u64,
    /// The function whose outcomes differ.
    pub function: String,
    /// The interpreter's outcome.
    pub interpreted: Outcome,
    /// The compiled engine's.
    pub compiled: Outcome,
}

impl std::fmt::Display for Difference {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "seed {} {}:\n  interpreted {}\n  compiled    {}",
            self.seed, self.function, self.interpreted, self.compiled
        )
    }
}

/// What a run of generated programs found.
#[derive(Debug, Clone, Default)]
pub struct Report {
    /// The first seed; the programs are `first_seed`, `first_seed + 1`, ….
    pub first_seed: u64,
    /// Programs generated.
    pub programs: u64,
    /// Functions called on both engines.
    pub functions: u64,
    /// Functions the compiler left to the interpreter (they agree by construction).
    pub not_compiled: u64,
    /// Programs Rhai refused to compile (a generated script can be ill-formed on purpose).
    pub not_loaded: u64,
    /// Functions whose outcome was an error, on both engines.
    pub errors: u64,
    /// Functions whose outcomes differ.
    pub different: u64,
    /// The first of them, as many as the run was asked to keep.
    pub differences: Vec<Difference>,
    /// How long the run took.
    pub elapsed: std::time::Duration,
    /// The seed of a program that ran past `STUCK_AFTER`, which ended the run.
    pub stuck: Option<u64>,
}

impl std::fmt::Display for Report {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if let Some(seed) = self.stuck {
            return write!(
                f,
                "the program of seed {seed} ran for more than {} s: a script no limit stops \
                 (`--show {seed}` prints it)",
                STUCK_AFTER.as_secs()
            );
        }
        write!(
            f,
            "{} programs from seed {}: {} functions on both engines ({} errors, {} left to the \
             interpreter), {} programs not loaded, {} differences, {:.1} s",
            self.programs,
            self.first_seed,
            self.functions,
            self.errors,
            self.not_compiled,
            self.not_loaded,
            self.different,
            self.elapsed.as_secs_f64()
        )
    }
}

/// How long one program may run before the run gives up on it: every limit stops a script
/// within a few seconds on both engines, so a program still running is one that escaped them
/// (a built-in that never returns cannot be stopped from inside).
pub const STUCK_AFTER: std::time::Duration = std::time::Duration::from_secs(20);

/// Generate and compare programs from `first_seed` on, `cases` functions each, while
/// `go_on(programs done, time spent)` says so, keeping the first `keep` differences. The
/// programs run on a thread of their own (with `SCRIPT_STACK_BYTES` of stack); a program that
/// runs past `STUCK_AFTER` ends the run with `stuck` set to its seed (its thread is left running:
/// end the process).
pub fn run_many(
    first_seed: u64,
    cases: usize,
    keep: usize,
    mut go_on: impl FnMut(u64, std::time::Duration) -> bool + Send + 'static,
) -> Report {
    use std::sync::atomic::{AtomicU64, Ordering};
    let done = std::sync::Arc::new(AtomicU64::new(0));
    let (send, receive) = std::sync::mpsc::channel();
    let counted = done.clone();
    let worker = std::thread::Builder::new()
        .name("deckspec-differential".into())
        .stack_size(super::host::SCRIPT_STACK_BYTES)
        .spawn(move || {
            let report = compare_programs(first_seed, cases, keep, &mut |n, elapsed| {
                counted.store(n, Ordering::Relaxed);
                go_on(n, elapsed)
            });
            let _ = send.send(report);
        });
    if worker.is_err() {
        return Report {
            first_seed,
            stuck: Some(first_seed),
            ..Report::default()
        };
    }
    let mut last = (u64::MAX, std::time::Instant::now());
    loop {
        match receive.recv_timeout(std::time::Duration::from_millis(500)) {
            Ok(report) => return report,
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
                // The worker panicked: a defect of the run itself, reported as stuck.
                return Report {
                    first_seed,
                    stuck: Some(first_seed.wrapping_add(done.load(Ordering::Relaxed))),
                    ..Report::default()
                };
            }
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                let n = done.load(Ordering::Relaxed);
                if n != last.0 {
                    last = (n, std::time::Instant::now());
                } else if last.1.elapsed() > STUCK_AFTER {
                    return Report {
                        first_seed,
                        programs: n,
                        stuck: Some(first_seed.wrapping_add(n.saturating_sub(1))),
                        ..Report::default()
                    };
                }
            }
        }
    }
}

/// `run_many`'s loop, on the calling thread.
fn compare_programs(
    first_seed: u64,
    cases: usize,
    keep: usize,
    go_on: &mut dyn FnMut(u64, std::time::Duration) -> bool,
) -> Report {
    let start = std::time::Instant::now();
    let mut report = Report {
        first_seed,
        ..Report::default()
    };
    while go_on(report.programs, start.elapsed()) {
        let seed = first_seed.wrapping_add(report.programs);
        report.programs += 1;
        let program = generate::program(seed, cases);
        let Ok(loaded) = Differential::new(&program.entry, Some(&program.module)) else {
            report.not_loaded += 1;
            continue;
        };
        for name in &program.cases {
            report.functions += 1;
            let (interpreted, interpreted_ops) = loaded.run_counted(name, EngineKind::Interpreted);
            let (compiled, compiled_ops) = loaded.run_counted(name, EngineKind::Compiled);
            // A call that ends with a value has counted the same operations on both engines.
            // (One that fails has counted its failing statement whole on the compiled engine,
            // which charges a statement before it runs it.)
            let ended = matches!(&interpreted, Outcome::Finished(t) if t.starts_with("ok"));
            let (interpreted, compiled) =
                if compiled != Outcome::NotCompiled && interpreted_ops != compiled_ops && ended {
                    (
                        Outcome::Finished(format!("{interpreted} [{interpreted_ops} operations]")),
                        Outcome::Finished(format!("{compiled} [{compiled_ops} operations]")),
                    )
                } else {
                    (interpreted, compiled)
                };
            if compiled == Outcome::NotCompiled {
                report.not_compiled += 1;
            }
            if matches!(&interpreted, Outcome::Finished(t) if t.starts_with("error")) {
                report.errors += 1;
            }
            if !differ(&interpreted, &compiled) {
                continue;
            }
            report.different += 1;
            if report.differences.len() < keep {
                report.differences.push(Difference {
                    seed,
                    function: name.clone(),
                    interpreted,
                    compiled,
                });
            }
        }
    }
    report.elapsed = start.elapsed();
    report
}
