//! Validated generation: generate, let the bots validate in parallel, keep the distinct
//! levels that are valid and near the requested moves, and stop at a budget.

use super::encoding::Condition;
use super::error::Result;
use super::generator::CvaeModel;
use super::sidecar::Feasibility;
use super::sweep::validate_all;
use crate::match3::layout::Layout;
use crate::match3::{Validation, ValidationConfig};
use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// The default [`ValidatedRequest::margin`]: the median of 30 games moves by about a move
/// between bot seeds.
pub const DEFAULT_MARGIN: f64 = 1.5;

/// The confirming validation plays this many times the games of the first one.
pub const CONFIRM_FACTOR: u32 = 3;

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
    /// judge it on both together (60 games).
    pub confirm: bool,
    /// Safety margin, in moves, for the bots' sampling noise: the median of both validations
    /// must lie within `tolerance − margin` of the target and at most `limit − margin`, so
    /// that a fresh validation of an accepted level still lands within the tolerance and
    /// the limit. Only used with `confirm`.
    pub margin: f64,
}

impl ValidatedRequest {
    /// A request with the defaults: budget 40 × count (at least 256), tolerance 2 moves.
    pub fn new(condition: Condition, count: usize, seed: u64) -> Self {
        Self {
            condition,
            count,
            budget: (40 * count).max(256),
            tolerance: 2.0,
            seed,
            validation: ValidationConfig::default(),
            confirm: true,
            margin: DEFAULT_MARGIN,
        }
    }
}

/// One accepted level.
#[derive(Clone, Debug)]
pub struct Accepted {
    /// The level.
    pub layout: Layout,
    /// The bots' first validation of it (the confirming one is not kept).
    pub validation: Validation,
}

/// What a validated generation found.
#[derive(Clone, Debug)]
pub struct ValidatedReport {
    /// The accepted levels, distinct, at most `count`.
    pub accepted: Vec<Accepted>,
    /// Levels generated and validated.
    pub attempts: usize,
    /// Of the attempts, how many the bots found valid (any moves).
    pub valid_attempts: usize,
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

/// Runs a validated generation. `cancel`, when set, stops it between batches.
///
/// # Errors
/// The condition's errors ([`super::ModelError::SizeOutOfRange`], …).
pub fn generate_validated(
    generator: &CvaeModel,
    request: &ValidatedRequest,
    cancel: Option<&AtomicBool>,
) -> Result<ValidatedReport> {
    generator.check(&request.condition)?;
    let started = Instant::now();
    let wants_moves = generator.kind().uses_moves();
    let target = request.condition.moves.unwrap_or(0.0);
    let mut seen: HashSet<Layout> = HashSet::new();
    let mut report = ValidatedReport {
        accepted: Vec::new(),
        attempts: 0,
        valid_attempts: 0,
        seconds: 0.0,
        feasibility: generator.feasibility(&request.condition),
        exhausted: false,
        cancelled: false,
    };
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
            .clamp(32, 256)
            .min(request.budget - report.attempts);
        let seed = request
            .seed
            .wrapping_add(round.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        round += 1;
        let layouts = generator.generate_each(&vec![request.condition; batch], seed)?;
        report.attempts += batch;
        let fresh: Vec<Layout> = layouts
            .into_iter()
            .filter(|l| seen.insert(l.clone()))
            .collect();
        let on_target = |v: &Validation| {
            v.valid && (!wants_moves || (v.median_moves - target).abs() <= request.tolerance)
        };
        let validations = validate_all(&fresh, &request.validation);
        let mut candidates = Vec::new();
        for (layout, validation) in fresh.into_iter().zip(validations) {
            let Some(validation) = validation else {
                continue;
            };
            report.valid_attempts += usize::from(validation.valid);
            if on_target(&validation) {
                candidates.push(Accepted { layout, validation });
            }
        }
        if request.confirm {
            let second = ValidationConfig {
                seed: request.validation.seed ^ 0x00c0_ffee,
                games: request.validation.games * CONFIRM_FACTOR,
                ..request.validation
            };
            let layouts: Vec<Layout> = candidates.iter().map(|a| a.layout.clone()).collect();
            let again = validate_all(&layouts, &second);
            let limit = f64::from(request.validation.limit);
            let safe = |median: f64| {
                median <= limit - request.margin
                    && (!wants_moves
                        || (median - target).abs() <= request.tolerance - request.margin)
            };
            candidates = candidates
                .into_iter()
                .zip(again)
                .filter(|(a, v)| {
                    v.as_ref().is_some_and(|v| {
                        let both: Vec<u32> =
                            a.validation.moves.iter().chain(&v.moves).copied().collect();
                        safe(crate::match3::validate::median(&both))
                    })
                })
                .map(|(a, _)| a)
                .collect();
        }
        let room = request.count - report.accepted.len();
        report.accepted.extend(candidates.into_iter().take(room));
    }
    report.seconds = started.elapsed().as_secs_f64();
    Ok(report)
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
    /// Conditions for which at least one level was accepted.
    pub fulfilled: usize,
    /// Levels accepted in all.
    pub accepted: usize,
    /// Levels generated and validated in all.
    pub attempts: usize,
    /// Of the accepted levels, the share valid when re-validated with another bot seed.
    pub revalidated_valid: f64,
    /// Of the accepted levels, the share within the tolerance of the requested moves when
    /// re-validated with another bot seed.
    pub revalidated_on_target: f64,
    /// Wall-clock milliseconds per accepted level.
    pub ms_per_accepted: f64,
}

/// Validated generation over the 144 sweep conditions (one level each, `budget` attempts
/// each). Conditions outside the training coverage move to the nearest covered moves at the
/// same size; sizes whose levels never take ≤ 20 moves are skipped. The accepted levels are
/// re-validated with bot seed `seed + 1000` to measure what the designer really gets.
///
/// # Errors
/// A generation failure.
pub fn validated_sweep(
    generator: &CvaeModel,
    seed: u64,
    budget: usize,
    tolerance: f64,
    margin: f64,
) -> Result<ValidatedSweep> {
    let limit = ValidationConfig::default().limit as f64;
    let min_moves = generator
        .kind()
        .uses_moves()
        .then_some(generator.sidecar().moves.min);
    let started = Instant::now();
    let mut out = ValidatedSweep::default();
    let mut accepted: Vec<(Condition, Accepted)> = Vec::new();
    for (i, mut condition) in super::sweep::sweep_conditions(min_moves, seed)
        .into_iter()
        .enumerate()
    {
        out.conditions += 1;
        if let Feasibility::Infeasible {
            nearest_same_size, ..
        } = generator.feasibility(&condition)
        {
            out.infeasible += 1;
            match nearest_same_size {
                Some(c) if c.moves.is_none_or(|m| m <= limit) => condition = c,
                _ => {
                    out.skipped += 1;
                    continue;
                }
            }
        }
        let request = ValidatedRequest {
            budget,
            tolerance,
            margin,
            ..ValidatedRequest::new(condition, 1, seed.wrapping_add(i as u64 * 7919))
        };
        let report = generate_validated(generator, &request, None)?;
        out.attempts += report.attempts;
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
    out.revalidated_valid = again
        .iter()
        .filter(|v| v.as_ref().is_some_and(|v| v.valid))
        .count() as f64
        / n;
    out.revalidated_on_target = accepted
        .iter()
        .zip(&again)
        .filter(|((c, _), v)| {
            v.as_ref().is_some_and(|v| {
                v.valid
                    && c.moves
                        .is_none_or(|m| (v.median_moves - m).abs() <= tolerance)
            })
        })
        .count() as f64
        / n;
    Ok(out)
}
