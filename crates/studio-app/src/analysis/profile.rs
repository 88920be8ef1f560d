//! The Agent profile window (pattern-based-ga-generator's relative performance profiles):
//! choose a set of levels (the editor's level, the active pack, the candidates) and, to
//! compare, a second set, and which agents play (a game's generic agents by
//! default, as the paper profiled, or the studio's ladder); every agent plays each level N
//! seeded times on a worker thread. The result is a table and two bar charts: win rate and normalised score
//! per agent, one bar per set.

use crate::jobs::{JobError, JobMode, Worker};
use crate::RepaintOnReport;
use egui::{Color32, RichText};
use egui_plot::{Bar, BarChart, GridMark, Plot};
use studio_core::game::{AgentProfile, GameId};
use studio_core::level::Level;
use studio_ui::palette;

/// A named set of levels to profile.
pub type Source = (String, Vec<Level>);

/// What one run measured: each set's label and profiles.
#[derive(Clone, Debug, PartialEq)]
pub struct Profiles {
    /// The game profiled.
    pub game: GameId,
    /// Games per agent and level.
    pub games: u32,
    /// One entry per set: its label, its level count and the profiles.
    pub sets: Vec<(String, usize, Vec<AgentProfile>)>,
}

/// The bar colours of the first and second set.
const SET_COLOURS: [Color32; 2] = [
    Color32::from_rgb(76, 187, 94),
    Color32::from_rgb(229, 83, 75),
];

/// The Agent profile window's state.
pub struct ProfileWindow {
    /// Shown.
    pub open: bool,
    /// The set profiled (by label).
    pub first: Option<String>,
    /// The set compared with it, if any.
    pub second: Option<String>,
    /// Games per agent and level.
    pub games: u32,
    /// Seed of the games.
    pub seed: u64,
    /// The set of agents that plays (a name from `Game::agent_sets`; empty: the default).
    pub agents: String,
    /// The last result.
    pub result: Option<Profiles>,
    /// The last problem, in words.
    pub error: Option<String>,
    worker: Worker<Profiles>,
    next_key: u64,
}

impl ProfileWindow {
    /// A closed window running jobs in `mode`.
    pub fn new(mode: JobMode) -> Self {
        Self {
            open: false,
            first: None,
            second: None,
            games: 10,
            seed: 0,
            agents: String::new(),
            result: None,
            error: None,
            worker: Worker::new("agent profile", mode),
            next_key: 1,
        }
    }

    /// True while the agents play.
    pub fn busy(&self) -> bool {
        self.worker.busy()
    }

    /// Starts profiling the chosen sets of `game`'s levels from `sources`.
    pub fn run(&mut self, game: GameId, sources: &[Source], ctx: &egui::Context) {
        let pick = |label: &Option<String>| {
            label
                .as_ref()
                .and_then(|l| sources.iter().find(|(s, _)| s == l))
                .cloned()
        };
        let Some(first) = pick(&self.first) else {
            self.error = Some("Choose the levels to profile first".into());
            return;
        };
        let sets: Vec<Source> = std::iter::once(first).chain(pick(&self.second)).collect();
        self.error = None;
        let (games, seed) = (self.games.max(1), self.seed);
        let agents = self.agents.clone();
        self.worker.set_repaint(ctx);
        let key = self.next_key;
        self.next_key += 1;
        self.worker.start(key, move |cancel, report| {
            let g = game.game().map_err(|e| JobError::failed(e.to_string()))?;
            let mut out = Vec::new();
            for (i, (label, levels)) in sets.iter().enumerate() {
                // Level by level, so the bar moves with each level played (W4); every
                // agent's figures are means over the levels, as one call over the set gives.
                let mine: Vec<&Level> = levels.iter().filter(|l| l.game == game).collect();
                let mut per_level = Vec::new();
                for (k, level) in mine.iter().enumerate() {
                    report.progress(
                        (i as f32 + k as f32 / mine.len().max(1) as f32) / sets.len() as f32,
                        format!(
                            "{label}: level {} of {} × {games} games per agent",
                            k + 1,
                            mine.len()
                        ),
                    );
                    let one = std::slice::from_ref(*level);
                    per_level.push(g.agent_profiles(one, &agents, games, seed, cancel)?);
                }
                let profiles = if per_level.is_empty() {
                    // No level of the game: the game's own refusal, in its words.
                    g.agent_profiles(levels, &agents, games, seed, cancel)?
                } else {
                    mean_profiles(&per_level)
                };
                out.push((label.clone(), levels.len(), profiles));
            }
            Ok(Profiles {
                game,
                games,
                sets: out,
            })
        });
    }

    /// Collects the worker's answer.
    pub fn poll(&mut self) {
        if let Some((_, outcome)) = self.worker.poll() {
            self.take(outcome);
        }
    }

