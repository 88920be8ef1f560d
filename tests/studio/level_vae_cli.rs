//! The level VAE for any game on the command line (issue 64): `train --model level-vae` on a
//! pack, `generate` / `eval` / `interpolate --model FILE.safetensors`, and regenerating a
//! region (`generate --inpaint`), with and without a model; the refusals in words.

use crate::assert_ok;
use level_studio::files;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn studio(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_level-studio"))
        .args(args)
        .output()
        .unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// A pack of `count` solution-down Longcat levels of 5×5.
fn longcat_pack(dir: &Path, count: usize) -> PathBuf {
    let pack = dir.join("longcat.ron");
    let o = studio(&[
        "generate",
        "--game",
        "longcat",
        "--model",
        "solution-down",
        "--size",
        "5x5",
        "--count",
        &count.to_string(),
        "--seed",
        "3",
        "--out",
        s(&pack),
    ]);
    assert_ok(&o);
    pack
}

fn train(pack: &Path, out: &Path, extra: &[&str]) -> Output {
    let mut args = vec![
        "train",
        "--model",
        "level-vae",
        "--pack",
        s(pack),
        "--epochs",
        "12",
        "--seed",
        "5",
        "--out",
        s(out),
    ];
    args.extend_from_slice(extra);
    studio(&args)
}

#[test]
fn a_longcat_vae_trains_the_same_twice_and_generates_evaluates_and_walks() {
    let dir = tempfile::tempdir().unwrap();
    let pack = longcat_pack(dir.path(), 60);
    let (a, b) = (
        dir.path().join("a.safetensors"),
        dir.path().join("b.safetensors"),
    );
    assert_ok(&train(&pack, &a, &[]));
    assert_ok(&train(&pack, &b, &[]));
    // Same seed, same weights.
    assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
    let sidecar = std::fs::read_to_string(a.with_extension("ron")).unwrap();
    for field in [
        "kind: \"level-vae\"",
        "game: \"longcat\"",
        "palette: \"#.@\"",
        "command: ",
    ] {
        assert!(sidecar.contains(field), "{field} missing: {sidecar}");
    }
    // The head is in every training level exactly once: decoding places it once.
    assert!(sidecar.contains("singletons: \"@\""), "{sidecar}");

    let generated = dir.path().join("gen.ron");
    let o = studio(&[
        "generate",
        "--model",
        s(&a),
        "--count",
        "6",
        "--seed",
        "1",
        "--out",
        s(&generated),
    ]);
    assert_ok(&o);
    let training: Vec<Vec<String>> = files::load_levels(&pack)
        .unwrap()
        .into_iter()
        .map(|l| l.cells)
        .collect();
    let levels = files::load_levels(&generated).unwrap();
    assert_eq!(levels.len(), 6);
    for level in &levels {
        assert_eq!(level.game.as_str(), "longcat");
        assert!(!training.contains(&level.cells), "a copy was returned");
        assert_eq!(level.cells.concat().matches('@').count(), 1);
    }

    let o = studio(&[
        "eval",
        "--model",
        s(&a),
        "--count",
        "20",
        "--seed",
        "0",
        "--json",
    ]);
    assert_ok(&o);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    for key in [
        "game",
        "playable",
        "copies",
        "distinct",
        "e_distance",
        "reconstruction",
        "ms_per_level",
    ] {
        assert!(v.get(key).is_some(), "{key} missing: {v}");
    }
    assert_eq!(v["game"], "longcat");
    assert!(v["reconstruction"].as_f64().unwrap() > 0.3, "{v}");
    // Longcat builds a model's levels as the walk of their solution: every one solvable.
    assert_eq!(v["decoding"], "game", "{v}");
    assert_eq!(v["solvable"], 1.0, "{v}");
    assert_eq!(v["legal"], 1.0, "{v}");
    let o = studio(&[
        "eval",
        "--model",
        s(&a),
        "--count",
        "20",
        "--seed",
        "0",
        "--cell-by-cell",
        "--json",
    ]);
    assert_ok(&o);
    let cells: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(cells["decoding"], "cells", "{cells}");

    // Issue 68: the same eval judged by 3 processes and merged is the one-process report
    // (but the decoding time, which is the merging process's own).
    let model = s(&a).to_string();
    let eval_words = |extra: &[&str]| -> Vec<String> {
        let mut w: Vec<String> = [
            "eval",
            "--model",
            &model,
            "--count",
            "20",
            "--seed",
            "0",
            "--cell-by-cell",
        ]
        .iter()
        .map(|x| x.to_string())
        .collect();
        w.extend(extra.iter().map(|x| x.to_string()));
        w
    };
    let run = |w: &[String]| studio(&w.iter().map(String::as_str).collect::<Vec<_>>());
    let part = |i: usize, n: usize, seed: &str| {
        let path = dir.path().join(format!("eval-{i}-{n}-{seed}.json"));
        let shard = format!("{i}/{n}");
        let mut w = eval_words(&["--shard", &shard, "--out", s(&path)]);
        w[6] = seed.to_string();
        assert_ok(&run(&w));
        path
    };
    let parts: Vec<PathBuf> = (1..=3).map(|i| part(i, 3, "0")).collect();
    let o = run(&eval_words(&[
        "--json",
        "--merge",
        s(&parts[1]),
        s(&parts[2]),
        s(&parts[0]),
    ]));
    assert_ok(&o);
    let mut merged: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let mut one = cells.clone();
    merged["ms_per_level"] = 0.into();
    one["ms_per_level"] = 0.into();
    assert_eq!(merged, one);
    let refused = |extra: &[&str], words: &str| {
        let o = run(&eval_words(extra));
        assert!(!o.status.success());
        assert!(stderr(&o).contains(words), "{words}: {}", stderr(&o));
    };
    refused(
        &["--merge", s(&parts[0]), s(&parts[1])],
        "part 3/3 is missing",
    );
    refused(&["--merge", s(&parts[0]), s(&parts[0])], "given twice");
    let other_seed = part(3, 3, "1");
    refused(
        &["--merge", s(&parts[0]), s(&parts[1]), s(&other_seed)],
        "it was made with --seed 1, this run has 0",
    );
    refused(
        &["--shard", "1/21", "--out", s(&dir.path().join("x.json"))],
        "more parts than the 20 levels",
    );
    refused(&["--merge", s(&pack)], "not a level VAE eval part");

    let walk = dir.path().join("walk.ron");
    let o = studio(&[
        "interpolate",
        &format!("{}#1", s(&pack)),
        &format!("{}#2", s(&pack)),
        "--model",
        s(&a),
        "--steps",
        "3",
        "--out",
        s(&walk),
    ]);
    assert_ok(&o);
    assert_eq!(files::load_levels(&walk).unwrap().len(), 5);
}

#[test]
fn a_region_is_regenerated_without_a_model_and_nothing_outside_it_changes() {
    let dir = tempfile::tempdir().unwrap();
    let room = dir.path().join("room.txt");
    std::fs::write(
        &room,
        "wwwwwwwww\nwA......w\nw..w....w\nw..w.3..w\nw......+w\nwg......w\nwwwwwwwww\n",
    )
    .unwrap();
    let out = dir.path().join("region.ron");
    let o = studio(&[
        "generate",
        "--inpaint",
        s(&room),
        "--region",
        "4,1,3,3",
        "--count",
        "3",
        "--seed",
        "0",
        "--out",
        s(&out),
        "--json",
    ]);
    assert_ok(&o);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["requested"], 3);
    assert!(v["produced"].as_u64().unwrap() >= 1, "{v}");
    assert!(v["ms"].as_f64().is_some());
    let original = files::load_levels(&room).unwrap().remove(0).cells;
    for level in files::load_levels(&out).unwrap() {
        assert_ne!(level.cells, original);
        for (y, (a, b)) in level.cells.iter().zip(&original).enumerate() {
            for (x, (p, q)) in a.chars().zip(b.chars()).enumerate() {
                let inside = (4..7).contains(&x) && (1..4).contains(&y);
                assert!(inside || p == q, "cell {x},{y} outside the region changed");
            }
        }
    }
}

