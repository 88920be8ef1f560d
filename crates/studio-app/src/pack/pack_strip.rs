//! The bottom strip: the open packs as tabs, the active pack's levels as thumbnails with name
//! and figures (click to edit, double-click to rename, drag to reorder, ✕ to remove), the
//! pack buttons, and the pack's difficulty curve.

use crate::generation::candidates::CandidateDrag;
use crate::pack::thumbnail::paint_thumbnail;
use crate::pack_doc::PackDoc;
use crate::studio::panel::{AppCommand, PackCommand, PanelCtx, ToolPanel};
use egui::{Align2, Color32, FontId, Rect, Sense, Stroke, StrokeKind, Vec2};
use egui_plot::{Line, Plot, Points};
use studio_core::level::Level;
use studio_ui::palette;

const CARD: Vec2 = Vec2::new(112.0, 132.0);
const GAP: f32 = 8.0;
const CURVE_WIDTH: f32 = 270.0;

/// The pack strip's own state: which level is being renamed.
#[derive(Debug)]
pub struct PackStrip {
    renaming: Option<(usize, String)>,
    /// The pack tab being renamed, and the name typed so far.
    renaming_pack: Option<(usize, String)>,
    /// The level last loaded into the editor from this strip.
    pub selected: Option<usize>,
    /// A card to scroll into view on the next frame (a level just added).
    pub reveal: Option<usize>,
    /// Where each shown card was drawn last frame (index, rect; tests click them).
    pub card_rects: Vec<(usize, Rect)>,
    /// Levels of the shown pack still being measured, of how many (the header shows it).
    pub measuring: Option<(usize, usize)>,
    /// The shown pack and its level count last frame, to notice when the cards move.
    layout: Option<(u64, usize)>,
    /// When (egui's clock) the cards last moved: their ✕ buttons wait [`REMOVE_PAUSE`]
    /// after it, so the second click of a quick pair never removes the card that slid under
    /// the pointer.
    moved_at: f64,
    /// The curve drawn last frame and what it was drawn from, so a big pack's curve is
    /// not recomputed every frame.
    curve: Option<(CurveKey, Curve)>,
    /// What is typed in the "Go to level" field.
    pub go_to: String,
    /// Whether the "Go to level" field is open (else its button shows).
    go_to_open: bool,
    /// The field was just opened and takes the focus when first drawn.
    go_to_focus: bool,
    /// Why the last "Go to level" went nowhere (shown beside the field).
    go_to_error: Option<String>,
    /// The card "Go to level" brought into view, and when (egui's clock): it is outlined a
    /// moment so the eye finds it.
    flash: Option<(usize, f64)>,
}

/// Seconds a card reached by "Go to level" stays outlined.
const FLASH: f64 = 1.5;

/// What a pack's curve depends on: the pack, its version, its measured figures and the game.
type CurveKey = (u64, u64, usize, studio_core::level::Game);

/// A pack's difficulty curve, ready to plot.
#[derive(Debug)]
struct Curve {
    /// The game whose levels it shows.
    game: studio_core::level::Game,
    /// The line: every level's point, or for a long pack the lowest and highest point of each
    /// of [`CURVE_BUCKETS`] runs of levels (the same outline, a plot of a few hundred points).
    line: Vec<[f64; 2]>,
    /// How many levels have a point.
    points: usize,
}

/// Runs of levels a long pack's curve is drawn in (about two per point of plot width).
const CURVE_BUCKETS: usize = 270;

/// Levels up to which the curve marks each level with a dot.
const CURVE_DOTS: usize = 300;

