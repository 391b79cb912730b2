//! The compiled engine against the interpreter on `cases.rhai`: each case's value or error
//! (its Rhai text, positions included) must be the same on both.

use super::{Limits, Program};
use crate::script::host::files::RulesRoot;
use crate::script::host::{MAX_CALL_LEVELS, MAX_OPERATIONS, sandboxed_engine, with_deadline};
use rhai::{AST, CallFnOptions, Dynamic, Engine, EvalAltResult, Scope};

const LIMITS: Limits = Limits {
    max_operations: MAX_OPERATIONS,
    max_call_levels: MAX_CALL_LEVELS,
};

fn engine() -> Engine {
    let root = RulesRoot::new(std::path::Path::new(env!("CARGO_MANIFEST_DIR"))).expect("a root");
    sandboxed_engine(&root)
}

fn cases(engine: &Engine) -> AST {
    let mut ast = engine
        .compile(include_str!("cases.rhai"))
        .unwrap_or_else(|e| panic!("cases.rhai: {e}"));
    ast.set_source("cases.rhai");
    ast
}

/// A result as text: the value's debug form, or the error's (with its position).
fn shown(result: Result<Dynamic, Box<EvalAltResult>>) -> String {
    match result {
        Ok(v) => format!("ok {v:?}"),
        Err(e) => format!("error {e:?}"),
    }
}

/// The engine, `cases.rhai`, and its compiled program.
fn compiled_cases() -> (Engine, AST, Program) {
    let engine = engine();
    let ast = cases(&engine);
    let program = Program::compile(
        &engine,
        crate::script::host::natives::RULES,
        None,
        &ast,
        &[],
    );
    (engine, ast, program)
}

fn interpreted(engine: &Engine, ast: &AST, name: &str, args: Vec<Dynamic>) -> String {
    let options = CallFnOptions::new().eval_ast(false).rewind_scope(true);
    shown(with_deadline(|| {
        engine.call_fn_with_options::<Dynamic>(options, &mut Scope::new(), ast, name, args)
    }))
}

fn compiled(engine: &Engine, program: &Program, name: &str, args: Vec<Dynamic>) -> String {
    let result = with_deadline(|| program.call(engine, &LIMITS, name, args));
    shown(result.unwrap_or_else(|| panic!("`{name}` is not compiled")))
}

fn run_on_big_stack(f: impl FnOnce() + Send) {
    std::thread::scope(|s| {
        std::thread::Builder::new()
            .stack_size(crate::script::host::SCRIPT_STACK_BYTES)
            .spawn_scoped(s, f)
            .expect("a thread")
            .join()
            .unwrap_or_else(|p| std::panic::resume_unwind(p));
    });
}

#[test]
fn every_case_gives_the_same_value_or_error_on_both_engines() {
    run_on_big_stack(|| {
        let (engine, ast, program) = compiled_cases();
        let mut names: Vec<String> = ast
            .iter_functions()
            .filter(|f| f.name.starts_with("case_"))
            .map(|f| f.name.to_string())
            .collect();
        names.sort();
        assert!(names.len() > 30, "the cases are found");
        let mut differences = Vec::new();
        for name in &names {
            let (expected, got) = (
                interpreted(&engine, &ast, name, Vec::new()),
                compiled(&engine, &program, name, Vec::new()),
            );
            if expected != got {
                differences.push(format!(
                    "{name}:\n  interpreted {expected}\n  compiled    {got}"
                ));
            }
        }
        assert!(differences.is_empty(), "{}", differences.join("\n"));
    });
}

#[test]
fn kernel_values_against_other_types_compare_as_rhai_compares_them() {
    use crate::kernel::{CardIdx, Seat};
    use crate::script::host::api::{Card, Player, Slot};
    run_on_big_stack(|| {
        let (engine, ast, program) = compiled_cases();
        let args = || {
            vec![
                Dynamic::from(Slot {
                    seat: Seat(1),
                    slot: 2,
                }),
                Dynamic::from(Card(CardIdx(3))),
                Dynamic::from(Player(Seat(0))),
            ]
        };
        for name in ["with_kernel_values", "with_kernel_values_computed"] {
            let expected = interpreted(&engine, &ast, name, args());
            let got = compiled(&engine, &program, name, args());
            assert!(expected.starts_with("ok ["), "{name}: {expected}");
            assert_eq!(got, expected, "{name}");
        }
        let name = "with_kernel_values_by_rhai";
        let expected = interpreted(&engine, &ast, name, args());
        assert_eq!(
            compiled(&engine, &program, name, args()),
            expected,
            "{name}"
        );
    });
}

