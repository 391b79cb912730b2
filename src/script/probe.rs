//! Statement coverage of rule scripts, for `deckspec coverage`: a probe on the engine (Rhai's
//! debugging interface) counts every node a hook runs, by script file and position; and each
//! rule script's map (its functions, statements and branches, from the compiled syntax tree) says
//! which of those positions are statements and which branch arms they begin.

use super::host::error::VariantError;
use super::host::tokens::{FnSpan, fn_spans};
use super::variant::{EngineObserver, Variant};
use rhai::debugger::{DebuggerCommand, DebuggerEvent};
use rhai::{AST, ASTNode, Engine, Expr, ImmutableString, Stmt};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// A place in a script: 1-based line and column (in characters), as Rhai counts them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
pub struct Point {
    /// The line.
    pub line: u32,
    /// The column.
    pub column: u32,
}

impl Point {
    fn of(pos: rhai::Position) -> Option<Point> {
        let line = u32::try_from(pos.line()?).ok()?;
        let column = u32::try_from(pos.position()?).ok()?;
        Some(Point { line, column })
    }
}

/// Times each node ran, by file (as the variant's sources name it) and position.
pub type Hits = HashMap<(String, Point), u64>;

/// Counts by Rhai source name (empty for none), calling function and position, until resolved
/// to files.
type RawHits = HashMap<String, HashMap<(ImmutableString, Point), u64>>;

/// Times each node ran, by the addresses of its source's and function's names and its position.
type NodeCounts = HashMap<(usize, usize, Point), u64, ahash::RandomState>;

/// What the engine's debugger callback records into: one per probed variant.
#[derive(Default)]
pub(crate) struct Probe {
    raw: Mutex<Counts>,
}

/// Counts by the addresses of the source's name and the function's name (hashed as numbers: a
/// probe runs for every node, and hashing the names' text each time costs more than the node),
/// with the names kept beside them.
#[derive(Default)]
struct Counts {
    counts: NodeCounts,
    /// While a try runs (an action, which the rules may refuse): what it has counted so far.
    trying: Option<NodeCounts>,
    /// What refused tries counted (in `counts` too).
    refused: NodeCounts,
    /// By address: each source's name, copied when first seen.
    sources: HashMap<usize, String, ahash::RandomState>,
    /// By address: each function's name, kept (so that no other name takes its address).
    functions: HashMap<usize, ImmutableString, ahash::RandomState>,
}

impl Probe {
    fn record(&self, source: Option<&str>, function: ImmutableString, at: Point) {
        let source = source.unwrap_or_default();
        let key = (source.as_ptr() as usize, function.as_ptr() as usize, at);
        let mut raw = self.raw.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(trying) = &mut raw.trying {
            *trying.entry(key).or_default() += 1;
        }
        match raw.counts.entry(key) {
            std::collections::hash_map::Entry::Occupied(mut count) => *count.get_mut() += 1,
            std::collections::hash_map::Entry::Vacant(count) => {
                count.insert(1);
                raw.sources
                    .entry(key.0)
                    .or_insert_with(|| source.to_string());
                raw.functions.entry(key.1).or_insert(function);
            }
        }
    }

    /// Everything counted since the last call, and what refused tries counted of it.
    fn take(&self) -> (RawHits, RawHits) {
        let counts = std::mem::take(&mut *self.raw.lock().unwrap_or_else(|e| e.into_inner()));
        let resolve = |nodes: NodeCounts| {
            let mut out = RawHits::new();
            for ((source, function, at), n) in nodes {
                let (Some(source), Some(function)) =
                    (counts.sources.get(&source), counts.functions.get(&function))
                else {
                    continue;
                };
                *out.entry(source.clone())
                    .or_default()
                    .entry((function.clone(), at))
                    .or_default() += n;
            }
            out
        };
        (resolve(counts.counts), resolve(counts.refused))
    }
}

impl EngineObserver for Probe {
    /// Make the engine report every node it evaluates to this probe (it then runs a few times
    /// slower: for coverage runs only).
    fn attach(self: Arc<Self>, engine: &mut Engine) {
        attach(engine, self);
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }

    fn try_begins(&self) {
        let mut raw = self.raw.lock().unwrap_or_else(|e| e.into_inner());
        raw.trying = Some(NodeCounts::default());
    }

    fn try_ends(&self, refused: bool) {
        let mut raw = self.raw.lock().unwrap_or_else(|e| e.into_inner());
        // `None` from here: no try runs.
        let Some(trying) = raw.trying.take() else {
            return;
        };
        if refused {
            for (key, n) in trying {
                *raw.refused.entry(key).or_default() += n;
            }
        }
    }
}

