//! The rules project as the server sees it: its folders, the buffers the editor has open (their
//! unsaved text read in place of the files), the variants loaded through them, and every problem
//! of its rule files and scenario files, by file. A problem in one file that comes from another
//! (a scenario naming an action the variant no longer declares) is found again whenever a rules
//! buffer changes.

use super::feature;
use super::position::{absolute, floor_char_boundary, path_of, range, uri_of};
use crate::scenarios::ScriptProvider;
use crate::script::{SourceDiagnostic, Variant, VariantError, variant_names};
use crate::spec::suite;
use lsp_types::{Diagnostic, DiagnosticSeverity, Uri};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::Arc;

/// The most bytes of an open buffer the server keeps and checks (as `deckspec check` reads at
/// most that much of a file).
const MAX_BUFFER_BYTES: usize = crate::spec::limits::MAX_FILE_BYTES;

/// The most buffers the server keeps open at once: an editor opens a few dozen.
const MAX_BUFFERS: usize = 4096;

/// What kind of file a buffer is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A scenario file (`.feature`).
    Feature,
    /// A rule script or module (`.rhai`).
    Script,
    /// A rules YAML file (`variant.yaml`, `bots.yaml`, `rulebook.yaml`, …).
    Yaml,
    /// Anything else: kept for nothing.
    Other,
}

impl Kind {
    fn of(path: &Path) -> Kind {
        match path.extension().and_then(|e| e.to_str()) {
            Some("feature") => Kind::Feature,
            Some("rhai") => Kind::Script,
            Some("yaml" | "yml") => Kind::Yaml,
            _ => Kind::Other,
        }
    }
}

/// An open buffer.
pub struct Buffer {
    /// The file it edits (absolute).
    pub path: PathBuf,
    /// Its text as typed.
    pub text: String,
    /// What kind of file it is.
    pub kind: Kind,
}

/// Diagnostics to publish, by document.
pub type Publish = Vec<(Uri, Vec<Diagnostic>)>;

/// The project: its folders, open buffers and the variants loaded through them.
pub struct Project {
    /// The rules folder, as given (messages name files under it as `deckspec check` does).
    pub rules_dir: PathBuf,
    /// The rules folder, absolute.
    rules_abs: PathBuf,
    /// The folder of the project's scenario files.
    pub specs_dir: PathBuf,
    buffers: BTreeMap<String, Buffer>,
    /// The variants, read through the open rules buffers.
    pub provider: ScriptProvider,
    /// The problems last published, by document (only documents with problems).
    last: BTreeMap<String, Vec<Diagnostic>>,
    /// Whether the scenario files are to be checked again (`take_scenarios_due`).
    scenarios_due: bool,
    /// The variants a rules change touched (`None`: any may have changed): only the scenario
    /// files that play them are checked again.
    affected: Option<BTreeSet<String>>,
    /// The rules buffer whose change is being checked.
    changed: Option<String>,
}

impl Project {
    /// The project of `rules_dir`, its scenarios under `specs_dir`.
    pub fn new(rules_dir: &Path, specs_dir: &Path) -> Project {
        Project {
            rules_dir: rules_dir.to_path_buf(),
            rules_abs: absolute(rules_dir),
            specs_dir: specs_dir.to_path_buf(),
            buffers: BTreeMap::new(),
            provider: ScriptProvider::new(rules_dir),
            last: BTreeMap::new(),
            scenarios_due: false,
            affected: None,
            changed: None,
        }
    }

    /// The open buffer of `uri`.
    pub fn buffer(&self, uri: &Uri) -> Option<&Buffer> {
        self.buffers.get(uri.as_str())
    }

    /// A buffer opened or changed: kept, and what it changes checked. A scenario buffer is
    /// checked alone; a rules buffer loads the variants again and checks the whole project.
    pub fn set_buffer(&mut self, uri: &Uri, mut text: String) -> Publish {
        let Some(path) = path_of(uri) else {
            return Vec::new();
        };
        let kind = Kind::of(&path);
        if kind == Kind::Other
            || (self.buffers.len() >= MAX_BUFFERS && !self.buffers.contains_key(uri.as_str()))
        {
            return Vec::new();
        }
        if text.len() > MAX_BUFFER_BYTES {
            text.truncate(floor_char_boundary(&text, MAX_BUFFER_BYTES));
        }
        let rules = self.is_rules_file(&path);
        self.buffers
            .insert(uri.as_str().to_string(), Buffer { path, text, kind });
        if kind == Kind::Feature {
            let diagnostics = self.feature_diagnostics(uri);
            if diagnostics.is_empty() {
                self.last.remove(uri.as_str());
            } else {
                self.last
                    .insert(uri.as_str().to_string(), diagnostics.clone());
            }
            return vec![(uri.clone(), diagnostics)];
        }
        if rules {
            let path = self.buffers[uri.as_str()].path.clone();
            self.affected = self.reload(Some(&path));
            self.scenarios_due = true;
            self.changed = Some(uri.as_str().to_string());
            return self.check_rules();
        }
        Vec::new()
    }