#[test]
fn what_is_not_compiled_is_left_to_the_interpreter_with_its_callers() {
    let engine = engine();
    let program = Program::compile(
        &engine,
        crate::script::host::natives::RULES,
        None,
        &cases(&engine),
        &[],
    );
    // Closures are named by a hash (`anon$…`): those are object maps' methods, which use
    // `this` (two on line 248, two on line 284).
    let (closures, named): (Vec<_>, Vec<_>) = program
        .fallbacks
        .iter()
        .partition(|f| f.function.starts_with("anon$"));
    let named: Vec<String> = named
        .iter()
        .map(|f| format!("{}: {}", f.function, f.reason))
        .collect();
    assert_eq!(
        named,
        [
            "doubled/0: `this` is not compiled (line 274)",
            "grown/0: `this` is not compiled (line 275)",
            "interpreted_caller/0: calls `interpreted_try/0`, which is interpreted",
            "interpreted_curry/0: the method `.curry(…)` is not compiled (line 257)",
            "interpreted_method/0: the method call `.doubled(…)` of a script function is not compiled (line 276)",
            "interpreted_method_changes/0: the method call `.grown(…)` of a script function is not compiled (line 277)",
            "interpreted_try/0: `try` is not compiled (line 119)",
        ]
    );
    let mut reasons: Vec<&str> = closures.iter().map(|f| f.reason.as_str()).collect();
    reasons.sort_unstable();
    assert_eq!(
        reasons,
        [
            "`this` is not compiled (line 248)",
            "`this` is not compiled (line 248)",
            "`this` is not compiled (line 284)",
            "`this` is not compiled (line 284)",
        ]
    );
    assert!(!program.has("interpreted_try", 0) && program.has("case_calls", 0));
    let (compiled, total) = program.counts();
    assert_eq!(total - compiled, 11);
}

#[test]
fn switch_cases_are_found_by_rhai_s_own_hashes() {
    assert!(super::loops::switch_hash_works(&engine()));
}

/// An argument lent to a function that keeps it comes back as given, whatever the call gives;
/// one it does not keep (or not a parameter at all) comes back as a copy of what was given.
#[test]
fn a_lent_argument_comes_back_as_given() {
    let engine = engine();
    let ast = engine
        .compile(
            "fn keeps(a, b) { if b.k > 1 { throw \"no\" } b.k } \
             fn changes(a, b) { b.k = 5; b.k }",
        )
        .expect("compiles");
    let program = Program::compile(
        &engine,
        crate::script::host::natives::RULES,
        None,
        &ast,
        &[],
    );
    let map = || {
        let mut m = rhai::Map::new();
        m.insert("k".into(), Dynamic::from(1_i64));
        Dynamic::from_map(m)
    };
    let call = |name: &str, map: Dynamic, lent: usize| {
        let id = program.compiled(name, 2).expect("compiled");
        let (result, back) = with_deadline(|| {
            program.call_compiled_lending(
                &engine,
                &LIMITS,
                id,
                name,
                vec![Dynamic::UNIT, map],
                lent,
            )
        });
        (shown(result), format!("{back:?}"))
    };
    let id = program.compiled("keeps", 2).expect("compiled");
    assert!(program.lends(id, 1) && !program.lends(id, 64));
    assert!(!program.lends(program.compiled("changes", 2).expect("compiled"), 1));
    assert_eq!(
        call("keeps", map(), 1),
        ("ok 1".into(), "#{\"k\": 1}".into())
    );
    // An error on the way: the argument still comes back.
    let mut two = map();
    two.write_lock::<rhai::Map>()
        .expect("a map")
        .insert("k".into(), Dynamic::from(2_i64));
    let (result, back) = call("keeps", two, 1);
    assert!(result.starts_with("error"), "{result}");
    assert_eq!(back, "#{\"k\": 2}");
    // Not kept: the function changes its own copy.
    assert_eq!(
        call("changes", map(), 1),
        ("ok 5".into(), "#{\"k\": 1}".into())
    );
    assert_eq!(call("keeps", map(), 7), ("ok 1".into(), "()".into()));
}

/// Small functions that call no script function, or only such functions, are compiled into
/// their callers; recursive, large, deeper and never-called ones are not.
#[test]
fn small_functions_are_compiled_into_their_callers() {
    let (_, _, program) = compiled_cases();
    for (name, arity) in [
        ("add", 2),
        ("fails", 1),
        ("fails_deeper", 1),
        ("doubled_plus", 1),
        ("bumped", 1),
        ("first_match", 2),
        ("spins", 0),
        ("sized", 1),
        ("nested_reader", 2),
    ] {
        assert!(program.is_inlined(name, arity), "{name}/{arity} is inlined");
    }
    for (name, arity) in [
        ("fact", 1),
        ("forever", 1),
        ("leaf_then_down", 1),
        ("case_calls", 0),
    ] {
        assert!(
            !program.is_inlined(name, arity),
            "{name}/{arity} is not inlined"
        );
    }
    let engine = engine();
    let big = format!(
        "fn big(x) {{ {} x }} fn small(x) {{ x + 1 }} fn mid(x) {{ small(x) * 2 }} \
         fn top(x) {{ mid(x) + 1 }} fn main(x) {{ [big(x), small(x), mid(x), top(x)] }}",
        "x += 1; ".repeat(40)
    );
    let ast = engine.compile(&big).expect("compiles");
    let program = Program::compile(
        &engine,
        crate::script::host::natives::RULES,
        None,
        &ast,
        &[],
    );
    let inlined: Vec<bool> = ["big", "small", "mid", "top"]
        .iter()
        .map(|name| program.is_inlined(name, 1))
        .collect();
    assert_eq!(inlined, [false, true, true, false]);
    assert_eq!(program.inlined(), 2);
    assert_eq!(
        program
            .call(&engine, &LIMITS, "main", vec![Dynamic::from(1_i64)])
            .map(shown),
        Some("ok [41, 2, 4, 5]".into())
    );
}
