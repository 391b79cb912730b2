//! What Rhai's interpreter counts for a statement or an expression, as far as its syntax tree
//! says (OPERATIONS.md): the compiled engine charges a statement's count before it runs it, and
//! adds the counts that depend on values (an operator on types without a built-in, a text
//! joined from a value that is not text, a loop's rounds, the operands `&&` and `||` reach)
//! where it finds them out.

use super::build::Compiler;
use rhai::{ASTFlags, Expr, FnCallExpr, Stmt};

impl Compiler<'_> {
    /// The operations Rhai counts for `stmt` whatever the values, up to the blocks it runs
    /// (which count their own statements) and the operands it may not reach.
    pub(super) fn stmt_cost(&self, stmt: &Stmt) -> u64 {
        1 + match stmt {
            Stmt::Expr(e) => match &**e {
                // A block's first statement is counted with it; the others count themselves.
                Expr::Stmt(block) => 1 + self.first_cost(block.statements()),
                e => self.expr_cost(e),
            },
            Stmt::Block(block) => self.first_cost(block.statements()),
            // The optimizer's form of a call statement: no count for the call as an expression.
            Stmt::FnCall(call, _) => self.call_cost(call),
            Stmt::Var(x, ..) => self.expr_cost(&x.1),
            Stmt::Assignment(x) => {
                let lhs = &x.1.lhs;
                let rhs = self.expr_cost(&x.1.rhs);
                match lhs {
                    Expr::Index(..) | Expr::Dot(..) => rhs + self.chain_cost(lhs, true),
                    _ => rhs + 1,
                }
            }
            Stmt::If(x, _) => self.expr_cost(&x.expr),
            Stmt::Switch(x, _) => self.expr_cost(&x.0),
            Stmt::For(x, _) => self.expr_cost(&x.2.expr),
            Stmt::BreakLoop(Some(e), ..) | Stmt::Return(Some(e), ..) => self.expr_cost(e),
            _ => 0,
        }
    }

    /// The operations Rhai counts evaluating `e` whatever the values (C(e) of OPERATIONS.md),
    /// up to the blocks it runs and the operands it may not reach.
    pub(super) fn expr_cost(&self, e: &Expr) -> u64 {
        match e {
            Expr::InterpolatedString(parts, _) => {
                1 + parts.iter().map(|p| self.expr_cost(p)).sum::<u64>()
            }
            Expr::Array(items, _) => 1 + items.iter().map(|i| self.expr_cost(i)).sum::<u64>(),
            Expr::Map(x, _) => 1 + x.0.iter().map(|(_, v)| self.expr_cost(v)).sum::<u64>(),
            // The first operand is always evaluated; the others when reached.
            Expr::And(list, _) | Expr::Or(list, _) | Expr::Coalesce(list, _) => {
                1 + list.first().map_or(0, |first| self.expr_cost(first))
            }
            Expr::FnCall(call, _) => 1 + self.call_cost(call),
            Expr::Index(..) | Expr::Dot(..) => self.chain_cost(e, false),
            // A block's first statement is counted with it; the others count themselves.
            Expr::Stmt(block) => 1 + self.first_cost(block.statements()),
            _ => 1,
        }
    }

    /// An argument: a literal counts one, whatever it holds.
    fn arg_cost(&self, e: &Expr) -> u64 {
        if e.get_literal_value(None).is_some() {
            1
        } else {
            self.expr_cost(e)
        }
    }

    fn args_cost(&self, args: &[Expr]) -> u64 {
        args.iter().map(|a| self.arg_cost(a)).sum()
    }

    /// A call after its own count as an expression: its arguments, and the native function's
    /// count (a script function's is its call's, `Frame::enter`; an operator's depends on the
    /// values' types, `ops::binary`).
    fn call_cost(&self, call: &FnCallExpr) -> u64 {
        let args = self.args_cost(&call.args);
        if call.op_token.is_some() {
            return args;
        }
        if !call.namespace.is_empty() {
            // A module's native function is called without a count.
            return args;
        }
        let name = call.name.as_str();
        let syntactic = matches!(
            (name, call.args.len()),
            ("type_of", 1) | ("is_def_fn", 2..=3)
        ) || matches!((name, call.args.len()), ("Fn", 1) | ("is_def_var", 1));
        if syntactic || self.is_script_fn(name, call.args.len()) {
            args
        } else {
            args + 1
        }
    }

    /// A chain (`a[i]`, `m.k`, `x.f(y)`, …) read, or assigned to (`assign`: the statement
    /// counts itself, not the chain as an expression).
    fn chain_cost(&self, e: &Expr, assign: bool) -> u64 {
        let (x, is_index) = match e {
            Expr::Index(x, ..) => (x, true),
            Expr::Dot(x, ..) => (x, false),
            _ => return self.expr_cost(e),
        };
        let rhs = &x.rhs;
        let arguments = match (rhs, is_index) {
            (Expr::Property(..), false) => 0,
            (_, true) if rhs.get_literal_value(None).is_some() => 0,
            (Expr::MethodCall(call, _), false) if call.args.is_empty() => 0,
            _ => self.chain_args_cost(e, rhs),
        };
        let root = match &x.lhs {
            Expr::Variable(..) | Expr::ThisPtr(..) => 1,
            lhs => self.expr_cost(lhs),
        };
        u64::from(!assign) + arguments + root + self.chain_walk_cost(e, rhs)
    }

    /// `eval_dot_index_chain_arguments(parent, e)`.
    fn chain_args_cost(&self, parent: &Expr, e: &Expr) -> u64 {
        let parent_is_index = matches!(parent, Expr::Index(..));
        let parent_breaks = parent.options().intersects(ASTFlags::BREAK);
        1 + match e {
            Expr::MethodCall(call, _) if !parent_is_index => self.args_cost(&call.args),
            Expr::Property(..) if !parent_is_index => 0,
            Expr::Index(x, ..) | Expr::Dot(x, ..) if !parent_breaks => {
                let left = match (&x.lhs, parent_is_index) {
                    (Expr::Property(..), false) => 0,
                    (Expr::MethodCall(call, _), false) => self.args_cost(&call.args),
                    (lhs, _) => self.expr_cost(lhs),
                };
                left + self.chain_args_cost(e, &x.rhs)
            }
            e => self.expr_cost(e),
        }
    }

    /// `eval_dot_index_chain_raw(parent, rhs)`, the counts that do not depend on the values.
    fn chain_walk_cost(&self, parent: &Expr, rhs: &Expr) -> u64 {
        let parent_breaks = parent.options().intersects(ASTFlags::BREAK);
        match parent {
            Expr::Index(..) => match rhs {
                Expr::Index(x, ..) | Expr::Dot(x, ..) if !parent_breaks => {
                    1 + self.chain_walk_cost(rhs, &x.rhs)
                }
                _ => 1,
            },
            _ => match rhs {
                Expr::MethodCall(call, _) => self.method_cost(call),
                Expr::Index(x, ..) | Expr::Dot(x, ..) => {
                    let link = match &x.lhs {
                        Expr::MethodCall(call, _) => self.method_cost(call),
                        _ => 1,
                    };
                    link + self.chain_walk_cost(rhs, &x.rhs)
                }
                _ => 1,
            },
        }
    }

    /// A method call's own count: a native function's one (a script function's is its call's).
    fn method_cost(&self, call: &FnCallExpr) -> u64 {
        let name = call.name.as_str();
        if name == "type_of" && call.args.is_empty() {
            return 0;
        }
        u64::from(!self.is_script_method(name, call.args.len()))
    }
}
