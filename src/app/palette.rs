//! Colours of the studio and how each tile, state cell and graph class is painted, shared by
//! the canvas, thumbnails, the graph viewer and the PNG sheet.

use super::board::Tile;
use crate::longcat::graph::NodeClass;
use crate::longcat::rules::BoardCell;
use egui::{Color32, Painter, Rect, Stroke, Vec2};

/// Background behind the canvas.
pub const CANVAS_BG: Color32 = Color32::from_rgb(28, 30, 36);
/// Highlights (rectangle preview, selection).
pub const ACCENT: Color32 = Color32::from_rgb(255, 196, 61);
/// Outline of the match-3 play area.
pub const AREA_OUTLINE: Color32 = Color32::from_rgb(120, 190, 255);
/// Spawner markers.
pub const SPAWNER: Color32 = Color32::from_rgb(46, 160, 67);
/// Mirror axes of the brush.
pub const MIRROR_AXIS: Color32 = Color32::from_rgb(255, 120, 200);
/// Frame round a graph state shown on the canvas.
pub const STATE_FRAME: Color32 = Color32::from_rgb(90, 160, 255);
/// Valid figures.
pub const GOOD: Color32 = Color32::from_rgb(76, 187, 94);
/// Invalid figures.
pub const BAD: Color32 = Color32::from_rgb(229, 83, 75);

/// The fill colour of a tile.
pub fn tile_color(tile: Tile) -> Color32 {
    match tile {
        Tile::Playfield => Color32::from_rgb(236, 226, 198),
        Tile::Block => Color32::from_rgb(62, 66, 80),
        Tile::Gap => Color32::from_rgb(110, 124, 150),
        Tile::Wall => Color32::from_rgb(74, 60, 86),
        Tile::Empty => Color32::from_rgb(240, 234, 226),
        Tile::Head => Color32::from_rgb(244, 162, 97),
    }
}

/// The colour of a cell of a Longcat state.
pub fn state_color(cell: BoardCell) -> Color32 {
    match cell {
        BoardCell::Empty => tile_color(Tile::Empty),
        BoardCell::Wall => tile_color(Tile::Wall),
        BoardCell::Body => Color32::from_rgb(233, 196, 106),
        BoardCell::Head => tile_color(Tile::Head),
    }
}

/// The viewer colour of a graph class (SPEC §2.2).
pub fn class_color(class: NodeClass) -> Color32 {
    match class {
        NodeClass::Success => Color32::from_rgb(60, 190, 90),
        NodeClass::Fail => Color32::from_rgb(225, 70, 64),
        NodeClass::Solution => Color32::from_rgb(70, 130, 245),
        NodeClass::Dead => Color32::from_rgb(160, 90, 210),
        NodeClass::Indeterminate => Color32::from_rgb(235, 200, 50),
    }
}

/// Paints one tile into `r`, with the marks that tell similar tiles apart (GAP hatching,
/// the cat's face).
pub fn paint_tile(painter: &Painter, r: Rect, tile: Tile) {
    let rounding = (r.width() * 0.12).min(4.0);
    painter.rect_filled(r, rounding, tile_color(tile));
    match tile {
        Tile::Gap => hatch(painter, r, Color32::from_rgb(150, 162, 186)),
        Tile::Head => cat_face(painter, r),
        _ => {}
    }
}

/// Paints one cell of a Longcat state.
pub fn paint_state_cell(painter: &Painter, r: Rect, cell: BoardCell) {
    let rounding = (r.width() * 0.12).min(4.0);
    painter.rect_filled(r, rounding, state_color(cell));
    if cell == BoardCell::Head {
        cat_face(painter, r);
    }
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

fn cat_face(painter: &Painter, r: Rect) {
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

/// RGB bytes of a tile (for the PNG sheet).
pub fn tile_rgb(tile: Tile) -> [u8; 3] {
    let c = tile_color(tile);
    [c.r(), c.g(), c.b()]
}
