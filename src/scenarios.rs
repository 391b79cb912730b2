//! Running scenario files against rule-script variants: `ScriptProvider` loads each variant a
//! scenario names (once) for the spec runner, and `render` shows a diagnostic as a terminal does.
//! This is the one place where `script` and `spec` meet; neither uses the other.

use crate::kernel::RuleError;
use crate::script::{EngineKind, Variant, VariantError, variant_names};
use crate::spec::runner::{SpecVariant, Unavailable, VariantProvider};
use std::collections::HashMap;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

type Loaded = Result<Arc<Variant>, Arc<VariantError>>;

/// Script variants, loaded once each, for the spec runner (`spec::suite`): pass it wherever a
/// `VariantProvider` is asked for. Shared between threads.
pub struct ScriptProvider {
    rules_dir: PathBuf,
    loaded: Mutex<HashMap<String, Loaded>>,
    /// Load each variant with a coverage probe (`probed`).
    probed: bool,
    /// The engine its variants run their scripts on.
    engine: EngineKind,
    /// Texts read instead of the files at those paths (an editor's unsaved buffers).
    overlay: Vec<(PathBuf, String)>,
}

impl ScriptProvider {
    /// A provider of the variants under `rules_dir` (each a folder with a `variant.yaml`).
    pub fn new(rules_dir: &Path) -> ScriptProvider {
        ScriptProvider {
            rules_dir: rules_dir.to_path_buf(),
            loaded: Mutex::new(HashMap::new()),
            probed: false,
            engine: EngineKind::default(),
            overlay: Vec::new(),
        }
    }

    /// The same provider, its variants read with these texts instead of the files at those paths
    /// (each an existing file under the rules folder, as `Variant::load_named_with` takes them).
    pub fn with_overlay(mut self, texts: Vec<(PathBuf, String)>) -> ScriptProvider {
        self.overlay = texts;
        self
    }

    /// The same provider, its variants running their scripts on `engine`.
    pub fn with_engine(mut self, engine: EngineKind) -> ScriptProvider {
        self.engine = engine;
        self
    }

    /// A provider whose variants count the script nodes their hooks run (for coverage): collect
    /// the counts with `take_hits`.
    pub fn probed(rules_dir: &Path) -> ScriptProvider {
        ScriptProvider {
            probed: true,
            ..ScriptProvider::new(rules_dir)
        }
    }

    /// The counts of every variant loaded so far since the last call (empty unless `probed`).
    pub fn take_hits(&self) -> crate::script::probe::Hits {
        self.take_hits_split().0
    }

    /// The counts since the last call, as `take_hits`, and the part of them that actions the
    /// rules refused ran (`Variant::take_hits_split`).
    pub fn take_hits_split(&self) -> (crate::script::probe::Hits, crate::script::probe::Hits) {
        let loaded = self.loaded.lock().unwrap_or_else(|e| e.into_inner());
        let mut all = crate::script::probe::Hits::new();
        let mut refused = crate::script::probe::Hits::new();
        for variant in loaded.values().flatten() {
            let (a, r) = variant.take_hits_split();
            for (into, from) in [(&mut all, a), (&mut refused, r)] {
                for (at, count) in from {
                    *into.entry(at).or_default() += count;
                }
            }
        }
        (all, refused)
    }

    /// The variant `name`, loaded and compiled on first use; later calls share it, and a variant
    /// that failed to load gives the same error again.
    pub fn load(&self, name: &str) -> Result<Arc<Variant>, Arc<VariantError>> {
        let mut loaded = self.loaded.lock().unwrap_or_else(|e| e.into_inner());
        loaded
            .entry(name.to_string())
            .or_insert_with(|| {
                let loaded = if self.probed {
                    Variant::load_named_probed(&self.rules_dir, name)
                } else {
                    Variant::load_named_with(&self.rules_dir, name, &self.overlay).map(|mut v| {
                        v.set_engine(self.engine);
                        v
                    })
                };
                loaded.map(Arc::new).map_err(Arc::new)
            })
            .clone()
    }

