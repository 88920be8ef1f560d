//! A typed protocol to worker threads: a job has a name, a key and a cancel flag; it reports
//! [`JobEvent`]s over a crossbeam channel and calls a [`Waker`] (the window passes one that
//! repaints). The caller only `try_recv`s. A newer job cancels the stale one; the same job
//! twice is refused. Free of any GUI crate: the command line and the window share it.

use crossbeam_channel::{unbounded, Receiver, Sender};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// Called after a job reports, so a waiting UI wakes up (the window repaints).
pub type Waker = Arc<dyn Fn() + Send + Sync>;

/// Any error a job fails with, boxed: a caller that needs to know which (weights missing, a
/// bad request) downcasts it ([`JobError::source_is`]).
pub type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// Why a job ended without a result.
#[derive(Debug, thiserror::Error)]
pub enum JobError {
    /// The job was cancelled (superseded, or the designer pressed Cancel).
    #[error("cancelled")]
    Cancelled,
    /// The job failed: its error says why, in words for the designer, and keeps its type
    /// (a `String` error is a plain message).
    #[error(transparent)]
    Failed(BoxError),
}

impl JobError {
    /// A job failed with `error` (a typed error, or a message in words).
    pub fn failed(error: impl Into<BoxError>) -> Self {
        JobError::Failed(error.into())
    }

    /// True when the job failed with an error of type `E` (a caller telling missing weights
    /// from a bad request).
    pub fn source_is<E: std::error::Error + 'static>(&self) -> bool {
        self.downcast_ref::<E>().is_some()
    }

    /// The error the job failed with, as type `E`, when it is one.
    pub fn downcast_ref<E: std::error::Error + 'static>(&self) -> Option<&E> {
        match self {
            JobError::Cancelled => None,
            JobError::Failed(e) => e.downcast_ref::<E>(),
        }
    }
}

/// Two failures are equal when they say the same (tests compare outcomes).
impl PartialEq for JobError {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (JobError::Cancelled, JobError::Cancelled) => true,
            (JobError::Failed(a), JobError::Failed(b)) => a.to_string() == b.to_string(),
            _ => false,
        }
    }
}

impl From<String> for JobError {
    fn from(e: String) -> Self {
        JobError::failed(e)
    }
}

impl From<crate::game::ModelError> for JobError {
    fn from(e: crate::game::ModelError) -> Self {
        JobError::failed(e)
    }
}

impl From<crate::generation::RequestError> for JobError {
    fn from(e: crate::generation::RequestError) -> Self {
        JobError::failed(e)
    }
}

impl From<crate::game::ConditionError> for JobError {
    fn from(e: crate::game::ConditionError) -> Self {
        JobError::failed(e)
    }
}

impl From<&str> for JobError {
    fn from(e: &str) -> Self {
        JobError::failed(e)
    }
}

/// What a job tells the UI.
#[derive(Debug)]
pub enum JobEvent<T> {
    /// Part of the work is done (`0.0..=1.0`) with a note.
    Progress {
        /// Which run of the worker sent this.
        job: u64,
        /// How much is done, `0.0..=1.0`.
        fraction: f32,
        /// What the job is doing now, for the designer.
        note: String,
    },
    /// The job finished.
    Result {
        /// Which run of the worker sent this.
        job: u64,
        /// What the job produced.
        value: T,
    },
    /// The job failed (or panicked) or was cancelled.
    Failed {
        /// Which run of the worker sent this.
        job: u64,
        /// Why it ended without a result.
        error: JobError,
    },
}

/// A job's cancel flag, checked by the work between steps, and its gentler twin, the stop
/// flag: a search asked to stop ends early and still hands over the best it found.
#[derive(Clone, Debug, Default)]
pub struct Cancel {
    cancelled: Arc<AtomicBool>,
    stopping: Arc<AtomicBool>,
}

impl Cancel {
    /// True once the job has been superseded or the window closes.
    pub fn is_cancelled(&self) -> bool {
        self.cancelled.load(Ordering::Relaxed)
    }

    /// The flag itself, for library calls that take an `&AtomicBool`.
    pub fn flag(&self) -> &AtomicBool {
        &self.cancelled
    }

    /// Raises the flag: the work stops at its next check.
    pub fn cancel(&self) {
        self.cancelled.store(true, Ordering::Relaxed);
    }

    /// Asks a search to end early and keep what it found (Stop, or Ctrl-C on the command
    /// line); work that cannot stop early carries on.
    pub fn stop(&self) {
        self.stopping.store(true, Ordering::Relaxed);
    }

    /// True once [`Cancel::stop`] was called.
    pub fn is_stopping(&self) -> bool {
        self.stopping.load(Ordering::Relaxed)
    }
}