/// The curve of `points` drawn with at most two points per bucket: each run's lowest and
/// highest, in the order they come, so peaks and dips stay where they are.
fn outline(points: &[[f64; 2]], buckets: usize) -> Vec<[f64; 2]> {
    if points.len() <= 2 * buckets {
        return points.to_vec();
    }
    let size = points.len().div_ceil(buckets);
    let mut out = Vec::with_capacity(2 * buckets);
    for run in points.chunks(size) {
        let low = run.iter().min_by(|a, b| a[1].total_cmp(&b[1]));
        let high = run.iter().max_by(|a, b| a[1].total_cmp(&b[1]));
        if let (Some(&low), Some(&high)) = (low, high) {
            if low[0] <= high[0] {
                out.extend([low, high]);
            } else {
                out.extend([high, low]);
            }
        }
    }
    out.dedup();
    out
}

/// Seconds the ✕ buttons wait after the cards moved.
pub const REMOVE_PAUSE: f64 = 0.6;

impl Default for PackStrip {
    fn default() -> Self {
        Self {
            renaming: None,
            renaming_pack: None,
            selected: None,
            reveal: None,
            card_rects: Vec::new(),
            measuring: None,
            layout: None,
            moved_at: f64::NEG_INFINITY,
            curve: None,
            go_to: String::new(),
            go_to_open: false,
            go_to_focus: false,
            go_to_error: None,
            flash: None,
        }
    }
}

impl PackStrip {
    /// Forgets the selected card and any open name field (another pack or game is shown, or
    /// the cards moved): they belonged to cards that are no longer where they were.
    pub fn forget(&mut self) {
        self.selected = None;
        self.renaming = None;
        self.renaming_pack = None;
        // A refused "Go to" was about the pack shown then (W6).
        self.go_to_error = None;
    }

    /// Opens the name field of pack tab `index` (what double-clicking the tab does).
    pub fn start_renaming_pack(&mut self, index: usize, name: &str) {
        self.renaming_pack = Some((index, name.to_string()));
    }

    /// Opens the name field of card `index` (what double-clicking the card does).
    pub fn start_renaming(&mut self, index: usize, name: &str) {
        self.renaming = Some((index, name.to_string()));
    }

    /// Brings card `number` (counted from 1, as the cards are) of a pack of `len` levels
    /// into view and outlines it; a number out of range is refused with a message.
    pub fn go_to_level(&mut self, number: &str, len: usize, now: f64) -> Result<(), String> {
        let n = number
            .trim()
            .trim_start_matches('#')
            .parse::<usize>()
            .map_err(|_| format!("type a level number, 1 to {len}"))?;
        if n == 0 || n > len {
            return Err(format!("this pack has levels 1 to {len}"));
        }
        self.reveal = Some(n - 1);
        self.flash = Some((n - 1, now));
        Ok(())
    }

    /// "Go to #…": a button (or Ctrl+G) that opens a number field; Enter jumps to that level,
    /// Esc or a click elsewhere closes the field.
    fn go_to_field(&mut self, ui: &mut egui::Ui, len: usize) {
        let id = ui.make_persistent_id("pack-go-to");
        let shortcut = ui.input_mut(|i| {
            i.consume_shortcut(&egui::KeyboardShortcut::new(
                egui::Modifiers::COMMAND,
                egui::Key::G,
            ))
        });
        let hint = format!("Go to level: type its number (1–{len}) and press Enter (Ctrl+G)");
        if !self.go_to_open {
            let button = ui
                .add_enabled(len > 0, egui::Button::new("Go to #…"))
                .on_hover_text(&hint);
            if (button.clicked() || shortcut) && len > 0 {
                self.go_to_open = true;
                self.go_to.clear();
                self.go_to_error = None;
                self.go_to_focus = true;
            }
        } else {
            let edit = ui
                .add(
                    egui::TextEdit::singleline(&mut self.go_to)
                        .id(id)
                        .hint_text("level #")
                        .desired_width(64.0),
                )
                .on_hover_text(&hint);
            // The field asks for the focus when it opens (and on Ctrl+G while open).
            if (shortcut || self.go_to_focus) && !edit.has_focus() {
                edit.request_focus();
            }
            self.go_to_focus = false;
            if edit.changed() {
                self.go_to_error = None;
            }
            if edit.lost_focus() {
                if ui.input(|i| i.key_pressed(egui::Key::Enter)) {
                    let now = ui.input(|i| i.time);
                    let number = self.go_to.clone();
                    self.go_to_error = self.go_to_level(&number, len, now).err();
                }
                self.go_to_open = false;
            }
        }
        if let Some(e) = &self.go_to_error {
            ui.colored_label(palette::BAD, e);
        }
    }
}

