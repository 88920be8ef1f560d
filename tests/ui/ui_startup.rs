//! The files the window reads at start — settings (eframe's `app.ron`), session, recovery and
//! the packs it reopens — cannot stop, crash or slow the start: numbers out of range or not
//! finite are brought into range and said in the status bar, and a FIFO, a device or a file
//! over the size cap is skipped (the studio's own files moved aside, never deleted).

use egui_kittest::kittest::Queryable;
use egui_kittest::Harness;
use level_studio::app::{AppCommand, EditCommand, JobMode, Settings, StudioApp, StudioPaths};
use level_studio::document::recovery::Recovery;
use level_studio::document::session::{SavedCandidate, SavedRequest, SavedValue, Session};
use level_studio::document::settings::{autosave_interval, read_settings_file};
use level_studio::files;
use level_studio::io;
use level_studio::io::{FileError, MAX_FILE_BYTES};
use level_studio::level::{Figures, Level};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

fn paths(dir: &tempfile::TempDir) -> StudioPaths {
    StudioPaths::for_tests(vec![], Some(dir.path().join("recovery.ron")))
}

/// The studio as the window starts it: settings read from `app.ron` in `dir`.
fn start(dir: &tempfile::TempDir) -> StudioApp {
    StudioApp::from_files(paths(dir), JobMode::Threads)
}

fn harness(app: StudioApp) -> Harness<'static, StudioApp> {
    Harness::builder()
        .with_size([1400.0, 900.0])
        .with_step_dt(1.0 / 60.0)
        .with_max_steps(20)
        .build_ui_state(|ui, app: &mut StudioApp| app.show(ui), app)
}

fn steps(h: &mut Harness<'_, StudioApp>, n: usize) {
    for _ in 0..n {
        h.step();
    }
}

/// eframe's storage file with the studio's settings given as the RON of the `app` entry, and
/// a window entry as eframe writes one.
fn storage_file(app: &str) -> String {
    let window = "(normal_geometry:(outer_position_pixels:Some((x:10.0,y:20.0)),\
                  scale_factor:1.0,inner_size_points:(x:1440.0,y:900.0)),\
                  fullscreen:false,maximized:false)";
    format!("{{\n    \"window\": {window:?},\n    \"app\": {app:?},\n}}\n")
}

/// One stroke on the canvas: the first cell changes to another tile.
fn edit(h: &mut Harness<'_, StudioApp>) {
    let now = h.state().editor().board().get(0, 0);
    let tile = if now == 0 { 1 } else { 0 };
    for c in [
        EditCommand::BeginStroke {
            label: "Brush".into(),
        },
        EditCommand::Paint(vec![(0, 0, tile)]),
        EditCommand::EndStroke,
    ] {
        h.state_mut().push(AppCommand::Edit(c));
    }
    steps(h, 2);
    assert_eq!(
        h.state().editor().board().get(0, 0),
        tile,
        "the edit applied"
    );
}

#[cfg(unix)]
fn mkfifo(path: &Path) {
    let status = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .unwrap();
    assert!(status.success(), "mkfifo {}", path.display());
}

/// Runs `f` and returns how long it took. Should it still be running after 20 s, the FIFOs
/// are opened for writing (without waiting) and closed again until it returns, which lets a
/// reader stuck on one go on: a regression fails the test's time check instead of hanging
/// the test run.
#[cfg(unix)]
fn timed_with_watchdog<T>(fifos: &[PathBuf], f: impl FnOnce() -> T) -> (T, Duration) {
    use std::os::unix::fs::OpenOptionsExt;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;
    let done = Arc::new(AtomicBool::new(false));
    let watchdog = {
        let done = Arc::clone(&done);
        let fifos = fifos.to_vec();
        std::thread::spawn(move || {
            let started = Instant::now();
            while !done.load(Ordering::SeqCst) {
                if started.elapsed() > Duration::from_secs(20) {
                    for fifo in &fifos {
                        // Fails at once while no reader has it open.
                        drop(
                            std::fs::OpenOptions::new()
                                .write(true)
                                .custom_flags(libc::O_NONBLOCK)
                                .open(fifo),
                        );
                    }
                }
                std::thread::sleep(Duration::from_millis(50));
            }
        })
    };
    let started = Instant::now();
    let value = f();
    let took = started.elapsed();
    done.store(true, std::sync::atomic::Ordering::SeqCst);
    watchdog.join().unwrap();
    (value, took)
}

