//! Which script functions refuse only before they first change the game: read from their syntax
//! trees, so that a legality check may stop such an action hook at its first change (nothing it
//! does after that can refuse) instead of running the whole action and undoing it.
//!
//! The reading is conservative: a function is *refusals-first* only when no path through it, and
//! through the script functions it calls, can reach a refusal (`refuse`, or an API function that
//! refuses, such as `card_arg`) after a change of the game (an API function in
//! `natives::CHANGES`). A statement that may do both, in an order the reading does not follow, a
//! loop whose body may do both (a later round refuses after an earlier one changed), a `try`, a
//! call by name (`call`, `Fn`), and a call into a module all count as a refusal after a change.

use super::super::host::effects::{CHANGES, REFUSES};
use rhai::{AST, ASTNode, Expr, FnCallExpr, Stmt};
use std::collections::{HashMap, HashSet};

/// Rounds of reading every function before a script is given up on (see `refusals_first`).
const MAX_ROUNDS: usize = 64;

/// Calls whose target the reading cannot know: counted as changing, refusing and refusing late.
const BY_NAME: &[&str] = &["call", "Fn", "curry", "eval"];

/// What running a function (or a piece of one) may do.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Effects {
    /// It may change the game.
    changes: bool,
    /// It may refuse.
    refuses: bool,
    /// It may refuse after it (or what it called) changed the game.
    refuses_late: bool,
}

impl Effects {
    const UNKNOWN: Effects = Effects {
        changes: true,
        refuses: true,
        refuses_late: true,
    };

    const NONE: Effects = Effects {
        changes: false,
        refuses: false,
        refuses_late: false,
    };

    fn join(&mut self, other: Effects) {
        self.changes |= other.changes;
        self.refuses |= other.refuses;
        self.refuses_late |= other.refuses_late;
    }
}

/// `a`, then `b`.
fn then(a: Effects, b: Effects) -> Effects {
    Effects {
        changes: a.changes || b.changes,
        refuses: a.refuses || b.refuses,
        refuses_late: a.refuses_late || b.refuses_late || a.changes && b.refuses,
    }
}

/// `a` and `b` in an order not followed.
fn unordered(a: Effects, b: Effects) -> Effects {
    let mut e = then(a, b);
    e.refuses_late |= b.changes && a.refuses;
    e
}

/// A script function: the module it is in (`None` for the entry script), its name and its
/// number of parameters.
type FnKey = (Option<String>, String, usize);

/// The script functions of `ast` (by name and number of parameters) that never refuse after
/// they have changed the game. `modules` are the scripts registered as modules (`recall::f`),
/// read with it.
pub(crate) fn refusals_first(ast: &AST, modules: &[(String, &AST)]) -> HashSet<(String, usize)> {
    let mut bodies: Vec<(FnKey, Vec<Stmt>)> = Vec::new();
    let mut add = |module: Option<&str>, ast: &AST| {
        for d in ast.iter_fn_def() {
            let key = (module.map(String::from), d.name.to_string(), d.params.len());
            bodies.push((key, body(d)));
        }
    };
    add(None, ast);
    for (name, m) in modules {
        add(Some(name), m);
    }
    let mut reading = Reading {
        summaries: bodies
            .iter()
            .map(|(k, _)| (k.clone(), Effects::default()))
            .collect(),
        by_name: HashMap::new(),
    };
    // Each round can only turn effects on, and a function has three: the summaries settle within
    // three rounds per function (recursion included), and within a few for real scripts, whose
    // calls nest a few deep. A script that has not settled in `MAX_ROUNDS` gets nothing checked
    // early (every hook run whole, as is always right).
    let mut settled = false;
    for _ in 0..=(3 * bodies.len()).min(MAX_ROUNDS) {
        reading.by_name = by_name(&reading.summaries);
        let mut changed = false;
        for (key, body) in &bodies {
            let mut found = Effects::default();
            let module = key.0.as_deref();
            reading.stmts(module, body, false, &mut found);
            if reading.summaries[key] != found {
                reading.summaries.insert(key.clone(), found);
                changed = true;
            }
        }
        if !changed {
            settled = true;
            break;
        }
    }
    if !settled {
        return HashSet::new();
    }
    reading
        .summaries
        .into_iter()
        .filter(|((module, _, _), e)| module.is_none() && !e.refuses_late)
        .map(|((_, name, arity), _)| (name, arity))
        .collect()
}