fn figures_text(doc: &PackDoc, level: &Level) -> (String, Color32) {
    let verdict = doc.verdict(level);
    let weak = verdict == Some(false) && doc.weak(level);
    let colour = match verdict {
        Some(true) => palette::GOOD,
        Some(false) if weak => Color32::LIGHT_GRAY,
        Some(false) => palette::BAD,
        None => Color32::GRAY,
    };
    match (doc.difficulty(level), doc.measured_of(level)) {
        (Some(d), _) => {
            let text = level
                .game
                .game()
                .map_or_else(|_| format!("{d:.1}"), |g| g.card_text(level, d));
            let mark = match verdict {
                Some(true) => " ok",
                Some(false) if weak => "",
                Some(false) => " x",
                None => "",
            };
            (format!("{text}{mark}"), colour)
        }
        (None, Some(m)) => (m.label.to_lowercase(), palette::BAD),
        (None, None) if verdict.is_some() => ("no difficulty".into(), colour),
        (None, None) => ("measuring…".into(), Color32::GRAY),
    }
}

impl PackStrip {
    fn header(&mut self, ui: &mut egui::Ui, ctx: &mut PanelCtx<'_>) {
        // Wraps onto a second row rather than cutting off its last buttons (many tabs, a
        // narrow window).
        ui.horizontal_wrapped(|ui| {
            ui.strong("Pack");
            for (i, doc) in ctx.packs.iter().enumerate() {
                if let Some((r, text)) = &mut self.renaming_pack {
                    if *r == i {
                        let edit = ui.add(
                            egui::TextEdit::singleline(text)
                                .desired_width(140.0)
                                .id_salt(("rename-pack", i)),
                        );
                        if let Some(answer) = name_field_answer(ui, &edit, text) {
                            if let Some(name) = answer {
                                ctx.commands
                                    .push(AppCommand::Pack(PackCommand::RenamePack(i, name)));
                            }
                            self.renaming_pack = None;
                        }
                        continue;
                    }
                }
                if doc.is_placeholder() {
                    // A game with no pack open has no tab (W1): it says so where its tab
                    // would be, and "+ Add level" starts the pack.
                    if i == ctx.active_pack {
                        let game = doc.main_game();
                        let name = game.game().map_or("this game", |g| g.name());
                        ui.weak(format!("no {name} pack open"))
                            .on_hover_text("+ Add level starts one; File > Open… opens one");
                    }
                    continue;
                }
                let file = doc
                    .path
                    .as_ref()
                    .map_or_else(|| "not saved yet".to_string(), |p| p.display().to_string());
                let tab = ui
                    .selectable_label(i == ctx.active_pack, doc.title())
                    .on_hover_text(format!(
                        "{file}\n{}\nDouble-click to rename",
                        doc.pack.description
                    ));
                if tab.double_clicked() {
                    self.renaming_pack = Some((i, doc.pack.name.clone()));
                } else if tab.clicked() {
                    ctx.commands
                        .push(AppCommand::Pack(PackCommand::Activate(i)));
                }
            }
            ui.separator();
            if ui
                .button("+ Add level")
                .on_hover_text("Append the level on the canvas to this pack")
                .clicked()
            {
                ctx.commands.push(AppCommand::Pack(PackCommand::AddCurrent));
            }
            if ui
                .button("Sort by difficulty")
                .on_hover_text("Easiest first, by each level's difficulty (unknown last)")
                .clicked()
            {
                ctx.commands
                    .push(AppCommand::Pack(PackCommand::SortByDifficulty));
            }
            if ui
                .button("New pack")
                .on_hover_text("Start an empty pack in a new tab")
                .clicked()
            {
                ctx.commands.push(AppCommand::Pack(PackCommand::New));
            }
            if ui
                .button("Close pack")
                .on_hover_text("Close this pack (asks first when it has unsaved changes)")
                .clicked()
            {
                ctx.commands.push(AppCommand::Pack(PackCommand::Close));
            }
            let len = ctx
                .packs
                .get(ctx.active_pack)
                .map_or(0, |d| d.pack.levels.len());
            self.go_to_field(ui, len);
            // Last in the row and always there, so no button moves when it changes.
            let history = ctx.editor.history();
            let removal = history
                .undo_marker()
                .and(history.undo_label())
                .and_then(|l| l.strip_prefix("Remove "));
            let label = match removal {
                Some(name) => format!("Undo remove {}", truncate(name, 20)),
                None => "Undo remove".to_string(),
            };
            // Added straight into the wrapping row (not a child ui), so it wraps to the next
            // row rather than being cut at the window edge (E20).
            if ui
                .add_enabled(
                    removal.is_some(),
                    egui::Button::new(label).min_size(Vec2::new(190.0, 20.0)),
                )
                .on_hover_text("Put the level removed last back where it was (Edit > Undo, Ctrl+Z)")
                .clicked()
            {
                ctx.commands.push(AppCommand::Pack(PackCommand::UndoRemove));
            }
            if let Some((left, all)) = self.measuring {
                let done = all.saturating_sub(left);
                // Short, so it fits at the end of a full header row.
                ui.add(
                    egui::ProgressBar::new(done as f32 / all.max(1) as f32)
                        .desired_width(120.0)
                        .text(format!("{done}/{all}")),
                )
                .on_hover_text(format!(
                    "Measured {done} of {all} levels: the cards fill in as their figures \
                     arrive, the visible ones first"
                ));
            }
        });
    }

