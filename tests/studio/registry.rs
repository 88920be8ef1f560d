//! Games as plug-ins: the registry lists the shipped games and their generators, and a toy
//! game registered here (two tiles, one generator) works through the registry, the
//! generation service, files, PNG export and the command line without any change to them.

use level_studio::game;
use level_studio::generation;
use level_studio::jobs::Cancel;
use level_studio::level::Pack;
use std::process::Command;
use toy::{register_toy, toy_request, TOY};

#[test]
fn the_shipped_games_are_registered_with_their_generators() {
    let ids: Vec<&str> = game::games().iter().map(|g| g.id().as_str()).collect();
    assert!(ids.starts_with(&["match3", "longcat"]), "{ids:?}");
    let match3 = game::find("Match-3").unwrap();
    let generators: Vec<&str> = match3.generators().iter().map(|g| g.id()).collect();
    assert_eq!(
        generators,
        [
            "avalon",
            "vanilla",
            "avalon-stylized",
            "vanilla-stylized",
            "avalon-main",
            "vanilla-main",
            "synth",
            "fi2pop-alpha",
            "fi2pop-beta"
        ]
    );
    let err = game::find("chess").unwrap_err().to_string();
    assert!(
        err.contains("unknown game") && err.contains("longcat"),
        "{err}"
    );
}

