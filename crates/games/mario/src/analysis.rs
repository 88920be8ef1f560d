//! What the studio shows about a Mario level: the analysis (A* playability, the human-like
//! agent's trials, the rewards) as the gauge, the level file and `validate` show it, the
//! gauge's "why" line for an edit, and the damage overlay.

use super::engine::Cause;
use super::evaluate::{evaluate, LevelEvaluation, DEFAULT_TRIALS};
use super::level::{self, MarioLevel};
use super::MarioFigures;
use std::sync::Arc;
use studio_core::game::{
    AnalyseOptions, Analysis, Gauge, GaugeCurve, GaugeHistogram, Overlay, Verdict,
};
use studio_core::jobs::{Cancel, JobError};
use studio_core::level::Figures;

/// The analysis of a Mario level: A*, then `options.games` (10) human-like trials.
///
/// # Errors
/// The job was cancelled.
pub fn analyse_level(
    level: &MarioLevel,
    options: &AnalyseOptions,
    cancel: &Cancel,
) -> Result<Analysis, JobError> {
    let trials = options.games.unwrap_or(DEFAULT_TRIALS).max(1);
    let eval = evaluate(level, options.seed, trials, cancel)?;
    Ok(analysis_of(level, &eval))
}

fn analysis_of(level: &MarioLevel, eval: &LevelEvaluation) -> Analysis {
    let figures = eval.figures();
    let verdict = if figures.playable {
        Verdict {
            pass: true,
            weak: false,
            label: "PLAYABLE".into(),
            reason: format!("A* finishes in {} ticks", figures.astar_ticks),
        }
    } else {
        Verdict {
            pass: false,
            weak: false,
            label: "UNPLAYABLE".into(),
            reason: figures
                .failure
                .clone()
                .unwrap_or_else(|| "A* does not finish".into()),
        }
    };
    let mut notes = vec![format!(
        "A*: {} in {} ticks, {} jump{}",
        if figures.playable {
            "finished"
        } else {
            "failed"
        },
        figures.astar_ticks,
        eval.astar.jumps,
        if eval.astar.jumps == 1 { "" } else { "s" }
    )];
    if let Some(f) = &figures.failure {
        notes.push(format!("A* {f}"));
    }
    notes.push(format!(
        "Human-like agent: {} trials (seed {}); total damage = enemy + 1.1 × hole",
        figures.trials, figures.seed
    ));
    let per_pattern = eval.damage_per_pattern(level);
    let histogram = GaugeHistogram {
        caption: format!(
            "Virtual damage per 4-column pattern over {} trials",
            figures.trials
        ),
        bars: per_pattern
            .iter()
            .enumerate()
            .map(|(i, &n)| (i as f64, n))
            .collect(),
        own_axis: true,
    };
    let indicator = |name: &str, values: &[f64]| {
        let (mean, sd) = super::evaluate::mean_sd(values);
        (name.to_string(), format!("{mean:.2} ± {sd:.2}"))
    };
    let tables = vec![
        (
            "Rewards".to_string(),
            vec![
                (
                    "total damage".into(),
                    format!("{:.2}", figures.total_damage),
                ),
                ("r_diff".into(), format!("{:.3}", figures.r_diff)),
                ("r_mono".into(), format!("{:.3}", figures.r_mono)),
                ("evaluation".into(), format!("{:.3}", figures.evaluation)),
            ],
        ),
        (
            format!(
                "Human-like indicators (mean ± sd of {} trials)",
                figures.trials
            ),
            vec![
                indicator("jumps", &eval.jumps),
                indicator("enemy damage", &eval.enemy_damage),
                indicator("hole damage", &eval.hole_damage),
                indicator("long presses", &eval.long_presses),
            ],
        ),
    ];
    let gauge = Gauge {
        title: "Evaluation".into(),
        headline: if figures.playable {
            format!(
                "Evaluation {:.3} · damage {:.2}",
                figures.evaluation, figures.total_damage
            )
        } else {
            "Unplayable".into()
        },
        value: Some(figures.evaluation),
        scale: (0.0, 1.1),
        threshold: Some((0.7, "good".into())),
        good_below: false,
        band: None,
        notes,
        histogram: Some(histogram),
        curve: Some(r_diff_curve(&figures)),
        rates: None,
        tables,
    };
    let fields = eval.json_fields();
    let summary = if figures.playable {
        format!(
            "playable (A* {} ticks); damage {:.2} (enemy {:.2}, hole {:.2}), jumps {:.1}, long \
             presses {:.1}; r_diff {:.3} + r_mono {:.3} = {:.3}",
            figures.astar_ticks,
            figures.total_damage,
            figures.enemy_damage,
            figures.hole_damage,
            figures.jumps,
            figures.long_presses,
            figures.r_diff,
            figures.r_mono,
            figures.evaluation
        )
    } else {
        format!(
            "unplayable: {}",
            figures.failure.as_deref().unwrap_or("A* does not finish")
        )
    };
    Analysis {
        difficulty: figures.playable.then_some(figures.total_damage),
        verdict,
        figures: Some(Figures::new(figures)),
        gauge,
        fields,
        summary,
        graph: None,
        graph_note: None,
        detail: Some(Arc::new(eval.clone())),
    }
}