    fn cards(&mut self, ui: &mut egui::Ui, ctx: &mut PanelCtx<'_>) {
        self.card_rects.clear();
        let Some(doc) = ctx.packs.get(ctx.active_pack) else {
            ui.weak("No pack open. File > Open... or New pack.");
            return;
        };
        let levels = &doc.pack.levels;
        let now = ui.input(|i| i.time);
        let layout = (doc.uid, levels.len());
        if self.layout.is_some_and(|l| l != layout) {
            self.moved_at = now;
        }
        self.layout = Some(layout);
        if levels.is_empty() {
            ui.weak("This pack is empty: paint a level and press “+ Add level”.");
            return;
        }
        let stride = CARD.x + GAP;
        // Each pack keeps its own scroll offset.
        // The plain wheel scrolls the cards too (the strip scrolls one way only), and the
        // scroll bar is always there to drag.
        ui.style_mut().always_scroll_the_only_direction = true;
        // A solid bar under the cards, not egui's floating one that hides until hovered.
        ui.spacing_mut().scroll = egui::style::ScrollStyle::solid();
        let mut area = egui::ScrollArea::horizontal()
            .id_salt(("pack-cards", doc.uid))
            .scroll_bar_visibility(egui::scroll_area::ScrollBarVisibility::AlwaysVisible)
            .auto_shrink([false, true]);
        if let Some(i) = self.reveal.take() {
            // The new card in the middle of the cards' part of the strip (the curve takes the
            // right of it).
            let width = (ui.available_width() - CURVE_WIDTH).max(CARD.x);
            let offset = i as f32 * stride - (width - CARD.x) / 2.0;
            area = area.horizontal_scroll_offset(offset.max(0.0));
        }
        area.show_viewport(ui, |ui, viewport| {
            ui.set_min_size(Vec2::new(levels.len() as f32 * stride, CARD.y + 4.0));
            let origin = ui.max_rect().min;
            let first = (viewport.min.x / stride).floor().max(0.0) as usize;
            let last = ((viewport.max.x / stride).ceil() as usize + 1).min(levels.len());
            for (i, level) in levels.iter().enumerate().take(last).skip(first) {
                let rect = Rect::from_min_size(origin + Vec2::new(i as f32 * stride, 2.0), CARD);
                self.card_rects.push((i, rect));
                let card = Card {
                    index: i,
                    level,
                    rect,
                    now,
                };
                self.card(ui, ctx.commands, doc, &card);
            }
        });
    }

