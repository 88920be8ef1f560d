//! The CGAN map (rl-quality-diversity Fig. 6.9, live): after three patterns of the level on
//! the canvas (or of the VGLC's first level), z₁ fixed by a slider, the 101 × 101 grid of z₂
//! and z₃ coloured by how far each pattern lies from the empty one — the raw output on the
//! left, after Matching on the right. Press or drag on either map to move the point: the
//! window shows the three patterns, the raw output (rounded to tiles) and the pattern
//! Matching gives, with the count of distinct patterns before and after Matching.
//!
//! The sweep (10,201 generator outputs) runs on a thread of its own when the context or z₁
//! changes; the window only draws.

use crate::cgan::file::WEIGHTS_FILE;
use crate::cgan::{generate_raw, latent_map, round_to_indices, LatentMap, CELLS, ROWS};
use crate::generators::{load_cgan_model, CganModel};
use crate::patterns::{pattern_at_bottom, PatLegal, Pattern};
use crate::MarioLevel;
use egui::{Color32, ColorImage, Rect, Sense, Stroke, TextureHandle, TextureOptions, Vec2};
use std::sync::mpsc::{channel, Receiver};
use std::sync::Arc;
use studio_core::game::ModelCache;
use studio_core::level::Level;
use studio_ui::palette;

/// Grid points per axis (the thesis's 101).
pub const GRID: usize = 101;
/// Screen points per grid point.
const SCALE: f32 = 2.0;
/// Screen points per tile of a drawn pattern.
const TILE: f32 = 11.0;

/// What a sweep was made for: the context and z₁ (in hundredths).
type Key = ([Pattern; 3], u32);

/// The window's state.
pub struct CganMapWindow {
    /// Shown.
    pub open: bool,
    /// z₁, fixed for the sweep.
    pub first: f32,
    /// z₂ and z₃ of the point.
    pub point: [f32; 2],
    /// The pattern (0-based) of the canvas level the three context patterns start at.
    pub start: usize,
    map: Option<(Key, LatentMap, [TextureHandle; 2])>,
    pending: Option<(Key, Receiver<Result<LatentMap, String>>)>,
    error: Option<String>,
}

impl Default for CganMapWindow {
    fn default() -> Self {
        Self {
            open: false,
            first: 0.0,
            point: [0.5, 0.5],
            start: 0,
            map: None,
            pending: None,
            error: None,
        }
    }
}

/// The three patterns of `level` from pattern `start` on (its bottom 14 rows), when it is a
/// Mario level that long; else the first three patterns of the VGLC's first level.
pub fn context_of(level: Option<&Level>, start: usize, pat: &PatLegal) -> ([Pattern; 3], String) {
    let from_level = level
        .filter(|l| l.game == crate::level::ID)
        .and_then(|l| MarioLevel::from_rows(&l.cells).ok())
        .and_then(|m| {
            let p = |k: usize| pattern_at_bottom(&m, (start + k) * 4);
            Some([p(0)?, p(1)?, p(2)?])
        });
    match from_level {
        Some(c) => (
            c,
            format!(
                "the canvas level's patterns {}-{} (bottom 14 rows)",
                start + 1,
                start + 3
            ),
        ),
        None => (
            pat.contexts.first().copied().unwrap_or([[0; CELLS]; 3]),
            format!(
                "the first three patterns of {} (the canvas holds no Mario level of 3 patterns)",
                pat.levels.first().map_or("the VGLC", String::as_str)
            ),
        ),
    }
}

impl CganMapWindow {
    /// True while a sweep runs.
    pub fn busy(&self) -> bool {
        self.pending.is_some()
    }

    /// Takes a finished sweep.
    pub fn poll(&mut self, ctx: &egui::Context) {
        let Some((key, rx)) = &self.pending else {
            return;
        };
        match rx.try_recv() {
            Ok(Ok(map)) => {
                let textures = [0, 1].map(|half| texture(ctx, &map, half));
                self.map = Some((*key, map, textures));
                self.pending = None;
                self.error = None;
            }
            Ok(Err(e)) => {
                self.error = Some(e);
                self.pending = None;
            }
            Err(std::sync::mpsc::TryRecvError::Empty) => {}
            Err(std::sync::mpsc::TryRecvError::Disconnected) => {
                self.error = Some("the sweep stopped without a result".into());
                self.pending = None;
            }
        }
    }

