//! The tile canvas: draws the board (or a state of its state graph), the game's play area
//! and markers (spawners) and the mirror axes, and turns pointer input into [`EditCommand`]s by the chosen
//! tool. It never changes the board itself.

use crate::board::Board;
use crate::editor::cells::{brush_targets, rect_cells};
use crate::editor::EditCommand;
use crate::studio::settings::{Tool, ToolState};
use egui::{Color32, FontId, Pos2, Rect, Sense, Stroke, StrokeKind, Vec2};
use studio_core::game::StatePicture;
use studio_core::symmetry::Symmetry;
use studio_ui::palette;

/// Height of the minimap band of a long level.
/// Room under the board for an overlay's legend.
const LEGEND_H: f32 = 24.0;

const MINIMAP_H: f32 = 34.0;

/// A state of the level's state graph shown on the canvas instead of the level.
#[derive(Clone, Debug, PartialEq)]
pub struct StateOverlay {
    /// The node shown.
    pub node: usize,
    /// Its caption and cells.
    pub picture: StatePicture,
}

/// What the canvas asks for this frame.
#[derive(Debug, Default)]
pub struct CanvasOutput {
    /// Edits, in order.
    pub commands: Vec<EditCommand>,
    /// The designer wants to go back from a graph state to the level.
    pub leave_state: bool,
}

/// The canvas widget's own state: view transform and the gesture in progress.
#[derive(Debug)]
pub struct CanvasView {
    /// Zoom factor; 1.0 fits the board to the panel.
    pub zoom: f32,
    /// Pan offset in points.
    pub pan: Vec2,
    pub(super) stroke_open: bool,
    pub(super) last_cell: Option<(usize, usize)>,
    pub(super) rect_start: Option<(usize, usize)>,
    /// The cell under the pointer last frame.
    pub hovered: Option<(usize, usize)>,
    board_rect: Rect,
    cell_size: f32,
    /// Where the minimap of a long level was drawn last frame (tests press on it).
    pub minimap: Option<Rect>,
}

impl CanvasView {
    /// A canvas at the given zoom (brought into 0.25–8; 1 when it is not a number).
    pub fn new(zoom: f32) -> Self {
        Self {
            zoom: if zoom.is_nan() {
                1.0
            } else {
                zoom.clamp(0.25, 8.0)
            },
            pan: Vec2::ZERO,
            stroke_open: false,
            last_cell: None,
            rect_start: None,
            hovered: None,
            board_rect: Rect::NOTHING,
            cell_size: 0.0,
            minimap: None,
        }
    }

    /// The screen position of a cell's centre as drawn last frame (tests click there).
    pub fn cell_center(&self, x: usize, y: usize) -> Pos2 {
        self.board_rect.min
            + Vec2::new(
                (x as f32 + 0.5) * self.cell_size,
                (y as f32 + 0.5) * self.cell_size,
            )
    }

    pub(super) fn cell_at(&self, pos: Pos2, board: &Board) -> Option<(usize, usize)> {
        if self.cell_size <= 0.0 {
            return None;
        }
        let rel = (pos - self.board_rect.min) / self.cell_size;
        let (x, y) = (rel.x.floor(), rel.y.floor());
        (x >= 0.0 && y >= 0.0 && (x as usize) < board.width() && (y as usize) < board.height())
            .then_some((x as usize, y as usize))
    }

