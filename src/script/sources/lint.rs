//! Static checks of compiled scripts: for `deckspec check`, every call of a function that is
//! neither the game API, nor a bot-view function, nor defined in the scripts, nor a Rhai
//! built-in, with where it is written and a did-you-mean; every name written as a literal (a
//! pile, phase, variable, event or house rule passed to the game API) that the variant does not
//! declare; at load, an assignment that would change a constant Rhai has folded into its value.

use super::super::host::error::SourceDiagnostic;
use super::super::host::natives::Native;
use crate::kernel::Table;
use rhai::{AST, ASTNode, Engine, Expr, Position, Stmt};
use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::path::Path;

/// Functions Rhai provides as keywords rather than as registered functions.
const KEYWORD_FUNCTIONS: &[&str] = &[
    "print",
    "debug",
    "type_of",
    "Fn",
    "call",
    "curry",
    "is_shared",
    "is_def_var",
    "is_def_fn",
];

/// The names of every function an engine knows (its API, Rhai's packages, its static modules'
/// functions without their `module::` prefix are left out: namespaced calls are not checked).
pub(super) fn engine_functions(engine: &Engine) -> HashSet<String> {
    let mut names: HashSet<String> = engine
        .gen_fn_signatures(true)
        .iter()
        .filter_map(|s| {
            let s = s.strip_prefix("fn ").unwrap_or(s);
            let name = s.split('(').next()?;
            (!name.contains("::")).then(|| name.to_string())
        })
        .collect();
    names.extend(KEYWORD_FUNCTIONS.iter().map(|s| s.to_string()));
    names
}

/// Every function name the scripts call (`game.suit(c)` counts as `suit`), and every name a
/// string literal holds, since `Fn("suit")` and `call` reach a function by its name as text.
pub(crate) fn called_names<'a>(asts: impl IntoIterator<Item = &'a AST>) -> HashSet<String> {
    let mut names = HashSet::new();
    for ast in asts {
        ast.walk(&mut |nodes: &[ASTNode]| {
            match nodes.last() {
                Some(ASTNode::Expr(Expr::FnCall(call, _) | Expr::MethodCall(call, _))) => {
                    names.insert(call.name.to_string());
                }
                Some(ASTNode::Expr(Expr::StringConstant(text, _))) => {
                    names.insert(text.to_string());
                }
                _ => {}
            }
            true
        });
    }
    names
}

/// Calls in `ast` (compiled from `path`) of functions neither in `known` nor defined in
/// `defined`: one diagnostic per call, at its line and column.
pub(crate) fn unknown_calls(
    ast: &AST,
    path: &Path,
    src: &str,
    known: &HashSet<String>,
    defined: &HashSet<String>,
) -> Vec<SourceDiagnostic> {
    let mut found = Vec::new();
    ast.walk(&mut |nodes: &[ASTNode]| {
        let Some(ASTNode::Expr(expr)) = nodes.last() else {
            return true;
        };
        let (call, pos, method) = match expr {
            Expr::FnCall(call, pos) => (call, *pos, false),
            Expr::MethodCall(call, pos) => (call, *pos, true),
            _ => return true,
        };
        let name = call.name.as_str();
        let is_identifier = name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        if call.op_token.is_some()
            || !call.namespace.is_empty()
            || !is_identifier
            || known.contains(name)
            || defined.contains(name)
        {
            return true;
        }
        found.push((name.to_string(), pos, method));
        true
    });
    found
        .into_iter()
        .map(|(name, pos, method)| {
            let types = if method { "Game" } else { "" };
            let message = match super::super::host::api::explain_missing(&format!("{name} ({types})")) {
                Some(text) if method => format!("{text} (no script defines it)"),
                _ => {
                    let help = super::super::host::error::suggest(
                        &name,
                        defined.iter().chain(known.iter()).map(String::as_str),
                    );
                    format!(
                        "`{name}` is not a function: no script defines it, and it is neither the game API nor a Rhai built-in{help}"
                    )
                }
            };
            SourceDiagnostic::at_line(
                path,
                src,
                pos.line().unwrap_or(1),
                pos.position().unwrap_or(1),
                message,
                "unknown function",
            )
        })
        .collect()
}

