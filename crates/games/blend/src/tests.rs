//! The blend game on hand-made segments and, when the VGLC folder is there, on the data.

use super::agents::{lode_runner, zelda};
use super::data::{self, Source, SIDE};
use super::metrics::{likeness, tile_metrics, Likeness};
use std::path::Path;

fn rows(lines: &[&str]) -> Vec<String> {
    lines.iter().map(|l| l.to_string()).collect()
}

/// A Lode Runner-like segment: gold on a ledge reached by a ladder, gold under bricks.
fn ladder_segment() -> Vec<String> {
    let mut r = vec!["................".to_string(); SIDE];
    r[3] = "..G.............".into();
    r[4] = "BBBBB#BBBBBBBBBB".into();
    for row in r.iter_mut().take(15).skip(5) {
        row.replace_range(5..6, "#");
    }
    r[14] = ".....#....G.....".into();
    r[15] = "BBBBBBBBBBBBBBBB".into();
    r
}

#[test]
fn the_lode_runner_agent_climbs_walks_and_collects() {
    let seg = ladder_segment();
    let v = lode_runner(&seg);
    assert_eq!(v.gold, 2);
    assert_eq!(v.reached, 2, "the ladder joins the ledge and the floor");
    assert!(v.playable);
    // Without the ladder's top rung the agent on the floor cannot reach the ledge's gold, and
    // from the top it falls… onto the ledge, so half the gold is still there: playable.
    let mut cut = seg.clone();
    cut[4] = "BBBBBBBBBBBBBBBB".into();
    let v = lode_runner(&cut);
    assert_eq!(v.reached, 1);
    assert!(v.playable, "half the gold counts");
}

#[test]
fn digging_drops_the_lode_runner_agent_through_a_brick() {
    let mut seg = vec!["................".to_string(); SIDE];
    seg[7] = "BBBBBBBbBBBBBBBB".into();
    seg[14] = "G...............".into();
    seg[15] = "BBBBBBBBBBBBBBBB".into();
    // The top start stands on row 7's blocks and digs the brick at column 7.
    assert!(lode_runner(&seg).playable);
    let mut solid = seg.clone();
    solid[7] = "BBBBBBBBBBBBBBBB".into();
    // From the top it cannot get through; from the bottom start it walks to the gold.
    let v = lode_runner(&solid);
    assert_eq!(v.reached, 1);
}

#[test]
fn the_lode_runner_agent_collects_gold_in_one_run_not_by_reach() {
    // A ledge with a hole at each end over two pits it cannot climb out of: from the top the
    // agent can fall into either pit, but one run takes only one pit's gold.
    let mut seg = vec!["................".to_string(); SIDE];
    seg[4] = "BB.BBBBBBBBBB.BB".into();
    for row in seg.iter_mut().take(15).skip(11) {
        row.replace_range(5..6, "B");
        row.replace_range(10..11, "B");
    }
    seg[14].replace_range(0..1, "G");
    seg[14].replace_range(7..8, "G");
    seg[14].replace_range(15..16, "G");
    seg[15] = "BBBBBBBBBBBBBBBB".into();
    let v = lode_runner(&seg);
    assert_eq!(v.gold, 3);
    assert_eq!(v.reached, 1, "one pit per run");
    assert!(
        !v.playable,
        "two of three gold are reachable, but not in one run"
    );
    // A ladder out of the left pit up to the ledge lets one run take both outer pits' gold.
    let mut ladder = seg.clone();
    for row in ladder.iter_mut().take(15).skip(4) {
        row.replace_range(3..4, "#");
    }
    let v = lode_runner(&ladder);
    assert_eq!(v.reached, 2);
    assert!(v.playable);
    // An enemy in the way keeps the agent out, as solid tiles do.
    let mut guarded = ladder.clone();
    guarded[3].replace_range(3..4, "E");
    guarded[3].replace_range(12..13, "E");
    assert!(lode_runner(&guarded).reached <= 1);
}

#[test]
fn a_segment_without_gold_is_never_playable_for_the_lode_runner_agent() {
    let mut open = vec!["................".to_string(); SIDE];
    open[15] = "BBBBBBBBBBBBBBBB".into();
    let v = lode_runner(&open);
    assert_eq!((v.gold, v.reached), (0, 0));
    assert!(!v.playable, "no gold, no goal: open space is not a pass");
    let mut one = open.clone();
    one[14].replace_range(3..4, "G");
    assert!(
        lode_runner(&one).playable,
        "it falls to the floor and walks to the gold"
    );
}

#[test]
fn the_zelda_agent_walks_floors_and_doors_and_is_blocked_by_walls_elements_and_void() {
    let mut room = vec!["----------------".to_string(); 3];
    room.push("WWWWWWWDDWWWWWWW".into());
    for _ in 0..9 {
        room.push("WFFFFFFFFFFFFFFW".into());
    }
    room.push("WWWWWWWDDWWWWWWW".into());
    room.extend(vec!["----------------".to_string(); 2]);
    assert_eq!(room.len(), SIDE);
    // The corners are void: each moves to the room's nearest floor cell.
    let v = zelda(&room);
    assert_eq!(v.paths, 4, "across the room's floor");
    assert!(v.playable);
    // Lava, a wall or a row of blocks across the room stops it; a door in the wall does not.
    for (across, paths) in [
        ("WPPPPPPPPPPPPPPW", 0),
        ("WWWWWWWWWWWWWWWW", 0),
        ("WBBBBBBBBBBBBBBW", 0),
        ("WWWWWWWDWWWWWWWW", 4),
    ] {
        let mut cut = room.clone();
        cut[8] = across.into();
        assert_eq!(zelda(&cut).paths, paths, "{across}");
    }
    // Void inside the room is not floor either.
    let mut hole = room.clone();
    hole[8] = "W--------------W".into();
    assert_eq!(zelda(&hole).paths, 0);
    // A lava wall from the top down to row 9 leaves the way round below it.
    let mut half = room.clone();
    for row in half.iter_mut().take(10) {
        row.replace_range(7..8, "P");
    }
    assert_eq!(zelda(&half).paths, 4);
    // Lode Runner's open cells and ladders are walkable, its bricks are not.
    let mut lr = vec!["................".to_string(); SIDE];
    lr[8] = "bbbbbbbbbbbbbbbb".into();
    assert_eq!(zelda(&lr).paths, 0);
    lr[8].replace_range(4..5, "#");
    assert_eq!(zelda(&lr).paths, 4);
    // All lava: no walkable cell, no path.
    let all = vec!["PPPPPPPPPPPPPPPP".to_string(); SIDE];
    assert_eq!(zelda(&all).paths, 0);
}

