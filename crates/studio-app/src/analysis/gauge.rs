//! The difficulty gauge, drawn from what the game's analysis returns ([`Gauge`]): the
//! headline and verdict, the scale with its threshold and band (median moves against the
//! limit, difficulty against the non-trivial threshold), the histogram of bot
//! games, and a table of further figures (a state graph's variables).

use crate::analysis::{Analysis, Outcome};
use crate::studio::panel::{AppCommand, PanelCtx, ToolPanel};
use egui::{Align2, Color32, FontId, Rect, RichText, Sense, Stroke, Vec2};
use egui_plot::{Bar, BarChart, Line, Plot, Points, VLine};
use studio_core::game::{Gauge, GaugeCurve, GaugeHistogram};
use studio_ui::palette;

/// The gauge panel: it shows the live analysis; each game keeps its own bot seed and number
/// of games for the Validate button (an edit of one game never plays the 500 games another
/// validation asked for).
#[derive(Debug, Default)]
pub struct GaugePanel {
    /// Per game: the bot seed and games typed in its Validate row.
    fields: std::collections::HashMap<studio_core::game::GameId, (u64, u32)>,
    /// Per game: what its last Validate asked for (the analysis plays that until the
    /// designer asks again).
    validated: std::collections::HashMap<studio_core::game::GameId, (u64, u32)>,
    /// Per game: why a typed number of games was changed (a game's note never shows in
    /// another game's gauge).
    notes: std::collections::HashMap<studio_core::game::GameId, String>,
}

/// The bot games the Validate row allows.
pub const GAMES: std::ops::RangeInclusive<u32> = 1..=500;

impl GaugePanel {
    /// The seed and games `game`'s last Validate asked for (`None`: the game's defaults).
    pub fn validated(&self, game: studio_core::game::GameId) -> Option<(u64, u32)> {
        self.validated.get(&game).copied()
    }

    /// Records what `game`'s Validate asked for.
    pub fn set_validated(&mut self, game: studio_core::game::GameId, seed: u64, games: u32) {
        self.validated.insert(game, (seed, games));
        self.fields.insert(game, (seed, games));
    }
}

impl ToolPanel for GaugePanel {
    fn name(&self) -> &'static str {
        "Difficulty"
    }

    fn ui(&mut self, ui: &mut egui::Ui, ctx: &mut PanelCtx<'_>) {
        let revision = ctx.editor.revision();
        let outcome = ctx.analysis.last.as_ref();
        let stale = outcome.map(|o| o.revision != revision).unwrap_or(true);
        ui.horizontal(|ui| {
            ui.heading("Difficulty");
            if ctx.analysis.busy() || stale {
                ui.add(egui::Spinner::new().size(14.0));
                ui.weak("re-validating…");
            } else if let Some(o) = outcome {
                ui.weak(format!("answered in {:.0} ms", o.latency_ms))
                    .on_hover_text(format!(
                    "{:.1} ms of work on the worker; the rest is the debounce after the last edit",
                    o.work_ms
                ));
            }
        });
        match outcome {
            None => {
                ui.weak("Waiting for the first analysis…");
            }
            Some(Outcome { result: Err(e), .. }) => {
                ui.label(
                    RichText::new(format!("Error: {e}"))
                        .color(palette::BAD)
                        .strong(),
                );
            }
            Some(Outcome {
                result: Ok(a), why, ..
            }) => {
                draw_gauge(ui, a, stale, why.as_deref().filter(|_| !stale));
                if a.gauge.histogram.is_some() {
                    self.validate_row(ui, ctx);
                }
            }
        }
    }
}

impl GaugePanel {
    /// Bot seed and games, and a Validate button that plays the level again with them (for
    /// games whose analysis plays bot games).
    fn validate_row(&mut self, ui: &mut egui::Ui, ctx: &mut PanelCtx<'_>) {
        let default_games =
            studio_core::game::find(ctx.game.as_str()).map_or(30, |g| g.default_games());
        let (mut seed, mut games) = self
            .fields
            .get(&ctx.game)
            .copied()
            .unwrap_or((0, default_games));
        let mut note = self.notes.remove(&ctx.game);
        ui.horizontal(|ui| {
            let l = ui.label("Bot seed");
            ui.add(egui::DragValue::new(&mut seed))
                .labelled_by(l.id)
                .on_hover_text("Base seed of the bot games (the same seed gives the same figures)");
            let l = ui.label("Games");
            studio_ui::widgets::bounded_number(ui, &mut games, GAMES, "Games", &mut note, 1.0)
                .labelled_by(l.id)
                .on_hover_text(format!(
                    "Bot games per validation, 1 to 500 ({default_games} by default)"
                ));
            if ui
                .button("Validate")
                .on_hover_text("Play the level again with this seed and number of games")
                .clicked()
            {
                ctx.commands.push(AppCommand::Validate { seed, games });
            }
        });
        if let Some(n) = &note {
            ui.colored_label(palette::BAD, n);
        }
        if let Some(n) = note {
            self.notes.insert(ctx.game, n);
        }
        self.fields.insert(ctx.game, (seed, games));
    }
}

