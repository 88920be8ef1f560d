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
    /// Why the figures moved since the analysis before, at the cells just edited, in one
    /// line (games that say: [`studio_core::game::GameView::explain_change`]).
    pub why: Option<String>,
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

/// The game's line on why its figures moved from `before` (of board `b0`) to `after` (of
/// `b1`): asked only for an edit of the same game and size (a new level says nothing).
fn explain(before: &Analysis, b0: &Board, after: &Analysis, b1: &Board) -> Option<String> {
    let same_kind = b0.rules().id() == b1.rules().id()
        && b0.width() == b1.width()
        && b0.height() == b1.height();
    if !same_kind {
        return None;
    }
    let changed: Vec<(usize, usize)> = (0..b1.height())
        .flat_map(|y| (0..b1.width()).map(move |x| (x, y)))
        .filter(|&(x, y)| b0.get(x, y) != b1.get(x, y))
        .collect();
    if changed.is_empty() {
        return None;
    }
    b1.rules().explain_change(before, after, &changed)
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
    /// The board of the job running now, and of the last answer: an answer is compared with
    /// the one before it cell by cell, to say why its figures moved.
    running_board: Option<Board>,
    last_board: Option<Board>,
    /// What "before" means in the next answer's why line: the last answer for a settled
    /// board (no stroke open), so a slow stroke compares with the level before it, never
    /// with a state in its middle (W5).
    baseline: Option<(Analysis, Board)>,
    /// True while the designer's stroke is open.
    stroke_open: bool,
    /// The revision on the canvas now.
    current: Option<u64>,
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
            running_board: None,
            last_board: None,
            baseline: None,
            stroke_open: false,
            current: None,
        }
    }

    /// Says whether a stroke is open on the canvas. When one closes, the answer for the
    /// board it left (if it is in) becomes what the next edit is compared with.
    pub fn set_stroke_open(&mut self, open: bool) {
        if self.stroke_open && !open {
            self.stroke_open = false;
            self.settle();
        }
        self.stroke_open = open;
    }

    /// Makes the last answer the baseline when it is for the board on the canvas now and no
    /// stroke is open.
    fn settle(&mut self) {
        if self.stroke_open {
            return;
        }
        let Some(last) = &self.last else {
            return;
        };
        if Some(last.revision) != self.current {
            return;
        }
        if let (Ok(a), Some(b)) = (&last.result, &self.last_board) {
            self.baseline = Some((a.clone(), b.clone()));
        }
    }

    /// Notes that the board changed; the job starts once the debounce has passed.
    pub fn board_changed(&mut self, revision: u64, board: &Board) {
        self.current = Some(revision);
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
                self.running_board = Some(board.clone());
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
        let board = self.running_board.take();
        let before = self.baseline.as_ref().map(|(a, b)| (a, b));
        let why = match (before, result.as_ref().ok(), board.as_ref()) {
            (Some((a0, b0)), Some(a1), Some(b1)) => explain(a0, b0, a1, b1),
            _ => None,
        };
        if board.is_some() {
            self.last_board = board;
        }
        self.last = Some(Outcome {
            revision,
            latency_ms,
            work_ms,
            result,
            why,
        });
        self.settle();
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
        self.running_board = None;
        self.last_board = None;
        self.baseline = None;
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
