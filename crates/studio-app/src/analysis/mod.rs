//! The live analysis of the board under edit: the game's own analysis (bots, a state
//! graph with its layout) run as a job on a worker thread, debounced after
//! edits, stale runs cancelled.

pub mod gauge;
pub mod graph_view;
pub mod profile;

use crate::board::Board;
use crate::jobs::{Cancel, JobError, JobMode, Worker};
use crate::RepaintOnReport;
use std::time::{Duration, Instant};
use studio_core::game::AnalyseOptions;
pub use studio_core::game::Analysis;

/// Wait after the last edit before re-analysing (keeps strokes smooth, answers well inside
/// the 150 ms the gauge is allowed).
pub const DEBOUNCE: Duration = Duration::from_millis(40);

/// One finished analysis: for which revision, how long it took, what it found.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The board revision analysed.
    pub revision: u64,
    /// Milliseconds from the edit to the answer (debounce included).
    pub latency_ms: f64,
    /// Milliseconds of work on the worker.
    pub work_ms: f64,
    /// The figures, or the problem in words ("no legal move", "graph too large", …).
    pub result: Result<Analysis, String>,
}

/// Runs the analysis of one board (on a worker thread).
///
/// # Errors
/// The problem in words; [`JobError::Cancelled`] when superseded.
pub fn analyse(
    board: &Board,
    options: &AnalyseOptions,
    cancel: &Cancel,
) -> Result<Analysis, JobError> {
    let level = board.to_level("", &[]);
    board.rules().analyse(&level, options, cancel)
}

/// The live gauge's state: the worker, the edit it waits to analyse, the last answer.
pub struct LiveAnalysis {
    worker: Worker<(Analysis, f64)>,
    pending: Option<(u64, Board, Instant)>,
    started: Option<(u64, Instant)>,
    /// The last answer (kept while a newer one is computed, marked stale by revision).
    pub last: Option<Outcome>,
    /// Debounce used (zero in tests that want an answer at once).
    pub debounce: Duration,
    /// Seed and number of bot games (the gauge's Validate controls set them).
    pub options: AnalyseOptions,
}

impl LiveAnalysis {
    /// A live analysis running jobs in `mode`.
    pub fn new(mode: JobMode) -> Self {
        Self {
            worker: Worker::new("live analysis", mode),
            pending: None,
            started: None,
            last: None,
            debounce: DEBOUNCE,
            options: AnalyseOptions::default(),
        }
    }

    /// Notes that the board changed; the job starts once the debounce has passed.
    pub fn board_changed(&mut self, revision: u64, board: &Board) {
        let last = self.last.as_ref().map(|l| l.revision);
        let running = self.started.map(|s| s.0);
        let pending = self.pending.as_ref().map(|p| p.0);
        if [last, running, pending].contains(&Some(revision)) {
            return;
        }
        if running.is_some() {
            // The running job is now stale.
            self.worker.cancel();
            self.started = None;
        }
        self.pending = Some((revision, board.clone(), Instant::now()));
    }

    /// Starts due jobs and collects answers; returns true when a new answer arrived and how
    /// long to wait before calling again while something is pending.
    pub fn tick(&mut self, ctx: &egui::Context) -> (bool, Option<Duration>) {
        self.worker.set_repaint(ctx);
        if let Some((revision, _, edited)) = &self.pending {
            let waited = edited.elapsed();
            if waited >= self.debounce {
                let Some((revision, board, edited)) = self.pending.take() else {
                    return (self.collect(), None);
                };
                self.started = Some((revision, edited));
                let options = self.options.clone();
                self.worker.start(revision, move |cancel, _| {
                    let t = Instant::now();
                    analyse(&board, &options, cancel).map(|a| (a, t.elapsed().as_secs_f64() * 1e3))
                });
            } else {
                let _ = revision;
                return (self.collect(), Some(self.debounce - waited));
            }
        }
        (self.collect(), None)
    }

    fn collect(&mut self) -> bool {
        match self.worker.poll() {
            Some((revision, result)) => {
                self.record(revision, result);
                true
            }
            None => false,
        }
    }

    /// Keeps a finished job's answer as the last outcome.
    fn record(&mut self, revision: u64, result: Result<(Analysis, f64), JobError>) {
        let latency_ms = self
            .started
            .take()
            .map(|s| s.1.elapsed().as_secs_f64() * 1e3)
            .unwrap_or(0.0);
        let (result, work_ms) = match result {
            Ok((a, ms)) => (Ok(a), ms),
            Err(e) => (Err(e.to_string()), 0.0),
        };
        self.last = Some(Outcome {
            revision,
            latency_ms,
            work_ms,
            result,
        });
    }

    /// True while an analysis is pending or running.
    pub fn busy(&self) -> bool {
        self.pending.is_some() || self.worker.busy()
    }

    /// Forgets everything (a different game or level was loaded).
    pub fn reset(&mut self) {
        self.worker.cancel();
        self.pending = None;
        self.started = None;
        self.last = None;
    }

    /// Tests and benches: start what is pending now and block until it answers.
    pub fn finish_now(&mut self, ctx: &egui::Context, timeout: Duration) -> bool {
        let debounce = self.debounce;
        self.debounce = Duration::ZERO;
        self.tick(ctx);
        self.debounce = debounce;
        if let Some((revision, result)) = self.worker.wait(timeout) {
            self.record(revision, result);
            return true;
        }
        self.collect()
    }
}