    /// One level's card: click to edit, double-click to rename, drag to reorder, ✕ to
    /// remove; a candidate dropped on it goes in beside it.
    fn card(
        &mut self,
        ui: &mut egui::Ui,
        commands: &mut Vec<AppCommand>,
        doc: &PackDoc,
        card: &Card<'_>,
    ) {
        let i = card.index;
        let id = ui.scope_id().with(("card", i));
        let response = ui.interact(card.rect, id, Sense::click_and_drag());
        self.paint_card(ui, &response, doc, card);
        self.name_or_field(ui, commands, card);
        if self.remove_button(ui, commands, &response, id, card) {
            return;
        }
        card_drops(ui, commands, &response, card);
        if response.double_clicked() {
            self.renaming = Some((i, card.level.name.clone()));
        } else if response.clicked() {
            self.selected = Some(i);
            commands.push(AppCommand::Pack(PackCommand::Edit(i)));
        }
        response.on_hover_text(format!(
            "{} · click: edit · double-click: rename · drag: reorder",
            card.level.name
        ));
    }

    /// A card's face: its background (outlined when selected, or a moment after "Go to
    /// level" reached it), the thumbnail, the number badge and the figures.
    fn paint_card(
        &mut self,
        ui: &egui::Ui,
        response: &egui::Response,
        doc: &PackDoc,
        card: &Card<'_>,
    ) {
        let (i, rect, now) = (card.index, card.rect, card.now);
        let painter = ui.painter();
        let selected = self.selected == Some(i);
        let fill = if response.hovered() {
            Color32::from_gray(58)
        } else {
            Color32::from_gray(44)
        };
        painter.rect_filled(rect, 6.0, fill);
        if selected {
            painter.rect_stroke(
                rect,
                6.0,
                Stroke::new(2.0, palette::ACCENT),
                StrokeKind::Inside,
            );
        }
        if let Some((_, at)) = self.flash.filter(|f| f.0 == i) {
            if now - at < FLASH {
                painter.rect_stroke(
                    rect.expand(1.0),
                    7.0,
                    Stroke::new(3.0, palette::AREA_OUTLINE),
                    StrokeKind::Outside,
                );
                ui.ctx()
                    .request_repaint_after_secs((FLASH - (now - at)) as f32);
            } else {
                self.flash = None;
            }
        }
        paint_thumbnail(
            painter,
            Rect::from_min_size(
                rect.min + Vec2::new(8.0, 8.0),
                Vec2::new(CARD.x - 16.0, 80.0),
            ),
            card.level,
        );
        // On a badge of its own, so five digits stay readable over the thumbnail (W16).
        let number = painter.layout_no_wrap(
            format!("{}", i + 1),
            FontId::proportional(11.0),
            Color32::from_gray(220),
        );
        let badge = number_badge(rect, number.size());
        painter.rect_filled(badge, 3.0, Color32::from_black_alpha(200));
        painter.galley(
            badge.min + Vec2::new(3.0, 1.0),
            number,
            Color32::from_gray(220),
        );
        let (figures, colour) = figures_text(doc, card.level);
        let galley = fitted(painter, figures, CARD.x - 10.0, colour);
        let at = rect.center_bottom() - Vec2::new(galley.size().x / 2.0, 6.0 + galley.size().y);
        painter.galley(at, galley, colour);
    }

