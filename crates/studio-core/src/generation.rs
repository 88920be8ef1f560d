//! The generation service: runs any registered generator for the window and the command
//! line alike, so the same generator, conditions and seed give the same levels in both.
//!
//! A generator offers levels; the service analyses each with its game (figures, verdict),
//! drops repeats and, for "validated only", those that fail, names and tags the rest, and
//! streams them out as [`Candidate`]s with progress, until it has `count`, the attempt
//! budget is spent, or the job is cancelled.

use crate::game::{
    self, AnalyseOptions, Chart, ConditionError, ConditionSpec, GameId, GenRequest,
    GenerationContext, LevelGenerator, LevelSink, ModelCache, Verdict,
};
use crate::jobs::{Cancel, JobError};
use crate::level::Level;
use std::collections::HashSet;
use std::sync::Arc;

/// Attempts per wanted level before a run gives up.
pub const ATTEMPTS_PER_LEVEL: usize = 40;
/// The smallest attempt budget of a run.
pub const MIN_BUDGET: usize = 256;

/// One generated level with its analysis.
#[derive(Clone, Debug, PartialEq)]
pub struct Candidate {
    /// The level (named, tagged, with figures).
    pub level: Level,
    /// The game's difficulty number; `None` when unknown or unsolvable.
    pub difficulty: Option<f64>,
    /// Pass or fail, and why.
    pub verdict: Verdict,
    /// The id of the generator that made it.
    pub generator: &'static str,
}

/// How a run ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GenSummary {
    /// Candidates sent.
    pub sent: usize,
    /// Levels made and checked.
    pub attempts: usize,
    /// A note for the designer (an exhausted budget, …).
    pub note: Option<String>,
}

