//! A GVGAI game as a studio game (issue 45, items 5 and 6): opened from its description, its
//! palette from the level mapping, packs that carry the description and open where the game
//! never was, the playtest, the analysis, the exporter back to GVGAI's files, and the pattern
//! GA's judge. The games are small descriptions of our own.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use super::DOOR;
use gvgai::evolve::{self, Judging, VgdlEvolution};
use gvgai::level::{self, VgdlGame};
use std::path::PathBuf;
use studio_core::evolve::pattern::Fitness;
use studio_core::evolve::Evolvable;
use studio_core::game::{registry, AnalyseOptions, Game, GameView, Heading, PlayMove, TileMark};
use studio_core::jobs::Cancel;
use studio_core::rng::Rng;

const LEVEL0: &str = "wwwwwwww\nwA..k..w\nw......w\nw..m..gw\nwwwwwwww\n";
const LEVEL1: &str = "wwwwwwww\nwA.....w\nw..k...w\nw.....gw\nwwwwwwww\n";

fn install() {
    registry::install(&[gvgai::plugin]);
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gvgai-studio-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn door_folder(name: &str) -> PathBuf {
    let dir = temp(name);
    std::fs::write(dir.join("door.txt"), DOOR).unwrap();
    std::fs::write(dir.join("door_lvl0.txt"), LEVEL0).unwrap();
    std::fs::write(dir.join("door_lvl1.txt"), LEVEL1).unwrap();
    dir
}

fn door() -> &'static VgdlGame {
    install();
    level::open("door.txt", DOOR).unwrap()
}

fn rows(text: &str) -> Vec<String> {
    text.lines().map(String::from).collect()
}

#[test]
fn a_description_becomes_a_registered_game_with_its_mapping_as_palette() {
    let g = door();
    let letters: String = g.tiles().iter().map(|t| t.ascii).collect();
    assert_eq!(letters, ".gkmAw");
    assert_eq!(g.tiles()[1].name, "DOOR");
    assert_eq!(g.empty_tile(), 0);
    assert_eq!(g.avatar_tile(), g.tile_of('A'));
    assert_eq!(g.wall_tile(), g.tile_of('w'));
    assert!(registry::find(g.id().as_str()).is_ok());
    // The same text is the same game; the name says it is GVGAI's.
    assert!(std::ptr::eq(g, level::open("door.txt", DOOR).unwrap()));
    assert_eq!(g.name(), "Door (GVGAI)");
    assert_eq!(g.tile_mark(g.tile_of('k').unwrap()), TileMark::Glyph('k'));
    // Roles colour the letters: the door is the goal, the monster harmful, the key collected.
    use studio_core::evolve::pattern::Category;
    let role = |c| g.tile_roles()[usize::from(g.tile_of(c).unwrap())];
    assert_eq!(role('g'), Category::Goal);
    assert_eq!(role('m'), Category::Harmful);
    assert_eq!(role('k'), Category::Collectible);
    assert_eq!(role('w'), Category::Solid);
}

#[test]
fn bad_descriptions_and_levels_are_refused_in_words() {
    install();
    let e = level::open(
        "broken.txt",
        "BasicGame\n  SpriteSet\n    x > NoSuchClass\n",
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("broken.txt:3"), "{e}");
    let g = door();
    let e = g.check(&rows("wwww\nwAzw\nwwww")).unwrap_err().to_string();
    assert!(e.contains("row 2, column 3") && e.contains("'z'"), "{e}");
    let e = g.check(&rows("wwww\nw..w\nwwww")).unwrap_err().to_string();
    assert!(e.contains("no avatar"), "{e}");
    let e = g.check(&rows("wwww\nwA.\nwwww")).unwrap_err().to_string();
    assert!(e.contains("row 2 has 3 cells"), "{e}");
}

