//! Small widgets shared by the panels.

use std::fmt::Display;
use std::ops::RangeInclusive;

/// A number field that can be typed into or dragged, for a value with a valid range. A value
/// outside the range (typed or dragged past an end) is set to the nearest end, and the
/// message saying so is kept in `note` until the field next changes within its range.
/// `speed` is how much the value moves per point dragged.
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
    let response = ui.add(egui::DragValue::new(value).speed(speed));
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
