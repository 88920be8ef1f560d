//! The generator section of the sidebar: the request per game (generator, conditions, count,
//! seed), the runs on a worker with progress and Cancel, and the candidates that stream in
//! from the core's generation service (its widgets are in
//! `generator_ui.rs`; candidates are drawn by
//! [`candidates`](crate::generation::candidates)).

use crossbeam_channel::{unbounded, Receiver, Sender};
use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, Mutex};
use studio_core::game::{
    self, Chart, ConditionValue, Conditions, GameId, GenRequest, LevelGenerator, ModelCache,
};
use studio_core::generation::{self, Candidate, GenSummary};
use studio_core::jobs::{JobError, JobMode, Worker};

/// A candidate on its way from the worker, with the run it belongs to.
struct Streamed {
    run: u64,
    candidate: Candidate,
}

/// The sidebar's generators and the candidates they made.
pub struct GeneratorPanel {
    /// The request being edited, per game.
    requests: HashMap<GameId, GenRequest>,
    /// The loaded models (shared with workers and the interpolation window).
    pub models: ModelCache,
    /// Candidates of the last run, in arrival order.
    pub candidates: Vec<Candidate>,
    /// The conditions each generator had when the designer left it, by game and generator.
    remembered: HashMap<(GameId, &'static str), Conditions>,
    /// Per game, the candidates a new run or Clear replaced ("Previous" brings them back).
    pub previous: HashMap<GameId, Vec<Candidate>>,
    /// The level "More like this" started from, while its list is shown: its place among the
    /// candidates (its card is marked as the source; the game's others are near it) and name.
    pub anchor: Option<(usize, String)>,
    /// The running generation (or "more like this").
    pub(super) worker: Worker<GenSummary>,
    loader: Worker<()>,
    tx: Sender<Streamed>,
    rx: Receiver<Streamed>,
    run: u64,
    /// The game of the last run.
    pub(super) running: Option<GameId>,
    /// True when the running generation is a search that Stop ends early, keeping its best.
    stoppable: bool,
    /// True from a click on Stop until the run ends: Cancel is disabled meanwhile, so a
    /// second click of a double-click can never turn "keep" into "discard".
    stopping: bool,
    /// What the last run said (done, cancelled, failed), for the designer.
    pub note: Option<String>,
    /// The last error (a model that did not load, a refused condition).
    pub error: Option<String>,
    /// Why a typed condition was changed (out of its range), and the game it was typed in.
    pub range_note: Option<(GameId, String)>,
    /// The game [`GeneratorPanel::note`] and [`GeneratorPanel::error`] are about: another
    /// game's panel never shows them.
    pub status_game: Option<GameId>,
    /// Where each shown candidate's thumbnail was drawn last frame (index, rect; tests drag
    /// them).
    pub card_rects: Vec<(usize, egui::Rect)>,
    /// The charts a searching generator drew in the last run (the GA's fitness and
    /// populations per generation), with the run they belong to.
    charts: Arc<Mutex<(u64, Vec<Chart>)>>,
}

/// A fresh request for a game: its first generator with that generator's defaults.
fn request_for(game: GameId) -> GenRequest {
    let first = game
        .game()
        .ok()
        .and_then(|g| studio_core::game::generators_of(g).into_iter().next());
    let (generator, conditions) = match &first {
        Some(g) => (g.id(), Conditions::defaults(&g.conditions())),
        None => ("", Conditions::default()),
    };
    GenRequest {
        game,
        generator,
        conditions,
        count: 8,
        seed: 1,
        validated_only: false,
        weights: None,
    }
}

/// The generator a request names.
pub(super) fn generator_of(request: &GenRequest) -> Option<Arc<dyn LevelGenerator>> {
    let game = request.game.game().ok()?;
    game::generator_of(game, request.generator).ok()
}

impl GeneratorPanel {
    /// A panel reading models from `models_dir`, running jobs in `mode`.
    pub fn new(models_dir: &Path, mode: JobMode) -> Self {
        let (tx, rx) = unbounded();
        Self {
            requests: HashMap::new(),
            models: ModelCache::new(models_dir),
            candidates: Vec::new(),
            previous: HashMap::new(),
            anchor: None,
            remembered: HashMap::new(),
            worker: Worker::new("generation", mode),
            loader: Worker::new("model loading", mode),
            tx,
            rx,
            run: 0,
            running: None,
            stoppable: false,
            stopping: false,
            note: None,
            error: None,
            range_note: None,
            status_game: None,
            card_rects: Vec::new(),
            charts: Arc::new(Mutex::new((0, Vec::new()))),
        }
    }

