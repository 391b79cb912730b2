//! From Rhai's syntax tree to closures: statements, expressions and calls, with local variables
//! resolved to slots and every call bound at compile time (or the function left to the
//! interpreter, with the reason).

use super::super::host::natives::Tables;
use super::calls::{by_reference, lending_script_call, script_call};
use super::chain::{self, Chain};
use super::loops::{looped, switch_hash_works};
use super::ops::{self, Site};
use super::params::{ParamUse, mentions, param_use};
use super::{CompiledFn, Eval, Exec, Fallback, Flow, FnId, Frame, Program, R};
use crate::kernel::Table;
use rhai::{
    AST, ASTFlags, ASTNode, Dynamic, Engine, EvalAltResult, Expr, FnAccess, FnCallExpr,
    ImmutableString, Module, Position, Shared, Stmt,
};
use std::collections::HashMap;
use std::sync::Arc;

/// Why a function is left to the interpreter.
pub(super) type Unsupported = String;
/// A compiled condition.
type Test = Box<dyn Fn(&mut Frame<'_>) -> R<bool> + Send + Sync>;

/// A compiled statement of a block.
enum Step {
    /// An expression, its value the statement's.
    Expr(Eval),
    /// Any other statement.
    Exec(Exec),
}

/// Every compiled function's id, by where a call can name it.
#[derive(Default)]
pub(super) struct Names {
    /// Every function by id: its module (if a module's), its definition and its source name.
    pub(super) defs: Vec<(
        Option<ImmutableString>,
        Shared<rhai::ScriptFuncDef>,
        ImmutableString,
    )>,
    /// The entry script's functions.
    script: HashMap<(ImmutableString, usize), FnId>,
    /// Each module's functions, and whether they are public.
    modules: HashMap<(ImmutableString, ImmutableString, usize), (FnId, bool)>,
    /// What each function does with its parameters, by id (for lending arguments).
    pub(super) uses: Vec<ParamUse>,
    /// Which functions call sites compile into themselves, by id (`inline::inlinable`).
    pub(super) inlinable: Vec<bool>,
}

impl Names {
    /// The function an unqualified call of `name` with `arity` arguments names from inside
    /// `module` (the module's own, then the entry script's), as `Compiler::own_fn` finds it.
    pub(super) fn own_fn(
        &self,
        module: &Option<ImmutableString>,
        name: &ImmutableString,
        arity: usize,
    ) -> Option<FnId> {
        if let Some(m) = module
            && let Some(&(id, _)) = self.modules.get(&(m.clone(), name.clone(), arity))
        {
            return Some(id);
        }
        self.script.get(&(name.clone(), arity)).copied()
    }

    /// The public module function a qualified call (`recall::peek(…)`, one module deep) names.
    pub(super) fn qualified_fn(&self, call: &FnCallExpr) -> Option<FnId> {
        let path = &call.namespace.path;
        if path.len() != 1 {
            return None;
        }
        let module = ImmutableString::from(path[0].name.as_str());
        match self
            .modules
            .get(&(module, call.name.clone(), call.args.len()))
        {
            Some(&(id, true)) => Some(id),
            _ => None,
        }
    }
}

pub(super) fn compile(
    engine: &Engine,
    natives: Tables,
    table: Option<&Arc<Table>>,
    ast: &AST,
    modules: &[(String, &AST)],
) -> Program {
    let mut names = Names::default();
    let source_of = |ast: &AST| ImmutableString::from(ast.source().unwrap_or(""));
    for def in ast.iter_fn_def() {
        let key = (def.name.clone(), def.params.len());
        names.script.insert(key, names.defs.len());
        names.defs.push((None, def.clone(), source_of(ast)));
    }
    for (module, m) in modules {
        let module = ImmutableString::from(module.as_str());
        for def in m.iter_fn_def() {
            let key = (module.clone(), def.name.clone(), def.params.len());
            let public = def.access == FnAccess::Public;
            names.modules.insert(key, (names.defs.len(), public));
            names
                .defs
                .push((Some(module.clone()), def.clone(), source_of(m)));
        }
    }
    names.uses = names
        .defs
        .iter()
        .map(|(module, def, _)| {
            param_use(def, &|call: &FnCallExpr| {
                !call.namespace.is_empty()
                    || names.own_fn(module, &call.name, call.args.len()).is_some()
            })
        })
        .collect();
    names.inlinable = super::inline::inlinable(&names);
    let defs = &names.defs;
    let switch_ok = switch_hash_works(engine);
    let mut fns: Vec<Option<CompiledFn>> = Vec::with_capacity(defs.len());
    let mut calls: Vec<Vec<FnId>> = Vec::with_capacity(defs.len());
    let mut inlined: Vec<Vec<FnId>> = Vec::with_capacity(defs.len());
    let mut why: Vec<Option<String>> = Vec::with_capacity(defs.len());
    for (id, (module, def, source)) in defs.iter().enumerate() {
        let mut c = Compiler {
            names: &names,
            module: module.clone(),
            scope: def
                .params
                .iter()
                .cloned()
                .zip(0..)
                .map(|(name, slot)| (name, slot, false))
                .collect(),
            next: def.params.len(),
            max: def.params.len(),
            calls: Vec::new(),
            inlined: Vec::new(),
            switch_ok,
            max_variables: engine.max_variables(),
            block_start: def.params.len(),
            natives,
            table,
        };
        match c.function(def) {
            Ok((body, first)) => {
                fns.push(Some(CompiledFn {
                    name: def.name.clone(),
                    source: source.clone(),
                    slots: c.max,
                    uses: names.uses[id],
                    entry_cost: 1 + first,
                    body,
                }));
                why.push(None);
            }
            Err(reason) => {
                fns.push(None);
                why.push(Some(reason));
            }
        }
        calls.push(c.calls);
        inlined.push(c.inlined);
    }
    // A function that calls an interpreted one is interpreted too: compiled code never calls
    // back into the interpreter.
    loop {
        let mut changed = false;
        for id in 0..defs.len() {
            if fns[id].is_none() {
                continue;
            }
            if let Some(&callee) = calls[id].iter().find(|&&c| fns[c].is_none()) {
                fns[id] = None;
                why[id] = Some(format!(
                    "calls `{}`, which is interpreted",
                    label(&defs[callee].0, &defs[callee].1)
                ));
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    let mut fallbacks: Vec<Fallback> = defs
        .iter()
        .zip(&why)
        .filter_map(|((module, def, _), reason)| {
            reason.as_ref().map(|reason| Fallback {
                function: label(module, def),
                reason: reason.clone(),
            })
        })
        .collect();
    fallbacks.sort_by(|a, b| a.function.cmp(&b.function));
    // Functions inlined by a function that stays compiled.
    let mut into_callers = vec![false; defs.len()];
    for (caller, ids) in inlined.iter().enumerate() {
        if fns[caller].is_some() {
            ids.iter().for_each(|&id| into_callers[id] = true);
        }
    }
    Program {
        fns,
        script: names.script.iter().fold(
            super::FastMap::default(),
            |mut by_name, ((name, arity), &id)| {
                by_name
                    .entry(name.to_string())
                    .or_insert_with(Vec::new)
                    .push((*arity, id));
                by_name
            },
        ),
        fallbacks,
        inlined: into_callers,
        indexing: super::indexing::Indexing::new(engine),
        receivers: std::sync::OnceLock::new(),
        libs: std::iter::once(ast.shared_lib().clone())
            .chain(modules.iter().map(|(_, m)| m.shared_lib().clone()))
            .collect(),
    }
}

/// `name/arity`, `module::name/arity` for a module's function.
fn label(module: &Option<ImmutableString>, def: &rhai::ScriptFuncDef) -> String {
    match module {
        Some(m) => format!("{m}::{}/{}", def.name, def.params.len()),
        None => format!("{}/{}", def.name, def.params.len()),
    }
}

pub(super) struct Compiler<'a> {
    pub(super) names: &'a Names,
    /// The module the function is in, if it is a module's.
    pub(super) module: Option<ImmutableString>,
    /// Local variables in scope, innermost last, each with its slot and whether it is a `const`.
    pub(super) scope: Vec<(ImmutableString, usize, bool)>,
    pub(super) next: usize,
    max: usize,
    /// The compiled functions it calls.
    calls: Vec<FnId>,
    /// The functions compiled into it at its call sites.
    pub(super) inlined: Vec<FnId>,
    pub(super) switch_ok: bool,
    /// The most variables one call may have in scope at once (Rhai's `max_variables`).
    max_variables: usize,
    /// Where the innermost block's variables start in `scope`: a `let` of a name declared in
    /// the same block takes that variable's place, as in Rhai, so `scope` holds exactly the
    /// variables Rhai's scope holds at that point.
    pub(super) block_start: usize,
    /// The engine's native entries, which call sites bind to.
    natives: Tables,
    /// The variant's table, which literal names are resolved in (see `chain::Literal`).
    table: Option<&'a Arc<Table>>,
}

pub(super) fn unsupported(what: &str, pos: Position) -> Unsupported {
    match pos.line() {
        Some(line) => format!("{what} (line {line})"),
        None => what.to_string(),
    }
}

pub(super) fn value(v: Dynamic) -> R<Flow> {
    Ok(Flow::Value(v))
}

/// Run a statement that is not a block's last for its effect: its value dropped, `Some` when it
/// leaves the block (`return`, `break`, `continue`).
#[inline(always)]
fn effect(f: &mut Frame<'_>, step: &Step) -> R<Option<Flow>> {
    match step {
        Step::Expr(e) => super::discard(e(f)?),
        Step::Exec(x) => match x(f)? {
            Flow::Value(v) => super::discard(v),
            other => return Ok(Some(other)),
        },
    }
    Ok(None)
}

impl<'a> Compiler<'a> {
    /// A function's body: its top-level statements as one block.
    /// A function's body, and its first statement's count, which its caller charges.
    pub(super) fn function(
        &mut self,
        def: &Shared<rhai::ScriptFuncDef>,
    ) -> Result<(Exec, u64), Unsupported> {
        if def.this_type.is_some() {
            return Err("a typed method (`fn Type.name`) is not compiled".into());
        }
        let mut module = Module::new();
        module.set_script_fn(def.clone());
        let alone = AST::new(Vec::<Stmt>::new(), module);
        let mut body = Vec::new();
        alone.walk(&mut |path: &[ASTNode]| {
            if let [ASTNode::Stmt(stmt)] = path {
                body.push((*stmt).clone());
            }
            true
        });
        let first = self.first_cost(&body);
        Ok((self.statements(&body, false)?, first))
    }

    /// What a block's first statement counts: whoever runs the block charges it (with its own
    /// count, or as it decides to run the block), so that a block of one statement needs no
    /// closure of its own.
    pub(super) fn first_cost(&self, stmts: &[Stmt]) -> u64 {
        stmts.first().map_or(0, |s| self.stmt_cost(s))
    }

    pub(super) fn declare(&mut self, name: &ImmutableString) -> usize {
        self.declare_as(name, false)
    }

    /// `n` slots of no variable in scope (an inlined call's parameters), the first of them.
    pub(super) fn reserve(&mut self, n: usize) -> usize {
        let first = self.next;
        self.next += n;
        self.max = self.max.max(self.next);
        first
    }

    fn declare_as(&mut self, name: &ImmutableString, constant: bool) -> usize {
        let slot = self.next;
        self.next += 1;
        self.max = self.max.max(self.next);
        self.scope.push((name.clone(), slot, constant));
        slot
    }

    /// A `let`'s variable: the place of one of the same name declared in the same block (made
    /// a constant or not, as Rhai's parser makes it), else a new one; `None` when the scope
    /// already held as many variables as a call may have (the `let` fails when it runs).
    fn declare_in_block(&mut self, name: &ImmutableString, constant: bool) -> Option<usize> {
        let same = self.scope.iter().rposition(|(n, ..)| n == name);
        if let Some(at) = same.filter(|&at| at >= self.block_start) {
            self.scope[at].2 = constant;
            return Some(self.scope[at].1);
        }
        let fits = self.scope.len() < self.max_variables;
        // Declared even past the limit, so that the code after it compiles (it never runs).
        let slot = self.declare_as(name, constant);
        fits.then_some(slot)
    }

    /// Whether a `for` loop's variable (and `counter` one) fit in the scope.
    pub(super) fn loop_variables_fit(&self, counter: bool) -> bool {
        self.scope.len() + usize::from(counter) < self.max_variables
    }

    fn lookup(&self, name: &str) -> Option<usize> {
        self.lookup_var(name).map(|(slot, _)| slot)
    }

    /// A local variable's slot and whether it is a `const`.
    fn lookup_var(&self, name: &str) -> Option<(usize, bool)> {
        self.scope
            .iter()
            .rev()
            .find(|(n, ..)| n.as_str() == name)
            .map(|&(_, slot, constant)| (slot, constant))
    }

    /// A block's statements in a scope of their own (`scoped`), or the function's top level.
    pub(super) fn statements(&mut self, stmts: &[Stmt], scoped: bool) -> Result<Exec, Unsupported> {
        let (mark, next) = (self.scope.len(), self.next);
        let outer_block = std::mem::replace(&mut self.block_start, mark);
        // Each statement is charged what Rhai counts for it before it runs (`cost.rs`).
        let compiled = stmts
            .iter()
            .map(|s| Ok::<_, Unsupported>((self.stmt_cost(s), s.position(), self.step(s)?)))
            .collect::<Result<Vec<_>, _>>();
        self.block_start = outer_block;
        if scoped {
            self.scope.truncate(mark);
            self.next = next;
        }
        let mut compiled: Vec<(u64, Position, Step)> = compiled?;
        // The first statement's count is charged by whoever runs the block (`first_cost`).
        Ok(match compiled.len() {
            0 => Box::new(|_| value(Dynamic::UNIT)),
            1 => match compiled.pop().expect("one statement") {
                (_, _, Step::Expr(e)) => Box::new(move |f| value(e(f)?)),
                (_, _, Step::Exec(x)) => x,
            },
            _ => {
                let (_, _, first) = compiled.remove(0);
                let (last_cost, last_pos, last) = compiled.pop().expect("two statements");
                let middle = compiled.into_boxed_slice();
                Box::new(move |f| {
                    if let Some(flow) = effect(f, &first)? {
                        return Ok(flow);
                    }
                    for (cost, pos, s) in middle.iter() {
                        f.charge(*cost, *pos)?;
                        if let Some(flow) = effect(f, s)? {
                            return Ok(flow);
                        }
                    }
                    f.charge(last_cost, last_pos)?;
                    match &last {
                        Step::Expr(e) => value(e(f)?),
                        Step::Exec(x) => x(f),
                    }
                })
            }
        })
    }

    /// A statement of a block: an expression (a call, mostly) is run as the expression it is,
    /// without a statement's closure around it.
    fn step(&mut self, stmt: &Stmt) -> Result<Step, Unsupported> {
        Ok(match stmt {
            Stmt::Expr(e) => match &**e {
                Expr::Stmt(block) => Step::Exec(self.statements(block.statements(), true)?),
                _ => Step::Expr(self.expr(e)?),
            },
            Stmt::FnCall(call, pos) => Step::Expr(self.call(call, *pos)?),
            _ => Step::Exec(self.stmt(stmt)?),
        })
    }

    /// A statement other than an expression (`step` compiles those).
    fn stmt(&mut self, stmt: &Stmt) -> Result<Exec, Unsupported> {
        Ok(match stmt {
            Stmt::Noop(_) => Box::new(|_| value(Dynamic::UNIT)),
            Stmt::Expr(_) | Stmt::FnCall(..) => unreachable!("expression statements are steps"),
            Stmt::Block(block) => self.statements(block.statements(), true)?,
            Stmt::Var(x, flags, pos) => {
                let (ident, init, _) = &**x;
                if flags.contains(ASTFlags::EXPORTED) {
                    return Err(unsupported("`export` is not compiled", *pos));
                }
                let init = self.expr(init)?;
                let constant = flags.contains(ASTFlags::CONSTANT);
                let Some(slot) = self.declare_in_block(&ident.name, constant) else {
                    // Rhai refuses a variable past the limit before it evaluates its value.
                    let pos = *pos;
                    return Ok(Box::new(move |_| {
                        Err(EvalAltResult::ErrorTooManyVariables(pos).into())
                    }));
                };
                if constant {
                    // Read-only, as Rhai keeps a constant: a method that would change it is
                    // refused (`C.push(1)`), and each copy read from it is writable again.
                    return Ok(Box::new(move |f| {
                        let v = init(f)?.into_read_only();
                        super::replace(f.slot(slot), v);
                        value(Dynamic::UNIT)
                    }));
                }
                Box::new(move |f| {
                    let v = init(f)?;
                    super::replace(f.slot(slot), v);
                    value(Dynamic::UNIT)
                })
            }
            Stmt::Assignment(x) => {
                let (op, bin) = &**x;
                let rhs = self.expr(&bin.rhs)?;
                let op_pos = op.position();
                let op_site = op
                    .get_op_assignment_info()
                    .map(|(.., assign, _, op_syntax)| {
                        ops::OpAssign::new(Site::new(self.natives, op_syntax, 2), assign)
                    });
                match &bin.lhs {
                    Expr::Variable(v, _, pos) => {
                        let slot = self.local(v, *pos)?;
                        match op_site {
                            None => Box::new(move |f| {
                                let v = rhs(f)?;
                                super::replace(f.slot(slot), v);
                                value(Dynamic::UNIT)
                            }),
                            Some(site) => Box::new(move |f| {
                                let b = rhs(f)?;
                                let a = std::mem::take(f.slot(slot));
                                let result = ops::op_assign(f, &site, a.clone(), b, op_pos);
                                // The slot holds a `()` while the operator runs.
                                match result {
                                    Ok(v) => {
                                        super::put_back(f.slot(slot), v);
                                        super::discard(a);
                                    }
                                    Err(e) => {
                                        super::put_back(f.slot(slot), a);
                                        return Err(e);
                                    }
                                }
                                value(Dynamic::UNIT)
                            }),
                        }
                    }
                    lhs @ (Expr::Index(..) | Expr::Dot(..)) => {
                        let chain = self.chain(lhs)?;
                        let chain::Root::Local(_) = chain.root else {
                            return Err(unsupported(
                                "an assignment to something other than a variable is not compiled",
                                lhs.position(),
                            ));
                        };
                        let mut variable = lhs;
                        while let Expr::Index(link, ..) | Expr::Dot(link, ..) = variable {
                            variable = &link.lhs;
                        }
                        let root = chain::Assigned {
                            name: match variable {
                                Expr::Variable(v, ..) => v.1.clone(),
                                _ => ImmutableString::new(),
                            },
                            pos: variable.start_position(),
                        };
                        Box::new(move |f| {
                            let v = rhs(f)?;
                            chain.assign(f, v, op_site.as_ref(), op_pos, &root)?;
                            value(Dynamic::UNIT)
                        })
                    }
                    other => {
                        return Err(unsupported(
                            "this assignment is not compiled",
                            other.position(),
                        ));
                    }
                }
            }
            Stmt::If(x, _) => {
                let cond = self.condition(&x.expr)?;
                let (then_cost, else_cost) = (
                    self.first_cost(x.body.statements()),
                    self.first_cost(x.branch.statements()),
                );
                let then = self.statements(x.body.statements(), true)?;
                let otherwise = self.statements(x.branch.statements(), true)?;
                let pos = x.body.position();
                Box::new(move |f| {
                    if cond(f)? {
                        f.charge(then_cost, pos)?;
                        then(f)
                    } else {
                        f.charge(else_cost, pos)?;
                        otherwise(f)
                    }
                })
            }
            Stmt::While(x, _) => {
                let always = matches!(x.expr, Expr::Unit(..) | Expr::BoolConstant(true, ..));
                let cond = self.condition(&x.expr)?;
                // Each round counts its condition, or one when there is none and no body.
                let round_cost = if always {
                    u64::from(x.body.is_empty())
                } else {
                    self.expr_cost(&x.expr)
                };
                let body_cost = self.first_cost(x.body.statements());
                let body = self.statements(x.body.statements(), true)?;
                let pos = x.body.position();
                Box::new(move |f| {
                    loop {
                        f.charge(round_cost, pos)?;
                        if !always && !cond(f)? {
                            return value(Dynamic::UNIT);
                        }
                        f.charge(body_cost, pos)?;
                        match looped(body(f))? {
                            Some(Flow::Break(v)) => return value(v),
                            Some(other) => return Ok(other),
                            None => {}
                        }
                    }
                })
            }
            Stmt::Do(x, flags, _) => {
                let until = flags.contains(ASTFlags::NEGATED);
                let cond = self.condition(&x.expr)?;
                let cond_cost = self.expr_cost(&x.expr);
                let body_cost = self.first_cost(x.body.statements());
                let body = self.statements(x.body.statements(), true)?;
                let pos = x.body.position();
                Box::new(move |f| {
                    loop {
                        f.charge(body_cost, pos)?;
                        let round = body(f);
                        // Rhai's rule: `continue` in a `do` loop starts the body again without
                        // testing the condition.
                        let continued = match &round {
                            Ok(flow) => matches!(flow, Flow::Continue),
                            Err(e) => matches!(**e, EvalAltResult::LoopBreak(false, ..)),
                        };
                        match looped(round)? {
                            Some(Flow::Break(v)) => return value(v),
                            Some(other) => return Ok(other),
                            None if continued => continue,
                            None => {}
                        }
                        f.charge(cond_cost, pos)?;
                        if cond(f)? == until {
                            return value(Dynamic::UNIT);
                        }
                    }
                })
            }
            Stmt::For(x, _) => self.for_loop(x)?,
            Stmt::BreakLoop(expr, flags, _) => {
                let is_break = flags.contains(ASTFlags::BREAK);
                let expr = expr.as_ref().map(|e| self.expr(e)).transpose()?;
                Box::new(move |f| {
                    if !is_break {
                        return Ok(Flow::Continue);
                    }
                    let v = match &expr {
                        Some(e) => e(f)?,
                        None => Dynamic::UNIT,
                    };
                    Ok(Flow::Break(v))
                })
            }
            Stmt::Return(expr, flags, pos) => {
                let throw = flags.contains(ASTFlags::BREAK);
                let pos = *pos;
                let expr = expr.as_ref().map(|e| self.expr(e)).transpose()?;
                Box::new(move |f| {
                    let v = match &expr {
                        Some(e) => e(f)?,
                        None => Dynamic::UNIT,
                    };
                    if throw {
                        Err(EvalAltResult::ErrorRuntime(v, pos).into())
                    } else {
                        Ok(Flow::Return(v))
                    }
                })
            }
            Stmt::Switch(x, pos) => self.switch(x, *pos)?,
            Stmt::TryCatch(_, pos) => return Err(unsupported("`try` is not compiled", *pos)),
            Stmt::Import(_, pos) => return Err(unsupported("`import` is not compiled", *pos)),
            Stmt::Export(_, pos) => return Err(unsupported("`export` is not compiled", *pos)),
            other => {
                return Err(unsupported(
                    "this statement is not compiled",
                    other.position(),
                ));
            }
        })
    }

    /// A `switch` arm: a block runs as statements (its `return` returns from the function).
    pub(super) fn arm(&mut self, e: &Expr) -> Result<Exec, Unsupported> {
        if let Expr::Stmt(block) = e {
            return self.statements(block.statements(), true);
        }
        let e = self.expr(e)?;
        Ok(Box::new(move |f| value(e(f)?)))
    }

    /// A condition: a boolean, or Rhai's type error at the expression.
    pub(super) fn condition(&mut self, e: &Expr) -> Result<Test, Unsupported> {
        let pos = e.position();
        if let Expr::BoolConstant(b, _) = e {
            let b = *b;
            return Ok(Box::new(move |_| Ok(b)));
        }
        let e = self.expr(e)?;
        Ok(Box::new(move |f| {
            let v = e(f)?;
            let test = v.as_bool().map_err(|typ| mismatch("bool", typ, pos));
            super::discard(v);
            test
        }))
    }

    fn local(
        &self,
        v: &(
            Option<std::num::NonZeroUsize>,
            ImmutableString,
            rhai::Namespace,
            u64,
        ),
        pos: Position,
    ) -> Result<usize, Unsupported> {
        if !v.2.is_empty() {
            return Err(unsupported("a module's variable is not compiled", pos));
        }
        self.lookup(&v.1).ok_or_else(|| {
            unsupported(
                &format!("`{}` is not a local variable (a constant?)", v.1),
                pos,
            )
        })
    }

    pub(super) fn expr(&mut self, e: &Expr) -> Result<Eval, Unsupported> {
        Ok(match e {
            Expr::DynamicConstant(v, _) => constant((**v).clone()),
            // Made anew rather than cloned: a clone asks the value its type first.
            Expr::BoolConstant(b, _) => {
                let b = *b;
                Box::new(move |_| Ok(Dynamic::from_bool(b)))
            }
            Expr::IntegerConstant(n, _) => {
                let n = *n;
                Box::new(move |_| Ok(Dynamic::from_int(n)))
            }
            Expr::FloatConstant(x, _) => {
                let x = **x;
                Box::new(move |_| Ok(Dynamic::from_float(x)))
            }
            Expr::CharConstant(c, _) => constant(Dynamic::from(*c)),
            Expr::StringConstant(s, _) => constant(Dynamic::from(s.clone())),
            Expr::Unit(_) => Box::new(|_| Ok(Dynamic::UNIT)),
            Expr::Variable(v, _, pos) => {
                let slot = self.local(v, *pos)?;
                Box::new(move |f| Ok(f.slot(slot).clone()))
            }
            Expr::InterpolatedString(parts, pos) => {
                let parts = parts
                    .iter()
                    .map(|p| Ok((self.expr(p)?, p.position())))
                    .collect::<Result<Vec<_>, Unsupported>>()?;
                let pos = *pos;
                let to_string = Site::new(self.natives, "to_string", 1);
                Box::new(move |f| ops::interpolate(f, &parts, &to_string, pos))
            }
            Expr::Array(items, pos) => {
                let items = items
                    .iter()
                    .map(|i| self.expr(i))
                    .collect::<Result<Vec<_>, _>>()?;
                let pos = *pos;
                Box::new(move |f| {
                    let array = items.iter().map(|i| i(f)).collect::<R<rhai::Array>>()?;
                    ops::check_size(f.engine, Dynamic::from_array(array), pos)
                })
            }
            Expr::Map(x, pos) => {
                let map = super::events::MapLiteral::compile(self, x, *pos)?;
                Box::new(move |f| map.make(f))
            }
            Expr::And(list, _) | Expr::Or(list, _) => {
                let is_and = matches!(e, Expr::And(..));
                // The first operand is counted with the statement; the others when reached.
                let conds = list
                    .iter()
                    .enumerate()
                    .map(|(i, c)| {
                        let cost = if i == 0 { 0 } else { self.expr_cost(c) };
                        Ok((cost, self.condition(c)?))
                    })
                    .collect::<Result<Vec<_>, Unsupported>>()?;
                Box::new(move |f| {
                    for (cost, c) in &conds {
                        f.add_operations(*cost);
                        if c(f)? != is_and {
                            return Ok(Dynamic::from(!is_and));
                        }
                    }
                    Ok(Dynamic::from(is_and))
                })
            }
            Expr::Coalesce(list, _) => {
                let list = list
                    .iter()
                    .enumerate()
                    .map(|(i, c)| {
                        let cost = if i == 0 { 0 } else { self.expr_cost(c) };
                        Ok((cost, self.expr(c)?))
                    })
                    .collect::<Result<Vec<_>, Unsupported>>()?;
                Box::new(move |f| {
                    let mut v = Dynamic::UNIT;
                    for (cost, e) in &list {
                        f.add_operations(*cost);
                        v = e(f)?;
                        if !v.is_unit() {
                            break;
                        }
                    }
                    Ok(v)
                })
            }
            Expr::Stmt(block) => {
                let body = self.statements(block.statements(), true)?;
                let pos = block.position();
                Box::new(move |f| match body(f)? {
                    Flow::Value(v) => Ok(v),
                    // Inside an expression, leaving the block travels as Rhai's own signals.
                    Flow::Return(v) => Err(EvalAltResult::Return(v, pos).into()),
                    Flow::Break(v) => Err(EvalAltResult::LoopBreak(true, v, pos).into()),
                    Flow::Continue => {
                        Err(EvalAltResult::LoopBreak(false, Dynamic::UNIT, pos).into())
                    }
                })
            }
            Expr::FnCall(call, pos) => self.call(call, *pos)?,
            Expr::Index(..) | Expr::Dot(..) => self.chain(e)?.into_eval(),
            Expr::MethodCall(_, pos) | Expr::Property(_, pos) => {
                return Err(unsupported("a method call outside a chain", *pos));
            }
            Expr::ThisPtr(pos) => return Err(unsupported("`this` is not compiled", *pos)),
            Expr::Custom(_, pos) => {
                return Err(unsupported("custom syntax is not compiled", *pos));
            }
            other => {
                return Err(unsupported(
                    "this expression is not compiled",
                    other.position(),
                ));
            }
        })
    }

    fn chain(&mut self, e: &Expr) -> Result<Chain, Unsupported> {
        chain::compile(self, e)
    }

    /// The local slot of a chain's root, when it is a local variable.
    pub(super) fn root_slot(&self, e: &Expr) -> Result<Option<usize>, Unsupported> {
        match e {
            Expr::Variable(v, _, pos) => self.local(v, *pos).map(Some),
            _ => Ok(None),
        }
    }

    /// For each argument of a native call, its local variable when the call may read it where
    /// it is instead of a copy: a plain local that no other argument mentions (so evaluating
    /// the others, first, in order, cannot change it).
    pub(super) fn lendable(&self, args: &[Expr]) -> Vec<Option<usize>> {
        let name_of = |e: &Expr| match e {
            Expr::Variable(v, ..) if v.2.is_empty() => Some(v.1.clone()),
            _ => None,
        };
        args.iter()
            .enumerate()
            .map(|(i, arg)| {
                let name = name_of(arg)?;
                let slot = self.lookup(&name)?;
                let mentioned = args
                    .iter()
                    .enumerate()
                    .any(|(j, other)| j != i && mentions(other, &name));
                (!mentioned).then_some(slot)
            })
            .collect()
    }

    /// When every one of `args` is a local variable or a constant: the local variables.
    pub(super) fn local_reads(&self, args: &[Expr]) -> Option<Vec<usize>> {
        let mut slots = Vec::new();
        for arg in args {
            match self.pure_read(arg)? {
                PureRead::Local(slot) => slots.push(slot),
                PureRead::Constant(_) => {}
            }
        }
        Some(slots)
    }

    /// An operand that is a local variable or a constant, read in place.
    fn pure_read(&self, e: &Expr) -> Option<PureRead> {
        Some(match e {
            Expr::Variable(v, ..) if v.2.is_empty() => PureRead::Local(self.lookup(&v.1)?),
            Expr::DynamicConstant(v, _) => PureRead::Constant((**v).clone()),
            Expr::BoolConstant(b, _) => PureRead::Constant(Dynamic::from(*b)),
            Expr::IntegerConstant(n, _) => PureRead::Constant(Dynamic::from(*n)),
            Expr::StringConstant(s, _) => PureRead::Constant(Dynamic::from(s.clone())),
            Expr::Unit(_) => PureRead::Constant(Dynamic::UNIT),
            _ => return None,
        })
    }

    /// The engine's native entries.
    pub(super) fn natives(&self) -> Tables {
        self.natives
    }

    pub(super) fn table(&self) -> Option<&'a Arc<Table>> {
        self.table
    }

    /// Whether `name` with `arity` parameters is one of the scripts' own functions.
    pub(super) fn is_script_fn(&self, name: &str, arity: usize) -> bool {
        let key = (ImmutableString::from(name), arity);
        self.own_fn(&key).is_some()
    }

    /// Whether the method call `x.name(…)` with `args` arguments may call a script function:
    /// one of `args` parameters (Rhai binds `x` to its `this`, and tries it first) or one of
    /// `args + 1` (`x` its first argument).
    pub(super) fn is_script_method(&self, name: &str, args: usize) -> bool {
        self.is_script_fn(name, args) || self.is_script_fn(name, args + 1)
    }

    /// A function the unqualified call `key` names: the module's own, then the entry script's.
    fn own_fn(&self, key: &(ImmutableString, usize)) -> Option<FnId> {
        self.names.own_fn(&self.module, &key.0, key.1)
    }

    /// A compiled call of the script function `id`: its arguments that are local variables no
    /// other argument mentions, and that the function keeps as given, are lent to it.
    fn script_call(
        &self,
        id: FnId,
        call: &FnCallExpr,
        args: Vec<Eval>,
        first_local: Option<usize>,
        pos: Position,
    ) -> Eval {
        let uses = self.names.uses[id];
        let lent: Vec<Option<usize>> = self
            .lendable(&call.args)
            .into_iter()
            .enumerate()
            .map(|(i, slot)| slot.filter(|_| i < 64 && uses.kept & (1 << i) != 0))
            .collect();
        if lent.iter().all(Option::is_none) {
            return script_call(id, args, first_local, pos);
        }
        lending_script_call(id, args, first_local, lent, uses, pos)
    }

    /// A call: a script function by index, `type_of`, an operator or a native function; a
    /// comparison of the game's phase with a literal by the phase's index (`phase.rs`).
    fn call(&mut self, call: &FnCallExpr, pos: Position) -> Result<Eval, Unsupported> {
        let general = self.plain_call(call, pos)?;
        Ok(match super::phase::PhaseTest::of(self, call) {
            Some(test) => test.into_eval(general),
            None => general,
        })
    }

    /// `call`, without the phase comparison.
    fn plain_call(&mut self, call: &FnCallExpr, pos: Position) -> Result<Eval, Unsupported> {
        let name = call.name.as_str();
        let arity = call.args.len();
        if call.capture_parent_scope {
            return Err(unsupported("a call with `!` is not compiled", pos));
        }
        let args = call
            .args
            .iter()
            .map(|a| self.expr(a))
            .collect::<Result<Vec<_>, _>>()?;
        // `f(x, …)` with `x` a local variable: Rhai evaluates the other arguments first, then
        // passes the variable itself, which a method such as `push` changes (a `const` as a copy).
        let first_local = match call.args.first() {
            Some(Expr::Variable(v, _, _)) if v.2.is_empty() => self.lookup_var(&v.1),
            _ => None,
        };
        // A module's function: `recall::peek(…)`.
        if !call.namespace.is_empty() {
            let Some(id) = self.names.qualified_fn(call) else {
                return Err(unsupported(
                    &format!(
                        "the call of `{}::{name}` is not compiled",
                        call.namespace.path[0].name
                    ),
                    pos,
                ));
            };
            self.calls.push(id);
            let ordinary = self.script_call(id, call, args, first_local.map(|(slot, _)| slot), pos);
            return Ok(self
                .inline_call(id, call, pos, ordinary)
                .unwrap_or_else(|call| call));
        }
        if let Some(id) = self.own_fn(&(call.name.clone(), arity)) {
            self.calls.push(id);
            if body_is_empty(&self.names.defs[id].1) {
                // Rhai calls a function with an empty body by not calling it: its arguments are
                // evaluated, and the call counts nothing and goes no level deeper.
                return Ok(Box::new(move |f| {
                    for a in &args {
                        super::discard(a(f)?);
                    }
                    Ok(Dynamic::UNIT)
                }));
            }
            let ordinary = self.script_call(id, call, args, first_local.map(|(slot, _)| slot), pos);
            return Ok(self
                .inline_call(id, call, pos, ordinary)
                .unwrap_or_else(|call| call));
        }
        match (name, arity) {
            ("type_of", 1) => {
                let [a] = <[Eval; 1]>::try_from(args).ok().expect("one argument");
                return Ok(Box::new(move |f| {
                    let v = a(f)?;
                    Ok(Dynamic::from(
                        f.engine.map_type_name(v.type_name()).to_string(),
                    ))
                }));
            }
            ("Fn" | "call" | "curry" | "is_def_var" | "is_def_fn" | "is_shared" | "eval", _) => {
                return Err(unsupported(&format!("`{name}` is not compiled"), pos));
            }
            _ => {}
        }
        let site = Site::new(self.natives, name, arity);
        if let (None, Some((slot, false))) = (&call.op_token, first_local) {
            return Ok(by_reference(site, slot, args, pos));
        }
        if call.op_token.is_some()
            && let [x, y] = &call.args[..]
            && let (Some(x), Some(y)) = (self.pure_read(x), self.pure_read(y))
        {
            // Both operands read without side effects: looked at in place, copied only for
            // Rhai's own call.
            return Ok(Box::new(move |f| {
                if let Some(v) = ops::fast_binary(&site, x.get(f), y.get(f)) {
                    if x.get(f).is_variant() || y.get(f).is_variant() {
                        f.add_operations(1);
                    }
                    return Ok(v);
                }
                let a = x.get(f).clone();
                binary_read_right(f, &site, a, &y, pos)
            }));
        }
        if call.op_token.is_some()
            && let [_, y] = &call.args[..]
            && let Some(y) = self.pure_read(y)
        {
            let [a, _] = <[Eval; 2]>::try_from(args).ok().expect("two operands");
            // The right operand read without side effects (`game.current != p`): Rhai evaluates
            // the left one first, then reads the right one, which is looked at in place.
            return Ok(Box::new(move |f| {
                let a = a(f)?;
                if let Some(v) = ops::fast_binary(&site, &a, y.get(f)) {
                    if a.is_variant() || y.get(f).is_variant() {
                        f.add_operations(1);
                    }
                    super::discard(a);
                    return Ok(v);
                }
                binary_read_right(f, &site, a, &y, pos)
            }));
        }
        Ok(match <[Eval; 2]>::try_from(args) {
            Ok([a, b]) if call.op_token.is_some() => Box::new(move |f| {
                let (a, b) = (a(f)?, b(f)?);
                ops::binary(f, &site, a, b, pos)
            }),
            Ok([a, b]) => Box::new(move |f| {
                let (mut a, mut b) = (a(f)?, b(f)?);
                site.call(f, &mut [&mut a, &mut b], pos)
            }),
            Err(args) => match <[Eval; 1]>::try_from(args) {
                Ok([a]) if call.op_token.is_some() => Box::new(move |f| {
                    let a = a(f)?;
                    ops::unary(f, &site, a, pos)
                }),
                Ok([a]) => Box::new(move |f| {
                    let mut a = a(f)?;
                    site.call(f, &mut [&mut a], pos)
                }),
                Err(args) => Box::new(move |f| {
                    let mut values = args.iter().map(|a| a(f)).collect::<R<Vec<Dynamic>>>()?;
                    let mut refs: Vec<&mut Dynamic> = values.iter_mut().collect();
                    site.call(f, &mut refs, pos)
                }),
            },
        })
    }
}

/// Whether a script function's body has no statements.
fn body_is_empty(def: &Shared<rhai::ScriptFuncDef>) -> bool {
    let mut module = Module::new();
    module.set_script_fn(def.clone());
    let mut empty = true;
    AST::new(Vec::<Stmt>::new(), module).walk(&mut |path: &[ASTNode]| {
        if let [ASTNode::Stmt(_)] = path {
            empty = false;
        }
        empty
    });
    empty
}

/// An operand read without side effects: a local variable or a constant.
enum PureRead {
    Local(usize),
    Constant(Dynamic),
}

impl PureRead {
    #[inline]
    fn get<'f>(&'f self, f: &'f Frame<'_>) -> &'f Dynamic {
        match self {
            PureRead::Local(slot) => f.slot_ref(*slot),
            PureRead::Constant(v) => v,
        }
    }
}

