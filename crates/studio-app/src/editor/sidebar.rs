//! The left sidebar: the game switch, the level conditions (size, mirror symmetry) and the
//! tool palette. Generators join it in part 2 as further [`ToolPanel`]s.

use crate::editor::EditCommand;
use crate::studio::panel::{AppCommand, PanelCtx, ToolPanel};
use crate::studio::settings::{tool_key, Tool};
use egui::{RichText, Sense, Vec2};
use std::collections::HashMap;
use studio_core::game::{GameId, ParamStrip, StripEvent, StripParam};
use studio_core::symmetry::Symmetry;
use studio_ui::palette;
use studio_ui::widgets::bounded_number;

/// Game switch, conditions and tools.
#[derive(Debug, Default)]
pub struct ConditionsPanel {
    /// Size of a new level, per game (the game's default size until changed).
    pub sizes: HashMap<GameId, (usize, usize)>,
    /// Why the last typed size was changed (out of the game's range), with the game whose
    /// fields it is about: shown under that game's fields only (W3).
    pub size_note: Option<(GameId, String)>,
}

impl ToolPanel for ConditionsPanel {
    fn name(&self) -> &'static str {
        "Level"
    }

    fn ui(&mut self, ui: &mut egui::Ui, ctx: &mut PanelCtx<'_>) {
        ui.add_space(4.0);
        ui.label(RichText::new("Game").strong());
        // Wrapped, so a new game never widens the sidebar.
        ui.horizontal_wrapped(|ui| {
            for g in studio_core::game::games() {
                let game = g.id();
                if ui.selectable_label(ctx.game == game, g.name()).clicked() && ctx.game != game {
                    ctx.commands.push(AppCommand::SwitchGame(game));
                }
            }
        });
        ui.separator();

        ui.label(RichText::new("Level conditions").strong());
        self.size_ui(ui, ctx);
        ui.add_space(6.0);
        mirror_ui(ui, ctx);
        ui.separator();

        let rules = ctx.editor.board().rules();
        if let Some(strip) = rules.parameter_strip(&ctx.editor.board().to_rows()) {
            strip_ui(ui, ctx, &strip);
            ui.separator();
        }

        tools_ui(ui, ctx);
        ui.separator();
        history_ui(ui, ctx);
        ui.separator();
        playtests_ui(ui, ctx);
    }
}

impl ConditionsPanel {
    /// The size of a new level (a slider and a number per side, kept in the game's range,
    /// with a note when a typed size was brought into it) and the "New level" button.
    fn size_ui(&mut self, ui: &mut egui::Ui, ctx: &mut PanelCtx<'_>) {
        let rules = ctx.editor.board().rules();
        let sizes = rules.size_rules();
        let size = self.sizes.entry(rules.id()).or_insert(sizes.default);
        let (range_w, range_h) = (sizes.min.0..=sizes.max.0, sizes.min.1..=sizes.max.1);
        let mut shown = self
            .size_note
            .as_ref()
            .filter(|(g, _)| *g == rules.id())
            .map(|(_, n)| n.clone());
        let note = &mut shown;
        egui::Grid::new("conditions")
            .num_columns(3)
            .spacing([8.0, 4.0])
            .show(ui, |ui| {
                let label = ui.label("Width");
                ui.add(egui::Slider::new(&mut size.0, range_w.clone()).show_value(false))
                    .labelled_by(label.id);
                bounded_number(ui, &mut size.0, range_w.clone(), "Width", note, 1.0)
                    .labelled_by(label.id)
                    .on_hover_text(format!(
                        "Type or drag; {}–{} columns",
                        range_w.start(),
                        range_w.end()
                    ));
                ui.end_row();
                let label = ui.label("Height");
                ui.add(egui::Slider::new(&mut size.1, range_h.clone()).show_value(false))
                    .labelled_by(label.id);
                bounded_number(ui, &mut size.1, range_h.clone(), "Height", note, 1.0)
                    .labelled_by(label.id)
                    .on_hover_text(format!(
                        "Type or drag; {}–{} rows",
                        range_h.start(),
                        range_h.end()
                    ));
                ui.end_row();
            });
        if let Some(n) = &shown {
            ui.colored_label(palette::ACCENT, n);
        }
        let was = self
            .size_note
            .as_ref()
            .filter(|(g, _)| *g == rules.id())
            .map(|(_, n)| n);
        if shown.as_ref() != was {
            self.size_note = shown.map(|n| (rules.id(), n));
        }
        if ui
            .button(format!("New {}×{} level", size.0, size.1))
            .on_hover_text("Replace the board (undoable)")
            .clicked()
        {
            // The size was used: the note about it has done its work.
            self.size_note = None;
            ctx.commands.push(AppCommand::NewLevel {
                width: size.0,
                height: size.1,
            });
        }
    }
}

