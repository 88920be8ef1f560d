//! Validated generation: generate, let the bots validate in parallel, keep the distinct
//! levels that are valid and near the requested moves, and stop at a budget.
//!
//! What keeps it cheap (issue 18):
//! - each candidate's games stop as soon as its median is decided against the window of
//!   accepted moves, and each game stops at the window's top ([`super::screen`]);
//! - the moves asked of the decoder follow what the bots find: when most candidates come out
//!   too easy, later batches ask for more moves (and the other way round), with a spread
//!   around that so a batch holds different levels;
//! - a [`CandidatePool`] keeps confirmed levels a request did not need, and the learned
//!   offsets, for the next request.

use super::encoding::{Condition, MAX_RECORDED_MOVES};
use super::error::{ModelError, Result};
use super::generator::{CvaeModel, Decoding};
use super::screen::{judge, median_bounds, play_until_decided, Game, Verdict, Window};
use super::sidecar::Feasibility;
use super::sweep::validate_all;
use crate::easiest::easiest_moves;
use crate::layout::Layout;
use crate::rules::Geometry;
use crate::{validate, Validation, ValidationConfig};
use rayon::prelude::*;
use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;
use studio_core::rng::Rng;
use studio_core::symmetry::Symmetry;

/// The default [`ValidatedRequest::margin`]: the median of 30 games moves by about a move
/// between bot seeds.
pub const DEFAULT_MARGIN: f64 = 1.0;

/// The default [`ValidatedRequest::limit_margin`]: wider than the target's, because a level
/// near the limit has a long tail of games above it (unsolved ones count 40), so its median
/// jumps further between bot seeds.
pub const DEFAULT_LIMIT_MARGIN: f64 = 1.5;

/// The confirming validation plays this many times the games of the first one.
pub const CONFIRM_FACTOR: u32 = 3;

/// A designer's request gets this many attempts per level wanted ...
pub const BUDGET_PER_LEVEL: usize = 40;

/// ... and at least this many in all.
pub const MIN_BUDGET: usize = 256;

/// The budget of a request for `count` levels when the designer does not set one (window,
/// `generate --validate`): [`BUDGET_PER_LEVEL`] × `count`, at least [`MIN_BUDGET`].
pub fn default_budget(count: usize) -> usize {
    BUDGET_PER_LEVEL.saturating_mul(count).max(MIN_BUDGET)
}

/// Half-width, in moves, of the spread of moves asked of the decoder around the learned
/// request.
pub const MOVES_SPREAD: f64 = 2.0;

/// How much wider than the accepting window the screening window is, each side, in moves:
/// about the spread of a 30-game median between bot seeds.
pub const SCREEN_SLACK: f64 = 1.0;

/// How far one batch moves the learned offset when all its judged candidates miss on one
/// side.
const OFFSET_STEP: f64 = 4.0;

/// The learned offset stays within this many moves of the target.
const OFFSET_LIMIT: f64 = 15.0;

/// Confirmed spare levels a pool keeps at most (the oldest go first).
const POOL_SPARES: usize = 512;

/// How many screened levels are confirmed together (in parallel): a constant, so the output
/// does not depend on the machine's thread count; 2 is the thread count the figures in
/// `docs/match3-cvae.md` were measured with.
const CONFIRM_BATCH: usize = 2;

/// What to look for and how hard.
#[derive(Clone, Debug)]
pub struct ValidatedRequest {
    /// The size, symmetry and (Avalon) moves asked for.
    pub condition: Condition,
    /// Accepted levels wanted.
    pub count: usize,
    /// Most levels to generate and validate before giving up.
    pub budget: usize,
    /// Largest accepted |validated median − requested moves| (Avalon).
    pub tolerance: f64,
    /// Seeds the generator; each batch derives its own stream from it.
    pub seed: u64,
    /// How the bots validate (limit 20, 30 games by default).
    pub validation: ValidationConfig,
    /// Confirm each candidate with a second, independent validation (another bot seed) and
    /// judge it on both together (120 games).
    pub confirm: bool,
    /// Safety margin, in moves, for the bots' sampling noise: the median of both validations
    /// must lie within `tolerance − margin` of the target and at most `limit −
    /// limit_margin`, so that a fresh validation of an accepted level still lands within the
    /// tolerance and the limit. Only used with `confirm`. (No level is accepted for a target
    /// so near the limit that both cannot hold.)
    pub margin: f64,
    /// The margin kept below the move limit (see `margin`).
    pub limit_margin: f64,
    /// How decoder outputs become candidates.
    pub decoding: Decoding,
}

