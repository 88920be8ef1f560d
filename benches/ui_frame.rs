//! Benchmark: frame time of the real studio UI (layout, painting and tessellation, no GPU)
//! with a Longcat state graph of at least 1,000 nodes on screen, and the live gauge's answer
//! time after an edit of an open 9×11 match-3 layout, and the frame time with a 20,000-level
//! pack open (while its figures fill in, once they are in, while the wheel scrolls the strip,
//! and after the pack is closed). Run with `cargo bench --bench ui_frame`.

// Benchmarks fail loudly on purpose: a bench that cannot set up should stop, not limp on.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use egui::{Event, Pos2, RawInput, Rect, Vec2};
use level_studio::app::{
    AppCommand, EditCommand, JobMode, PackCommand, Settings, StudioApp, StudioPaths,
};
use level_studio::document::Board;
use level_studio::files::save_pack;
use level_studio::grid::Grid;
use level_studio::level::{Level, Pack};
use level_studio::longcat::LongcatGraph;
use level_studio::longcat::{self, LongcatLevel, StateGraph};
use level_studio::match3::layout::{GAP, PLAYFIELD};
use level_studio::rng::Rng;
use std::time::{Duration, Instant};

/// A seeded random Longcat level whose graph has 1,000 to 4,000 nodes.
fn big_graph_level() -> (Grid<longcat::Cell>, usize) {
    let mut rng = Rng::new(7);
    loop {
        let (w, h) = (10, 10);
        let mut g = Grid::filled(w, h, longcat::Cell::Empty);
        let walls = rng.range(3, 14);
        for _ in 0..walls {
            g.set(rng.index(w), rng.index(h), longcat::Cell::Wall);
        }
        g.set(rng.index(w), rng.index(h), longcat::Cell::Head);
        let Ok(level) = LongcatLevel::new(g.clone()) else {
            continue;
        };
        if let Ok(graph) = StateGraph::build(&level, 20_000) {
            if (1000..=4000).contains(&graph.len()) {
                return (g, graph.len());
            }
        }
    }
}

fn input(size: Vec2, events: Vec<Event>) -> RawInput {
    RawInput {
        screen_rect: Some(Rect::from_min_size(Pos2::ZERO, size)),
        events,
        ..Default::default()
    }
}

fn frame(ctx: &egui::Context, app: &mut StudioApp, events: Vec<Event>) -> Duration {
    let t = Instant::now();
    let out = ctx.run_ui(input(Vec2::new(1440.0, 900.0), events), |ui| app.show(ui));
    let prims = ctx.tessellate(out.shapes, out.pixels_per_point);
    std::hint::black_box(prims);
    t.elapsed()
}

fn main() {
    level_studio::install_games();
    let ctx = egui::Context::default();
    let mut app = StudioApp::new(
        Settings::default(),
        StudioPaths::for_tests(vec![], None),
        JobMode::Threads,
    );
    frame(&ctx, &mut app, vec![]);

    // 1. Frame time with a big graph on screen.
    let (grid, nodes) = big_graph_level();
    app.push(AppCommand::SwitchGame(level_studio::longcat::ID));
    app.push(AppCommand::Edit(EditCommand::Replace {
        board: Board::from_level(&LongcatLevel::new(grid).expect("a level").to_level("bench"))
            .expect("a board"),
        label: "bench".into(),
        identity: None,
    }));
    frame(&ctx, &mut app, vec![]);
    assert!(app.finish_analysis(&ctx), "the graph was built");
    for _ in 0..5 {
        frame(&ctx, &mut app, vec![]);
    }
    let drawn = app.graph_panel().drawn_nodes;
    // Hover across the graph panel so hover tests and tooltips run too.
    let mut samples = Vec::new();
    for i in 0..300 {
        let p = Pos2::new(
            1100.0 + (i % 60) as f32 * 4.0,
            450.0 + (i % 37) as f32 * 3.0,
        );
        samples.push(frame(&ctx, &mut app, vec![Event::PointerMoved(p)]));
    }
    samples.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    println!(
        "frame with a {nodes}-node graph ({drawn} drawn): median {:.2} ms, p95 {:.2} ms, max {:.2} ms  (1440×900, layout + paint + tessellate, {} frames)",
        ms(samples[samples.len() / 2]),
        ms(samples[samples.len() * 95 / 100]),
        ms(*samples.last().unwrap()),
        samples.len()
    );

    // 1b. Zoomed in until nodes are drawn in full detail (circles, every edge, labels).
    let centre = Pos2::new(1250.0, 450.0);
    for _ in 0..2 {
        frame(
            &ctx,
            &mut app,
            vec![Event::PointerMoved(centre), Event::Zoom(2.0)],
        );
    }
    let mut samples = Vec::new();
    for i in 0..300 {
        let p = Pos2::new(
            1100.0 + (i % 60) as f32 * 4.0,
            450.0 + (i % 37) as f32 * 3.0,
        );
        samples.push(frame(&ctx, &mut app, vec![Event::PointerMoved(p)]));
    }
    samples.sort();
    println!(
        "frame zoomed in ({} nodes drawn in full detail): median {:.2} ms, p95 {:.2} ms, max {:.2} ms",
        app.graph_panel().drawn_nodes,
        ms(samples[samples.len() / 2]),
        ms(samples[samples.len() * 95 / 100]),
        ms(*samples.last().unwrap()),
    );

    // 2. Gauge answer time after an edit of an open 9×11 match-3 layout (debounce included).
    app.push(AppCommand::SwitchGame(level_studio::match3::ID));
    app.push(AppCommand::NewLevel {
        width: 9,
        height: 11,
    });
    frame(&ctx, &mut app, vec![]);
    app.finish_analysis(&ctx);
    let mut latencies = Vec::new();
    for k in 0..20 {
        let x = (k / 2) % 9;
        let tile = if k % 2 == 0 { GAP } else { PLAYFIELD };
        app.push(AppCommand::Edit(EditCommand::Paint(vec![(x, 5, tile)])));
        let t = Instant::now();
        let revision = app.editor().revision() + 1;
        loop {
            frame(&ctx, &mut app, vec![]);
            let done = app
                .analysis()
                .last
                .as_ref()
                .map(|o| o.revision >= revision)
                .unwrap_or(false);
            if done {
                latencies.push(t.elapsed());
                break;
            }
            assert!(t.elapsed() < Duration::from_secs(10), "the gauge answered");
            std::thread::sleep(Duration::from_millis(2));
        }
    }
    latencies.sort();
    let gauge = (
        ms(latencies[latencies.len() / 2]),
        ms(*latencies.last().unwrap()),
    );
    println!(
        "gauge answer after an edit (9x11 match-3, 40 ms debounce included): median {:.1} ms, max {:.1} ms ({} edits)",
        gauge.0,
        gauge.1,
        latencies.len()
    );

    huge_pack(&ctx, &mut app);
}

