//! The canvas tools: brush strokes (mirrored by the chosen symmetry, the game's unique tile
//! painted once), rectangles, flood fill and the eyedropper, turned into [`EditCommand`]s.

use super::canvas::{CanvasOutput, CanvasView};
use crate::board::{Board, Tile};
use crate::editor::EditCommand;
use crate::studio::settings::{Tool, ToolState};

impl CanvasView {
    #[allow(clippy::too_many_arguments)]
    pub(super) fn handle_tool(
        &mut self,
        ui: &egui::Ui,
        response: &egui::Response,
        board: &Board,
        tools: &mut ToolState,
        cell: Option<(usize, usize)>,
        primary_down: bool,
        out: &mut CanvasOutput,
    ) {
        let rules = board.rules();
        let tile = tools.tile(rules);
        let name = board.tile_name_of(tile);
        let pressed = response.is_pointer_button_down_on() && primary_down;
        let released = ui.input(|i| i.pointer.primary_released());
        let paint = |cells: &[(usize, usize)]| -> Vec<(usize, usize, Tile)> {
            brush_targets(board, tools, cells)
                .into_iter()
                .map(|(x, y)| (x, y, tile))
                .collect()
        };
        match tools.tool {
            Tool::Brush => {
                if pressed {
                    if let Some(c) = cell {
                        if !self.stroke_open {
                            out.commands.push(EditCommand::BeginStroke {
                                label: format!("Brush {name}"),
                            });
                            self.stroke_open = true;
                        }
                        let from = self.last_cell.unwrap_or(c);
                        if self.last_cell != Some(c) {
                            out.commands
                                .push(EditCommand::Paint(paint(&line_cells(from, c))));
                        }
                        self.last_cell = Some(c);
                    }
                } else if let (true, false, Some((x, y))) =
                    (response.clicked(), self.stroke_open, cell)
                {
                    // Press and release in one frame: no frame saw the button down.
                    out.commands.push(EditCommand::BeginStroke {
                        label: format!("Brush {name}"),
                    });
                    out.commands.push(EditCommand::Paint(paint(&[(x, y)])));
                    out.commands.push(EditCommand::EndStroke);
                }
            }
            Tool::Rectangle => {
                if pressed && self.rect_start.is_none() {
                    self.rect_start = cell;
                }
                if released || !primary_down {
                    if let (Some(a), Some(b)) = (self.rect_start.take(), cell) {
                        out.commands.push(EditCommand::BeginStroke {
                            label: format!("Rectangle {name}"),
                        });
                        out.commands
                            .push(EditCommand::Paint(paint(&rect_cells(a, b))));
                        out.commands.push(EditCommand::EndStroke);
                    }
                    self.rect_start = None;
                }
            }
            Tool::Fill => {
                if let (true, Some((x, y))) = (response.clicked(), cell) {
                    let region = board.flood_region(x, y);
                    out.commands.push(EditCommand::BeginStroke {
                        label: format!("Fill {name}"),
                    });
                    out.commands.push(EditCommand::Paint(paint(&region)));
                    out.commands.push(EditCommand::EndStroke);
                }
            }
            Tool::Eyedropper => {
                if let (true, Some((x, y))) = (response.clicked(), cell) {
                    tools.set_tile(rules, board.get(x, y));
                    tools.tool = Tool::Brush;
                }
            }
            Tool::Select => {
                if pressed && self.rect_start.is_none() {
                    self.rect_start = cell;
                }
                // The rectangle follows the pointer while the button is down.
                if let (Some(a), Some(b)) = (self.rect_start, cell) {
                    tools.selection = Some(selection_of(a, b));
                }
                if released || !primary_down {
                    self.rect_start = None;
                }
            }
        }
    }
}

/// The cells a brush touches when it paints `cells`: each one and its mirror images under the
/// chosen symmetry (the game's unique tile, such as the cat's head, is painted once).
pub(super) fn brush_targets(
    board: &Board,
    tools: &ToolState,
    cells: &[(usize, usize)],
) -> Vec<(usize, usize)> {
    let rules = board.rules();
    let unique = rules.unique_tile() == Some(tools.tile(rules));
    let mut out = Vec::new();
    for &(x, y) in cells {
        if unique {
            out.push((x, y));
        } else {
            out.extend(Board::mirrored(
                x,
                y,
                board.mirror_frame(x, y),
                tools.mirror,
            ));
        }
    }
    out
}

/// The rectangle with corners `a` and `b` as `[x, y, width, height]`.
pub(super) fn selection_of(a: (usize, usize), b: (usize, usize)) -> [usize; 4] {
    let (x, y) = (a.0.min(b.0), a.1.min(b.1));
    [x, y, a.0.max(b.0) - x + 1, a.1.max(b.1) - y + 1]
}

/// The cells of the rectangle with corners `a` and `b`, row by row.
pub(super) fn rect_cells(a: (usize, usize), b: (usize, usize)) -> Vec<(usize, usize)> {
    let mut cells = Vec::new();
    for y in a.1.min(b.1)..=a.1.max(b.1) {
        for x in a.0.min(b.0)..=a.0.max(b.0) {
            cells.push((x, y));
        }
    }
    cells
}

/// The cells on a straight line between two cells (so fast strokes leave no holes).
pub fn line_cells(a: (usize, usize), b: (usize, usize)) -> Vec<(usize, usize)> {
    let (mut x0, mut y0) = (a.0 as i64, a.1 as i64);
    let (x1, y1) = (b.0 as i64, b.1 as i64);
    let (dx, dy) = ((x1 - x0).abs(), -(y1 - y0).abs());
    let (sx, sy) = (if x0 < x1 { 1 } else { -1 }, if y0 < y1 { 1 } else { -1 });
    let mut err = dx + dy;
    let mut out = Vec::new();
    loop {
        out.push((x0 as usize, y0 as usize));
        if x0 == x1 && y0 == y1 {
            return out;
        }
        let e2 = 2 * err;
        if e2 >= dy {
            err += dy;
            x0 += sx;
        }
        if e2 <= dx {
            err += dx;
            y0 += sy;
        }
    }
}