    /// The card's name, or the field it is being renamed in.
    fn name_or_field(
        &mut self,
        ui: &mut egui::Ui,
        commands: &mut Vec<AppCommand>,
        card: &Card<'_>,
    ) {
        let i = card.index;
        let name_rect = Rect::from_min_size(
            card.rect.min + Vec2::new(4.0, 92.0),
            Vec2::new(CARD.x - 8.0, 18.0),
        );
        match &mut self.renaming {
            Some((r, text)) if *r == i => {
                let edit = ui.put(
                    name_rect,
                    egui::TextEdit::singleline(text).id_salt(("rename", i)),
                );
                if let Some(answer) = name_field_answer(ui, &edit, text) {
                    if let Some(name) = answer {
                        commands.push(AppCommand::Pack(PackCommand::Rename(i, name)));
                    }
                    self.renaming = None;
                }
            }
            _ => {
                let name = truncate(&card.level.name, 16);
                ui.painter().text(
                    name_rect.center(),
                    Align2::CENTER_CENTER,
                    name,
                    FontId::proportional(12.0),
                    Color32::from_gray(230),
                );
            }
        }
    }

    /// The card's ✕ (drawn while the card is hovered); answers whether it removed the card.
    /// It waits [`REMOVE_PAUSE`] after the cards moved.
    fn remove_button(
        &mut self,
        ui: &egui::Ui,
        commands: &mut Vec<AppCommand>,
        response: &egui::Response,
        id: egui::Id,
        card: &Card<'_>,
    ) -> bool {
        let close = Rect::from_min_size(
            card.rect.right_top() + Vec2::new(-20.0, 2.0),
            Vec2::splat(18.0),
        );
        let close_response = ui
            .interact(close, id.with("remove"), Sense::click())
            .on_hover_text("Remove from the pack");
        if response.hovered() || close_response.hovered() {
            let c = close.shrink(5.0);
            let stroke = Stroke::new(2.0, palette::BAD);
            ui.painter()
                .line_segment([c.left_top(), c.right_bottom()], stroke);
            ui.painter()
                .line_segment([c.right_top(), c.left_bottom()], stroke);
        }
        if close_response.clicked() && card.now - self.moved_at >= REMOVE_PAUSE {
            commands.push(AppCommand::Pack(PackCommand::Remove(card.index)));
            self.moved_at = card.now;
            return true;
        }
        false
    }
    fn curve(&mut self, ui: &mut egui::Ui, ctx: &PanelCtx<'_>) {
        let Some(doc) = ctx.packs.get(ctx.active_pack) else {
            return;
        };
        let key = (doc.uid, doc.version(), doc.measured.len(), ctx.game);
        let curve = match &self.curve {
            Some((k, curve)) if *k == key => curve,
            _ => {
                let game = if doc.pack.levels.is_empty() {
                    ctx.game
                } else {
                    doc.main_game()
                };
                let points = doc.curve(game);
                let curve = Curve {
                    game,
                    line: outline(&points, CURVE_BUCKETS),
                    points: points.len(),
                };
                &self.curve.insert((key, curve)).1
            }
        };
        let game = curve.game;
        let (label, axis) = match game.game() {
            Ok(g) => (
                format!("Difficulty curve · {}", g.name()),
                g.difficulty_name(),
            ),
            Err(_) => ("Difficulty curve".to_string(), "difficulty"),
        };
        ui.small(label);
        let (xs, ys) = curve_bounds(&curve.line);
        // The axes are named: the same measure the cards and the PNG sheet label.
        Plot::new("pack-curve")
            .x_axis_label("level")
            .y_axis_label(axis)
            .height(ui.available_height().max(60.0))
            .allow_drag(false)
            .allow_zoom(false)
            .allow_scroll(false)
            .show_axes([true, true])
            // Bounds that fit the data, never a degenerate range (W19).
            .include_x(xs[0])
            .include_x(xs[1])
            .include_y(ys[0])
            .include_y(ys[1])
            .show(ui, |plot| {
                plot.line(Line::new("difficulty", curve.line.clone()).color(palette::ACCENT));
                if curve.points <= CURVE_DOTS {
                    plot.points(
                        Points::new("levels", curve.line.clone())
                            .radius(2.5)
                            .color(palette::ACCENT),
                    );
                }
            });
    }
}