    /// Waits for a running sweep (tests).
    pub fn wait(&mut self, ctx: &egui::Context) {
        for _ in 0..600 {
            self.poll(ctx);
            if self.pending.is_none() {
                return;
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
    }

    /// The finished sweep, if any: distinct patterns before and after Matching.
    pub fn distinct(&self) -> Option<(usize, usize)> {
        self.map
            .as_ref()
            .map(|(_, m, _)| (m.distinct_raw, m.distinct_matched))
    }

    /// Draws the window; `level` is the canvas's.
    pub fn draw(&mut self, ctx: &egui::Context, level: Option<&Level>, models: &ModelCache) {
        self.poll(ctx);
        let mut open = self.open;
        egui::Window::new("CGAN map")
            .open(&mut open)
            .default_width(520.0)
            .resizable(false)
            .show(ctx, |ui| self.body(ui, level, models));
        self.open = open;
    }

    fn body(&mut self, ui: &mut egui::Ui, level: Option<&Level>, models: &ModelCache) {
        let model = models.get_or_load(&models.dir().join(WEIGHTS_FILE), load_cgan_model);
        let pat = PatLegal::default_set();
        let (model, pat) = match (model, pat) {
            (Ok(m), Ok(p)) => (m, p),
            (Err(e), _) => {
                ui.colored_label(palette::BAD, e.to_string());
                return;
            }
            (_, Err(e)) => {
                ui.colored_label(palette::BAD, e.to_string());
                return;
            }
        };
        let (context, from) = context_of(level, self.start, &pat);
        ui.label(format!("After {from}."));
        ui.horizontal(|ui| {
            let patterns = level
                .and_then(|l| MarioLevel::from_rows(&l.cells).ok())
                .map_or(0, |m| m.width() / 4);
            if patterns >= 3 {
                ui.add(
                    egui::Slider::new(&mut self.start, 0..=patterns - 3)
                        .text("first context pattern")
                        .custom_formatter(|v, _| format!("{}", v as usize + 1)),
                );
            }
            ui.add(
                egui::Slider::new(&mut self.first, 0.0..=1.0)
                    .text("z₁")
                    .step_by(0.01),
            );
        });
        let key: Key = (context, (self.first * 100.0).round() as u32);
        let stale = self.map.as_ref().is_none_or(|(k, _, _)| *k != key);
        if stale && self.pending.as_ref().is_none_or(|(k, _)| *k != key) {
            self.start_sweep(key, Arc::clone(&model), Arc::clone(&pat), ui.ctx());
        }
        if let Some(e) = &self.error {
            ui.colored_label(palette::BAD, e);
        }
        ui.horizontal(|ui| {
            for (half, caption) in [(0usize, "raw output"), (1, "after Matching")] {
                ui.vertical(|ui| {
                    ui.label(caption);
                    self.map_view(ui, half);
                });
            }
        });
        let max = self.map.as_ref().map(|(_, m, _)| scale_max(m));
        let width = 2.0 * GRID as f32 * SCALE + ui.spacing().item_spacing.x;
        colour_scale(ui, width, max);
        match (&self.map, &self.pending) {
            (Some((k, m, _)), _) if *k == key => {
                ui.label(format!(
                    "{} distinct patterns before Matching, {} after (of {} points; the thesis: \
                     3,190 before, 45 after)",
                    m.distinct_raw,
                    m.distinct_matched,
                    GRID * GRID
                ));
            }
            _ => {
                ui.horizontal(|ui| {
                    ui.spinner();
                    ui.label("sweeping 10,201 points…");
                });
            }
        }
        let z = [self.first, self.point[0], self.point[1]];
        ui.label(format!(
            "z = ({:.2}, {:.2}, {:.2}): x is z₂, y is z₃ (0 at the bottom). Press or drag on a \
             map to move the point.",
            z[0], z[1], z[2]
        ));
        let raw = generate_raw(&model.generator, &context, z).ok();
        let matched = raw.as_ref().and_then(|r| pat.get(pat.nearest(r)).copied());
        ui.horizontal(|ui| {
            for (i, p) in context.iter().enumerate() {
                pattern_view(ui, p, &format!("{}", i + 1));
            }
            ui.separator();
            if let Some(r) = &raw {
                pattern_view(ui, &round_to_indices(r), "raw");
            }
            if let Some(m) = &matched {
                pattern_view(ui, m, "matched");
            }
        });
    }

    fn start_sweep(
        &mut self,
        key: Key,
        model: Arc<CganModel>,
        pat: Arc<PatLegal>,
        ctx: &egui::Context,
    ) {
        let (tx, rx) = channel();
        let ctx = ctx.clone();
        std::thread::spawn(move || {
            let result = latent_map(&model.generator, &key.0, key.1 as f32 / 100.0, &pat, GRID)
                .map_err(|e| e.to_string());
            let _ = tx.send(result);
            ctx.request_repaint();
        });
        self.pending = Some((key, rx));
    }

    /// One half of the map with the point; a press or drag moves the point.
    fn map_view(&mut self, ui: &mut egui::Ui, half: usize) {
        let side = GRID as f32 * SCALE;
        let (rect, response) = ui.allocate_exact_size(Vec2::splat(side), Sense::click_and_drag());
        let painter = ui.painter_at(rect);
        match &self.map {
            Some((_, _, textures)) => {
                painter.image(
                    textures[half].id(),
                    rect,
                    Rect::from_min_max(egui::pos2(0.0, 0.0), egui::pos2(1.0, 1.0)),
                    Color32::WHITE,
                );
            }
            None => {
                painter.rect_filled(rect, 0.0, ui.visuals().extreme_bg_color);
            }
        }
        if let Some(pos) = response.interact_pointer_pos() {
            let x = ((pos.x - rect.left()) / side).clamp(0.0, 1.0);
            let y = ((rect.bottom() - pos.y) / side).clamp(0.0, 1.0);
            self.point = [(x * 100.0).round() / 100.0, (y * 100.0).round() / 100.0];
        }
        let at = egui::pos2(
            rect.left() + self.point[0] * side,
            rect.bottom() - self.point[1] * side,
        );
        painter.circle_stroke(at, 5.0, Stroke::new(2.0, Color32::WHITE));
        painter.circle_stroke(at, 6.5, Stroke::new(1.0, Color32::BLACK));
    }
}

/// The top of the maps' shared colour scale: the largest distance on either map.
fn scale_max(map: &LatentMap) -> f32 {
    map.raw_distance
        .iter()
        .chain(&map.matched_distance)
        .fold(0.0f32, |a, &b| a.max(b))
        .max(f32::EPSILON)
}

/// The legend under the maps: the colour ramp from 0 to the largest distance, and what the
/// colour means.
fn colour_scale(ui: &mut egui::Ui, width: f32, max: Option<f32>) {
    let (rect, _) = ui.allocate_exact_size(Vec2::new(width, 12.0), Sense::hover());
    let painter = ui.painter_at(rect);
    let steps = 64;
    for k in 0..steps {
        let c = crate::cgan::map::heat(k as f32 / (steps - 1) as f32).0;
        let x0 = rect.left() + rect.width() * k as f32 / steps as f32;
        let x1 = rect.left() + rect.width() * (k + 1) as f32 / steps as f32;
        painter.rect_filled(
            Rect::from_min_max(
                egui::pos2(x0, rect.top()),
                egui::pos2(x1 + 0.5, rect.bottom()),
            ),
            0.0,
            Color32::from_rgb(c[0], c[1], c[2]),
        );
    }
    ui.horizontal(|ui| {
        ui.set_width(width);
        ui.small("0: the empty pattern (all sky)");
        ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
            ui.small(match max {
                Some(m) => format!("{m:.1}: the farthest on either map"),
                None => "the farthest on either map".into(),
            });
        });
    });
    ui.weak(
        "Colour: how far each point's pattern lies from the empty pattern (Euclidean, over its 56 cells), \
         one scale for both maps. Left the CGAN's raw output, right the legal pattern Matching \
         makes of it: the left is smooth, the right a patchwork of the few patterns it keeps.",
    );
}