    /// The variant `name` as loaded so far, without loading it.
    pub fn loaded(&self, name: &str) -> Option<Result<Arc<Variant>, Arc<VariantError>>> {
        let loaded = self.loaded.lock().unwrap_or_else(|e| e.into_inner());
        loaded.get(name).cloned()
    }

    /// Take `variant` as the variant `name`, loaded (one another provider loaded from the same
    /// files).
    pub fn adopt(&self, name: &str, variant: Arc<Variant>) {
        let mut loaded = self.loaded.lock().unwrap_or_else(|e| e.into_inner());
        loaded.insert(name.to_string(), Ok(variant));
    }

    /// The names of the variants asked for so far (loaded or not), sorted.
    pub fn loaded_names(&self) -> Vec<String> {
        let loaded = self.loaded.lock().unwrap_or_else(|e| e.into_inner());
        let mut names: Vec<String> = loaded.keys().cloned().collect();
        names.sort();
        names
    }

    /// Variants that exist but failed to load, with their errors (a name that is no variant is
    /// the scenario file's problem, reported there with a suggestion).
    pub fn failures(&self) -> Vec<(String, Arc<VariantError>)> {
        let loaded = self.loaded.lock().unwrap_or_else(|e| e.into_inner());
        let mut out: Vec<_> = loaded
            .iter()
            .filter_map(|(n, r)| r.as_ref().err().map(|e| (n.clone(), e.clone())))
            .filter(|(_, e)| !matches!(**e, VariantError::Unknown { .. }))
            .collect();
        out.sort_by(|a, b| a.0.cmp(&b.0));
        out
    }
}

impl SpecVariant for Variant {
    fn rule_ids(&self) -> Vec<String> {
        self.rulebook.ids().map(str::to_string).collect()
    }

    fn describe_fault(&self, error: &RuleError) -> String {
        match error {
            RuleError::Fault {
                message,
                pos: Some(pos),
            } => {
                format!("{message} at {}:{}:{}", pos.file, pos.line, pos.column)
            }
            other => other.to_string(),
        }
    }

    fn render_fault(&self, error: &RuleError) -> Option<String> {
        self.diagnose(error).map(|d| render(&d))
    }

    fn bot_levels(&self) -> Vec<String> {
        self.bots
            .as_ref()
            .map(|b| b.levels().map(str::to_string).collect())
            .unwrap_or_default()
    }

    fn bot<'a>(
        &'a self,
        seat: crate::kernel::Seat,
        level: &str,
        game: &crate::kernel::Game,
        seed: u64,
    ) -> Option<crate::spec::runner::BotPlayer<'a>> {
        let book = self.bots.as_ref()?;
        let mut bot = book.bot(seat, level, game, seed)?;
        Some(Box::new(move |game| book.decide(&mut bot, game)))
    }
}

impl VariantProvider for ScriptProvider {
    fn variant(&self, name: &str) -> Result<Arc<dyn SpecVariant>, Unavailable> {
        self.load(name)
            .map(|v| v as Arc<dyn SpecVariant>)
            .map_err(|e| match &*e {
                VariantError::Unknown { .. } => Unavailable::Unknown,
                other => Unavailable::Broken(other.short()),
            })
    }

    fn names(&self) -> Vec<String> {
        variant_names(&self.rules_dir)
    }
}

/// Render a diagnostic the way a terminal (or a log, without colour) should show it.
pub fn render(diagnostic: &dyn miette::Diagnostic) -> String {
    let theme = if std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none() {
        miette::GraphicalTheme::unicode()
    } else {
        miette::GraphicalTheme::unicode_nocolor()
    };
    let mut out = String::new();
    let handler = miette::GraphicalReportHandler::new_themed(theme).with_context_lines(1);
    if handler.render_report(&mut out, diagnostic).is_err() {
        out = diagnostic.to_string();
    }
    out
}