    /// A buffer closed: its file is read from disk again.
    pub fn close(&mut self, uri: &Uri) -> Publish {
        let Some(buffer) = self.buffers.remove(uri.as_str()) else {
            return Vec::new();
        };
        self.affected = if buffer.kind != Kind::Feature && self.is_rules_file(&buffer.path) {
            self.reload(Some(&buffer.path))
        } else {
            Some(BTreeSet::new())
        };
        self.scenarios_due = true;
        self.check_rules()
    }

    /// A file saved (or changed on disk): the variants loaded again, the project checked.
    pub fn saved(&mut self) -> Publish {
        self.affected = self.reload(None);
        self.scenarios_due = true;
        self.check_rules()
    }

    /// Load the variants again, through the open rules buffers: those that read `changed` (all
    /// when it is `None`), which it returns (`None`: all); the others are kept as they were.
    fn reload(&mut self, changed: Option<&Path>) -> Option<BTreeSet<String>> {
        let overlay: Vec<(PathBuf, String)> = self
            .buffers
            .values()
            .filter(|b| b.kind != Kind::Feature && self.is_rules_file(&b.path))
            .map(|b| (b.path.clone(), b.text.clone()))
            .collect();
        let old = std::mem::replace(
            &mut self.provider,
            ScriptProvider::new(&self.rules_dir).with_overlay(overlay),
        );
        let changed = changed?;
        let mut affected = BTreeSet::new();
        for name in variant_names(&self.rules_dir) {
            match old.loaded(&name) {
                Some(Ok(v)) if !reads(&old, &v, changed) => self.provider.adopt(&name, v),
                _ => {
                    affected.insert(name);
                }
            }
        }
        Some(affected)
    }

    fn is_rules_file(&self, path: &Path) -> bool {
        path.starts_with(&self.rules_abs)
    }

    /// The problems of one open scenario buffer.
    fn feature_diagnostics(&self, uri: &Uri) -> Vec<Diagnostic> {
        match self.buffers.get(uri.as_str()) {
            Some(b) => feature::diagnostics(&b.text, &self.provider),
            None => Vec::new(),
        }
    }

    /// Every problem of the project: each variant's rule files, each scenario file (an open
    /// buffer's text, else the file's); what had problems and has none now is cleared.
    pub fn check_all(&mut self) -> Publish {
        let mut out = self.check_rules();
        out.extend(self.check_scenarios());
        out
    }

    /// Whether a rules change has left the scenario files to check again (`check_scenarios`):
    /// the rules' own diagnostics go out first, so that the edited file's arrive at once.
    pub fn take_scenarios_due(&mut self) -> bool {
        std::mem::take(&mut self.scenarios_due)
    }

    /// The problems of every variant's rule files.
    pub fn check_rules(&mut self) -> Publish {
        let mut found: BTreeMap<PathBuf, Vec<Diagnostic>> = BTreeMap::new();
        for (path, diagnostic) in self.rules_problems() {
            let list = found.entry(path).or_default();
            if !list.contains(&diagnostic) {
                list.push(diagnostic);
            }
        }
        self.settle(found, |uri| !uri.ends_with(".feature"))
    }

    /// The problems of every scenario file.
    pub fn check_scenarios(&mut self) -> Publish {
        let affected = self.affected.take();
        let mut found: BTreeMap<PathBuf, Vec<Diagnostic>> = BTreeMap::new();
        for (path, text) in self.scenario_sources() {
            // A file of a variant the change did not touch has the problems it had.
            let untouched = affected
                .as_ref()
                .is_some_and(|a| feature::variant_name(&text).is_some_and(|n| !a.contains(n)));
            let diagnostics = match uri_of(&path) {
                Some(uri) if untouched => self.published(&uri),
                _ => feature::diagnostics(&text, &self.provider),
            };
            if !diagnostics.is_empty() {
                found.insert(path, diagnostics);
            }
        }
        self.settle(found, |uri| uri.ends_with(".feature"))
    }

    /// The problems last published for `uri`.
    pub fn published(&self, uri: &Uri) -> Vec<Diagnostic> {
        self.last.get(uri.as_str()).cloned().unwrap_or_default()
    }