    /// Tests: block until the agents are done.
    pub fn wait(&mut self, timeout: std::time::Duration) {
        if let Some((_, outcome)) = self.worker.wait(timeout) {
            self.take(outcome);
        }
    }

    fn take(&mut self, outcome: Result<Profiles, JobError>) {
        match outcome {
            Ok(p) => self.result = Some(p),
            Err(JobError::Cancelled) => {}
            Err(e) => self.error = Some(e.to_string()),
        }
    }

    /// Draws the window; `sources` are the sets of the current game's levels.
    pub fn ui(&mut self, ctx: &egui::Context, game: GameId, sources: &[Source]) {
        if !self.open {
            return;
        }
        if self.first.is_none() {
            self.first = sources.first().map(|s| s.0.clone());
        }
        let mut open = true;
        egui::Window::new("Agent profile")
            .open(&mut open)
            .default_size([780.0, 540.0])
            .default_pos([300.0, 160.0])
            .show(ctx, |ui| {
                self.controls(ui, game, sources);
                ui.separator();
                self.result_ui(ui);
            });
        if !open {
            self.open = false;
            self.worker.cancel();
        }
    }

    fn controls(&mut self, ui: &mut egui::Ui, game: GameId, sources: &[Source]) {
        let labelled = |label: &Option<String>| {
            label.as_ref().map_or("none".to_string(), |l| {
                let n = sources
                    .iter()
                    .find(|(s, _)| s == l)
                    .map_or(0, |s| s.1.len());
                format!("{l} ({n})")
            })
        };
        egui::Grid::new("profile-controls")
            .num_columns(2)
            .show(ui, |ui| {
                let l = ui.label("Levels");
                egui::ComboBox::from_id_salt("profile-first")
                    .selected_text(labelled(&self.first))
                    .width(260.0)
                    .show_ui(ui, |ui| {
                        for (label, levels) in sources {
                            let text = format!("{label} ({})", levels.len());
                            ui.selectable_value(&mut self.first, Some(label.clone()), text);
                        }
                    })
                    .response
                    .labelled_by(l.id);
                ui.end_row();
                let l = ui.label("Compare with");
                egui::ComboBox::from_id_salt("profile-second")
                    .selected_text(labelled(&self.second))
                    .width(260.0)
                    .show_ui(ui, |ui| {
                        ui.selectable_value(&mut self.second, None, "none");
                        for (label, levels) in sources {
                            let text = format!("{label} ({})", levels.len());
                            ui.selectable_value(&mut self.second, Some(label.clone()), text);
                        }
                    })
                    .response
                    .labelled_by(l.id);
                ui.end_row();
                let sets = game.game().map(|g| g.agent_sets()).unwrap_or_default();
                if !sets.is_empty() {
                    if !sets.iter().any(|(name, _)| *name == self.agents) {
                        self.agents = sets[0].0.to_string();
                    }
                    let l = ui.label("Agents");
                    egui::ComboBox::from_id_salt("profile-agents")
                        .selected_text(self.agents.clone())
                        .width(260.0)
                        .show_ui(ui, |ui| {
                            for (name, help) in &sets {
                                ui.selectable_value(&mut self.agents, name.to_string(), *name)
                                    .on_hover_text(*help);
                            }
                        })
                        .response
                        .on_hover_text(
                            sets.iter()
                                .find(|(name, _)| *name == self.agents)
                                .map_or("", |s| s.1),
                        )
                        .labelled_by(l.id);
                    ui.end_row();
                }
                let l = ui.label("Games per agent");
                ui.add(egui::DragValue::new(&mut self.games).range(1..=100))
                    .on_hover_text("Seeded games every agent plays on each level")
                    .labelled_by(l.id);
                ui.end_row();
                let l = ui.label("Seed");
                ui.add(egui::DragValue::new(&mut self.seed))
                    .labelled_by(l.id);
                ui.end_row();
            });
        ui.horizontal(|ui| {
            let busy = self.busy();
            if ui
                .add_enabled(!busy && self.first.is_some(), egui::Button::new("Profile"))
                .on_hover_text("Every agent plays each level; the bars show how they fare")
                .clicked()
            {
                self.run(game, sources, ui.ctx());
            }
            if ui.add_enabled(busy, egui::Button::new("Cancel")).clicked() {
                self.worker.cancel();
            }
            if busy {
                let (f, note) = self.worker.progress_text();
                ui.add(
                    egui::ProgressBar::new(f)
                        .text(note)
                        .animate(true)
                        .desired_width(260.0),
                );
            }
        });
        if let Some(e) = &self.error {
            ui.colored_label(palette::BAD, e);
        }
    }

