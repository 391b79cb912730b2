//! The load-time compiler: each rule script function becomes a tree of Rust closures with its
//! local variables in numbered slots and its calls bound once per call site (script functions by
//! index, kernel API functions to their entry in `natives`), run without Rhai's per-call scope
//! and caches. Rhai stays the reference: a function the compiler does not handle (and every
//! function that calls one) is left to the interpreter, and `fallbacks` says which and why.
//!
//! Errors are built as Rhai builds them (the same `EvalAltResult`, the same positions, the same
//! `ErrorInFunctionCall` nesting), so `script_error` turns both engines' errors into the same
//! refusal or fault.

mod build;
mod calls;
mod chain;
mod cost;
mod events;
mod indexing;
mod inline;
mod loops;
mod ops;
mod params;
mod phase;
mod receivers;
#[cfg(test)]
mod tests;

pub(crate) use super::host::items::{discard, replace};
use super::host::natives::Tables;
use crate::kernel::Table;
use rhai::{AST, Dynamic, Engine, EvalAltResult, GlobalRuntimeState, ImmutableString, Position};
use std::sync::Arc;

/// Maps looked up on every hook call: ahash, not std's SipHash (no untrusted keys: the names
/// are the scripts' own).
type FastMap<K, V> = std::collections::HashMap<K, V, ahash::RandomState>;

pub(crate) type R<T> = Result<T, Box<EvalAltResult>>;
/// A compiled expression.
type Eval = Box<dyn Fn(&mut Frame<'_>) -> R<Dynamic> + Send + Sync>;
/// A compiled statement.
type Exec = Box<dyn Fn(&mut Frame<'_>) -> R<Flow> + Send + Sync>;

/// How a statement ends: with its value, or by leaving its block.
enum Flow {
    Value(Dynamic),
    Return(Dynamic),
    Break(Dynamic),
    Continue,
}

/// A compiled function.
struct CompiledFn {
    name: ImmutableString,
    /// The source name Rhai reports its errors under (its script's, or its module's).
    source: ImmutableString,
    /// Parameters first, then every `let` and loop variable.
    slots: usize,
    /// What it does with its parameters (which a caller may lend it).
    uses: params::ParamUse,
    /// What its call counts before its body runs: the call, and its first statement (whose
    /// cost a block's first statement leaves to whoever runs the block, `build.rs`).
    entry_cost: u64,
    body: Exec,
}

/// A function left to the interpreter, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fallback {
    /// `name/arity`, with its module (`recall::peek/3`) when it is a module's.
    pub function: String,
    /// What the compiler does not handle, and where.
    pub reason: String,
}

/// A function's index in `Program::fns`.
pub(crate) type FnId = usize;

/// A variant's compiled functions.
pub(crate) struct Program {
    /// `None` for a function left to the interpreter.
    fns: Vec<Option<CompiledFn>>,
    /// The entry script's functions by name, each with its arity (looked up without a copy of
    /// the name on every hook call).
    script: FastMap<String, Vec<(usize, FnId)>>,
    /// The functions left to the interpreter, sorted.
    pub(crate) fallbacks: Vec<Fallback>,
    /// Which functions are compiled into their callers at one call site or more, by id.
    inlined: Vec<bool>,
    /// Rhai's own indexing, for values other than arrays and maps.
    indexing: indexing::Indexing,
    /// The scripts' function libraries (the entry script's, then each module's): where Rhai's
    /// own calls find the functions of closures (`a.map(|x| x + 1)`).
    libs: Vec<rhai::Shared<rhai::Module>>,
    /// Which functions take their receiver by reference (made when a chain first asks).
    receivers: std::sync::OnceLock<receivers::Receivers>,
}

/// The limits compiled code runs under (the interpreter's, from `sandboxed_engine`).
pub(crate) struct Limits {
    pub(crate) max_operations: u64,
    pub(crate) max_call_levels: usize,
}

/// The limits of compiled code: the interpreter's.
pub(crate) static COMPILED_LIMITS: Limits = Limits {
    max_operations: super::host::MAX_OPERATIONS,
    max_call_levels: super::host::MAX_CALL_LEVELS,
};

/// The state of one call into compiled code: the value stack and what the slow path needs.
struct Frame<'a> {
    stack: Vec<Dynamic>,
    base: usize,
    program: &'a Program,
    engine: &'a Engine,
    limits: &'a Limits,
    level: usize,
    operations: u64,
    /// The count at which `charge` next looks at the limit and the time.
    next_check: u64,
    /// Rhai's state for calls of functions the compiler does not bind (made on first use).
    global: Option<Box<GlobalRuntimeState>>,
    /// The compiled function running now: Rhai's calls report errors under its source.
    running: Option<&'a CompiledFn>,
    /// While a chain walks on below a value read through a getter (or a missing map entry):
    /// whether its last link may have changed the value it reached, as Rhai judges it (an
    /// assignment, or a method taking its receiver by reference); then Rhai writes the value
    /// back (`chain/walk.rs`). `None` when no walk is watching.
    chain_changed: Option<bool>,
}

