//! Loading a variant folder: `variant.yaml` and the files it extends, its Rhai modules and entry
//! script, the hook check and the rulebook. Every file is read through `RulesRoot`, so nothing
//! outside the rules folder is ever opened, and modules may hold no state.

use super::error::{ConfigProblem, SourceDiagnostic, VariantError, locate};
use super::files::{MAX_YAML_DEPTH, RulesRoot, check_yaml_depth};
use super::rulebook::Rulebook;
use super::{Variant, bots, config, sandboxed_engine};
use rhai::{AST, Engine, EvalAltResult, Module, Position, Scope, Shared};

type SharedModule = Shared<Module>;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// How many `variant.yaml` files one `extends:` chain may hold.
pub const MAX_EXTENDS_DEPTH: usize = 8;

/// Script sources by the name Rhai reports them under, for diagnostics.
pub(crate) type Sources = HashMap<String, (PathBuf, String)>;

fn config_error(path: &Path, src: &str, p: ConfigProblem) -> VariantError {
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
    problem: super::files::PathProblem,
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

/// One file of an `extends:` chain.
struct ChainLink {
    path: PathBuf,
    canonical: PathBuf,
    src: String,
    value: serde_yaml::Value,
}

/// `variant.yaml` merged over the files it extends (each over the one it names), and the chain
/// of files, the variant's own first.
fn merged_variant_yaml(
    root: &RulesRoot,
    path: &Path,
    src: &str,
) -> Result<(serde_yaml::Value, Vec<ChainLink>), VariantError> {
    let canonical = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
    let mut chain = vec![ChainLink {
        path: path.to_path_buf(),
        canonical,
        src: src.to_string(),
        value: parse_yaml(path, src)?,
    }];
    loop {
        let link = chain
            .last()
            .expect("the chain starts with the variant's own file");
        let Some(extends) = link.value.get("extends") else {
            break;
        };
        let at = |message: String| {
            VariantError::Config(Box::new(SourceDiagnostic::new(
                &link.path,
                &link.src,
                locate(&link.src, &["extends"], extends.as_str()),
                message,
                "here",
            )))
        };
        let Some(written) = extends.as_str() else {
            return Err(at(
                "`extends` takes the path of another variant.yaml, relative to this file".into(),
            ));
        };
        let (base, base_src) = read_named(root, &link.path, &link.src, &["extends"], written)?;
        let canonical = base.canonicalize().unwrap_or_else(|_| base.clone());
        if let Some(first) = chain.iter().position(|l| l.canonical == canonical) {
            let names: Vec<String> = chain[first..]
                .iter()
                .map(|l| l.path.display().to_string())
                .chain(std::iter::once(base.display().to_string()))
                .collect();
            return Err(at(format!(
                "`extends` makes a cycle: {}",
                names.join(" → ")
            )));
        }
        if chain.len() >= MAX_EXTENDS_DEPTH {
            return Err(at(format!(
                "`extends` goes more than {MAX_EXTENDS_DEPTH} files deep"
            )));
        }
        let value = parse_yaml(&base, &base_src)?;
        chain.push(ChainLink {
            path: base,
            canonical,
            src: base_src,
            value,
        });
    }
    let mut links = chain.iter().rev();
    let mut merged = links.next().expect("the chain is not empty").value.clone();
    for link in links {
        config::merge(&mut merged, link.value.clone());
    }
    Ok((merged, chain))
}

/// The `modules:` of an extends chain, each resolved against the file that names it: by name, the
/// link (index in the chain) that names it last and the path as written. `!delete` removes one.
fn chain_modules(chain: &[ChainLink]) -> std::collections::BTreeMap<String, (usize, String)> {
    let mut out = std::collections::BTreeMap::new();
    for (i, link) in chain.iter().enumerate().rev() {
        let Some(serde_yaml::Value::Mapping(modules)) = link.value.get("modules") else {
            continue;
        };
        for (name, written) in modules {
            let Some(name) = name.as_str() else { continue };
            match written.as_str() {
                Some(w) => {
                    out.insert(name.to_string(), (i, w.to_string()));
                }
                None => {
                    out.remove(name);
                }
            }
        }
    }
    out
}

/// The `name:` a chain link gives its variant, if it gives one.
fn link_name(link: &ChainLink) -> Option<&str> {
    link.value.get("name").and_then(serde_yaml::Value::as_str)
}

/// The folder of a chain link's `variant.yaml`.
fn link_dir(link: &ChainLink) -> &Path {
    link.path.parent().unwrap_or(Path::new("."))
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
    if let Some(pos) = super::lint::folded_constant_assignment(&ast) {
        return Err(VariantError::Script(Box::new(SourceDiagnostic::at_line(
            path,
            src,
            pos.line().unwrap_or(1),
            pos.position().unwrap_or(1),
            super::lint::CONSTANT_CHANGED.to_string(),
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
    use super::tokens::{Tok, hooks, tokenize};
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

/// The variables a module exports that scripts could change: scripts keep no state outside the
/// game, so only constants (`export const`) are allowed.
fn mutable_exports(module: &Module) -> Vec<String> {
    let mut names: Vec<String> = module
        .iter_var()
        .filter(|(_, v)| !v.is_read_only())
        .map(|(n, _)| n.to_string())
        .collect();
    names.sort();
    names
}

fn stateful_module_message(name: &str, vars: &[String]) -> String {
    format!(
        "module `{name}` exports the variable{} {}: rule scripts keep no state outside the game; put what a hook must remember in a game variable (`vars:` in variant.yaml), or use `export const`",
        if vars.len() == 1 { "" } else { "s" },
        vars.iter()
            .map(|v| format!("`{v}`"))
            .collect::<Vec<_>>()
            .join(", ")
    )
}

/// Evaluate a compiled module script into a stateless module.
fn module_of(engine: &Engine, name: &str, ast: &AST) -> Result<Module, (String, Position)> {
    let module = Module::eval_ast_as_new(Scope::new(), ast, engine)
        .map_err(|e| (format!("module `{name}` does not load: {e}"), e.position()))?;
    let vars = mutable_exports(&module);
    if vars.is_empty() {
        Ok(module)
    } else {
        Err((stateful_module_message(name, &vars), Position::NONE))
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
        let module = super::with_deadline(|| module_of(engine, name, &ast));
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
    natives: super::natives::Tables,
) -> Vec<SourceDiagnostic> {
    let known = super::lint::engine_functions(engine);
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
        out.extend(super::lint::unknown_calls(
            &m.ast, &m.path, &m.src, &known, &defined,
        ));
    }
    for s in scripts {
        out.extend(super::lint::unknown_calls(
            &s.ast, &s.path, &s.src, &known, &all,
        ));
    }
    for c in modules.iter().chain(scripts) {
        out.extend(super::lint::unknown_literal_names(
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

/// Rhai `import "name"` inside the rules folder only: the path is relative to the importing
/// script, must stay inside the root and name a regular file, and the module may hold no state.
pub(crate) struct ConfinedResolver {
    root: RulesRoot,
    cache: Mutex<HashMap<PathBuf, SharedModule>>,
}

impl ConfinedResolver {
    pub(crate) fn new(root: RulesRoot) -> ConfinedResolver {
        ConfinedResolver {
            root,
            cache: Mutex::new(HashMap::new()),
        }
    }
}

impl rhai::ModuleResolver for ConfinedResolver {
    fn resolve(
        &self,
        engine: &Engine,
        source: Option<&str>,
        path: &str,
        pos: Position,
    ) -> Result<SharedModule, Box<EvalAltResult>> {
        let fail = |message: String| {
            Box::new(EvalAltResult::ErrorRuntime(
                format!("import \"{path}\": {message}").into(),
                pos,
            ))
        };
        let from = source.map_or_else(|| self.root.shown().join("-"), PathBuf::from);
        let written = if path.ends_with(".rhai") {
            path.to_string()
        } else {
            format!("{path}.rhai")
        };
        let file = self
            .root
            .resolve(&from, &written)
            .map_err(|p| fail(p.to_string()))?;
        let cache = |c: &Mutex<HashMap<PathBuf, SharedModule>>| {
            c.lock()
                .unwrap_or_else(|e| e.into_inner())
                .get(&file)
                .cloned()
        };
        if let Some(module) = cache(&self.cache) {
            return Ok(module);
        }
        let src = self
            .root
            .read(&file, &written)
            .map_err(|p| fail(p.to_string()))?;
        let mut ast = engine
            .compile(&src)
            .map_err(|e| fail(format!("does not compile: {e}")))?;
        ast.set_source(file.display().to_string());
        let module: SharedModule = module_of(engine, path, &ast)
            .map_err(|(message, _)| fail(message))?
            .into();
        self.cache
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(file, module.clone());
        Ok(module)
    }
}

/// The variants under a rules folder (each subfolder with a `variant.yaml`), sorted.
pub fn variant_names(rules_dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(rules_dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| e.path().join("variant.yaml").is_file())
        .filter_map(|e| e.file_name().to_str().map(str::to_string))
        .collect();
    names.sort();
    names
}

fn is_variant_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 64
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

impl Variant {
    /// Load `rules_dir/<name>/`.
    pub fn load_named(rules_dir: &Path, name: &str) -> Result<Variant, VariantError> {
        Variant::load_named_with(rules_dir, name, &[])
    }

    /// Load `rules_dir/<name>/`, reading these texts instead of the files at those paths (a
    /// mutant of a rule script, for `deckspec mutate`). Every path check still applies.
    pub fn load_named_with(
        rules_dir: &Path,
        name: &str,
        texts: &[(PathBuf, String)],
    ) -> Result<Variant, VariantError> {
        Variant::load_named_inner(rules_dir, name, texts, None)
    }

    /// Load `rules_dir/<name>/` with a probe that counts every script node its hooks run, for
    /// coverage (`take_hits`). Its hooks run a few times slower than a plain variant's.
    pub fn load_named_probed(rules_dir: &Path, name: &str) -> Result<Variant, VariantError> {
        Variant::load_named_inner(rules_dir, name, &[], Some(Arc::default()))
    }

    fn load_named_inner(
        rules_dir: &Path,
        name: &str,
        texts: &[(PathBuf, String)],
        probe: Option<Arc<super::probe::Probe>>,
    ) -> Result<Variant, VariantError> {
        let root = RulesRoot::new(rules_dir)
            .ok_or_else(|| VariantError::NoRulesFolder {
                dir: rules_dir.display().to_string(),
            })?
            .with_overlay(texts);
        if !is_variant_name(name) {
            return Err(VariantError::BadName {
                name: name.to_string(),
            });
        }
        let dir = rules_dir.join(name);
        if !dir.join("variant.yaml").is_file() {
            let names = variant_names(rules_dir);
            let help = match crate::suggest::did_you_mean(name, names.iter().map(String::as_str)) {
                Some(n) => format!("did you mean `{n}`?"),
                None if names.is_empty() => format!(
                    "{} holds no variant (a folder with a variant.yaml)",
                    rules_dir.display()
                ),
                None => format!("the variants there are: {}", names.join(", ")),
            };
            return Err(VariantError::Unknown {
                name: name.to_string(),
                dir: rules_dir.display().to_string(),
                help,
            });
        }
        Variant::load_in(&root, &dir, probe)
    }

    /// Load a variant folder: `variant.yaml`, its scripts, `rulebook.yaml` and `bots.yaml`. Its
    /// files may name files anywhere under the folder's parent (the rules folder).
    pub fn load(dir: &Path) -> Result<Variant, VariantError> {
        let parent = dir
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        let root = RulesRoot::new(parent).ok_or_else(|| VariantError::NoRulesFolder {
            dir: parent.display().to_string(),
        })?;
        Variant::load_in(&root, dir, None)
    }

    fn load_in(
        root: &RulesRoot,
        dir: &Path,
        probe: Option<Arc<super::probe::Probe>>,
    ) -> Result<Variant, VariantError> {
        let yaml_path = dir.join("variant.yaml");
        let yaml = read_file(root, &yaml_path)?;
        let (merged, chain) = merged_variant_yaml(root, &yaml_path, &yaml)?;
        let loaded = if chain.len() > 1 {
            config::load_value(&yaml, merged)
        } else {
            config::load(&yaml)
        };
        let (file, table, house_rules) = loaded.map_err(|p| config_error(&yaml_path, &yaml, p))?;

        let mut engine = sandboxed_engine(root);
        if let Some(probe) = &probe {
            super::probe::attach(&mut engine, probe.clone());
        }
        let mut sources = Sources::new();
        let mut module_asts = Vec::new();
        let mut script_asts = Vec::new();
        // Modules, each resolved against the file that names it.
        let modules = chain_modules(&chain);
        for (i, link) in chain.iter().enumerate() {
            let own: std::collections::BTreeMap<String, String> = modules
                .iter()
                .filter(|(_, (at, _))| *at == i)
                .map(|(name, (_, written))| (name.clone(), written.clone()))
                .collect();
            module_asts.extend(load_modules(
                &mut engine,
                root,
                &link.path,
                &link.src,
                &own,
                &mut sources,
            )?);
        }

        // Scripts, the base's first: a derived script's functions replace the base's functions
        // of the same name and arity; the others (hooks included) are inherited.
        let mut ast: Option<AST> = None;
        let mut entry_file: Option<(PathBuf, String)> = None;
        let mut fn_files: HashMap<String, String> = HashMap::new();
        for link in chain.iter().rev() {
            let Some(written) = link.value.get("script").and_then(serde_yaml::Value::as_str) else {
                continue;
            };
            let (path, src) = read_named(root, &link.path, &link.src, &["script"], written)?;
            let compiled = compile(&engine, &path, &src)?;
            let shown = path.display().to_string();
            for f in compiled.iter_functions() {
                fn_files.insert(f.name.to_string(), shown.clone());
            }
            ast = Some(match ast {
                None => compiled.clone(),
                Some(base) => base.merge(&compiled),
            });
            script_asts.push(Compiled {
                path: path.clone(),
                src: src.clone(),
                ast: compiled,
                module: None,
            });
            sources.insert(shown, (path.clone(), src.clone()));
            entry_file = Some((path, src));
        }
        let (Some(mut ast), Some((script_path, script))) = (ast, entry_file) else {
            // `script:` is required, so serde has refused a chain without one already.
            return Err(config_error(
                &yaml_path,
                &yaml,
                ConfigProblem {
                    message: "variant.yaml needs `script:`, the entry script".into(),
                    span: (0, 0),
                },
            ));
        };
        let entry = script_path.display().to_string();
        ast.set_source(entry.clone());
        let unknown_calls = lint(
            &engine,
            &module_asts,
            &script_asts,
            &ast,
            &table,
            super::natives::RULES,
        );
        // Only inherited functions need their file: the others are in the entry script.
        fn_files.retain(|_, file| *file != entry);

        let hooks: HashSet<(String, usize)> = ast
            .iter_functions()
            .map(|f| (f.name.to_string(), f.params.len()))
            .collect();
        let missing = |hook: &str, arity: usize| !hooks.contains(&(hook.to_string(), arity));
        let script_error = |message: String| {
            VariantError::Script(Box::new(SourceDiagnostic::new(
                &script_path,
                &script,
                (0, script.find('\n').unwrap_or(script.len())),
                message,
                "in this script",
            )))
        };
        for (hook, params) in [("setup", "game"), ("start_turn", "game, player")] {
            let arity = params.split(',').count();
            if missing(hook, arity) {
                return Err(script_error(format!(
                    "the script defines no `fn {hook}({params})`, which every variant needs"
                )));
            }
        }
        if !table.timers.is_empty() && missing("on_timer", 3) {
            return Err(script_error(
                "variant.yaml declares timers, but the script defines no `fn on_timer(game, name, player)`".into(),
            ));
        }
        let mut action_hooks = Vec::with_capacity(table.actions.len());
        for action in &table.actions {
            let hook = format!("on_{}", action.name);
            if missing(&hook, 3) {
                let span = locate(&yaml, &["actions", &action.name], None);
                return Err(VariantError::Config(Box::new(SourceDiagnostic::new(
                    &yaml_path,
                    &yaml,
                    span,
                    format!(
                        "action `{}` has no hook: define `fn {hook}(game, player, args)` in {}",
                        action.name,
                        script_path.display()
                    ),
                    "declared here",
                ))));
            }
            action_hooks.push(hook);
        }

        // The rulebook and bots: the variant's own, or the nearest base's.
        let own_file = |file: &str| {
            chain
                .iter()
                .find(|l| link_dir(l).join(file).is_file())
                .unwrap_or(&chain[0])
        };
        let inherited_from = |link: &ChainLink| {
            (!std::ptr::eq(link, &chain[0]))
                .then(|| link_name(link).unwrap_or_default().to_string())
        };
        let book_link = own_file("rulebook.yaml");
        let book_path = link_dir(book_link).join("rulebook.yaml");
        let rulebook = Rulebook::load(root, &book_path)?;
        let book_owner = link_name(book_link).unwrap_or(&file.name);
        if rulebook.variant != book_owner {
            let book_src = read_file(root, &book_path)?;
            return Err(config_error(
                &book_path,
                &book_src,
                ConfigProblem {
                    message: format!(
                        "this rulebook says `variant: {}`, but it is the rulebook of `{book_owner}`: write `variant: {book_owner}`",
                        rulebook.variant
                    ),
                    span: locate(&book_src, &["variant"], None),
                },
            ));
        }
        let rulebook_from = inherited_from(book_link);
        let bots_link = own_file("bots.yaml");
        let table = Arc::new(table);
        let bots = bots::BotBook::load(root, link_dir(bots_link), &table)?;
        let bots_from = bots.as_ref().and(inherited_from(bots_link));
        let modules: Vec<(String, &AST)> = module_asts
            .iter()
            .filter_map(|m| Some((m.module.clone()?, &m.ast)))
            .collect();
        let program = super::compiled::Program::compile(
            &engine,
            super::natives::RULES,
            Some(&table),
            &ast,
            &modules,
        );
        let extends = chain
            .get(1)
            .map(|l| link_name(l).unwrap_or_default().to_string());
        Ok(Variant {
            name: file.name.clone(),
            dir: dir.to_path_buf(),
            description: file.description.clone(),
            table,
            engine,
            ast,
            rulebook,
            rulebook_from,
            house_rules,
            bots,
            bots_from,
            extends,
            action_docs: file
                .actions
                .iter()
                .map(|(name, a)| (name.clone(), a.doc.clone()))
                .collect(),
            fn_files,
            unknown_calls,
            sources,
            // Each action's hook and its compiled function, found once.
            action_hooks: action_hooks
                .into_iter()
                .map(|hook| {
                    let compiled = program.compiled(&hook, 3);
                    (hook, compiled)
                })
                .collect(),
            hooks,
            entry,
            // Counting nodes needs the interpreter's debugger hooks.
            engine_kind: if probe.is_some() {
                super::EngineKind::Interpreted
            } else {
                super::EngineKind::default()
            },
            probe,
            program,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::compile;
    use std::path::Path;

    /// The hint `compile` gives for `src`.
    fn help(src: &str) -> String {
        let root = crate::script::files::RulesRoot::new(Path::new(env!("CARGO_MANIFEST_DIR")))
            .expect("the crate's folder");
        let engine = crate::script::sandboxed_engine(&root);
        match compile(&engine, Path::new("rules.rhai"), src) {
            Err(crate::script::error::VariantError::Script(d)) => d.help.unwrap_or_default(),
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
