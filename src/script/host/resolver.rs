//! Rhai's `import` inside the rules folder only (`ConfinedResolver`), and the check that a
//! module holds no state: a module's variables would outlive a game.

use super::files::RulesRoot;
use rhai::{AST, Engine, EvalAltResult, Module, Position, Scope, Shared};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Mutex;

type SharedModule = Shared<Module>;

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
pub(crate) fn module_of(
    engine: &Engine,
    name: &str,
    ast: &AST,
) -> Result<Module, (String, Position)> {
    let module = Module::eval_ast_as_new(Scope::new(), ast, engine)
        .map_err(|e| (format!("module `{name}` does not load: {e}"), e.position()))?;
    let vars = mutable_exports(&module);
    if vars.is_empty() {
        Ok(module)
    } else {
        Err((stateful_module_message(name, &vars), Position::NONE))
    }
}

/// Rhai `import "name"` inside the rules folder only: the path is relative to the importing
/// script, must stay inside the root and name a regular file, and the module may hold no state.
pub(super) struct ConfinedResolver {
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
