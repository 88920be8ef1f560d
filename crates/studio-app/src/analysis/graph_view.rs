//! The state-graph viewer, for any game whose analysis has a graph:
//! nodes in depth columns coloured by class, edges labelled with their move, solution paths
//! highlighted, hover shows the board, click shows it on the canvas; pan and zoom, with level
//! of detail so thousands of nodes stay smooth. The layout comes ready from the worker; this
//! file only draws. A graph that passed its budget is named, with the budget, in its place.

use crate::analysis::Outcome;
use crate::studio::panel::{AppCommand, PanelCtx, ToolPanel};
use egui::{Align2, Color32, FontId, Mesh, Pos2, Rect, Sense, Shape, Stroke, Vec2};
use std::sync::Arc;
use studio_core::game::{StateGraphView, StatePicture};
use studio_ui::palette;

/// Above this many visible nodes, nodes are drawn as plain squares in one mesh and only
/// solution edges are drawn.
pub const DETAIL_LIMIT: usize = 2500;

/// The viewer's own state: view transform, hover, and where nodes were drawn.
#[derive(Debug)]
pub struct GraphPanel {
    /// Points per graph unit (0 = fit on next frame).
    scale: f32,
    /// Offset of the graph centre from the panel centre, in points.
    pan: Vec2,
    shown_for: Option<usize>,
    /// The node under the pointer.
    pub hovered: Option<usize>,
    last_rect: Rect,
    last_graph: Option<Arc<dyn StateGraphView>>,
    /// Nodes drawn last frame (after culling).
    pub drawn_nodes: usize,
}

impl Default for GraphPanel {
    fn default() -> Self {
        Self {
            scale: 0.0,
            pan: Vec2::ZERO,
            shown_for: None,
            hovered: None,
            last_rect: Rect::NOTHING,
            last_graph: None,
            drawn_nodes: 0,
        }
    }
}

impl GraphPanel {
    /// Where a node was drawn last frame (tests click there).
    pub fn node_screen_pos(&self, node: usize) -> Option<Pos2> {
        let g = self.last_graph.as_ref()?;
        let p = g.layout().positions.get(node)?;
        let pos = self.to_screen(g.as_ref(), *p);
        self.last_rect.contains(pos).then_some(pos)
    }

    fn to_screen(&self, g: &dyn StateGraphView, p: [f32; 2]) -> Pos2 {
        let b = g.layout().bounds;
        let centre = Vec2::new((b[0] + b[2]) / 2.0, (b[1] + b[3]) / 2.0);
        self.last_rect.center() + self.pan + (Vec2::new(p[0], p[1]) - centre) * self.scale
    }

    fn fit(&mut self, g: &dyn StateGraphView, rect: Rect) {
        let b = g.layout().bounds;
        let (w, h) = ((b[2] - b[0]).max(1.0) + 80.0, (b[3] - b[1]).max(1.0) + 60.0);
        self.scale = (rect.width() / w).min(rect.height() / h).clamp(0.01, 2.5);
        self.pan = Vec2::ZERO;
    }

    /// Draws a graph into the available space; returns a clicked node.
    pub fn show_graph(
        &mut self,
        ui: &mut egui::Ui,
        g: &Arc<dyn StateGraphView>,
        shown_state: Option<usize>,
    ) -> Option<usize> {
        let (response, painter) = ui.allocate_painter(
            ui.available_size().max(Vec2::new(100.0, 120.0)),
            Sense::click_and_drag(),
        );
        let rect = response.rect;
        self.last_rect = rect;
        let new_graph = self
            .last_graph
            .as_ref()
            .map(|old| !Arc::ptr_eq(old, g))
            .unwrap_or(true);
        if self.scale == 0.0 || (new_graph && self.shown_for != Some(g.node_count())) {
            self.fit(g.as_ref(), rect);
        }
        self.shown_for = Some(g.node_count());
        self.last_graph = Some(g.clone());
        painter.rect_filled(rect, 4.0, Color32::from_rgb(22, 24, 30));
        self.pan_and_zoom(ui, &response, g.as_ref());

        let painter = painter.with_clip_rect(rect);
        let view = self.view(g.as_ref(), rect);
        self.drawn_nodes = view.visible.len();
        draw_edges(&painter, g.as_ref(), &view);
        draw_nodes(&painter, g.as_ref(), &view, shown_state);

        // Hover and click.
        self.hovered = response.hover_pos().and_then(|p| view.node_at(p));
        let mut clicked = None;
        if let Some(h) = self.hovered {
            let stroke = Stroke::new(2.0, palette::ACCENT);
            painter.circle_stroke(view.screen[h], view.radius + 2.0, stroke);
            let picture = g.state(h)?;
            response
                .clone()
                .on_hover_ui_at_pointer(|ui| state_tooltip(ui, &picture));
            if response.clicked() {
                clicked = Some(h);
            }
        }
        let legend = format!(
            "{} nodes · {} edges · {}",
            g.node_count(),
            g.layout().edges.len(),
            if view.detailed {
                "full detail"
            } else {
                "overview"
            }
        );
        painter.text(
            rect.right_bottom() - Vec2::new(8.0, 6.0),
            Align2::RIGHT_BOTTOM,
            legend,
            FontId::proportional(11.0),
            Color32::from_gray(170),
        );
        clicked
    }