/// One card of the strip as it is drawn this frame.
struct Card<'a> {
    /// The level's place in the pack.
    index: usize,
    level: &'a Level,
    /// Where the card is drawn.
    rect: Rect,
    /// egui's clock this frame.
    now: f64,
}

/// What is dropped on a card: another card moves to its place; a candidate goes in before
/// it (dropped on its left half) or after it. Where it would go is marked while carried.
fn card_drops(
    ui: &egui::Ui,
    commands: &mut Vec<AppCommand>,
    response: &egui::Response,
    card: &Card<'_>,
) {
    let (i, rect) = (card.index, card.rect);
    if response.drag_started() {
        response.dnd_set_drag_payload(i);
    }
    if let Some(from) = response.dnd_hover_payload::<usize>() {
        if *from != i {
            let x = if *from < i {
                rect.right() + GAP / 2.0
            } else {
                rect.left() - GAP / 2.0
            };
            ui.painter().line_segment(
                [egui::pos2(x, rect.top()), egui::pos2(x, rect.bottom())],
                Stroke::new(3.0, palette::ACCENT),
            );
        }
    }
    // egui's release takes the payload whatever its type, so each type is asked for only
    // while it is the one carried.
    let carried_card = egui::DragAndDrop::has_payload_of_type::<usize>(ui.ctx());
    let carried_candidate = egui::DragAndDrop::has_payload_of_type::<CandidateDrag>(ui.ctx());
    let released_card = carried_card
        .then(|| response.dnd_release_payload::<usize>())
        .flatten();
    if let Some(from) = released_card {
        if *from != i {
            commands.push(AppCommand::Pack(PackCommand::Move { from: *from, to: i }));
        }
    }
    let side = |p: egui::Pos2| usize::from(p.x > rect.center().x);
    let pointer = ui.input(|inp| inp.pointer.latest_pos());
    if response.dnd_hover_payload::<CandidateDrag>().is_some() {
        if let Some(p) = pointer {
            let x = if side(p) == 1 {
                rect.right() + GAP / 2.0
            } else {
                rect.left() - GAP / 2.0
            };
            ui.painter().line_segment(
                [egui::pos2(x, rect.top()), egui::pos2(x, rect.bottom())],
                Stroke::new(3.0, palette::ACCENT),
            );
        }
    }
    let released_candidate = carried_candidate
        .then(|| response.dnd_release_payload::<CandidateDrag>())
        .flatten();
    if let Some(drag) = released_candidate {
        let at = i + pointer.map_or(1, side);
        commands.push(AppCommand::InsertLevel {
            level: drag.0.clone(),
            at,
        });
    }
}

/// The difficulty curve's x and y ranges: the levels with half a level either side, and
/// from 0 (or the lowest point) to a little above the highest; a curve that is 0 everywhere
/// (every loss rate 0) gets 0 to 1, not a range egui_plot invents around a single value (W19).
pub fn curve_bounds(line: &[[f64; 2]]) -> ([f64; 2], [f64; 2]) {
    let finite = line.iter().filter(|p| p[0].is_finite() && p[1].is_finite());
    let (mut x0, mut x1) = (f64::INFINITY, f64::NEG_INFINITY);
    let (mut y0, mut y1) = (0.0_f64, 0.0_f64);
    for p in finite {
        x0 = x0.min(p[0]);
        x1 = x1.max(p[0]);
        y0 = y0.min(p[1]);
        y1 = y1.max(p[1]);
    }
    if !x0.is_finite() {
        return ([0.5, 1.5], [0.0, 1.0]);
    }
    let span = y1 - y0;
    let top = if span > 0.0 {
        y1 + 0.1 * span
    } else {
        y0 + 1.0
    };
    let bottom = if y0 < 0.0 { y0 - 0.1 * span } else { 0.0 };
    ([x0 - 0.5, x1 + 0.5], [bottom, top])
}