/// Where jobs run: on threads (the window) or inline (tests that want determinism).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum JobMode {
    /// Each job on its own thread.
    #[default]
    Threads,
    /// Run in `start`, result queued for the next poll.
    Inline,
}

/// How a running job reports progress.
pub struct Reporter<T> {
    job: u64,
    tx: Sender<JobEvent<T>>,
    repaint: Option<Waker>,
}

impl<T> Reporter<T> {
    /// Sends a progress report and wakes the UI.
    pub fn progress(&self, fraction: f32, note: impl Into<String>) {
        let _ = self.tx.send(JobEvent::Progress {
            job: self.job,
            fraction,
            note: note.into(),
        });
        if let Some(wake) = &self.repaint {
            wake();
        }
    }
}

/// The time a job has left, in words ("about 40 s left", "about 3 min left"), from the time
/// it has run and the share of its work done; `None` before a second has passed or before
/// 1 % is done (too early to say).
pub fn time_left(elapsed: std::time::Duration, fraction: f32) -> Option<String> {
    let done = f64::from(fraction);
    if elapsed.as_secs_f64() < 1.0 || !(0.01..1.0).contains(&done) {
        return None;
    }
    let left = elapsed.as_secs_f64() * (1.0 - done) / done;
    Some(if left < 90.0 {
        format!("about {} s left", left.ceil() as u64)
    } else if left < 5400.0 {
        format!("about {} min left", (left / 60.0).round() as u64)
    } else {
        format!("about {:.1} h left", left / 3600.0)
    })
}

/// One kind of job (e.g. "live validation") with at most one current run.
pub struct Worker<T: Send + 'static> {
    name: &'static str,
    mode: JobMode,
    tx: Sender<JobEvent<T>>,
    rx: Receiver<JobEvent<T>>,
    current: Option<(u64, u64, Cancel)>,
    next_job: u64,
    repaint: Option<Waker>,
    /// The last progress of the current job.
    pub progress: Option<(f32, String)>,
    /// When the current job started.
    started: Option<std::time::Instant>,
}