    /// The charts the last run drew (empty for generators that draw none).
    pub fn charts(&self) -> Vec<Chart> {
        match self.charts.lock() {
            Ok(c) if c.0 == self.run => c.1.clone(),
            _ => Vec::new(),
        }
    }

    /// The request of a game.
    pub fn request(&mut self, game: GameId) -> &GenRequest {
        self.request_mut(game)
    }

    /// The request of a game, when the designer has touched its generator settings.
    pub fn saved_request(&self, game: GameId) -> Option<&GenRequest> {
        self.requests.get(&game)
    }

    /// The request of a game, to edit.
    pub fn request_mut(&mut self, game: GameId) -> &mut GenRequest {
        self.requests
            .entry(game)
            .or_insert_with(|| request_for(game))
    }

    /// Chooses a generator for a game, keeping the conditions both generators take.
    pub fn choose(&mut self, game: GameId, generator: &str) {
        let r = self.request_mut(game).clone();
        let Some(game_rules) = r.game.game().ok() else {
            return;
        };
        let Some(g) = game::generator_of(game_rules, generator).ok() else {
            return;
        };
        let old_specs = game::generator_of(game_rules, r.generator)
            .map(|o| o.conditions())
            .unwrap_or_default();
        // Each generator keeps its own conditions: where a key means something else in
        // another generator (a DAGP distance in other units), its value never carries over.
        self.remembered
            .insert((game, r.generator), r.conditions.clone());
        let specs = g.conditions();
        let mut conditions = self
            .remembered
            .get(&(game, g.id()))
            .cloned()
            .unwrap_or_else(|| Conditions::defaults(&specs));
        for spec in &specs {
            // The same condition in both (same kind, range and name): the designer's value.
            let same = old_specs
                .iter()
                .any(|o| o.key == spec.key && o.kind == spec.kind && o.label == spec.label);
            if let Some(v) = r.conditions.get(spec.key).filter(|_| same) {
                conditions.set(spec.key, v);
            }
        }
        let r = self.request_mut(game);
        r.generator = g.id();
        r.conditions = conditions;
    }

    /// Sets a condition of a game's request (tests and the "nearest" buttons).
    pub fn set_condition(&mut self, game: GameId, key: &'static str, value: ConditionValue) {
        self.request_mut(game).conditions.set(key, value);
    }

    /// Changes whenever the candidates do (a new run, an arrival, a clear).
    pub fn revision(&self) -> (u64, usize) {
        (self.run, self.candidates.len())
    }

    /// True while a generation runs.
    pub fn busy(&self) -> bool {
        self.worker.busy()
    }

    /// Progress of the running job.
    pub fn progress(&self) -> Option<&(f32, String)> {
        self.worker.progress.as_ref()
    }

    /// The run's progress with the time it has left ("starting…" before the first report).
    pub fn progress_text(&self) -> (f32, String) {
        self.worker.progress_text()
    }

    fn start(
        &mut self,
        ctx: &egui::Context,
        work: impl FnOnce(
                &ModelCache,
                &studio_core::jobs::Cancel,
                &mut dyn FnMut(f32, String),
                &mut dyn FnMut(Candidate),
            ) -> Result<GenSummary, JobError>
            + Send
            + 'static,
    ) {
        self.error = None;
        self.note = None;
        self.anchor = None;
        self.status_game = self.running;
        self.run += 1;
        let (run, tx, models) = (self.run, self.tx.clone(), self.models.clone());
        let repaint = ctx.clone();
        self.worker.set_waker(move || repaint.request_repaint());
        self.worker.start(run, move |cancel, report| {
            let mut progress = |fraction: f32, note: String| report.progress(fraction, note);
            let mut out = |candidate: Candidate| {
                let _ = tx.send(Streamed { run, candidate });
            };
            work(&models, cancel, &mut progress, &mut out)
        });
    }

