//! The Help window (Help menu or F1): every keyboard shortcut and mouse gesture on one sheet.

/// What the sheet lists: action, keys or gesture.
pub const SHORTCUTS: [(&str, &str); 15] = [
    ("Brush / Rectangle / Fill / Eyedropper", "B / R / F / I"),
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
        "Add a candidate to the pack",
        "drag it onto the strip, or “+ Pack”",
    ),
    (
        "Leave a graph state on the canvas",
        "Esc or a click on the canvas",
    ),
    (
        "Playtest: move / undo a move",
        "arrows or WASD / Backspace or U",
    ),
    ("Playtest (dungeon): sword / wait a tick", "Space / ."),
    ("This sheet", "F1"),
];

/// Shows the sheet while `open` is true (its close button clears it).
pub fn show(ctx: &egui::Context, open: &mut bool) {
    egui::Window::new("Keyboard shortcuts")
        .open(open)
        .resizable(false)
        .collapsible(false)
        .show(ctx, |ui| {
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
                });
        });
}