/// The brush's mirror symmetry.
fn mirror_ui(ui: &mut egui::Ui, ctx: &mut PanelCtx<'_>) {
    ui.label("Mirror painting");
    ui.horizontal_wrapped(|ui| {
        for s in Symmetry::ALL {
            let label = match s {
                Symmetry::None => "Off",
                Symmetry::Vertical => "Vertical",
                Symmetry::Horizontal => "Horizontal",
                Symmetry::Quadrant => "Quadrant",
            };
            ui.selectable_value(&mut ctx.tools.mirror, s, label)
                .on_hover_text(match s {
                    Symmetry::None => "Paint one cell",
                    Symmetry::Vertical => "Mirror left-right",
                    Symmetry::Horizontal => "Mirror top-bottom",
                    Symmetry::Quadrant => "Mirror both ways",
                });
        }
    });
    if ctx.editor.board().play_area().is_some() {
        let rules = ctx.editor.board().rules();
        ui.weak(format!("{} mirrors within the play area.", rules.name()));
    }
}

/// The tool palette (with each tool's key) and the tiles to paint with.
fn tools_ui(ui: &mut egui::Ui, ctx: &mut PanelCtx<'_>) {
    let rules = ctx.editor.board().rules();
    ui.label(RichText::new("Tools").strong());
    ui.horizontal_wrapped(|ui| {
        for tool in Tool::ALL {
            let key = format!("{:?}", tool_key(tool));
            ui.selectable_value(&mut ctx.tools.tool, tool, tool.name())
                .on_hover_text(format!("Shortcut: {key}"));
        }
    });
    ui.add_space(4.0);
    ui.label("Tile");
    for (tile, info) in (0u8..).zip(rules.tiles()) {
        let selected = ctx.tools.tile(rules) == tile;
        ui.horizontal(|ui| {
            let (rect, swatch) = ui.allocate_exact_size(Vec2::splat(22.0), Sense::click());
            palette::paint_tile(ui.painter(), rect, rules, tile);
            if selected {
                ui.painter().rect_stroke(
                    rect.expand(2.0),
                    3.0,
                    egui::Stroke::new(2.0, palette::ACCENT),
                    egui::StrokeKind::Outside,
                );
            }
            let label = ui.selectable_label(selected, format!("{}  '{}'", info.name, info.ascii));
            if swatch.clicked() || label.clicked() {
                ctx.tools.set_tile(rules, tile);
            }
        });
    }
}

/// Undo and Redo (each naming its step), and how many steps there are of each.
fn history_ui(ui: &mut egui::Ui, ctx: &mut PanelCtx<'_>) {
    let history = ctx.editor.history();
    ui.horizontal(|ui| {
        let undo = ui.add_enabled(history.undo_len() > 0, egui::Button::new("Undo"));
        if undo
            .on_hover_text(history.undo_label().unwrap_or("Nothing to undo"))
            .clicked()
        {
            ctx.commands.push(AppCommand::Edit(EditCommand::Undo));
        }
        let redo = ui.add_enabled(history.redo_len() > 0, egui::Button::new("Redo"));
        if redo
            .on_hover_text(history.redo_label().unwrap_or("Nothing to redo"))
            .clicked()
        {
            ctx.commands.push(AppCommand::Edit(EditCommand::Redo));
        }
    });
    let undo = history.undo_len();
    let steps = if undo == 1 { "step" } else { "steps" };
    ui.weak(format!(
        "{undo} {steps} to undo · {} to redo",
        history.redo_len()
    ));
}

