//! Colours of the studio and how each tile, state cell and graph class is painted, shared by
//! the canvas, thumbnails, the graph viewer and the PNG sheet.

use egui::{Color32, Painter, Rect, Stroke, Vec2};
use studio_core::document::board::Tile;
use studio_core::game::{CellLook, Game, Heading, TileMark};

/// Background behind the canvas.
pub const CANVAS_BG: Color32 = Color32::from_rgb(28, 30, 36);
/// Highlights (rectangle preview, selection).
pub const ACCENT: Color32 = Color32::from_rgb(255, 196, 61);
/// Outline of a game's play area.
pub const AREA_OUTLINE: Color32 = Color32::from_rgb(120, 190, 255);
/// Markers a game puts on cells (spawners).
pub const SPAWNER: Color32 = Color32::from_rgb(46, 160, 67);
/// Mirror axes of the brush.
pub const MIRROR_AXIS: Color32 = Color32::from_rgb(255, 120, 200);
/// Frame round a graph state shown on the canvas.
pub const STATE_FRAME: Color32 = Color32::from_rgb(90, 160, 255);
/// Valid figures.
pub const GOOD: Color32 = Color32::from_rgb(76, 187, 94);
/// Invalid figures.
pub const BAD: Color32 = Color32::from_rgb(229, 83, 75);

/// The fill colour of tile `tile` of `game` (the game's own RGB).
pub fn tile_color(game: &dyn Game, tile: Tile) -> Color32 {
    let [r, g, b] = game
        .tiles()
        .get(usize::from(tile))
        .map_or([255, 0, 255], |t| t.rgb);
    Color32::from_rgb(r, g, b)
}

/// A colour from RGB bytes.
pub fn rgb(c: [u8; 3]) -> Color32 {
    Color32::from_rgb(c[0], c[1], c[2])
}

/// Paints one tile of `game` into `r`, with the mark that tells similar tiles apart (GAP
/// hatching, the cat's face).
pub fn paint_tile(painter: &Painter, r: Rect, game: &dyn Game, tile: Tile) {
    paint_look(
        painter,
        r,
        CellLook {
            rgb: game
                .tiles()
                .get(usize::from(tile))
                .map_or([255, 0, 255], |t| t.rgb),
            mark: game.tile_mark(tile),
        },
    );
}

/// Paints one cell of a graph state (or any cell given by colour and mark).
pub fn paint_look(painter: &Painter, r: Rect, look: CellLook) {
    let rounding = (r.width() * 0.12).min(4.0);
    let fill = rgb(look.rgb);
    painter.rect_filled(r, rounding, fill);
    match look.mark {
        TileMark::Plain => {}
        TileMark::Hatched => hatch(painter, r, lighter(look.rgb)),
        TileMark::Avatar => avatar_face(painter, r),
        TileMark::Facing(heading) => {
            avatar_face(painter, r);
            sword(painter, r, heading);
        }
        TileMark::Monster(pips) => monster_face(painter, r, pips),
        TileMark::Glyph(c) => glyph(painter, r, c, look.rgb),
    }
}

/// A character in the middle of `r`, dark on a light fill and light on a dark one.
fn glyph(painter: &Painter, r: Rect, c: char, fill: [u8; 3]) {
    if r.width() < 8.0 {
        return;
    }
    let light = u32::from(fill[0]) * 3 + u32::from(fill[1]) * 6 + u32::from(fill[2]) > 1400;
    let colour = if light {
        Color32::from_rgb(30, 30, 36)
    } else {
        Color32::from_rgb(240, 240, 244)
    };
    painter.text(
        r.center(),
        egui::Align2::CENTER_CENTER,
        c,
        egui::FontId::monospace(r.height() * 0.55),
        colour,
    );
}

