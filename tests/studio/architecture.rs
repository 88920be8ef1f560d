//! The map cannot drift (issue 65): ARCHITECTURE.md's crate table has one row for every
//! package of the workspace, at its path, and every package says what it is in its manifest.

use std::path::Path;

/// The workspace's packages as `cargo metadata` lists them: (name, path from the root,
/// description).
fn packages() -> Vec<(String, String, String)> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = std::process::Command::new(cargo)
        .args([
            "metadata",
            "--no-deps",
            "--format-version",
            "1",
            "--offline",
        ])
        .current_dir(root)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let meta: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    meta["packages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            let manifest = Path::new(p["manifest_path"].as_str().unwrap());
            let dir = manifest.parent().unwrap();
            let rel = dir.strip_prefix(root).unwrap().display().to_string();
            let rel = if rel.is_empty() { ".".to_string() } else { rel };
            (
                p["name"].as_str().unwrap().to_string(),
                rel,
                p["description"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect()
}

#[test]
fn the_crate_table_has_a_row_for_every_package_and_no_other() {
    let text =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("ARCHITECTURE.md"))
            .unwrap();
    let packages = packages();
    assert!(packages.len() >= 14, "{packages:?}");
    for (name, path, description) in &packages {
        let row = format!("| `{name}` | `{path}`");
        assert!(
            text.lines().any(|l| l.starts_with(&row)),
            "ARCHITECTURE.md has no row starting {row}"
        );
        assert!(
            description.len() > 20,
            "{name}: its Cargo.toml needs a description"
        );
    }
    // No row for a crate that is gone.
    let table = text
        .lines()
        .skip_while(|l| !l.starts_with("| crate | path |"))
        .skip(2)
        .take_while(|l| l.starts_with('|'));
    for line in table {
        let name = line.split('`').nth(1).unwrap_or("");
        assert!(
            packages.iter().any(|(n, _, _)| n == name),
            "ARCHITECTURE.md lists `{name}`, which is no package of the workspace"
        );
    }
}

/// The modules of a game crate that name its `game` module: `crate::game`, `super::game`
/// (and `super::super::game`), or `game` inside a `crate::{…}` / `super::{…}` list.
fn names_the_game_module(text: &str) -> bool {
    let is_ident = |c: char| c.is_alphanumeric() || c == '_';
    let word_at = |at: usize| !text[at..].starts_with(is_ident);
    for prefix in ["crate::game", "super::game"] {
        if text
            .match_indices(prefix)
            .any(|(i, _)| word_at(i + prefix.len()))
        {
            return true;
        }
    }
    for prefix in ["crate::{", "super::{"] {
        for (i, _) in text.match_indices(prefix) {
            // The list up to its closing brace, split at its own commas.
            let (mut depth, mut item, mut items) = (0usize, String::new(), Vec::new());
            for c in text[i + prefix.len()..].chars() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => break,
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        items.push(std::mem::take(&mut item));
                        continue;
                    }
                    _ => {}
                }
                item.push(c);
            }
            items.push(item);
            if items.iter().any(|item| {
                let item = item.trim();
                item.strip_prefix("game")
                    .is_some_and(|rest| !rest.starts_with(is_ident))
            }) {
                return true;
            }
        }
    }
    false
}

/// Every `.rs` file under `dir`, sorted.
fn rust_files(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut files = Vec::new();
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            files.extend(rust_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
    files
}

/// Issue 65, one shape for a game crate: a game's `game.rs` is the root (`impl Game` and
/// `impl GameView`), and only `lib.rs` names it; everything the other modules need lives in
/// the leaves (`level.rs` and the rest), so a game crate's modules make no circle through it.
#[test]
fn no_module_of_a_game_crate_names_its_game_module_but_lib() {
    assert!(names_the_game_module("use crate::game::ID;"));
    assert!(names_the_game_module(
        "x = super::super::game::to_level(r);"
    ));
    assert!(names_the_game_module(
        "use crate::{level::ID,\n    game::{self, G}};"
    ));
    assert!(names_the_game_module("use super::{game, rules};"));
    assert!(!names_the_game_module(
        "use studio_core::game::Game;\nuse crate::{games::X, level::{game_id}};\nsuper::gameplay();"
    ));
    let games = Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/games");
    let mut crates: Vec<_> = std::fs::read_dir(&games)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("src").is_dir())
        .collect();
    crates.sort();
    let mut checked = 0;
    for dir in crates {
        let src = dir.join("src");
        // The toy game is one file, with no game module to name.
        if !src.join("game.rs").exists() {
            continue;
        }
        checked += 1;
        for file in rust_files(&src) {
            let rel = file.strip_prefix(&src).unwrap();
            if rel == Path::new("lib.rs") || rel == Path::new("game.rs") {
                continue;
            }
            let text = std::fs::read_to_string(&file).unwrap();
            assert!(
                !names_the_game_module(&text),
                "{} names its crate's `game` module: only lib.rs may; move what it needs from \
                 game.rs into level.rs (or the module that owns it)",
                file.strip_prefix(env!("CARGO_MANIFEST_DIR"))
                    .unwrap()
                    .display()
            );
        }
    }
    assert!(checked >= 7, "only {checked} game crates have a game.rs");
}