#[test]
fn tile_metrics_and_likeness_follow_table_one() {
    let seg = ladder_segment();
    let m = tile_metrics(&seg);
    // 15 + 16 solid B cells (row 4 has the ladder's B replaced by '#').
    assert!((m.density - 31.0 / 256.0).abs() < 1e-12, "{m:?}");
    assert_eq!(m.leniency, 1.0);
    // 11 ladder cells (rows 4–14) and 2 gold.
    assert!((m.interestingness - 13.0 / 256.0).abs() < 1e-12);
    assert!((m.path_proportion - (256.0 - 31.0) / 256.0).abs() < 1e-12);
    assert_eq!(likeness(&seg), Likeness::LodeRunner);
    // A flat floor has one straight surface; a staircase too; steps up and down do not.
    let mut flat = vec!["................".to_string(); SIDE];
    flat[15] = "BBBBBBBBBBBBBBBB".into();
    assert_eq!(tile_metrics(&flat).non_linearity, 0.0);
    let mut bumpy = flat.clone();
    bumpy[10] = "B.B.B.B.B.B.B.B.".into();
    assert!(tile_metrics(&bumpy).non_linearity > 0.1);
    let zelda_room: Vec<String> = (0..SIDE).map(|_| "WFFFFFFFFFFFFFFW".into()).collect();
    assert_eq!(likeness(&zelda_room), Likeness::Zelda);
}

#[test]
fn malformed_segments_say_what_is_wrong() {
    use super::level::check_rows;
    assert!(check_rows(&rows(&["BBBB"]))
        .unwrap_err()
        .contains("a blend segment has 16"));
    let mut bad = vec!["................".to_string(); SIDE];
    bad[2] = "......X.........".into();
    let e = check_rows(&bad).unwrap_err();
    assert!(e.contains("row 3, column 7") && e.contains("'X'"), "{e}");
    let err = data::lode_runner_segments(Path::new("Level 9.txt"), "BB\nbb\n").unwrap_err();
    assert!(err.to_string().contains("22"), "{err}");
}

#[test]
fn the_vglc_data_makes_600_lode_runner_and_459_zelda_segments() {
    let dir = Path::new(studio_core::datasets::DEFAULT_DIR);
    if !dir.is_dir() {
        println!("skipped: the VGLC folder {} is not here", dir.display());
        return;
    }
    let all = data::load(dir).unwrap();
    let lr = all
        .iter()
        .filter(|s| s.source == Source::LodeRunner)
        .count();
    let loz = all.iter().filter(|s| s.source == Source::Zelda).count();
    assert_eq!((lr, loz), (600, 459));
    assert!(all
        .iter()
        .all(|s| super::level::check_rows(&s.rows).is_ok()));
    // Level 1's top-left quadrant is its first 16 rows and columns.
    assert_eq!(all[0].rows[2], "bBBbBBbBBBb#bbbb");
    // Top and bottom quadrants overlap by 10 rows.
    assert_eq!(all[0].rows[6..], all[2].rows[..10]);
    let split = data::split(all.clone(), 0);
    assert_eq!(
        (split.train.len(), split.test.len(), split.validation.len()),
        (900, 106, 53)
    );
    let again = data::split(all, 0);
    assert_eq!(split.train, again.train, "seeded");
    // Most originals are like their own game and playable by its agent.
    let (mut like, mut playable) = (0, 0);
    let mut by_game = [(0, 0, 0); 2];
    for s in &split.train {
        let f = super::analysis::figures(&s.rows);
        let own = f.lode_runner_like == (s.source == Source::LodeRunner);
        like += usize::from(own);
        let ok = if f.lode_runner_like {
            f.lr_playable
        } else {
            f.loz_playable
        };
        playable += usize::from(ok);
        let g = &mut by_game[usize::from(s.source == Source::Zelda)];
        g.0 += 1;
        g.1 += usize::from(f.lr_playable);
        g.2 += usize::from(f.loz_playable);
    }
    println!("train: {like} of 900 like their own game, {playable} playable by its agent");
    println!(
        "(segments, LR A*, LoZ A*): Lode Runner {:?}, Zelda {:?}",
        by_game[0], by_game[1]
    );
    assert!(like > 880, "{like}");
    assert!(playable > 600, "{playable}");
}