#[test]
fn a_region_is_regenerated_from_a_model_inside_the_region_only() {
    let dir = tempfile::tempdir().unwrap();
    let pack = longcat_pack(dir.path(), 40);
    let model = dir.path().join("m.safetensors");
    assert_ok(&train(&pack, &model, &[]));
    let out = dir.path().join("region.ron");
    let level = format!("{}#3", s(&pack));
    let o = studio(&[
        "generate",
        "--inpaint",
        &level,
        "--region",
        "1,1,3,3",
        "--model",
        s(&model),
        "--count",
        "2",
        "--seed",
        "0",
        "--out",
        s(&out),
    ]);
    // A small model may find nothing within the budget: then it says so and writes nothing.
    let original = files::load_levels(&pack).unwrap().remove(2).cells;
    if o.status.success() {
        for level in files::load_levels(&out).unwrap() {
            for (y, (a, b)) in level.cells.iter().zip(&original).enumerate() {
                for (x, (p, q)) in a.chars().zip(b.chars()).enumerate() {
                    let inside = (1..4).contains(&x) && (1..4).contains(&y);
                    assert!(inside || p == q, "cell {x},{y} outside the region changed");
                }
            }
        }
    } else {
        assert!(stderr(&o).contains("nothing was written"), "{}", stderr(&o));
        assert!(!out.exists());
    }
}

