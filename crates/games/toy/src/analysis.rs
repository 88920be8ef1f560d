//! The toy's analysis: its crates (the difficulty), a verdict (a level passes with one crate
//! or more) and the state graph of clearing them.

use crate::level::{crates, MAX_CELLS};
use crate::rules::Clearing;
use std::sync::Arc;
use studio_core::game::explore::{GraphPicture, StateGraph};
use studio_core::game::{Analysis, Gauge, Verdict};
use studio_core::jobs::JobError;
use studio_core::level::Level;

/// The analysis of a toy level.
///
/// # Errors
/// A level whose state graph is larger than the explorer's budget.
pub fn analyse_level(level: &Level) -> Result<Analysis, JobError> {
    let crates = crates(level);
    let mut fields = serde_json::Map::new();
    fields.insert("crates".into(), crates.into());
    Ok(Analysis {
        difficulty: Some(crates as f64),
        verdict: Verdict {
            pass: crates > 0,
            weak: false,
            label: if crates > 0 { "CRATES" } else { "EMPTY" }.into(),
            reason: format!("{crates} crates"),
        },
        figures: None,
        gauge: Gauge::default(),
        fields,
        summary: format!("{crates} crates"),
        graph: Some(Arc::new(GraphPicture::new(
            StateGraph::<Clearing, MAX_CELLS>::explore((), Clearing::start(level), 4096)
                .map_err(|e| JobError::failed(e.to_string()))?,
        ))),
        graph_note: None,
        detail: None,
    })
}