/// A function's top-level statements (Rhai keeps its body to itself: walked as an AST of its
/// own, as the compiler does).
fn body(def: &rhai::Shared<rhai::ScriptFuncDef>) -> Vec<Stmt> {
    let mut module = rhai::Module::new();
    module.set_script_fn(def.clone());
    let mut body = Vec::new();
    AST::new(Vec::<Stmt>::new(), module).walk(&mut |path: &[ASTNode]| {
        if let [ASTNode::Stmt(stmt)] = path {
            body.push((*stmt).clone());
        }
        true
    });
    body
}

/// By module and name: the effects of every script function of that name, whatever its number
/// of parameters (for a method call, whose receiver may or may not be one of them).
fn by_name(summaries: &HashMap<FnKey, Effects>) -> HashMap<(Option<String>, String), Effects> {
    let mut by_name: HashMap<(Option<String>, String), Effects> = HashMap::new();
    for ((module, name, _), e) in summaries {
        by_name
            .entry((module.clone(), name.clone()))
            .or_default()
            .join(*e);
    }
    by_name
}

struct Reading {
    summaries: HashMap<FnKey, Effects>,
    by_name: HashMap<(Option<String>, String), Effects>,
}

impl Reading {
    /// Read `stmts` (of a function in `module`) in order, the game maybe changed already when
    /// `changed`; what they may do goes into `found`. Whether the game may be changed after them.
    fn stmts(
        &self,
        module: Option<&str>,
        stmts: &[Stmt],
        mut changed: bool,
        found: &mut Effects,
    ) -> bool {
        for stmt in stmts {
            changed = self.stmt(module, stmt, changed, found);
        }
        changed
    }

    fn stmt(&self, module: Option<&str>, stmt: &Stmt, changed: bool, found: &mut Effects) -> bool {
        let leaf = |e: &Expr, changed: bool, found: &mut Effects| {
            self.leaf(module, &ASTNode::Expr(e), changed, found)
        };
        let block = |stmts: &[Stmt], changed: bool, found: &mut Effects| {
            self.stmts(module, stmts, changed, found)
        };
        match stmt {
            Stmt::Block(b) => block(b.statements(), changed, found),
            Stmt::If(x, _) => {
                let changed = leaf(&x.expr, changed, found);
                let then = block(x.body.statements(), changed, found);
                let otherwise = block(x.branch.statements(), changed, found);
                then || otherwise
            }
            Stmt::While(x, _) | Stmt::Do(x, _, _) => {
                // Twice: the second round sees what the first may have changed.
                let mut changed = changed;
                for _ in 0..2 {
                    changed = leaf(&x.expr, changed, found);
                    changed = block(x.body.statements(), changed, found);
                }
                changed
            }
            Stmt::For(x, _) => {
                let flow = &x.2;
                let mut changed = leaf(&flow.expr, changed, found);
                for _ in 0..2 {
                    changed = block(flow.body.statements(), changed, found);
                }
                changed
            }
            Stmt::Switch(x, _) => {
                let (subject, cases) = &**x;
                let changed = leaf(subject, changed, found);
                // Conditions are tried in order until one holds: each may follow the others.
                let mut tried = changed;
                let mut after = changed;
                for arm in &cases.expressions {
                    tried = leaf(&arm.lhs, tried, found);
                    let ran = match &arm.rhs {
                        Expr::Stmt(b) => block(b.statements(), tried, found),
                        other => leaf(other, tried, found),
                    };
                    after |= ran;
                }
                after || tried
            }
            Stmt::TryCatch(..) => {
                found.join(Effects::UNKNOWN);
                true
            }
            other => self.leaf(module, &ASTNode::Stmt(other), changed, found),
        }
    }