    /// Draws the canvas and handles input; `state` replaces the level with a graph state;
    /// `analysis` is the board's analysis when it is of the board shown (its overlay, where
    /// the game draws one from it, replaces the one drawn from the cells).
    pub fn ui(
        &mut self,
        ui: &mut egui::Ui,
        board: &Board,
        tools: &mut ToolState,
        state: Option<&StateOverlay>,
        analysis: Option<&studio_core::game::Analysis>,
    ) -> CanvasOutput {
        let mut out = CanvasOutput::default();
        let (response, painter) = ui.allocate_painter(ui.available_size(), Sense::click_and_drag());
        let area = response.rect;
        painter.rect_filled(area, 0.0, palette::CANVAS_BG);

        // The header is laid out first (wrapped to the canvas) so the fitted board sits below it.
        let header = painter.layout(
            header_text(board, state),
            FontId::proportional(14.0),
            ui.visuals().strong_text_color(),
            (area.width() - 20.0).max(40.0),
        );
        // A long level (a side-scrolling level) is fitted to the height and scrolled
        // sideways, with a minimap of the whole level above the footer.
        let long = state.is_none() && board.rules().side_scrolling();
        let bands = Bands {
            header_h: header.size().y + 16.0,
            footer_h: if long { 30.0 + MINIMAP_H } else { 30.0 },
            long,
            overlay: state.is_none() && tools.overlay_on(board.rules().id()),
        };
        self.zoom_and_pan(ui, &response, long);
        let minimap = self.place_board(&response, board, &bands);
        let painter = painter.with_clip_rect(area);

        match state {
            Some(s) => self.draw_state(&painter, s),
            None => {
                self.draw_board(&painter, board, tools.mirror);
                if bands.overlay {
                    let legend =
                        self.draw_overlay(&painter, board, analysis, ui.visuals().text_color());
                    if let (Some(legend), Ok(game)) = (legend, board.rules().id().game()) {
                        ui.interact(legend, ui.scope_id().with("overlay-legend"), Sense::hover())
                            .on_hover_text(game.overlay_help());
                    }
                }
            }
        }

        // Pointer → cells.
        // The bands above and below the board hide it, so the pointer on them is on no cell.
        let view = Rect::from_min_max(
            area.min + Vec2::new(0.0, bands.header_h),
            area.max - Vec2::new(0.0, bands.footer_h),
        );
        let pointer = response.hover_pos().or(response.interact_pointer_pos());
        let cell = pointer
            .filter(|p| view.contains(*p))
            .and_then(|p| self.cell_at(p, board));
        self.hovered = cell;
        let primary_down = ui.input(|i| i.pointer.primary_down());
        if state.is_some() {
            if response.clicked() || ui.input(|i| i.key_pressed(egui::Key::Escape)) {
                out.leave_state = true;
            }
        } else {
            self.handle_tool(ui, &response, board, tools, cell, primary_down, &mut out);
        }
        if self.stroke_open && !primary_down {
            // Mouse released anywhere (even outside the window): the stroke ends, whole.
            out.commands.push(EditCommand::EndStroke);
            self.stroke_open = false;
            self.last_cell = None;
        }

        self.draw_marks(&painter, board, tools, state, cell);
        self.draw_readouts(ui, &painter, area, header, board, state, cell);
        if long {
            self.draw_minimap(&painter, minimap, board, area);
        }
        out
    }

    /// Zoom about the pointer (Ctrl+wheel, a pinch), pan by the wheel (sideways only for a
    /// long level) and by a middle or right drag.
    fn zoom_and_pan(&mut self, ui: &egui::Ui, response: &egui::Response, long: bool) {
        let area = response.rect;
        if response.hovered() {
            let (zoom_delta, scroll, pointer) = ui.input(|i| {
                (
                    i.zoom_delta(),
                    i.smooth_scroll_delta(),
                    i.pointer.hover_pos(),
                )
            });
            if zoom_delta != 1.0 {
                let old = self.zoom;
                self.zoom = (self.zoom * zoom_delta).clamp(0.25, 8.0);
                if let Some(p) = pointer {
                    let centre = area.center() + self.pan;
                    self.pan += (p - centre) * (1.0 - self.zoom / old);
                }
            } else if long {
                // The wheel scrolls a long level sideways, whichever way it turns.
                self.pan.x += scroll.x + scroll.y;
            } else {
                self.pan += scroll;
            }
        }
        if response.dragged_by(egui::PointerButton::Middle)
            || response.dragged_by(egui::PointerButton::Secondary)
        {
            self.pan += response.drag_delta();
        }
    }