impl ValidatedRequest {
    /// A request with the defaults: budget [`default_budget`] (40 × count, at least 256),
    /// tolerance 2 moves, fresh levels ([`Decoding::DEFAULT`]).
    pub fn new(condition: Condition, count: usize, seed: u64) -> Self {
        Self {
            condition,
            count,
            budget: default_budget(count),
            tolerance: 2.0,
            seed,
            validation: ValidationConfig::default(),
            confirm: true,
            margin: DEFAULT_MARGIN,
            limit_margin: DEFAULT_LIMIT_MARGIN,
            decoding: Decoding::DEFAULT,
        }
    }

    /// Whether any level can be accepted: [`ModelError::BeyondMargin`] when the moves lie
    /// so near the limit that no median keeps the margin inside both the tolerance and the
    /// limit, [`ModelError::BelowEasiest`] when the size's easiest known layout takes more
    /// moves than an accepted median may ([`crate::easiest`]).
    ///
    /// # Errors
    /// [`ModelError::BeyondMargin`], with the most moves that can be asked for;
    /// [`ModelError::BelowEasiest`], with the fewest (if any).
    pub fn check_promise(&self, uses_moves: bool) -> Result<()> {
        let (accept, _) = self.windows(uses_moves);
        if accept.lo <= accept.hi {
            return self.check_easiest(uses_moves, accept.hi);
        }
        Err(ModelError::BeyondMargin {
            moves: self.condition.moves.unwrap_or(0.0),
            tolerance: self.tolerance,
            margin: self.margin,
            limit_margin: self.limit_margin,
            limit: self.validation.limit,
            most: f64::from(self.validation.limit) - self.limit_margin + self.tolerance
                - self.margin,
        })
    }

    /// This request asking for `moves` instead.
    fn with_moves(mut self, moves: f64) -> Self {
        self.condition.moves = Some(moves);
        self
    }

    /// [`ModelError::BelowEasiest`] when the size's easiest known layout takes more moves
    /// than `top`, the most an accepted median may be.
    fn check_easiest(&self, uses_moves: bool, top: f64) -> Result<()> {
        let c = &self.condition;
        let Some(easiest) = easiest_moves(c.width, c.height) else {
            return Ok(());
        };
        if easiest <= top {
            return Ok(());
        }
        let moves = c.moves.filter(|_| uses_moves);
        // The least moves whose window reaches the easiest layout, if it is under the
        // limit's margin.
        let limit_top = f64::from(self.validation.limit) - self.limit_margin;
        let least = moves
            .filter(|_| easiest <= limit_top)
            .map(|_| easiest - self.inner_tolerance());
        // Otherwise the nearest size whose easiest layout the window reaches.
        let nearest = least.is_none().then(|| {
            crate::dataset::all_sizes()
                .into_iter()
                .filter(|&(w, h)| easiest_moves(w, h).is_some_and(|e| e <= top))
                .min_by_key(|&(w, h)| (w.abs_diff(c.width) + h.abs_diff(c.height), w, h))
        });
        Err(ModelError::BelowEasiest {
            width: c.width,
            height: c.height,
            asked: moves.map_or_else(|| "as valid".to_string(), |m| format!("at {m} moves")),
            easiest,
            top,
            least,
            nearest: nearest.flatten(),
        })
    }

    /// How far from the requested moves an accepted median may lie: the tolerance less the
    /// margin when confirming.
    fn inner_tolerance(&self) -> f64 {
        if self.confirm {
            self.tolerance - self.margin
        } else {
            self.tolerance
        }
    }

    /// The accepting window (valid and within the tolerance of the moves; narrowed by the
    /// margin when confirming) and the screening one (the accepting one widened by
    /// [`SCREEN_SLACK`] within the tolerance and the limit, for the first 30 games).
    pub fn windows(&self, uses_moves: bool) -> (Window, Window) {
        let limit = f64::from(self.validation.limit);
        let (lo, hi) = match self.condition.moves.filter(|_| uses_moves) {
            Some(t) => (
                (t - self.tolerance).max(0.0),
                (t + self.tolerance).min(limit),
            ),
            None => (0.0, limit),
        };
        let allowed = Window { lo, hi };
        if !self.confirm {
            return (allowed, allowed);
        }
        let top = limit - self.limit_margin;
        let (a, b) = match self.condition.moves.filter(|_| uses_moves) {
            Some(t) => (
                lo + self.margin,
                (t + self.tolerance - self.margin).min(top),
            ),
            None => (lo, top),
        };
        let accept = Window { lo: a, hi: b };
        let screen = Window {
            lo: (accept.lo - SCREEN_SLACK).max(lo),
            hi: (accept.hi + SCREEN_SLACK).min(hi),
        };
        (accept, screen)
    }
}