#[test]
fn a_pack_carries_its_description_and_opens_where_the_game_was_never_opened() {
    install();
    let dir = door_folder("pack");
    let (pack, notes) = gvgai::formats::import_game(&dir.join("door.txt")).unwrap();
    assert!(notes.is_empty(), "{notes:?}");
    assert_eq!(pack.levels.len(), 2);
    assert_eq!(pack.levels[0].cells, rows(LEVEL0));
    let saved = dir.join("door.ron");
    studio_core::files::save_pack(&saved, &pack).unwrap();
    let text = std::fs::read_to_string(&saved).unwrap();
    assert!(text.contains("sources:") && text.contains("kind: \"vgdl\""));
    assert!(text.find("sources:").unwrap() < text.find("levels:").unwrap());
    let back = studio_core::files::load_pack(&saved).unwrap();
    assert_eq!(back.levels, pack.levels);
    // A description nobody opened in this process: the pack registers it as it loads.
    let edited_text = DOOR.replace("scoreChange=2", "scoreChange=5");
    let edited = text.replace("scoreChange=2", "scoreChange=5").replace(
        &level::file_tag_for("door.txt", DOOR),
        &level::file_tag_for("door.txt", &edited_text),
    );
    let fresh = dir.join("edited.ron");
    std::fs::write(&fresh, &edited).unwrap();
    let before = registry::games().len();
    let loaded = studio_core::files::load_pack(&fresh).unwrap();
    assert_eq!(registry::games().len(), before + 1);
    assert_ne!(loaded.levels[0].game, pack.levels[0].game);
    assert_eq!(loaded.levels[0].cells, pack.levels[0].cells);
    // A source that does not compile is a clear error, and nothing half-loads.
    let broken = text.replace("RandomNPC", "NoSuchNPC");
    std::fs::write(&fresh, broken).unwrap();
    let e = studio_core::files::load_pack(&fresh)
        .unwrap_err()
        .to_string();
    assert!(e.contains("door.txt") && e.contains("NoSuchNPC"), "{e}");
}

#[test]
fn the_importer_and_exporter_round_trip_gvgai_files() {
    install();
    let dir = door_folder("export");
    let importer = studio_core::formats::importer("gvgai-vgdl").unwrap();
    assert_eq!(importer.menu, Some("Open GVGAI game…"));
    let imported = (importer.import)(&studio_core::formats::ImportRequest {
        paths: vec![dir.join("door.txt")],
        seed: 0,
    })
    .unwrap();
    let mut pack = studio_core::level::Pack::new("door");
    pack.levels = imported.levels;
    let out = dir.join("out");
    let exporter = studio_core::formats::exporters()
        .into_iter()
        .find(|e| e.format == "gvgai-vgdl")
        .unwrap();
    let said = (exporter.export)(&out, &pack).unwrap();
    assert!(said.starts_with("2 GVGAI level files"), "{said}");
    assert_eq!(std::fs::read_to_string(out.join("door.txt")).unwrap(), DOOR);
    assert_eq!(
        std::fs::read_to_string(out.join("door_lvl1.txt")).unwrap(),
        LEVEL1
    );
    // A folder is not a description.
    let e = (importer.import)(&studio_core::formats::ImportRequest {
        paths: vec![dir.clone()],
        seed: 0,
    })
    .unwrap_err();
    assert!(e.to_string().contains("a folder"), "{e}");
}

#[test]
fn unmapped_characters_and_ragged_rows_read_as_gvgai_reads_them() {
    let g = door();
    let (r, note) = g.rows_from_gvgai("wwwww\nwA?\nwwwww\n");
    assert_eq!(r, rows("wwwww\nwA...\nwwwww"));
    let note = note.unwrap();
    assert!(
        note.contains("1 × '?'") && note.contains("2 × ' '"),
        "{note}"
    );
}

