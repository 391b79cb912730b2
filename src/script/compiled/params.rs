//! Which parameters a function leaves as it was given them, so that a caller can lend it a local
//! variable for the call (moved into the callee's slot, and back after) instead of a copy: the
//! same values either way, without copying and dropping a map or a boxed card per call.

use super::ops::READS_ONLY;
use rhai::{AST, ASTNode, Expr, FnCallExpr, Module, ScriptFuncDef, Shared, Stmt};

/// What a function does with its parameters, one bit a parameter (the first 64).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct ParamUse {
    /// Never assigned (`p = …`, `p.x = …`, `p[i] += …`), never the first argument of a call that
    /// is not a script function's or an operator (Rhai passes that variable itself, and `push`
    /// changes it), and never the receiver of `take` or `set_tag` (which change any value).
    pub(crate) kept: u64,
    /// No method called on it or inside it (`p.push(…)`, `p.list.pop()`): the methods of arrays,
    /// maps and strings may change them. (A method of the game, a view, a card or a player never
    /// changes it: the API's entries leave their first argument as it is.)
    pub(crate) no_methods: u64,
    /// No method called on it or inside it but `p.len()`, `p.is_empty()` and `p.contains(x)`
    /// on the parameter itself, which change no value but a map (whose entry of that name may be
    /// a function pointer, called with the map as its `this`).
    pub(crate) reads_only: u64,
}

/// What the methods a function calls on a value could do to it, as far as lending it goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Methods {
    /// None changes it: the game, a bot's view, a card, a player.
    ChangeNothing,
    /// Only a method that changes values by its name (`push`, not `len`) changes it: any value
    /// but a map.
    ByName,
    /// Any method may: a map, or a value not known.
    Any,
}

impl ParamUse {
    /// Whether argument `i` may be lent, given what methods could do to its value.
    #[inline]
    pub(crate) fn lends(&self, i: usize, value: impl FnOnce() -> Methods) -> bool {
        let bit = 1u64.checked_shl(i as u32).unwrap_or(0);
        self.kept & bit != 0
            && (self.no_methods & bit != 0
                || match value() {
                    Methods::ChangeNothing => true,
                    Methods::ByName => self.reads_only & bit != 0,
                    Methods::Any => false,
                })
    }
}

/// Methods of the standard library that change any value they are called on.
const CHANGES_ANY_VALUE: [&str; 2] = ["take", "set_tag"];

/// How `def` uses its parameters; `is_script_call` tells a call of a script function (which gets
/// copies of its arguments) from a native one.
pub(super) fn param_use(
    def: &Shared<ScriptFuncDef>,
    is_script_call: &dyn Fn(&FnCallExpr) -> bool,
) -> ParamUse {
    let n = def.params.len().min(64);
    let all = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
    let mut uses = ParamUse {
        kept: all,
        no_methods: all,
        reads_only: all,
    };
    let bit = |name: Option<&str>| -> u64 {
        name.and_then(|name| def.params.iter().take(n).position(|p| p.as_str() == name))
            .map_or(0, |i| 1u64 << i)
    };
    let mut module = Module::new();
    module.set_script_fn(def.clone());
    let alone = AST::new(Vec::<Stmt>::new(), module);
    alone.walk(&mut |path: &[ASTNode]| {
        match path.last() {
            Some(ASTNode::Stmt(Stmt::Assignment(x))) => uses.kept &= !bit(root(&x.1.lhs)),
            Some(ASTNode::Expr(node @ (Expr::Dot(x, ..) | Expr::Index(x, ..)))) => {
                let receiver = bit(root(&x.lhs));
                if receiver != 0 {
                    let mut methods = false;
                    let mut changing = false;
                    x.rhs.walk(&mut Vec::new(), &mut |inner: &[ASTNode]| {
                        if let Some(ASTNode::Expr(Expr::MethodCall(call, _))) = inner.last() {
                            methods = true;
                            changing |= CHANGES_ANY_VALUE.contains(&call.name.as_str());
                        }
                        true
                    });
                    if methods {
                        uses.no_methods &= !receiver;
                        // Its methods in the arguments (`p.contains(p.pop())`) are nodes of
                        // their own, seen by this walk too.
                        let reads = matches!((node, &x.lhs, &x.rhs),
                            (Expr::Dot(..), Expr::Variable(..), Expr::MethodCall(call, _))
                                if READS_ONLY.contains(&call.name.as_str()));
                        if !reads {
                            uses.reads_only &= !receiver;
                        }
                    }
                    if changing {
                        uses.kept &= !receiver;
                    }
                }
            }
            // A call in an expression, or a statement of its own.
            Some(ASTNode::Expr(Expr::FnCall(call, _)) | ASTNode::Stmt(Stmt::FnCall(call, _)))
                if !call.is_operator_call() && !is_script_call(call) =>
            {
                if let Some(Expr::Variable(v, ..)) = call.args.first()
                    && v.2.is_empty()
                {
                    uses.kept &= !bit(Some(v.1.as_str()));
                }
            }
            _ => {}
        }
        true
    });
    uses
}

