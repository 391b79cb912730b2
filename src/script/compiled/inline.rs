//! Small script functions compiled into their callers: a call of a short function that calls no
//! other script function (or only such functions) runs the function's body in the caller's frame,
//! with the parameters it keeps as given read from the caller's variables where they are, instead
//! of setting up a frame, copying or lending the arguments and clearing the slots after. The
//! call still counts as one, one level deeper, and its errors are wrapped in the call's, as Rhai
//! wraps them; a variable whose value could be changed by the function's methods (a map) is
//! passed by the ordinary call instead.

use super::build::{Compiler, Names};
use super::calls::methods_on;
use super::params::ParamUse;
use super::{Eval, Exec, Flow, FnId, Frame, R};
use rhai::{AST, ASTNode, Dynamic, EvalAltResult, Expr, FnCallExpr, Module, Position, Stmt};

/// The largest function compiled into its callers, in syntax-tree nodes (Check's
/// `check_matching` is 24, its `start_turn` 65): past this, the call costs little beside the
/// body, and each call site would hold a copy of it.
const MAX_NODES: usize = 64;

/// How deep inlined calls nest: a function is compiled into its callers when the functions it
/// calls are, down to this many levels. Deeper (3, with 128 nodes) took 0.4% off Check's random
/// play but added as much to Dutch's and Recall's: each hook's frame holds the slots of the
/// deepest inlined chain, set up and cleared on every call.
const MAX_DEPTH: usize = 1;

/// Which functions a call site compiles into itself: small ones that call no script function,
/// and small ones whose script calls are all to such functions, `MAX_DEPTH` levels down (so
/// inlining ends and never meets a recursion).
pub(super) fn inlinable(names: &Names) -> Vec<bool> {
    let calls: Vec<Option<Vec<FnId>>> = names
        .defs
        .iter()
        .map(|(module, def, _)| {
            if def.this_type.is_some() || def.params.len() > 64 {
                return None;
            }
            let mut nodes = 0usize;
            let mut callees = Vec::new();
            let mut ok = true;
            let mut body = Module::new();
            body.set_script_fn(def.clone());
            AST::new(Vec::<Stmt>::new(), body).walk(&mut |path: &[ASTNode]| {
                nodes += 1;
                match path.last() {
                    Some(
                        ASTNode::Expr(Expr::FnCall(call, _)) | ASTNode::Stmt(Stmt::FnCall(call, _)),
                    ) if !call.is_operator_call() => match script_callee(names, module, call) {
                        Some(Callee::Script(id)) => callees.push(id),
                        Some(Callee::Native) => {}
                        None => ok = false,
                    },
                    Some(ASTNode::Expr(Expr::ThisPtr(_))) => ok = false,
                    _ => {}
                }
                ok && nodes <= MAX_NODES
            });
            (ok && nodes <= MAX_NODES).then_some(callees)
        })
        .collect();
    // A function's depth: 0 for one that calls no script function, else one more than the
    // deepest it calls. A recursion never gets one.
    let mut depth: Vec<Option<usize>> = calls
        .iter()
        .map(|c| c.as_ref().filter(|c| c.is_empty()).map(|_| 0))
        .collect();
    for round in 1..=MAX_DEPTH {
        let reached: Vec<bool> = calls
            .iter()
            .enumerate()
            .map(|(id, c)| {
                depth[id].is_none()
                    && c.as_ref().is_some_and(|c| {
                        c.iter()
                            .all(|&callee| depth[callee].is_some_and(|d| d < round))
                    })
            })
            .collect();
        for (id, reached) in reached.into_iter().enumerate() {
            if reached {
                depth[id] = Some(round);
            }
        }
    }
    depth.iter().map(Option::is_some).collect()
}

/// What a call names.
enum Callee {
    Script(FnId),
    Native,
}

/// The script function a call inside function `module`'s names, as `Compiler::call` binds it;
/// `None` for a module's function it does not bind.
fn script_callee(
    names: &Names,
    module: &Option<rhai::ImmutableString>,
    call: &FnCallExpr,
) -> Option<Callee> {
    if !call.namespace.is_empty() {
        return names.qualified_fn(call).map(Callee::Script);
    }
    Some(match names.own_fn(module, &call.name, call.args.len()) {
        Some(id) => Callee::Script(id),
        None => Callee::Native,
    })
}

/// How an inlined call gets its parameters.
struct Params {
    /// The arguments evaluated into the parameters' own slots, in Rhai's order.
    evaluated: Vec<(Eval, usize)>,
    /// Parameters read from the caller's variable in place whose function calls methods on
    /// them: each is checked to be a value no method changes (its index and the caller's slot).
    guarded: Vec<(usize, usize)>,
}

