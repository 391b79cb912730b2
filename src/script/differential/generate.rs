//! Random Rhai programs for the engines' differential test: each a script of argument-free
//! `case_N` functions and a module `lib`, over operators on every value type, indexing and
//! properties on every receiver (constants included), op-assignments, methods that change
//! their receiver, strings and characters, ranges up to the `i64` limits, loops with `break`
//! and `continue` values, `switch`, closures handed to built-ins, recursion near the depth limit,
//! many variables and module calls. The same seed gives the same program.
//!
//! The programs are mostly well-typed, with a share of deliberate mismatches (a character
//! compared with a string, an index past the end, an integer overflow), since the errors must
//! agree too. Every loop is bounded, so a program ends well inside the limits unless it builds
//! a value past a size limit, recurses past the depth limit, or (rarely) `continue`s a `do`
//! loop, which Rhai never ends, on purpose: the limits must be met alike too.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A generated program.
#[derive(Debug, Clone)]
pub struct Program {
    /// The entry script: helpers and the `case_N` functions.
    pub entry: String,
    /// The module registered as `lib`.
    pub module: String,
    /// The functions to call, in order.
    pub cases: Vec<String>,
}

/// The module every program imports as `lib`: functions of each shape a call can take
/// (a value back, an array changed and given back, recursion, an error).
pub const MODULE: &str = r#"
fn twice(x) { x + x }
fn pushed(a, v) { a.push(v); a }
fn depth(n) { if n <= 0 { 0 } else { 1 + depth(n - 1) } }
fn first(a) { a[0] }
fn label(x) { `<${x}>` }
fn fails(x) { if x > 2 { throw "lib refused " + x; } x }
"#;

/// Helpers every program's entry script has, besides its generated ones.
const HELPERS: &str = r#"
fn rec(n) { if n <= 0 { 0 } else { 1 + rec(n - 1) } }
fn wrap(n) { rec(n) }
fn via_lib(n) { lib::depth(n) }
fn grow(a, n) { for i in 0..n { a.push(i); } a }
"#;

/// The kinds of value the generator aims an expression at (a share of expressions ignore it).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    Int,
    Str,
    Char,
    Bool,
    Array,
    Map,
    Range,
    Unit,
}

const KINDS: [Kind; 8] = [
    Kind::Int,
    Kind::Str,
    Kind::Char,
    Kind::Bool,
    Kind::Array,
    Kind::Map,
    Kind::Range,
    Kind::Unit,
];

/// A variable in scope.
#[derive(Clone)]
struct Var {
    name: String,
    kind: Kind,
    constant: bool,
}

struct Gen {
    rng: ChaCha8Rng,
    scopes: Vec<Vec<Var>>,
    next_name: usize,
    /// The loops around the statement being written (`break` and `continue` may stand in one),
    /// each `true` for a `do` loop.
    loops: Vec<bool>,
    /// Expression nesting, bounded.
    depth: usize,
    /// Statement nesting, bounded.
    nesting: usize,
    /// The next expression must be of the kind asked for, at its top.
    exact: bool,
    /// The script written so far.
    out: String,
}

/// The program of `seed`, with `cases` case functions.
pub fn program(seed: u64, cases: usize) -> Program {
    let mut g = Gen {
        rng: ChaCha8Rng::seed_from_u64(seed),
        scopes: Vec::new(),
        next_name: 0,
        loops: Vec::new(),
        depth: 0,
        nesting: 0,
        exact: false,
        out: String::new(),
    };
    g.out.push_str(HELPERS);
    let mut names = Vec::new();
    for i in 0..cases {
        let name = format!("case_{i}");
        g.case(&name);
        names.push(name);
    }
    Program {
        entry: g.out,
        module: MODULE.to_string(),
        cases: names,
    }
}