/// The files beside `path` that it was moved aside to.
fn moved_aside(path: &Path) -> Vec<PathBuf> {
    let name = path.file_name().unwrap().to_str().unwrap().to_string();
    std::fs::read_dir(path.parent().unwrap())
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with(&format!("{name}.unread-")))
        })
        .collect()
}

#[test]
fn the_autosave_interval_never_panics() {
    for (seconds, expected) in [
        (f32::INFINITY, 3600.0),
        (f32::NEG_INFINITY, 1.0),
        (f32::NAN, 20.0),
        (1e30, 3600.0),
        (-5.0, 1.0),
        (0.0, 1.0),
        (f32::MAX, 3600.0),
        (30.0, 30.0),
    ] {
        assert_eq!(
            autosave_interval(seconds),
            Duration::from_secs_f32(expected),
            "{seconds}"
        );
    }
}

#[test]
fn settings_numbers_out_of_range_are_brought_back_and_said() {
    for (text, zoom, width, height, autosave) in [
        ("inf", 1.0, 380.0, 190.0, 20.0),
        ("-inf", 1.0, 380.0, 190.0, 20.0),
        ("NaN", 1.0, 380.0, 190.0, 20.0),
        ("1e30", 8.0, 8192.0, 8192.0, 3600.0),
        ("-1e30", 0.25, 340.0, 120.0, 1.0),
        ("-5.0", 0.25, 340.0, 120.0, 1.0),
    ] {
        let app = format!(
            "(game:Longcat,zoom:{text},right_panel_width:{text},pack_strip_height:{text},\
             autosave_seconds:{text},show_frame_time:false)"
        );
        let checked =
            Settings::from_storage_text(Path::new("app.ron"), &storage_file(&app)).unwrap();
        let s = checked.value;
        assert_eq!(
            (s.zoom, s.right_panel_width, s.pack_strip_height),
            (zoom, width, height),
            "{text}"
        );
        assert_eq!(s.autosave_seconds, autosave, "{text}");
        // What was in range is kept.
        assert_eq!(
            (s.game, s.show_frame_time),
            (level_studio::longcat::ID, false)
        );
        assert_eq!(checked.notes.len(), 4, "{text}: {:?}", checked.notes);
        assert!(
            checked.notes[3].contains("autosave_seconds"),
            "{:?}",
            checked.notes
        );
    }
    // Settings in range read back as written, with no note.
    let mine = Settings {
        zoom: 2.5,
        autosave_seconds: 45.0,
        ..Settings::default()
    };
    let back = Settings::from_storage_text(Path::new("app.ron"), &mine.to_storage_text().unwrap())
        .unwrap();
    assert_eq!(back.value, mine);
    assert!(back.notes.is_empty());
}

/// `autosave_seconds: inf` used to panic the window at the first edit, at every start.
#[test]
fn a_settings_file_with_inf_nan_or_huge_numbers_starts_and_survives_an_edit() {
    for text in ["inf", "1e30", "NaN", "-inf"] {
        let dir = tempfile::tempdir().unwrap();
        let app = format!("(zoom:{text},autosave_seconds:{text},right_panel_width:{text})");
        std::fs::write(dir.path().join("app.ron"), storage_file(&app)).unwrap();
        let mut h = harness(start(&dir));
        steps(&mut h, 2);
        let s = &h.state().settings;
        assert!(
            Settings::AUTOSAVE_SECONDS.contains(&s.autosave_seconds),
            "{text}"
        );
        assert!(Settings::ZOOM.contains(&s.zoom), "{text}");
        let status = h.state().status().to_string();
        assert!(status.contains("settings: zoom"), "{text}: {status}");
        assert_eq!(h.state().startup_notes().len(), 3, "{text}");
        assert!(
            h.state().startup_notes()[2].contains("autosave_seconds"),
            "{:?}",
            h.state().startup_notes()
        );
        // The file is kept where it is (eframe writes the sane values at its next save).
        assert!(moved_aside(&dir.path().join("app.ron")).is_empty());
        edit(&mut h);
        steps(&mut h, 3);
    }
}