/// One accepted level.
#[derive(Clone, Debug)]
pub struct Accepted {
    /// The level.
    pub layout: Layout,
    /// The bots' first validation of it, in full (the confirming one is not kept).
    pub validation: Validation,
}

/// What a validated generation found.
#[derive(Clone, Debug)]
pub struct ValidatedReport {
    /// The accepted levels, distinct, at most `count`.
    pub accepted: Vec<Accepted>,
    /// Levels generated and validated.
    pub attempts: usize,
    /// Of the attempts, how many passed the first validation (valid, within the tolerance).
    pub screened_in: usize,
    /// Bot games played in all (early-stopped ones included).
    pub games: usize,
    /// Accepted levels taken from the pool's spares rather than generated.
    pub from_pool: usize,
    /// Wall-clock seconds of the whole search.
    pub seconds: f64,
    /// Whether the training set covers the condition.
    pub feasibility: Feasibility,
    /// True when the budget ran out before `count` levels were found.
    pub exhausted: bool,
    /// True when stopped by the cancel flag.
    pub cancelled: bool,
}

impl ValidatedReport {
    /// Wall-clock milliseconds per accepted level (infinite when none).
    pub fn ms_per_accepted(&self) -> f64 {
        if self.accepted.is_empty() {
            f64::INFINITY
        } else {
            self.seconds * 1e3 / self.accepted.len() as f64
        }
    }
}

/// A confirmed level no request needed yet, with the games that judged it.
#[derive(Clone, Debug)]
struct Spare {
    layout: Layout,
    symmetry: Symmetry,
    validation: ValidationConfig,
    screen: Vec<Game>,
    confirm: Vec<Game>,
}

/// What one validated generation leaves for the next: confirmed levels beyond its count
/// (judged again against the next request's windows), every level handed out (never handed
/// out twice), and, per size and symmetry, the offset between the moves asked of the decoder
/// and what the bots find. Bounded; one per generator.
#[derive(Clone, Debug, Default)]
pub struct CandidatePool {
    spares: Vec<Spare>,
    handed_out: HashSet<Layout>,
    offsets: HashMap<(usize, usize, Symmetry), f64>,
}

impl CandidatePool {
    /// Confirmed levels kept for later requests.
    pub fn spares(&self) -> usize {
        self.spares.len()
    }

    /// Takes up to `room` spares that `request` accepts.
    fn take(&mut self, request: &ValidatedRequest, uses_moves: bool, room: usize) -> Vec<Layout> {
        let (accept, screen) = request.windows(uses_moves);
        let c = &request.condition;
        let mut taken = Vec::new();
        self.spares.retain(|s| {
            let fits = taken.len() < room
                && s.layout.size() == (c.width, c.height)
                && s.symmetry == c.symmetry
                && s.validation == request.validation
                && (s.confirm.is_empty() != request.confirm)
                && judge(&s.screen, &screen) == Verdict::Inside
                && (!request.confirm
                    || judge(&[s.screen.as_slice(), &s.confirm].concat(), &accept)
                        == Verdict::Inside);
            if fits {
                taken.push(s.layout.clone());
            }
            !fits
        });
        taken
    }

    fn keep(&mut self, spare: Spare) {
        if self.spares.len() >= POOL_SPARES {
            self.spares.remove(0);
        }
        self.spares.push(spare);
    }
}

/// Runs a validated generation with a fresh pool. `cancel`, when set, stops it between
/// batches.
///
/// # Errors
/// The condition's errors ([`super::ModelError::SizeOutOfRange`], …).
pub fn generate_validated(
    generator: &CvaeModel,
    request: &ValidatedRequest,
    cancel: Option<&AtomicBool>,
) -> Result<ValidatedReport> {
    generate_validated_pooled(generator, request, &mut CandidatePool::default(), cancel)
}