    fn result_ui(&self, ui: &mut egui::Ui) {
        let Some(p) = &self.result else {
            ui.weak(
                "Choose a set of levels (and another to compare, e.g. Evolve (α) candidates \
                 against a pack of β rooms) and press Profile.",
            );
            return;
        };
        let agents: Vec<&str> = p
            .sets
            .first()
            .map(|s| s.2.iter().map(|a| a.agent.as_str()).collect())
            .unwrap_or_default();
        egui::Grid::new("profile-table")
            .striped(true)
            .num_columns(1 + 2 * p.sets.len())
            .show(ui, |ui| {
                ui.strong("agent");
                for (i, (label, n, _)) in p.sets.iter().enumerate() {
                    let c = SET_COLOURS[i % 2];
                    ui.label(RichText::new(format!("{label} ({n}): win")).color(c));
                    ui.label(RichText::new("score").color(c));
                }
                ui.end_row();
                for (a, name) in agents.iter().enumerate() {
                    ui.label(*name);
                    for (_, _, profiles) in &p.sets {
                        let row = &profiles[a];
                        ui.label(format!("{:.0} %", row.win_rate * 100.0));
                        ui.label(format!("{:.2}", row.normalised_score));
                    }
                    ui.end_row();
                }
            });
        ui.weak(format!(
            "{} games per agent and level; score: min–max normalised over the agents in each \
             level, then averaged",
            p.games
        ));
        ui.columns(2, |cols| {
            bar_plot(&mut cols[0], "profile-win", "win rate", p, &agents, |a| {
                a.win_rate
            });
            bar_plot(
                &mut cols[1],
                "profile-score",
                "normalised score",
                p,
                &agents,
                |a| a.normalised_score,
            );
        });
    }
}

/// One bar chart: a row per agent (names on the left, top to bottom in ladder order), one
/// horizontal bar per set.
fn bar_plot(
    ui: &mut egui::Ui,
    id: &str,
    title: &str,
    p: &Profiles,
    agents: &[&str],
    value: fn(&AgentProfile) -> f64,
) {
    ui.horizontal(|ui| {
        ui.label(RichText::new(title).small().strong());
        for (i, (label, _, _)) in p.sets.iter().enumerate() {
            ui.label(
                RichText::new(format!("— {label}"))
                    .small()
                    .color(SET_COLOURS[i % 2]),
            );
        }
    });
    let sets = p.sets.len().max(1) as f64;
    let height = 0.8 / sets;
    let names: Vec<String> = agents.iter().map(|s| s.to_string()).collect();
    let n = agents.len();
    // The first agent on top: row i sits at y = n - 1 - i.
    let row = move |i: usize| (n - 1 - i) as f64;
    Plot::new(id)
        .height(26.0 * n as f32 + 30.0)
        .include_x(0.0)
        .include_x(1.0)
        .allow_drag(false)
        .allow_zoom(false)
        .allow_scroll(false)
        .y_axis_min_width(72.0)
        .y_grid_spacer(move |_| {
            (0..n)
                .map(|i| GridMark {
                    value: i as f64,
                    step_size: 1.0,
                })
                .collect()
        })
        .y_axis_formatter(move |mark, _| {
            let i = mark.value.round();
            if (mark.value - i).abs() < 1e-6 && i >= 0.0 && (i as usize) < n {
                names[n - 1 - i as usize].clone()
            } else {
                String::new()
            }
        })
        .show(ui, |plot| {
            for (s, (label, _, profiles)) in p.sets.iter().enumerate() {
                // The first set's bar above the second's.
                let offset = ((sets - 1.0) / 2.0 - s as f64) * height;
                let bars: Vec<Bar> = profiles
                    .iter()
                    .enumerate()
                    .map(|(a, r)| {
                        Bar::new(row(a) + offset, value(r))
                            .width(height * 0.9)
                            .name(&r.agent)
                    })
                    .collect();
                plot.bar_chart(
                    BarChart::new(label.as_str(), bars)
                        .color(SET_COLOURS[s % 2])
                        .horizontal(),
                );
            }
        });
}

/// Every agent's win rate and normalised score, averaged over per-level profiles (each
/// level's agents in the same order).
pub fn mean_profiles(per_level: &[Vec<AgentProfile>]) -> Vec<AgentProfile> {
    let n = per_level.len().max(1) as f64;
    let Some(first) = per_level.first() else {
        return Vec::new();
    };
    first
        .iter()
        .enumerate()
        .map(|(a, p)| AgentProfile {
            agent: p.agent.clone(),
            win_rate: per_level.iter().map(|l| l[a].win_rate).sum::<f64>() / n,
            normalised_score: per_level.iter().map(|l| l[a].normalised_score).sum::<f64>() / n,
        })
        .collect()
}