    /// Puts `game`'s candidates aside (they come back with [`GeneratorPanel::swap_previous`]);
    /// nothing is put aside when there are none, so the last real set stays.
    pub fn put_aside(&mut self, game: GameId) {
        self.anchor = None;
        let (mine, rest): (Vec<_>, Vec<_>) = std::mem::take(&mut self.candidates)
            .into_iter()
            .partition(|c| c.level.game == game);
        self.candidates = rest;
        if !mine.is_empty() {
            self.status_game = Some(game);
            self.note = Some(format!(
                "{} earlier candidates put aside: “Previous” brings them back",
                mine.len()
            ));
            self.previous.insert(game, mine);
        }
    }

    /// Makes `list` (levels of `game` made outside a run, by the tool window `from`) the
    /// candidates of `game`; the earlier ones are put aside, not lost.
    pub fn offer(&mut self, game: GameId, from: &str, list: Vec<Candidate>) {
        if self.running == Some(game) {
            self.cancel();
        }
        self.put_aside(game);
        self.status_game = Some(game);
        self.note = Some(format!("{} candidates from the {from}", list.len()));
        self.candidates.extend(list);
        self.run += 1;
    }

    /// Swaps `game`'s candidates with the ones put aside last (a run of that game is
    /// stopped first).
    pub fn swap_previous(&mut self, game: GameId) {
        if self.running == Some(game) {
            self.cancel();
        }
        let Some(back) = self.previous.remove(&game) else {
            return;
        };
        self.anchor = None;
        let (mine, rest): (Vec<_>, Vec<_>) = std::mem::take(&mut self.candidates)
            .into_iter()
            .partition(|c| c.level.game == game);
        self.status_game = Some(game);
        self.note = Some(format!("{} earlier candidates back", back.len()));
        self.candidates = rest;
        self.candidates.extend(back);
        self.run += 1;
        if !mine.is_empty() {
            self.previous.insert(game, mine);
        }
    }

    /// Starts generating for `game` (the previous run is cancelled; its candidates are put
    /// aside, not lost).
    pub fn generate(&mut self, game: GameId, ctx: &egui::Context) {
        self.running = Some(game);
        let request = self.request_mut(game).clone();
        self.stoppable = generator_of(&request).is_some_and(|g| g.stops_early());
        self.stopping = false;
        self.put_aside(game);
        let (slot, run) = (self.charts.clone(), self.run + 1);
        self.start(ctx, move |models, cancel, progress, out| {
            let mut charts = |c: &[Chart]| {
                if let Ok(mut s) = slot.lock() {
                    *s = (run, c.to_vec());
                }
            };
            generation::run_charted(&request, models, cancel, progress, &mut charts, out)
        });
    }

    /// "More like this": levels near candidate `index` in its generator's latent space.
    pub fn more_like(&mut self, index: usize, ctx: &egui::Context) {
        let Some(candidate) = self.candidates.get(index).cloned() else {
            return;
        };
        let game = candidate.level.game;
        self.running = Some(game);
        let mut request = self.request_mut(game).clone();
        if request.generator != candidate.generator {
            self.choose(game, candidate.generator);
            request = self.request_mut(game).clone();
        }
        if !generator_of(&request).is_some_and(|g| g.has_near()) {
            return;
        }
        request.seed = request.seed.wrapping_add(index as u64 + 1);
        self.stoppable = false;
        self.stopping = false;
        self.put_aside(game);
        self.candidates.push(candidate.clone());
        let anchor = (self.candidates.len() - 1, candidate.level.name.clone());
        // Its progress goes to the bar as each level arrives (W4), as Generate's does.
        self.start(ctx, move |models, cancel, progress, out| {
            generation::run_near(&candidate.level, &request, models, cancel, progress, out)
        });
        self.anchor = Some(anchor);
    }

    /// True while a search runs that Stop can end early (the GA).
    pub fn can_stop(&self) -> bool {
        self.worker.busy() && self.stoppable
    }