#[test]
fn energy_distance_is_zero_for_the_same_set_and_grows_with_a_shift() {
    use super::eval::energy_distance;
    let a: Vec<[f64; 5]> = (0..20)
        .map(|i| [i as f64 / 20.0, 0.1, 0.9, 0.2, 0.5])
        .collect();
    assert!(energy_distance(&a, &a).abs() < 1e-12);
    let shifted: Vec<[f64; 5]> = a
        .iter()
        .map(|v| [v[0], v[1] + 0.3, v[2], v[3], v[4]])
        .collect();
    let far: Vec<[f64; 5]> = a
        .iter()
        .map(|v| [v[0], v[1] + 0.6, v[2], v[3], v[4]])
        .collect();
    let (near, farther) = (energy_distance(&a, &shifted), energy_distance(&a, &far));
    assert!(near > 0.1 && farther > near, "{near} {farther}");
    assert!(
        (energy_distance(&shifted, &a) - near).abs() < 1e-12,
        "symmetric"
    );
    // Two single points: 2‖x − y‖.
    assert!((energy_distance(&[[0.0; 5]], &[[0.3, 0.4, 0.0, 0.0, 0.0]]) - 1.0).abs() < 1e-12);
}

#[test]
fn cyclic_kl_annealing_starts_at_zero_then_rises_and_holds() {
    use super::vae::{kl_weight, KL_MAX};
    // 400 epochs: cycles of 20.
    assert_eq!(kl_weight(0, 400), 0.0);
    assert_eq!(kl_weight(19, 400), 0.0, "the first cycle stays at 0");
    assert_eq!(kl_weight(20, 400), 0.0);
    assert!((kl_weight(25, 400) - KL_MAX / 2.0).abs() < 1e-12);
    assert_eq!(kl_weight(30, 400), KL_MAX);
    assert_eq!(kl_weight(39, 400), KL_MAX);
    assert_eq!(kl_weight(40, 400), 0.0, "the next cycle starts again");
}

#[test]
fn the_fc_vae_trains_reproducibly_and_decodes_segments() {
    use super::vae::*;
    let mut segs = Vec::new();
    for i in 0..12 {
        let mut rows = vec!["................".to_string(); SIDE];
        rows[15] = "BBBBBBBBBBBBBBBB".into();
        rows[i] = "####GGGG....bbbb".into();
        segs.push(data::Segment {
            name: format!("s{i}"),
            source: if i % 2 == 0 {
                Source::LodeRunner
            } else {
                Source::Zelda
            },
            rows,
        });
    }
    let run = || {
        let mut config = VaeConfig::new(3);
        config.epochs = 3;
        config.batch = 4;
        let t = train(&config, Family::Fc, &segs, &[], &Repr::Unified, &mut |_| {
            true
        })
        .unwrap();
        let model = BlendModel {
            model: t.model,
            embedding: None,
            sidecar: sidecar_for_tests(),
        };
        (t.curve, random_blends(&model, 3, 1).unwrap())
    };
    let (a, b) = (run(), run());
    assert_eq!(a, b, "same seed, same weights, same blends");
    assert_eq!(a.0.len(), 3);
    for blend in &a.1 {
        assert!(super::level::check_rows(blend).is_ok(), "{blend:?}");
    }
    let mut x = Vec::new();
    one_hot(&segs[0].rows, &mut x);
    assert_eq!(x.len(), CELLS * TILES);
    assert_eq!(x.iter().filter(|&&v| v == 1.0).count(), CELLS);
}

#[test]
fn the_lode_runner_agent_crosses_a_zelda_like_segment_by_its_corners() {
    use super::agents::{lode_runner_corners, lode_runner_playable};
    // Open floor everywhere: with gravity the agent falls from the top corners to the
    // bottom ones, but cannot climb back up.
    let open: Vec<String> = (0..SIDE)
        .map(|y| {
            if y == 15 {
                "FFFFFFFFFFFFFFFF".into()
            } else {
                "WSSSSSSSSSSSSSSW".into()
            }
        })
        .collect();
    // Stairs are climbable: every corner reaches every other.
    assert_eq!(lode_runner_corners(&open), 4);
    assert!(lode_runner_playable(&open));
    let fall: Vec<String> = (0..SIDE)
        .map(|y| {
            if y == 15 {
                "FFFFFFFFFFFFFFFF".into()
            } else {
                "F..............F".into()
            }
        })
        .collect();
    // Zelda-like by its floor tiles; down only: the two paths from the top corners.
    assert_eq!(lode_runner_corners(&fall), 2);
}

fn sidecar_for_tests() -> super::vae::BlendSidecar {
    super::vae::BlendSidecar {
        validation_curve: Vec::new(),
        kept_epoch: None,
        architecture: super::vae::ARCHITECTURE.into(),
        latent: super::vae::LATENT,
        embedding_curve: Vec::new(),
        neighbours: None,
        fc_hidden: None,
        table: None,
        after_warm_up: false,
        segments: 0,
        data_hash: String::new(),
        seed: 0,
        epochs: 0,
        train_seconds: 0.0,
        curve: Vec::new(),
        reconstruction_accuracy: 0.0,
        command: String::new(),
        weights: None,
    }
}

#[test]
fn the_learned_representation_round_trips_through_a_saved_model() {
    use super::embed::Neighbours;
    for neighbours in [Neighbours::Tiles, Neighbours::Tags] {
        learned_round_trip(neighbours);
    }
}