impl<T: Send + 'static> Worker<T> {
    /// A worker named for messages.
    pub fn new(name: &'static str, mode: JobMode) -> Self {
        let (tx, rx) = unbounded();
        Self {
            name,
            mode,
            tx,
            rx,
            current: None,
            next_job: 1,
            repaint: None,
            progress: None,
            started: None,
        }
    }

    /// The worker's name.
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// What to call when a job reports (set once; later calls are ignored).
    pub fn set_waker(&mut self, wake: impl Fn() + Send + Sync + 'static) {
        if self.repaint.is_none() {
            self.repaint = Some(Arc::new(wake));
        }
    }

    /// True once a waker is set.
    pub fn has_waker(&self) -> bool {
        self.repaint.is_some()
    }

    /// True while a job runs.
    pub fn busy(&self) -> bool {
        self.current.is_some()
    }

    /// The key of the running job, if any.
    pub fn running_key(&self) -> Option<u64> {
        self.current.as_ref().map(|c| c.1)
    }

    /// Starts `work` for `key` (e.g. a board revision). Refused (returns false) when a job with
    /// the same key already runs; a job with another key is cancelled as stale.
    pub fn start<F>(&mut self, key: u64, work: F) -> bool
    where
        F: FnOnce(&Cancel, &Reporter<T>) -> Result<T, JobError> + Send + 'static,
    {
        if self.running_key() == Some(key) {
            return false;
        }
        self.cancel();
        let job = self.next_job;
        self.next_job += 1;
        let cancel = Cancel::default();
        self.current = Some((job, key, cancel.clone()));
        self.progress = None;
        self.started = Some(std::time::Instant::now());
        let reporter = Reporter {
            job,
            tx: self.tx.clone(),
            repaint: self.repaint.clone(),
        };
        let run = move || {
            let outcome =
                std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| work(&cancel, &reporter)));
            let event = match outcome {
                Ok(Ok(value)) => JobEvent::Result { job, value },
                Ok(Err(error)) => JobEvent::Failed { job, error },
                Err(panic) => {
                    let what = panic
                        .downcast_ref::<&str>()
                        .map(|s| s.to_string())
                        .or_else(|| panic.downcast_ref::<String>().cloned())
                        .unwrap_or_else(|| "unknown panic".into());
                    JobEvent::Failed {
                        job,
                        error: JobError::failed(format!("the job crashed: {what}")),
                    }
                }
            };
            let _ = reporter.tx.send(event);
            if let Some(wake) = &reporter.repaint {
                wake();
            }
        };
        match self.mode {
            JobMode::Inline => run(),
            JobMode::Threads => {
                let spawned = std::thread::Builder::new()
                    .name(format!("job: {}", self.name))
                    .spawn(run);
                if let Err(e) = spawned {
                    let _ = self.tx.send(JobEvent::Failed {
                        job,
                        error: JobError::failed(format!("could not start a thread: {e}")),
                    });
                }
            }
        }
        true
    }

    /// The last progress with an estimate of the time left appended once the job has run
    /// a second and reported some progress ("… · about 40 s left"); "starting…" before the
    /// first report.
    pub fn progress_text(&self) -> (f32, String) {
        let (fraction, note) = self.progress.clone().unwrap_or((0.0, "starting…".into()));
        let elapsed = self.started.map(|s| s.elapsed());
        match elapsed.and_then(|e| time_left(e, fraction)) {
            Some(left) => (fraction, format!("{note} · {left}")),
            None => (fraction, note),
        }
    }

    /// Cancels the running job, if any; its late answer is ignored.
    pub fn cancel(&mut self) {
        if let Some((_, _, cancel)) = self.current.take() {
            cancel.cancel();
        }
    }

    /// Asks the running job to end early and still answer (see [`Cancel::stop`]).
    pub fn stop(&mut self) {
        if let Some((_, _, cancel)) = &self.current {
            cancel.stop();
        }
    }

    /// Takes what the current job reported since the last poll; answers of stale jobs are
    /// dropped. Returns the finished outcome with the job's key.
    pub fn poll(&mut self) -> Option<(u64, Result<T, JobError>)> {
        let mut finished = None;
        while let Ok(event) = self.rx.try_recv() {
            let Some((current, key, _)) = &self.current else {
                continue;
            };
            let (current, key) = (*current, *key);
            match event {
                JobEvent::Progress {
                    job,
                    fraction,
                    note,
                } if job == current => self.progress = Some((fraction, note)),
                JobEvent::Result { job, value } if job == current => {
                    self.current = None;
                    finished = Some((key, Ok(value)));
                }
                JobEvent::Failed { job, error } if job == current => {
                    self.current = None;
                    finished = Some((key, Err(error)));
                }
                _ => {}
            }
        }
        finished
    }

    /// Blocks until the current job answers or `timeout` passes (tests and benches only; the
    /// window never waits).
    pub fn wait(&mut self, timeout: std::time::Duration) -> Option<(u64, Result<T, JobError>)> {
        let deadline = std::time::Instant::now() + timeout;
        loop {
            if let Some(done) = self.poll() {
                return Some(done);
            }
            if self.current.is_none() || std::time::Instant::now() > deadline {
                return None;
            }
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
    }
}

impl<T: Send + 'static> Drop for Worker<T> {
    fn drop(&mut self) {
        self.cancel();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 69, W4: the estimate comes from the share done and the time taken, and says
    /// nothing before there is enough to go on.
    #[test]
    fn the_time_left_is_estimated_from_the_share_done() {
        use std::time::Duration;
        assert_eq!(time_left(Duration::from_millis(500), 0.5), None);
        assert_eq!(time_left(Duration::from_secs(10), 0.0), None);
        assert_eq!(time_left(Duration::from_secs(10), 1.0), None);
        assert_eq!(
            time_left(Duration::from_secs(10), 0.25).as_deref(),
            Some("about 30 s left")
        );
        assert_eq!(
            time_left(Duration::from_secs(60), 0.2).as_deref(),
            Some("about 4 min left")
        );
    }
    use std::time::Duration;

    #[test]
    fn a_stale_job_is_cancelled_and_its_answer_dropped() {
        let mut w: Worker<u32> = Worker::new("test", JobMode::Threads);
        assert!(w.start(1, |cancel, _| {
            while !cancel.is_cancelled() {
                std::thread::sleep(Duration::from_millis(1));
            }
            Ok(1)
        }));
        assert!(!w.start(1, |_, _| Ok(99)), "the same job twice is refused");
        assert!(w.start(2, |_, _| Ok(2)));
        let (key, value) = w.wait(Duration::from_secs(5)).unwrap();
        assert_eq!((key, value), (2, Ok(2)));
    }

    #[test]
    fn failures_and_panics_are_errors() {
        let mut w: Worker<u32> = Worker::new("test", JobMode::Inline);
        w.start(1, |_, _| Err("bad".into()));
        assert_eq!(w.poll(), Some((1, Err(JobError::failed("bad")))));
        w.start(2, |_, _| panic!("boom"));
        let (_, r) = w.poll().unwrap();
        assert!(r.unwrap_err().to_string().contains("boom"));
    }
}