    /// A statement or an expression that is not a branch or a loop, read in Rhai's order of
    /// evaluation (a call's arguments, then the call).
    fn leaf(
        &self,
        module: Option<&str>,
        node: &ASTNode,
        changed: bool,
        found: &mut Effects,
    ) -> bool {
        let mut here = match node {
            ASTNode::Expr(e) => self.expr(module, e),
            ASTNode::Stmt(s) => self.plain_stmt(module, s),
            _ => Effects::UNKNOWN,
        };
        if changed && here.refuses {
            here.refuses_late = true;
        }
        found.join(here);
        changed || here.changes
    }

    /// What a statement read as a whole may do.
    fn plain_stmt(&self, module: Option<&str>, stmt: &Stmt) -> Effects {
        match stmt {
            Stmt::Noop(_) | Stmt::BreakLoop(None, ..) | Stmt::Return(None, ..) => Effects::NONE,
            Stmt::Var(x, _, _) => self.expr(module, &x.1),
            Stmt::Expr(e) => self.expr(module, e),
            Stmt::FnCall(call, _) => self.call_with_args(module, call, false),
            Stmt::BreakLoop(Some(e), ..) | Stmt::Return(Some(e), ..) => self.expr(module, e),
            Stmt::Assignment(x) => {
                let target = &x.1;
                unordered(
                    self.expr(module, &target.rhs),
                    self.expr(module, &target.lhs),
                )
            }
            Stmt::If(..)
            | Stmt::While(..)
            | Stmt::Do(..)
            | Stmt::For(..)
            | Stmt::Switch(..)
            | Stmt::Block(..) => {
                let mut found = Effects::default();
                self.stmt(module, stmt, false, &mut found);
                found
            }
            // `try`, `import`, `export` and whatever else Rhai may add.
            _ => Effects::UNKNOWN,
        }
    }

    /// What evaluating `e` may do.
    fn expr(&self, module: Option<&str>, e: &Expr) -> Effects {
        match e {
            Expr::FnCall(call, _) => self.call_with_args(module, call, false),
            Expr::MethodCall(call, _) => self.call_with_args(module, call, true),
            // The object, then what is called or indexed on it.
            Expr::Dot(x, _, _) | Expr::Index(x, _, _) => {
                then(self.expr(module, &x.lhs), self.expr(module, &x.rhs))
            }
            Expr::And(items, _) | Expr::Or(items, _) | Expr::Coalesce(items, _) => items
                .iter()
                .fold(Effects::NONE, |a, i| then(a, self.expr(module, i))),
            Expr::InterpolatedString(items, _) | Expr::Array(items, _) => items
                .iter()
                .fold(Effects::NONE, |a, i| then(a, self.expr(module, i))),
            Expr::Map(x, _) => {
                x.0.iter()
                    .fold(Effects::NONE, |a, (_, v)| then(a, self.expr(module, v)))
            }
            Expr::Stmt(block) => {
                let mut found = Effects::default();
                self.stmts(module, block.statements(), false, &mut found);
                found
            }
            Expr::DynamicConstant(..)
            | Expr::BoolConstant(..)
            | Expr::IntegerConstant(..)
            | Expr::FloatConstant(..)
            | Expr::CharConstant(..)
            | Expr::StringConstant(..)
            | Expr::Unit(..)
            | Expr::Variable(..)
            | Expr::ThisPtr(..)
            | Expr::Property(..) => Effects::NONE,
            _ => Effects::UNKNOWN,
        }
    }

