//! The Help window (Help menu or F1): every keyboard shortcut and mouse gesture on one sheet.

/// What the sheet lists: action, keys or gesture.
pub const SHORTCUTS: [(&str, &str); 19] = [
    (
        "Brush / Rectangle / Fill / Eyedropper / Select",
        "B / R / F / I / M",
    ),
    ("Regenerate the selected cells", "G"),
    ("Clear the selection", "Esc"),
    ("Paint", "left button (one stroke = one undo step)"),
    ("Pan the canvas", "middle or right drag, mouse wheel"),
    ("Zoom the canvas", "Ctrl+wheel or pinch"),
    ("Undo / Redo", "Ctrl+Z / Ctrl+Shift+Z or Ctrl+Y"),
    ("Open / Save / Save as", "Ctrl+O / Ctrl+S / Ctrl+Shift+S"),
    ("Open a file", "drag it onto the window"),
    ("Edit a pack level", "click its card"),
    (
        "Rename a pack level",
        "double-click its card; Enter keeps, Esc drops",
    ),
    ("Reorder a pack level", "drag its card"),
    (
        "Go to pack level N",
        "Ctrl+G (or “Go to #…”), the number, Enter",
    ),
    (
        "Move a course event slider",
        "click it, then the arrow keys (0.01 a press)",
    ),
    (
        "Add a candidate to the pack",
        "drag it onto the strip, or “+ Pack”",
    ),
    (
        "Leave a graph state on the canvas",
        "Esc or a click on the canvas",
    ),
    (
        "Remove a pack level / put it back",
        "x on its card / Edit > Undo (Ctrl+Z)",
    ),
    (
        "Start / end a playtest",
        "Playtest in the menu bar; close its window to end",
    ),
    ("This sheet", "F1"),
];

/// Where the full documentation is, shown under the sheet.
pub const DOCS: &str = "docs/window.md (the window), docs/README.md (every game and model)";

/// Shows the sheet while `open` is true (its close button clears it).
pub fn show(ctx: &egui::Context, open: &mut bool) {
    egui::Window::new("Keyboard shortcuts")
        .open(open)
        .resizable(false)
        .collapsible(false)
        .show(ctx, |ui| {
            egui::ScrollArea::vertical()
                .max_height(ctx.content_rect().height() - 120.0)
                .show(ui, |ui| {
                    egui::Grid::new("shortcuts")
                        .num_columns(2)
                        .spacing([16.0, 4.0])
                        .striped(true)
                        .show(ui, |ui| {
                            for (action, keys) in SHORTCUTS {
                                ui.label(action);
                                ui.monospace(keys);
                                ui.end_row();
                            }
                            // Every registered game's playtest keys, from the game itself.
                            for game in studio_core::game::games() {
                                let keys = game.play_keys();
                                if keys.is_empty() {
                                    continue;
                                }
                                ui.strong(format!("Playtest: {}", game.name()));
                                ui.end_row();
                                for (action, keys) in keys {
                                    ui.label(format!("    {action}"));
                                    ui.monospace(keys);
                                    ui.end_row();
                                }
                            }
                        });
                });
            ui.separator();
            ui.weak(format!("More in the documentation: {DOCS}"));
        });
}
