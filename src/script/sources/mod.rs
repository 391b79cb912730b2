//! Rule files as the loaders read them: a file read through the rules root, YAML parsed with
//! located errors, a script compiled with its undefined-variable help, its modules registered
//! (stateless, confined), and the check for calls to functions nothing defines (`lint.rs`).
//! The variant loader and the bots' loader both stand on this.

pub(crate) mod lint;
pub(crate) mod refusals;

use super::host::error::{ConfigProblem, SourceDiagnostic, VariantError, locate};
use super::host::files::{MAX_YAML_DEPTH, RulesRoot, check_yaml_depth};
use super::host::resolver::module_of;
use crate::kernel::Value;
use rhai::{AST, Engine};
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

/// Script sources by the name Rhai reports them under, for diagnostics.
pub(crate) type Sources = HashMap<String, (PathBuf, String)>;

pub(crate) fn config_error(path: &Path, src: &str, p: ConfigProblem) -> VariantError {
    VariantError::Config(Box::new(SourceDiagnostic::new(
        path, src, p.span, p.message, "here",
    )))
}

/// Read a rule file the variant cannot do without (its own `variant.yaml`, `rulebook.yaml`, …).
pub(crate) fn read_file(root: &RulesRoot, path: &Path) -> Result<String, VariantError> {
    let written = path.display().to_string();
    root.read(path, &written)
        .map_err(|problem| VariantError::File {
            path: written,
            problem,
        })
}

/// Parse YAML text after refusing input nested too deep to parse quickly.
pub(crate) fn parse_yaml(path: &Path, src: &str) -> Result<serde_yaml::Value, VariantError> {
    if let Err(at) = check_yaml_depth(src) {
        let message = format!("this YAML is nested more than {MAX_YAML_DEPTH} levels deep");
        return Err(config_error(
            path,
            src,
            ConfigProblem {
                message,
                span: (at, at + 1),
            },
        ));
    }
    serde_yaml::from_str(src)
        .map_err(|e| config_error(path, src, ConfigProblem::from_yaml(src, &e)))
}

/// A refusal of a path named in a YAML file, pointing at where it is written.
fn path_error(
    file: &Path,
    src: &str,
    key_path: &[&str],
    written: &str,
    problem: super::host::files::PathProblem,
) -> VariantError {
    VariantError::Config(Box::new(SourceDiagnostic::new(
        file,
        src,
        locate(src, key_path, Some(written)),
        problem.to_string(),
        "this path",
    )))
}

/// Read a file named in a YAML file: resolved relative to that file, inside the rules folder.
pub(crate) fn read_named(
    root: &RulesRoot,
    file: &Path,
    src: &str,
    key_path: &[&str],
    written: &str,
) -> Result<(PathBuf, String), VariantError> {
    let fail = |problem| path_error(file, src, key_path, written, problem);
    let path = root.resolve(file, written).map_err(fail)?;
    let text = root.read(&path, written).map_err(fail)?;
    Ok((path, text))
}

/// Compile a script, or say where it does not compile.
pub(crate) fn compile(engine: &Engine, path: &Path, src: &str) -> Result<AST, VariantError> {
    let mut ast = engine.compile(src).map_err(|e| {
        let pos = e.position();
        let mut diagnostic = SourceDiagnostic::at_line(
            path,
            src,
            pos.line().unwrap_or(1),
            pos.position().unwrap_or(1),
            format!("script does not compile: {}", e.err_type()),
            "here",
        );
        if let rhai::ParseErrorType::VariableUndefined(name) = e.err_type() {
            diagnostic.help = Some(undefined_variable_help(src, diagnostic.span.offset(), name));
        }
        VariantError::Script(Box::new(diagnostic))
    })?;
    if let Some(pos) = lint::folded_constant_assignment(&ast) {
        return Err(VariantError::Script(Box::new(SourceDiagnostic::at_line(
            path,
            src,
            pos.line().unwrap_or(1),
            pos.position().unwrap_or(1),
            lint::CONSTANT_CHANGED.to_string(),
            "a constant",
        ))));
    }
    ast.set_source(path.display().to_string());
    Ok(ast)
}

/// The hint for a variable that is not in scope where `src` uses it at byte `at`: when the
/// function names it elsewhere, why it cannot be seen there (an anonymous function sees only its
/// own parameters; a variable only after its `let`, inside its block); otherwise a close name the
/// function uses, if there is one.
fn undefined_variable_help(src: &str, at: usize, name: &str) -> String {
    use super::host::tokens::{Tok, hooks, tokenize};
    let tokens = tokenize(src);
    let owners = hooks(&tokens);
    let here = tokens.iter().rposition(|t| t.start <= at);
    let function = here.and_then(|i| owners[i].as_deref());
    // Its parameters: between its name and its body's `{` (which is the first token it owns).
    let body = owners
        .iter()
        .position(|o| function.is_some() && o.as_deref() == function);
    let params = body.map_or(0..0, |b| {
        let keyword = tokens[..b]
            .iter()
            .rposition(|t| matches!(t.token, rhai::Token::Fn));
        keyword.map_or(b..b, |k| k + 2..b)
    });
    // Its variables and parameters: not a property or method after `.`, not a call.
    let token = |i: usize| tokens.get(i).map(|t: &Tok| &t.token);
    let identifiers: Vec<&str> = (0..tokens.len())
        .filter(|&i| {
            (params.contains(&i) || owners[i].as_deref() == function) && tokens[i].start != at
        })
        .filter(|&i| {
            !matches!(i.checked_sub(1).and_then(token), Some(rhai::Token::Period))
                && !matches!(token(i + 1), Some(rhai::Token::LeftParen))
        })
        .filter_map(|i| match &tokens[i].token {
            rhai::Token::Identifier(id) => Some(id.as_str()),
            _ => None,
        })
        .collect();
    if identifiers.contains(&name) {
        format!(
            "`{name}` is a variable of this function, but not here: an anonymous function (`|x| …`) cannot use the variables of the function it is written in (pass `{name}` as a parameter, or write a loop), and a `let` is seen only after it, inside its block"
        )
    } else if let Some(close) = crate::suggest::did_you_mean(name, identifiers) {
        format!("did you mean `{close}`?")
    } else {
        format!("`{name}` is not a parameter, a `let` or a `const` of this function")
    }
}

