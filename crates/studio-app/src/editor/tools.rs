//! The canvas tools: brush strokes (mirrored by the chosen symmetry, the game's unique tile
//! painted once), rectangles, flood fill and the eyedropper, turned into [`EditCommand`]s.

use super::canvas::{CanvasOutput, CanvasView};
use super::cells::{brush_targets, line_cells, rect_cells, selection_of};
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