#[test]
fn an_fc_vae_at_the_papers_widths_round_trips_through_its_sidecar() {
    use super::vae::*;
    let segs: Vec<data::Segment> = (0..4)
        .map(|i| {
            let mut rows = vec!["................".to_string(); SIDE];
            rows[15] = "BBBBBBBBBBBBBBBB".into();
            rows[4 + i] = "----####....BBBB".into();
            data::Segment {
                name: format!("s{i}"),
                source: Source::LodeRunner,
                rows,
            }
        })
        .collect();
    let mut vc = VaeConfig::new(3);
    vc.epochs = 1;
    vc.fc_hidden = PAPER_HIDDEN.to_vec();
    let t = train(&vc, Family::Fc, &segs, &[], &Repr::Unified, &mut |_| true).unwrap();
    // Four encoder and four decoder layers, the first 3,840 → 1,024.
    let vars = t.varmap.data().lock().unwrap();
    assert_eq!(vars["e1.weight"].dims(), &[1024, CELLS * TILES]);
    assert_eq!(vars["e4.weight"].dims(), &[128, 256]);
    assert_eq!(vars["d1.weight"].dims(), &[128, LATENT]);
    assert_eq!(vars["out.weight"].dims(), &[CELLS * TILES, 1024]);
    drop(vars);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("paper.safetensors");
    let mut side = sidecar_for_tests();
    side.fc_hidden = Some(PAPER_HIDDEN.to_vec());
    save(&t.varmap, None, &side, &path).unwrap();
    let loaded = BlendModel::load(&path).unwrap();
    let blends = random_blends(&loaded, 2, 0).unwrap();
    assert!(blends.iter().all(|b| super::level::check_rows(b).is_ok()));
    // The same weights under a sidecar that names no widths read as the shipped ones: a
    // misshapen model, refused naming the file.
    side.fc_hidden = None;
    save(&t.varmap, None, &side, &path).unwrap();
    let err = BlendModel::load(&path).err().unwrap().to_string();
    assert!(err.contains("paper.safetensors"), "{err}");
}

fn learned_round_trip(neighbours: super::embed::Neighbours) {
    use super::embed::{self, EmbedConfig, EMBED};
    use super::vae::*;
    let mut segs = Vec::new();
    for i in 0..6 {
        let mut rows = vec!["................".to_string(); SIDE];
        rows[15] = "BBBBBBBBBBBBBBBB".into();
        rows[8 + i] = "WWFFFFDDPPSS#-GE".into();
        segs.push(data::Segment {
            name: format!("s{i}"),
            source: Source::LodeRunner,
            rows,
        });
    }
    let mut config = EmbedConfig::new(2);
    config.epochs = 60;
    config.neighbours = neighbours;
    let (map, e, curve) = embed::train(&config, &segs).unwrap();
    assert!(curve.last().unwrap() < curve.first().unwrap(), "{curve:?}");
    // Every letter of the data decodes back from its own embedding.
    let cells = e
        .encode_segment(&segs[0].rows, Some(Source::LodeRunner))
        .unwrap();
    assert_eq!(cells.len(), 256 * EMBED);
    let back = e.decode_segment(&cells);
    let same = back
        .iter()
        .zip(&segs[0].rows)
        .map(|(a, b)| a.chars().zip(b.chars()).filter(|(x, y)| x == y).count())
        .sum::<usize>();
    assert!(same >= 250, "{same} of 256 cells decode to their letter");
    // Saved with a VAE and loaded back, the table decodes the same.
    let mut vc = VaeConfig::new(1);
    vc.epochs = 1;
    let t = train(&vc, Family::Fc, &segs, &[], &Repr::Learned(&e), &mut |_| {
        true
    })
    .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("cte.safetensors");
    let mut side = sidecar_for_tests();
    side.architecture = LEARNED_ARCHITECTURE.into();
    side.neighbours = Some(neighbours);
    save(&t.varmap, Some((&map, &e)), &side, &path).unwrap();
    let loaded = BlendModel::load(&path).unwrap();
    let le = loaded.embedding.as_ref().unwrap();
    assert_eq!(le.encoder.neighbours, neighbours);
    assert_eq!(le.letters, e.letters);
    assert_eq!(le.tiles, e.tiles);
    assert_eq!(le.decode_segment(&cells), back);
    let blends = random_blends(&loaded, 2, 0).unwrap();
    assert!(blends.iter().all(|b| super::level::check_rows(b).is_ok()));
}

#[test]
fn the_learned_representation_keeps_each_games_own_tiles_apart() {
    use super::embed::{self, contexts, own_tags, own_tile, CELL, OWN};
    // The letters both games write are two tiles each, by the segment's game.
    for shared in ['B', '-', 'M'] {
        let lr = own_tile(Source::LodeRunner, shared).unwrap();
        let zelda = own_tile(Source::Zelda, shared).unwrap();
        assert_ne!(lr, zelda, "{shared}");
        assert_eq!(OWN[lr], (Source::LodeRunner, shared));
        assert_eq!(OWN[zelda], (Source::Zelda, shared));
    }
    // A letter only one game has is that game's, whatever the segment.
    assert_eq!(
        own_tile(Source::LodeRunner, 'W'),
        own_tile(Source::Zelda, 'W')
    );
    assert_eq!(
        own_tile(Source::Zelda, 'G'),
        own_tile(Source::LodeRunner, 'G')
    );
    assert_eq!(own_tile(Source::Zelda, 'x'), None);
    // Rope and void differ in their own games' affordances, not only in identity.
    let rope = own_tags(own_tile(Source::LodeRunner, '-').unwrap());
    let void = own_tags(own_tile(Source::Zelda, '-').unwrap());
    assert_ne!(rope, void);
    // Every own tile has a tag, and the one-hot part of a context names the own tile.
    assert!((0..OWN.len()).all(|t| own_tags(t).iter().any(|&v| v > 0.0)));
    let rows = vec!["-".repeat(SIDE); SIDE];
    let as_lr = contexts(&rows, Source::LodeRunner, embed::Neighbours::Tiles);
    let as_zelda = contexts(&rows, Source::Zelda, embed::Neighbours::Tiles);
    assert_ne!(as_lr[..CELL], as_zelda[..CELL]);
    let hot = |c: &[f32]| c[CELL - OWN.len()..CELL].iter().position(|&v| v > 0.5);
    assert_eq!(hot(&as_lr), own_tile(Source::LodeRunner, '-'));
    assert_eq!(hot(&as_zelda), own_tile(Source::Zelda, '-'));
}

