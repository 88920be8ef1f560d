//! What the studio shows about a blend segment: which game it is like, both playability
//! agents' verdicts and the five tile metrics, as stored with the level and as the gauge shows
//! them.

use super::agents::{lode_runner, lode_runner_corners, zelda};
use super::data::SIDE;
use super::metrics::{likeness, origin_counts, tile_metrics, Likeness, TileMetrics};
use super::BlendFigures;
use serde_json::json;
use studio_core::game::{Analysis, Gauge, Verdict};
use studio_core::level::Figures;

/// What the analysis finds, as stored with the level.
pub fn figures(rows: &[String]) -> BlendFigures {
    let lr = lode_runner(rows);
    let loz = zelda(rows);
    let (lr_tiles, zelda_tiles) = origin_counts(rows);
    let lode_runner_like = likeness(rows) == Likeness::LodeRunner;
    let lr_corner_paths = lode_runner_corners(rows);
    BlendFigures {
        lode_runner_like,
        lr_playable: if lode_runner_like {
            lr.playable
        } else {
            lr_corner_paths >= 2
        },
        lr_gold: lr.gold,
        lr_gold_reached: lr.reached,
        lr_corner_paths,
        loz_playable: loz.playable,
        loz_paths: loz.paths,
        lr_tiles,
        zelda_tiles,
        metrics: tile_metrics(rows),
    }
}

pub(crate) fn analysis_of(f: &BlendFigures) -> Analysis {
    let like = if f.lode_runner_like {
        "Lode Runner-like"
    } else {
        "Zelda-like"
    };
    let own = if f.lode_runner_like {
        f.lr_playable
    } else {
        f.loz_playable
    };
    let verdict = Verdict {
        pass: own,
        weak: false,
        label: if own { "PLAYABLE" } else { "UNPLAYABLE" }.into(),
        reason: format!(
            "{like}: its own game's agent {}",
            if own { "gets through" } else { "is stuck" }
        ),
    };
    let lr_line = if !f.lode_runner_like {
        format!(
            "Lode Runner A*: {} ({} of 4 corner paths, with gravity)",
            yes(f.lr_playable),
            f.lr_corner_paths
        )
    } else if f.lr_gold > 0 {
        format!(
            "Lode Runner A*: {} ({} of {} gold in one run from the best start)",
            yes(f.lr_playable),
            f.lr_gold_reached,
            f.lr_gold
        )
    } else {
        format!(
            "Lode Runner A*: {} (no gold to collect, so no goal)",
            yes(f.lr_playable)
        )
    };
    let loz_line = format!(
        "Zelda A*: {} ({} of 4 corner paths)",
        yes(f.loz_playable),
        f.loz_paths
    );
    let share = lr_share(f);
    let m = f.metrics;
    let mut fields = serde_json::Map::new();
    fields.insert(
        "like".into(),
        json!(if f.lode_runner_like {
            "lode-runner"
        } else {
            "zelda"
        }),
    );
    fields.insert("lr_playable".into(), json!(f.lr_playable));
    fields.insert("loz_playable".into(), json!(f.loz_playable));
    fields.insert("lr_gold".into(), json!(f.lr_gold));
    fields.insert("lr_gold_reached".into(), json!(f.lr_gold_reached));
    fields.insert("lr_corner_paths".into(), json!(f.lr_corner_paths));
    fields.insert("loz_paths".into(), json!(f.loz_paths));
    fields.insert("lr_tiles".into(), json!(f.lr_tiles));
    fields.insert("zelda_tiles".into(), json!(f.zelda_tiles));
    for (name, v) in TileMetrics::NAMES.iter().zip(m.vector()) {
        fields.insert((*name).into(), json!(v));
    }
    Analysis {
        difficulty: None,
        summary: format!(
            "{like}, {}; {lr_line}; {loz_line}; density {:.2}, non-linearity {:.3}, leniency \
             {:.2}, interestingness {:.2}, path proportion {:.2}",
            verdict.label,
            m.density,
            m.non_linearity,
            m.leniency,
            m.interestingness,
            m.path_proportion
        ),
        verdict,
        figures: Some(Figures::new(f.clone())),
        gauge: Gauge {
            title: "Blend".into(),
            headline: format!("{like} · {:.0} % Lode Runner tiles", share * 100.0),
            value: Some(share),
            scale: (0.0, 1.0),
            threshold: Some((0.5, "half".into())),
            good_below: false,
            band: None,
            notes: vec![lr_line, loz_line],
            histogram: None,
            curve: None,
            rates: Some((
                "Tile metrics (shares of the 256 cells)".into(),
                vec![
                    ("density".into(), m.density),
                    ("non-linearity".into(), m.non_linearity),
                    ("leniency".into(), m.leniency),
                    ("interestingness".into(), m.interestingness),
                    ("path proportion".into(), m.path_proportion),
                ],
            )),
            tables: vec![(
                "Tiles by game".into(),
                vec![
                    ("Lode Runner only".into(), f.lr_tiles.to_string()),
                    ("Zelda only".into(), f.zelda_tiles.to_string()),
                    (
                        "both (B, -, M)".into(),
                        (SIDE * SIDE - f.lr_tiles - f.zelda_tiles).to_string(),
                    ),
                ],
            )],
        },
        fields,
        graph: None,
        graph_note: None,
        detail: None,
    }
}

fn yes(b: bool) -> &'static str {
    if b {
        "playable"
    } else {
        "not playable"
    }
}

/// The share of Lode Runner-only tiles among the tiles only one game has (0.5 with none).
pub fn lr_share(f: &BlendFigures) -> f64 {
    let n = f.lr_tiles + f.zelda_tiles;
    if n == 0 {
        0.5
    } else {
        f.lr_tiles as f64 / n as f64
    }
}