/// Names written as string literals where a kernel function of `tables` takes a name (`game.get(
/// "out_player")`, `game.top("discard")`) that `table` does not declare: one diagnostic each, at
/// the literal, with a did-you-mean. A name the script computes is checked when it runs.
pub(super) fn unknown_literal_names(
    ast: &AST,
    path: &Path,
    src: &str,
    table: &Table,
    tables: &[&[Native]],
) -> Vec<SourceDiagnostic> {
    let mut found = Vec::new();
    ast.walk(&mut |nodes: &[ASTNode]| {
        let Some(ASTNode::Expr(expr)) = nodes.last() else {
            return true;
        };
        // A method call's arguments leave out its receiver, which the entry counts as 0.
        let (call, receiver) = match expr {
            Expr::FnCall(call, _) => (call, 0),
            Expr::MethodCall(call, _) => (call, 1),
            _ => return true,
        };
        if !call.namespace.is_empty() {
            return true;
        }
        let arity = call.args.len() + receiver;
        let named = tables
            .iter()
            .flat_map(|t| t.iter())
            .filter(|n| n.name == call.name.as_str() && n.params.len() == arity)
            .find_map(|n| n.named.as_ref());
        let Some(named) = named else {
            return true;
        };
        let Some(Expr::StringConstant(text, pos)) = named
            .arg
            .checked_sub(receiver)
            .and_then(|i| call.args.get(i))
        else {
            return true;
        };
        if named.kind.lookup(table, text).is_none() {
            found.push((text.to_string(), *pos, named.kind));
        }
        true
    });
    found
        .into_iter()
        .map(|(text, pos, kind)| {
            let help = super::super::host::error::suggest(&text, kind.declared(table));
            SourceDiagnostic::at_line(
                path,
                src,
                pos.line().unwrap_or(1),
                pos.position().unwrap_or(1),
                format!(
                    "`{text}` is not {} of {}{help}",
                    kind.describe(),
                    table.variant
                ),
                "not declared in variant.yaml",
            )
        })
        .collect()
}

/// The fields each event's payload is written with: for every call of `broadcast` or `tell` that
/// names its event as a literal and writes its payload as a map literal, the map's keys. A
/// payload the script builds elsewhere is not seen.
pub(crate) fn event_fields<'a>(
    asts: impl IntoIterator<Item = &'a AST>,
) -> BTreeMap<String, BTreeSet<String>> {
    let mut out: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for ast in asts {
        ast.walk(&mut |nodes: &[ASTNode]| {
            let Some(ASTNode::Expr(Expr::MethodCall(call, _))) = nodes.last() else {
                return true;
            };
            // `game.broadcast("e", #{…})`, `game.tell(p, "e", #{…})`: the arguments after the
            // receiver.
            let (event, payload) = match (call.name.as_str(), &call.args[..]) {
                ("broadcast", [e, p]) | ("tell", [_, e, p]) => (e, p),
                _ => return true,
            };
            let Expr::StringConstant(event, _) = event else {
                return true;
            };
            let fields = out.entry(event.to_string()).or_default();
            match payload {
                Expr::Map(map, _) => fields.extend(map.0.iter().map(|(k, _)| k.name.to_string())),
                Expr::DynamicConstant(value, _) => {
                    if let Some(map) = value.read_lock::<rhai::Map>() {
                        fields.extend(map.keys().map(|k| k.to_string()));
                    }
                }
                _ => {}
            }
            true
        });
    }
    out
}

/// What a script is told when it changes a constant's property or item.
pub(crate) const CONSTANT_CHANGED: &str = "a `const` cannot be changed, not even a property or an item of it: declare it with `let` to change it";

/// Where `ast` assigns to a property or an item of a constant whose value Rhai's optimizer
/// put in the variable's place (`const m = #{}; m.x = 1` becomes `#{}.x = 1`): Rhai's
/// interpreter stops at an unreachable branch there, so such a script is refused at load. A
/// constant Rhai did not fold (`const a = [1] + []`) stays a variable, and changing it is the
/// run-time error `Cannot modify constant`.
pub(crate) fn folded_constant_assignment(ast: &AST) -> Option<Position> {
    let mut found = None;
    ast.walk(&mut |nodes: &[ASTNode]| {
        if let Some(ASTNode::Stmt(Stmt::Assignment(x))) = nodes.last() {
            let mut root = &x.1.lhs;
            while let Expr::Dot(link, ..) | Expr::Index(link, ..) = root {
                root = &link.lhs;
            }
            if !matches!(root, Expr::Variable(..) | Expr::ThisPtr(..)) {
                found = Some(x.1.lhs.position());
                return false;
            }
        }
        true
    });
    found
}
