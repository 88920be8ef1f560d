//! What the studio shows about a match-3 layout: the bots' validation as the gauge, the level
//! file and `validate` show it.

use super::layout::Layout;
use super::validate::Validation;
use super::Match3Figures;
use serde_json::json;
use std::sync::Arc;
use studio_core::game::{Analysis, Gauge, GaugeBand, GaugeHistogram, Verdict};
use studio_core::level::Figures;

/// The validation of a layout as the gauge, the level file and `validate` show it.
pub fn analysis_of(layout: &Layout, v: Validation) -> Analysis {
    let (width, height) = layout.size();
    let verdict = Verdict {
        pass: v.valid,
        weak: false,
        label: if v.valid { "VALID" } else { "INVALID" }.into(),
        reason: format!(
            "median {} moves {} the limit of {}",
            v.median_moves,
            if v.valid { "within" } else { "over" },
            v.limit
        ),
    };
    let fields = json!({
        "width": width,
        "height": height,
        "symmetry": layout.symmetry().name(),
        "spawners": layout.spawners().len(),
        "median_moves": v.median_moves,
        "std_moves": v.std_moves,
        "games": v.games,
        "solved": v.solved,
        "valid": v.valid,
        "limit": v.limit,
        "seed": v.seed,
        "histogram": v.histogram,
    });
    let summary = format!(
        "{width}x{height} {sym}, median {med} moves (std {std:.2}), {solved}/{games} games solved, {label} (limit {limit})",
        sym = layout.symmetry(),
        med = v.median_moves,
        std = v.std_moves,
        solved = v.solved,
        games = v.games,
        label = verdict.label,
        limit = v.limit,
    );
    let gauge = Gauge {
        title: "Median moves".into(),
        headline: format!("Median {:.1} moves", v.median_moves),
        value: Some(v.median_moves),
        scale: (0.0, f64::from(v.limit * 2)),
        threshold: Some((f64::from(v.limit), "limit".into())),
        good_below: true,
        band: Some(GaugeBand {
            low: v.median_moves - v.std_moves,
            high: v.median_moves + v.std_moves,
        }),
        notes: vec![format!(
            "limit {} · ±1 std {:.1} · solved {}/{} games · seed {}",
            v.limit, v.std_moves, v.solved, v.games, v.seed
        )],
        histogram: Some(GaugeHistogram {
            caption: format!(
                "Moves to reach the goal in {} bot games ({} = not solved)",
                v.games,
                v.limit * 2
            ),
            bars: (1u32..)
                .zip(&v.histogram)
                .filter(|(_, &n)| n > 0)
                .map(|(moves, &n)| (f64::from(moves), n))
                .collect(),
            own_axis: false,
        }),
        curve: None,
        rates: None,
        tables: Vec::new(),
    };
    Analysis {
        difficulty: Some(v.median_moves),
        figures: Some(Figures::new(Match3Figures::from(&v))),
        verdict,
        gauge,
        fields: match fields {
            serde_json::Value::Object(m) => m,
            _ => serde_json::Map::new(),
        },
        summary,
        graph: None,
        graph_note: None,
        detail: Some(Arc::new(v)),
    }
}