fn attach(engine: &mut Engine, probe: Arc<Probe>) {
    #[allow(deprecated)] // Rhai marks the debugging interface volatile, not deprecated
    engine.register_debugger(
        |_, debugger| debugger,
        move |context, event, _node, source, pos| {
            // Only the step onto a node counts: the same call also reports the exit from each
            // native function, at the call's position.
            let onto_node = matches!(event, DebuggerEvent::Step | DebuggerEvent::Start);
            if let (true, Some(at)) = (onto_node, Point::of(pos)) {
                let function = context
                    .global_runtime_state()
                    .debugger()
                    .call_stack()
                    .last()
                    .map(|frame| frame.fn_name.clone())
                    .unwrap_or_default();
                probe.record(source, function, at);
            }
            Ok(DebuggerCommand::StepInto)
        },
    );
}

/// How an `if` or `switch` went: one arm of a branch point.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Arm {
    /// `then`, `else`, a case as written (`"7" | "8"`), `_`, or `no case`.
    pub label: String,
    /// Where its first node is: it ran as often as that node. `None` for an arm with nothing in
    /// it (a missing `else`, no matching case): it ran as often as the branch point minus the
    /// other arms.
    pub first: Option<Point>,
}

/// An `if` or a `switch` and its arms.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Branch {
    /// The `if` or `switch` keyword.
    pub at: Point,
    /// `if` or `switch`.
    pub kind: &'static str,
    /// Its arms, in source order.
    pub arms: Vec<Arm>,
}

/// What of a rule script can run: its functions, statements and branch points.
#[derive(Clone, Debug)]
pub struct ScriptMap {
    /// The file, as loaded.
    pub path: PathBuf,
    /// Its text.
    pub source: String,
    /// Its top-level functions.
    pub functions: Vec<FnSpan>,
    /// Where each statement inside a function starts, sorted.
    pub statements: Vec<Point>,
    /// Its `if`s and `switch`es, sorted.
    pub branches: Vec<Branch>,
}

/// Where the first node of a block runs, looking into nested blocks.
fn first_of(statements: &[Stmt]) -> Option<Point> {
    for s in statements {
        match s {
            Stmt::Noop(..) => continue,
            Stmt::Block(block, ..) => return first_of(block.statements()),
            Stmt::Expr(e) => return first_of_expr(e),
            other => return Point::of(other.position()),
        }
    }
    None
}

fn first_of_expr(e: &Expr) -> Option<Point> {
    match e {
        Expr::Stmt(block) => first_of(block.statements()),
        other => Point::of(other.position()),
    }
}

/// A switch case as written, `"7" | "8"`: the text before the last `=>` ahead of the case's
/// first node, on that arrow's line.
fn case_label(source: &str, first: Option<Point>) -> Option<String> {
    let first = first?;
    let line_start: usize = source
        .split_inclusive('\n')
        .take(usize::try_from(first.line).ok()?.checked_sub(1)?)
        .map(str::len)
        .sum();
    let line = &source[line_start..];
    let column = usize::try_from(first.column).ok()?.checked_sub(1)?;
    let offset = line_start
        + line
            .char_indices()
            .nth(column)
            .map_or(line.len(), |(i, _)| i);
    let arrow = source[..offset].rfind("=>")?;
    let arrow_line = source[..arrow].rfind('\n').map_or(0, |i| i + 1);
    let label = source[arrow_line..arrow].trim();
    (!label.is_empty() && label.chars().count() <= 40).then(|| label.to_string())
}

/// The statements and branch points of the functions of a compiled script.
fn analyse(ast: &AST, source: &str) -> (Vec<Point>, Vec<Branch>) {
    let mut statements = Vec::new();
    let mut branches = Vec::new();
    ast.clone_functions_only().walk(&mut |path: &[ASTNode]| {
        let Some(ASTNode::Stmt(stmt)) = path.last() else {
            return true;
        };
        match stmt {
            Stmt::Noop(..) | Stmt::Block(..) => {}
            Stmt::Expr(e) if matches!(**e, Expr::Stmt(..)) => {}
            other => statements.extend(Point::of(other.position())),
        }
        let Some(at) = Point::of(stmt.position()) else {
            return true;
        };
        let arms = match stmt {
            Stmt::If(flow, ..) => vec![
                Arm {
                    label: "then".into(),
                    first: first_of(flow.body.statements()),
                },
                Arm {
                    label: "else".into(),
                    first: first_of(flow.branch.statements()),
                },
            ],
            Stmt::Switch(x, ..) => {
                let (_, cases) = &**x;
                let mut indices: Vec<usize> = cases
                    .cases
                    .values()
                    .flat_map(|list| list.blocks.iter().copied())
                    .chain(cases.ranges.iter().map(|r| r.index()))
                    .collect();
                indices.sort_unstable();
                indices.dedup();
                let mut arms: Vec<Arm> = indices
                    .into_iter()
                    .filter_map(|i| cases.expressions.get(i))
                    .map(|case| {
                        let first = first_of_expr(&case.rhs);
                        Arm {
                            label: case_label(source, first).unwrap_or_else(|| {
                                format!("case at line {}", first.map_or(at.line, |p| p.line))
                            }),
                            first,
                        }
                    })
                    .collect();
                arms.sort_by_key(|a| a.first);
                arms.push(
                    match cases.def_case.and_then(|i| cases.expressions.get(i)) {
                        Some(default) => Arm {
                            label: "_".into(),
                            first: first_of_expr(&default.rhs),
                        },
                        None => Arm {
                            label: "no case".into(),
                            first: None,
                        },
                    },
                );
                arms
            }
            _ => return true,
        };
        // Arms without a first node are told apart only by subtraction: one at most.
        if arms.iter().filter(|a| a.first.is_none()).count() <= 1 {
            branches.push(Branch {
                at,
                kind: if matches!(stmt, Stmt::If(..)) {
                    "if"
                } else {
                    "switch"
                },
                arms,
            });
        }
        true
    });
    statements.sort_unstable();
    statements.dedup();
    branches.sort_by_key(|b| b.at);
    branches.dedup_by_key(|b| b.at);
    (statements, branches)
}