    /// Fits the board between the bands, at the zoom and pan, and places it (a long level
    /// anchored at the left edge, panned by a press on its minimap); answers where the
    /// minimap goes.
    fn place_board(&mut self, response: &egui::Response, board: &Board, bands: &Bands) -> Rect {
        let area = response.rect;
        let (w, h) = (board.width() as f32, board.height() as f32);
        let (header_h, footer_h, long) = (bands.header_h, bands.footer_h, bands.long);
        let fit = if long {
            // Room under the board for the overlay's legend.
            ((area.height() - header_h - footer_h - 36.0) / h).clamp(4.0, 40.0)
        } else {
            // With the overlay on, room under the board for its legend too.
            let legend_h = if bands.overlay { LEGEND_H } else { 0.0 };
            ((area.width() - 40.0) / w)
                .min((area.height() - header_h - footer_h - legend_h - 16.0) / h)
                .max(4.0)
        };
        self.cell_size = fit * self.zoom;
        let size = Vec2::new(w, h) * self.cell_size;
        let legend_room = if bands.overlay && !long {
            LEGEND_H
        } else {
            0.0
        };
        let middle = area.center() + Vec2::new(0.0, (header_h - footer_h - legend_room) / 2.0);
        let minimap = Rect::from_min_size(
            Pos2::new(area.left() + 20.0, area.bottom() - footer_h + 4.0),
            Vec2::new((area.width() - 40.0).max(40.0), MINIMAP_H - 8.0),
        );
        self.minimap = long.then_some(minimap);
        if long {
            // Anchored at the left edge; panning stops at both ends of the level.
            let room = (area.width() - 40.0).max(40.0);
            if let Some(p) = response.interact_pointer_pos().filter(|p| {
                minimap.contains(*p) && (response.is_pointer_button_down_on() || response.clicked())
            }) {
                // A press on the minimap brings that part of the level into view; so does a
                // click whose press and release land in one frame (a touchpad tap).
                let along = (p.x - minimap.left()) / minimap.width();
                self.pan.x = room / 2.0 - along * size.x;
            }
            self.pan.x = self.pan.x.clamp((room - size.x).min(0.0), 0.0);
            let min = Pos2::new(
                area.left() + 20.0 + self.pan.x,
                middle.y - size.y / 2.0 + self.pan.y,
            );
            self.board_rect = Rect::from_min_size(min, size);
        } else {
            self.board_rect = Rect::from_center_size(middle + self.pan, size);
        }
        minimap
    }

    /// Over the board: the rectangle being drawn (every cell it will paint, mirror images
    /// included, and its outline), the selection, and the cell under the pointer.
    fn draw_marks(
        &self,
        painter: &egui::Painter,
        board: &Board,
        tools: &ToolState,
        state: Option<&StateOverlay>,
        cell: Option<(usize, usize)>,
    ) {
        if let (Some(a), Some(b), Tool::Rectangle) = (self.rect_start, cell, tools.tool) {
            let shade = palette::ACCENT.gamma_multiply(0.35);
            for (x, y) in brush_targets(board, tools, &rect_cells(a, b)) {
                painter.rect_filled(self.cell_rect(x, y), 0.0, shade);
            }
            let r = Rect::from_two_pos(
                self.cell_rect(a.0.min(b.0), a.1.min(b.1)).min,
                self.cell_rect(a.0.max(b.0), a.1.max(b.1)).max,
            );
            painter.rect_stroke(
                r,
                2.0,
                Stroke::new(2.0, palette::ACCENT),
                StrokeKind::Inside,
            );
        }
        // The selection (what "Regenerate selection" changes), dashed, while it fits the level.
        if let Some([x, y, w, h]) = tools.selection.filter(|&[x, y, w, h]| {
            state.is_none() && x + w <= board.width() && y + h <= board.height()
        }) {
            let r = Rect::from_two_pos(
                self.cell_rect(x, y).min,
                self.cell_rect(x + w - 1, y + h - 1).max,
            );
            painter.rect_filled(r, 0.0, palette::ACCENT.gamma_multiply(0.12));
            let stroke = Stroke::new(2.0, palette::ACCENT);
            for (a, b) in [
                (r.left_top(), r.right_top()),
                (r.right_top(), r.right_bottom()),
                (r.right_bottom(), r.left_bottom()),
                (r.left_bottom(), r.left_top()),
            ] {
                dashed(painter, a, b, stroke);
            }
        }
        if let Some((x, y)) = cell {
            painter.rect_stroke(
                self.cell_rect(x, y),
                1.0,
                Stroke::new(2.0, Color32::WHITE),
                StrokeKind::Inside,
            );
        }
    }

