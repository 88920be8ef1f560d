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