    /// What to publish for the files of one kind (`mine`), whose problems are now `found`: each
    /// file whose problems changed (a file that has none now is cleared), and the buffer just
    /// changed, so that the editor knows it was checked.
    fn settle(
        &mut self,
        found: BTreeMap<PathBuf, Vec<Diagnostic>>,
        mine: impl Fn(&str) -> bool,
    ) -> Publish {
        let mut now: BTreeMap<String, Vec<Diagnostic>> = BTreeMap::new();
        for (path, diagnostics) in found {
            if let Some(uri) = uri_of(&path)
                && !diagnostics.is_empty()
            {
                now.insert(uri.as_str().to_string(), diagnostics);
            }
        }
        let changed = self.changed.take().filter(|u| mine(u));
        let documents: BTreeSet<String> = now
            .keys()
            .chain(self.last.keys().filter(|u| mine(u)))
            .chain(changed.iter())
            .cloned()
            .collect();
        let mut out: Publish = Vec::new();
        for document in documents {
            let (before, after) = (self.last.get(&document), now.get(&document));
            if (before != after || changed.as_ref() == Some(&document))
                && let Ok(uri) = Uri::from_str(&document)
            {
                out.push((uri, after.cloned().unwrap_or_default()));
            }
        }
        self.last.retain(|u, _| !mine(u));
        self.last.extend(now);
        out
    }

    /// Every scenario file of the project with its text: the open buffer's where one is open,
    /// else the file's. Open scenario buffers outside the scenario folder are included.
    pub fn scenario_sources(&self) -> Vec<(PathBuf, String)> {
        let mut out: BTreeMap<PathBuf, String> = BTreeMap::new();
        if self.specs_dir.is_dir()
            && let Ok(files) = suite::feature_files(std::slice::from_ref(&self.specs_dir))
        {
            for file in files {
                let loaded = suite::load_file(&file);
                out.insert(absolute(&file), loaded.src.to_string());
            }
        }
        for b in self.buffers.values().filter(|b| b.kind == Kind::Feature) {
            out.insert(b.path.clone(), b.text.clone());
        }
        out.into_iter().collect()
    }

    /// The problems of every variant's rule files, each at its file.
    fn rules_problems(&self) -> Vec<(PathBuf, Diagnostic)> {
        let mut out = Vec::new();
        for name in variant_names(&self.rules_dir) {
            match self.provider.load(&name) {
                Ok(v) => {
                    let unknown = v
                        .unknown_calls
                        .iter()
                        .chain(v.bots.iter().flat_map(|b| &b.unknown_calls));
                    out.extend(unknown.map(located));
                }
                Err(e) => out.push(match &*e {
                    VariantError::Config(d) | VariantError::Script(d) => located(d),
                    other => {
                        let yaml = absolute(&self.rules_dir.join(&name).join("variant.yaml"));
                        (yaml, error(lsp_types::Range::default(), other.to_string()))
                    }
                }),
            }
        }
        out
    }

    /// The variant a rules file belongs to: the variant of the folder it is in, else the first
    /// whose scripts include it.
    pub fn variant_of(&self, path: &Path) -> Option<Arc<Variant>> {
        let relative = path.strip_prefix(&self.rules_abs).ok()?;
        let folder = relative.components().next()?.as_os_str().to_str()?;
        let names = variant_names(&self.rules_dir);
        if names.iter().any(|n| n == folder) {
            return self.provider.load(folder).ok();
        }
        names
            .iter()
            .filter_map(|n| self.provider.load(n).ok())
            .find(|v| v.rule_scripts().iter().any(|(p, _)| absolute(p) == path))
    }
}

/// Whether `variant` reads the file `path`: a file of its folder or of a base's, or one of its
/// scripts and modules.
fn reads(provider: &ScriptProvider, variant: &Variant, path: &Path) -> bool {
    let mut current = Some(variant);
    let mut owned;
    for _ in 0..=crate::script::MAX_EXTENDS_DEPTH {
        let Some(v) = current else {
            return false;
        };
        if path.starts_with(absolute(&v.dir))
            || v.rule_scripts().iter().any(|(p, _)| absolute(p) == path)
        {
            return true;
        }
        let Some(base) = &v.extends else {
            return false;
        };
        match provider.loaded(base) {
            Some(Ok(b)) => {
                owned = b;
                current = Some(&*owned);
            }
            // A base that is not loaded: assume it is read.
            _ => return true,
        }
    }
    true
}

/// A diagnostic of a rules file, at its file.
fn located(d: &SourceDiagnostic) -> (PathBuf, Diagnostic) {
    let text = d.src.inner();
    let start = d.span.offset().min(text.len());
    let end = (start + d.span.len()).min(text.len());
    let mut message = d.message.clone();
    if let Some(help) = &d.help {
        message.push_str("\nhelp: ");
        message.push_str(help);
    }
    (
        absolute(Path::new(&d.path)),
        error(range(text, start, end), message),
    )
}

fn error(range: lsp_types::Range, message: String) -> Diagnostic {
    Diagnostic {
        range,
        severity: Some(DiagnosticSeverity::ERROR),
        source: Some("deckspec".into()),
        message,
        ..Diagnostic::default()
    }
}