    /// True from a click on Stop until the stopped search has ended.
    pub fn stopping(&self) -> bool {
        self.stopping && self.worker.busy()
    }

    /// Ends a running search after the generation it is judging; it still offers the best
    /// levels it found, which arrive as candidates.
    pub fn stop(&mut self) {
        if self.can_stop() {
            self.worker.stop();
            self.stoppable = false;
            self.stopping = true;
            self.note = Some(
                "Stopping: the search ends after this generation and keeps its best levels".into(),
            );
        }
    }

    /// Stops the running job; the candidates that arrived stay (each is whole). Ignored while
    /// a Stop is under way: the search is already ending and keeps its best.
    pub fn cancel(&mut self) {
        if self.worker.busy() && !self.stopping() {
            self.worker.cancel();
            // What already arrived is kept (and counted); later sends of this run are dropped.
            self.collect();
            self.run += 1;
            let kept = self
                .candidates
                .iter()
                .filter(|c| Some(c.level.game) == self.running)
                .count();
            self.status_game = self.running;
            self.note = Some(format!("Cancelled ({kept} candidates kept)"));
        }
    }

    fn collect(&mut self) {
        while let Ok(s) = self.rx.try_recv() {
            if s.run == self.run {
                self.candidates.push(s.candidate);
            }
        }
    }

    /// Collects streamed candidates and the end of the run; loads the chosen model early so
    /// its feasibility warning shows before generating.
    pub fn poll(&mut self, game: GameId, ctx: &egui::Context) {
        self.collect();
        if let Some((_, outcome)) = self.worker.poll() {
            // Anything sent before the end has arrived on the channel by now.
            self.collect();
            match outcome {
                Ok(summary) => {
                    // A "More like this" run says so: its own line, naming its source (E12).
                    let mut note = match (&self.anchor, summary.note) {
                        (Some((_, source)), _) => format!(
                            "Done: {} levels near “{source}” (the source stays first)",
                            summary.sent
                        ),
                        (None, Some(n)) => format!("Done: {n}"),
                        (None, None) => format!("Done: {} candidates", summary.sent),
                    };
                    let found = self
                        .candidates
                        .iter()
                        .any(|c| Some(c.level.game) == self.running);
                    match self.running {
                        // A run that found nothing never leaves the designer with nothing:
                        // the set it put aside comes back.
                        Some(g) if !found => {
                            if let Some(back) = self.previous.remove(&g) {
                                note.push_str(&format!(
                                    " · the {} earlier candidates are kept",
                                    back.len()
                                ));
                                self.candidates.extend(back);
                                self.run += 1;
                            }
                        }
                        Some(g) => {
                            if let Some(earlier) = self.previous.get(&g) {
                                note.push_str(&format!(
                                    " · the {} before are under “Previous”",
                                    earlier.len()
                                ));
                            }
                        }
                        None => {}
                    }
                    self.status_game = self.running;
                    self.note = Some(note);
                }
                Err(JobError::Cancelled) => {}
                Err(JobError::Failed(e)) => {
                    self.status_game = self.running;
                    self.error = Some(e.to_string());
                }
            }
        }
        self.loader.poll();
        let request = self.request_mut(game).clone();
        let Some(generator) = generator_of(&request) else {
            return;
        };
        let Some(file) = generator.weights_file() else {
            return;
        };
        let path = self.models.dir().join(file);
        if !self.loader.busy() && !self.models.tried(&path) {
            let models = self.models.clone();
            let repaint = ctx.clone();
            self.loader.set_waker(move || repaint.request_repaint());
            let key = path.to_string_lossy().len() as u64 ^ self.run;
            self.loader.start(key, move |_, _| {
                let _ = generator.preload(&models, None);
                Ok(())
            });
        }
    }

    /// Tests: block until the running generation ends (or `timeout`), then collect.
    pub fn wait(&mut self, timeout: std::time::Duration, game: GameId, ctx: &egui::Context) {
        let deadline = std::time::Instant::now() + timeout;
        while self.worker.busy() && std::time::Instant::now() < deadline {
            self.poll(game, ctx);
            std::thread::sleep(std::time::Duration::from_millis(2));
        }
        self.poll(game, ctx);
    }
}