#[test]
fn the_playtest_steps_one_tick_a_key_and_takes_ticks_back() {
    let g = door();
    let level = g.level("l1", rows(LEVEL1));
    let mut play = g.play(&level, 0).unwrap().unwrap();
    let view = play.view();
    assert_eq!((view.width(), view.height()), (8, 5));
    assert_eq!(view.get(1, 1).mark, TileMark::Avatar);
    assert!(play.apply(PlayMove::Go(Heading::Down)));
    assert!(play.apply(PlayMove::Go(Heading::Right)));
    assert!(play.apply(PlayMove::Go(Heading::Right)));
    assert_eq!(play.status().counters[0].1, "1", "the key scores 1");
    assert!(play.undo());
    assert_eq!(play.status().counters[0].1, "0");
    assert_eq!(play.status().moves, 2);
    for mv in [
        Heading::Right,
        Heading::Right,
        Heading::Right,
        Heading::Right,
        Heading::Down,
    ] {
        play.apply(PlayMove::Go(mv));
    }
    let status = play.status();
    assert_eq!(status.outcome, Some(true), "{status:?}");
    // Issue 69, W17: the end line counts the moves the "Moves" counter shows.
    assert!(
        status
            .message
            .starts_with(&format!("Won on move {} ", status.moves)),
        "{status:?}"
    );
    assert!(!play.apply(PlayMove::Wait), "a finished game takes no move");
}

#[test]
fn the_analysis_plays_the_agents_and_fills_the_gauge() {
    let g = door();
    let level = g.level("l1", rows(LEVEL1));
    let options = AnalyseOptions {
        games: Some(2),
        ..AnalyseOptions::default()
    };
    let a = g.analyse(&level, &options, &Cancel::default()).unwrap();
    let (_, rates) = a.gauge.rates.clone().unwrap();
    let names: Vec<&str> = rates.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["do-nothing", "random", "one-step", "OLETS"]);
    assert_eq!(rates[0].1, 0.0, "do-nothing never wins");
    assert!(a.verdict.pass, "{:?}", a.verdict);
    assert!(a.fields.contains_key("olets"));
}

/// The GA's judging with `n` games per agent, the rest as by default.
fn games(n: u32) -> Judging {
    Judging {
        games: n,
        ..Judging::default()
    }
}

#[test]
fn the_ga_judges_a_level_with_seven_constraints_and_three_terms() {
    let g = door();
    let tiles = evolve::tiles_of(g, &rows(LEVEL1)).unwrap();
    let e = evolve::judge(g, &tiles, Fitness::Alpha, 0, &games(2));
    assert_eq!(e.constraints.len(), 7);
    assert_eq!(e.terms.len(), 3);
    let failed = e.failed();
    assert!(
        !failed.iter().any(|f| f.starts_with("one avatar")),
        "{failed:?}"
    );
    assert!(
        !failed.iter().any(|f| f.starts_with("goal not met")),
        "{failed:?}"
    );
    // No avatar: named.
    let mut none = tiles.clone();
    none.set(1, 1, g.empty_tile());
    let e = evolve::judge(g, &none, Fitness::Alpha, 0, &games(1));
    assert!(
        e.failed().iter().any(|f| f == "one avatar: 0 avatars"),
        "{:?}",
        e.failed()
    );
}

/// Issue 66: the ablation leaves harmful sprites out of FPattern, so a pack of monsters earns
/// nothing for grouping; walls and the rest count as before.
#[test]
fn the_ablation_leaves_harmful_sprites_out_of_the_pattern_term() {
    use gvgai::evolve::PatternTerm;
    use studio_core::evolve::pattern::{self, Category};
    let g = door();
    // Three monsters in a row and a lone wall block: one harmful group of three, one solid
    // single (the key and the door are singles too).
    let level = "wwwwwwww\nwA.mmm.w\nw.k....w\nw..w..gw\nwwwwwwww\n";
    let tiles = evolve::tiles_of(g, &rows(level)).unwrap();
    let groups = evolve::groups(g, &tiles);
    assert!(groups
        .iter()
        .any(|x| x.category == Category::Harmful && x.cells.len() == 3));
    let counted = PatternTerm::WithoutHarmful.counted(&groups);
    assert_eq!(counted.len(), groups.len() - 1);
    assert!(counted.iter().all(|x| x.category != Category::Harmful));
    assert_eq!(PatternTerm::Every.counted(&groups), groups);
    let f_pattern = |pattern| {
        let judging = Judging {
            games: 1,
            pattern,
            ..Judging::default()
        };
        let e = evolve::judge(g, &tiles, Fitness::Alpha, 0, &judging);
        let t = e
            .terms
            .iter()
            .find(|t| t.name == "FPattern")
            .cloned()
            .unwrap();
        (t.value, t.text)
    };
    let (every, every_text) = f_pattern(PatternTerm::Every);
    let (ablated, ablated_text) = f_pattern(PatternTerm::WithoutHarmful);
    assert_eq!(every, pattern::f_pattern(&groups, Fitness::Alpha));
    assert_eq!(ablated, pattern::f_pattern(&counted, Fitness::Alpha));
    // The grouped monsters lifted α's FPattern; without them it falls.
    assert!(ablated < every, "{ablated} vs {every}");
    assert!(every_text.starts_with(&format!("{} groups counted", groups.len())));
    assert!(ablated_text.starts_with(&format!("{} groups counted", counted.len())));
}

