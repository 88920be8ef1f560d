//! The Mario AI Framework text a level was imported from, kept with the level and written
//! back on export. The text rides in one of the level's tags, so the editor carries it and a
//! pack's RON saves it. An export of a level nobody changed is the imported file, byte for
//! byte; after edits, every cell that still reads as it did keeps its source letter, and only
//! the edited cells (and any whose source letter would now read differently) take the
//! studio's letters. Line ends and the end of the file stay the source's.

use super::{mario_ai_letter, read_mario_ai, write, Format};
use crate::level::MarioLevel;

/// The start of the tag that keeps a level's framework source text; the text follows it.
pub const SOURCE_TAG: &str = "mario-ai source:\n";

/// The tag that keeps `text`, the framework file a level was imported from, with the level.
pub fn source_tag(text: &str) -> String {
    format!("{SOURCE_TAG}{text}")
}

/// The framework text a level was imported from, when its tags keep one.
pub fn source_text(tags: &[String]) -> Option<&str> {
    tags.iter().find_map(|t| t.strip_prefix(SOURCE_TAG))
}

/// `level` as Mario AI Framework text. With the `source` it was imported from, the text is
/// the source's wherever the level is unchanged: the source itself, byte for byte, when no
/// cell changed; else the source with the letters of changed cells replaced. Without a
/// source, or with one that no longer fits the level (another size, or text that does not
/// read), it is [`write`]'s text in the studio's letters.
pub fn write_mario_ai(level: &MarioLevel, source: Option<&str>) -> String {
    source
        .and_then(|text| SourceRows::fitting(text, level))
        .and_then(|rows| rows.rewrite(level))
        .unwrap_or_else(|| write(level, Format::MarioAi))
}

/// A source text cut into its grid rows (letters and line end apart) and what follows them.
struct SourceRows<'a> {
    /// Each grid row: its letters, and the line end that follows them as the source has it.
    rows: Vec<(Vec<char>, &'a str)>,
    /// Whatever follows the grid rows (blank lines the reader skips).
    tail: &'a str,
    /// The level the source reads as.
    imported: MarioLevel,
}

impl<'a> SourceRows<'a> {
    /// The source's rows, when it reads as a level of `level`'s size.
    fn fitting(text: &'a str, level: &MarioLevel) -> Option<Self> {
        let imported = read_mario_ai(text).ok()?;
        if (imported.width(), imported.height()) != (level.width(), level.height()) {
            return None;
        }
        // The reader's rows are the text's first lines, each without its `\r`s.
        let mut rest = text;
        let mut rows = Vec::with_capacity(level.height());
        for _ in 0..level.height() {
            let line_length = rest.find('\n').map_or(rest.len(), |i| i + 1);
            let (line, after) = rest.split_at(line_length);
            let letters = line.trim_end_matches('\n').trim_end_matches('\r');
            let row: Vec<char> = letters.chars().collect();
            if row.len() != level.width() {
                return None;
            }
            rows.push((row, &line[letters.len()..]));
            rest = after;
        }
        Some(Self {
            rows,
            tail: rest,
            imported,
        })
    }

    /// The source with the letters of the cells to write anew replaced by the studio's. The
    /// cells changed since the import are written anew first; then, as long as the text
    /// reads other than `level` somewhere, those cells too (a kept `t` whose neighbour was
    /// erased reads as another pipe part; a start the framework would place elsewhere).
    /// `None` when the text does not read as a level.
    fn rewrite(&self, level: &MarioLevel) -> Option<String> {
        let width = level.width();
        let mut anew: Vec<bool> = level
            .cells()
            .iter()
            .map(|(x, y, tile)| tile != self.imported.get(x, y))
            .collect();
        loop {
            let text = self.text(level, &anew);
            let back = read_mario_ai(&text).ok()?;
            let mut grew = false;
            for (x, y, tile) in level.cells().iter() {
                if back.get(x, y) != tile && !anew[y * width + x] {
                    anew[y * width + x] = true;
                    grew = true;
                }
            }
            // Each round writes at least one more cell anew, so this ends; with every cell
            // anew the text is `write`'s.
            if !grew {
                return Some(text);
            }
        }
    }