/// What an inline name field answered this frame: `None` while it is still being typed in,
/// `Some(Some(name))` when Enter or a click elsewhere keeps the name, `Some(None)` when Esc
/// drops it. Focus is asked for only while the field lacks it: asking again in the frame it
/// is left would undo the leaving, and Enter would never commit.
fn name_field_answer(ui: &egui::Ui, edit: &egui::Response, text: &str) -> Option<Option<String>> {
    if edit.lost_focus() {
        let kept = ui.input(|inp| !inp.key_pressed(egui::Key::Escape));
        return Some(kept.then(|| text.trim().to_string()));
    }
    if !edit.has_focus() {
        // The old name is selected, so typing replaces it (the field opens with the focus).
        edit.request_focus();
        let mut state = egui::text_edit::TextEditState::load(ui.ctx(), edit.id).unwrap_or_default();
        state
            .cursor
            .set_char_range(Some(egui::text::CCursorRange::two(
                egui::text::CCursor::new(0),
                egui::text::CCursor::new(text.chars().count()),
            )));
        state.store(ui.ctx(), edit.id);
    }
    None
}

/// `text` laid out to fit `width`: at 11 points, else smaller down to 9, else cut with “…”
/// (the course's "eval 0.88 · wins 30 % ok" is wider than a card at 11 points).
fn fitted(
    painter: &egui::Painter,
    text: String,
    width: f32,
    colour: Color32,
) -> std::sync::Arc<egui::Galley> {
    for size in [11.0, 10.0, 9.0] {
        let galley = painter.layout_no_wrap(text.clone(), FontId::proportional(size), colour);
        if galley.size().x <= width {
            return galley;
        }
    }
    let mut job = egui::text::LayoutJob::simple_singleline(text, FontId::proportional(9.0), colour);
    job.wrap = egui::text::TextWrapping::truncate_at_width(width);
    painter.layout_job(job)
}

/// Where a card's number is drawn: a badge at the card's top-left corner around text of
/// `text` size, opaque, so the thumbnail under it never shows through the digits.
pub fn number_badge(card: Rect, text: Vec2) -> Rect {
    Rect::from_min_size(card.min + Vec2::new(3.0, 3.0), text + Vec2::new(6.0, 2.0))
}

fn truncate(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        let mut t: String = s.chars().take(n - 1).collect();
        t.push('…');
        t
    }
}

impl ToolPanel for PackStrip {
    fn name(&self) -> &'static str {
        "Pack"
    }

    fn ui(&mut self, ui: &mut egui::Ui, ctx: &mut PanelCtx<'_>) {
        self.header(ui, ctx);
        let width = ui.available_width();
        ui.horizontal_top(|ui| {
            // The curve keeps its whole width: the cards take what is left after it, the
            // separator and the spacing around it.
            let gaps = 4.0 * ui.spacing().item_spacing.x + 8.0;
            let cards_width = (width - CURVE_WIDTH - gaps).max(200.0);
            ui.allocate_ui(Vec2::new(cards_width, ui.available_height()), |ui| {
                ui.set_min_width(cards_width);
                self.cards(ui, ctx);
            });
            ui.separator();
            ui.vertical(|ui| {
                ui.set_width(CURVE_WIDTH);
                self.curve(ui, ctx);
            });
        });
    }
}