/// A horizontal scale with a marker, an optional band and a threshold line.
fn scale_bar(
    ui: &mut egui::Ui,
    max: f64,
    value: f64,
    band: Option<(f64, f64)>,
    threshold: f64,
    threshold_label: &str,
    good_below: bool,
) {
    let width = ui.available_width().min(420.0);
    let (rect, response) = ui.allocate_exact_size(Vec2::new(width, 46.0), Sense::hover());
    response.on_hover_text(format!(
        "The dot is this level's figure ({value:.1}); the line is the threshold ({threshold_label}); \
         the blue band, where shown, is the spread of the bot games. Green is the good side."
    ));
    let p = ui.painter_at(rect);
    // Inset by the marker's radius so a value at either end is drawn whole.
    let bar = Rect::from_min_size(
        rect.min + Vec2::new(9.0, 14.0),
        Vec2::new(rect.width() - 18.0, 14.0),
    );
    let x_of = |v: f64| bar.left() + (v.clamp(0.0, max) / max) as f32 * bar.width();
    let (left, right) = if good_below {
        (palette::GOOD, palette::BAD)
    } else {
        (palette::BAD, palette::GOOD)
    };
    let t = x_of(threshold);
    p.rect_filled(
        Rect::from_min_max(bar.min, egui::pos2(t, bar.max.y)),
        3.0,
        left.gamma_multiply(0.35),
    );
    p.rect_filled(
        Rect::from_min_max(egui::pos2(t, bar.min.y), bar.max),
        3.0,
        right.gamma_multiply(0.35),
    );
    if let Some((lo, hi)) = band {
        let b = Rect::from_min_max(
            egui::pos2(x_of(lo), bar.min.y - 3.0),
            egui::pos2(x_of(hi), bar.max.y + 3.0),
        );
        p.rect_filled(b, 2.0, Color32::from_rgba_unmultiplied(120, 170, 255, 90));
    }
    p.line_segment(
        [
            egui::pos2(t, bar.min.y - 6.0),
            egui::pos2(t, bar.max.y + 6.0),
        ],
        Stroke::new(2.0, ui.visuals().strong_text_color()),
    );
    p.text(
        egui::pos2(t, rect.top()),
        Align2::CENTER_TOP,
        threshold_label,
        FontId::proportional(11.0),
        ui.visuals().text_color(),
    );
    let vx = x_of(value);
    let colour = if (value <= threshold) == good_below {
        palette::GOOD
    } else {
        palette::BAD
    };
    p.circle_filled(egui::pos2(vx, bar.center().y), 7.0, colour);
    p.circle_stroke(
        egui::pos2(vx, bar.center().y),
        7.0,
        Stroke::new(1.5, Color32::WHITE),
    );
    if value > max {
        // Off the scale: the handle waits at the end with the figure beside it.
        p.text(
            egui::pos2(vx - 10.0, bar.top() - 2.0),
            Align2::RIGHT_BOTTOM,
            format!("{value:.0} ›"),
            FontId::proportional(11.0),
            ui.visuals().strong_text_color(),
        );
    }
    p.text(
        egui::pos2(bar.left(), bar.bottom() + 3.0),
        Align2::LEFT_TOP,
        "0",
        FontId::proportional(11.0),
        ui.visuals().weak_text_color(),
    );
    p.text(
        egui::pos2(bar.right(), bar.bottom() + 3.0),
        Align2::RIGHT_TOP,
        format!("{max:.0}"),
        FontId::proportional(11.0),
        ui.visuals().weak_text_color(),
    );
}

