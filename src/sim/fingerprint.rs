//! The rules fingerprint of a study: a SHA-256 over everything that decides how a variant's games
//! go, so that `merge` can refuse to add up shards played under different rules.

use crate::script::Variant;
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Files followed through `extends:`, `script:` and `modules:` at most (a guard against cycles).
const MAX_FILES: usize = 64;
/// Bytes of one file hashed at most; a larger file is hashed as its size and a marker.
const MAX_FILE_BYTES: u64 = 16 * 1024 * 1024;

/// `sha256:<64 hex digits>` over the variant's name and, sorted by their path relative to the
/// rules folder, the files it is built from: `variant.yaml` and every file it `extends`, the
/// scripts named by `script:` and `modules:` there and in `bots.yaml`, `bots.yaml` itself and
/// every `*.rhai` beside them. Each file is hashed as its relative path, its length and its bytes,
/// so the value is the same on any machine and any checkout path, and changes when any of those
/// files changes. A file that cannot be read is hashed as the reason, which no real file matches.
pub fn rules_fingerprint(variant: &Variant) -> String {
    let dir = canonical(&variant.dir);
    let root = dir.parent().map(Path::to_path_buf).unwrap_or_default();
    let mut files: BTreeMap<String, PathBuf> = BTreeMap::new();
    let mut queue: Vec<PathBuf> = vec![dir.join("variant.yaml"), dir.join("bots.yaml")];
    if let Ok(entries) = std::fs::read_dir(&dir) {
        let mut scripts: Vec<PathBuf> = entries
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "rhai"))
            .collect();
        scripts.sort();
        queue.extend(scripts);
    }
    while let Some(path) = queue.pop() {
        if files.len() >= MAX_FILES {
            break;
        }
        let path = canonical(&path);
        if !path.is_file() {
            continue;
        }
        let label = path
            .strip_prefix(&root)
            .unwrap_or(&path)
            .to_string_lossy()
            .replace('\\', "/");
        if files.insert(label, path.clone()).is_some() {
            continue;
        }
        if path.extension().is_some_and(|x| x == "yaml") {
            queue.extend(referenced(&path));
        }
    }
    let mut hasher = Sha256::new();
    hasher.update(b"deckspec rules fingerprint v1\0");
    hasher.update(variant.name.as_bytes());
    hasher.update([0]);
    for (label, path) in &files {
        let bytes = read(path);
        hasher.update(label.as_bytes());
        hasher.update([0]);
        hasher.update((bytes.len() as u64).to_le_bytes());
        hasher.update(&bytes);
    }
    let digest = hasher.finalize();
    let mut out = String::from("sha256:");
    for byte in digest.iter() {
        out.push_str(&format!("{byte:02x}"));
    }
    out
}

fn canonical(path: &Path) -> PathBuf {
    path.canonicalize().unwrap_or_else(|_| path.to_path_buf())
}

/// A file's bytes, or a marker saying why they could not be read.
fn read(path: &Path) -> Vec<u8> {
    use std::io::Read;
    let mut bytes = Vec::new();
    match std::fs::File::open(path).and_then(|f| f.take(MAX_FILE_BYTES + 1).read_to_end(&mut bytes))
    {
        Ok(n) if n as u64 > MAX_FILE_BYTES => {
            format!("\0too large: over {MAX_FILE_BYTES} bytes").into_bytes()
        }
        Ok(_) => bytes,
        Err(e) => format!("\0unreadable: {}", e.kind()).into_bytes(),
    }
}

/// The files a variant or bots YAML file names: `extends:`, `script:` and the `modules:` values,
/// relative to its folder.
fn referenced(yaml: &Path) -> Vec<PathBuf> {
    let Some(dir) = yaml.parent() else {
        return Vec::new();
    };
    let text = String::from_utf8(read(yaml)).unwrap_or_default();
    let Ok(doc) = serde_yaml::from_str::<serde_yaml::Value>(&text) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for key in ["extends", "script"] {
        if let Some(name) = doc.get(key).and_then(|v| v.as_str()) {
            out.push(dir.join(name));
        }
    }
    if let Some(modules) = doc.get("modules").and_then(|v| v.as_mapping()) {
        out.extend(
            modules
                .values()
                .filter_map(|v| v.as_str())
                .map(|name| dir.join(name)),
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("rules")
    }

    #[test]
    fn fingerprints_are_stable_and_differ_by_variant_and_by_file() {
        let dutch = Variant::load_named(&rules(), "dutch").unwrap();
        let recall = Variant::load_named(&rules(), "recall").unwrap();
        let a = rules_fingerprint(&dutch);
        assert_eq!(a.len(), "sha256:".len() + 64, "{a}");
        assert_eq!(a, rules_fingerprint(&dutch));
        assert_ne!(a, rules_fingerprint(&recall));

        // A copy of the rules elsewhere has the same fingerprint until one of Recall's files
        // (which Dutch extends) changes.
        let copy = std::env::temp_dir().join(format!("deckspec-fp-{}", std::process::id()));
        for v in ["dutch", "recall"] {
            std::fs::create_dir_all(copy.join(v)).unwrap();
            for entry in std::fs::read_dir(rules().join(v)).unwrap().flatten() {
                std::fs::copy(entry.path(), copy.join(v).join(entry.file_name())).unwrap();
            }
        }
        let copied = Variant::load_named(&copy, "dutch").unwrap();
        assert_eq!(rules_fingerprint(&copied), a);
        let script = copy.join("recall/recall.rhai");
        let mut text = std::fs::read_to_string(&script).unwrap();
        text.push_str("\n// changed\n");
        std::fs::write(&script, text).unwrap();
        assert_ne!(rules_fingerprint(&copied), a);
        std::fs::remove_dir_all(&copy).ok();
    }
}