/// Runs a validated generation, first from `pool`'s spares, then generating; leaves its own
/// spares and what it learned in `pool`. Never hands out a training level.
///
/// # Errors
/// The condition's errors ([`super::ModelError::SizeOutOfRange`], …), and
/// [`ModelError::BeyondMargin`] for moves too near the limit to promise.
pub fn generate_validated_pooled(
    generator: &CvaeModel,
    request: &ValidatedRequest,
    pool: &mut CandidatePool,
    cancel: Option<&AtomicBool>,
) -> Result<ValidatedReport> {
    generator.check(&request.condition)?;
    let started = Instant::now();
    let uses_moves = generator.kind().uses_moves();
    request.check_promise(uses_moves)?;
    let (accept, screen) = request.windows(uses_moves);
    let c = request.condition;
    let key = (c.width, c.height, c.symmetry);
    let mut report = ValidatedReport {
        accepted: Vec::new(),
        attempts: 0,
        screened_in: 0,
        games: 0,
        from_pool: 0,
        seconds: 0.0,
        feasibility: generator.feasibility(&c),
        exhausted: false,
        cancelled: false,
    };
    let full = |layout: Layout| {
        validate(&layout, &request.validation)
            .ok()
            .map(|validation| Accepted { layout, validation })
    };
    for layout in pool.take(request, uses_moves, request.count) {
        if let Some(a) = full(layout) {
            pool.handed_out.insert(a.layout.clone());
            report.accepted.push(a);
            report.from_pool += 1;
        }
    }
    let second = ValidationConfig {
        seed: request.validation.seed ^ 0x00c0_ffee,
        games: request.validation.games * CONFIRM_FACTOR,
        ..request.validation
    };
    let (moves_lo, moves_hi) = (generator.sidecar().moves.min.max(1.0), MAX_RECORDED_MOVES);
    let mut offset = pool.offsets.get(&key).copied().unwrap_or(0.0);
    let mut seen: HashSet<Layout> = HashSet::new();
    let mut round = 0u64;
    while report.accepted.len() < request.count {
        if report.attempts >= request.budget {
            report.exhausted = true;
            break;
        }
        if cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
            report.cancelled = true;
            break;
        }
        let batch = (4 * (request.count - report.accepted.len()))
            .clamp(16, 256)
            .min(request.budget - report.attempts);
        let seed = request
            .seed
            .wrapping_add(round.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        round += 1;
        let conditions = spread_conditions(c, batch, seed, offset, (moves_lo, moves_hi));
        let layouts = generator.generate_each_decoded(&conditions, seed, request.decoding)?;
        report.attempts += batch;
        let mut fresh: Vec<Layout> = Vec::with_capacity(layouts.len());
        for l in layouts {
            // Copies were made novel; this guards the promise for any decoding.
            if !pool.handed_out.contains(&l)
                && generator.is_new(&l, request.decoding)?
                && seen.insert(l.clone())
            {
                fresh.push(l);
            }
        }
        let screened = screen_all(fresh, request, &screen);
        report.games += screened.iter().map(|s| s.1.len()).sum::<usize>();
        if uses_moves && !screened.is_empty() {
            offset = (offset + OFFSET_STEP * lean(&screened, &accept))
                .clamp(-OFFSET_LIMIT, OFFSET_LIMIT);
        }
        let inside: Vec<(Layout, Vec<Game>)> = screened
            .into_iter()
            .filter(|s| s.2 == Verdict::Inside)
            .map(|s| (s.0, s.1))
            .collect();
        report.screened_in += inside.len();
        let confirmed: Vec<Spare> = if request.confirm {
            let room = request.count - report.accepted.len();
            confirm_nearest_centre(inside, request, &second, &accept, room, &mut report.games)
        } else {
            inside
                .into_iter()
                .map(|(layout, screen)| Spare {
                    layout,
                    symmetry: c.symmetry,
                    validation: request.validation,
                    screen,
                    confirm: Vec::new(),
                })
                .collect()
        };
        for spare in confirmed {
            if report.accepted.len() < request.count {
                if let Some(a) = full(spare.layout.clone()) {
                    pool.handed_out.insert(a.layout.clone());
                    report.accepted.push(a);
                }
            } else {
                pool.keep(spare);
            }
        }
    }
    if uses_moves {
        pool.offsets.insert(key, offset);
    }
    report.seconds = started.elapsed().as_secs_f64();
    Ok(report)
}