/// A generation request the studio cannot run as asked: a bad request, told apart from a
/// generator's failure (a job fails with it boxed: [`JobError::source_is`]).
#[derive(Debug, thiserror::Error)]
pub enum RequestError {
    /// No registered game has the request's id.
    #[error(transparent)]
    UnknownGame(#[from] crate::game::registry::UnknownGame),
    /// The game has no generator of that name.
    #[error(transparent)]
    UnknownGenerator(#[from] crate::game::UnknownGenerator),
    /// A condition the generator does not take.
    #[error("{generator} does not take a {key} condition")]
    UnknownCondition {
        /// The generator's label.
        generator: String,
        /// The condition's key.
        key: String,
    },
    /// A condition's value is out of range or of the wrong kind.
    #[error(transparent)]
    Condition(#[from] ConditionError),
    /// A request for no level.
    #[error("count must be at least 1")]
    NoLevels,
    /// A `--shard` that is not `I/N` with 1 ≤ I ≤ N, in words.
    #[error("{0}")]
    Shard(String),
}

/// A request's generator, with its conditions checked and the defaults filled in.
///
/// # Errors
/// [`RequestError`]: an unknown game or generator, a condition the generator does not take,
/// or a value out of range, in words.
pub fn prepare(
    request: &GenRequest,
) -> Result<(GenRequest, Arc<dyn LevelGenerator>), RequestError> {
    let game = request.game.game()?;
    let generator = game::generator_of(game, request.generator)?;
    let specs = generator.conditions();
    let mut checked = request.clone();
    checked.generator = generator.id();
    for key in request.conditions.keys() {
        if !specs.iter().any(|s| s.key == key) {
            return Err(RequestError::UnknownCondition {
                generator: generator.label().to_string(),
                key: key.to_string(),
            });
        }
    }
    for spec in &specs {
        match request.conditions.get(spec.key) {
            Some(value) => spec
                .check(&value)
                .map_err(|e| in_game_words(e, spec, game.name()))?,
            None if spec.required => {}
            None => checked.conditions.set(spec.key, spec.default),
        }
    }
    if checked.count == 0 {
        return Err(RequestError::NoLevels);
    }
    Ok((checked, generator))
}

fn in_game_words(error: ConditionError, spec: &ConditionSpec, game: &str) -> ConditionError {
    if spec.key == "width" || spec.key == "height" {
        ConditionError(
            error
                .0
                .replace("is outside", &format!("is outside {game}'s")),
        )
    } else {
        error
    }
}

/// The level's name in a run: `{generator}-{W}x{H}-{nnn}`.
pub fn level_name(request: &GenRequest, index: usize) -> String {
    match request.conditions.size() {
        Some((w, h)) => format!("{}-{w}x{h}-{:03}", request.generator, index + 1),
        None => format!("{}-{:03}", request.generator, index + 1),
    }
}

/// Analyses a made level for its game and wraps it as a candidate (named and tagged).
///
/// # Errors
/// [`JobError::Cancelled`] when cancelled mid-analysis.
pub fn candidate(
    game: GameId,
    generator: &'static str,
    mut level: Level,
    name: String,
    cancel: &Cancel,
) -> Result<Candidate, JobError> {
    let analysis = game
        .game()
        .map_err(|e| JobError::failed(e.to_string()))?
        .analyse(&level, &AnalyseOptions::default(), cancel);
    level.name = name;
    // The service's own tags first; a generator's (a GA's "fitness 0.812") follow.
    let own = std::mem::take(&mut level.tags);
    level.tags = vec!["generated".into(), generator.into()];
    level.tags.extend(own);
    let (difficulty, verdict) = match analysis {
        Ok(a) => {
            level.figures = a.figures;
            (a.difficulty, a.verdict)
        }
        Err(JobError::Cancelled) => return Err(JobError::Cancelled),
        Err(JobError::Failed(e)) => (
            None,
            Verdict {
                pass: false,
                weak: false,
                label: "UNKNOWN".into(),
                reason: e.to_string(),
            },
        ),
    };
    Ok(Candidate {
        level,
        difficulty,
        verdict,
        generator,
    })
}

/// The sink the service hands a generator.
struct Stream<'a> {
    request: &'a GenRequest,
    cancel: &'a Cancel,
    wanted: usize,
    budget: usize,
    /// Levels accepted so far (counted in the one-process run's order, every shard alike).
    sent: usize,
    /// The accepted levels' indices this run hands out: all of them, or one shard's block.
    owned: std::ops::Range<usize>,
    /// Levels handed out.
    handed: usize,
    attempts: usize,
    seen: HashSet<Vec<String>>,
    error: Option<JobError>,
    label: &'static str,
    /// True when the generator offers what it found after a stop (else a stop ends the
    /// stream like the end of the budget).
    stops_early: bool,
    /// The most points a chart of the search has drawn: the generations judged so far.
    generations: usize,
    /// When the run last reported how far it has looked.
    reported: std::time::Instant,
    name: &'a dyn Fn(&GenRequest, usize) -> String,
    progress: &'a mut dyn FnMut(f32, String),
    charts: &'a mut dyn FnMut(&[Chart]),
    out: &'a mut dyn FnMut(Candidate),
    /// What the search said it looked at ([`LevelSink::explain`]).
    explained: Option<String>,
}

/// How often a run that finds nothing says how far it has looked (a slow check per attempt,
/// such as a full A* run, would otherwise leave "starting" on screen for a minute).
const REPORT_EVERY: std::time::Duration = std::time::Duration::from_secs(5);

impl Stream<'_> {
    /// Says how many attempts were made and kept, every 256 attempts or [`REPORT_EVERY`].
    fn report_attempts(&mut self, before: usize) {
        if before / 256 != self.attempts / 256 || self.reported.elapsed() >= REPORT_EVERY {
            self.reported = std::time::Instant::now();
            (self.progress)(
                self.sent as f32 / self.wanted.max(1) as f32,
                format!(
                    "{}: {} of {} kept, {} of at most {} attempts",
                    self.label, self.sent, self.wanted, self.attempts, self.budget
                ),
            );
        }
    }

    fn keep_going(&self) -> bool {
        self.error.is_none()
            && !self.cancel.is_cancelled()
            && (self.stops_early || !self.cancel.is_stopping())
            && self.sent < self.owned.end
            && self.attempts < self.budget
    }
}

impl LevelSink for Stream<'_> {
    fn offer(&mut self, level: Level) -> bool {
        if !self.keep_going() {
            return false;
        }
        self.attempts += 1;
        if self.seen.contains(&level.cells) {
            return self.keep_going();
        }
        // Another shard's level: counted as the one-process run counts it, and judged only
        // when judging decides whether it counts (validated only).
        let mine = self.owned.contains(&self.sent);
        if !mine && !self.request.validated_only {
            self.seen.insert(level.cells);
            self.sent += 1;
            return self.keep_going();
        }
        let name = (self.name)(self.request, self.sent);
        match candidate(
            self.request.game,
            self.request.generator,
            level,
            name,
            self.cancel,
        ) {
            Ok(c) => {
                self.seen.insert(c.level.cells.clone());
                if !self.request.validated_only || c.verdict.pass {
                    self.sent += 1;
                    if !mine {
                        return self.keep_going();
                    }
                    self.handed += 1;
                    (self.out)(c);
                    (self.progress)(
                        self.sent as f32 / self.wanted as f32,
                        format!("{}: {} of {}", self.label, self.sent, self.wanted),
                    );
                } else {
                    // Not kept (validated only): slow checks still say how far they are.
                    self.report_attempts(self.attempts - 1);
                }
            }
            Err(e) => self.error = Some(e),
        }
        self.keep_going()
    }