impl<'a> Frame<'a> {
    /// A local variable of the running function.
    #[inline]
    fn slot(&mut self, slot: usize) -> &mut Dynamic {
        let at = self.base + slot;
        &mut self.stack[at]
    }

    /// A local variable of the running function, to read.
    #[inline]
    fn slot_ref(&self, slot: usize) -> &Dynamic {
        &self.stack[self.base + slot]
    }

    /// Count `n` operations (a statement's, `cost.rs`) against the limit, and look at the time
    /// each time the count passes a multiple of 64 (one comparison with `next_check`).
    #[inline(always)]
    fn charge(&mut self, n: u64, pos: Position) -> R<()> {
        self.operations += n;
        if self.operations >= self.next_check {
            return self.check(pos);
        }
        Ok(())
    }

    /// The limit and the time, looked at; the next count to look at them again.
    #[cold]
    fn check(&mut self, pos: Position) -> R<()> {
        let max = self.limits.max_operations;
        if self.operations > max {
            return Err(
                EvalAltResult::ErrorTerminated(super::host::OUT_OF_OPERATIONS.into(), pos).into(),
            );
        }
        self.next_check = ((self.operations | 0x3f) + 1).min(max + 1);
        if super::host::past_deadline() {
            return Err(
                EvalAltResult::ErrorTerminated(super::host::OUT_OF_TIME.into(), pos).into(),
            );
        }
        Ok(())
    }

    /// Count `n` operations that cannot pass the limit alone (a value-dependent count inside a
    /// statement): the next `charge` looks at the limit.
    #[inline(always)]
    fn add_operations(&mut self, n: u64) {
        self.operations += n;
    }

    /// Rhai's call state for the calls the compiler does not bind, with the scripts' function
    /// libraries (made on first use).
    fn global(&mut self) -> &mut GlobalRuntimeState {
        let engine = self.engine;
        let libs = &self.program.libs;
        let source = self
            .running
            .map(|f| f.source.clone())
            .filter(|s| !s.is_empty());
        let global = self.global.get_or_insert_with(|| {
            let mut global = Box::new(engine.new_global_runtime_state());
            global.lib.extend(libs.iter().cloned());
            global
        });
        global.source = source;
        global
    }

    /// Rhai's own call of a native function (the standard library, or an API function whose
    /// arguments no table entry admits): exact Rhai semantics and errors, at Rhai's cost.
    #[cold]
    fn call_rhai(&mut self, name: &str, args: &mut [&mut Dynamic], pos: Position) -> R<Dynamic> {
        let engine = self.engine;
        self.hand_over_operations();
        let context =
            rhai::NativeCallContext::new_with_all_fields(engine, name, None, self.global(), pos);
        let result = context
            // The first argument may be the caller's variable (`a.push(x)`): never consumed.
            .call_native_fn_raw(name, true, args)
            .map_err(|e| fill_position(e, pos));
        self.take_back_operations(result, pos)
    }

    /// Before Rhai runs a built-in, which may call script functions (`a.map(|x| x + 1)`): the
    /// call's count goes to the progress callback, which counts those functions' operations.
    fn hand_over_operations(&self) {
        super::host::set_call_operations(self.operations);
    }