/// A batch of the condition with its move target shifted by `offset` and jittered, seeded
/// by `seed` (the batch's spread of targets around the one asked).
fn spread_conditions(
    c: Condition,
    batch: usize,
    seed: u64,
    offset: f64,
    (moves_lo, moves_hi): (f64, f64),
) -> Vec<Condition> {
    let mut spread = Rng::derive(seed, 0x5eed);
    (0..batch)
        .map(|_| Condition {
            moves: c.moves.map(|t| {
                let jitter = (2.0 * spread.unit() - 1.0) * MOVES_SPREAD;
                (t + offset + jitter).clamp(moves_lo, moves_hi)
            }),
            ..c
        })
        .collect()
}

/// Each fresh layout played until its games decide it against the screening window.
fn screen_all(
    fresh: Vec<Layout>,
    request: &ValidatedRequest,
    screen: &Window,
) -> Vec<(Layout, Vec<Game>, Verdict)> {
    fresh
        .into_par_iter()
        .map(|l| {
            let (games, verdict) = play_until_decided(
                &Geometry::new(&l),
                &request.validation,
                request.validation.games,
                screen,
                &[],
            );
            (l, games, verdict)
        })
        .collect()
}

/// Which side of the accepting window the candidates lean to: below minus above, as a
/// fraction of them.
fn lean(screened: &[(Layout, Vec<Game>, Verdict)], accept: &Window) -> f64 {
    let side = |v: Verdict| {
        screened
            .iter()
            .filter(|s| s.2 == v || judge(&s.1, accept) == v)
            .count() as f64
    };
    (side(Verdict::Below) - side(Verdict::Above)) / screened.len() as f64
}

/// Confirms the screened-in layouts with `second`'s games, nearest the middle of the
/// accepting window first, until `room` are kept; counts the games played into `games_played`.
fn confirm_nearest_centre(
    mut inside: Vec<(Layout, Vec<Game>)>,
    request: &ValidatedRequest,
    second: &ValidationConfig,
    accept: &Window,
    room: usize,
    games_played: &mut usize,
) -> Vec<Spare> {
    // Nearest the middle of the window first, CONFIRM_BATCH at a time, until the
    // request has its count: the rest are never confirmed. The batch is a constant,
    // not the machine's thread count, so the same seed gives the same levels on any
    // machine (extra confirmed levels of a batch join the pool).
    let centre = (accept.lo + accept.hi) / 2.0;
    inside.sort_by(|a, b| {
        (median_bounds(&a.1).0 - centre)
            .abs()
            .total_cmp(&(median_bounds(&b.1).0 - centre).abs())
    });
    let chunk = CONFIRM_BATCH;
    let mut kept = Vec::new();
    let mut queue = inside.into_iter().peekable();
    while kept.len() < room && queue.peek().is_some() {
        let group: Vec<(Layout, Vec<Game>)> = queue.by_ref().take(chunk).collect();
        let judged: Vec<(Layout, Vec<Game>, Vec<Game>, Verdict)> = group
            .into_par_iter()
            .map(|(l, first)| {
                let (games, verdict) =
                    play_until_decided(&Geometry::new(&l), second, second.games, accept, &first);
                (l, first, games, verdict)
            })
            .collect();
        *games_played += judged.iter().map(|j| j.2.len()).sum::<usize>();
        for (layout, screen, confirm, verdict) in judged {
            if verdict == Verdict::Inside {
                kept.push(Spare {
                    layout,
                    symmetry: request.condition.symmetry,
                    validation: request.validation,
                    screen,
                    confirm,
                });
            }
        }
    }
    kept
}

