//! The difficulty gauge: match-3 — median moves against the limit with the ±1 std band,
//! valid / invalid and the histogram of the bot games; Longcat — player-model and predicted
//! difficulty against the non-trivial threshold, and the graph variables.

use super::analysis::{Analysis, Outcome};
use super::longcat_analysis::LongcatAnalysis;
use super::palette;
use super::panel::{PanelCtx, ToolPanel};
use crate::match3::Validation;
use egui::{Align2, Color32, FontId, Rect, RichText, Sense, Stroke, Vec2};
use egui_plot::{Bar, BarChart, Plot, VLine};

/// The gauge panel (stateless: it shows the live analysis).
#[derive(Debug, Default)]
pub struct GaugePanel;

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
                let text = if e.contains("too large") {
                    format!("Graph too large: {e}")
                } else {
                    format!("Error: {e}")
                };
                ui.label(RichText::new(text).color(palette::BAD).strong());
            }
            Some(Outcome {
                result: Ok(Analysis::Match3(v)),
                ..
            }) => match3_gauge(ui, v, stale),
            Some(Outcome {
                result: Ok(Analysis::Longcat(a)),
                ..
            }) => longcat_gauge(ui, a, stale),
        }
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
    let (rect, _) = ui.allocate_exact_size(Vec2::new(width, 46.0), Sense::hover());
    let p = ui.painter_at(rect);
    let bar = Rect::from_min_size(
        rect.min + Vec2::new(0.0, 14.0),
        Vec2::new(rect.width(), 14.0),
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

fn match3_gauge(ui: &mut egui::Ui, v: &Validation, stale: bool) {
    let (verdict, colour) = if v.valid {
        ("VALID", palette::GOOD)
    } else {
        ("INVALID", palette::BAD)
    };
    ui.horizontal(|ui| {
        ui.label(
            RichText::new(format!("Median {:.1} moves", v.median_moves))
                .size(20.0)
                .strong(),
        );
        ui.label(RichText::new(verdict).size(16.0).strong().color(if stale {
            colour.gamma_multiply(0.5)
        } else {
            colour
        }));
    });
    ui.label(format!(
        "limit {} · ±1 std {:.1} · solved {}/{} games · seed {}",
        v.limit, v.std_moves, v.solved, v.games, v.seed
    ));
    let max = (2 * v.limit) as f64;
    scale_bar(
        ui,
        max,
        v.median_moves,
        Some((v.median_moves - v.std_moves, v.median_moves + v.std_moves)),
        v.limit as f64,
        "limit",
        true,
    );
    ui.label(
        RichText::new(format!(
            "Moves to reach the goal in {} bot games (40 = not solved)",
            v.games
        ))
        .small(),
    );
    let bars: Vec<Bar> = v
        .histogram
        .iter()
        .enumerate()
        .filter(|(_, &n)| n > 0)
        .map(|(i, &n)| {
            let moves = (i + 1) as f64;
            let fill = if moves <= v.limit as f64 {
                palette::GOOD
            } else {
                palette::BAD
            };
            Bar::new(moves, n as f64).width(0.85).fill(fill)
        })
        .collect();
    Plot::new("match3-histogram")
        .height(140.0)
        .allow_drag(false)
        .allow_zoom(false)
        .allow_scroll(false)
        .allow_double_click_reset(false)
        .include_x(0.0)
        .include_x(max + 1.0)
        .include_y(0.0)
        .include_y(5.0)
        .show_grid([false, true])
        .show(ui, |plot| {
            plot.bar_chart(BarChart::new("games", bars));
            plot.vline(
                VLine::new("limit", v.limit as f64 + 0.5)
                    .color(ui_text_colour())
                    .width(1.5),
            );
            plot.vline(
                VLine::new("median", v.median_moves)
                    .color(palette::ACCENT)
                    .width(2.0),
            );
        });
}

fn ui_text_colour() -> Color32 {
    Color32::from_gray(200)
}

fn longcat_gauge(ui: &mut egui::Ui, a: &LongcatAnalysis, stale: bool) {
    let threshold = a.non_trivial_threshold;
    match a.difficulty {
        Some(d) => {
            let (verdict, colour) = if d >= threshold {
                ("NON-TRIVIAL", palette::GOOD)
            } else {
                ("trivial", palette::BAD)
            };
            ui.horizontal(|ui| {
                ui.label(
                    RichText::new(format!("Difficulty {d:.2}"))
                        .size(20.0)
                        .strong(),
                );
                ui.label(RichText::new(verdict).size(15.0).strong().color(if stale {
                    colour.gamma_multiply(0.5)
                } else {
                    colour
                }));
            });
            let max = (threshold * 3.0).max(d * 1.15).max(1.0);
            scale_bar(ui, max, d, None, threshold, "non-trivial", false);
        }
        None => {
            ui.label(
                RichText::new("Unsolvable")
                    .size(20.0)
                    .strong()
                    .color(palette::BAD),
            );
        }
    }
    let predicted = a
        .predicted
        .map(|p| format!("{p:.2}"))
        .unwrap_or_else(|| "-".into());
    ui.label(format!(
        "Predicted (ridge) {predicted} · one random attempt succeeds {:.1} %",
        a.success_chance * 100.0
    ));
    if let Some(s) = &a.shortest {
        ui.label(format!("Shortest solution: {} moves  {s}", s.len()));
    }
    let v = &a.variables;
    let shortest = v
        .shortest_solution
        .map(|s| s.to_string())
        .unwrap_or_else(|| "none".into());
    egui::CollapsingHeader::new("Graph variables")
        .default_open(true)
        .show(ui, |ui| {
            egui::Grid::new("graph-variables")
                .num_columns(4)
                .spacing([12.0, 2.0])
                .striped(true)
                .show(ui, |ui| {
                    let rows = [
                        ("states", v.states.to_string()),
                        ("size", v.size.to_string()),
                        ("branches", v.branches.to_string()),
                        ("solutions", v.solutions.to_string()),
                        ("fails", v.fails.to_string()),
                        ("shortest_solution", shortest.clone()),
                        ("solution_branches", v.solution_branches.to_string()),
                        ("non_dead", v.non_dead.to_string()),
                        ("dead", v.dead.to_string()),
                        ("indeterminate", v.indeterminate.to_string()),
                        (
                            "indeterminate_branches",
                            v.indeterminate_branches.to_string(),
                        ),
                    ];
                    for pair in rows.chunks(2) {
                        for (name, value) in pair {
                            ui.weak(*name);
                            ui.monospace(value);
                        }
                        ui.end_row();
                    }
                });
        });
}