    /// The whole level in a strip above the footer, with the part in view framed.
    fn draw_minimap(&self, painter: &egui::Painter, strip: Rect, board: &Board, area: Rect) {
        let (w, h) = (board.width(), board.height());
        let cw = strip.width() / w as f32;
        let ch = strip.height() / h as f32;
        painter.rect_filled(strip.expand(2.0), 2.0, palette::CANVAS_BG);
        for y in 0..h {
            for x in 0..w {
                let min = strip.min + Vec2::new(x as f32 * cw, y as f32 * ch);
                let r = Rect::from_min_size(min, Vec2::new(cw.max(1.0), ch.max(1.0)));
                let rgb = board
                    .rules()
                    .tiles()
                    .get(usize::from(board.get(x, y)))
                    .map_or([255, 0, 255], |t| t.rgb);
                painter.rect_filled(r, 0.0, Color32::from_rgb(rgb[0], rgb[1], rgb[2]));
            }
        }
        // The columns in view.
        let total = w as f32 * self.cell_size;
        if total > 0.0 {
            let from = ((area.left() + 20.0 - self.board_rect.left()) / total).clamp(0.0, 1.0);
            let to = ((area.right() - 20.0 - self.board_rect.left()) / total).clamp(0.0, 1.0);
            let view = Rect::from_min_max(
                Pos2::new(strip.left() + from * strip.width(), strip.top() - 1.0),
                Pos2::new(strip.left() + to * strip.width(), strip.bottom() + 1.0),
            );
            painter.rect_stroke(
                view,
                1.0,
                Stroke::new(2.0, Color32::WHITE),
                StrokeKind::Outside,
            );
        }
    }

    fn cell_rect(&self, x: usize, y: usize) -> Rect {
        let min = self.board_rect.min + Vec2::new(x as f32, y as f32) * self.cell_size;
        Rect::from_min_size(min, Vec2::splat(self.cell_size))
    }