    /// After the built-in: the count with its functions' operations, and the time looked at
    /// (one built-in can take long over a large value, so a short loop of slow built-ins is
    /// timed too).
    fn take_back_operations(&mut self, result: R<Dynamic>, pos: Position) -> R<Dynamic> {
        // Rhai counted the call of the native function itself, which the calling statement
        // already counted (`cost.rs`): the rest are the operations of what it called back.
        let counted = super::host::call_operations().saturating_sub(1);
        self.operations = self.operations.max(counted);
        if result.is_ok() && super::host::past_deadline() {
            return Err(
                EvalAltResult::ErrorTerminated(super::host::OUT_OF_TIME.into(), pos).into(),
            );
        }
        result
    }

    /// `map.name(args)` where the map's `name` holds a function pointer: Rhai calls the function
    /// with the map as `this` (an object map's method).
    #[cold]
    fn call_object_method(
        &mut self,
        fn_ptr: &rhai::FnPtr,
        name: &str,
        this: &mut Dynamic,
        args: Vec<Dynamic>,
        pos: Position,
    ) -> R<Dynamic> {
        let engine = self.engine;
        self.hand_over_operations();
        let context =
            rhai::NativeCallContext::new_with_all_fields(engine, name, None, self.global(), pos);
        let result = fn_ptr
            .call_raw(&context, Some(this), args)
            .map_err(|e| fill_position(e, pos));
        self.take_back_operations(result, pos)
    }

    /// Call a compiled function with its arguments (already on the stack above `args_at`).
    fn call_compiled(&mut self, id: FnId, args_at: usize, pos: Position) -> R<Dynamic> {
        self.call_compiled_lending(id, args_at, pos, &[], 0)
    }

    /// A call's result as its caller sees it: a `return` is its value, and an error is wrapped
    /// in the call's, as Rhai wraps it.
    fn returned(&self, f: &CompiledFn, result: R<Dynamic>, pos: Position) -> R<Dynamic> {
        match result {
            Ok(value) => Ok(value),
            Err(mut err) => Err(match *err {
                EvalAltResult::Return(value, _) => return Ok(value),
                ref e if e.is_system_exception() => {
                    err.set_position(pos);
                    err
                }
                _ => EvalAltResult::ErrorInFunctionCall(
                    f.name.to_string(),
                    f.source.to_string(),
                    err,
                    pos,
                )
                .into(),
            }),
        }
    }

    /// `call_compiled` with some arguments lent by the caller (bit i of `lent_now`: argument i
    /// was moved out of the caller's slot `lent[i]`): each goes back to its slot after the call,
    /// whatever the call gives.
    fn call_compiled_lending(
        &mut self,
        id: FnId,
        args_at: usize,
        pos: Position,
        lent: &[Option<usize>],
        lent_now: u64,
    ) -> R<Dynamic> {
        let program = self.program;
        let Some(f) = program.fns[id].as_ref() else {
            unreachable!("calls of interpreted functions are not compiled")
        };
        let result = self.enter(f, args_at, pos);
        // The lent arguments only: one bit each.
        let mut out = lent_now;
        while out != 0 {
            let i = out.trailing_zeros() as usize;
            out &= out - 1;
            if let Some(Some(slot)) = lent.get(i) {
                let value = std::mem::take(&mut self.stack[args_at + i]);
                put_back(self.slot(*slot), value);
            }
        }
        discard_above(&mut self.stack, args_at);
        self.returned(f, result, pos)
    }

    fn enter(&mut self, f: &'a CompiledFn, args_at: usize, pos: Position) -> R<Dynamic> {
        self.charge(f.entry_cost, pos)?;
        // As Rhai: the called function runs one level deeper than its caller, and the hook
        // itself at level 0, so a call fails when its caller is past the limit.
        if self.level > self.limits.max_call_levels {
            return Err(EvalAltResult::ErrorStackOverflow(pos).into());
        }
        // `resize_with`: `resize` would drop its unused `()` through the drop glue.
        self.stack.resize_with(args_at + f.slots, || Dynamic::UNIT);
        let base = std::mem::replace(&mut self.base, args_at);
        let outer = self.running.replace(f);
        self.level += 1;
        let flow = (f.body)(self);
        self.level -= 1;
        self.running = outer;
        self.base = base;
        match flow? {
            Flow::Value(v) | Flow::Return(v) | Flow::Break(v) => Ok(v),
            Flow::Continue => Ok(Dynamic::UNIT),
        }
    }
}