/// Issue 66: the GA's games last as the profiles' do — to the game's own end by default, or
/// capped alike; do-nothing's survival is measured against that length.
#[test]
fn the_ga_judges_in_games_of_the_length_asked() {
    let g = door();
    // No monster: do-nothing lives as long as the game lasts.
    let tiles = evolve::tiles_of(g, &rows(LEVEL1)).unwrap();
    let survives = |length| {
        let judging = Judging {
            games: 1,
            length,
            ..Judging::default()
        };
        let e = evolve::judge(g, &tiles, Fitness::Alpha, 0, &judging);
        e.constraints
            .iter()
            .find(|c| c.name == "do-nothing survives")
            .map(|c| c.text.clone())
            .unwrap()
    };
    assert!(
        survives(gvgai::agents::Length::Full).starts_with("survives 2000 ticks"),
        "{}",
        survives(gvgai::agents::Length::Full)
    );
    assert!(
        survives(gvgai::agents::Length::Capped(60)).starts_with("survives 60 ticks"),
        "{}",
        survives(gvgai::agents::Length::Capped(60))
    );
    assert_eq!(Judging::default().length, gvgai::agents::Length::Full);
}

#[test]
fn the_ga_keeps_the_border_and_one_avatar_and_is_reproducible() {
    let g = door();
    let template = evolve::tiles_of(g, &rows(LEVEL0)).unwrap();
    let ga = VgdlEvolution::new(g, template.clone(), Fitness::Beta);
    let a = ga.initial(7);
    assert!(a == ga.initial(7));
    let mut fixed = a.clone();
    ga.repair(&mut fixed, &mut Rng::new(1));
    let avatar = g.avatar_tile().unwrap();
    assert_eq!(fixed.cells().iter().filter(|&&t| t == avatar).count(), 1);
    for (x, y, t) in template.iter() {
        if ga.fixed(&template, x, y) {
            assert!(fixed.get(x, y) == t);
        }
    }
    assert!(!ga.sprites().contains(&avatar) && !ga.sprites().contains(&g.empty_tile()));
    let settings = studio_core::evolve::Settings {
        population: 6,
        generations: 1,
        seed: 3,
        ..Default::default()
    };
    let run = |s| studio_core::evolve::evolve(&ga, s, &Cancel::default(), &mut |_| {});
    let (one, two) = (run(&settings), run(&settings));
    assert_eq!(one.history, two.history);
}

#[test]
fn profiles_rank_the_eight_controllers_on_levels() {
    let g = door();
    let levels = vec![rows(LEVEL0), rows(LEVEL1)];
    let p = gvgai::profiles::profiles(
        g,
        &levels,
        &gvgai::profiles::PROFILE_AGENTS,
        1,
        0,
        Some(8),
        &Cancel::default(),
    )
    .unwrap();
    assert_eq!(p.len(), 8);
    assert_eq!(p[0].agent, "donothing");
    assert_eq!(p[0].win_rate, 0.0);
    assert!(p.iter().all(|a| (0.0..=1.0).contains(&a.normalised_score)));
    let cancel = Cancel::default();
    cancel.cancel();
    assert!(gvgai::profiles::profiles(
        g,
        &levels,
        &gvgai::profiles::PROFILE_AGENTS,
        1,
        0,
        Some(8),
        &cancel
    )
    .is_err());
}