/// Load the `modules:` of a YAML file (`variant.yaml` or `bots.yaml`) and register each on the
/// engine under its name.
pub(crate) fn load_modules(
    engine: &mut Engine,
    root: &RulesRoot,
    yaml_path: &Path,
    yaml: &str,
    modules: &std::collections::BTreeMap<String, String>,
    sources: &mut Sources,
) -> Result<Vec<Compiled>, VariantError> {
    let mut compiled = Vec::new();
    for (name, written) in modules {
        let (path, src) = read_named(root, yaml_path, yaml, &["modules", name], written)?;
        let ast = compile(engine, &path, &src)?;
        let module = super::host::with_deadline(|| module_of(engine, name, &ast));
        let module = module.map_err(|(message, pos)| {
            let line = pos.line().unwrap_or_else(|| export_line(&src));
            VariantError::Script(Box::new(SourceDiagnostic::at_line(
                &path,
                &src,
                line,
                pos.position().unwrap_or(1),
                message,
                "here",
            )))
        })?;
        engine.register_static_module(name.as_str(), module.into());
        sources.insert(path.display().to_string(), (path.clone(), src.clone()));
        compiled.push(Compiled {
            path,
            src,
            ast,
            module: Some(name.clone()),
        });
    }
    Ok(compiled)
}

/// A compiled script with its file, kept for the static checks.
pub(crate) struct Compiled {
    pub(crate) path: PathBuf,
    pub(crate) src: String,
    pub(crate) ast: AST,
    /// The name a module is registered under (`None` for a variant's own script).
    pub(crate) module: Option<String>,
}

/// The unknown calls of scripts: each module checked against its own functions and the entry
/// scripts' (`merged` from the chain), the entry scripts against all of theirs.
pub(crate) fn lint(
    engine: &Engine,
    modules: &[Compiled],
    scripts: &[Compiled],
    merged: &AST,
    table: &crate::kernel::Table,
    natives: super::host::natives::Tables,
) -> Vec<SourceDiagnostic> {
    let known = lint::engine_functions(engine);
    let names = |ast: &AST| -> HashSet<String> {
        ast.iter_functions().map(|f| f.name.to_string()).collect()
    };
    let all = names(merged);
    let mut out = Vec::new();
    for m in modules {
        // A module's function may call the loading script's functions: Rhai finds them in the
        // caller's library when the module's function runs.
        let mut defined = names(&m.ast);
        defined.extend(all.iter().cloned());
        out.extend(lint::unknown_calls(
            &m.ast, &m.path, &m.src, &known, &defined,
        ));
    }
    for s in scripts {
        out.extend(lint::unknown_calls(&s.ast, &s.path, &s.src, &known, &all));
    }
    for c in modules.iter().chain(scripts) {
        out.extend(lint::unknown_literal_names(
            &c.ast, &c.path, &c.src, table, natives,
        ));
    }
    out
}

/// The line of the first `export` statement (1 when there is none).
fn export_line(src: &str) -> usize {
    src.lines()
        .position(|l| l.trim_start().starts_with("export"))
        .map_or(1, |i| i + 1)
}

/// A YAML scalar or list as a kernel value (`null` is `()`).
pub(crate) fn yaml_value(v: &serde_yaml::Value) -> Option<Value> {
    Some(match v {
        serde_yaml::Value::Null => Value::Unit,
        serde_yaml::Value::Bool(b) => Value::Bool(*b),
        serde_yaml::Value::Number(n) => match n.as_i64() {
            Some(i) => Value::Int(i),
            None => Value::Float(n.as_f64()?),
        },
        serde_yaml::Value::String(s) => Value::Str(s.clone()),
        serde_yaml::Value::Sequence(items) => {
            Value::List(items.iter().map(yaml_value).collect::<Option<_>>()?)
        }
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use crate::script::sources::compile;
    use std::path::Path;

    /// The hint `compile` gives for `src`.
    fn help(src: &str) -> String {
        let root =
            crate::script::host::files::RulesRoot::new(Path::new(env!("CARGO_MANIFEST_DIR")))
                .expect("the crate's folder");
        let engine = crate::script::host::sandboxed_engine(&root);
        match compile(&engine, Path::new("rules.rhai"), src) {
            Err(crate::script::host::error::VariantError::Script(d)) => d.help.unwrap_or_default(),
            other => panic!("expected a script error, got {other:?}"),
        }
    }

    #[test]
    fn an_undefined_variable_is_explained_or_a_close_name_suggested() {
        let closure = help("fn f(game, cards) {\n    cards.filter(|c| game.points(c) > 5)\n}\n");
        assert!(
            closure.starts_with(
                "`game` is a variable of this function, but not here: an anonymous function"
            ),
            "{closure}"
        );
        let typo = help("fn f(game, card) {\n    game.points(crad)\n}\n");
        assert_eq!(typo, "did you mean `card`?");
        // Methods and calls are not variables: `points` is not offered for `pints`.
        let far = help("fn f(game) {\n    game.points(pints)\n}\n");
        assert_eq!(
            far,
            "`pints` is not a parameter, a `let` or a `const` of this function"
        );
    }
}