/// The variable a chain starts from (`p` of `p.list[0]`), if it starts from a plain variable.
fn root(e: &Expr) -> Option<&str> {
    match e {
        Expr::Variable(v, ..) if v.2.is_empty() => Some(v.1.as_str()),
        Expr::Dot(x, ..) | Expr::Index(x, ..) => root(&x.lhs),
        _ => None,
    }
}

/// Whether `e` names the variable `name` anywhere inside it.
pub(super) fn mentions(e: &Expr, name: &str) -> bool {
    let mut found = false;
    e.walk(&mut Vec::new(), &mut |path: &[ASTNode]| {
        if let Some(ASTNode::Expr(Expr::Variable(v, ..))) = path.last()
            && v.1 == name
        {
            found = true;
        }
        !found
    });
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn uses(script: &str) -> ParamUse {
        let engine = rhai::Engine::new_raw();
        let ast = engine.compile(script).unwrap();
        let def = ast.iter_fn_def().next().unwrap().clone();
        param_use(&def, &|call| call.name == "helper")
    }

    #[test]
    fn what_keeps_a_parameter_and_what_does_not() {
        // Read, indexed, a property, an operand, passed to a script function or as a later
        // argument: kept, no methods.
        let u = uses("fn f(a, b, c, d) { let x = a.k + b[0]; helper(c, 1); g(1, d); a == b }");
        assert_eq!((u.kept, u.no_methods), (0b1111, 0b1111));
        // Assigned, in part or whole, or passed first to a native function: not kept.
        let u = uses("fn f(a, b, c, d) { a = 1; b.k = 2; c[0] += 3; push(d, 4); }");
        assert_eq!(u.kept, 0);
        let u = uses("fn f(a) { let n = len(a); n }");
        assert_eq!(u.kept, 0);
        // A method on it or inside it: kept, but with methods; `take` and `set_tag`: not kept.
        let u = uses("fn f(a, b, c, d) { a.push(1); b.list.pop(); c.take(); d.x.set_tag(1); }");
        assert_eq!((u.kept, u.no_methods), (0b0011, 0));
        // A method anywhere in a chain counts against its root too (`b.len()` inside `a[…]`).
        let u = uses("fn f(a, b) { a[b.len()] }");
        assert_eq!((u.kept, u.no_methods), (0b11, 0));
    }

    #[test]
    fn reading_methods_on_the_parameter_itself_only_read() {
        // `len`, `is_empty` and `contains` on the parameter itself, whatever their arguments do
        // to other values.
        let u = uses("fn f(a, b, c) { a.len() + b.is_empty() + c.contains(a.pop()) }");
        assert_eq!((u.kept, u.no_methods, u.reads_only), (0b111, 0, 0b110));
        // Inside it, after another link, beside another method, or indexed by a method: not.
        let u = uses(
            "fn f(a, b, c, d) { a.x.len(); b[0].contains(1); c.len(); c.push(1); d[d.len()] }",
        );
        assert_eq!((u.kept, u.no_methods, u.reads_only), (0b1111, 0, 0));
        // As a function call (`len(a)`), the parameter is passed itself: not kept.
        let u = uses("fn f(a) { len(a) }");
        assert_eq!((u.kept, u.reads_only), (0, 0b1));
    }

    #[test]
    fn lending_needs_kept_and_no_methods_that_could_change_the_value() {
        let u = ParamUse {
            kept: 0b0111,
            no_methods: 0b0101,
            reads_only: 0b0111,
        };
        use Methods::*;
        assert!(u.lends(0, || Any));
        assert!(!u.lends(1, || Any) && u.lends(1, || ByName) && u.lends(1, || ChangeNothing));
        assert!(!u.lends(3, || ChangeNothing));
        assert!(!u.lends(64, || ChangeNothing));
        let u = ParamUse {
            kept: 0b1,
            no_methods: 0,
            reads_only: 0,
        };
        assert!(!u.lends(0, || ByName) && u.lends(0, || ChangeNothing));
    }
}