    /// A call: its arguments in order, then the function.
    fn call_with_args(&self, module: Option<&str>, call: &FnCallExpr, method: bool) -> Effects {
        let args = call
            .args
            .iter()
            .fold(Effects::NONE, |a, arg| then(a, self.expr(module, arg)));
        then(args, self.call(module, call, method))
    }

    /// What calling `call` from a function in `module` may do: a call qualified by a module
    /// (`recall::f`) is of that module's function, an unqualified one of a function of the
    /// caller's own script, else of the API.
    fn call(&self, module: Option<&str>, call: &FnCallExpr, method: bool) -> Effects {
        let name = call.name.as_str();
        if BY_NAME.contains(&name) {
            return Effects::UNKNOWN;
        }
        if !call.namespace.is_empty() {
            let path = &call.namespace.path;
            let key = (
                Some(path[0].name.to_string()),
                name.to_string(),
                call.args.len(),
            );
            return match self.summaries.get(&key) {
                Some(&e) if path.len() == 1 => e,
                _ => Effects::UNKNOWN,
            };
        }
        let mut e = Effects {
            changes: CHANGES.contains(&name),
            refuses: REFUSES.contains(&name),
            refuses_late: false,
        };
        let own = module.map(String::from);
        let script = if method {
            self.by_name.get(&(own, name.to_string())).copied()
        } else {
            self.summaries
                .get(&(own, name.to_string(), call.args.len()))
                .copied()
        };
        if let Some(s) = script {
            e.join(s);
        }
        e
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn first(src: &str) -> Vec<String> {
        let engine = rhai::Engine::new_raw();
        let ast = engine.compile(src).expect("compiles");
        let mut names: Vec<String> = refusals_first(&ast, &[]).into_iter().map(|k| k.0).collect();
        names.sort();
        names
    }

    #[test]
    fn a_refusal_after_a_change_is_found_through_branches_loops_and_calls() {
        let src = r#"
            fn checks_then_changes(game, p) { if p > 1 { refuse("no"); } game.set("x", 1); game.set("y", 2); }
            fn changes_then_refuses(game, p) { game.set("x", 1); if p > 1 { refuse("no"); } }
            fn refuses_in_a_branch_after(game, p) { if p { game.set("x", 1); } else { } if p { refuse("a"); } }
            fn changes_on_both_arms(game, p) { if p { game.set("x", 1); } else { game.tell(p, "e", #{}); } }
            fn loop_both(game, xs) { for x in xs { if x { refuse("r"); } game.set("x", x); } }
            fn loop_change_only(game, xs) { for x in xs { game.set("x", x); } }
            fn helper_refuses(game) { refuse("h"); }
            fn helper_changes(game) { game.set("x", 1); }
            fn calls_in_order(game) { helper_refuses(game); helper_changes(game); }
            fn calls_out_of_order(game) { helper_changes(game); helper_refuses(game); }
            fn arguments_first(game, p) { game.to_pile(game.card_arg(p, 0), "d"); }
            fn an_argument_changes(game, p) { game.card_arg(p, game.random(3)); }
            fn unordered_assignment(game, p) { let xs = [0]; xs[game.random(1)] = game.card_arg(p, 0); }
            fn by_name(game) { call(Fn("helper_changes"), game); }
            fn recursive(game, n) { if n > 0 { recursive(game, n - 1); } game.set("x", n); }
            fn recursive_late(game, n) { game.set("x", n); if n > 0 { recursive_late(game, n - 1); } refuse("r"); }
            fn imports(game) { import "x" as y; game.set("a", 1); }
            fn switch_arms(game, k) { switch k { 1 => { refuse("one"); } 2 => { game.set("x", 2); } } }
        "#;
        assert_eq!(
            first(src),
            [
                "arguments_first",
                "calls_in_order",
                "changes_on_both_arms",
                "checks_then_changes",
                "helper_changes",
                "helper_refuses",
                "loop_change_only",
                "recursive",
                "switch_arms",
            ]
        );
    }
}
