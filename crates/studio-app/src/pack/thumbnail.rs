//! A level's thumbnail: its cells painted small in the game's colours (the pack strip's cards,
//! the candidates and the interpolation strip).

use crate::board::Board;
use egui::{Align2, FontId, Rect, Vec2};
use studio_core::level::Level;
use studio_ui::palette;

/// Paints a level's cells small, into `rect` (thumbnails; also used by tests of the look).
pub fn paint_thumbnail(painter: &egui::Painter, rect: Rect, level: &Level) {
    let Ok(board) = Board::from_level(level) else {
        painter.text(
            rect.center(),
            Align2::CENTER_CENTER,
            "?",
            FontId::proportional(20.0),
            palette::BAD,
        );
        return;
    };
    let (w, h) = (board.width() as f32, board.height() as f32);
    let cell = (rect.width() / w).min(rect.height() / h);
    // Whole points per cell and a whole-point origin, so every cell's border is the same
    // width (fractional cells alias into irregular grid lines).
    let cell = if cell >= 4.0 { cell.floor() } else { cell };
    let origin = (rect.center() - Vec2::new(w, h) * cell / 2.0).round();
    let mut mesh = egui::Mesh::default();
    for y in 0..board.height() {
        for x in 0..board.width() {
            let r = Rect::from_min_size(
                origin + Vec2::new(x as f32, y as f32) * cell,
                Vec2::splat(cell),
            )
            // Small cells (a wide level) get no border at all: a fraction of a point
            // would alias into irregular dark lines.
            .shrink(if cell >= 4.0 { 0.5 } else { 0.0 });
            mesh.add_colored_rect(r, palette::tile_color(board.rules(), board.get(x, y)));
        }
    }
    painter.add(egui::Shape::mesh(mesh));
}