    /// Drag pans; the wheel or a pinch zooms about the pointer; a double-click fits.
    fn pan_and_zoom(&mut self, ui: &egui::Ui, response: &egui::Response, g: &dyn StateGraphView) {
        let rect = response.rect;
        if response.dragged() {
            self.pan += response.drag_delta();
        }
        if response.hovered() {
            let (zoom, scroll, pointer) = ui.input(|i| {
                (
                    i.zoom_delta(),
                    i.smooth_scroll_delta(),
                    i.pointer.hover_pos(),
                )
            });
            let factor = if zoom != 1.0 {
                zoom
            } else {
                (scroll.y * 0.003).exp()
            };
            if factor != 1.0 {
                let old = self.scale;
                self.scale = (self.scale * factor).clamp(0.005, 6.0);
                if let Some(p) = pointer {
                    let anchor = p - rect.center() - self.pan;
                    self.pan -= anchor * (self.scale / old - 1.0);
                }
            }
        }
        if response.double_clicked() {
            self.fit(g, rect);
        }
    }

    /// Where the nodes fall on screen in `rect` this frame, and how much detail they get.
    fn view(&self, g: &dyn StateGraphView, rect: Rect) -> View {
        let screen: Vec<Pos2> = g
            .layout()
            .positions
            .iter()
            .map(|&p| self.to_screen(g, p))
            .collect();
        let visible_rect = rect.expand(10.0);
        let visible: Vec<usize> = (0..screen.len())
            .filter(|&i| visible_rect.contains(screen[i]))
            .collect();
        let radius = (6.0 * self.scale).clamp(1.0, 9.0);
        let detailed = visible.len() <= DETAIL_LIMIT && radius >= 2.0;
        View {
            screen,
            visible,
            visible_rect,
            radius,
            detailed,
        }
    }
}

/// The graph as drawn this frame: where its nodes fall on screen and how much is drawn.
struct View {
    /// Every node's screen position.
    screen: Vec<Pos2>,
    /// The nodes in the panel (or just outside it).
    visible: Vec<usize>,
    /// The panel a little enlarged: an edge with an end in it is drawn.
    visible_rect: Rect,
    /// A node's radius, in points.
    radius: f32,
    /// Every edge and round nodes; else only the solution paths and square nodes.
    detailed: bool,
}

impl View {
    /// The visible node nearest to `p`, when one is close enough to pick.
    fn node_at(&self, p: Pos2) -> Option<usize> {
        let pick = (self.radius + 4.0).max(5.0);
        self.visible
            .iter()
            .map(|&i| (i, self.screen[i].distance(p)))
            .filter(|&(_, d)| d <= pick)
            .min_by(|a, b| a.1.partial_cmp(&b.1).unwrap_or(std::cmp::Ordering::Equal))
            .map(|(i, _)| i)
    }
}

/// The edges: all of them when detailed (labelled with their move when few and large),
/// otherwise only solution paths.
fn draw_edges(painter: &egui::Painter, g: &dyn StateGraphView, view: &View) {
    let layout = g.layout();
    let detailed = view.detailed;
    let edge_stroke = Stroke::new(if detailed { 1.0 } else { 0.6 }, Color32::from_gray(85));
    let solution_stroke = Stroke::new(
        if detailed { 2.2 } else { 1.2 },
        palette::rgb(g.solution_rgb()),
    );
    let labels = detailed && view.radius >= 6.0 && view.visible.len() <= 300;
    let mut lines = Vec::new();
    for (k, &(a, b, letter)) in layout.edges.iter().enumerate() {
        let on_path = layout.solution_edge.get(k).copied().unwrap_or(false);
        if !detailed && !on_path {
            continue;
        }
        let (pa, pb) = (view.screen[a as usize], view.screen[b as usize]);
        if !view.visible_rect.contains(pa) && !view.visible_rect.contains(pb) {
            continue;
        }
        lines.push(Shape::line_segment(
            [pa, pb],
            if on_path {
                solution_stroke
            } else {
                edge_stroke
            },
        ));
        if labels {
            let mid = pa + (pb - pa) * 0.55;
            painter.text(
                mid,
                Align2::CENTER_CENTER,
                letter,
                FontId::monospace(10.0),
                Color32::from_gray(210),
            );
        }
    }
    painter.extend(lines);
}