/// The figures of [`validated_sweep`].
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ValidatedSweep {
    /// Sweep conditions asked (144).
    pub conditions: usize,
    /// Conditions the training set cannot meet with a valid level (no level of that size
    /// takes ≤ 20 moves); they are moved to the nearest feasible moves or skipped.
    pub infeasible: usize,
    /// Conditions skipped: their size has no valid layout in the training set at all, so no
    /// moves could be asked for.
    pub skipped: usize,
    /// Of the conditions not skipped, those whose moves lie so near the move limit that no
    /// median is both within `tolerance − margin` of them and at most `limit − margin`: they
    /// are moved down to the most moves that can be promised (and kept in the count).
    #[serde(default)]
    pub beyond_margin: usize,
    /// Of the conditions not skipped, those at a size whose easiest known layout
    /// ([`crate::easiest`]) takes more moves than any promised level may: no level
    /// of that size can be promised, so they are not asked.
    #[serde(default)]
    pub unpromisable: usize,
    /// Conditions for which at least one level was accepted.
    pub fulfilled: usize,
    /// Levels accepted in all.
    pub accepted: usize,
    /// Levels generated and validated in all.
    pub attempts: usize,
    /// Bot games played in all (early-stopped ones included).
    #[serde(default)]
    pub games: usize,
    /// Of the accepted levels, the share valid when re-validated with another bot seed.
    pub revalidated_valid: f64,
    /// Of the accepted levels, the share within the tolerance of the requested moves when
    /// re-validated with another bot seed.
    pub revalidated_on_target: f64,
    /// As `revalidated_on_target`, re-validated with 120 games instead of 30 (the same bot
    /// seed): how much of the misses is the 30-game median's own noise.
    #[serde(default)]
    pub revalidated_on_target_long: f64,
    /// As `revalidated_valid`, re-validated with 120 games instead of 30 (the same bot seed).
    #[serde(default)]
    pub revalidated_valid_long: f64,
    /// Wall-clock milliseconds per accepted level.
    pub ms_per_accepted: f64,
}

/// How [`validated_sweep`] asks one of its conditions.
#[derive(Clone, Debug)]
pub enum SweepAsk {
    /// No level of the condition's size is valid in the training set: not asked.
    Skipped,
    /// No level of the size can be promised ([`ModelError::BelowEasiest`]): not asked.
    Unpromisable {
        /// The condition lay outside the training coverage.
        infeasible: bool,
        /// Its moves also lay too near the limit to promise.
        beyond_margin: bool,
    },
    /// Asked as this request.
    Ask {
        /// The request, its moves moved as the refusals suggest.
        request: ValidatedRequest,
        /// The condition lay outside the training coverage and moved to the nearest covered
        /// moves at its size.
        infeasible: bool,
        /// The moves lay too near the limit to promise and moved down to the most that can be.
        beyond_margin: bool,
    },
}

/// How the sweep asks `condition`: outside the training coverage it moves to the nearest
/// covered moves at the same size (a size with no valid level is skipped); `make` turns it
/// into a request; moves too near the limit move down to the most that can be promised, and
/// moves below the size's easiest layout up to the fewest; a size no level of which can be
/// promised is not asked.
///
/// # Errors
/// A refusal other than those two.
pub fn sweep_ask(
    generator: &CvaeModel,
    condition: Condition,
    make: impl FnOnce(Condition) -> ValidatedRequest,
) -> Result<SweepAsk> {
    let limit = ValidationConfig::default().limit as f64;
    let (condition, infeasible) = match generator.feasibility(&condition) {
        Feasibility::Infeasible {
            nearest_same_size, ..
        } => match nearest_same_size {
            Some(c) if c.moves.is_none_or(|m| m <= limit) => (c, true),
            _ => return Ok(SweepAsk::Skipped),
        },
        _ => (condition, false),
    };
    let request = make(condition);
    let uses_moves = generator.kind().uses_moves();
    let (request, beyond_margin) = match request.check_promise(uses_moves) {
        Err(ModelError::BeyondMargin { most, .. }) => (request.with_moves(most), true),
        _ => (request, false),
    };
    let request = match request.check_promise(uses_moves) {
        Err(ModelError::BelowEasiest {
            least: Some(least), ..
        }) => request.with_moves(least),
        Err(ModelError::BelowEasiest { least: None, .. }) => {
            return Ok(SweepAsk::Unpromisable {
                infeasible,
                beyond_margin,
            })
        }
        other => other.map(|()| request)?,
    };
    Ok(SweepAsk::Ask {
        request,
        infeasible,
        beyond_margin,
    })
}

