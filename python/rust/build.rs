//! Bundles the repository's `rules/` folder into the native module: every file's path and
//! bytes, so that an installed package plays the bundled variants without the repository.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn main() {
    let rules = Path::new(env!("CARGO_MANIFEST_DIR")).join("../rules");
    println!("cargo:rerun-if-changed={}", rules.display());
    let mut files = Vec::new();
    walk(&rules, &mut files);
    files.sort();
    let mut out = String::from(
        "/// The bundled rules: each file's path under `rules/` and its bytes.\npub static BUNDLED: &[(&str, &[u8])] = &[\n",
    );
    for path in &files {
        let relative = path.strip_prefix(&rules).expect("under rules/");
        let name = relative.to_string_lossy().replace('\\', "/");
        println!("cargo:rerun-if-changed={}", path.display());
        let _ = writeln!(
            out,
            "    ({name:?}, include_bytes!({:?})),",
            path.canonicalize()
                .expect("a rules file")
                .display()
                .to_string()
        );
    }
    out.push_str("];\n");
    let dest = PathBuf::from(std::env::var("OUT_DIR").expect("OUT_DIR")).join("bundled.rs");
    std::fs::write(dest, out).expect("write bundled.rs");
}

fn walk(dir: &Path, files: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        panic!("no rules folder at {}", dir.display());
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            walk(&path, files);
        } else if path.is_file() {
            files.push(path);
        }
    }
}