    /// The source's text with the cells marked in `anew` in the studio's letters.
    fn text(&self, level: &MarioLevel, anew: &[bool]) -> String {
        let mut out = String::with_capacity(self.rows.len() * (level.width() + 2));
        for (y, (letters, line_end)) in self.rows.iter().enumerate() {
            for (x, &letter) in letters.iter().enumerate() {
                out.push(if anew[y * level.width() + x] {
                    mario_ai_letter(level, x, y)
                } else {
                    letter
                });
            }
            out.push_str(line_end);
        }
        out.push_str(self.tail);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tiles::Tile;

    /// A 16-row framework level of `body` at the bottom, sky above, without a final newline
    /// when `final_newline` is false.
    fn framework_text(body: &[&str], final_newline: bool) -> String {
        let width = body[0].len();
        let mut rows = vec!["-".repeat(width); 16 - body.len()];
        rows.extend(body.iter().map(|r| r.to_string()));
        let mut text = rows.join("\n");
        if final_newline {
            text.push('\n');
        }
        text
    }

    const BODY: [&str; 4] = [
        "------?Q----------%%%--o----",
        "---------tt---TT--|||---*---",
        "---------tt---TT--|||---*---",
        "XXXXXXXXXXXXXXXXXXXXXXXXXXXX",
    ];

    #[test]
    fn an_unchanged_level_is_its_source_byte_for_byte() {
        for final_newline in [false, true] {
            let text = framework_text(&BODY, final_newline);
            let level = read_mario_ai(&text).unwrap();
            assert_eq!(write_mario_ai(&level, Some(&text)), text);
            // The studio's own letters differ: that is what the source is kept for.
            assert_ne!(write(&level, Format::MarioAi), text);
        }
    }

    #[test]
    fn windows_line_ends_and_trailing_blank_lines_are_kept() {
        let text = framework_text(&BODY, true).replace('\n', "\r\n") + "\r\n\n";
        let level = read_mario_ai(&text).unwrap();
        assert_eq!(write_mario_ai(&level, Some(&text)), text);
    }

    /// The text with the letter at (`x`, `y`) replaced.
    fn with_letter(text: &str, x: usize, y: usize, letter: char) -> String {
        let mut rows: Vec<String> = text.split('\n').map(String::from).collect();
        let mut row: Vec<char> = rows[y].chars().collect();
        row[x] = letter;
        rows[y] = row.into_iter().collect();
        rows.join("\n")
    }

    #[test]
    fn an_edited_cell_changes_only_its_letter() {
        let text = framework_text(&BODY, false);
        let level = read_mario_ai(&text).unwrap();
        let mut cells = level.cells().clone();
        cells.set(3, 10, Tile::Brick);
        // The `?` box becomes a coin box: the studio writes its own letter, `!`.
        cells.set(6, 12, Tile::CoinBox);
        let edited = MarioLevel::new(cells).unwrap();
        let out = write_mario_ai(&edited, Some(&text));
        let expected = with_letter(&with_letter(&text, 3, 10, 'S'), 6, 12, '!');
        assert_eq!(out, expected);
        assert_eq!(read_mario_ai(&out).unwrap(), edited);
    }

    #[test]
    fn an_erased_pipe_half_rewrites_only_what_would_read_differently() {
        let text = framework_text(&BODY, true);
        let level = read_mario_ai(&text).unwrap();
        // The right column of the `tt` pipe erased: the kept `t`s of the left column would
        // still read as a pipe one column wide, a left half: they stay `t`.
        let mut cells = level.cells().clone();
        cells.set(10, 13, Tile::Empty);
        cells.set(10, 14, Tile::Empty);
        let edited = MarioLevel::new(cells).unwrap();
        let out = write_mario_ai(&edited, Some(&text));
        assert_eq!(
            out,
            with_letter(&with_letter(&text, 10, 13, '-'), 10, 14, '-')
        );
        assert_eq!(read_mario_ai(&out).unwrap(), edited);
        // The top `*` of the cannon erased: the `*` below would read as a cannon's head, so
        // it is written as the body it is (`b`).
        assert_eq!(level.get(24, 13), Tile::CannonTop);
        let mut cells = level.cells().clone();
        cells.set(24, 13, Tile::Empty);
        let edited = MarioLevel::new(cells).unwrap();
        let out = write_mario_ai(&edited, Some(&text));
        assert_eq!(
            out,
            with_letter(&with_letter(&text, 24, 13, '-'), 24, 14, 'b')
        );
        assert_eq!(read_mario_ai(&out).unwrap(), edited);
    }

    #[test]
    fn a_start_the_framework_would_place_elsewhere_is_written_as_m() {
        // No `M`: the start is on the first column's floor, and stays unwritten.
        let text = framework_text(&BODY, false);
        let level = read_mario_ai(&text).unwrap();
        assert_eq!(level.start_cell(), Some((0, 14)));
        // The floor under it dug out: the framework would now start Mario elsewhere, so the
        // studio's start is written, as `M`.
        let mut cells = level.cells().clone();
        cells.set(0, 15, Tile::Empty);
        let edited = MarioLevel::new(cells).unwrap();
        let out = write_mario_ai(&edited, Some(&text));
        assert_eq!(
            out,
            with_letter(&with_letter(&text, 0, 15, '-'), 0, 14, 'M')
        );
        assert_eq!(read_mario_ai(&out).unwrap(), edited);
    }

    #[test]
    fn a_source_of_another_size_or_none_gives_the_studios_letters() {
        let text = framework_text(&BODY, false);
        let level = read_mario_ai(&text).unwrap();
        let normalised = write(&level, Format::MarioAi);
        assert_eq!(write_mario_ai(&level, None), normalised);
        let narrow = read_mario_ai(&framework_text(&BODY.map(|r| &r[..20]), false)).unwrap();
        assert_eq!(
            write_mario_ai(&narrow, Some(&text)),
            write(&narrow, Format::MarioAi)
        );
        assert_eq!(write_mario_ai(&level, Some("not a level")), normalised);
    }

    #[test]
    fn the_source_tag_holds_the_text() {
        let text = framework_text(&BODY, false);
        let tags = vec!["imported".to_string(), source_tag(&text)];
        assert_eq!(source_text(&tags), Some(text.as_str()));
        assert_eq!(source_text(&tags[..1]), None);
    }
}