/// `a op y` where `fast_binary` did not decide it and `y` is read without side effects: a local
/// is lent to an entry that takes two kernel values of one type (it reads both in place and
/// keeps neither); anything else gets a copy of `y`, as Rhai's call may consume its arguments.
fn binary_read_right(
    f: &mut Frame<'_>,
    site: &Site,
    mut a: Dynamic,
    y: &PureRead,
    pos: Position,
) -> R<Dynamic> {
    if !ops::builtin_operator(site.name(), &a, y.get(f)) {
        f.add_operations(1);
    }
    match *y {
        PureRead::Local(slot) => {
            let at = f.base + slot;
            let mut b = std::mem::take(&mut f.stack[at]);
            let tried = ops::same_typed(site, &mut a, &mut b, pos);
            super::put_back(&mut f.stack[at], b);
            if let Some(result) = tried {
                super::discard(a);
                return result;
            }
            // Both in-place ways have answered `None` for these values: Rhai's dispatch.
            let mut b = y.get(f).clone();
            site.call(f, &mut [&mut a, &mut b], pos)
        }
        PureRead::Constant(ref c) => ops::binary_uncounted(f, site, a, c.clone(), pos),
    }
}

/// Rhai's type error: expected `want`, found a value of type `typ`.
pub(super) fn mismatch(want: &str, typ: &str, pos: Position) -> Box<EvalAltResult> {
    EvalAltResult::ErrorMismatchDataType(want.into(), typ.into(), pos).into()
}

fn constant(v: Dynamic) -> Eval {
    Box::new(move |_| Ok(v.clone()))
}