    fn tried(&mut self, attempts: usize) -> bool {
        let before = self.attempts;
        self.attempts += attempts;
        // A run that keeps discarding (a high quality filter) says how far it has looked, so
        // the designer does not stare at "starting" for half a minute (walkthrough D19).
        self.report_attempts(before);
        self.keep_going()
    }

    fn progress(&mut self, fraction: f32, note: String) {
        (self.progress)(fraction, format!("{}: {note}", self.label));
    }

    fn explain(&mut self, why: String) {
        self.explained = Some(why);
    }

    fn charts(&mut self, charts: &[Chart]) {
        let judged = charts
            .iter()
            .filter_map(|c| c.series.first().map(|s| s.1.len()))
            .max()
            .unwrap_or(0);
        self.generations = self.generations.max(judged);
        (self.charts)(charts);
    }
}

/// Runs one request, sending each candidate to `out` as soon as it is ready.
///
/// # Errors
/// As [`prepare`]; a model that cannot be loaded or a condition the generator refuses;
/// [`JobError::Cancelled`] when cancelled.
pub fn run(
    request: &GenRequest,
    models: &ModelCache,
    cancel: &Cancel,
    progress: &mut dyn FnMut(f32, String),
    out: &mut dyn FnMut(Candidate),
) -> Result<GenSummary, JobError> {
    run_charted(request, models, cancel, progress, &mut |_| {}, out)
}

/// As [`run`], and `charts` hears the charts a searching generator draws as it goes.
///
/// # Errors
/// As [`run`].
pub fn run_charted(
    request: &GenRequest,
    models: &ModelCache,
    cancel: &Cancel,
    progress: &mut dyn FnMut(f32, String),
    charts: &mut dyn FnMut(&[Chart]),
    out: &mut dyn FnMut(Candidate),
) -> Result<GenSummary, JobError> {
    run_part(request, None, models, cancel, progress, charts, out)
}

/// One shard of a run: `index` of `of` (from 1), for a sweep split over processes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// Which part, 1 to `of`.
    pub index: usize,
    /// How many parts.
    pub of: usize,
}