/// Draws one game's gauge: headline and verdict, notes, the scale, playthroughs, figures.
///
/// `why`: the game's line on why the figures moved at the last edit, under the headline.
fn draw_gauge(ui: &mut egui::Ui, a: &Analysis, stale: bool, why: Option<&str>) {
    let g = &a.gauge;
    let colour = if a.verdict.pass {
        palette::GOOD
    } else {
        palette::BAD
    };
    let colour = if stale {
        colour.gamma_multiply(0.5)
    } else {
        colour
    };
    ui.horizontal(|ui| {
        let headline = RichText::new(&g.headline).size(20.0).strong();
        // A headline that already is the verdict ("Unsolvable") is not followed by it again.
        let same = g.headline.eq_ignore_ascii_case(&a.verdict.label);
        if g.value.is_some() && !same {
            ui.label(headline);
        } else {
            ui.label(headline.color(if same { colour } else { palette::BAD }))
                .on_hover_text(&a.verdict.reason);
        }
        if !same {
            ui.label(
                RichText::new(&a.verdict.label)
                    .size(16.0)
                    .strong()
                    .color(colour),
            )
            .on_hover_text(&a.verdict.reason);
        }
    });
    if let Some(why) = why {
        ui.label(RichText::new(format!("Why: {why}")).italics())
            .on_hover_text(
                "What the game's agents did where you just edited, against the analysis \
                 before the edit",
            );
    }
    for note in &g.notes {
        ui.label(note);
    }
    if let (Some(value), Some((threshold, label))) = (g.value, &g.threshold) {
        scale_bar(
            ui,
            g.scale.1,
            value,
            g.band.map(|b| (b.low, b.high)),
            *threshold,
            label,
            g.good_below,
        );
    }
    if let Some(h) = &g.histogram {
        histogram(ui, g, h);
    }
    if let Some(c) = &g.curve {
        curve(ui, c);
    }
    if let Some((title, rates)) = &g.rates {
        rate_bars(ui, title, rates);
    }
    for (title, rows) in &g.tables {
        // Known by the title's name, not its figures, so a section the designer closed stays
        // closed when another level (with other figures) is opened.
        let stable = title
            .split(['(', ':'])
            .next()
            .unwrap_or(title)
            .trim()
            .to_string();
        egui::CollapsingHeader::new(title.as_str())
            .id_salt(("gauge-section", stable))
            .default_open(true)
            .show(ui, |ui| {
                // Two figures a row while they are short; one a row (wrapped) otherwise.
                let per_row = if rows.iter().all(|(_, v)| v.chars().count() <= 16) {
                    2
                } else {
                    1
                };
                egui::Grid::new(("gauge-table", title))
                    .num_columns(2 * per_row)
                    .spacing([12.0, 2.0])
                    .striped(true)
                    .show(ui, |ui| {
                        for pair in rows.chunks(per_row) {
                            for (name, value) in pair {
                                ui.weak(name.as_str());
                                let label = egui::Label::new(RichText::new(value).monospace());
                                if per_row == 1 {
                                    ui.add(label.wrap());
                                } else {
                                    ui.add(label.extend());
                                }
                            }
                            ui.end_row();
                        }
                    });
            });
    }
}

/// One labelled bar per share (an agent's win rate), 0 to 100 % across the panel.
fn rate_bars(ui: &mut egui::Ui, title: &str, rates: &[(String, f64)]) {
    ui.label(RichText::new(title).small());
    let row = 16.0;
    let figure_w = 40.0;
    // As wide as the longest name ("interestingness"), so no name is cut.
    let label_w = rates
        .iter()
        .map(|(name, _)| {
            ui.fonts_mut(|f| {
                f.layout_no_wrap(name.clone(), FontId::proportional(12.0), Color32::WHITE)
                    .size()
                    .x
            })
        })
        .fold(78.0_f32, f32::max)
        + 8.0;
    let width = ui.available_width().max(label_w + figure_w + 40.0);
    let (rect, _) =
        ui.allocate_exact_size(Vec2::new(width, row * rates.len() as f32), Sense::hover());
    let p = ui.painter_at(rect);
    let text = ui.visuals().text_color();
    let track = ui.visuals().extreme_bg_color;
    for (i, (name, share)) in rates.iter().enumerate() {
        let top = rect.top() + row * i as f32;
        let mid = top + row / 2.0;
        p.text(
            egui::pos2(rect.left(), mid),
            Align2::LEFT_CENTER,
            name,
            FontId::proportional(12.0),
            text,
        );
        let bar = Rect::from_min_max(
            egui::pos2(rect.left() + label_w, top + 3.0),
            egui::pos2(rect.right() - figure_w, top + row - 3.0),
        );
        p.rect_filled(bar, 2.0, track);
        let share = share.clamp(0.0, 1.0) as f32;
        let filled = Rect::from_min_size(bar.min, Vec2::new(bar.width() * share, bar.height()));
        p.rect_filled(filled, 2.0, palette::GOOD.gamma_multiply(0.85));
        p.text(
            egui::pos2(rect.right(), mid),
            Align2::RIGHT_CENTER,
            format!("{:.0} %", share * 100.0),
            FontId::monospace(11.0),
            text,
        );
    }
}