/// A blade along the side of `r` the avatar faces, pointing outwards.
fn sword(painter: &Painter, r: Rect, heading: Heading) {
    if r.width() < 10.0 {
        return;
    }
    let (out, side) = match heading {
        Heading::Up => (Vec2::new(0.0, -1.0), Vec2::new(1.0, 0.0)),
        Heading::Down => (Vec2::new(0.0, 1.0), Vec2::new(1.0, 0.0)),
        Heading::Left => (Vec2::new(-1.0, 0.0), Vec2::new(0.0, 1.0)),
        Heading::Right => (Vec2::new(1.0, 0.0), Vec2::new(0.0, 1.0)),
    };
    let half = r.width() * 0.5;
    let tip = r.center() + out * half * 0.98;
    let base = r.center() + out * half * 0.62;
    let w = r.width() * 0.09;
    painter.add(egui::Shape::convex_polygon(
        vec![base + side * w, tip, base - side * w],
        Color32::from_rgb(236, 240, 248),
        Stroke::new(1.0, Color32::from_rgb(40, 40, 50)),
    ));
    painter.line_segment(
        [base + side * w * 2.0, base - side * w * 2.0],
        Stroke::new((r.width() * 0.06).max(1.0), Color32::from_rgb(120, 80, 30)),
    );
}

/// Two slanted eyes and, along the bottom, one pip per speed step.
fn monster_face(painter: &Painter, r: Rect, pips: u8) {
    if r.width() < 10.0 {
        return;
    }
    let c = r.center();
    let w = r.width();
    let white = Color32::from_rgb(250, 244, 220);
    let dark = Color32::from_rgb(30, 20, 20);
    for sx in [-1.0f32, 1.0] {
        let eye = c + Vec2::new(sx * w * 0.18, -w * 0.08);
        painter.circle_filled(eye, w * 0.11, white);
        painter.circle_filled(eye + Vec2::new(0.0, w * 0.02), w * 0.05, dark);
        painter.line_segment(
            [
                eye + Vec2::new(-sx * w * 0.14, -w * 0.16),
                eye + Vec2::new(sx * w * 0.10, -w * 0.08),
            ],
            Stroke::new((w * 0.05).max(1.0), dark),
        );
    }
    let n = pips.clamp(1, 3);
    let step = w * 0.16;
    let left = c.x - step * f32::from(n - 1) / 2.0;
    for i in 0..n {
        painter.circle_filled(
            egui::pos2(left + step * f32::from(i), r.bottom() - w * 0.16),
            w * 0.055,
            white,
        );
    }
}

/// A lighter shade of a colour (hatching drawn over it).
fn lighter(c: [u8; 3]) -> Color32 {
    let up = |v: u8| v + ((255 - u16::from(v)) * 3 / 10) as u8;
    Color32::from_rgb(up(c[0]), up(c[1]), up(c[2]))
}

fn hatch(painter: &Painter, r: Rect, color: Color32) {
    if r.width() < 8.0 {
        return;
    }
    let stroke = Stroke::new((r.width() * 0.05).max(1.0), color);
    let step = r.width() / 4.0;
    let clip = painter.with_clip_rect(r);
    for i in -4..=4 {
        let o = i as f32 * step;
        clip.line_segment(
            [
                r.left_bottom() + Vec2::new(o, 0.0),
                r.left_bottom() + Vec2::new(o + r.width(), -r.height()),
            ],
            stroke,
        );
    }
}

fn avatar_face(painter: &Painter, r: Rect) {
    if r.width() < 10.0 {
        return;
    }
    let eye = r.width() * 0.08;
    let c = r.center();
    let dark = Color32::from_rgb(40, 30, 30);
    painter.circle_filled(
        c + Vec2::new(-r.width() * 0.18, -r.height() * 0.06),
        eye,
        dark,
    );
    painter.circle_filled(
        c + Vec2::new(r.width() * 0.18, -r.height() * 0.06),
        eye,
        dark,
    );
    let ear = r.width() * 0.16;
    for sx in [-1.0f32, 1.0] {
        let base = r.center_top() + Vec2::new(sx * r.width() * 0.28, 0.0);
        painter.add(egui::Shape::convex_polygon(
            vec![
                base + Vec2::new(-ear, ear * 0.9),
                base + Vec2::new(ear, ear * 0.9),
                base + Vec2::new(sx * ear * 0.2, -ear * 0.3),
            ],
            Color32::from_rgb(214, 120, 60),
            Stroke::NONE,
        ));
    }
}
