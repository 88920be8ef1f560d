//! Exports of a pack that other tools read: the JSON export lives with the files
//! ([`crate::files::export_pack_json`]); here the labelled PNG sheet and Tiled maps, and the
//! line charts of the command line's plots.

pub mod chart;
pub mod font;
pub mod png;
pub mod tiled;

pub use png::{export_png, notes_of, render_sheet, SheetNote};

/// A level's name without a leading number that is already its place in the pack (`"01 First
/// steps"` at place 1 is `"First steps"`), so an export that numbers its levels does not
/// number them twice (`01-first-steps.tmj`, not `01-01-first-steps.tmj`). Any other name is
/// kept whole.
pub fn name_without_place(name: &str, place: usize) -> &str {
    let digits = name.bytes().take_while(u8::is_ascii_digit).count();
    let rest = &name[digits..];
    let numbered = digits > 0 && name[..digits].parse::<usize>().is_ok_and(|n| n == place);
    let separated = rest.starts_with([' ', '-', '_', '.']);
    let stripped = rest.trim_start_matches([' ', '-', '_', '.']);
    if numbered && separated && !stripped.is_empty() {
        stripped
    } else {
        name
    }
}

#[cfg(test)]
mod place_tests {
    use super::name_without_place;

    #[test]
    fn a_name_that_starts_with_its_own_place_loses_the_number() {
        assert_eq!(name_without_place("01 First steps", 1), "First steps");
        assert_eq!(name_without_place("12-boss", 12), "boss");
        // Another number, no separator, or nothing after it: kept whole.
        assert_eq!(name_without_place("02 First steps", 1), "02 First steps");
        assert_eq!(name_without_place("1up", 1), "1up");
        assert_eq!(name_without_place("01", 1), "01");
        assert_eq!(name_without_place("mario-1-1", 1), "mario-1-1");
    }
}