/// The nodes in their class's colour (round when detailed, else squares in one mesh), the
/// start marked, and the state shown on the canvas ringed.
fn draw_nodes(
    painter: &egui::Painter,
    g: &dyn StateGraphView,
    view: &View,
    shown_state: Option<usize>,
) {
    let classes = g.classes();
    let class_colour = |node: usize| {
        classes
            .get(g.class_of(node))
            .map_or(Color32::GRAY, |c| palette::rgb(c.rgb))
    };
    let (screen, radius) = (&view.screen, view.radius);
    if view.detailed {
        for &i in &view.visible {
            painter.circle_filled(screen[i], radius, class_colour(i));
        }
    } else {
        let mut mesh = Mesh::default();
        let half = Vec2::splat(radius.max(1.0));
        for &i in &view.visible {
            mesh.add_colored_rect(
                Rect::from_center_size(screen[i], half * 2.0),
                class_colour(i),
            );
        }
        painter.add(Shape::mesh(mesh));
    }
    let start = g.start();
    if let Some(&p) = screen.get(start) {
        painter.circle_stroke(p, radius + 3.0, Stroke::new(2.0, Color32::WHITE));
        painter.text(
            p - Vec2::new(0.0, radius + 5.0),
            Align2::CENTER_BOTTOM,
            "start",
            FontId::proportional(11.0),
            Color32::WHITE,
        );
    }
    if let Some(p) = shown_state.and_then(|s| screen.get(s)) {
        painter.circle_stroke(*p, radius + 4.0, Stroke::new(2.5, palette::ACCENT));
    }
}

/// The tooltip of a hovered node: its caption and its board.
fn state_tooltip(ui: &mut egui::Ui, picture: &StatePicture) {
    ui.label(picture.caption.as_str());
    let cells = &picture.cells;
    let cell = 16.0;
    let (r, _) = ui.allocate_exact_size(
        Vec2::new(cells.width() as f32, cells.height() as f32) * cell,
        Sense::hover(),
    );
    let p = ui.painter();
    for (x, y, c) in cells.iter() {
        let cr = Rect::from_min_size(
            r.min + Vec2::new(x as f32, y as f32) * cell,
            Vec2::splat(cell),
        )
        .shrink(0.5);
        palette::paint_look(p, cr, c);
    }
    ui.weak("click to show it on the canvas");
}

impl ToolPanel for GraphPanel {
    fn name(&self) -> &'static str {
        "State graph"
    }

    fn ui(&mut self, ui: &mut egui::Ui, ctx: &mut PanelCtx<'_>) {
        let graph = match ctx.analysis.last.as_ref() {
            Some(Outcome { result: Ok(a), .. }) => a.graph.clone(),
            _ => None,
        };
        ui.horizontal(|ui| {
            ui.heading("State graph");
            if let Some(g) = &graph {
                for class in g.classes() {
                    let (dot, _) = ui.allocate_exact_size(Vec2::splat(10.0), Sense::hover());
                    ui.painter()
                        .circle_filled(dot.center(), 5.0, palette::rgb(class.rgb));
                    ui.label(class.name);
                }
            }
        });
        match (graph, ctx.analysis.last.as_ref()) {
            (Some(g), _) => {
                ui.horizontal(|ui| {
                    if ui
                        .small_button("Fit")
                        .on_hover_text("Fit the graph (or double-click it)")
                        .clicked()
                    {
                        self.scale = 0.0;
                    }
                    ui.weak("drag: pan · wheel: zoom · click a node: show it on the canvas");
                });
                if let Some(node) = self.show_graph(ui, &g, ctx.shown_state) {
                    ctx.commands.push(AppCommand::ShowGraphState(node));
                }
            }
            (None, Some(Outcome { result: Ok(a), .. })) => match &a.graph_note {
                Some(note) => {
                    ui.label(
                        egui::RichText::new(capitalised(note))
                            .color(palette::BAD)
                            .strong(),
                    );
                    ui.weak(
                        "The exact state graph passed its budget, so it is not drawn; the \
                         gauge's figures and verdict come from the agents' games.",
                    );
                }
                None => {
                    ui.weak("This game's analysis has no state graph.");
                }
            },
            (None, Some(Outcome { result: Err(e), .. })) => {
                ui.label(egui::RichText::new(format!("No graph: {e}")).color(palette::BAD));
            }
            (None, None) => {
                ui.weak("The graph appears once the level has been analysed.");
            }
        }
    }
}

/// `note` with its first letter in upper case ("graph too large …" → "Graph too large …").
fn capitalised(note: &str) -> String {
    let mut chars = note.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_uppercase().chain(chars).collect()
    })
}