impl Shard {
    /// Reads `I/N` (I from 1 to N), refusing anything else in words.
    ///
    /// # Errors
    /// [`RequestError::Shard`]: text that is not `I/N` with 1 ≤ I ≤ N.
    pub fn parse(text: &str) -> Result<Shard, RequestError> {
        let refused = |message: String| RequestError::Shard(message);
        let (i, n) = text
            .split_once('/')
            .ok_or_else(|| refused(format!("--shard {text}: write it I/N, e.g. 2/4")))?;
        let num = |t: &str| {
            t.trim().parse::<usize>().map_err(|_| {
                refused(format!(
                    "--shard {text}: I and N are whole numbers, e.g. 2/4"
                ))
            })
        };
        let (index, of) = (num(i)?, num(n)?);
        if of == 0 || index == 0 || index > of {
            return Err(refused(format!(
                "--shard {text}: I runs from 1 to N (N at least 1), e.g. 1/{}",
                of.max(1)
            )));
        }
        Ok(Shard { index, of })
    }

    /// The indices of a `count`-level run this shard hands out: the `index`-th of `of`
    /// consecutive blocks, their sizes differing by one at most (none empty while `of` is
    /// at most `count`).
    pub fn block(self, count: usize) -> std::ops::Range<usize> {
        let at = |k: usize| k * count / self.of;
        at(self.index - 1)..at(self.index)
    }
}

/// As [`run_charted`], handing out only `shard`'s block of the levels (all when `None`).
/// Every shard makes the same draws as the one-process run, in the same order, and judges a
/// level only when it is its own or when judging decides whether it counts (validated
/// only), so the shards' packs joined in order are the one-process run's pack, level for
/// level. Without validated only, the time saved is the judging of the other shards' levels.
///
/// # Errors
/// As [`run`].
pub fn run_shard(
    request: &GenRequest,
    shard: Option<Shard>,
    models: &ModelCache,
    cancel: &Cancel,
    progress: &mut dyn FnMut(f32, String),
    out: &mut dyn FnMut(Candidate),
) -> Result<GenSummary, JobError> {
    run_part(request, shard, models, cancel, progress, &mut |_| {}, out)
}

fn run_part(
    request: &GenRequest,
    shard: Option<Shard>,
    models: &ModelCache,
    cancel: &Cancel,
    progress: &mut dyn FnMut(f32, String),
    charts: &mut dyn FnMut(&[Chart]),
    out: &mut dyn FnMut(Candidate),
) -> Result<GenSummary, JobError> {
    let (request, generator) = prepare(request).map_err(JobError::failed)?;
    let wanted = request.count;
    let owned = shard.map_or(0..wanted, |s| s.block(wanted));
    let budget = (wanted.saturating_mul(generator.attempts_per_level())).max(MIN_BUDGET);
    progress(0.0, format!("{}: starting", generator.label()));
    let ctx = GenerationContext { models, cancel };
    let mut stream = Stream {
        request: &request,
        cancel,
        wanted,
        budget,
        sent: 0,
        owned,
        handed: 0,
        attempts: 0,
        seen: HashSet::new(),
        error: None,
        label: generator.label(),
        stops_early: generator.stops_early(),
        generations: 0,
        reported: std::time::Instant::now(),
        name: &level_name,
        progress,
        charts,
        out,
        explained: None,
    };
    generator.generate(&request, &ctx, &mut stream)?;
    finish(stream)
}

fn finish(stream: Stream<'_>) -> Result<GenSummary, JobError> {
    if let Some(e) = stream.error {
        return Err(e);
    }
    if stream.cancel.is_cancelled() {
        return Err(JobError::Cancelled);
    }
    let note = if stream.cancel.is_stopping() {
        // A search counts its work in generations, not attempts.
        let after = match (
            stream.generations,
            stream.request.conditions.int("generations"),
        ) {
            (0, _) => String::new(),
            (g, Some(total)) => format!(" after {g} of {total} generations"),
            (g, None) => format!(" after {g} generations"),
        };
        Some(format!(
            "stopped early{after}, kept {} of {}",
            stream.handed,
            stream.owned.len()
        ))
    } else {
        let (got, asked) = (stream.handed, stream.owned.len());
        (got < asked).then(|| match &stream.explained {
            // A search says what it judged: "0 attempts" would hide 30 levels judged.
            Some(why) => format!("found {got} of {asked}: {why}"),
            None => format!("found {got} of {asked} after {} attempts", stream.attempts),
        })
    };
    Ok(GenSummary {
        sent: stream.handed,
        attempts: stream.attempts,
        note,
    })
}