/// The thesis's r_diff curve (Fig. 6.4) with the level's total damage on it: how appropriate
/// its damage is, and which way an edit should move it.
fn r_diff_curve(figures: &MarioFigures) -> GaugeCurve {
    let top = 6.0;
    let points = (0..=120)
        .map(|k| {
            let x = top * f64::from(k) / 120.0;
            [x, super::reward::r_diff(x)]
        })
        .collect();
    let marker = figures
        .playable
        .then(|| [figures.total_damage.min(top), figures.r_diff]);
    let caption = if figures.playable {
        let advice = if figures.total_damage < super::reward::DIFF_PEAK {
            "more damage raises it"
        } else {
            "less damage raises it"
        };
        format!(
            "r_diff (the thesis's Fig. 6.4): this level's damage {:.2} gives {:.2}; {advice}, \
             up to 1 at {:.2}",
            figures.total_damage,
            figures.r_diff,
            super::reward::DIFF_PEAK
        )
    } else {
        "r_diff (the thesis's Fig. 6.4): an unplayable level has none".into()
    };
    GaugeCurve {
        caption,
        axes: ("total damage".into(), "r_diff".into()),
        points,
        marker,
    }
}

/// The gauge's "why" line for an edit of `changed` cells: A* first (a level it no longer
/// finishes, or finishes again), else the human-like trials' virtual damage in the edited
/// 4-column patterns against before, the damage elsewhere, and the jumps a trial.
pub fn explain_change(
    before: &LevelEvaluation,
    after: &LevelEvaluation,
    changed: &[(usize, usize)],
) -> String {
    let first = changed.iter().map(|c| c.0).min().unwrap_or(0) / level::PATTERN_COLUMNS;
    let last = changed.iter().map(|c| c.0).max().unwrap_or(0) / level::PATTERN_COLUMNS;
    let columns = (first * level::PATTERN_COLUMNS)..((last + 1) * level::PATTERN_COLUMNS);
    let place = if first == last {
        format!(
            "Pattern {} (columns {}–{})",
            first + 1,
            columns.start + 1,
            columns.end
        )
    } else {
        format!(
            "Patterns {}–{} (columns {}–{})",
            first + 1,
            last + 1,
            columns.start + 1,
            columns.end
        )
    };
    match (before.playable(), after.playable()) {
        (_, false) => {
            let why = after
                .astar
                .failure()
                .unwrap_or_else(|| "it does not reach the goal".into());
            return format!("{place}: since this edit A* cannot finish the level ({why}).");
        }
        (false, true) => {
            return format!(
                "{place}: A* finishes the level again ({} ticks).",
                after.astar.ticks
            )
        }
        (true, true) => {}
    }
    let count = |e: &LevelEvaluation, inside: bool, cause: Option<Cause>| {
        e.places
            .iter()
            .filter(|p| columns.contains(&p.column) == inside)
            .filter(|p| cause.is_none_or(|c| p.cause == c))
            .count()
    };
    let here = |cause| (count(before, true, cause), count(after, true, cause));
    let (all, falls, hits) = (
        here(None),
        here(Some(Cause::Hole)),
        here(Some(Cause::Enemy)),
    );
    let elsewhere = (count(before, false, None), count(after, false, None));
    let jumps = (
        super::evaluate::mean_sd(&before.jumps).0,
        super::evaluate::mean_sd(&after.jumps).0,
    );
    format!(
        "{place}, now (before): {} ({}) slips over {} human-like trials, {} ({}) falls and \
         {} ({}) enemy hits; elsewhere {} ({}); jumps a trial {:.1} ({:.1}).",
        all.1,
        all.0,
        after.trials(),
        falls.1,
        falls.0,
        hits.1,
        hits.0,
        elsewhere.1,
        elsewhere.0,
        jumps.1,
        jumps.0
    )
}