/// Put `value` where a value was lent out of, which holds `()` again: a `()` needs no drop, and
/// `Dynamic`'s drop glue is a call on the hottest paths.
#[inline(always)]
fn put_back(place: &mut Dynamic, value: Dynamic) {
    if place.is_unit() {
        std::mem::forget(std::mem::replace(place, value));
    } else {
        *place = value;
    }
}

/// `stack.truncate(len)`, each value dropped by `discard` (popped: a call leaves a few values,
/// and a `Drain` costs more to make and drop than they do).
#[inline]
fn discard_above(stack: &mut Vec<Dynamic>, len: usize) {
    while stack.len() > len
        && let Some(value) = stack.pop()
    {
        discard(value);
    }
}

thread_local! {
    /// A value stack no call is using, kept for the next call on this thread.
    static SPARE_STACK: std::cell::RefCell<Vec<Dynamic>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// The largest value stack kept for the next call (in values): a deep recursion's stack is not
/// kept.
const MAX_SPARE_STACK: usize = 4096;

/// Give an error without a position the call's position, as Rhai does for native calls.
fn fill_position(mut err: Box<EvalAltResult>, pos: Position) -> Box<EvalAltResult> {
    if err.position().is_none() {
        err.set_position(pos);
    }
    err
}

impl Program {
    /// Compile the entry script's functions (`ast`) and each module's (`modules`: its name and
    /// compiled script), on the engine the interpreter runs them on. Names written as literals
    /// are resolved in `table`, the variant's, when given.
    pub(crate) fn compile(
        engine: &Engine,
        natives: Tables,
        table: Option<&Arc<Table>>,
        ast: &AST,
        modules: &[(String, &AST)],
    ) -> Program {
        build::compile(engine, natives, table, ast, modules)
    }

    /// How many functions it compiled, of how many.
    pub(crate) fn counts(&self) -> (usize, usize) {
        (self.fns.iter().flatten().count(), self.fns.len())
    }

    /// How many functions are compiled into their callers (`inline.rs`) at one call site or
    /// more.
    pub(crate) fn inlined(&self) -> usize {
        self.inlined.iter().filter(|&&b| b).count()
    }

    /// Whether the entry script's function `name` with `arity` parameters is compiled into its
    /// callers.
    #[cfg(test)]
    fn is_inlined(&self, name: &str, arity: usize) -> bool {
        self.find(name, arity).is_some_and(|id| self.inlined[id])
    }

    /// Whether the entry script's function `name` with `arity` parameters is compiled.
    #[cfg(test)]
    pub(crate) fn has(&self, name: &str, arity: usize) -> bool {
        self.compiled(name, arity).is_some()
    }

    /// The entry script's function `name` with `arity` parameters, when it is compiled.
    pub(crate) fn compiled(&self, name: &str, arity: usize) -> Option<FnId> {
        self.find(name, arity).filter(|&id| self.fns[id].is_some())
    }

    fn find(&self, name: &str, arity: usize) -> Option<FnId> {
        let overloads = self.script.get(name)?;
        overloads
            .iter()
            .find(|&&(n, _)| n == arity)
            .map(|&(_, id)| id)
    }

    /// Call the entry script's function `name`, or `None` when it is not compiled (the caller
    /// runs it on the interpreter). Errors come out as `Engine::call_fn` gives them.
    #[cfg(test)]
    pub(crate) fn call(
        &self,
        engine: &Engine,
        limits: &Limits,
        name: &str,
        args: Vec<Dynamic>,
    ) -> Option<R<Dynamic>> {
        let id = self.compiled(name, args.len())?;
        Some(self.call_compiled(engine, limits, id, name, args))
    }

    /// Call compiled function `id` (the entry script's `name`, from `compiled`).
    pub(crate) fn call_compiled(
        &self,
        engine: &Engine,
        limits: &Limits,
        id: FnId,
        name: &str,
        args: impl IntoIterator<Item = Dynamic>,
    ) -> R<Dynamic> {
        self.run(engine, limits, id, name, args, None).0
    }

    /// `call_compiled` of a hook, whose first argument is the game's handle: when the function
    /// keeps that parameter as given (no method changes a handle), the argument comes back
    /// beside the result, for the next call to use again.
    pub(crate) fn call_hook(
        &self,
        engine: &Engine,
        limits: &Limits,
        id: FnId,
        name: &str,
        args: impl IntoIterator<Item = Dynamic>,
    ) -> (R<Dynamic>, Option<Dynamic>) {
        let keeps = self.fns[id]
            .as_ref()
            .is_some_and(|f| f.uses.lends(0, || params::Methods::ChangeNothing));
        if keeps {
            let (result, back) = self.run(engine, limits, id, name, args, Some(0));
            (result, Some(back))
        } else {
            (self.run(engine, limits, id, name, args, None).0, None)
        }
    }

    /// Whether function `id` leaves its parameter `i` as given, whatever the value (never
    /// assigned, no method called on it): a caller may lend it that argument.
    pub(crate) fn lends(&self, id: FnId, i: usize) -> bool {
        self.fns[id]
            .as_ref()
            .is_some_and(|f| f.uses.lends(i, || params::Methods::Any))
    }

    /// `call_compiled` with argument `lent` lent (see `lends`): it comes back as it was given,
    /// beside the result, whatever the call gives.
    pub(crate) fn call_compiled_lending(
        &self,
        engine: &Engine,
        limits: &Limits,
        id: FnId,
        name: &str,
        args: Vec<Dynamic>,
        lent: usize,
    ) -> (R<Dynamic>, Dynamic) {
        if lent >= args.len() || !self.lends(id, lent) {
            // Not a parameter it keeps: a copy goes back instead.
            let back = args.get(lent).cloned().unwrap_or(Dynamic::UNIT);
            return (self.call_compiled(engine, limits, id, name, args), back);
        }
        self.run(engine, limits, id, name, args, Some(lent))
    }

    /// The call, with argument `lent` (when given) lent from a slot below the arguments, as a
    /// compiled caller lends a local: it is moved back there after the call, and given back.
    fn run(
        &self,
        engine: &Engine,
        limits: &Limits,
        id: FnId,
        name: &str,
        args: impl IntoIterator<Item = Dynamic>,
        lent: Option<usize>,
    ) -> (R<Dynamic>, Dynamic) {
        // The value stack: the thread's spare, so that a call allocates nothing.
        let mut stack = SPARE_STACK.with_borrow_mut(std::mem::take);
        // Slot 0 of the outermost frame holds the lent argument after the call.
        let args_at = usize::from(lent.is_some());
        if lent.is_some() {
            stack.push(Dynamic::UNIT);
        }
        stack.extend(args);
        stack.reserve(64);
        let mut frame = Frame {
            stack,
            base: 0,
            program: self,
            engine,
            limits,
            level: 0,
            operations: 0,
            next_check: limits.max_operations.min(63) + 1,
            global: None,
            running: None,
            chain_changed: None,
        };
        let result = match lent {
            // `lends` is false past the 64th parameter.
            Some(0) => frame.call_compiled_lending(id, args_at, Position::NONE, &[Some(0)], 1),
            Some(i) => {
                let mut from = vec![None; i + 1];
                from[i] = Some(0);
                frame.call_compiled_lending(id, args_at, Position::NONE, &from, 1 << i)
            }
            None => frame.call_compiled(id, args_at, Position::NONE),
        };
        // Rhai unwraps the error of the function it was asked to call.
        let result = result.map_err(|err| match *err {
            EvalAltResult::ErrorInFunctionCall(fn_name, _, inner, _) if fn_name == name => inner,
            other => other.into(),
        });
        // The call's count, where the interpreter's is (`script::call_operations`).
        super::host::set_call_operations(frame.operations);
        let mut stack = std::mem::take(&mut frame.stack);
        drop(frame);
        let given_back = match lent {
            Some(_) => std::mem::take(&mut stack[0]),
            None => Dynamic::UNIT,
        };
        stack.clear();
        if stack.capacity() <= MAX_SPARE_STACK {
            SPARE_STACK.with_borrow_mut(|spare| *spare = stack);
        }
        (result, given_back)
    }
}
