//! The candidates grid: the generated levels as thumbnails as they arrive, each with its
//! validated figure and a valid/invalid badge; click a card to open it in the editor, "+ Pack"
//! to add it to the active pack, "More like this" to generate near it (cVAE models).

use crate::generation::generate_panel::GeneratorPanel;
use crate::pack::thumbnail::paint_thumbnail;
use crate::studio::panel::AppCommand;
use egui::{Align2, Color32, FontId, Rect, Sense, Stroke, StrokeKind, Vec2};
use studio_core::generation::Candidate;
use studio_core::level::{Game, Level};
use studio_ui::palette;

/// Size of a thumbnail in the grid.
const THUMB: Vec2 = Vec2::new(104.0, 96.0);

/// What a candidate card carries while it is dragged (onto the pack strip to add it).
#[derive(Clone, Debug)]
pub struct CandidateDrag(pub Level);

/// The first clause of a verdict's reason ("LR-like · LR A* passes" → "LR-like"), at most
/// 28 characters.
pub fn first_clause(reason: &str) -> String {
    let clause = reason
        .split([':', '·', ';', '('])
        .next()
        .unwrap_or(reason)
        .trim();
    if clause.chars().count() > 28 {
        format!("{}…", clause.chars().take(27).collect::<String>())
    } else {
        clause.to_string()
    }
}

/// The figure and badge of a candidate: text, colour.
pub fn figure_text(c: &Candidate) -> (String, String, Color32) {
    let figure = match (c.level.game.game(), c.difficulty) {
        (Ok(game), Some(d)) => game.card_text(&c.level, d),
        // Without a figure the card says why, not the badge's word again.
        _ => first_clause(&c.verdict.reason),
    };
    let colour = if c.verdict.pass {
        palette::GOOD
    } else if c.verdict.weak {
        Color32::LIGHT_GRAY
    } else {
        palette::BAD
    };
    (figure, c.verdict.label.clone(), colour)
}

impl GeneratorPanel {
    /// Draws the grid of `game`'s candidates; pushes what the designer asked for onto
    /// `commands`.
    pub fn candidates_ui(&mut self, ui: &mut egui::Ui, game: Game, commands: &mut Vec<AppCommand>) {
        let shown: Vec<usize> = (0..self.candidates.len())
            .filter(|&i| self.candidates[i].level.game == game)
            .collect();
        ui.horizontal(|ui| {
            ui.strong("Candidates");
            ui.weak(format!("{}", shown.len()));
            if self.busy() {
                ui.spinner();
            }
            if !shown.is_empty()
                && ui
                    .small_button("Clear")
                    .on_hover_text("Put these candidates aside (“Previous” brings them back)")
                    .clicked()
            {
                self.put_aside(game);
            }
            if let Some(earlier) = self.previous.get(&game) {
                if ui
                    .small_button(format!("Previous ({})", earlier.len()))
                    .on_hover_text(
                        "Swap in the candidates the last Generate, More like this or Clear \
                         put aside",
                    )
                    .clicked()
                {
                    self.swap_previous(game);
                }
            }
        });
        // Clear or Previous may have changed the set.
        let shown: Vec<usize> = (0..self.candidates.len())
            .filter(|&i| self.candidates[i].level.game == game)
            .collect();
        if shown.is_empty() {
            ui.weak(if self.busy() {
                "Generating…"
            } else {
                "Generate to see candidates here."
            });
            return;
        }
        let valid = shown
            .iter()
            .filter(|&&i| self.candidates[i].verdict.pass)
            .count();
        ui.weak(format!("{valid} of {} valid", shown.len()));
        ui.separator();
        let width = ui.available_width();
        let columns = ((width / (THUMB.x + 12.0)).floor() as usize).max(1);
        egui::ScrollArea::vertical()
            .id_salt("candidates-scroll")
            .show(ui, |ui| {
                egui::Grid::new("candidates-grid")
                    .spacing([8.0, 8.0])
                    .show(ui, |ui| {
                        self.card_rects.clear();
                        for (k, &i) in shown.iter().enumerate() {
                            let anchor = self.anchor.as_ref().is_some_and(|a| a.0 == i);
                            let rect = card(ui, i, &self.candidates[i], anchor, commands);
                            self.card_rects.push((i, rect));
                            if (k + 1) % columns == 0 {
                                ui.end_row();
                            }
                        }
                    });
            });
    }
}

/// Draws one card; returns the thumbnail's rectangle.
/// One candidate's card; `anchor` marks the level a "More like this" list started from.
fn card(
    ui: &mut egui::Ui,
    i: usize,
    c: &Candidate,
    anchor: bool,
    commands: &mut Vec<AppCommand>,
) -> Rect {
    let has_near = c
        .level
        .game
        .game()
        .ok()
        .and_then(|g| studio_core::game::generator_of(g, c.generator).ok())
        .is_some_and(|g| g.has_near());
    ui.vertical(|ui| {
        ui.set_width(THUMB.x);
        let (rect, response) = ui.allocate_exact_size(THUMB, Sense::click_and_drag());
        if response.drag_started() {
            response.dnd_set_drag_payload(CandidateDrag(c.level.clone()));
        }
        let painter = ui.painter();
        let fill = if response.hovered() {
            Color32::from_gray(58)
        } else {
            Color32::from_gray(40)
        };
        painter.rect_filled(rect, 5.0, fill);
        // The badge has its own strip above the level, so it never hides a cell.
        let level_rect = Rect::from_min_max(
            rect.min + Vec2::new(6.0, 20.0),
            rect.max - Vec2::new(6.0, 6.0),
        );
        paint_thumbnail(painter, level_rect, &c.level);
        let (figure, badge, colour) = figure_text(c);
        painter.rect_stroke(rect, 5.0, Stroke::new(1.5, colour), StrokeKind::Inside);
        let badge_width = 8.0 + 6.0 * badge.chars().count() as f32;
        let badge_rect = Rect::from_min_size(
            rect.left_top() + Vec2::new(3.0, 3.0),
            Vec2::new(badge_width, 14.0),
        );
        painter.rect_filled(badge_rect, 3.0, colour.gamma_multiply(0.85));
        painter.text(
            badge_rect.center(),
            Align2::CENTER_CENTER,
            badge,
            FontId::proportional(9.5),
            Color32::BLACK,
        );
        if response
            .on_hover_text(format!(
                "{} · click: open in the editor · drag onto the pack to add it",
                c.level.name
            ))
            .clicked()
        {
            commands.push(AppCommand::LoadLevel(c.level.clone()));
        }
        ui.label(egui::RichText::new(figure).small().color(colour));
        if anchor {
            ui.label(egui::RichText::new("the source: the others are near it").small())
                .on_hover_text(
                    "More like this started from this level; it is not one of the new ones",
                );
        }
        ui.horizontal(|ui| {
            if ui
                .small_button("Open")
                .on_hover_text("Open in the editor")
                .clicked()
            {
                commands.push(AppCommand::LoadLevel(c.level.clone()));
            }
            if ui
                .small_button("+ Pack")
                .on_hover_text("Add to the active pack")
                .clicked()
            {
                commands.push(AppCommand::AddLevel(c.level.clone()));
            }
        });
        if has_near
            && ui
                .small_button("More like this")
                .on_hover_text(
                    "Generate near this level: around its latent point, or from its first patterns",
                )
                .clicked()
        {
            commands.push(AppCommand::MoreLikeThis(i));
        }
        rect
    })
    .inner
}