    /// The game's overlay (from the board's analysis where the game draws one from it, else
    /// from its cells): each listed cell tinted, and a legend under the board, headed by the
    /// overlay's name; returns where the legend is (its tooltip explains the overlay).
    fn draw_overlay(
        &self,
        painter: &egui::Painter,
        board: &Board,
        analysis: Option<&studio_core::game::Analysis>,
        text: Color32,
    ) -> Option<Rect> {
        let rules = board.rules();
        let overlay = analysis
            .and_then(|a| rules.analysis_overlay(a))
            .or_else(|| studio_core::game::overlay_of(rules, &board.to_rows()))?;
        for &(x, y, [r, g, b, a]) in &overlay.cells {
            let c = self.cell_rect(x, y).shrink(self.cell_size * 0.08);
            painter.rect_stroke(
                c,
                3.0,
                Stroke::new((self.cell_size * 0.1).max(2.0), Color32::from_rgb(r, g, b)),
                StrokeKind::Inside,
            );
            painter.rect_filled(c, 3.0, Color32::from_rgba_unmultiplied(r, g, b, a / 3));
        }
        // Under the board, where the visible part of it starts (a long level is scrolled).
        let mut at = Pos2::new(
            self.board_rect
                .left()
                .max(painter.clip_rect().left() + 20.0),
            self.board_rect.bottom() + 6.0,
        );
        let mut legend = Rect::from_min_size(at, Vec2::ZERO);
        if let Some(name) = rules.id().game().ok().and_then(|g| g.overlay_name()) {
            let drawn = painter.text(
                at + Vec2::new(0.0, 6.0),
                egui::Align2::LEFT_CENTER,
                format!("{name}:"),
                FontId::proportional(12.0),
                text,
            );
            legend = legend.union(drawn);
            at.x = drawn.right() + 10.0;
        }
        for (label, [r, g, b]) in &overlay.legend {
            let chip = Rect::from_min_size(at, Vec2::splat(12.0));
            painter.rect_filled(chip, 2.0, Color32::from_rgb(*r, *g, *b));
            let drawn = painter.text(
                chip.right_center() + Vec2::new(4.0, 0.0),
                egui::Align2::LEFT_CENTER,
                label,
                FontId::proportional(12.0),
                text,
            );
            legend = legend.union(drawn).union(chip);
            at.x = drawn.right() + 12.0;
        }
        Some(legend)
    }

    fn draw_board(&self, painter: &egui::Painter, board: &Board, mirror: Symmetry) {
        let gap = (self.cell_size * 0.04).clamp(0.5, 2.0);
        for y in 0..board.height() {
            for x in 0..board.width() {
                let r = self.cell_rect(x, y).shrink(gap);
                palette::paint_tile(painter, r, board.rules(), board.get(x, y));
            }
        }
        if let Some(a) = board.play_area() {
            let r = Rect::from_two_pos(
                self.cell_rect(a.x, a.y).min,
                self.cell_rect(a.x + a.width - 1, a.y + a.height - 1).max,
            );
            painter.rect_stroke(
                r.expand(1.5),
                3.0,
                Stroke::new(1.5, palette::AREA_OUTLINE),
                StrokeKind::Outside,
            );
        }
        for (x, y) in board.markers().cells {
            let c = self.cell_rect(x, y);
            let s = self.cell_size * 0.16;
            let top = c.center_top() + Vec2::new(0.0, s * 0.6);
            painter.add(egui::Shape::convex_polygon(
                vec![
                    top + Vec2::new(-s, 0.0),
                    top + Vec2::new(s, 0.0),
                    top + Vec2::new(0.0, s * 1.2),
                ],
                palette::SPAWNER,
                Stroke::NONE,
            ));
        }
        // Mirror axes of the brush, in the frame it reflects in.
        if mirror != Symmetry::None {
            let f = board.mirror_frame(board.width() / 2, board.height() / 2);
            let fr = Rect::from_two_pos(
                self.cell_rect(f.x, f.y).min,
                self.cell_rect(f.x + f.width - 1, f.y + f.height - 1).max,
            );
            let stroke = Stroke::new(1.5, palette::MIRROR_AXIS);
            if mirror.mirrors_left_right() {
                let x = fr.center().x;
                dashed(
                    painter,
                    Pos2::new(x, fr.top() - 6.0),
                    Pos2::new(x, fr.bottom() + 6.0),
                    stroke,
                );
            }
            if mirror.mirrors_top_bottom() {
                let y = fr.center().y;
                dashed(
                    painter,
                    Pos2::new(fr.left() - 6.0, y),
                    Pos2::new(fr.right() + 6.0, y),
                    stroke,
                );
            }
        }
    }