/// The level as a strip of event tiles (battle, fountain, boss) and a slider per parameter;
/// a drag is one undo step.
fn strip_ui(ui: &mut egui::Ui, ctx: &mut PanelCtx<'_>, strip: &ParamStrip) {
    ui.label(RichText::new("Events").strong());
    ui.horizontal_wrapped(|ui| {
        ui.spacing_mut().item_spacing.x = 3.0;
        for event in &strip.events {
            event_tile(ui, event.glyph, event.rgb, &event.label);
            for p in &event.params {
                if let (Some((glyph, rgb)), true) = (p.tile, p.value > 0.0) {
                    event_tile(
                        ui,
                        glyph,
                        rgb,
                        &format!("{} {}: {}", p.name, event.label, p.shown),
                    );
                }
            }
        }
    });
    ui.add_space(2.0);
    for (e, event) in strip.events.iter().enumerate() {
        egui::CollapsingHeader::new(format!("{}  ·  {}", event.label, summary(event)))
            .id_salt(("strip-event", e))
            .default_open(e == 0)
            .show(ui, |ui| {
                egui::Grid::new(("strip-params", e))
                    .num_columns(3)
                    .spacing([6.0, 2.0])
                    .show(ui, |ui| {
                        for p in &event.params {
                            let name = ui.label(p.name);
                            let mut v = p.value;
                            let r = ui
                                .add(
                                    egui::Slider::new(&mut v, 0.0..=StripParam::MAX)
                                        .step_by(0.01)
                                        .fixed_decimals(2),
                                )
                                .labelled_by(name.id)
                                .on_hover_text(format!(
                                    "{} {} (stored as hundredths; drag, or click and use the \
                                     arrow keys)",
                                    event.label, p.name
                                ));
                            // A click or drag keeps the keyboard on the slider, so the arrow
                            // keys its tooltip promises move it (egui focuses it on Tab only).
                            // A slider senses drags, not clicks: a press and release that
                            // reach the window in one frame (a quick click, a tap) are neither
                            // a click nor a drag to it, so a press on it counts too.
                            let pressed_on = ui.input(|i| {
                                i.pointer.any_pressed()
                                    && i.pointer.interact_pos().is_some_and(|p| r.rect.contains(p))
                            });
                            if r.clicked() || r.drag_stopped() || pressed_on {
                                r.request_focus();
                            }
                            ui.weak(&p.shown);
                            ui.end_row();
                            let label = format!("{} {}", event.label, p.name);
                            if r.drag_started() {
                                ctx.commands
                                    .push(AppCommand::Edit(EditCommand::BeginStroke { label }));
                            } else if r.changed() && !r.dragged() {
                                ctx.commands
                                    .push(AppCommand::Edit(EditCommand::BeginStroke { label }));
                                ctx.commands
                                    .push(AppCommand::Edit(EditCommand::Paint(p.paint(v))));
                                ctx.commands.push(AppCommand::Edit(EditCommand::EndStroke));
                                continue;
                            }
                            if r.changed() {
                                ctx.commands
                                    .push(AppCommand::Edit(EditCommand::Paint(p.paint(v))));
                            }
                            if r.drag_stopped() {
                                ctx.commands.push(AppCommand::Edit(EditCommand::EndStroke));
                            }
                        }
                    });
            });
    }
}

/// The values of an event in one line ("70 HP, 12 ATK").
fn summary(event: &StripEvent) -> String {
    event
        .params
        .iter()
        .filter(|p| p.name != "Fountain after" || p.value > 0.0)
        .map(|p| p.shown.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

fn event_tile(ui: &mut egui::Ui, glyph: char, rgb: [u8; 3], hover: &str) {
    let (rect, r) = ui.allocate_exact_size(Vec2::splat(20.0), Sense::hover());
    let fill = egui::Color32::from_rgb(rgb[0], rgb[1], rgb[2]);
    ui.painter().rect_filled(rect, 3.0, fill);
    ui.painter().text(
        rect.center(),
        egui::Align2::CENTER_CENTER,
        glyph,
        egui::FontId::monospace(12.0),
        egui::Color32::WHITE,
    );
    r.on_hover_text(hover);
}

/// The designer's attempts at the level on the canvas (kept with every pack level of the same
/// cells, or waiting to join the level when it is added): moves, time, solved.
fn playtests_ui(ui: &mut egui::Ui, ctx: &PanelCtx<'_>) {
    let cells = ctx.editor.board().to_rows();
    let game = ctx.editor.board().rules().id();
    let mut attempts: Vec<&studio_core::level::Playtest> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for doc in ctx.packs {
        for level in doc.pack.levels.iter() {
            // The same level open in two packs holds the same attempts: list them once.
            if level.game == game && level.cells == cells && seen.insert(&level.name) {
                attempts.extend(level.playtests.iter());
            }
        }
    }
    attempts.extend(
        ctx.unattached
            .iter()
            .filter(|(g, c, _)| *g == game && *c == cells)
            .map(|(_, _, p)| p),
    );
    let solved = attempts.iter().filter(|p| p.solved).count();
    egui::CollapsingHeader::new(format!("Playtests ({solved} of {} solved)", attempts.len()))
        .id_salt("playtests")
        .default_open(true)
        .show(ui, |ui| {
            if attempts.is_empty() {
                ui.weak("None yet: Playtest in the menu bar plays this level.");
                return;
            }
            egui::Grid::new("playtest-list")
                .num_columns(4)
                .striped(true)
                .show(ui, |ui| {
                    ui.weak("#");
                    ui.weak("moves");
                    ui.weak("time");
                    ui.weak("result");
                    ui.end_row();
                    for (i, p) in attempts.iter().enumerate() {
                        ui.label(format!("{}", i + 1));
                        ui.label(format!("{}", p.moves));
                        ui.label(format!("{:.0} s", p.seconds));
                        if p.solved {
                            ui.colored_label(palette::GOOD, "solved");
                        } else {
                            ui.colored_label(palette::BAD, "not solved");
                        }
                        ui.end_row();
                    }
                });
        });
}