/// Validated generation over the 144 sweep conditions (one level each, `budget` attempts
/// each). Conditions outside the training coverage move to the nearest covered moves at the
/// same size; sizes whose levels never take ≤ 20 moves are skipped. The accepted levels are
/// re-validated with bot seed `seed + 1000` to measure what the designer really gets.
/// Candidates are decoded as `decoding` says ([`Decoding::DEFAULT`]: fresh levels).
///
/// # Errors
/// A generation failure.
pub fn validated_sweep(
    generator: &CvaeModel,
    seed: u64,
    budget: usize,
    tolerance: f64,
    margin: f64,
    limit_margin: f64,
    decoding: Decoding,
) -> Result<ValidatedSweep> {
    let min_moves = generator
        .kind()
        .uses_moves()
        .then_some(generator.sidecar().moves.min);
    let started = Instant::now();
    let mut out = ValidatedSweep::default();
    let mut accepted: Vec<(Condition, Accepted)> = Vec::new();
    for (i, condition) in super::sweep::sweep_conditions(min_moves, seed)
        .into_iter()
        .enumerate()
    {
        out.conditions += 1;
        let ask = sweep_ask(generator, condition, |condition| ValidatedRequest {
            budget,
            tolerance,
            margin,
            limit_margin,
            decoding,
            ..ValidatedRequest::new(condition, 1, seed.wrapping_add(i as u64 * 7919))
        })?;
        let request = match ask {
            SweepAsk::Skipped => {
                out.infeasible += 1;
                out.skipped += 1;
                continue;
            }
            SweepAsk::Unpromisable {
                infeasible,
                beyond_margin,
            } => {
                out.infeasible += usize::from(infeasible);
                out.beyond_margin += usize::from(beyond_margin);
                out.unpromisable += 1;
                continue;
            }
            SweepAsk::Ask {
                request,
                infeasible,
                beyond_margin,
            } => {
                out.infeasible += usize::from(infeasible);
                out.beyond_margin += usize::from(beyond_margin);
                request
            }
        };
        let condition = request.condition;
        let report = generate_validated(generator, &request, None)?;
        out.attempts += report.attempts;
        out.games += report.games;
        out.fulfilled += usize::from(!report.accepted.is_empty());
        accepted.extend(report.accepted.into_iter().map(|a| (condition, a)));
    }
    out.accepted = accepted.len();
    out.ms_per_accepted = if accepted.is_empty() {
        f64::INFINITY
    } else {
        started.elapsed().as_secs_f64() * 1e3 / accepted.len() as f64
    };
    let recheck = ValidationConfig {
        seed: seed + 1000,
        ..Default::default()
    };
    let layouts: Vec<Layout> = accepted.iter().map(|(_, a)| a.layout.clone()).collect();
    let again = validate_all(&layouts, &recheck);
    let n = accepted.len().max(1) as f64;
    let valid = |again: &[Option<Validation>]| {
        again
            .iter()
            .filter(|v| v.as_ref().is_some_and(|v| v.valid))
            .count() as f64
            / n
    };
    out.revalidated_valid = valid(&again);
    let on_target = |again: &[Option<Validation>]| {
        accepted
            .iter()
            .zip(again)
            .filter(|((c, _), v)| {
                v.as_ref().is_some_and(|v| {
                    v.valid
                        && c.moves
                            .is_none_or(|m| (v.median_moves - m).abs() <= tolerance)
                })
            })
            .count() as f64
            / n
    };
    out.revalidated_on_target = on_target(&again);
    // The same with four times the games: what the levels are, with less of the single
    // re-validation's own noise.
    let long = ValidationConfig {
        games: 4 * recheck.games,
        ..recheck
    };
    let again_long = validate_all(&layouts, &long);
    out.revalidated_valid_long = valid(&again_long);
    out.revalidated_on_target_long = on_target(&again_long);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_windows_narrow_by_the_margin_and_widen_for_the_screen() {
        let r = ValidatedRequest::new(Condition::new(7, 9, Symmetry::Vertical, Some(15.0)), 1, 0);
        let (accept, screen) = r.windows(true);
        assert_eq!((accept.lo, accept.hi), (14.0, 16.0));
        assert_eq!((screen.lo, screen.hi), (13.0, 17.0));
        // Near the limit of 20 the top is the limit less its own margin.
        let near = ValidatedRequest::new(
            Condition {
                moves: Some(18.8),
                ..r.condition
            },
            1,
            0,
        );
        let (accept, screen) = near.windows(true);
        assert!((accept.lo - 17.8).abs() < 1e-9 && accept.hi == 18.5);
        assert_eq!(screen.hi, 19.5);
        // Vanilla: valid within the limit's margin.
        let (accept, _) = r.windows(false);
        assert_eq!((accept.lo, accept.hi), (0.0, 18.5));
    }
}
