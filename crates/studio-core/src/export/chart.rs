//! Small line charts as PNG, for the command line's `--plot` pictures: a white canvas, a
//! plot area with tenth gridlines, lines, dots and labels in the export font. No plotting
//! crate: the pictures are simple and the build stays lean.

use super::font;
use image::{Rgb, RgbImage};
use std::path::Path;

/// A chart being drawn: values in `x` × `y` ranges map onto the plot area.
pub struct Chart {
    img: RgbImage,
    margin: f64,
    x: (f64, f64),
    y: (f64, f64),
}

impl Chart {
    /// A blank `width` × `height` chart with `margin` pixels round the plot area, showing
    /// `x` and `y` (low, high) ranges, with gridlines at every tenth and black axes.
    pub fn new(width: u32, height: u32, margin: f64, x: (f64, f64), y: (f64, f64)) -> Self {
        let mut chart = Self {
            img: RgbImage::from_pixel(width, height, Rgb([255, 255, 255])),
            margin,
            x,
            y,
        };
        for k in 0..=10 {
            let f = f64::from(k) / 10.0;
            let shade = if k == 0 { [0, 0, 0] } else { [225, 225, 225] };
            let gx = x.0 + f * (x.1 - x.0);
            let gy = y.0 + f * (y.1 - y.0);
            chart.segment((gx, y.0), (gx, y.1), shade, 0);
            chart.segment((x.0, gy), (x.1, gy), shade, 0);
        }
        chart
    }

    /// The pixel of a value.
    pub fn px(&self, x: f64, y: f64) -> (i64, i64) {
        let (w, h) = (f64::from(self.img.width()), f64::from(self.img.height()));
        let fx = (x - self.x.0) / (self.x.1 - self.x.0);
        let fy = (y - self.y.0) / (self.y.1 - self.y.0);
        (
            (self.margin + fx * (w - 2.0 * self.margin)).round() as i64,
            (h - self.margin - fy * (h - 2.0 * self.margin)).round() as i64,
        )
    }

    fn put(&mut self, x: i64, y: i64, c: [u8; 3]) {
        if x >= 0 && y >= 0 && x < i64::from(self.img.width()) && y < i64::from(self.img.height()) {
            self.img.put_pixel(x as u32, y as u32, Rgb(c));
        }
    }

    /// A dot of radius `r` pixels at a value.
    pub fn dot(&mut self, (x, y): (f64, f64), r: i64, c: [u8; 3]) {
        let (cx, cy) = self.px(x, y);
        for dy in -r..=r {
            for dx in -r..=r {
                if dx * dx + dy * dy <= r * r {
                    self.put(cx + dx, cy + dy, c);
                }
            }
        }
    }

    /// A straight line between two values, `thick` extra pixels wide.
    pub fn segment(&mut self, a: (f64, f64), b: (f64, f64), c: [u8; 3], thick: i64) {
        let (p, q) = (self.px(a.0, a.1), self.px(b.0, b.1));
        let steps = (p.0 - q.0).abs().max((p.1 - q.1).abs()).max(1);
        for s in 0..=steps {
            let t = s as f64 / steps as f64;
            let x = (p.0 as f64 + t * (q.0 - p.0) as f64).round() as i64;
            let y = (p.1 as f64 + t * (q.1 - p.1) as f64).round() as i64;
            for dy in 0..=thick {
                for dx in 0..=thick {
                    self.put(x + dx, y + dy, c);
                }
            }
        }
    }

    /// A polyline through values (a `None` breaks it).
    pub fn line(&mut self, points: &[Option<(f64, f64)>], c: [u8; 3]) {
        for pair in points.windows(2) {
            if let (Some(a), Some(b)) = (pair[0], pair[1]) {
                self.segment(a, b, c, 1);
            }
        }
    }

    /// Text with its top-left corner at pixel (`x`, `y`).
    pub fn label(&mut self, x: u32, y: u32, text: &str, c: [u8; 3]) {
        font::draw(&mut self.img, x, y, text, c);
    }

    /// The picture.
    pub fn image(&self) -> &RgbImage {
        &self.img
    }

    /// Writes the chart as PNG (atomically).
    ///
    /// # Errors
    /// A [`FormatError`] naming the file: why it could not be encoded or written.
    pub fn save(&self, path: &Path) -> Result<(), crate::formats::FormatError> {
        let mut bytes = Vec::new();
        self.img
            .write_to(
                &mut std::io::Cursor::new(&mut bytes),
                image::ImageFormat::Png,
            )
            .map_err(|e| crate::formats::FormatError::encode(path)(&e))?;
        Ok(crate::io::write_atomic(path, &bytes)?)
    }
}