/// Half `half` of the map (0 raw, 1 matched) as a texture, one pixel a grid point, z₃ = 0 at
/// the bottom; both halves share one colour scale.
fn texture(ctx: &egui::Context, map: &LatentMap, half: usize) -> TextureHandle {
    let values = if half == 0 {
        &map.raw_distance
    } else {
        &map.matched_distance
    };
    let max = scale_max(map);
    let n = map.size;
    let mut pixels = vec![Color32::BLACK; n * n];
    for (p, &v) in values.iter().enumerate() {
        let (i, j) = (p % n, p / n);
        let c = crate::cgan::map::heat(v / max).0;
        if let Some(px) = pixels.get_mut((n - 1 - j) * n + i) {
            *px = Color32::from_rgb(c[0], c[1], c[2]);
        }
    }
    let image = ColorImage::new([n, n], pixels);
    ctx.load_texture(format!("cgan-map-{half}"), image, TextureOptions::NEAREST)
}

/// A 4 × 14 pattern in the Mario palette, captioned.
fn pattern_view(ui: &mut egui::Ui, p: &Pattern, caption: &str) {
    ui.vertical(|ui| {
        let size = Vec2::new(4.0 * TILE, ROWS as f32 * TILE);
        let (rect, _) = ui.allocate_exact_size(size, Sense::hover());
        let painter = ui.painter_at(rect);
        if let Ok(game) = crate::level::ID.game() {
            for c in 0..4 {
                for r in 0..ROWS {
                    let cell = Rect::from_min_size(
                        rect.min + Vec2::new(c as f32 * TILE, r as f32 * TILE),
                        Vec2::splat(TILE),
                    );
                    let tile = p.get(c * ROWS + r).copied().unwrap_or(0);
                    palette::paint_tile(&painter, cell, game, tile);
                }
            }
        }
        painter.rect_stroke(
            rect,
            0.0,
            Stroke::new(1.0, Color32::GRAY),
            egui::StrokeKind::Inside,
        );
        ui.label(caption);
    });
}

impl studio_ui::ToolWindow for CganMapWindow {
    fn game(&self) -> studio_core::game::GameId {
        crate::level::ID
    }

    fn title(&self) -> &'static str {
        "CGAN map"
    }

    fn help(&self) -> &'static str {
        "The CGAN's latent map after three patterns of this level: move a point, see the \
         pattern it makes"
    }

    fn is_open(&self) -> bool {
        self.open
    }

    fn set_open(&mut self, open: bool) {
        self.open = open;
    }

    fn busy(&self) -> bool {
        CganMapWindow::busy(self)
    }

    fn ui(
        &mut self,
        ctx: &egui::Context,
        studio: &studio_ui::ToolContext<'_>,
        _actions: &mut Vec<studio_ui::ToolAction>,
    ) {
        self.draw(ctx, studio.level, studio.models);
    }
}