/// Draws "More like this" may make per level asked for, so that repeats of the source or of
/// each other do not shorten the set.
const NEAR_TRIES: usize = 8;

/// "More like this": `request.count` levels near `level` in the generator's latent space,
/// each distinct from `level` and from each other.
///
/// # Errors
/// As [`run`]; a generator without a latent space.
pub fn run_near(
    level: &Level,
    request: &GenRequest,
    models: &ModelCache,
    cancel: &Cancel,
    progress: &mut dyn FnMut(f32, String),
    out: &mut dyn FnMut(Candidate),
) -> Result<GenSummary, JobError> {
    let (request, generator) = prepare(request).map_err(JobError::failed)?;
    let ctx = GenerationContext { models, cancel };
    let base = level.name.clone();
    let name = move |_: &GenRequest, i: usize| format!("{base} near {}", i + 1);
    progress(
        0.0,
        format!("{}: starting near {}", generator.label(), level.name),
    );
    let mut stream = Stream {
        request: &request,
        cancel,
        wanted: request.count,
        // Room for draws that repeat the source or each other.
        budget: request.count.max(1).saturating_mul(NEAR_TRIES),
        sent: 0,
        owned: 0..request.count,
        handed: 0,
        attempts: 0,
        // "More like this" never hands back the level it started from.
        seen: HashSet::from([level.cells.clone()]),
        error: None,
        label: generator.label(),
        stops_early: false,
        generations: 0,
        reported: std::time::Instant::now(),
        name: &name,
        progress,
        charts: &mut |_| {},
        out,
        explained: None,
    };
    generator.near(level, &request, &ctx, &mut stream)?;
    let mut summary = finish(stream)?;
    summary.note = None;
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Conditions, LevelSink};

    /// A stream of `wanted` levels whose last report was `ago` back; the reports it makes
    /// go to `notes`.
    fn tried_once(ago: std::time::Duration) -> usize {
        let request = GenRequest {
            game: crate::testing::ID,
            generator: "any",
            conditions: Conditions::default(),
            count: 2,
            seed: 0,
            validated_only: true,
            weights: None,
        };
        let cancel = Cancel::default();
        let mut notes = 0;
        let mut progress = |_: f32, _: String| notes += 1;
        let mut charts = |_: &[Chart]| {};
        let mut out = |_: Candidate| {};
        let name = |_: &GenRequest, i: usize| format!("level {i}");
        let mut stream = Stream {
            request: &request,
            cancel: &cancel,
            wanted: 2,
            budget: 1000,
            sent: 0,
            owned: 0..2,
            handed: 0,
            attempts: 0,
            seen: HashSet::new(),
            error: None,
            label: "slow",
            stops_early: false,
            generations: 0,
            reported: std::time::Instant::now()
                .checked_sub(ago)
                .unwrap_or_else(std::time::Instant::now),
            name: &name,
            progress: &mut progress,
            charts: &mut charts,
            out: &mut out,
            explained: None,
        };
        stream.tried(1);
        drop(stream);
        notes
    }

    #[test]
    fn a_run_that_finds_nothing_says_how_far_it_has_looked_every_few_seconds() {
        // One slow attempt (a full A* run) after a quiet spell: a line, not silence.
        assert_eq!(
            tried_once(REPORT_EVERY + std::time::Duration::from_secs(1)),
            1
        );
        // One fast attempt right after a report: no line.
        assert_eq!(tried_once(std::time::Duration::ZERO), 0);
    }
}