/// A 20,000-level match-3 pack of seeded random layouts, none with stored figures, so the
/// strip measures them all (as in the window walkthrough's `huge.ron`).
fn huge_pack_file(dir: &std::path::Path) -> std::path::PathBuf {
    let mut rng = Rng::new(20_000);
    let mut pack = Pack::new("huge");
    for i in 0..20_000 {
        let cells = (0..11)
            .map(|_| {
                (0..9)
                    .map(|_| if rng.index(6) == 0 { '#' } else { '.' })
                    .collect()
            })
            .collect();
        pack.levels.push(Level::bare(
            level_studio::match3::ID,
            format!("huge-{:05}", i + 1),
            cells,
        ));
    }
    let path = dir.join("huge.ron");
    save_pack(&path, &pack).unwrap();
    path
}

/// Median, p95 and max of `n` frames, each given the events `events(i)`.
fn sample(
    ctx: &egui::Context,
    app: &mut StudioApp,
    n: usize,
    events: impl Fn(usize) -> Vec<Event>,
) -> String {
    let mut samples: Vec<Duration> = (0..n).map(|i| frame(ctx, app, events(i))).collect();
    samples.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    format!(
        "median {:.2} ms, p95 {:.2} ms, max {:.2} ms ({n} frames)",
        ms(samples[n / 2]),
        ms(samples[n * 95 / 100]),
        ms(samples[n - 1])
    )
}

/// 3. Frame time with a 20,000-level pack open on the strip.
fn huge_pack(ctx: &egui::Context, app: &mut StudioApp) {
    let dir = tempfile::tempdir().unwrap();
    let path = huge_pack_file(dir.path());
    app.push(AppCommand::SwitchGame(level_studio::match3::ID));
    let before = sample(ctx, app, 100, |_| vec![]);
    app.push(AppCommand::Open(path));
    let t = Instant::now();
    while app.packs().iter().all(|p| p.pack.levels.len() < 20_000) {
        frame(ctx, app, vec![]);
        assert!(t.elapsed() < Duration::from_secs(60), "the pack opened");
        std::thread::sleep(Duration::from_millis(5));
    }
    // The strip's cards: hover over them, the pointer where a designer's would be.
    let over_cards = |i: usize| {
        vec![Event::PointerMoved(Pos2::new(
            200.0 + (i % 50) as f32 * 8.0,
            820.0,
        ))]
    };
    let measuring = sample(ctx, app, 200, over_cards);
    let t = Instant::now();
    while app.pack_strip().measuring.is_some() {
        frame(ctx, app, vec![]);
        assert!(
            t.elapsed() < Duration::from_secs(300),
            "the pack was measured"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let measured_in = t.elapsed();
    let measured = sample(ctx, app, 300, over_cards);
    let wheel = |i: usize| {
        vec![
            Event::PointerMoved(Pos2::new(400.0, 820.0)),
            Event::MouseWheel {
                unit: egui::MouseWheelUnit::Line,
                delta: Vec2::new(0.0, if i < 150 { -3.0 } else { 3.0 }),
                phase: egui::TouchPhase::Move,
                source: egui::MouseWheelSource::Wheel,
                modifiers: egui::Modifiers::NONE,
            },
        ]
    };
    let scrolling = sample(ctx, app, 300, wheel);
    app.push(AppCommand::Pack(PackCommand::Close));
    frame(ctx, app, vec![]);
    assert!(
        app.packs().iter().all(|p| p.pack.levels.len() < 20_000),
        "closed"
    );
    let closed = sample(ctx, app, 300, over_cards);
    println!("20,000-level match-3 pack (1440×900, layout + paint + tessellate):");
    println!("  before it is opened:          {before}");
    println!("  open, figures filling in:     {measuring}");
    println!(
        "  open, all measured ({:.1} s):  {measured}",
        measured_in.as_secs_f64()
    );
    println!("  open, wheel over the strip:   {scrolling}");
    println!("  after Close pack:             {closed}");
}
