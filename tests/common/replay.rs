//! What the recording tests share: running a recorded scenario with the bundled rules.

use deckspec::scenarios::ScriptProvider;
use deckspec::spec::suite::{self, Filter, Outcome};
use std::path::Path;
use std::sync::Arc;

/// Why `text` (one recorded scenario) does not replay with the bundled rules: its file
/// problems, its failures, or a scenario count other than one. Empty when it replays.
pub fn replay_problems(text: &str) -> Vec<String> {
    let rules = Path::new(env!("CARGO_MANIFEST_DIR")).join("rules");
    let provider = ScriptProvider::new(&rules);
    let result = deckspec::sim::on_script_thread(|| {
        suite::run_file(
            "recorded.feature",
            Arc::new(text.to_string()),
            &provider,
            &Filter::default(),
        )
    })
    .expect("a script thread");
    let mut problems: Vec<String> = result.diagnostics().iter().map(|d| d.short()).collect();
    for s in &result.scenarios {
        if let Outcome::Failed(f) = &s.outcome {
            problems.push(result.failure_diagnostic(f).short());
        }
    }
    if result.scenarios.len() != 1 {
        problems.push(format!("{} scenarios, not 1", result.scenarios.len()));
    }
    problems
}
