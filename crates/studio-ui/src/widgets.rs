//! Small widgets shared by the panels.

use std::fmt::Display;
use std::ops::RangeInclusive;

/// A number field that can be typed into or dragged, for a value with a valid range. A typed
/// value counts when Enter is pressed or the field loses focus (not on every keystroke, so
/// "48" can be typed into a field whose range starts at 16). A value outside the range (typed
/// or dragged past an end) is set to the nearest end, and the message saying so is kept in
/// `note` until the field next changes within its range. `speed` is how much the value moves
/// per point dragged.
pub fn bounded_number<T>(
    ui: &mut egui::Ui,
    value: &mut T,
    range: RangeInclusive<T>,
    what: &str,
    note: &mut Option<String>,
    speed: f64,
) -> egui::Response
where
    T: egui::emath::Numeric + Display,
{
    let response = ui.add(
        egui::DragValue::new(value)
            .speed(speed)
            .update_while_editing(false),
    );
    let (lo, hi) = (*range.start(), *range.end());
    let typed = *value;
    let clamped = if typed < lo {
        Some(lo)
    } else if typed > hi {
        Some(hi)
    } else {
        None
    };
    match clamped {
        Some(c) => {
            *value = c;
            *note = Some(format!(
                "{what} {typed} is out of range ({lo}–{hi}); using {c}."
            ));
        }
        None if response.changed() => *note = None,
        None => {}
    }
    response
}

/// Lays `add` out in the width `ui` has now and clips whatever is wider, so content that
/// changes (another generator's conditions, a Stop button, a warning) never widens a side
/// panel and moves the canvas beside it (walkthrough D30). The panel is still resizable.
pub fn fixed_width<R>(ui: &mut egui::Ui, add: impl FnOnce(&mut egui::Ui) -> R) -> R {
    let rect = ui.available_rect_before_wrap();
    let mut child = ui.new_child(egui::UiBuilder::new().max_rect(rect).layout(*ui.layout()));
    child.shrink_clip_rect(rect);
    let out = add(&mut child);
    let used = egui::Rect::from_min_size(
        rect.min,
        egui::vec2(rect.width(), child.min_rect().height().min(rect.height())),
    );
    ui.allocate_rect(used, egui::Sense::hover());
    out
}