    fn draw_state(&self, painter: &egui::Painter, state: &StateOverlay) {
        let gap = (self.cell_size * 0.04).clamp(0.5, 2.0);
        for (x, y, look) in state.picture.cells.iter() {
            let r = self.cell_rect(x, y).shrink(gap);
            palette::paint_look(painter, r, look);
        }
        painter.rect_stroke(
            Rect::from_two_pos(self.board_rect.min, self.board_rect.max).expand(3.0),
            4.0,
            Stroke::new(2.0, palette::STATE_FRAME),
            StrokeKind::Outside,
        );
    }

    #[allow(clippy::too_many_arguments)]
    fn draw_readouts(
        &self,
        ui: &egui::Ui,
        painter: &egui::Painter,
        area: Rect,
        header: std::sync::Arc<egui::Galley>,
        board: &Board,
        state: Option<&StateOverlay>,
        cell: Option<(usize, usize)>,
    ) {
        // Opaque bands, so a zoomed or panned board never runs under the text.
        let band = palette::CANVAS_BG.gamma_multiply(0.92);
        let top = Rect::from_min_size(area.min, Vec2::new(area.width(), header.size().y + 16.0));
        painter.rect_filled(top, 0.0, band);
        let text = ui.visuals().strong_text_color();
        painter.galley(area.left_top() + Vec2::new(10.0, 8.0), header, text);
        let font = FontId::proportional(14.0);
        let hover = match cell {
            Some((x, y)) if state.is_none() => {
                let markers = board.markers();
                let marker = if markers.cells.contains(&(x, y)) {
                    format!(" · {}", markers.name)
                } else {
                    String::new()
                };
                format!("Cell ({x}, {y}) · {}{marker}", board.tile_name(x, y))
            }
            Some((x, y)) => format!("Cell ({x}, {y})"),
            // A narrow canvas gets the short form, so the line is never cut mid-word.
            None if area.width() < 460.0 => {
                "Paint: left · pan: right drag · zoom: Ctrl+wheel".to_string()
            }
            None => "Left: paint · middle/right drag: pan · Ctrl+wheel: zoom".to_string(),
        };
        let bottom = Rect::from_min_max(area.left_bottom() - Vec2::new(0.0, 30.0), area.max);
        painter.rect_filled(bottom, 0.0, band);
        // One line, ended with "…" when it still does not fit.
        let mut job =
            egui::text::LayoutJob::simple_singleline(hover, font, ui.visuals().text_color());
        job.wrap = egui::text::TextWrapping::truncate_at_width((area.width() - 20.0).max(40.0));
        let galley = ui.fonts_mut(|f| f.layout_job(job));
        painter.galley(
            area.left_bottom() + Vec2::new(10.0, -8.0 - galley.size().y),
            galley,
            ui.visuals().text_color(),
        );
    }
}

/// The bands of the canvas this frame: the header above the board, the footer (and a
/// long level's minimap) below it.
struct Bands {
    /// The header's height, in points.
    header_h: f32,
    /// The footer's height, minimap included.
    footer_h: f32,
    /// A long (side-scrolling) level, fitted to the height.
    long: bool,
    /// The game's overlay is drawn (its legend needs room under the board).
    overlay: bool,
}

/// The line above the board: the graph state shown, or the level's size, symmetry and markers.
fn header_text(board: &Board, state: Option<&StateOverlay>) -> String {
    match state {
        Some(s) => format!(
            "Graph state: {}   (click the canvas or press Esc to edit the level)",
            s.picture.caption
        ),
        None => {
            let (sw, sh) = board.size();
            let markers = board.markers();
            let what = if board.play_area().is_some() {
                "Size"
            } else {
                "Grid"
            };
            let mut line = format!("{what} {sw}×{sh}   ·   Symmetry {}", board.symmetry());
            if !markers.name.is_empty() {
                line += &format!("   ·   {} {}s", markers.cells.len(), markers.name);
            }
            line
        }
    }
}

fn dashed(painter: &egui::Painter, a: Pos2, b: Pos2, stroke: Stroke) {
    painter.extend(egui::Shape::dashed_line(&[a, b], stroke, 6.0, 4.0));
}