/// A game's curve with the level's place on it (Mario's r_diff), its axes named.
fn curve(ui: &mut egui::Ui, c: &GaugeCurve) {
    ui.label(RichText::new(&c.caption).small());
    Plot::new("gauge-curve")
        .height(110.0)
        .x_axis_label(c.axes.0.as_str())
        .y_axis_label(c.axes.1.as_str())
        .allow_drag(false)
        .allow_zoom(false)
        .allow_scroll(false)
        .allow_double_click_reset(false)
        .include_y(0.0)
        .include_y(1.05)
        .show(ui, |plot| {
            plot.line(Line::new("curve", c.points.clone()).color(Color32::from_gray(190)));
            if let Some(m) = c.marker {
                plot.points(
                    Points::new("this level", vec![m])
                        .radius(5.0)
                        .color(palette::ACCENT),
                );
                plot.vline(VLine::new("this level's damage", m[0]).color(palette::ACCENT));
            }
        });
}

fn histogram(ui: &mut egui::Ui, g: &Gauge, h: &GaugeHistogram) {
    ui.label(RichText::new(&h.caption).small());
    let own_axis = h.own_axis;
    let threshold = g.threshold.as_ref().map(|t| t.0).filter(|_| !own_axis);
    let good = |x: f64| !own_axis && threshold.is_none_or(|t| (x <= t) == g.good_below);
    let bars: Vec<Bar> = h
        .bars
        .iter()
        .map(|&(x, n)| {
            let fill = if good(x) { palette::GOOD } else { palette::BAD };
            Bar::new(x, f64::from(n)).width(0.85).fill(fill)
        })
        .collect();
    // A fixed count axis (at most three steps, labels always shown) so the labels do not fade
    // in and out as the tallest bar changes from one validation to the next.
    let tallest = h
        .bars
        .iter()
        .map(|&(_, n)| f64::from(n))
        .fold(1.0, f64::max);
    let step = count_step(tallest);
    let top = (tallest / step).ceil() * step;
    Plot::new("gauge-histogram")
        .height(140.0)
        .y_grid_spacer(move |input| {
            (0..)
                .map(|k| f64::from(k) * step)
                .take_while(|&v| v <= input.bounds.1)
                .map(|value| egui_plot::GridMark {
                    value,
                    step_size: step,
                })
                .collect()
        })
        .custom_y_axes(vec![egui_plot::AxisHints::new_y()
            .min_thickness(28.0)
            .label_spacing(0.0..=1.0)])
        .allow_drag(false)
        .allow_zoom(false)
        .allow_scroll(false)
        .allow_double_click_reset(false)
        .include_x(if own_axis { -0.5 } else { g.scale.0 })
        .include_x(if own_axis {
            h.bars.len() as f64 - 0.5
        } else {
            g.scale.1 + 1.0
        })
        .include_y(0.0)
        .include_y(top)
        .show_grid([false, true])
        .show(ui, |plot| {
            plot.bar_chart(BarChart::new("games", bars));
            if let Some(t) = threshold {
                plot.vline(
                    VLine::new("threshold", t + 0.5)
                        .color(Color32::from_gray(200))
                        .width(1.5),
                );
            }
            if let Some(v) = g.value.filter(|_| !own_axis) {
                plot.vline(VLine::new("value", v).color(palette::ACCENT).width(2.0));
            }
        });
}

/// The step of the histogram's count axis: the smallest round step that covers `tallest` in at
/// most three steps.
pub fn count_step(tallest: f64) -> f64 {
    [
        1.0, 2.0, 5.0, 10.0, 20.0, 25.0, 50.0, 100.0, 200.0, 250.0, 500.0,
    ]
    .into_iter()
    .find(|s| (tallest / s).ceil() <= 3.0)
    .unwrap_or_else(|| (tallest / 3.0).ceil())
}