#[test]
fn bad_packs_models_and_regions_are_refused_in_words_and_nothing_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let out = d.join("m.safetensors");
    // An empty pack, a one-level pack, a pack of two games.
    let empty = d.join("empty.ron");
    files::save_pack(&empty, &level_studio::level::Pack::new("empty")).unwrap();
    let o = train(&empty, &out, &[]);
    assert!(
        !o.status.success() && stderr(&o).contains("no level"),
        "{}",
        stderr(&o)
    );
    let pack = longcat_pack(d, 3);
    let mut levels = files::load_levels(&pack).unwrap();
    let one = d.join("one.ron");
    let mut p = level_studio::level::Pack::new("one");
    p.levels.push(levels[0].clone());
    files::save_pack(&one, &p).unwrap();
    let o = train(&one, &out, &[]);
    assert!(stderr(&o).contains("one level"), "{}", stderr(&o));
    let mut rooms = files::load_levels(Path::new("levels/dungeon/starter.ron")).unwrap();
    levels.push(rooms.remove(0));
    let mixed = d.join("mixed.ron");
    let mut p = level_studio::level::Pack::new("mixed");
    p.levels = levels;
    files::save_pack(&mixed, &p).unwrap();
    let o = train(&mixed, &out, &[]);
    assert!(stderr(&o).contains("mixes games"), "{}", stderr(&o));
    // Absurd settings.
    let o = train(&pack, &out, &["--window", "0x14"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("--window"), "{}", stderr(&o));
    let o = train(&pack, &out, &["--epochs", "0"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let o = train(&pack, &out, &["--condition", "nonsense"]);
    assert!(
        stderr(&o).contains("no such figure") && stderr(&o).contains("difficulty"),
        "{}",
        stderr(&o)
    );
    let o = train(&pack, &d.join("m.ron"), &[]);
    assert!(stderr(&o).contains(".safetensors"), "{}", stderr(&o));
    // A model named like its pack would write its sidecar over the pack.
    let before = std::fs::read(&pack).unwrap();
    let o = train(&pack, &pack.with_extension("safetensors"), &[]);
    assert!(
        !o.status.success() && stderr(&o).contains("is a level pack"),
        "{}",
        stderr(&o)
    );
    assert_eq!(
        std::fs::read(&pack).unwrap(),
        before,
        "the pack was touched"
    );
    assert!(!pack.with_extension("safetensors").exists());
    assert!(!out.exists(), "a refused training wrote a model");

    // A model of another game: a Longcat model refuses a dungeon room.
    let pack = longcat_pack(d, 20);
    assert_ok(&train(&pack, &out, &[]));
    let room = d.join("room.txt");
    std::fs::write(&room, "wwwww\nwA+gw\nwwwww\n").unwrap();
    let walk = d.join("walk.ron");
    let o = studio(&[
        "interpolate",
        s(&room),
        s(&room),
        "--model",
        s(&out),
        "--out",
        s(&walk),
    ]);
    assert!(!o.status.success(), "{}", stderr(&o));
    let o = studio(&[
        "generate",
        "--inpaint",
        s(&room),
        "--region",
        "1,1,1,1",
        "--model",
        s(&out),
        "--out",
        s(&walk),
    ]);
    assert!(stderr(&o).contains("longcat model"), "{}", stderr(&o));
    assert!(!walk.exists());
    // Regions of no cells, or outside the level.
    for (region, says) in [
        ("1,1,0,2", "holds no cell"),
        ("3,1,4,1", "outside"),
        ("1,1", "X,Y,W,H"),
    ] {
        let o = studio(&[
            "generate",
            "--inpaint",
            s(&room),
            "--region",
            region,
            "--out",
            s(&walk),
        ]);
        assert!(stderr(&o).contains(says), "{region}: {}", stderr(&o));
        assert!(!walk.exists());
    }
    // A file that is not a level VAE's.
    let o = studio(&[
        "eval",
        "--model",
        "models/avalon-main.safetensors",
        "--json",
    ]);
    assert!(!o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("not a level VAE"), "{}", stderr(&o));
    // Damaged weights: refused by the sidecar's stamp, nothing written.
    let mut bytes = std::fs::read(&out).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0x55;
    std::fs::write(&out, bytes).unwrap();
    let pack_out = d.join("never.ron");
    let o = studio(&["generate", "--model", s(&out), "--out", s(&pack_out)]);
    assert!(
        !o.status.success() && stderr(&o).contains("damaged"),
        "{}",
        stderr(&o)
    );
    assert!(!pack_out.exists());
}
