//! A 5×7 pixel font for labels in exported pictures (the PNG sheet, Tiled tileset images),
//! so exports need no font file. Letters are drawn as capitals; characters it lacks are
//! drawn as `?`.

use image::{Rgb, RgbImage};

/// Pixels a character advances (5 wide plus a gap).
pub const ADVANCE: u32 = 6;
/// Height of a line of text in pixels.
pub const HEIGHT: u32 = 7;

/// The rows of a character, top first; bit 4 is the leftmost pixel.
fn glyph(c: char) -> [u8; 7] {
    match c.to_ascii_uppercase() {
        'A' => [14, 17, 17, 31, 17, 17, 17],
        'B' => [30, 17, 17, 30, 17, 17, 30],
        'C' => [14, 17, 16, 16, 16, 17, 14],
        'D' => [30, 17, 17, 17, 17, 17, 30],
        'E' => [31, 16, 16, 30, 16, 16, 31],
        'F' => [31, 16, 16, 30, 16, 16, 16],
        'G' => [14, 17, 16, 23, 17, 17, 15],
        'H' => [17, 17, 17, 31, 17, 17, 17],
        'I' => [14, 4, 4, 4, 4, 4, 14],
        'J' => [7, 2, 2, 2, 2, 18, 12],
        'K' => [17, 18, 20, 24, 20, 18, 17],
        'L' => [16, 16, 16, 16, 16, 16, 31],
        'M' => [17, 27, 21, 21, 17, 17, 17],
        'N' => [17, 17, 25, 21, 19, 17, 17],
        'O' => [14, 17, 17, 17, 17, 17, 14],
        'P' => [30, 17, 17, 30, 16, 16, 16],
        'Q' => [14, 17, 17, 17, 21, 18, 13],
        'R' => [30, 17, 17, 30, 20, 18, 17],
        'S' => [15, 16, 16, 14, 1, 1, 30],
        'T' => [31, 4, 4, 4, 4, 4, 4],
        'U' => [17, 17, 17, 17, 17, 17, 14],
        'V' => [17, 17, 17, 17, 17, 10, 4],
        'W' => [17, 17, 17, 21, 21, 21, 10],
        'X' => [17, 17, 10, 4, 10, 17, 17],
        'Y' => [17, 17, 10, 4, 4, 4, 4],
        'Z' => [31, 1, 2, 4, 8, 16, 31],
        '0' => [14, 17, 19, 21, 25, 17, 14],
        '1' => [4, 12, 4, 4, 4, 4, 14],
        '2' => [14, 17, 1, 2, 4, 8, 31],
        '3' => [31, 2, 4, 2, 1, 17, 14],
        '4' => [2, 6, 10, 18, 31, 2, 2],
        '5' => [31, 16, 30, 1, 1, 17, 14],
        '6' => [6, 8, 16, 30, 17, 17, 14],
        '7' => [31, 1, 2, 4, 8, 8, 8],
        '8' => [14, 17, 17, 14, 17, 17, 14],
        '9' => [14, 17, 17, 15, 1, 2, 12],
        ' ' => [0; 7],
        '.' => [0, 0, 0, 0, 0, 12, 12],
        ',' => [0, 0, 0, 0, 12, 4, 8],
        '-' => [0, 0, 0, 31, 0, 0, 0],
        '_' => [0, 0, 0, 0, 0, 0, 31],
        ':' => [0, 12, 12, 0, 12, 12, 0],
        '(' => [2, 4, 8, 8, 8, 4, 2],
        ')' => [8, 4, 2, 2, 2, 4, 8],
        '/' => [0, 1, 2, 4, 8, 16, 0],
        '#' => [10, 10, 31, 10, 31, 10, 10],
        '\'' => [4, 4, 8, 0, 0, 0, 0],
        '+' => [0, 4, 4, 31, 4, 4, 0],
        '=' => [0, 0, 31, 0, 31, 0, 0],
        '%' => [24, 25, 2, 4, 8, 19, 3],
        '!' => [4, 4, 4, 4, 4, 0, 4],
        '×' => [0, 17, 10, 4, 10, 17, 0],
        '…' => [0, 0, 0, 0, 0, 0, 21],
        _ => [14, 17, 1, 2, 4, 0, 4],
    }
}

/// Width in pixels of `text` in this font.
pub fn width(text: &str) -> u32 {
    text.chars().count() as u32 * ADVANCE
}

/// `text`, shortened with `…` to fit `max` pixels.
pub fn fit(text: &str, max: u32) -> String {
    let room = (max / ADVANCE) as usize;
    if text.chars().count() <= room {
        return text.to_string();
    }
    let mut out: String = text.chars().take(room.saturating_sub(1)).collect();
    out.push('…');
    out
}

/// Draws `text` with its top-left corner at (`x`, `y`); pixels outside the image are
/// skipped.
pub fn draw(img: &mut RgbImage, x: u32, y: u32, text: &str, colour: [u8; 3]) {
    for (k, c) in text.chars().enumerate() {
        let left = x + k as u32 * ADVANCE;
        for (row, bits) in glyph(c).iter().enumerate() {
            for col in 0..5u32 {
                if bits & (16 >> col) != 0 {
                    let (px, py) = (left + col, y + row as u32);
                    if px < img.width() && py < img.height() {
                        img.put_pixel(px, py, Rgb(colour));
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_drawn_where_asked_and_long_text_is_shortened() {
        let mut img = RgbImage::new(40, 10);
        draw(&mut img, 1, 1, "I", [255, 255, 255]);
        // The I's top bar spans x 2..=4 (its cell starts at x 1).
        assert_eq!(img.get_pixel(2, 1).0, [255, 255, 255]);
        assert_eq!(img.get_pixel(1, 1).0, [0, 0, 0]);
        assert_eq!(fit("abcdefgh", 30), "abcd…");
        assert_eq!(fit("abc", 30), "abc");
        assert_eq!(width("abc"), 18);
        // Characters the font lacks still draw something.
        draw(&mut img, 20, 1, "é", [255, 255, 255]);
        assert!(img.pixels().filter(|p| p.0[0] == 255).count() > 10);
    }
}
