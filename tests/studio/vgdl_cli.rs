//! `play --vgdl` and `list --vgdl` (issue 45): a VGDL game read from files the user names,
//! played by a button script (traced in the layout of GVGAI's reference traces) or by an
//! agent (statistics), and a folder's games listed with what each lacks. The games here are
//! our own small descriptions; GVGAI's (GPL) are read in place where the shared data is.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn studio(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_level-studio"))
        .args(args)
        .output()
        .unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A little push-the-crate game of our own: the crate into the hole wins.
const PUSH: &str = "BasicGame square_size=10
  SpriteSet
    floor > Immovable
    hole > Immovable
    crate > Passive
    avatar > MovingAvatar
  LevelMapping
    . > floor
    o > floor hole
    c > floor crate
    A > floor avatar
  InteractionSet
    avatar wall > stepBack
    crate avatar > bounceForward
    crate wall > undoAll
    crate hole > killSprite scoreChange=3
  TerminationSet
    SpriteCounter stype=crate win=True
";

const PUSH_LEVEL: &str = "wwwwwww\nwAc..ow\nwwwwwww\n";

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn a_script_is_traced_and_wins_when_the_crate_drops() {
    let dir = tempfile::tempdir().unwrap();
    let game = write(dir.path(), "push.txt", PUSH);
    let level = write(dir.path(), "push_lvl0.txt", PUSH_LEVEL);
    let o = studio(&[
        "play",
        "--vgdl",
        s(&game),
        s(&level),
        "--actions",
        "RIGHT*4,NIL",
        "--trace",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let lines: Vec<String> = stdout(&o).lines().map(str::to_string).collect();
    assert!(lines[0].starts_with("0 avatar avatar 1 1 10 10 0,0 hp 0/0 res - score 0 over 0 winner NO_WINNER act RIGHT hash "), "{}", lines[0]);
    // The crate moves from column 2 to the hole at 5 in three pushes: won on the third tick.
    let last = lines.last().unwrap();
    assert!(last.starts_with("3 avatar avatar 4 1 40 10 "), "{last}");
    assert!(
        last.contains("score 3 over 1 winner PLAYER_WINS act - "),
        "{last}"
    );
    assert_eq!(lines.len(), 4);
    // Without --trace: the outcome in one line, or as JSON.
    let o = studio(&[
        "play",
        "--vgdl",
        s(&game),
        s(&level),
        "--actions",
        "RIGHT*4",
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["outcome"], "won");
    assert_eq!(v["score"], 3.0);
}

#[test]
fn an_agent_plays_games_as_statistics_and_the_same_seed_plays_the_same() {
    let dir = tempfile::tempdir().unwrap();
    let game = write(dir.path(), "push.txt", PUSH);
    let level = write(dir.path(), "push_lvl0.txt", PUSH_LEVEL);
    let run = |agent: &str, seed: &str| {
        let o = studio(&[
            "play",
            "--vgdl",
            s(&game),
            s(&level),
            "--agent",
            agent,
            "--games",
            "20",
            "--seed",
            seed,
            "--json",
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        serde_json::from_str::<serde_json::Value>(stdout(&o).trim()).unwrap()
    };
    let a = run("random", "7");
    for key in [
        "games",
        "wins",
        "mean_score",
        "sd_score",
        "mean_ticks",
        "sd_ticks",
    ] {
        assert!(a.get(key).is_some(), "{key} missing: {a}");
    }
    assert_eq!(a["games"], 20);
    assert_eq!(a, run("random", "7"), "same seed, same games");
    // Doing nothing never wins and runs to GVGAI's limit of 2,000 ticks.
    let idle = run("donothing", "0");
    assert_eq!(idle["wins"], 0);
    assert_eq!(idle["mean_ticks"], 2000.0);
}

#[test]
fn bad_games_levels_scripts_and_agents_are_refused_in_words() {
    let dir = tempfile::tempdir().unwrap();
    let game = write(dir.path(), "push.txt", PUSH);
    let level = write(dir.path(), "push_lvl0.txt", PUSH_LEVEL);
    let refused = |args: &[&str], words: &str| {
        let o = studio(args);
        assert!(!o.status.success(), "{args:?} was taken");
        assert!(stderr(&o).contains(words), "{args:?}: {}", stderr(&o));
    };
    let odd = write(
        dir.path(),
        "odd.txt",
        &PUSH.replace("crate > Passive", "crate > Teleporter speed=2"),
    );
    refused(
        &["play", "--vgdl", s(&odd), s(&level), "--agent", "random"],
        "odd.txt:5: the sprite class Teleporter (of crate) is not supported yet",
    );
    let no_avatar = write(dir.path(), "none.txt", "wwww\nw..w\nwwww\n");
    refused(
        &[
            "play",
            "--vgdl",
            s(&game),
            s(&no_avatar),
            "--agent",
            "random",
        ],
        "the level has no avatar",
    );
    refused(
        &["play", "--vgdl", s(&game), s(&level), "--actions", "JUMP*3"],
        "JUMP is not an action",
    );
    refused(
        &["play", "--vgdl", s(&game), s(&level), "--agent", "genius"],
        "“genius” is not an agent",
    );
    refused(
        &[
            "play",
            "--vgdl",
            s(&game),
            s(&level),
            "--agent",
            "random",
            "--games",
            "0",
        ],
        "--games",
    );
    let missing = dir.path().join("missing.txt");
    refused(
        &[
            "play",
            "--vgdl",
            s(&missing),
            s(&level),
            "--agent",
            "random",
        ],
        "missing.txt",
    );
}

#[test]
fn list_vgdl_says_which_games_run_and_what_the_others_lack() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "push.txt", PUSH);
    write(dir.path(), "push_lvl0.txt", PUSH_LEVEL);
    write(
        dir.path(),
        "odd.txt",
        &PUSH.replace("crate hole > killSprite", "crate hole > teleportToMoon"),
    );
    write(dir.path(), "odd_lvl0.txt", PUSH_LEVEL);
    let o = studio(&["list", "--vgdl", s(dir.path()), "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    let games = v["games"].as_array().unwrap();
    assert_eq!(games.len(), 2);
    assert_eq!(games[0]["name"], "odd");
    assert_eq!(games[0]["runs"], false);
    let why = games[0]["missing"][0].as_str().unwrap();
    assert!(
        why.ends_with("odd.txt:16: the effect teleportToMoon is not supported yet"),
        "{why}"
    );
    assert_eq!(games[1]["name"], "push");
    assert_eq!(games[1]["runs"], true);
    assert_eq!(games[1]["missing"].as_array().unwrap().len(), 0);
}

/// GVGAI's own sokoban trace, reproduced through the command line (where the shared data is).
#[test]
fn the_command_line_reproduces_gvgais_sokoban_trace() {
    let data = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data/gvgai");
    let reference = data.join("reference/traces/sokoban_lvl0_script-seed1.txt");
    if !reference.is_file() {
        eprintln!("skipped: GVGAI's data is not here");
        return;
    }
    let gp = data.join("gridphysics");
    let script = [
        "RIGHT*10", "DOWN*10", "LEFT*10", "UP*10", "NIL*10", "NIL*10",
    ]
    .repeat(4)
    .join(",");
    let script = script.split(',').take(20).collect::<Vec<_>>().join(",");
    let o = studio(&[
        "play",
        "--vgdl",
        s(&gp.join("sokoban.txt")),
        s(&gp.join("sokoban_lvl0.txt")),
        "--actions",
        &script,
        "--trace",
        "--seed",
        "1",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let ours: Vec<String> = stdout(&o).lines().map(str::to_string).collect();
    let theirs: Vec<String> = std::fs::read_to_string(reference)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(str::to_string)
        .collect();
    assert_eq!(ours.len(), 201);
    assert_eq!(ours[..200], theirs[..200]);
    // The reference cuts at 200 ticks as the script does: the same last line.
    assert_eq!(ours[200], theirs[200]);
}

#[test]
fn the_planning_agents_win_the_push_game_and_a_seed_replays() {
    let dir = tempfile::tempdir().unwrap();
    let game = write(dir.path(), "push.txt", PUSH);
    let level = write(
        dir.path(),
        "push_lvl0.txt",
        "wwwwwwwww\nwA.c...ow\nw.......w\nwwwwwwwww\n",
    );
    let run = |agent: &str| {
        let o = studio(&[
            "play",
            "--vgdl",
            s(&game),
            s(&level),
            "--agent",
            agent,
            "--games",
            "3",
            "--seed",
            "4",
            "--json",
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        serde_json::from_str::<serde_json::Value>(stdout(&o).trim()).unwrap()
    };
    // MCTS sees the crate's drop ten moves ahead: it wins every game, long before the limit.
    let mcts = run("mcts");
    assert_eq!(mcts["wins"], 3, "{mcts}");
    assert!(mcts["mean_ticks"].as_f64().unwrap() < 200.0, "{mcts}");
    assert_eq!(mcts, run("mcts"), "same seed, same games");
    // The evolutionary planners, flat Monte Carlo and OLETS see far enough ahead: they win too.
    for agent in ["rs", "rhea", "flatmcts", "olets"] {
        let r = run(agent);
        assert_eq!(r["wins"], 3, "{agent}: {r}");
        assert_eq!(r, run(agent), "{agent}: same seed, same games");
    }
    let one = run("onestep");
    assert_eq!(one, run("onestep"), "same seed, same games");
}

#[test]
fn the_shortest_win_is_printed_as_a_script_that_wins() {
    let dir = tempfile::tempdir().unwrap();
    let game = write(dir.path(), "push.txt", PUSH);
    let level = write(
        dir.path(),
        "push_lvl0.txt",
        "wwwwwwwww\nwA.c...ow\nw.......w\nwwwwwwwww\n",
    );
    let o = studio(&[
        "play",
        "--vgdl",
        s(&game),
        s(&level),
        "--shortest",
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["found"], "win");
    assert_eq!(v["length"], 5);
    assert_eq!(v["actions"], "RIGHT*5");
    // The script plays back to the win.
    let o = studio(&[
        "play",
        "--vgdl",
        s(&game),
        s(&level),
        "--actions",
        "RIGHT*5",
        "--json",
    ]);
    let back: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(back["outcome"], "won");
    // A budget too small says so; a level without a win says that.
    let o = studio(&[
        "play",
        "--vgdl",
        s(&game),
        s(&level),
        "--shortest",
        "--budget",
        "2",
    ]);
    assert!(
        stdout(&o).contains("no win found within 2 states"),
        "{}",
        stdout(&o)
    );
    let stuck = write(
        dir.path(),
        "stuck.txt",
        "wwwww\nwc..w\nw.A.w\nw..ow\nwwwww\n",
    );
    let o = studio(&["play", "--vgdl", s(&game), s(&stuck), "--shortest"]);
    assert!(
        stdout(&o).contains("no win: every reachable state was seen"),
        "{}",
        stdout(&o)
    );
}

/// A roomier push game level for the GA: a border the GA keeps and an inside it fills.
const PUSH_ROOM: &str = "wwwwwwwww\nwA......w\nw...c...w\nw.......w\nw......ow\nwwwwwwwww\n";

/// The push game and `levels` (its `lvl0`, `lvl1`, …) written in `dir` and imported into
/// `push.ron`: the description's path and the pack's.
fn import_push(dir: &Path, levels: &[&str]) -> (PathBuf, PathBuf) {
    let game = write(dir, "push.txt", PUSH);
    for (i, level) in levels.iter().enumerate() {
        write(dir, &format!("push_lvl{i}.txt"), level);
    }
    let pack = dir.join("push.ron");
    let o = studio(&[
        "import",
        "--format",
        "gvgai-vgdl",
        s(&game),
        "--out",
        s(&pack),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    (game, pack)
}

#[test]
fn import_export_generate_and_eval_of_a_vgdl_game() {
    let dir = tempfile::tempdir().unwrap();
    // import: the description and its levels into a pack that carries the description.
    let (game, pack) = import_push(dir.path(), &[PUSH_ROOM, PUSH_LEVEL]);
    let text = std::fs::read_to_string(&pack).unwrap();
    assert!(text.contains("sources:") && text.contains("bounceForward"));
    // Another process reads the pack with nothing else: the description comes with it.
    let o = studio(&["validate", s(&pack), "--games", "1"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("OLETS"), "{}", stdout(&o));
    // export: GVGAI's own layout again.
    let out = dir.path().join("gvgai");
    let o = studio(&[
        "export",
        s(&pack),
        "--format",
        "gvgai-vgdl",
        "--out",
        s(&out),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(out.join("push.txt")).unwrap(), PUSH);
    assert_eq!(
        std::fs::read_to_string(out.join("push_lvl1.txt")).unwrap(),
        PUSH_LEVEL
    );
    // generate: a GA run whose levels cannot be feasible (the push game is won in fewer than
    // 40 ticks) says so, and writes nothing.
    let never = dir.path().join("never.ron");
    let o = studio(&[
        "generate",
        "--vgdl",
        s(&game),
        "--fitness",
        "beta",
        "--count",
        "1",
        "--population",
        "4",
        "--generations",
        "0",
        "--out",
        s(&never),
    ]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("no run found a feasible level"),
        "{}",
        stderr(&o)
    );
    assert!(!never.exists());
    // eval: the eight controllers' profiles, as JSON.
    let o = studio(&[
        "eval",
        "--vgdl",
        s(&game),
        "--profile",
        s(&pack),
        s(&pack),
        "--games",
        "1",
        "--budget",
        "8",
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let one = &v["per_game"][0];
    assert_eq!(one["alpha"]["rooms"], 2);
    assert_eq!(one["pairs_within_5_cells"], 2, "each level with itself");
    assert_eq!(v["ticks"], "full");
    for agent in [
        "donothing",
        "random",
        "onestep",
        "rs",
        "flatmcts",
        "mcts",
        "rhea",
        "olets",
    ] {
        let p = &one["alpha"]["profiles"][agent];
        assert!(p["win_rate"].as_f64().is_some(), "{agent}: {v}");
        assert_eq!(p["per_level_win_rate"].as_array().map(Vec::len), Some(2));
        assert_eq!(one["alpha_minus_beta"][agent]["win_rate"], 0.0, "{agent}");
        // One game pooled is that game.
        let pooled = &v["pooled"]["agents"][agent]["normalised_score"]["alpha"]["value"];
        assert_eq!(pooled, &p["normalised_score"], "{agent}");
    }
    // A pack of another game is refused in words.
    let other = write(
        dir.path(),
        "other.txt",
        &PUSH.replace("scoreChange=3", "scoreChange=4"),
    );
    let o = studio(&[
        "eval",
        "--vgdl",
        s(&other),
        "--profile",
        s(&pack),
        s(&pack),
        "--games",
        "1",
    ]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("not one of other.txt"),
        "{}",
        stderr(&o)
    );
}

/// A pack is read in phases, so its sources may stand anywhere in the file.
#[test]
fn a_pack_opens_wherever_its_sources_stand_and_a_refused_one_is_said() {
    let dir = tempfile::tempdir().unwrap();
    let (_, pack) = import_push(dir.path(), &[PUSH_ROOM]);
    // The studio writes the sources before the levels; a file with them after the levels
    // (edited by hand, or written by another tool) opens too: a pack is read in phases, its
    // games registered before any level is read.
    let text = std::fs::read_to_string(&pack).unwrap();
    let (sources, levels) = (
        text.find("  sources:").unwrap(),
        text.find("  levels:").unwrap(),
    );
    assert!(sources < levels);
    let end = text.rfind(')').unwrap();
    let moved = format!(
        "{}{},\n{}\n)\n",
        &text[..sources],
        text[levels..end].trim_end().trim_end_matches(','),
        text[sources..levels].trim_end().trim_end_matches(','),
    );
    let after = write(dir.path(), "after.ron", &moved);
    let o = studio(&["validate", s(&after), "--games", "1"]);
    assert!(o.status.success(), "{moved}\n{}", stderr(&o));
    // A source of a kind no plug-in reads is refused in words, naming the file and the kind.
    let odd = write(
        dir.path(),
        "odd.ron",
        &text.replacen("kind: \"vgdl\"", "kind: \"pico8\"", 1),
    );
    let o = studio(&["validate", s(&odd)]);
    assert!(!o.status.success());
    let said = stderr(&o);
    assert!(said.contains("odd.ron") && said.contains("pico8"), "{said}");
}

/// Issue 66: two games pooled in one table, the bootstrap over levels seeded, the per-level
/// win rates printed; flags that cannot go together refused in words.
#[test]
fn eval_pools_games_with_a_seeded_bootstrap_and_refuses_mismatched_flags() {
    let dir = tempfile::tempdir().unwrap();
    let game = write(dir.path(), "push.txt", PUSH);
    write(dir.path(), "push_lvl0.txt", PUSH_ROOM);
    write(dir.path(), "push_lvl1.txt", PUSH_LEVEL);
    let pack = dir.path().join("push.ron");
    let o = studio(&[
        "import",
        "--format",
        "gvgai-vgdl",
        s(&game),
        "--out",
        s(&pack),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let run = |extra: &[&str]| {
        let mut args = vec![
            "eval",
            "--vgdl",
            s(&game),
            "--vgdl",
            s(&game),
            "--profile",
            s(&pack),
            s(&pack),
            "--profile",
            s(&pack),
            s(&pack),
            "--games",
            "1",
            "--budget",
            "8",
            "--ticks",
            "60",
            "--resamples",
            "200",
        ];
        args.extend_from_slice(extra);
        studio(&args)
    };
    let o = run(&["--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["ticks"], "60");
    assert_eq!(v["per_game"].as_array().map(Vec::len), Some(2));
    assert_eq!(v["pooled"]["levels"], serde_json::json!([4, 4]));
    let olets = &v["pooled"]["agents"]["olets"];
    for measure in ["win_rate", "normalised_score", "rank"] {
        for side in ["alpha", "beta", "alpha_minus_beta"] {
            let f = &olets[measure][side];
            let (value, ci) = (f["value"].as_f64().unwrap(), &f["ci95"]);
            let (lo, hi) = (ci[0].as_f64().unwrap(), ci[1].as_f64().unwrap());
            assert!(lo <= value && value <= hi, "{measure} {side}: {f}");
        }
    }
    // The same levels on both sides: α − β is 0 and so is the spread's.
    assert_eq!(olets["normalised_score"]["alpha_minus_beta"]["value"], 0.0);
    let spread = &v["pooled"]["spread"];
    assert_eq!(spread["win_rate"]["alpha_minus_beta"]["value"], 0.0);
    assert_eq!(
        spread["advanced"],
        serde_json::json!(["flatmcts", "mcts", "rhea", "olets"])
    );
    // The same seed gives the same intervals.
    let again = run(&["--json"]);
    assert_eq!(stdout(&again), stdout(&o));
    // The table prints each game's per-level win rates and the pooled table.
    let o = run(&[]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.contains("per-level win rates (α | β):"), "{text}");
    assert!(text.contains("Pooled over push.txt, push.txt"), "{text}");
    assert!(text.contains("spread"), "{text}");
    // Two games, one --profile pair: refused in words.
    let o = studio(&[
        "eval",
        "--vgdl",
        s(&game),
        "--vgdl",
        s(&game),
        "--profile",
        s(&pack),
        s(&pack),
        "--games",
        "1",
    ]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("give one --profile ALPHA BETA per game"),
        "{}",
        stderr(&o)
    );
    // --levels evolves the levels that --profile brings: not both.
    let o = studio(&[
        "eval",
        "--vgdl",
        s(&game),
        "--profile",
        s(&pack),
        s(&pack),
        "--levels",
        "2",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("--levels"), "{}", stderr(&o));
    // A cap shorter than the GA's 40-tick constraints is refused, naming the range.
    let o = studio(&[
        "generate",
        "--vgdl",
        s(&game),
        "--ticks",
        "39",
        "--out",
        "x.ron",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("40 to 2,000"), "{}", stderr(&o));
    // --levels evolves them: the push game has no feasible level (won in under 40 ticks),
    // and the GA's α runs say so in words.
    let o = studio(&[
        "eval",
        "--vgdl",
        s(&game),
        "--levels",
        "1",
        "--population",
        "4",
        "--generations",
        "0",
        "--ablate-harmful",
        "--games",
        "1",
    ]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("no α run found a feasible level"),
        "{}",
        stderr(&o)
    );
}

/// A key-and-door game with a monster, which the GA can make feasible levels of.
const DOOR: &str = "BasicGame square_size=10
  SpriteSet
    floor > Immovable hidden=True
    door > Door
    key > Immovable
    monster > RandomNPC cooldown=4
    avatar > MovingAvatar
      bare >
      keyed >
  LevelMapping
    . > floor
    g > floor door
    k > floor key
    m > floor monster
    A > floor bare
  InteractionSet
    avatar wall > stepBack
    monster wall > stepBack
    bare door > stepBack
    door keyed > killSprite scoreChange=2
    bare key > transformTo stype=keyed killSecond=True scoreChange=1
    avatar monster > killSprite scoreChange=-1
  TerminationSet
    SpriteCounter stype=door win=True
    SpriteCounter stype=avatar win=False
";

/// The door game's template level: big enough that a solution takes the GA's 40 ticks.
const DOOR_LEVEL: &str = "wwwwwwwwwwwww\nwA..........w\nw...........w\nw....k......w\n\
     w...........w\nw.......m...w\nw...........w\nw..........gw\nwwwwwwwwwwwww\n";

/// Issue 66: `eval --levels N` evolves N levels per fitness per game (games capped as
/// `--ticks` says, FPattern without harmful sprites under the ablation), keeps them and
/// profiles them.
#[test]
fn eval_levels_evolves_keeps_and_profiles_each_fitness() {
    let dir = tempfile::tempdir().unwrap();
    let game = write(dir.path(), "door.txt", DOOR);
    write(dir.path(), "door_lvl0.txt", DOOR_LEVEL);
    let keep = dir.path().join("kept");
    let o = studio(&[
        "eval",
        "--vgdl",
        s(&game),
        "--levels",
        "1",
        "--population",
        "8",
        "--generations",
        "1",
        "--games",
        "1",
        "--budget",
        "8",
        "--ticks",
        "100",
        "--ablate-harmful",
        "--keep",
        s(&keep),
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["per_game"][0]["alpha"]["rooms"], 1);
    assert_eq!(v["per_game"][0]["beta"]["rooms"], 1);
    assert_eq!(v["pooled"]["levels"], serde_json::json!([1, 1]));
    for fitness in ["alpha", "beta"] {
        let pack = std::fs::read_to_string(keep.join(format!("door_{fitness}.ron"))).unwrap();
        assert!(
            pack.contains("games capped at 100 ticks, FPattern without harmful sprites"),
            "{pack}"
        );
    }
}

/// F26, F27 and F32 (round five): a sprite nested under itself, a rule repeated two billion
/// times and a square of no size are refused in words, naming the file and line, where they
/// overflowed the stack, exhausted memory and divided by zero.
#[test]
fn a_self_nested_sprite_a_huge_repeat_and_a_zero_square_are_refused_in_words() {
    let dir = tempfile::tempdir().unwrap();
    let level = write(dir.path(), "push_lvl0.txt", PUSH_LEVEL);
    let nested = PUSH.replace(
        "    crate > Passive\n",
        "    crate > Passive\n      crate >\n",
    );
    let game = write(dir.path(), "push.txt", &nested);
    let o = studio(&["play", "--vgdl", s(&game), s(&level), "--actions", "NIL"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("push.txt:6: “crate” is nested under itself (crate > crate)"),
        "{}",
        stderr(&o)
    );
    let game = write(
        dir.path(),
        "push.txt",
        &PUSH.replace("stepBack\n", "stepBack repeat=2000000000\n"),
    );
    let o = studio(&["play", "--vgdl", s(&game), s(&level), "--actions", "NIL"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("repeat=2000000000: a rule repeats 0 to 1000 times"),
        "{}",
        stderr(&o)
    );
    for size in ["0", "-1"] {
        let game = write(
            dir.path(),
            "push.txt",
            &PUSH.replace("square_size=10", &format!("square_size={size}")),
        );
        let o = studio(&["play", "--vgdl", s(&game), s(&level), "--actions", "NIL"]);
        assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
        assert!(
            stderr(&o).contains(&format!(
                "square_size={size}: a square is 1 to 10,000 pixels"
            )),
            "{}",
            stderr(&o)
        );
    }
}

/// F31: `list --vgdl` reads each game with the checks every other reader has, so a FIFO
/// among the games is reported, not waited on forever.
#[cfg(unix)]
#[test]
fn list_reports_a_fifo_game_instead_of_waiting_on_it() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "push.txt", PUSH);
    write(dir.path(), "push_lvl0.txt", PUSH_LEVEL);
    write(dir.path(), "pipe_lvl0.txt", PUSH_LEVEL);
    let fifo = dir.path().join("pipe.txt");
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    let started = std::time::Instant::now();
    let o = studio(&["list", "--vgdl", s(dir.path())]);
    assert!(started.elapsed() < std::time::Duration::from_secs(20));
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("push") && out.contains("runs"), "{out}");
    assert!(
        out.lines()
            .any(|l| l.starts_with("pipe") && !l.contains("runs")),
        "{out}"
    );
}

/// F30: `--actions` bounds the whole script, not only each part.
#[test]
fn a_script_longer_than_the_bound_in_all_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let game = write(dir.path(), "push.txt", PUSH);
    let level = write(dir.path(), "push_lvl0.txt", PUSH_LEVEL);
    let script = ["NIL*1000000"; 11].join(",");
    let o = studio(&["play", "--vgdl", s(&game), s(&level), "--actions", &script]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("longer than 10000000 ticks in all"),
        "{}",
        stderr(&o)
    );
}

/// F38: a flag of another mode is refused in words, not ignored.
#[test]
fn a_flag_of_another_mode_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let game = write(dir.path(), "push.txt", PUSH);
    let level = write(dir.path(), "push_lvl0.txt", PUSH_LEVEL);
    for (extra, says) in [
        (
            &["--agent", "random", "--frozen"][..],
            "--frozen goes with --shortest",
        ),
        (
            &["--agent", "random", "--budget", "5"][..],
            "--budget goes with --shortest",
        ),
        (
            &["--shortest", "--games", "7"][..],
            "--games goes with --agent",
        ),
        (
            &["--actions", "RIGHT", "--games", "5"][..],
            "--games goes with --agent",
        ),
    ] {
        let mut args = vec!["play", "--vgdl", s(&game), s(&level)];
        args.extend_from_slice(extra);
        let o = studio(&args);
        assert!(!o.status.success(), "{extra:?} was accepted");
        assert!(stderr(&o).contains(says), "{extra:?}: {}", stderr(&o));
    }
}

/// F38: `generate --vgdl` takes a missing `GAME_lvl0.txt` for the blank template, but refuses
/// one that is no regular file instead of ignoring it.
#[cfg(unix)]
#[test]
fn generate_refuses_a_level_file_that_is_a_fifo() {
    let dir = tempfile::tempdir().unwrap();
    let game = write(dir.path(), "push.txt", PUSH);
    let made = Command::new("mkfifo")
        .arg(dir.path().join("push_lvl0.txt"))
        .status()
        .unwrap();
    assert!(made.success());
    let out = dir.path().join("g.ron");
    let o = studio(&[
        "generate",
        "--vgdl",
        s(&game),
        "--model",
        "fi2pop",
        "--count",
        "1",
        "--out",
        s(&out),
    ]);
    assert!(!o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("not a regular file"), "{}", stderr(&o));
    assert!(!out.exists());
}

/// Issue 68, item 5: a GVGAI game's GA runs split with `generate --vgdl --shard I/N` and
/// joined with `pack merge`, and a profile split with `eval --vgdl --shard I/N --out PART`
/// and made whole with `--merge`, are the one-process runs byte for byte; parts of another
/// run or of another split, missing ones and more parts than levels are refused in words.
#[test]
fn a_split_ga_run_and_a_split_profile_are_the_one_process_runs_byte_for_byte() {
    let dir = tempfile::tempdir().unwrap();
    let game = write(dir.path(), "door.txt", DOOR);
    write(dir.path(), "door_lvl0.txt", DOOR_LEVEL);
    let ga = |extra: &[&str], out: &Path| {
        let mut args = vec![
            "generate",
            "--vgdl",
            s(&game),
            "--count",
            "3",
            "--seed",
            "3",
            "--population",
            "8",
            "--generations",
            "1",
            "--ticks",
            "100",
            "--out",
            s(out),
        ];
        args.extend_from_slice(extra);
        studio(&args)
    };
    let all = dir.path().join("all.ron");
    let o = ga(&[], &all);
    assert!(o.status.success(), "{}", stderr(&o));
    let mut parts = Vec::new();
    for i in 1..=3 {
        let part = dir.path().join(format!("part-{i}.ron"));
        let o = ga(&["--shard", &format!("{i}/3")], &part);
        assert!(o.status.success(), "{}", stderr(&o));
        parts.push(part);
    }
    let merged = dir.path().join("merged.ron");
    let mut args = vec!["pack", "merge"];
    args.extend(parts.iter().map(|p| s(p)));
    args.extend_from_slice(&["--out", s(&merged)]);
    let o = studio(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    let one = std::fs::read(&all).unwrap();
    assert!(
        one == std::fs::read(&merged).unwrap(),
        "the merged GA parts differ"
    );
    let o = ga(&["--shard", "1/4"], &dir.path().join("x.ron"));
    assert!(
        stderr(&o).contains("more parts than the 3 runs"),
        "{}",
        stderr(&o)
    );

    // The profile of those levels (α and β the same pack: 6 levels to play) in 4 parts.
    let profile = |extra: &[&str]| {
        let mut args = vec![
            "eval",
            "--vgdl",
            s(&game),
            "--profile",
            s(&all),
            s(&all),
            "--games",
            "1",
            "--budget",
            "8",
            "--ticks",
            "100",
            "--resamples",
            "200",
        ];
        args.extend_from_slice(extra);
        studio(&args)
    };
    let whole = profile(&["--json"]);
    assert!(whole.status.success(), "{}", stderr(&whole));
    let levels: Vec<PathBuf> = (1..=4)
        .map(|i| dir.path().join(format!("profile-{i}.json")))
        .collect();
    for (i, part) in levels.iter().enumerate() {
        let o = profile(&["--shard", &format!("{}/4", i + 1), "--out", s(part)]);
        assert!(o.status.success(), "{}", stderr(&o));
        assert!(
            stdout(&o).contains(&format!("part {}/4", i + 1)),
            "{}",
            stdout(&o)
        );
    }
    let mut merge = vec!["--json", "--merge"];
    merge.extend(levels.iter().rev().map(|p| s(p)));
    let o = profile(&merge);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), stdout(&whole), "the merged profile differs");
    // The table too, and another --resamples reshapes the same games.
    let mut merge = vec!["--merge"];
    merge.extend(levels.iter().map(|p| s(p)));
    assert_eq!(stdout(&profile(&merge)), stdout(&profile(&[])));
    // Refusals: a missing part, parts of another seed, more parts than levels, no --out.
    let o = profile(&["--merge", s(&levels[0]), s(&levels[1]), s(&levels[2])]);
    assert!(stderr(&o).contains("part 4/4 is missing"), "{}", stderr(&o));
    let mut seeded = vec!["--seed", "1", "--merge"];
    seeded.extend(levels.iter().map(|p| s(p)));
    let o = profile(&seeded);
    assert!(
        stderr(&o).contains("--seed 0, this run has 1"),
        "{}",
        stderr(&o)
    );
    let o = profile(&["--shard", "1/7", "--out", s(&dir.path().join("p.json"))]);
    assert!(stderr(&o).contains("more parts than the"), "{}", stderr(&o));
    let o = profile(&["--shard", "0/4", "--out", s(&dir.path().join("p.json"))]);
    assert!(stderr(&o).contains("I runs from 1 to N"), "{}", stderr(&o));
    let o = profile(&["--shard", "1/4"]);
    assert!(
        !o.status.success() && stderr(&o).contains("--out"),
        "{}",
        stderr(&o)
    );
}

/// Issue 70: a GA run stopped at its time limit keeps the best level it had found (asked to
/// stop shortly before the limit; and a hard stop keeps the best as it was written when
/// found), tagged unfinished; a run that ends has no such tag.
#[test]
fn a_ga_run_stopped_at_its_time_limit_keeps_its_best_level_so_far() {
    let dir = tempfile::tempdir().unwrap();
    let game = write(dir.path(), "door.txt", DOOR);
    write(dir.path(), "door_lvl0.txt", DOOR_LEVEL);
    let out = dir.path().join("stopped.ron");
    // Far more generations than 3 s allow (about 0.1 s each).
    let o = studio(&[
        "generate",
        "--vgdl",
        s(&game),
        "--count",
        "2",
        "--seed",
        "3",
        "--population",
        "8",
        "--generations",
        "500",
        "--ticks",
        "100",
        "--time-limit",
        "3",
        "--out",
        s(&out),
    ]);
    assert_eq!(o.status.code(), Some(124), "{}", stderr(&o));
    // Asked to stop 0.6 s before the limit, the run ended after its generation and wrote its
    // best, saying so.
    assert!(stderr(&o).contains("stopping: "), "{}", stderr(&o));
    let kept = std::fs::read_to_string(&out).unwrap();
    assert!(
        kept.contains("unfinished: stopped after generation"),
        "{kept}"
    );
    assert!(kept.contains("\"alpha 1\""), "{kept}");
    assert!(!kept.contains("\"alpha 2\""), "{kept}");
    // The pack opens: the kept level is a whole level of the game.
    let v = studio(&["validate", s(&out), "--games", "1"]);
    assert!(v.status.success(), "{}", stderr(&v));

    let done = dir.path().join("done.ron");
    let o = studio(&[
        "generate",
        "--vgdl",
        s(&game),
        "--count",
        "1",
        "--seed",
        "3",
        "--population",
        "8",
        "--generations",
        "1",
        "--ticks",
        "100",
        "--out",
        s(&done),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(!std::fs::read_to_string(&done)
        .unwrap()
        .contains("unfinished"));
}