#[test]
fn neighbours_described_by_tags_let_the_two_games_contexts_meet() {
    use super::embed::{contexts, Neighbours, CELL};
    // A Lode Runner ladder walled in by ground, and a Zelda stair walled in by walls: the
    // same affordances all round, different tiles.
    let walled = |wall: char, centre: char| {
        let mut rows = vec![wall.to_string().repeat(SIDE); SIDE];
        rows[5] = format!(
            "{w}{w}{w}{w}{w}{c}{w}{w}{w}{w}{w}{w}{w}{w}{w}{w}",
            w = wall,
            c = centre
        );
        rows
    };
    let (ladder, stair) = (walled('B', '#'), walled('W', 'S'));
    let cell = 5 * SIDE + 5;
    for (neighbours, meet) in [(Neighbours::Tiles, false), (Neighbours::Tags, true)] {
        let w = neighbours.width();
        let lr = contexts(&ladder, Source::LodeRunner, neighbours);
        let zelda = contexts(&stair, Source::Zelda, neighbours);
        assert_eq!(lr.len(), SIDE * SIDE * w);
        let (a, b) = (
            &lr[cell * w..(cell + 1) * w],
            &zelda[cell * w..(cell + 1) * w],
        );
        // The tile itself is always its own game's; its surroundings meet only with tags.
        assert_ne!(a[..CELL], b[..CELL], "{neighbours:?}");
        assert_eq!(a[CELL..] == b[CELL..], meet, "{neighbours:?}");
    }
    assert_eq!(Neighbours::Tags.width(), CELL + 8 * super::embed::TAGS + 4);
    assert_eq!(Neighbours::Tiles.width(), super::embed::CONTEXT);
}

#[test]
fn a_learned_model_decodes_to_each_games_own_tiles() {
    use super::embed::{self, EmbedConfig, OWN};
    let segs = tiny_segments();
    let mut config = EmbedConfig::new(5);
    config.epochs = 30;
    let (_, e, _) = embed::train(&config, &segs).unwrap();
    // The table holds own tiles of both games, and each entry's letter is its tile's.
    assert!(e.tiles.iter().any(|&t| OWN[t].0 == Source::LodeRunner));
    assert!(e.tiles.iter().any(|&t| OWN[t].0 == Source::Zelda));
    assert!(e.tiles.iter().zip(&e.letters).all(|(&t, &l)| OWN[t].1 == l));
    // A Zelda room's void decodes to Zelda's void, a Lode Runner rope to the rope.
    let zelda = segs.iter().find(|s| s.source == Source::Zelda).unwrap();
    let cells = e.encode_segment(&zelda.rows, Some(Source::Zelda)).unwrap();
    let tiles = e.decode_tiles(&cells);
    let letters: Vec<char> = zelda.rows.iter().flat_map(|r| r.chars()).collect();
    let voids: Vec<usize> = (0..letters.len()).filter(|&i| letters[i] == '-').collect();
    assert!(!voids.is_empty());
    let right = voids
        .iter()
        .filter(|&&i| OWN[tiles[i]] == (Source::Zelda, '-'))
        .count();
    assert!(2 * right > voids.len(), "{right} of {} voids", voids.len());
}

#[test]
fn the_lode_runner_verdict_has_both_readings_of_a_segment_without_gold() {
    use super::agents::{lode_runner_playable, lode_runner_playable_vacuous};
    let mut rows = vec![".".repeat(SIDE); SIDE];
    rows[15] = "B".repeat(SIDE);
    assert!(!lode_runner_playable(&rows), "no gold, no goal");
    assert!(
        lode_runner_playable_vacuous(&rows),
        "no gold, nothing to miss"
    );
    rows[14] = "G...............".into();
    assert_eq!(
        lode_runner_playable(&rows),
        lode_runner_playable_vacuous(&rows)
    );
    let r = super::eval::report(&[rows.clone(), vec![".".repeat(SIDE); SIDE]], &[]);
    assert!(r.lr_playable_vacuous >= r.lr_playable);
}

/// Twelve small segments, Lode Runner and Zelda alternately.
fn tiny_segments() -> Vec<data::Segment> {
    (0..12)
        .map(|i| {
            let zelda = i % 2 == 1;
            let fill = if zelda {
                "----------------"
            } else {
                "................"
            };
            let mut rows = vec![fill.to_string(); SIDE];
            rows[15] = "BBBBBBBBBBBBBBBB".into();
            rows[i] = if zelda {
                "WWFFFFDDPPSSFFWW".into()
            } else {
                "####GGGG....bbbb".into()
            };
            data::Segment {
                name: format!("s{i}"),
                source: if zelda {
                    Source::Zelda
                } else {
                    Source::LodeRunner
                },
                rows,
            }
        })
        .collect()
}

/// A tiny trained model of `family` on the unified tiles, saved and loaded back.
fn tiny_model(family: super::vae::Family, dir: &std::path::Path) -> super::vae::BlendModel {
    use super::vae::*;
    let mut config = VaeConfig::new(5);
    config.epochs = 2;
    config.batch = 4;
    let t = train(
        &config,
        family,
        &tiny_segments(),
        &[],
        &Repr::Unified,
        &mut |_| true,
    )
    .unwrap();
    let mut side = sidecar_for_tests();
    side.architecture = architecture(family, false).into();
    let path = dir.join("tiny.safetensors");
    save(&t.varmap, None, &side, &path).unwrap();
    BlendModel::load(&path).unwrap()
}