#[test]
fn a_negative_autosave_time_autosaves_every_second() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("app.ron"),
        storage_file("(autosave_seconds:-5.0)"),
    )
    .unwrap();
    let mut h = harness(start(&dir));
    steps(&mut h, 2);
    assert_eq!(h.state().settings.autosave_seconds, 1.0);
    edit(&mut h);
    std::thread::sleep(Duration::from_millis(1100));
    steps(&mut h, 2);
    assert!(dir.path().join("recovery.ron").exists(), "autosaved");
}

#[test]
fn a_settings_file_that_does_not_read_is_moved_aside_and_kept() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("app.ron");
    std::fs::write(&file, "{ \"app\": \"(zoom: [oops\" }").unwrap();
    let app = start(&dir);
    assert_eq!(app.settings, Settings::default());
    assert!(app.status().contains("settings file not read"));
    assert!(!file.exists());
    let kept = moved_aside(&file);
    assert_eq!(kept.len(), 1);
    assert!(std::fs::read_to_string(&kept[0]).unwrap().contains("oops"));
}

#[cfg(unix)]
#[test]
fn a_fifo_settings_file_does_not_block_the_start() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("app.ron");
    mkfifo(&file);
    let (app, took) = timed_with_watchdog(std::slice::from_ref(&file), || start(&dir));
    assert!(took < Duration::from_secs(10), "blocked for {took:?}");
    assert_eq!(app.settings, Settings::default());
    let h = harness(app);
    let status = h.state().status();
    assert!(status.contains("FIFO"), "{status}");
    // Moved aside (eframe would block on it too), kept for the designer.
    assert!(!file.exists());
    assert_eq!(moved_aside(&file).len(), 1);
}

#[cfg(unix)]
#[test]
fn fifo_session_and_recovery_files_do_not_block_the_start() {
    let dir = tempfile::tempdir().unwrap();
    let session = dir.path().join("session.ron");
    let recovery = dir.path().join("recovery.ron");
    mkfifo(&session);
    mkfifo(&recovery);
    let (app, took) = timed_with_watchdog(&[session.clone(), recovery.clone()], || start(&dir));
    assert!(took < Duration::from_secs(10), "blocked for {took:?}");
    let mut h = harness(app);
    steps(&mut h, 2);
    let notes = h.state().startup_notes().to_vec();
    assert_eq!(notes.len(), 2, "{notes:?}");
    assert!(notes[0].starts_with("recovery file not read") && notes[0].contains("FIFO"));
    assert!(notes[1].starts_with("session file not read") && notes[1].contains("FIFO"));
    assert!(h.state().status().contains("FIFO"));
    assert!(!session.exists() && !recovery.exists());
    // With the FIFOs gone, the session is saved again without an error.
    h.state_mut().save_session();
    assert!(session.is_file());
    assert!(h.state().errors().is_empty(), "{:?}", h.state().errors());
}

#[cfg(unix)]
#[test]
fn a_fifo_last_pack_does_not_block_the_start_and_is_left_alone() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("mine.ron");
    mkfifo(&fifo);
    let settings = Settings {
        last_packs: vec![fifo.clone()],
        ..Settings::default()
    };
    let (app, took) = timed_with_watchdog(std::slice::from_ref(&fifo), || {
        StudioApp::new(settings, paths(&dir), JobMode::Threads)
    });
    assert!(took < Duration::from_secs(10), "blocked for {took:?}");
    let h = harness(app);
    let status = h.state().status();
    assert!(
        status.contains("pack not opened") && status.contains("FIFO"),
        "{status}"
    );
    assert_eq!(h.state().errors().len(), 1);
    // The designer's own file is not ours to move.
    assert!(std::fs::symlink_metadata(&fifo).is_ok());
}