impl Variant {
    /// Load `rules_dir/<name>/` with a probe that counts every script node its hooks run, for
    /// coverage (`take_hits`). Its hooks run a few times slower than a plain variant's.
    pub fn load_named_probed(rules_dir: &Path, name: &str) -> Result<Variant, VariantError> {
        Variant::load_named_observed(rules_dir, name, Arc::new(Probe::default()))
    }

    /// The map of each rule script and module (not bots) of the variant, a base's included.
    pub fn script_maps(&self) -> Vec<ScriptMap> {
        self.rule_scripts()
            .into_iter()
            .filter_map(|(path, source)| {
                // The variant loaded, so its scripts compile.
                let ast = self.engine().compile(&source).ok()?;
                let (statements, branches) = analyse(&ast, &source);
                Some(ScriptMap {
                    functions: fn_spans(&source),
                    path,
                    source,
                    statements,
                    branches,
                })
            })
            .collect()
    }

    /// Whether this variant was loaded with a probe (`load_named_probed`).
    pub fn is_probed(&self) -> bool {
        self.observer().is_some_and(|o| o.as_any().is::<Probe>())
    }

    /// The counts the probe has gathered since the last call, by file: a node of an inherited
    /// function or of a module counts in the file it is written in. Empty without a probe.
    pub fn take_hits(&self) -> Hits {
        self.take_hits_split().0
    }

    /// The counts since the last call, as `take_hits`, and the part of them that actions the
    /// rules refused ran (what a try that changed nothing ran, for telling the rules' play).
    pub fn take_hits_split(&self) -> (Hits, Hits) {
        let Some(probe) = self
            .observer()
            .and_then(|o| o.as_any().downcast_ref::<Probe>())
        else {
            return (Hits::new(), Hits::new());
        };
        let (all, refused) = probe.take();
        (self.by_file(all), self.by_file(refused))
    }

    fn by_file(&self, raw: RawHits) -> Hits {
        let mut hits = Hits::new();
        for (source, by_function) in raw {
            for ((function, at), count) in by_function {
                let Some(path) = self.file_of(&source, &function) else {
                    continue; // an `import`ed file outside the variant's scripts
                };
                *hits.entry((path.display().to_string(), at)).or_default() += count;
            }
        }
        hits
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each arm's label and the line of its first node.
    type Arms = Vec<(String, Option<u32>)>;

    fn arms(b: &Branch) -> Arms {
        b.arms
            .iter()
            .map(|a| (a.label.clone(), a.first.map(|p| p.line)))
            .collect()
    }

    #[test]
    fn statements_and_arms_of_ifs_switches_and_loops() {
        let source = r#"let top = 1;
fn f(x) {
    let y = if x > 1 { 2 } else { 3 };
    if x == 1 {
        g();
    } else if x == 2 {
    } else {
        { h(); }
    }
    for i in 0..x { g(); }
    switch x {
        1 | 2 => g(),
        3 => {}
    }
}
fn f(x, z) { x + z }
"#;
        let ast = Engine::new_raw().compile(source).unwrap();
        let (statements, branches) = analyse(&ast, source);
        let lines: Vec<u32> = statements.iter().map(|p| p.line).collect();
        // Top-level code is no hook's: not counted. Line 3 holds four: `let`, `if`, `2`, `3`.
        assert_eq!(lines, vec![3, 3, 3, 3, 4, 5, 6, 8, 10, 10, 11, 16]);
        let shown: Vec<(u32, &str, Arms)> = branches
            .iter()
            .map(|b| (b.at.line, b.kind, arms(b)))
            .collect();
        assert_eq!(
            shown,
            vec![
                (
                    3,
                    "if",
                    vec![("then".into(), Some(3)), ("else".into(), Some(3))]
                ),
                (
                    4,
                    "if",
                    vec![("then".into(), Some(5)), ("else".into(), Some(6))]
                ),
                (
                    6,
                    "if",
                    vec![("then".into(), None), ("else".into(), Some(8))]
                ),
                // An empty case `{}` is a `()` node of its own; no `_` is the arm left over.
                (
                    11,
                    "switch",
                    vec![
                        ("1 | 2".into(), Some(12)),
                        ("3".into(), Some(13)),
                        ("no case".into(), None)
                    ]
                ),
            ]
        );
    }
}