#[test]
fn the_cnn_vae_has_the_fc_vae_shapes_and_round_trips_through_its_file() {
    use super::vae::*;
    let dir = tempfile::tempdir().unwrap();
    let model = tiny_model(Family::Cnn, dir.path());
    assert!(matches!(model.model, Net::Cnn(_)));
    let mut x = Vec::new();
    one_hot(&tiny_segments()[0].rows, &mut x);
    let x =
        candle_core::Tensor::from_vec(x, (1, CELLS * TILES), &candle_core::Device::Cpu).unwrap();
    let (mu, logvar) = model.model.encode(&x).unwrap();
    assert_eq!(mu.dims(), &[1, LATENT]);
    assert_eq!(logvar.dims(), &[1, LATENT]);
    assert_eq!(model.model.decode(&mu).unwrap().dims(), &[1, CELLS, TILES]);
    // The same seed trains the same convolutional weights.
    let again = tiny_model(Family::Cnn, tempfile::tempdir().unwrap().path());
    assert_eq!(
        random_blends(&model, 3, 2).unwrap(),
        random_blends(&again, 3, 2).unwrap()
    );
    // A sidecar naming an architecture this build does not read is refused in words.
    let side = dir.path().join("tiny.ron");
    let text = std::fs::read_to_string(&side).unwrap();
    std::fs::write(&side, text.replace(CNN_ARCHITECTURE, "blend-rnn-vae-v9")).unwrap();
    let path = dir.path().join("tiny.safetensors");
    let err = BlendModel::load(&path).err().unwrap().to_string();
    assert!(
        err.contains("blend-rnn-vae-v9") && err.contains(CNN_ARCHITECTURE),
        "{err}"
    );
}

#[test]
fn a_latent_walk_runs_from_the_model_reading_of_a_to_that_of_b() {
    use super::lab::*;
    let dir = tempfile::tempdir().unwrap();
    let model = tiny_model(super::vae::Family::Fc, dir.path());
    let segs = tiny_segments();
    let (a, b) = (&segs[0].rows, &segs[1].rows);
    let walk = interpolate(&model, a, b, 4).unwrap();
    assert_eq!(walk.len(), 6, "the two ends and four in-betweens");
    let ends = decode(&model, &latent(&model, &[a.clone(), b.clone()]).unwrap()).unwrap();
    assert_eq!(walk[0], ends[0]);
    assert_eq!(walk[5], ends[1]);
    assert!(walk.iter().all(|s| super::level::check_rows(s).is_ok()));
    // The share of each game, and the tint's origins.
    assert_eq!(lode_runner_share(a), Some(1.0));
    assert_eq!(lode_runner_share(b), Some(0.0));
    assert_eq!(
        lode_runner_share(&vec!["BBBBBBBBBBBBBBBB".to_string(); 16]),
        None
    );
    assert_eq!(origins(a)[0][0], super::tiles::Origin::LodeRunner);
    assert_eq!(origins(a)[15][0], super::tiles::Origin::Both);
    // The curves put every measured segment in one bin.
    let c = curves(&model, &segs, 5, 3, 1).unwrap();
    assert_eq!(c.walks, 5);
    assert_eq!(c.counts.iter().sum::<usize>(), c.segments);
    assert!(c.segments <= 25);
    for (k, m) in c.means.iter().enumerate() {
        for (bin, v) in m.iter().enumerate() {
            assert_eq!(v.is_some(), c.counts[bin] > 0, "metric {k}, bin {bin}");
            assert!(v.is_none_or(|v| (0.0..=1.0).contains(&v)));
        }
    }
    let lr_only: Vec<_> = segs
        .iter()
        .filter(|s| s.source == Source::LodeRunner)
        .cloned()
        .collect();
    assert!(
        curves(&model, &lr_only, 1, 1, 0).is_err(),
        "needs both games"
    );
}

#[test]
fn the_embedding_projection_keeps_the_two_widest_directions() {
    use super::embed::{self, EmbedConfig};
    let mut config = EmbedConfig::new(4);
    config.epochs = 20;
    let (_, e, _) = embed::train(&config, &tiny_segments()).unwrap();
    let (points, shares) = super::lab::projection(&e);
    assert_eq!(points.len(), e.table.len());
    assert_eq!(
        points.iter().map(|p| p.1).collect::<Vec<_>>(),
        e.tiles,
        "one point per embedding, with its own tile"
    );
    assert!(shares[0] >= shares[1] && shares[1] >= 0.0 && shares[0] + shares[1] <= 1.0 + 1e-9);
    // The points are centred: their mean is the origin.
    let mean_x = points.iter().map(|p| p.0[0]).sum::<f64>() / points.len() as f64;
    assert!(mean_x.abs() < 1e-6, "{mean_x}");
}