impl Gen {
    fn chance(&mut self, percent: u32) -> bool {
        self.rng.random_range(0..100) < percent
    }

    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.rng.random_range(0..items.len())]
    }

    fn small(&mut self) -> i64 {
        self.rng.random_range(-3..8)
    }

    fn fresh(&mut self) -> String {
        self.next_name += 1;
        format!("v{}", self.next_name)
    }

    fn vars(&self) -> impl Iterator<Item = &Var> {
        self.scopes.iter().flatten()
    }

    fn var_of(&mut self, kind: Option<Kind>, writable: bool) -> Option<Var> {
        let found: Vec<Var> = self
            .vars()
            .filter(|v| kind.is_none_or(|k| v.kind == k) && (!writable || !v.constant))
            .cloned()
            .collect();
        if found.is_empty() {
            None
        } else {
            let i = self.rng.random_range(0..found.len());
            Some(found[i].clone())
        }
    }

    fn line(&mut self, text: &str) {
        for _ in 0..self.nesting + 1 {
            self.out.push_str("    ");
        }
        self.out.push_str(text);
        self.out.push('\n');
    }

    fn case(&mut self, name: &str) {
        self.out.push_str(&format!("\nfn {name}() {{\n"));
        self.scopes.push(Vec::new());
        self.next_name = 0;
        match self.rng.random_range(0..40) {
            // A few whole-case shapes that stress one limit or form.
            0 => self.many_variables(),
            1 => self.deep_recursion(),
            2 => self.large_values(),
            _ => {
                let n = self.rng.random_range(2..9);
                for _ in 0..n {
                    self.stmt();
                }
            }
        }
        let shown: Vec<String> = self.vars().map(|v| v.name.clone()).collect();
        self.line(&format!("[{}]", shown.join(", ")));
        self.scopes.pop();
        self.out.push_str("}\n");
    }

    fn many_variables(&mut self) {
        let n = self.rng.random_range(500..530);
        for i in 0..n {
            self.line(&format!("let w{i} = {i};"));
        }
        self.line("let v1 = w1 + w499;");
        self.scopes.last_mut().expect("a scope").push(Var {
            name: "v1".into(),
            kind: Kind::Int,
            constant: false,
        });
    }

    fn deep_recursion(&mut self) {
        let n = self.rng.random_range(40..50);
        let call = self.pick(&["rec", "wrap", "via_lib", "lib::depth"]);
        self.line(&format!("let v1 = {call}({n});"));
        self.scopes.last_mut().expect("a scope").push(Var {
            name: "v1".into(),
            kind: Kind::Int,
            constant: false,
        });
    }

    fn large_values(&mut self) {
        let n = self.pick(&[4000, 8191, 8192, 10000, 16384]);
        let form = self.rng.random_range(0..5);
        let text = match form {
            0 => format!("let v1 = []; v1.pad({n}, 0); v1 += v1;"),
            1 => format!("let v1 = []; v1.pad({n}, 1); v1.append(v1);"),
            2 => format!("let v1 = \"\"; v1.pad({n}, 'x'); v1 += v1;"),
            3 => format!("let v1 = []; v1.pad({n}, 0); let v2 = v1 + v1; v1 = v2.len();"),
            _ => format!("let v1 = grow([], {}); v1 = v1.len();", n / 4),
        };
        self.line(&text);
        self.scopes.last_mut().expect("a scope").push(Var {
            name: "v1".into(),
            kind: Kind::Int,
            constant: false,
        });
    }

    // ---- statements ----

    fn stmt(&mut self) {
        let deep = self.nesting >= 3;
        let roll = self.rng.random_range(0..100);
        match roll {
            0..=21 => self.let_stmt(),
            22..=31 => self.assign(),
            32..=43 => self.op_assign(),
            44..=53 => self.index_assign(),
            54..=61 => self.mutate(),
            62..=67 if !deep => self.if_stmt(),
            68..=75 if !deep => self.for_stmt(),
            76..=79 if !deep => self.while_stmt(),
            80..=82 if !deep => self.loop_stmt(),
            83..=85 if !deep => self.switch_stmt(),
            86..=87 if !deep => self.try_stmt(),
            88..=90 if !self.loops.is_empty() => {
                // `continue` straight inside a `do` loop skips its condition in Rhai: such a loop
                // never ends, and both engines stop it at the same operation. Rarely, as each
                // runs to the limit.
                let in_do = self.loops.last() == Some(&true);
                let s = if (!in_do || self.chance(5)) && self.chance(50) {
                    "continue;".to_string()
                } else if self.chance(50) {
                    "break;".to_string()
                } else {
                    let e = self.expr(None);
                    format!("break {e};")
                };
                let c = self.condition();
                self.line(&format!("if {c} {{ {s} }}"));
            }
            91 => {
                let e = self.expr(None);
                let c = self.condition();
                self.line(&format!("if {c} {{ return {e}; }}"));
            }
            92 => {
                let e = self.expr(None);
                let c = self.condition();
                self.line(&format!("if {c} {{ throw {e}; }}"));
            }
            _ => {
                let e = self.expr(None);
                self.line(&format!("{e};"));
            }
        }
    }

    fn condition(&mut self) -> String {
        self.strict(Kind::Bool)
    }

    /// An expression of `kind` at its top (Rhai refuses some mismatches at compile time, such as
    /// `if ()` or a map literal indexed by a number, which would lose the whole program).
    fn strict(&mut self, kind: Kind) -> String {
        self.exact = true;
        self.expr(Some(kind))
    }

    fn let_stmt(&mut self) {
        let kind = self.pick(&KINDS);
        let e = self.expr(Some(kind));
        let name = self.fresh();
        let constant = self.chance(20);
        let keyword = if constant { "const" } else { "let" };
        // A constant's value must be known when the script is compiled, or Rhai refuses it
        // only at run time: both happen; `+ []` makes a computed constant.
        self.line(&format!("{keyword} {name} = {e};"));
        self.scopes.last_mut().expect("a scope").push(Var {
            name,
            kind,
            constant,
        });
    }

    fn assign(&mut self) {
        if let Some(v) = self.var_of(None, true) {
            let kind = if self.chance(92) {
                v.kind
            } else {
                self.pick(&KINDS)
            };
            let e = self.expr(Some(kind));
            self.line(&format!("{} = {e};", v.name));
        }
    }

    fn op_assign(&mut self) {
        // Never a constant: Rhai refuses that when it compiles the script.
        let Some(v) = self.var_of(None, true) else {
            return;
        };
        let op = self.pick(&[
            "+=", "+=", "+=", "-=", "*=", "/=", "%=", "**=", "&=", "|=", "^=", "<<=", ">>=",
        ]);
        let kind = if self.chance(85) {
            v.kind
        } else {
            self.pick(&KINDS)
        };
        let e = if self.chance(8) {
            v.name.clone()
        } else {
            self.expr(Some(kind))
        };
        self.line(&format!("{} {op} {e};", v.name));
    }

    fn index_assign(&mut self) {
        let Some(v) = self.var_of(None, false) else {
            return;
        };
        let op = self.pick(&["=", "=", "+=", "-=", "*="]);
        let e = self.expr(None);
        let target = match v.kind {
            Kind::Map => {
                let key = self.pick(&["a", "b", "zz", "len"]);
                if self.chance(50) {
                    format!("{}.{key}", v.name)
                } else {
                    format!("{}[\"{key}\"]", v.name)
                }
            }
            Kind::Array if self.chance(20) => {
                let i = self.small();
                let j = self.small();
                format!("{}[{i}][{j}]", v.name)
            }
            _ => {
                let i = self.index_expr();
                format!("{}[{i}]", v.name)
            }
        };
        self.line(&format!("{target} {op} {e};"));
    }

    fn index_expr(&mut self) -> String {
        if self.chance(70) {
            // In bounds mostly, past either end now and then.
            self.pick(&["0", "0", "1", "-1", "2", "3", "-4"])
                .to_string()
        } else {
            self.strict(Kind::Int)
        }
    }

    fn mutate(&mut self) {
        let writable = self.chance(90);
        let Some(v) = self.var_of(None, writable) else {
            return;
        };
        let call = match v.kind {
            Kind::Array => match self.rng.random_range(0..10) {
                0 => format!("push({})", self.expr(None)),
                1 => "pop()".into(),
                2 => format!("insert({}, {})", self.small(), self.expr(None)),
                3 => format!("remove({})", self.small()),
                4 => "reverse()".into(),
                5 => format!("truncate({})", self.rng.random_range(0..4)),
                6 => "sort()".into(),
                7 => format!("retain(|x| {})", self.closure_body(&["x"], None)),
                8 => format!("append({})", self.expr(Some(Kind::Array))),
                _ => format!("pad({}, {})", self.rng.random_range(0..6), self.expr(None)),
            },
            Kind::Str => match self.rng.random_range(0..5) {
                0 => "trim()".into(),
                1 => "make_upper()".into(),
                2 => format!(
                    "pad({}, {})",
                    self.rng.random_range(0..6),
                    self.expr(Some(Kind::Char))
                ),
                3 => format!("truncate({})", self.rng.random_range(0..4)),
                _ => format!("remove({})", self.expr(Some(Kind::Char))),
            },
            Kind::Map => match self.rng.random_range(0..3) {
                0 => "remove(\"a\")".into(),
                1 => "clear()".into(),
                _ => format!("mixin(#{{ b: {} }})", self.expr(None)),
            },
            _ => format!("push({})", self.expr(None)),
        };
        self.line(&format!("{}.{call};", v.name));
    }

    fn block(&mut self, extra: Option<Var>) {
        self.nesting += 1;
        self.scopes.push(extra.into_iter().collect());
        let n = self.rng.random_range(1..4);
        for _ in 0..n {
            self.stmt();
        }
        self.scopes.pop();
        self.nesting -= 1;
    }

    fn if_stmt(&mut self) {
        let c = self.condition();
        self.line(&format!("if {c} {{"));
        self.block(None);
        if self.chance(50) {
            self.line("} else {");
            self.block(None);
        }
        self.line("}");
    }

    fn for_stmt(&mut self) {
        let name = self.fresh();
        let (source, kind) = match self.rng.random_range(0..6) {
            0 => {
                let a = self.small();
                (
                    format!("{a}..{}", a + self.rng.random_range(0..5)),
                    Kind::Int,
                )
            }
            1 => {
                let a = self.small();
                (
                    format!("{a}..={}", a + self.rng.random_range(0..4)),
                    Kind::Int,
                )
            }
            2 => (
                self.pick(&[
                    "(9223372036854775806..=9223372036854775807)",
                    "(-9223372036854775808..-9223372036854775806)",
                    "range(0, 3)",
                    "range(0, 9, 3)",
                ])
                .to_string(),
                Kind::Int,
            ),
            3 => {
                // An inclusive range ending at the limit, held in a variable.
                let m = self.fresh();
                self.line(&format!("let {m} = 9223372036854775807;"));
                (format!("({m} - 1)..={m}"), Kind::Int)
            }
            4 => (
                self.pick(&["\"héllo\"", "\"ab\"", "\"\""]).to_string(),
                Kind::Char,
            ),
            _ => (self.small_array(), Kind::Int),
        };
        let with_index = self.chance(20);
        let head = if with_index {
            let i = self.fresh();
            format!("({name}, {i})")
        } else {
            name.clone()
        };
        self.line(&format!("for {head} in {source} {{"));
        self.loops.push(false);
        self.block(Some(Var {
            name,
            kind,
            constant: false,
        }));
        self.loops.pop();
        self.line("}");
    }

    fn while_stmt(&mut self) {
        let i = self.fresh();
        let n = self.rng.random_range(0..5);
        self.line(&format!("let {i} = 0;"));
        let do_form = self.chance(30);
        if do_form {
            self.line("do {");
        } else {
            self.line(&format!("while {i} < {n} {{"));
        }
        self.nesting += 1;
        self.line(&format!("{i} += 1;"));
        self.nesting -= 1;
        self.loops.push(do_form);
        self.block(None);
        self.loops.pop();
        if do_form {
            let word = self.pick(&["while", "until"]);
            let test = if word == "while" {
                format!("{i} < {n}")
            } else {
                format!("{i} >= {n}")
            };
            self.line(&format!("}} {word} {test};"));
        } else {
            self.line("}");
        }
        self.scopes.last_mut().expect("a scope").push(Var {
            name: i,
            kind: Kind::Int,
            constant: false,
        });
    }

    fn loop_stmt(&mut self) {
        let i = self.fresh();
        let n = self.rng.random_range(0..5);
        let value = self.expr(None);
        self.line(&format!("let {i} = 0;"));
        let result = self.fresh();
        self.line(&format!("let {result} = loop {{"));
        self.nesting += 1;
        self.line(&format!("{i} += 1;"));
        self.line(&format!("if {i} > {n} {{ break {value}; }}"));
        self.nesting -= 1;
        self.loops.push(false);
        self.block(None);
        self.loops.pop();
        self.line("};");
        let scope = self.scopes.last_mut().expect("a scope");
        scope.push(Var {
            name: i,
            kind: Kind::Int,
            constant: false,
        });
        scope.push(Var {
            name: result,
            kind: Kind::Unit,
            constant: false,
        });
    }

    fn switch_stmt(&mut self) {
        let subject = self.expr_of(&[Kind::Int, Kind::Int, Kind::Str, Kind::Char]);
        let name = self.fresh();
        self.line(&format!("let {name} = switch {subject} {{"));
        self.nesting += 1;
        let n = self.rng.random_range(1..5);
        let mut used = std::collections::BTreeSet::new();
        let mut ranges = Vec::new();
        for _ in 0..n {
            let label = match self.rng.random_range(0..6) {
                0 => format!("{} | {}", self.small(), self.small() + 10),
                1 => {
                    let a = self.small();
                    format!("{a}..{}", a + 3)
                }
                2 => format!("{} if {}", self.small(), self.condition()),
                3 => format!("\"{}\"", self.pick(&["a", "ab", ""])),
                4 => format!("'{}'", self.pick(&['a', 'b'])),
                _ => self.small().to_string(),
            };
            // Rhai refuses a repeated plain case at compile time.
            if !used.insert(label.clone()) {
                continue;
            }
            let e = self.expr(None);
            // Rhai takes no plain case after a range case.
            if label.contains("..") {
                ranges.push(format!("{label} => {e},"));
            } else {
                self.line(&format!("{label} => {e},"));
            }
        }
        for case in ranges {
            self.line(&case);
        }
        if self.chance(60) {
            let e = self.expr(None);
            self.line(&format!("_ => {e}"));
        }
        self.nesting -= 1;
        self.line("};");
        self.scopes.last_mut().expect("a scope").push(Var {
            name,
            kind: Kind::Unit,
            constant: false,
        });
    }

    fn try_stmt(&mut self) {
        self.line("try {");
        self.block(None);
        let err = self.fresh();
        self.line(&format!("}} catch ({err}) {{"));
        self.block(Some(Var {
            name: err,
            kind: Kind::Str,
            constant: false,
        }));
        self.line("}");
    }

    // ---- expressions ----

    fn small_array(&mut self) -> String {
        let n = self.rng.random_range(0..4);
        let items: Vec<String> = (0..n).map(|_| self.small().to_string()).collect();
        format!("[{}]", items.join(", "))
    }

    fn literal(&mut self, kind: Kind) -> String {
        match kind {
            Kind::Int => match self.rng.random_range(0..10) {
                0 => self
                    .pick(&[
                        "9223372036854775807",
                        "(-9223372036854775807 - 1)",
                        "4611686018427387904",
                        "63",
                        "64",
                    ])
                    .to_string(),
                _ => self.small().to_string(),
            },
            Kind::Str => format!(
                "\"{}\"",
                self.pick(&["", "a", "ab", "b", "héllo", "a b ", "7", "😀x"])
            ),
            Kind::Char => format!("'{}'", self.pick(&["a", "b", "é", "7", " ", "😀"])),
            Kind::Bool => self.pick(&["true", "false"]).to_string(),
            Kind::Array => {
                let n = self.rng.random_range(0..4);
                let items: Vec<String> = (0..n)
                    .map(|_| {
                        let k = self.pick(&[Kind::Int, Kind::Int, Kind::Str, Kind::Char]);
                        self.literal(k)
                    })
                    .collect();
                format!("[{}]", items.join(", "))
            }
            Kind::Map => {
                let n = self.rng.random_range(0..3);
                let keys = ["a", "b", "len"];
                let items: Vec<String> = (0..n)
                    .map(|i| {
                        let k = self.pick(&[Kind::Int, Kind::Str, Kind::Char]);
                        format!("{}: {}", keys[i], self.literal(k))
                    })
                    .collect();
                format!("#{{{}}}", items.join(", "))
            }
            Kind::Range => {
                let a = self.small();
                let op = self.pick(&["..", "..="]);
                format!("({a}{op}{})", a + self.rng.random_range(0..4))
            }
            Kind::Unit => "()".into(),
        }
    }

    fn expr(&mut self, want: Option<Kind>) -> String {
        self.depth += 1;
        let e = if self.depth > 4 {
            self.leaf(want)
        } else {
            self.compound(want)
        };
        self.depth -= 1;
        e
    }

    fn expr_of(&mut self, kinds: &[Kind]) -> String {
        let k = self.pick(kinds);
        self.expr(Some(k))
    }

    fn leaf(&mut self, want: Option<Kind>) -> String {
        let exact = std::mem::take(&mut self.exact);
        let kind = match want {
            Some(k) if exact || self.chance(96) => k,
            _ => self.pick(&KINDS),
        };
        if self.chance(55)
            && let Some(v) = self.var_of(Some(kind), false)
        {
            return v.name;
        }
        self.literal(kind)
    }

    fn compound(&mut self, want: Option<Kind>) -> String {
        let exact = std::mem::take(&mut self.exact);
        let kind = match want {
            Some(k) if exact || self.chance(95) => k,
            _ => self.pick(&KINDS),
        };
        if self.chance(35) {
            self.exact = exact;
            return self.leaf(Some(kind));
        }
        match kind {
            Kind::Int => self.int_expr(),
            Kind::Str => self.str_expr(),
            Kind::Char => self.char_expr(),
            Kind::Bool => self.bool_expr(),
            Kind::Array => self.array_expr(),
            Kind::Map => self.map_expr(),
            Kind::Range => self.literal(Kind::Range),
            Kind::Unit => self.unit_expr(),
        }
    }

    fn int_expr(&mut self) -> String {
        match self.rng.random_range(0..16) {
            0..=4 => {
                let op = self.pick(&[
                    "+", "+", "-", "*", "/", "%", "**", "&", "|", "^", "<<", ">>",
                ]);
                let a = self.expr(Some(Kind::Int));
                let b = self.expr(Some(Kind::Int));
                format!("({a} {op} {b})")
            }
            5 => format!("-({})", self.expr(Some(Kind::Int))),
            6 => format!(
                "{}.len()",
                self.expr_of(&[Kind::Array, Kind::Str, Kind::Map])
            ),
            7 => {
                let a = self.strict(Kind::Array);
                let i = self.index_expr();
                format!("{a}[{i}]")
            }
            8 => format!(
                "{}.index_of({})",
                self.expr(Some(Kind::Array)),
                self.expr(None)
            ),
            9 => format!(
                "{}.reduce(|s, x| {}, 0)",
                self.expr(Some(Kind::Array)),
                self.closure_body(&["s", "x"], Some(Kind::Int))
            ),
            10 => format!("rec({})", self.rng.random_range(0..6)),
            11 => {
                let x = self.expr(Some(Kind::Int));
                format!("lib::{}({x})", self.pick(&["twice", "fails"]))
            }
            12 => {
                let c = self.condition();
                let a = self.expr(Some(Kind::Int));
                let b = self.expr(Some(Kind::Int));
                format!("if {c} {{ {a} }} else {{ {b} }}")
            }
            13 => format!("{}.abs()", self.expr(Some(Kind::Int))),
            14 => format!(
                "{}.index_of(|x| {})",
                self.expr(Some(Kind::Array)),
                self.closure_body(&["x"], Some(Kind::Bool))
            ),
            _ => {
                let m = self.expr(Some(Kind::Map));
                format!("{m}.{}", self.pick(&["a", "b", "len"]))
            }
        }
    }

    fn str_expr(&mut self) -> String {
        match self.rng.random_range(0..9) {
            0..=2 => {
                let a = self.expr(Some(Kind::Str));
                let b = self.expr_of(&[Kind::Str, Kind::Char, Kind::Int, Kind::Unit]);
                if self.chance(50) {
                    format!("({a} + {b})")
                } else {
                    format!("({b} + {a})")
                }
            }
            3 => {
                let s = self.expr(Some(Kind::Str));
                let a = self.small();
                let b = self.small();
                format!("{s}.sub_string({a}, {b})")
            }
            4 => format!("{}.to_upper()", self.expr(Some(Kind::Str))),
            5 => {
                let e = self.expr(None);
                let f = self.expr(None);
                format!("`x${{{e}}}y${{{f}}}`")
            }
            6 => format!("type_of({})", self.expr(None)),
            7 => format!("lib::label({})", self.expr(None)),
            _ => format!("{}.to_string()", self.expr(None)),
        }
    }

    fn char_expr(&mut self) -> String {
        let s = self.strict(Kind::Str);
        let i = self.index_expr();
        format!("{s}[{i}]")
    }

    fn bool_expr(&mut self) -> String {
        match self.rng.random_range(0..10) {
            0..=3 => {
                let op = self.pick(&["==", "!=", "<", "<=", ">", ">="]);
                let k = self.pick(&KINDS);
                let a = self.expr(Some(k));
                // The same kind mostly; a character against a string often.
                let k2 = if self.chance(20) {
                    match k {
                        Kind::Char => Kind::Str,
                        Kind::Str => Kind::Char,
                        _ => self.pick(&KINDS),
                    }
                } else {
                    k
                };
                let b = self.expr(Some(k2));
                format!("({a} {op} {b})")
            }
            4 => {
                let op = self.pick(&["&&", "||"]);
                let a = self.condition();
                let b = self.condition();
                format!("({a} {op} {b})")
            }
            5 => format!("!{}", self.condition()),
            6 => {
                let x = self.expr_of(&[Kind::Int, Kind::Char, Kind::Str]);
                let a = self.expr_of(&[Kind::Array, Kind::Str, Kind::Map, Kind::Range]);
                format!("({x} in {a})")
            }
            7 => {
                let a = self.expr_of(&[Kind::Array, Kind::Str, Kind::Map]);
                let x = self.expr_of(&[Kind::Int, Kind::Char, Kind::Str]);
                format!("{a}.contains({x})")
            }
            8 => format!(
                "{}.{}(|x| {})",
                self.expr(Some(Kind::Array)),
                self.pick(&["all", "some"]),
                self.closure_body(&["x"], Some(Kind::Bool))
            ),
            _ => format!(
                "{}.is_empty()",
                self.expr_of(&[Kind::Array, Kind::Str, Kind::Map])
            ),
        }
    }

    fn array_expr(&mut self) -> String {
        match self.rng.random_range(0..8) {
            0 => {
                let a = self.expr(Some(Kind::Array));
                let b = self.expr(Some(Kind::Array));
                format!("({a} + {b})")
            }
            1 => format!(
                "{}.map(|x| {})",
                self.expr(Some(Kind::Array)),
                self.closure_body(&["x"], None)
            ),
            2 => format!(
                "{}.filter(|x, i| {})",
                self.expr(Some(Kind::Array)),
                self.closure_body(&["x", "i"], Some(Kind::Bool))
            ),
            3 => format!("{}.keys()", self.expr(Some(Kind::Map))),
            4 => format!(
                "lib::pushed({}, {})",
                self.expr(Some(Kind::Array)),
                self.expr(None)
            ),
            5 => format!("{}.split()", self.expr(Some(Kind::Str))),
            6 => {
                let a = self.expr(Some(Kind::Array));
                format!(
                    "{a}.extract({}, {})",
                    self.small(),
                    self.rng.random_range(0..3)
                )
            }
            _ => {
                let n = self.rng.random_range(0..4);
                let items: Vec<String> = (0..n).map(|_| self.expr(None)).collect();
                format!("[{}]", items.join(", "))
            }
        }
    }

    fn map_expr(&mut self) -> String {
        match self.rng.random_range(0..3) {
            0 => {
                let a = self.expr(None);
                let b = self.expr(None);
                format!("#{{a: {a}, b: {b}}}")
            }
            1 => {
                let a = self.expr(Some(Kind::Map));
                let b = self.expr(Some(Kind::Map));
                format!("({a} + {b})")
            }
            _ => {
                let a = self.expr(Some(Kind::Map));
                format!(
                    "{a}.filter(|k, v| {})",
                    self.closure_body(&["k", "v"], Some(Kind::Bool))
                )
            }
        }
    }

    fn unit_expr(&mut self) -> String {
        match self.rng.random_range(0..3) {
            0 => {
                let s = self.expr(Some(Kind::Int));
                format!(
                    "switch {s} {{ 0 => (), 1 | 2 => {}, _ => () }}",
                    self.expr(None)
                )
            }
            1 => format!("{}.for_each(|x| x + 1)", self.expr(Some(Kind::Array))),
            _ => "()".into(),
        }
    }

    /// A closure's body: only its parameters are in scope (capturing is off).
    fn closure_body(&mut self, params: &[&str], want: Option<Kind>) -> String {
        let saved = std::mem::take(&mut self.scopes);
        let depth = self.depth;
        self.depth = self.depth.max(3);
        self.scopes.push(
            params
                .iter()
                .map(|p| Var {
                    name: (*p).to_string(),
                    kind: Kind::Int,
                    constant: false,
                })
                .collect(),
        );
        let e = self.expr(want);
        self.scopes = saved;
        self.depth = depth;
        e
    }
}
