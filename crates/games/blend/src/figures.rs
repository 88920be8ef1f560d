//! What a blend segment keeps of its last analysis: both agents' verdicts and the tile metrics.

use serde::{Deserialize, Serialize};
use studio_core::level::GameFigures;

/// What the blend analysis found in a segment.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BlendFigures {
    /// More Lode Runner-only tiles than Zelda-only ones.
    pub lode_runner_like: bool,
    /// The Lode Runner agent's verdict (half the gold on a Lode Runner-like segment, 2 of 4
    /// corner paths on a Zelda-like one).
    pub lr_playable: bool,
    /// Gold in the segment.
    pub lr_gold: usize,
    /// The most gold one run of the Lode Runner agent collects, from its better start.
    pub lr_gold_reached: usize,
    /// Corner-to-corner paths the Lode Runner agent finds (0–4; its test on Zelda-like
    /// segments).
    pub lr_corner_paths: usize,
    /// The Zelda agent's verdict.
    pub loz_playable: bool,
    /// Corner-to-corner paths the Zelda agent finds (0–4).
    pub loz_paths: usize,
    /// Cells with a tile only Lode Runner has.
    pub lr_tiles: usize,
    /// Cells with a tile only Zelda has.
    pub zelda_tiles: usize,
    /// The five tile metrics.
    pub metrics: super::metrics::TileMetrics,
}

impl GameFigures for BlendFigures {
    fn tag(&self) -> &'static str {
        "Blend"
    }

    fn numbers(&self) -> Vec<(&'static str, f64)> {
        super::metrics::TileMetrics::NAMES
            .iter()
            .copied()
            .zip(self.metrics.vector())
            .collect()
    }
}