#[test]
fn a_lode_runner_like_segment_plays_with_gravity_gold_and_digging() {
    use super::play::{BlendPlay, Rules};
    use studio_core::game::{Heading, PlayMove, PlayRules};
    let mut lines = vec!["................"; 16];
    lines[0] = "M...............";
    lines[4] = "bbbbbbbbbbbbbbbb";
    lines[3] = "...G....G..G.GE.";
    lines[15] = "BBBBBBBBBBBBBBBB";
    let segment = rows(&lines);
    let mut p = BlendPlay::new(&segment).unwrap();
    assert_eq!(p.rules(), Rules::LodeRunner);
    // The runner starts on the spawn and falls onto the bricks.
    assert_eq!(p.position(), (0, 3));
    assert!(!p.apply(PlayMove::Go(Heading::Up)), "no ladder to climb");
    for _ in 0..3 {
        assert!(p.apply(PlayMove::Go(Heading::Right)));
    }
    assert_eq!(p.status().counters[1].1, "1 / 4");
    // Dig the brick ahead and drop through it to the floor.
    assert!(p.apply(PlayMove::Act));
    assert!(p.apply(PlayMove::Go(Heading::Right)));
    assert_eq!(p.position(), (4, 14));
    assert!(p.undo() && p.undo());
    assert_eq!(p.position(), (3, 3));
    // Half the gold wins (the agent's bar).
    for _ in 0..5 {
        p.apply(PlayMove::Go(Heading::Right));
    }
    assert_eq!(p.status().outcome, Some(true), "{:?}", p.status());
    assert!(!p.apply(PlayMove::Go(Heading::Right)), "the game is over");
    // An enemy on the way loses.
    lines[3] = "...........E.GG.";
    let mut p = BlendPlay::new(&rows(&lines)).unwrap();
    for _ in 0..11 {
        p.apply(PlayMove::Go(Heading::Right));
    }
    assert_eq!(p.status().outcome, Some(false));
}

#[test]
fn a_zelda_like_segment_plays_corner_to_corner_blocked_by_elements() {
    use super::play::{BlendPlay, Rules};
    use studio_core::game::{Heading, PlayMove, PlayRules};
    let mut lines = vec!["FFFFFFFFFFFFFFFF"; 16];
    lines[14] = "FPFFFFFFFFFFFFFF";
    let mut p = BlendPlay::new(&rows(&lines)).unwrap();
    assert_eq!(p.rules(), Rules::Zelda);
    assert_eq!(p.position(), (0, 15));
    assert!(!p.apply(PlayMove::Go(Heading::Down)), "the edge");
    assert!(p.apply(PlayMove::Go(Heading::Right)));
    assert!(!p.apply(PlayMove::Go(Heading::Up)), "an element blocks");
    for _ in 0..14 {
        assert!(p.apply(PlayMove::Go(Heading::Right)));
    }
    for _ in 0..15 {
        p.apply(PlayMove::Go(Heading::Up));
    }
    assert_eq!(p.position(), (15, 0));
    assert_eq!(p.status().outcome, Some(true), "{:?}", p.status());
    assert!(BlendPlay::new(&rows(&["PPPPPPPPPPPPPPPP"; 16])).is_err());
    assert!(BlendPlay::new(&rows(&["FFF"; 3])).is_err(), "not a segment");
}

/// Issue 31, D8: a segment without gold whose spawn falls onto the bottom row is not won
/// before the first move: the runner starts from the top start, or the playtest says there
/// is nothing to play.
#[test]
fn a_lode_runner_playtest_never_starts_won() {
    use super::play::BlendPlay;
    use studio_core::game::PlayRules;
    // The spawn drops straight to the floor; the top start is on a ledge above it.
    let mut lines = vec!["................"; 16];
    lines[3] = "......bbbb......";
    lines[14] = "...............M";
    lines[15] = "BBBBBBBBBBBBBBBB";
    let p = BlendPlay::new(&rows(&lines)).unwrap();
    assert_eq!(p.status().outcome, None, "{:?}", p.status());
    assert_ne!(p.position().1, 14, "not on the goal row");
    // With nothing above the floor, every start is on the goal row: nothing to play.
    let mut flat = vec!["................"; 16];
    flat[14] = "...............M";
    flat[15] = "BBBBBBBBBBBBBBBB";
    let err = BlendPlay::new(&rows(&flat)).err().unwrap();
    assert!(err.contains("nothing to play"), "{err}");
}

#[test]
fn a_sidecar_figure_that_is_not_a_number_is_refused_on_load_naming_the_file() {
    use super::vae::*;
    let dir = tempfile::tempdir().unwrap();
    tiny_model(Family::Fc, dir.path());
    let side = dir.path().join("tiny.ron");
    let path = dir.path().join("tiny.safetensors");
    let text = std::fs::read_to_string(&side).unwrap();
    // The line of a field (not a field whose name ends with it: `curve`, `embedding_curve`).
    let field = |name: &str| {
        let mut at = 0;
        for line in text.split_inclusive('\n') {
            let body = line.trim_start();
            if body.starts_with(&format!("{name}: ")) {
                let start = at + line.len() - body.len();
                return (start, at + line.trim_end_matches('\n').len());
            }
            at += line.len();
        }
        panic!("no {name} in {text}");
    };
    for (name, bad, says) in [
        (
            "embedding_curve",
            "embedding_curve: [1.5, NaN],",
            "embedding_curve holds NaN",
        ),
        ("curve", "curve: [inf],", "curve holds inf"),
        ("train_seconds", "train_seconds: NaN,", "train_seconds NaN"),
        (
            "reconstruction_accuracy",
            "reconstruction_accuracy: 2.0,",
            "reconstruction_accuracy 2",
        ),
    ] {
        let (at, end) = field(name);
        std::fs::write(&side, format!("{}{bad}{}", &text[..at], &text[end..])).unwrap();
        let err = BlendModel::load(&path).err().unwrap().to_string();
        assert!(
            err.contains("tiny.ron") && err.contains(says),
            "{name}: {err}"
        );
    }
    // Training that diverged writes nothing: the same check runs before saving.
    let mut side_figures = sidecar_for_tests();
    side_figures.embedding_curve = vec![1.0, f64::NAN];
    let out = dir.path().join("diverged.safetensors");
    let err = save(&candle_nn::VarMap::new(), None, &side_figures, &out)
        .unwrap_err()
        .to_string();
    assert!(err.contains("embedding_curve holds NaN"), "{err}");
    assert!(!out.exists());
}