/// Tints of the overlay: the A* path, then virtual damage in one, two or three, and four or
/// more trials (the thesis's white / green / yellow markers, scaled to 10 trials).
const PATH_RGBA: [u8; 4] = [36, 52, 190, 170];
const DAMAGE_RGBA: [[u8; 4]; 3] = [
    [245, 245, 245, 230],
    [60, 220, 90, 230],
    [250, 220, 40, 255],
];

/// The overlay of an evaluation: A*'s path and the virtual damage places.
pub fn damage_overlay(eval: &LevelEvaluation) -> Overlay {
    let mut cells: Vec<(usize, usize, [u8; 4])> = Vec::new();
    let mut on_path = std::collections::BTreeSet::new();
    for &(x, y) in &eval.astar.path {
        let (column, row) = (
            (x / 16.0).max(0.0) as usize,
            ((y - 8.0) / 16.0).max(0.0) as usize,
        );
        on_path.insert((column, row));
    }
    let mut counts: std::collections::BTreeMap<(usize, usize), std::collections::BTreeSet<u32>> =
        Default::default();
    for p in &eval.places {
        counts.entry((p.column, p.row)).or_default().insert(p.trial);
    }
    for &(x, y) in &on_path {
        if !counts.contains_key(&(x, y)) {
            cells.push((x, y, PATH_RGBA));
        }
    }
    for (&(x, y), trials) in &counts {
        let tint = match trials.len() {
            0 | 1 => DAMAGE_RGBA[0],
            2 | 3 => DAMAGE_RGBA[1],
            _ => DAMAGE_RGBA[2],
        };
        cells.push((x, y, tint));
    }
    let rgb = |c: [u8; 4]| [c[0], c[1], c[2]];
    Overlay {
        cells,
        legend: vec![
            ("A* path".into(), rgb(PATH_RGBA)),
            ("damage: 1 trial".into(), rgb(DAMAGE_RGBA[0])),
            ("2–3 trials".into(), rgb(DAMAGE_RGBA[1])),
            ("4+ trials".into(), rgb(DAMAGE_RGBA[2])),
        ],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 47: the gauge's "why" line counts the trials' slips in the edited patterns and
    /// elsewhere, before and after, and says when A* stops finishing.
    #[test]
    fn the_why_line_counts_slips_where_the_designer_edited() {
        let level = MarioLevel::from_rows(&level::blank(40, 15).to_rows()).unwrap();
        let before = evaluate(&level, 0, 4, &Cancel::default()).unwrap();
        assert!(before.playable());
        let mut after = before.clone();
        let slip = |column, cause| super::super::evaluate::DamagePlace {
            trial: 0,
            column,
            row: 14,
            cause,
        };
        after.places = before.places.clone();
        after.places.push(slip(9, Cause::Hole));
        after.places.push(slip(10, Cause::Hole));
        after.places.push(slip(30, Cause::Enemy));
        let line = explain_change(&before, &after, &[(9, 13), (10, 14)]);
        let here = before
            .places
            .iter()
            .filter(|p| (8..12).contains(&p.column))
            .count();
        let want = format!(
            "Pattern 3 (columns 9–12), now (before): {} ({here}) slips over 4 human-like trials",
            here + 2
        );
        assert!(line.starts_with(&want), "{line}");
        // Two edited patterns are named as a range.
        let wide = explain_change(&before, &after, &[(3, 13), (10, 13)]);
        assert!(wide.starts_with("Patterns 1–3 (columns 1–12)"), "{wide}");
        // A* first: a level it cannot finish says so.
        let mut stuck = before.clone();
        stuck.astar.status = crate::engine::Status::Lost(Cause::Hole);
        let line = explain_change(&before, &stuck, &[(9, 13)]);
        assert!(line.contains("A* cannot finish"), "{line}");
    }
}
