//! Loading a variant folder: `variant.yaml` and the files it extends, its Rhai modules and entry
//! script, the hook check and the rulebook. Every file is read through `RulesRoot`, so nothing
//! outside the rules folder is ever opened, and modules may hold no state.

use super::super::bots;
use super::super::host::error::{ConfigProblem, SourceDiagnostic, VariantError, locate};
use super::super::host::files::RulesRoot;
use super::super::host::sandboxed_engine;
use super::super::sources::{
    Compiled, Sources, compile, config_error, lint, load_modules, parse_yaml, read_file, read_named,
};
use super::rulebook::Rulebook;
use super::{EngineObserver, Variant, config};
use rhai::AST;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// How many `variant.yaml` files one `extends:` chain may hold.
pub const MAX_EXTENDS_DEPTH: usize = 8;

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

    /// Load `rules_dir/<name>/` with `observer` attached to its engine (coverage's probe,
    /// `Variant::load_named_probed`). Its hooks then run on the interpreter, which the observer
    /// watches.
    pub(crate) fn load_named_observed(
        rules_dir: &Path,
        name: &str,
        observer: Arc<dyn EngineObserver>,
    ) -> Result<Variant, VariantError> {
        Variant::load_named_inner(rules_dir, name, &[], Some(observer))
    }

    fn load_named_inner(
        rules_dir: &Path,
        name: &str,
        texts: &[(PathBuf, String)],
        probe: Option<Arc<dyn EngineObserver>>,
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
        probe: Option<Arc<dyn EngineObserver>>,
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
        let prove = config::prove_configs(&yaml, &file, &table)
            .map_err(|p| config_error(&yaml_path, &yaml, p))?;

        let mut engine = sandboxed_engine(root);
        if let Some(probe) = &probe {
            probe.clone().attach(&mut engine);
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
            super::super::host::natives::RULES,
        );
        // Only inherited functions need their file: the others are in the entry script.
        fn_files.retain(|_, file| *file != entry);
        let event_fields = super::super::sources::lint::event_fields(
            std::iter::once(&ast).chain(module_asts.iter().map(|m| &m.ast)),
        );
        let rule_calls = super::super::sources::lint::called_names(
            std::iter::once(&ast).chain(module_asts.iter().map(|m| &m.ast)),
        );

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
        for (id, why) in &file.prove_unplayed {
            let problem = if !rulebook.rules.iter().any(|r| r.id == *id) {
                format!(
                    "prove_unplayed: `{id}` is not a rule of the rulebook{}",
                    super::super::host::error::suggest(
                        id,
                        rulebook.rules.iter().map(|r| r.id.as_str())
                    )
                )
            } else if why.trim().is_empty() {
                format!("prove_unplayed: say why no game plays `{id}`")
            } else {
                continue;
            };
            return Err(config_error(
                &yaml_path,
                &yaml,
                ConfigProblem {
                    message: problem,
                    span: locate(&yaml, &["prove_unplayed"], Some(id)),
                },
            ));
        }
        let bots_link = own_file("bots.yaml");
        let table = Arc::new(table);
        let bots = bots::BotBook::load(root, link_dir(bots_link), &table)?;
        let bots_from = bots.as_ref().and(inherited_from(bots_link));
        let modules: Vec<(String, &AST)> = module_asts
            .iter()
            .filter_map(|m| Some((m.module.clone()?, &m.ast)))
            .collect();
        let program = super::super::compiled::Program::compile(
            &engine,
            super::super::host::natives::RULES,
            Some(&table),
            &ast,
            &modules,
        );
        let extends = chain
            .get(1)
            .map(|l| link_name(l).unwrap_or_default().to_string());
        let refusals_first = super::super::sources::refusals::refusals_first(&ast, &modules);
        let checked_until_change = action_hooks
            .iter()
            .map(|hook| refusals_first.contains(&(hook.clone(), 3)))
            .collect();
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
            prove,
            prove_unplayed: file.prove_unplayed.clone().into_iter().collect(),
            fn_files,
            unknown_calls,
            event_fields,
            rule_calls,
            sources,
            // Each action's hook and its compiled function, found once.
            action_hooks: action_hooks
                .into_iter()
                .map(|hook| {
                    let compiled = program.compiled(&hook, 3);
                    (hook, compiled)
                })
                .collect(),
            checked_until_change,
            hooks,
            entry,
            // Counting nodes needs the interpreter's debugger hooks.
            engine_kind: if probe.is_some() {
                super::super::host::EngineKind::Interpreted
            } else {
                super::super::host::EngineKind::default()
            },
            probe,
            program,
        })
    }
}