#[test]
fn training_keeps_the_epoch_with_the_lowest_validation_loss_and_stops_when_patience_runs_out() {
    use super::vae::*;
    use candle_core::Device;
    let segs = tiny_segments();
    let (train_set, held) = segs.split_at(8);
    let mut config = VaeConfig::new(7);
    config.epochs = 12;
    config.batch = 4;
    let t = train(
        &config,
        Family::Fc,
        train_set,
        held,
        &Repr::Unified,
        &mut |_| true,
    )
    .unwrap();
    let curve = &t.validation_curve;
    assert_eq!(curve.len(), t.curve.len());
    let kept = t.kept_epoch.unwrap();
    let lowest = curve.iter().copied().fold(f64::INFINITY, f64::min);
    assert_eq!(curve[kept - 1], lowest, "{curve:?}");
    // The weights handed back are the kept epoch's, not the last one's.
    let (x, w) = batch_of(held, &Repr::Unified, &Device::Cpu).unwrap();
    let again = validation_loss(&t.model, &Repr::Unified, &x, &w).unwrap();
    assert!(
        (again - lowest).abs() < 1e-3 * lowest.abs().max(1.0),
        "{again} vs {lowest}"
    );
    // With a patience of 1 the run ends one epoch after its last new lowest.
    config.patience = 1;
    let short = train(
        &config,
        Family::Fc,
        train_set,
        held,
        &Repr::Unified,
        &mut |_| true,
    )
    .unwrap();
    let k = short.kept_epoch.unwrap();
    assert!(short.curve.len() == k + 1 || short.curve.len() == config.epochs);
    assert_eq!(
        short.curve[..k],
        t.curve[..k],
        "the same seeded run up to there"
    );
    // A run without validation segments keeps its last epoch and says so.
    config.patience = 0;
    let plain = train(
        &config,
        Family::Fc,
        train_set,
        &[],
        &Repr::Unified,
        &mut |_| true,
    )
    .unwrap();
    assert_eq!(plain.kept_epoch, None);
    assert!(plain.validation_curve.is_empty());
    // After the warm-up: the lowest validation loss of the epochs past it, the same run.
    config.after_warm_up = true;
    config.epochs = 40;
    let warm = warm_up_epochs(config.epochs);
    assert_eq!(warm, 2);
    let late = train(
        &config,
        Family::Fc,
        train_set,
        held,
        &Repr::Unified,
        &mut |_| true,
    )
    .unwrap();
    let kept = late.kept_epoch.unwrap();
    assert!(kept > warm, "kept epoch {kept} is in the warm-up");
    let after = late.validation_curve[warm..]
        .iter()
        .copied()
        .fold(f64::INFINITY, f64::min);
    assert_eq!(late.validation_curve[kept - 1], after);
}

#[test]
fn the_e_distance_is_split_by_metric() {
    use super::eval::{report, vectors};
    let segs: Vec<Vec<String>> = tiny_segments().into_iter().map(|s| s.rows).collect();
    let training = vectors(&segs);
    let same = report(&segs, &training);
    assert!(same.e_distance.abs() < 1e-12);
    assert!(same.e_distance_by_metric.iter().all(|d| d.abs() < 1e-12));
    // Enemies along the top row (a sixteenth of every segment) move leniency most.
    let harsh: Vec<Vec<String>> = segs
        .iter()
        .map(|s| {
            let mut s = s.clone();
            s[0] = "EEEEEEEEEEEEEEEE".into();
            s
        })
        .collect();
    let r = report(&harsh, &training);
    let leniency = super::metrics::TileMetrics::NAMES
        .iter()
        .position(|&n| n == "leniency")
        .unwrap();
    assert!(r.e_distance_by_metric[leniency] > 0.01, "{r:?}");
    let top = r
        .e_distance_by_metric
        .iter()
        .copied()
        .fold(f64::NEG_INFINITY, f64::max);
    assert_eq!(r.e_distance_by_metric[leniency], top, "{r:?}");
    assert!(r.e_distance > 0.01);
    // The letters' shares say where: enemies are a sixteenth of the cells, and none before.
    assert!(
        (r.letters[&'E'] - 1.0 / 16.0).abs() < 1e-12,
        "{:?}",
        r.letters
    );
    assert!(!same.letters.contains_key(&'E'));
    assert!((r.letters.values().sum::<f64>() - 1.0).abs() < 1e-9);
}

#[test]
fn a_walkable_speck_in_a_corner_cuts_the_zelda_agents_paths_unless_specks_are_skipped() {
    use super::agents::zelda_on_regions_of;
    // A padded room's floor (rows 5–11, columns 2–13) in void: all four corner paths.
    let mut seg = vec!["-".repeat(SIDE); SIDE];
    for row in seg.iter_mut().take(12).skip(5) {
        *row = "--FFFFFFFFFFFF--".into();
    }
    assert_eq!(zelda(&seg).paths, 4);
    // A floor cell alone in each top corner: the corners start and end there, cut off.
    seg[0] = "F--------------F".into();
    let v = zelda(&seg);
    assert_eq!((v.paths, v.playable), (0, false));
    assert_eq!(zelda_on_regions_of(&seg, 1), v);
    let skipped = zelda_on_regions_of(&seg, 4);
    assert_eq!((skipped.paths, skipped.playable), (4, true));
}
