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
    /// The documents last published with problems (to clear when they have none).
    published: BTreeSet<String>,
    /// Whether the scenario files are to be checked again (`take_scenarios_due`).
    scenarios_due: bool,
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
            published: BTreeSet::new(),
            scenarios_due: false,
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
                self.published.remove(uri.as_str());
            } else {
                self.published.insert(uri.as_str().to_string());
            }
            return vec![(uri.clone(), diagnostics)];
        }
        if rules {
            self.reload();
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
        if buffer.kind != Kind::Feature && self.is_rules_file(&buffer.path) {
            self.reload();
        }
        self.scenarios_due = true;
        self.check_rules()
    }

    /// A file saved (or changed on disk): the variants loaded again, the project checked.
    pub fn saved(&mut self) -> Publish {
        self.reload();
        self.scenarios_due = true;
        self.check_rules()
    }

    /// Load the variants again, through the open rules buffers.
    fn reload(&mut self) {
        let overlay: Vec<(PathBuf, String)> = self
            .buffers
            .values()
            .filter(|b| b.kind != Kind::Feature && self.is_rules_file(&b.path))
            .map(|b| (b.path.clone(), b.text.clone()))
            .collect();
        self.provider = ScriptProvider::new(&self.rules_dir).with_overlay(overlay);
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
        let mut found: BTreeMap<PathBuf, Vec<Diagnostic>> = BTreeMap::new();
        for (path, text) in self.scenario_sources() {
            let diagnostics = feature::diagnostics(&text, &self.provider);
            if !diagnostics.is_empty() {
                found.insert(path, diagnostics);
            }
        }
        self.settle(found, |uri| uri.ends_with(".feature"))
    }

    /// What to publish for the files of one kind (`mine`): those with problems, and those
    /// published with problems before that have none now (cleared).
    fn settle(
        &mut self,
        found: BTreeMap<PathBuf, Vec<Diagnostic>>,
        mine: impl Fn(&str) -> bool,
    ) -> Publish {
        let mut out: Publish = Vec::new();
        let mut now = BTreeSet::new();
        for (path, diagnostics) in found {
            if let Some(uri) = uri_of(&path) {
                now.insert(uri.as_str().to_string());
                out.push((uri, diagnostics));
            }
        }
        // The buffer just changed is always answered, so that the editor knows it was checked.
        let changed = self.changed.take();
        let clear: BTreeSet<String> = self
            .published
            .iter()
            .chain(changed.iter())
            .filter(|u| mine(u) && !now.contains(*u))
            .cloned()
            .collect();
        out.extend(
            clear
                .iter()
                .filter_map(|u| Uri::from_str(u).ok())
                .map(|u| (u, Vec::new())),
        );
        self.published.retain(|u| !mine(u));
        self.published.extend(now);
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