#[test]
fn list_json_lists_every_game_with_generators_and_conditions() {
    let out = Command::new(env!("CARGO_BIN_EXE_level-studio"))
        .args(["list", "--json"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let games = v["games"].as_array().unwrap();
    let ids: Vec<&str> = games.iter().map(|g| g["id"].as_str().unwrap()).collect();
    assert_eq!(
        ids,
        ["match3", "longcat", "dungeon", "course", "blend", "mario"]
    );
    let avalon = &games[0]["generators"][0];
    assert_eq!(avalon["id"], "avalon");
    let keys: Vec<&str> = avalon["conditions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["key"].as_str().unwrap())
        .collect();
    assert_eq!(
        keys,
        [
            "width",
            "height",
            "symmetry",
            "moves",
            "temperature",
            "fresh"
        ]
    );
    assert_eq!(avalon["conditions"][3]["required"], true);
    let dqn = &games[1]["generators"][2];
    assert_eq!(dqn["id"], "longcat-dqn");
    assert!(dqn["conditions"]
        .as_array()
        .unwrap()
        .iter()
        .any(|c| c["key"] == "temperature"));
    let dungeon: Vec<&str> = games[2]["generators"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_str().unwrap())
        .collect();
    assert_eq!(
        dungeon,
        ["random", "constructive", "fi2pop-alpha", "fi2pop-beta"]
    );
}

#[test]
fn a_toy_game_works_through_the_registry_service_files_and_command_line() {
    register_toy();
    // The generation service: named, tagged, analysed, distinct, reproducible.
    let models = game::ModelCache::new(std::path::Path::new("models"));
    let run = |seed| {
        let mut made = Vec::new();
        generation::run(
            &toy_request(4, seed),
            &models,
            &Cancel::default(),
            &mut |_, _| {},
            &mut |c| made.push(c),
        )
        .unwrap();
        made
    };
    let made = run(7);
    assert_eq!(made.len(), 4);
    assert!(made.iter().all(|c| c.verdict.pass && c.level.game == TOY));
    assert_eq!(made[0].level.name, "stripes-001");
    assert_eq!(made[0].level.tags, ["generated", "stripes"]);
    assert_eq!(run(7), made, "same seed, same levels");

    // Files: RON names the game by its tag and reads back through the registry.
    let dir = tempfile::tempdir().unwrap();
    let mut pack = Pack::new("toys");
    pack.levels = made.iter().map(|c| c.level.clone()).collect();
    let path = dir.path().join("toys.ron");
    level_studio::files::save_pack(&path, &pack).unwrap();
    assert!(std::fs::read_to_string(&path)
        .unwrap()
        .contains("game: Toy"));
    assert_eq!(level_studio::files::load_pack(&path).unwrap(), pack);
    // ASCII art: only the toy game reads `o`/`x`.
    let txt = dir.path().join("t.txt");
    std::fs::write(&txt, "oxo\nooo\n").unwrap();
    assert_eq!(level_studio::files::load_level(&txt).unwrap().game, TOY);
    // PNG sheet with the toy's own colours.
    let png = dir.path().join("toys.png");
    level_studio::export::export_png(&png, &pack, &[]).unwrap();
    assert!(std::fs::metadata(&png).unwrap().len() > 100);
    // Tiled maps with the toy's tiles as the tileset.
    let maps = dir.path().join("tiled");
    let written = level_studio::export::tiled::export_tmj(&maps, &pack, &[]).unwrap();
    assert_eq!(written.maps.len(), pack.levels.len());
    assert!(written.tilesets[0].ends_with("toy-tiles.png"));

    // The command line, in this process, knows the toy game too.
    let out = dir.path().join("cli.ron");
    let code = level_studio::cli::run_words([
        "level-studio",
        "generate",
        "--game",
        "toy",
        "--model",
        "stripes",
        "--count",
        "4",
        "--seed",
        "7",
        "--validate",
        "--out",
        out.to_str().unwrap(),
    ])
    .unwrap();
    assert_eq!(code, Some(std::process::ExitCode::SUCCESS));
    let from_cli = level_studio::files::load_pack(&out).unwrap();
    assert_eq!(
        from_cli.levels, pack.levels,
        "the CLI runs the same service"
    );
    let bad = level_studio::cli::run_words([
        "level-studio",
        "generate",
        "--game",
        "toy",
        "--model",
        "stripes",
        "--moves",
        "3",
        "--out",
        out.to_str().unwrap(),
    ])
    .unwrap();
    assert_eq!(
        bad,
        Some(std::process::ExitCode::FAILURE),
        "--moves does not apply"
    );
}

#[test]
fn a_newer_pack_format_is_refused_and_never_rewritten() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("new.ron");
    let text = "(\n  format: 99,\n  name: \"x\",\n  levels: [],\n)\n";
    std::fs::write(&path, text).unwrap();
    let err = level_studio::files::load_pack(&path)
        .unwrap_err()
        .to_string();
    assert!(err.contains("format 99 is newer"), "{err}");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
}

/// Walkthrough D19: conditions that will keep few or no levels are said before the run.
#[test]
fn rare_conditions_are_warned_before_the_run() {
    use level_studio::game::{ConditionValue, Conditions, ModelCache};
    let models = ModelCache::new(std::path::Path::new("models"));
    let course = game::find("course").unwrap();
    let vs = game::generator_of(course, "vs-ddpg").unwrap();
    let mut c = Conditions::defaults(&vs.conditions());
    assert!(vs.feasibility(&models, &c).is_none());
    c.set("filter", ConditionValue::Float(0.99));
    let f = vs.feasibility(&models, &c).unwrap();
    assert!(f.warning.contains("rare"), "{}", f.warning);
    let longcat = game::find("longcat").unwrap();
    let down = game::generator_of(longcat, "solution-down").unwrap();
    let mut c = Conditions::defaults(&down.conditions());
    assert!(down.feasibility(&models, &c).is_none());
    c.set("width", ConditionValue::Int(3));
    c.set("height", ConditionValue::Int(3));
    assert!(down
        .feasibility(&models, &c)
        .unwrap()
        .warning
        .contains("3×3"));
}

#[test]
fn each_game_brings_its_commands_and_formats_through_its_plug_in() {
    use level_studio::cli::{game_commands, Slot};
    // The shipped games' commands and formats (the toy's, registered by another test of
    // this binary at any moment, are left out).
    let game_commands = || -> Vec<_> {
        game_commands()
            .into_iter()
            .filter(|c| c.game.as_str() != "toy")
            .collect()
    };
    let commands = game_commands();
    // Every shipped game adds its metric sweep; five of them train models.
    for id in ["match3", "longcat", "dungeon", "course", "blend", "mario"] {
        assert!(
            commands
                .iter()
                .any(|c| c.game.as_str() == id && c.slot == Slot::Eval),
            "{id} has no eval"
        );
    }
    let trained: Vec<&str> = commands
        .iter()
        .filter(|c| c.slot == Slot::Train)
        .map(|c| c.game.as_str())
        .collect();
    assert_eq!(trained, ["match3", "longcat", "course", "blend", "mario"]);
    // Installing the same plug-ins again adds nothing twice.
    level_studio::install_games();
    assert_eq!(game_commands().len(), commands.len());
    let importers: Vec<&str> = level_studio::formats::importers()
        .iter()
        .map(|i| i.format)
        .filter(|f| *f != "toy-rows")
        .collect();
    assert_eq!(
        importers,
        [
            "gvgai-zelda",
            "vglc-zelda",
            "vglc-lode-runner",
            "vglc-mario",
            "mario-ai",
            "gvgai-vgdl"
        ]
    );
    let exporters: Vec<&str> = level_studio::formats::exporters()
        .iter()
        .map(|e| e.format)
        .filter(|f| *f != "toy-rows")
        .collect();
    assert_eq!(exporters, ["vglc-mario", "mario-ai", "gvgai-vgdl"]);
}

/// Issue 65, typed seams: a plug-in that registers a second game under a registered id is a
/// mistake said at start, never silently ignored.
#[test]
fn a_second_game_under_a_registered_id_is_refused_at_start() {
    use level_studio::game::{
        AnalyseOptions, Analysis, AsciiError, Game, GameId, GameView, LevelGenerator, SizeRules,
        TileInfo,
    };
    use level_studio::jobs::JobError;
    use level_studio::level::Level;
    use std::sync::Arc;

    /// A copy of a template that kept the match-3 id.
    struct Impostor;
    impl Game for Impostor {
        fn id(&self) -> GameId {
            GameId::new("match3")
        }
        fn name(&self) -> &'static str {
            "My new game"
        }
        fn file_tag(&self) -> &'static str {
            "MyNewGame"
        }
        fn tiles(&self) -> &'static [TileInfo] {
            &[]
        }
        fn size_rules(&self) -> SizeRules {
            SizeRules {
                min: (1, 1),
                max: (1, 1),
                default: (1, 1),
            }
        }
        fn check(&self, _rows: &[String]) -> Result<(), AsciiError> {
            Ok(())
        }
        fn blank(&self, _w: usize, _h: usize) -> Level {
            Level::bare(self.id(), "blank", Vec::new())
        }
        fn level_from_ascii(&self, _name: &str, _text: &str) -> Result<Level, AsciiError> {
            Err(AsciiError::Level("none".into()))
        }
        fn analyse(
            &self,
            _level: &Level,
            _options: &AnalyseOptions,
            _cancel: &Cancel,
        ) -> Result<Analysis, JobError> {
            Err(JobError::Failed("none".into()))
        }
        fn stored_difficulty(&self, _level: &Level) -> Option<f64> {
            None
        }
        fn stored_verdict(&self, _level: &Level) -> Option<bool> {
            None
        }
        fn generators(&self) -> Vec<Arc<dyn LevelGenerator>> {
            Vec::new()
        }
    }
    impl GameView for Impostor {}
    static IMPOSTOR: Impostor = Impostor;
    fn impostor(r: &mut game::registry::Registry) {
        r.add_game(&IMPOSTOR);
    }
    let before = game::games().len();
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let said = std::panic::catch_unwind(|| game::registry::install(&[impostor]));
    std::panic::set_hook(hook);
    let message = said
        .err()
        .and_then(|p| p.downcast_ref::<String>().cloned())
        .expect("refused");
    assert!(
        message.contains("match3") && message.contains("My new game"),
        "{message}"
    );
    assert_eq!(game::games().len(), before, "nothing was installed");
    assert_eq!(game::registry::find("match3").unwrap().name(), "Match-3");
}