impl Compiler<'_> {
    /// The call `call` of function `id` compiled into the caller, when `id` is inlinable and
    /// its body compiles here; `ordinary` is the call made instead when a guarded argument's
    /// value could be changed by the function. `Err(ordinary)` leaves the call as it is.
    pub(super) fn inline_call(
        &mut self,
        id: FnId,
        call: &FnCallExpr,
        pos: Position,
        ordinary: Eval,
    ) -> Result<Eval, Eval> {
        if !self.names.inlinable.get(id).copied().unwrap_or(false) {
            return Err(ordinary);
        }
        let (module, def, _) = &self.names.defs[id];
        let uses: ParamUse = self.names.uses[id];
        // A parameter the function keeps as given is the caller's variable itself when the
        // argument is one that no other argument mentions (and not a `const`: Rhai passes a
        // writable copy of that).
        let lendable = self.lendable(&call.args);
        let in_place: Vec<Option<usize>> = lendable
            .iter()
            .enumerate()
            .map(|(i, slot)| {
                slot.filter(|&slot| {
                    i < 64 && uses.kept & (1 << i) != 0 && !self.is_constant_slot(slot)
                })
            })
            .collect();
        // The other parameters' slots, taken before their arguments are compiled: an inlined
        // call inside an argument (`f(g(x), g(y))`) uses slots above them, so evaluating the
        // second argument cannot overwrite the first.
        let next = self.next;
        let own = self.reserve(call.args.len());
        // The other arguments, compiled in the caller's scope.
        let mut values = Vec::with_capacity(call.args.len());
        for (arg, slot) in call.args.iter().zip(&in_place) {
            values.push(match slot {
                Some(_) => None,
                None => match self.expr(arg) {
                    Ok(eval) => Some(eval),
                    Err(_) => {
                        self.next = next;
                        return Err(ordinary);
                    }
                },
            });
        }
        self.next = own + call.args.len();
        let (scope, outer_module) = (
            std::mem::take(&mut self.scope),
            std::mem::replace(&mut self.module, module.clone()),
        );
        let mut params = Params {
            evaluated: Vec::new(),
            guarded: Vec::new(),
        };
        for (i, (param, value)) in def.params.iter().zip(values).enumerate() {
            match (in_place[i], value) {
                (Some(slot), _) => {
                    self.scope.push((param.clone(), slot, false));
                    if uses.no_methods & (1 << i) == 0 {
                        params.guarded.push((i, slot));
                    }
                }
                (None, Some(eval)) => {
                    self.scope.push((param.clone(), own + i, false));
                    params.evaluated.push((eval, own + i));
                }
                (None, None) => unreachable!("an argument not read in place is compiled"),
            }
        }
        let body = self.function(def);
        self.scope = scope;
        self.module = outer_module;
        self.next = next;
        // Its first statement's count is the callee's `entry_cost`, as for the ordinary call.
        let Ok((body, _)) = body else {
            return Err(ordinary);
        };
        // Rhai reads a first argument that is a variable after the others, when it makes the
        // call.
        if in_place.first() == Some(&None)
            && matches!(call.args.first(), Some(Expr::Variable(v, ..)) if v.2.is_empty())
        {
            params.evaluated.rotate_left(1);
        }
        self.inlined.push(id);
        Ok(inlined(id, uses, params, body, ordinary, pos))
    }

    /// Whether `slot` holds a `const` of the scope now.
    fn is_constant_slot(&self, slot: usize) -> bool {
        self.scope
            .iter()
            .rev()
            .find(|(_, s, _)| *s == slot)
            .is_some_and(|&(_, _, constant)| constant)
    }
}

/// The inlined call: guards, arguments, then the body one level deeper under the function's
/// name, its result or error as the ordinary call gives it.
fn inlined(
    id: FnId,
    uses: ParamUse,
    params: Params,
    body: Exec,
    ordinary: Eval,
    pos: Position,
) -> Eval {
    Box::new(move |f| {
        for &(i, slot) in &params.guarded {
            if !uses.lends(i, || methods_on(f.slot_ref(slot))) {
                return ordinary(f);
            }
        }
        for (arg, slot) in &params.evaluated {
            let v = arg(f)?;
            super::replace(f.slot(*slot), v);
        }
        let program = f.program;
        let Some(callee) = program.fns[id].as_ref() else {
            unreachable!("a function calling an interpreted one is interpreted")
        };
        let result = run_inlined(f, callee, &body, pos);
        f.returned(callee, result, pos)
    })
}

/// The body run as `Frame::enter` runs a call: counted, one level deeper, under the function's
/// name (which Rhai's own calls report errors under).
#[inline]
fn run_inlined<'a>(
    f: &mut Frame<'a>,
    callee: &'a super::CompiledFn,
    body: &Exec,
    pos: Position,
) -> R<Dynamic> {
    f.charge(callee.entry_cost, pos)?;
    if f.level > f.limits.max_call_levels {
        return Err(EvalAltResult::ErrorStackOverflow(pos).into());
    }
    let outer = f.running.replace(callee);
    f.level += 1;
    let flow = body(f);
    f.level -= 1;
    f.running = outer;
    match flow? {
        Flow::Value(v) | Flow::Return(v) | Flow::Break(v) => Ok(v),
        Flow::Continue => Ok(Dynamic::UNIT),
    }
}