#[cfg(unix)]
#[test]
fn a_dev_zero_settings_file_is_not_read() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("app.ron");
    std::os::unix::fs::symlink("/dev/zero", &file).unwrap();
    let (app, took) = timed_with_watchdog(&[], || start(&dir));
    assert!(took < Duration::from_secs(10), "read for {took:?}");
    let h = harness(app);
    assert!(
        h.state().status().contains("a device"),
        "{}",
        h.state().status()
    );
    // The link is moved aside; /dev/zero is untouched.
    assert!(std::fs::symlink_metadata(&file).is_err());
    assert!(Path::new("/dev/zero").exists());
}

#[test]
fn oversized_start_up_files_are_skipped() {
    let dir = tempfile::tempdir().unwrap();
    let sparse = |name: &str| {
        let path = dir.path().join(name);
        let f = std::fs::File::create(&path).unwrap();
        f.set_len(300 * 1024 * 1024).unwrap();
        path
    };
    let settings_file = sparse("app.ron");
    let session = sparse("session.ron");
    let pack = sparse("huge.ron");
    let started = Instant::now();
    let app = start(&dir);
    // Checked by size, never read.
    assert!(started.elapsed() < Duration::from_secs(10));
    let h = harness(app);
    let notes = h.state().startup_notes().to_vec();
    assert_eq!(notes.len(), 2, "{notes:?}");
    assert!(notes.iter().all(|n| n.contains("larger than 256 MiB")));
    assert!(!settings_file.exists() && !session.exists());
    assert_eq!(moved_aside(&settings_file).len(), 1);
    let settings = Settings {
        last_packs: vec![pack.clone()],
        ..Settings::default()
    };
    let app = StudioApp::new(settings, paths(&dir), JobMode::Threads);
    assert!(app.status().contains("pack not opened"), "{}", app.status());
    assert!(app.status().contains("larger than 256 MiB"));
    assert!(pack.exists(), "the designer's pack stays");
}

#[test]
fn without_a_settings_file_the_defaults_apply_quietly() {
    let dir = tempfile::tempdir().unwrap();
    let read = read_settings_file(Some(&dir.path().join("app.ron")));
    assert_eq!(
        (read.value, read.notes.len(), read.left_in_place),
        (None, 0, false)
    );
    let app = start(&dir);
    assert_eq!(app.settings, Settings::default());
    let h = harness(app);
    assert!(h.state().startup_notes().is_empty());
    assert_eq!(h.state().status(), "");
}

#[test]
fn the_regular_reader_refuses_what_is_not_a_small_regular_file() {
    let dir = tempfile::tempdir().unwrap();
    let text = dir.path().join("t.ron");
    std::fs::write(&text, "\u{feff}(a: 1)\n").unwrap();
    assert_eq!(io::read_regular_text(&text).unwrap(), "(a: 1)\n");
    assert!(matches!(
        io::read_regular_text(dir.path()),
        Err(FileError::NotRegular {
            kind: "a folder",
            ..
        })
    ));
    let big = dir.path().join("big.ron");
    std::fs::File::create(&big)
        .unwrap()
        .set_len(MAX_FILE_BYTES + 1)
        .unwrap();
    assert!(matches!(
        io::read_regular_text(&big),
        Err(FileError::TooLarge { .. })
    ));
    assert!(matches!(
        io::read_regular_text(&dir.path().join("missing.ron")),
        Err(FileError::Io { .. })
    ));
    #[cfg(unix)]
    {
        let fifo = dir.path().join("fifo.ron");
        mkfifo(&fifo);
        let (result, took) =
            timed_with_watchdog(std::slice::from_ref(&fifo), || io::read_regular_text(&fifo));
        assert!(took < Duration::from_secs(10));
        let e = result.unwrap_err();
        assert!(matches!(e, FileError::NotRegular { .. }));
        assert!(e.to_string().contains("a FIFO"), "{e}");
        let (result, _) = timed_with_watchdog(std::slice::from_ref(&fifo), || {
            files::load_regular_pack(&fifo)
        });
        assert!(matches!(result, Err(FileError::NotRegular { .. })));
        assert!(matches!(
            io::read_regular_text(Path::new("/dev/zero")),
            Err(FileError::NotRegular {
                kind: "a device",
                ..
            })
        ));
    }
}

