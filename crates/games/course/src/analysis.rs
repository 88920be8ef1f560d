//! What the studio shows about a course: the exact evaluation as the gauge, the level file and
//! `validate` show it, with the strategy tree for the state-graph viewer.

use super::matrix::{strip, Course};
use super::play::{Node, StrategyGraph};
use super::rules::{Evaluation, WEIGHTS};
use super::CourseFigures;
use serde_json::json;
use std::sync::Arc;
use studio_core::game::explore::GraphPicture;
use studio_core::game::{Analysis, Gauge, Verdict};
use studio_core::level::Figures;

/// A course whose evaluation reaches this is GOOD.
pub const GOOD_EVALUATION: f64 = 0.8;

/// The evaluation as the gauge, the level file and `validate` show it.
pub fn analysis_of(course: &Course, e: &Evaluation) -> Analysis {
    let rate = e.win_rate();
    let verdict = if e.wins == 0 {
        Verdict {
            pass: false,
            weak: false,
            label: "UNWINNABLE".into(),
            reason: "no attack / retreat strategy beats the boss".into(),
        }
    } else if e.value >= GOOD_EVALUATION {
        Verdict {
            pass: true,
            weak: false,
            label: "GOOD".into(),
            reason: format!("evaluation {:.3} ≥ {GOOD_EVALUATION}", e.value),
        }
    } else {
        Verdict {
            pass: false,
            weak: true,
            label: "WEAK".into(),
            reason: format!("evaluation {:.3} < {GOOD_EVALUATION}", e.value),
        }
    };
    let names = [
        "f1 win-rate soundness",
        "f2 dramatic survival",
        "f3 moderate parameters",
        "f4 tough wins",
        "f5 early escapes",
        "f6 strong late enemies",
        "f7 varied wins",
    ];
    let short = [
        "f1 win rate",
        "f2 drama",
        "f3 moderate",
        "f4 tough",
        "f5 escapes",
        "f6 late foes",
        "f7 varied",
    ];
    let mut fields = serde_json::Map::new();
    fields.insert("evaluation".into(), json!(e.value));
    fields.insert("win_rate".into(), json!(rate));
    for (i, f) in e.f.iter().enumerate() {
        fields.insert(format!("f{}", i + 1), json!(f));
    }
    fields.insert("strategies".into(), json!(e.strategies));
    fields.insert("wins".into(), json!(e.wins));
    fields.insert("dramatic".into(), json!(e.dramatic));
    fields.insert("monotonous".into(), json!(e.monotonous));
    fields.insert("enemies".into(), json!(course.enemies()));
    fields.insert("events".into(), json!(course.events()));
    fields.insert(
        "strip".into(),
        json!(strip(course).into_iter().collect::<String>()),
    );
    let summary = format!(
        "{} events, evaluation {:.3}, {} of {} strategies win ({:.1} %)\n  {}",
        course.events(),
        e.value,
        e.wins,
        e.strategies,
        rate * 100.0,
        e.f.iter()
            .enumerate()
            .map(|(i, f)| format!("f{} {f:.3}", i + 1))
            .collect::<Vec<_>>()
            .join(" · ")
    );
    let mut events = Vec::new();
    for i in 0..course.enemies() {
        let (hp, atk) = course.enemy(i);
        let mut text = format!("HP {hp:.0} · ATK {atk:.1}");
        if course.recovery(i) > 0.0 {
            text.push_str(&format!(
                " · then recover {:.0} %",
                course.recovery(i) * 100.0
            ));
        }
        events.push((format!("enemy {}", i + 1), text));
    }
    let (hp, atk) = course.boss();
    events.push(("boss".into(), format!("HP {hp:.0} · ATK {atk:.1}")));
    let gauge = Gauge {
        title: "Evaluation".into(),
        headline: format!("Evaluation {:.3}", e.value),
        value: Some(e.value),
        scale: (0.0, 1.0),
        threshold: Some((GOOD_EVALUATION, "good".into())),
        good_below: false,
        band: None,
        notes: vec![
            format!(
                "Win rate {:.1} % (target 30 %): {} of {} attack / retreat strategies beat the boss",
                rate * 100.0,
                e.wins,
                e.strategies
            ),
            format!(
                "{} winning strategies survive a crisis, {} only attack or only retreat",
                e.dramatic, e.monotonous
            ),
        ],
        histogram: None,
        curve: None,
        rates: Some((
            "Evaluation terms (weights 0.4 · 0.1 · 0.2 · 0.1 · 0.05 · 0.1 · 0.05)".into(),
            short
                .iter()
                .zip(e.f)
                .map(|(n, f)| (n.to_string(), f))
                .collect(),
        )),
        tables: vec![
            ("Events".into(), events),
            (
                "Terms × weights".into(),
                names
                    .iter()
                    .zip(e.f.iter().zip(WEIGHTS))
                    .map(|(n, (f, w))| (n.to_string(), format!("{f:.3} × {w} = {:.3}", f * w)))
                    .collect(),
            ),
        ],
    };
    let graph = StrategyGraph::explore(course.clone(), Node::START, 1 << 16)
        .ok()
        .map(|g| Arc::new(GraphPicture::new(g)) as Arc<dyn studio_core::game::StateGraphView>);
    Analysis {
        difficulty: Some(1.0 - rate),
        verdict,
        figures: Some(Figures::new(CourseFigures {
            evaluation: e.value,
            win_rate: rate,
            f: e.f,
            strategies: e.strategies,
            wins: e.wins,
        })),
        gauge,
        fields,
        summary,
        graph,
        graph_note: None,
        detail: Some(Arc::new(e.clone())),
    }
}