/// The session and the crash-recovery autosave carry the run-time games too: a run that ended
/// on a GVGAI game reads its canvases and candidates back before any pack is opened.
#[test]
fn the_session_and_the_recovery_file_carry_the_descriptions() {
    use studio_core::document::recovery::Recovery;
    use studio_core::document::session::{SavedCanvas, Session};
    let g = door();
    let level = g.level("l1", rows(LEVEL1));
    let session = Session {
        games: Default::default(),
        canvases: vec![SavedCanvas {
            level: level.clone(),
            pack_level: None,
        }],
        requests: Vec::new(),
        candidates: Vec::new(),
        previous: Vec::new(),
    };
    let text = studio_core::io::to_ron(&session).unwrap();
    assert!(text.find("games:").unwrap() < text.find("canvases:").unwrap());
    // As a later run sees it: a description this process never opened.
    let edited_text = DOOR.replace("cooldown=4", "cooldown=5");
    let later = text.replace("cooldown=4", "cooldown=5").replace(
        &level::file_tag_for("door.txt", DOOR),
        &level::file_tag_for("door.txt", &edited_text),
    );
    let back: Session = ron::from_str(&later).unwrap();
    assert_eq!(back.canvases[0].level.cells, level.cells);
    assert_ne!(back.canvases[0].level.game, level.game);
    let recovery = Recovery {
        games: Default::default(),
        saved_at: 1,
        game: level.game,
        levels: vec![level.clone()],
        packs: Vec::new(),
        links: vec![None],
        clean_exit: false,
    };
    let text = studio_core::io::to_ron(&recovery).unwrap();
    let back: Recovery = ron::from_str(&text).unwrap();
    assert_eq!(back.levels, recovery.levels);
}

/// Issue 69's observation: a level with no door (the goal) is won at tick 0 by VGDL's rule,
/// and the gauge says so instead of reading as an easy level.
#[test]
fn a_level_won_before_any_move_says_why() {
    let g = door();
    let level = g.level(
        "no goal",
        rows("wwwwwwww\nwA..k..w\nw......w\nw......w\nwwwwwwww\n"),
    );
    let options = AnalyseOptions {
        games: Some(2),
        ..AnalyseOptions::default()
    };
    let a = g.analyse(&level, &options, &Cancel::default()).unwrap();
    assert!(a.verdict.pass);
    assert!(
        a.gauge.notes[0].starts_with("won at tick 0"),
        "{:?}",
        a.gauge.notes
    );
    assert!(
        a.verdict.reason.contains("won at tick 0"),
        "{}",
        a.verdict.reason
    );
    // A level with its door says nothing of the kind.
    let with_door = g.level("l1", rows(LEVEL1));
    let a = g.analyse(&with_door, &options, &Cancel::default()).unwrap();
    assert!(a.gauge.notes.iter().all(|n| !n.contains("tick 0")));
}

/// Issue 70: when the engine stops the strong agent's games (sprites that multiply), the
/// GA's "solution length" constraint says so, so a failed Evolve names the cause.
#[test]
fn the_ga_says_when_the_engine_stopped_the_strong_agents_games() {
    install();
    let text = "BasicGame square_size=10
  SpriteSet
    floor > Immovable
    hole > SpawnPoint stype=blob prob=1 cooldown=1
    blob > Immovable
    goal > Immovable
    avatar > MovingAvatar
  LevelMapping
    . > floor
    h > floor hole
    g > floor goal
    A > floor avatar
  InteractionSet
    avatar wall > stepBack
    blob blob > cloneSprite
    goal avatar > killSprite scoreChange=1
  TerminationSet
    SpriteCounter stype=goal win=True
    SpriteCounter stype=avatar win=False
";
    let g = level::open("stack.txt", text).unwrap();
    let level = "wwwwwwwwwwwww\nwA.........gw\nw.....h.....w\nw...........w\nwwwwwwwwwwwww\n";
    let tiles = evolve::tiles_of(g, &rows(level)).unwrap();
    let e = evolve::judge(g, &tiles, Fitness::Alpha, 0, &games(1));
    let solution = e
        .constraints
        .iter()
        .find(|c| c.name == "solution length")
        .unwrap();
    assert!(
        solution.value < 1.0 && solution.text.contains("games stopped (limit reached"),
        "{}",
        solution.text
    );
}