fn starter_level(i: usize) -> Level {
    files::load_pack(Path::new("levels/match3/match3-starter.ron"))
        .unwrap()
        .levels
        .remove(i)
}

#[test]
fn a_session_with_numbers_out_of_range_is_restored_in_range() {
    let dir = tempfile::tempdir().unwrap();
    let mut nan_level = starter_level(1);
    nan_level.figures = Some(Figures::new(level_studio::match3::Match3Figures {
        median_moves: f64::NAN,
        std_moves: 1.0,
        valid: true,
        games: 10,
        limit: 40,
        seed: 1,
        histogram: vec![1; 40],
    }));
    let session = Session {
        games: Default::default(),
        canvases: Vec::new(),
        requests: vec![SavedRequest {
            game: level_studio::match3::ID,
            generator: "avalon".into(),
            conditions: vec![
                ("moves".into(), SavedValue::Float(f64::INFINITY)),
                ("width".into(), SavedValue::Int(1000)),
                ("height".into(), SavedValue::Float(7.6)),
                ("symmetry".into(), SavedValue::Flag(true)),
            ],
            count: 1_000_000,
            seed: 7,
            validated_only: false,
        }],
        candidates: vec![SavedCandidate {
            level: nan_level,
            generator: "avalon".into(),
            difficulty: Some(f64::NAN),
            pass: true,
            weak: false,
            label: "ok".into(),
            reason: String::new(),
        }],
        previous: Vec::new(),
    };
    session.write(&dir.path().join("session.ron")).unwrap();
    let mut h = harness(start(&dir));
    steps(&mut h, 2);
    let r = h
        .state_mut()
        .generators_mut()
        .request(level_studio::match3::ID)
        .clone();
    assert_eq!((r.generator, r.count, r.seed), ("avalon", 64, 7));
    assert_eq!(r.conditions.float("moves"), Some(18.0));
    assert_eq!(r.conditions.int("width"), Some(9));
    assert_eq!(r.conditions.int("height"), Some(8));
    assert_eq!(
        r.conditions.get("symmetry"),
        Some(level_studio::game::ConditionValue::Symmetry(
            level_studio::symmetry::Symmetry::Vertical
        ))
    );
    assert!(level_studio::generation::prepare(&r).is_ok());
    let c = &h.state().generators().candidates[0];
    assert_eq!((c.difficulty, &c.level.figures), (None, &None));
    let notes = h.state().startup_notes();
    // The count, moves, width, symmetry, the candidate's figures and difficulty (7.6 rows
    // are read as 8 without a word).
    assert_eq!(notes.len(), 6, "{notes:?}");
    assert!(
        h.state().status().contains("and 3 more"),
        "{}",
        h.state().status()
    );
}

#[test]
fn a_recovery_file_with_bad_numbers_is_offered_in_range() {
    let dir = tempfile::tempdir().unwrap();
    let mut level = starter_level(0);
    level.playtests.push(level_studio::level::Playtest {
        moves: 3,
        seconds: f64::INFINITY,
        solved: false,
        script: None,
    });
    let recovery = Recovery {
        games: Default::default(),
        saved_at: u64::MAX,
        game: level_studio::match3::ID,
        levels: vec![level],
        packs: Vec::new(),
        links: Vec::new(),
        clean_exit: false,
    };
    recovery.write(&dir.path().join("recovery.ron")).unwrap();
    let mut h = harness(start(&dir));
    steps(&mut h, 2);
    let notes = h.state().startup_notes().to_vec();
    assert_eq!(notes.len(), 2, "{notes:?}");
    assert!(notes[0].contains("later than now"));
    assert!(notes[1].contains("playtest seconds"));
    h.get_by_label("Recover").click();
    steps(&mut h, 2);
    assert_eq!(h.state().editor().name, starter_level(0).name);
}
