//! Indexing a value that is not an array or a map (`n[3]` on an integer's bits, `s[1..3]` on a
//! string, `b[0]` on a blob, a type's own indexer): done by Rhai itself, on a two-line script
//! compiled once, so that every built-in case means what the interpreter means; its errors are
//! moved to the positions of the script being run.

use super::R;
use rhai::{AST, Dynamic, Engine, EvalAltResult, Position, Scope};

/// The scripts, and where their parts are (line 1): the positions Rhai's errors may carry.
const GET: &str = "x[i]";
const SET: &str = "x[i] = v; x";
const OPEN_AT: usize = 2;
const INDEX_AT: usize = 3;
const ASSIGN_AT: usize = 6;

/// The two scripts, compiled once per program.
pub(super) struct Indexing {
    get: AST,
    set: AST,
}

/// Where the indexing stands in the script being run.
#[derive(Clone, Copy)]
pub(crate) struct At {
    /// The `[`.
    pub(crate) open: Position,
    /// The index expression.
    pub(crate) index: Position,
    /// The assignment's operator (for `x[i] = v`).
    pub(crate) assign: Position,
}

impl Indexing {
    pub(crate) fn new(engine: &Engine) -> Indexing {
        // Its variables declared: the engine allows no undeclared ones.
        let mut scope = Scope::new();
        for name in ["x", "i", "v"] {
            scope.push_dynamic(name, Dynamic::UNIT);
        }
        let compile = |text: &str| {
            engine
                .compile_with_scope(&scope, text)
                .unwrap_or_else(|e| unreachable!("`{text}` compiles: {e}"))
        };
        Indexing {
            get: compile(GET),
            set: compile(SET),
        }
    }

    /// `target[idx]`.
    pub(crate) fn get(
        &self,
        engine: &Engine,
        target: &Dynamic,
        idx: Dynamic,
        at: At,
    ) -> R<Dynamic> {
        let mut scope = Scope::new();
        scope.push_dynamic("x", target.clone());
        scope.push_dynamic("i", idx);
        engine
            .eval_ast_with_scope::<Dynamic>(&mut scope, &self.get)
            .map_err(|e| moved(e, at))
    }

    /// `target[idx] = value`, in place.
    pub(crate) fn set(
        &self,
        engine: &Engine,
        target: &mut Dynamic,
        idx: Dynamic,
        value: Dynamic,
        at: At,
    ) -> R<()> {
        let mut scope = Scope::new();
        scope.push_dynamic("x", std::mem::take(target));
        scope.push_dynamic("i", idx);
        scope.push_dynamic("v", value);
        let result = engine.eval_ast_with_scope::<Dynamic>(&mut scope, &self.set);
        // Whatever happened, the target is the variable as the script left it (a constant's
        // value too, still read-only: Rhai leaves a constant's bits or characters as they were).
        if let Some(x) = scope.remove::<Dynamic>("x") {
            *target = x;
        }
        result.map(drop).map_err(|e| moved(e, at))
    }
}

/// An error of the helper script, at the matching position of the script being run.
fn moved(mut err: Box<EvalAltResult>, at: At) -> Box<EvalAltResult> {
    let pos = err.position();
    if pos.line() == Some(1) {
        let to = match pos.position() {
            Some(OPEN_AT) => Some(at.open),
            Some(INDEX_AT) => Some(at.index),
            Some(ASSIGN_AT) => Some(at.assign),
            _ => None,
        };
        if let Some(to) = to {
            err.set_position(to);
        }
    }
    err
}
