//! The analysis of a dungeon room: its skeleton graph and the agent ladder's games, turned
//! into the gauge, the verdict, the stored figures and the fields `validate --json` prints.
//! A room whose skeleton passes the state budget is still analysed: its agents' games give
//! the figures and the verdict, and the graph is marked too large.

use super::agents::{play_game_settled, stats, AgentKind, AgentStats};
use super::evolve::{judge_room, room_groups, GA_GAMES};
use super::room::Room;
use super::rules::TICK_LIMIT;
use super::skeleton::{
    skeleton, GraphError, SkeletonError, SkeletonGraph, DEFAULT_BUDGET, MAX_MONSTERS,
};
use super::{AgentFigures, DungeonFigures};
use serde_json::json;
use std::sync::Arc;
use studio_core::evolve::pattern::{f_pattern, mean_group_size, Fitness};
use studio_core::evolve::Evaluation;
use studio_core::game::explore::GraphPicture;
use studio_core::game::{
    AnalyseOptions, Analysis, Gauge, GaugeHistogram, GraphVariables, StateGraphView, Verdict,
};
use studio_core::jobs::{Cancel, JobError};
use studio_core::level::Figures;

/// Bot games per agent unless told otherwise.
pub const DEFAULT_GAMES: u32 = 30;

/// The analysis of a room: its skeleton graph and `games` seeded games per agent. A room
/// whose skeleton passes the budget is still analysed: the agents' games give its figures
/// and verdict, and the graph is marked too large ([`Analysis::graph_note`], `"graph":
/// "too large"` in the fields).
///
/// # Errors
/// The job was cancelled.
pub fn analyse_room(
    room: &Room,
    options: &AnalyseOptions,
    cancel: &Cancel,
) -> Result<Analysis, JobError> {
    let budget = options.budget.unwrap_or(DEFAULT_BUDGET);
    let skeleton = match skeleton(room, budget) {
        Ok(graph) => Skeleton::Exact(graph),
        Err(e) => Skeleton::TooLarge {
            budget,
            note: too_large_note(&e),
        },
    };
    let games = options.games.unwrap_or(DEFAULT_GAMES).max(1);
    let mut ladder: Vec<AgentStats> = Vec::new();
    let mut damage = Vec::new();
    for agent in AgentKind::ALL {
        if cancel.is_cancelled() {
            return Err(JobError::Cancelled);
        }
        let results: Vec<_> = (0..u64::from(games))
            .map(|g| play_game_settled(room, agent, options.seed, g, TICK_LIMIT))
            .collect();
        if agent == AgentKind::HumanLike {
            damage = results.iter().map(|r| r.virtual_damage).collect();
        }
        ladder.push(stats(agent, &results));
    }
    let ga = judge_room(room.cells(), Fitness::Alpha, options.seed, GA_GAMES);
    let mut analysis = analysis_of(skeleton, &ladder, &damage, games, options.seed);
    add_fitness(&mut analysis, room, &ga);
    Ok(analysis)
}

/// A room's skeleton graph, or the note saying why there is none.
enum Skeleton {
    /// Explored within the budget.
    Exact(SkeletonGraph),
    /// Past the budget (or past the monsters a position tracks).
    TooLarge {
        /// The budget it passed.
        budget: usize,
        /// "graph too large (200,001+ states, budget 200,000)".
        note: String,
    },
}

/// Why a skeleton was not built, in the words the gauge, the viewer and `validate` use.
fn too_large_note(e: &SkeletonError) -> String {
    match e {
        SkeletonError::Graph(GraphError::TooLarge { budget }) => format!(
            "graph too large ({}+ states, budget {})",
            grouped(budget.saturating_add(1)),
            grouped(*budget)
        ),
        SkeletonError::TooManyMonsters { count } => {
            format!("graph too large ({count} monsters; a position tracks at most {MAX_MONSTERS})")
        }
    }
}

/// `1234567` as `1,234,567`.
fn grouped(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The pattern GA's judgement of the room beside the agents' figures: every constraint
/// (a failed one naming itself), the fitness terms, FPattern under α and β.
fn add_fitness(analysis: &mut Analysis, room: &Room, ga: &Evaluation) {
    let groups = room_groups(room.cells());
    let beta = f_pattern(&groups, Fitness::Beta);
    let alpha_fitness = ga.fitness();
    let term = |name: &str| {
        ga.terms
            .iter()
            .find(|t| t.name == name)
            .map_or(0.0, |t| t.value)
    };
    // β's fitness: the same terms with FPattern under β.
    let beta_fitness =
        (term("score difference") + term("unique rules") + beta) / ga.terms.len().max(1) as f64;
    let mut rows: Vec<(String, String)> = vec![
        ("fitness α".into(), format!("{alpha_fitness:.3}")),
        ("fitness β".into(), format!("{beta_fitness:.3}")),
        ("FPattern α".into(), format!("{:.3}", term("FPattern"))),
        ("FPattern β".into(), format!("{beta:.3}")),
        (
            "score difference".into(),
            format!("{:.3}", term("score difference")),
        ),
        (
            "unique rules".into(),
            format!("{:.3}", term("unique rules")),
        ),
        (
            "mean group".into(),
            format!("{:.2}", mean_group_size(&groups)),
        ),
        ("groups".into(), groups.len().to_string()),
    ];
    for c in &ga.constraints {
        let mark = if c.value >= 1.0 { "met" } else { "FAILED" };
        rows.push((c.name.to_string(), format!("{mark}: {}", c.text)));
    }
    let title = if ga.feasible() {
        format!("Pattern GA: feasible (constraint fitness 1, {GA_GAMES} games an agent)")
    } else {
        format!(
            "Pattern GA: infeasible (constraint fitness {:.3}, {GA_GAMES} games an agent)",
            ga.constraint_fitness()
        )
    };
    analysis.gauge.tables.push((title, rows));
    for failed in ga.failed() {
        analysis
            .gauge
            .notes
            .push(format!("GA constraint failed: {failed}"));
    }
    let constraints: serde_json::Map<String, serde_json::Value> = ga
        .constraints
        .iter()
        .map(|c| {
            (
                c.name.to_string(),
                json!({"value": c.value, "text": c.text}),
            )
        })
        .collect();
    let terms: serde_json::Map<String, serde_json::Value> = ga
        .terms
        .iter()
        .map(|t| (t.name.to_string(), json!(t.value)))
        .collect();
    analysis.fields.insert(
        "fitness".into(),
        json!({
            "feasible": ga.feasible(),
            "constraint_fitness": ga.constraint_fitness(),
            "alpha": alpha_fitness,
            "beta": beta_fitness,
            "f_pattern_beta": beta,
            "mean_group_size": mean_group_size(&groups),
            "terms": terms,
            "constraints": constraints,
        }),
    );
}

/// What the skeleton says, when it was explored: solvable with the monsters frozen, the
/// shortest solution, the positions.
struct Exact {
    solvable: bool,
    shortest: Option<String>,
    shortest_moves: Option<u32>,
    states: usize,
}

fn analysis_of(
    skeleton: Skeleton,
    ladder: &[AgentStats],
    damage: &[u32],
    games: u32,
    seed: u64,
) -> Analysis {
    let (exact, graph, too_large) = explored(skeleton);
    let solvable = exact.as_ref().is_some_and(|e| e.solvable);
    let shortest = exact.as_ref().and_then(|e| e.shortest.clone());
    let rate = |kind: AgentKind| {
        ladder
            .iter()
            .find(|s| s.agent == kind)
            .map_or(0.0, |s| s.win_rate)
    };
    let difficulty = ladder
        .iter()
        .find_map(|s| s.mean_virtual_damage)
        .unwrap_or(0.0);
    let planner = rate(AgentKind::Planner);
    // A room is played with moving monsters: the planner's wins count even where the frozen
    // skeleton has no way (a monster standing in a one-cell corridor must step aside).
    let winner = ladder.iter().find(|s| s.win_rate > 0.0).map(|s| s.agent);
    let won = winner.is_some();
    // Without the exact graph an agent's win is the only proof; no win proves nothing.
    let known = solvable || won;
    let verdict = verdict(exact.as_ref(), too_large.as_ref(), planner, winner, games);
    let fields = fields_of(
        exact.as_ref(),
        too_large.as_ref(),
        won,
        &verdict,
        difficulty,
        ladder,
    );
    let summary = summary_of(exact.as_ref(), too_large.as_ref(), won, difficulty, ladder);
    let gauge = gauge_of(
        too_large.as_ref(),
        shortest.as_deref(),
        known,
        difficulty,
        ladder,
        damage,
        (games, seed),
    );
    let figures = DungeonFigures {
        solvable,
        shortest_solution: exact.as_ref().and_then(|e| e.shortest_moves),
        states: exact.as_ref().map_or(0, |e| e.states),
        graph_budget: too_large.as_ref().map(|(budget, _)| *budget),
        virtual_damage: difficulty,
        games,
        seed,
        agents: ladder
            .iter()
            .map(|s| AgentFigures {
                agent: s.agent.name().to_string(),
                win_rate: s.win_rate,
                mean_ticks: s.mean_ticks,
                mean_score: s.mean_score,
            })
            .collect(),
    };
    Analysis {
        difficulty: known.then_some(difficulty),
        figures: Some(Figures::new(figures)),
        verdict,
        gauge,
        fields,
        summary,
        graph: graph.map(|g| Arc::new(GraphPicture::new(g)) as Arc<dyn StateGraphView>),
        graph_note: too_large.map(|(_, note)| note),
        detail: None,
    }
}

/// The exact figures and the graph of an explored skeleton, or the budget it passed and
/// why.
fn explored(
    skeleton: Skeleton,
) -> (
    Option<Exact>,
    Option<SkeletonGraph>,
    Option<(usize, String)>,
) {
    match skeleton {
        Skeleton::Exact(graph) => {
            let v = GraphVariables::of(&graph);
            let exact = Exact {
                solvable: graph.solvable(),
                shortest: graph
                    .shortest_solution()
                    .map(|s| s.iter().map(|a| a.letter()).collect()),
                shortest_moves: v.shortest_solution,
                states: v.states,
            };
            (Some(exact), Some(graph), None)
        }
        Skeleton::TooLarge { budget, note } => (None, None, Some((budget, note))),
    }
}

/// The analysis's JSON fields: the exact figures, the graph's kind, the verdict, the
/// difficulty and each agent's figures.
fn fields_of(
    exact: Option<&Exact>,
    too_large: Option<&(usize, String)>,
    won: bool,
    verdict: &Verdict,
    difficulty: f64,
    ladder: &[AgentStats],
) -> serde_json::Map<String, serde_json::Value> {
    let agents_json: serde_json::Map<String, serde_json::Value> = ladder
        .iter()
        .map(|s| {
            let mut o = json!({
                "win_rate": s.win_rate,
                "mean_ticks": s.mean_ticks,
                "mean_score": s.mean_score,
            });
            if let (Some(d), Some(m)) = (s.mean_virtual_damage, o.as_object_mut()) {
                m.insert("mean_virtual_damage".into(), json!(d));
            }
            (s.agent.name().to_string(), o)
        })
        .collect();
    let mut fields = serde_json::Map::new();
    fields.insert("solvable".into(), json!(exact.map(|e| e.solvable)));
    fields.insert(
        "shortest_solution".into(),
        json!(exact.and_then(|e| e.shortest_moves)),
    );
    fields.insert("states".into(), json!(exact.map(|e| e.states)));
    match too_large {
        None => {
            fields.insert("graph".into(), json!("exact"));
        }
        Some((budget, _)) => {
            fields.insert("graph".into(), json!("too large"));
            fields.insert("graph_budget".into(), json!(budget));
        }
    }
    fields.insert("agent_won".into(), json!(won));
    fields.insert(
        "verdict".into(),
        json!({"label": verdict.label, "pass": verdict.pass, "reason": verdict.reason}),
    );
    fields.insert("difficulty".into(), json!(difficulty));
    fields.insert("agents".into(), serde_json::Value::Object(agents_json));
    fields
}

/// The one-line summary: the skeleton's states and solution (or why it is unknown), the
/// virtual damage and the agents' win rates.
fn summary_of(
    exact: Option<&Exact>,
    too_large: Option<&(usize, String)>,
    won: bool,
    difficulty: f64,
    ladder: &[AgentStats],
) -> String {
    let skeleton_text = match (exact, too_large) {
        (Some(e), _) => format!(
            "{} states, {}",
            e.states,
            match &e.shortest {
                Some(s) => format!("shortest solution {} moves", s.len()),
                None => "unsolvable".into(),
            }
        ),
        (None, Some((_, note))) => format!(
            "{note}, {}",
            if won {
                "solvable (an agent won)"
            } else {
                "solvable unknown (no agent won)"
            }
        ),
        (None, None) => String::new(),
    };
    format!(
        "{skeleton_text}, virtual damage {difficulty:.2}; win rates: {}",
        ladder
            .iter()
            .map(|s| format!("{} {:.0} %", s.agent.name(), s.win_rate * 100.0))
            .collect::<Vec<_>>()
            .join(", ")
    )
}

/// The difficulty gauge: the virtual damage on its scale, its histogram, the win rates and
/// the agents' table, with notes on how it was found.
fn gauge_of(
    too_large: Option<&(usize, String)>,
    shortest: Option<&str>,
    known: bool,
    difficulty: f64,
    ladder: &[AgentStats],
    damage: &[u32],
    (games, seed): (u32, u64),
) -> Gauge {
    let mut notes = Vec::new();
    if let Some((_, note)) = too_large {
        notes.push(format!(
            "State {note}: no exact solvability or shortest solution; the verdict comes from \
             the agents' games"
        ));
    }
    notes.push(format!(
        "Human-like agent: mean virtual damage over {games} games (seed {seed})"
    ));
    if let Some(s) = shortest {
        notes.push(format!(
            "Shortest solution (monsters frozen): {} moves  {s}",
            s.len()
        ));
    }
    let bars = damage_bars(damage);
    let top = bars.last().map_or(1.0, |b| b.0);
    Gauge {
        title: "Difficulty".into(),
        headline: if known {
            format!("Virtual damage {difficulty:.2}")
        } else if too_large.is_some() {
            "Unknown".into()
        } else {
            "Unsolvable".into()
        },
        value: known.then_some(difficulty),
        scale: (0.0, (top + 1.0).max(difficulty * 1.2).max(2.0)),
        threshold: None,
        good_below: true,
        band: None,
        notes,
        histogram: Some(GaugeHistogram {
            caption: format!("Virtual damage in {games} human-like games"),
            bars,
            own_axis: false,
        }),
        curve: None,
        rates: Some((
            format!("Win rates ({games} games per agent)"),
            ladder
                .iter()
                .map(|s| (s.agent.name().to_string(), s.win_rate))
                .collect(),
        )),
        tables: vec![(
            "Agents (mean ticks · mean score)".into(),
            ladder
                .iter()
                .map(|s| {
                    (
                        s.agent.name().to_string(),
                        format!("{:.0} · {:.1}", s.mean_ticks, s.mean_score),
                    )
                })
                .collect(),
        )],
    }
}

/// The human-like games' virtual damage as (damage, games) bars, lowest first.
fn damage_bars(damage: &[u32]) -> Vec<(f64, u32)> {
    let mut bars: Vec<(f64, u32)> = Vec::new();
    for &d in damage {
        match bars.iter_mut().find(|b| b.0 == f64::from(d)) {
            Some(b) => b.1 += 1,
            None => bars.push((f64::from(d), 1)),
        }
    }
    bars.sort_by(|a, b| a.0.total_cmp(&b.0));
    bars
}

/// The badge and its reason: PLAYABLE when the planner wins half its games, UNSOLVABLE when
/// the exact skeleton has no win and no agent won either, HARSH when some agent won but the
/// planner wins less than half; without the exact graph and without a win, UNKNOWN (losing
/// proves nothing).
fn verdict(
    exact: Option<&Exact>,
    too_large: Option<&(usize, String)>,
    planner: f64,
    winner: Option<AgentKind>,
    games: u32,
) -> Verdict {
    let unexplored = too_large.map_or(String::new(), |(_, note)| format!("; exact state {note}"));
    match (exact, winner) {
        _ if planner >= 0.5 => Verdict {
            pass: true,
            weak: false,
            label: "PLAYABLE".into(),
            reason: if exact.is_some_and(|e| !e.solvable) {
                format!(
                    "the planner wins {:.0} % of its games, waiting for a monster to step \
                     aside (with the monsters frozen there is no way)",
                    planner * 100.0
                )
            } else {
                format!(
                    "the planner wins {:.0} % of its games{unexplored}",
                    planner * 100.0
                )
            },
        },
        (Some(e), None) if !e.solvable => Verdict {
            pass: false,
            weak: false,
            label: "UNSOLVABLE".into(),
            reason: "no way to the exit with the key, even with the monsters frozen".into(),
        },
        (None, None) => Verdict {
            pass: false,
            weak: true,
            label: "UNKNOWN".into(),
            reason: format!(
                "no agent won any of its {games} games, which does not prove the room \
                 unsolvable{unexplored}"
            ),
        },
        (_, winner) => Verdict {
            pass: false,
            weak: true,
            label: "HARSH".into(),
            reason: format!(
                "winnable{}, but the planner wins only {:.0} % of its games{unexplored}",
                winner
                    .filter(|_| exact.is_none())
                    .map_or(String::new(), |w| format!(" (the {} agent won)", w.name())),
                planner * 100.0
            ),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::room::{to_level, DungeonGame};
    use studio_core::game::Game;
    use studio_core::level::Level;

    /// Issue 35: a skeleton past its budget leaves the agents' figures and a verdict from
    /// them, with the graph marked too large.
    #[test]
    fn a_room_past_the_budget_is_judged_by_its_agents() {
        let options = |budget| AnalyseOptions {
            budget: Some(budget),
            games: Some(5),
            ..AnalyseOptions::default()
        };
        // A corridor with a slow monster to strike: far more than five positions.
        let room = Room::parse_ascii("wwwwwwww\nwA.3+.gw\nwwwwwwww\n").unwrap();
        let exact = analyse_room(&room, &options(1000), &Cancel::default()).unwrap();
        assert_eq!(exact.fields["graph"], "exact");
        assert!(exact.graph.is_some() && exact.graph_note.is_none());
        let a = analyse_room(&room, &options(5), &Cancel::default()).unwrap();
        assert!(a.graph.is_none());
        let note = "graph too large (6+ states, budget 5)";
        assert_eq!(a.graph_note.as_deref(), Some(note));
        assert_eq!(a.fields["graph"], "too large");
        assert_eq!(a.fields["graph_budget"], 5);
        assert!(a.fields["solvable"].is_null() && a.fields["states"].is_null());
        assert_eq!(a.fields["agent_won"], true);
        assert_eq!(a.verdict.label, exact.verdict.label);
        assert_eq!(a.fields["verdict"]["label"], a.verdict.label.as_str());
        assert!(a.verdict.reason.contains(note), "{}", a.verdict.reason);
        assert_eq!(a.fields["agents"], exact.fields["agents"], "the same games");
        assert!(a.gauge.notes[0].contains(note));
        assert!(a.summary.starts_with(note), "{}", a.summary);
        assert!(a.difficulty.is_some());
        let Some(f) = a
            .figures
            .as_ref()
            .and_then(Figures::get::<super::DungeonFigures>)
        else {
            panic!("no dungeon figures")
        };
        assert_eq!(f.graph_budget, Some(5));

        // The key walled off by water: no agent wins, and that proves nothing.
        let cut = Room::parse_ascii("wwwwwwwww\nwA.3.~+gw\nwwwwwwwww\n").unwrap();
        let a = analyse_room(&cut, &options(2), &Cancel::default()).unwrap();
        assert_eq!(a.fields["agent_won"], false);
        assert_eq!(
            (a.verdict.label.as_str(), a.verdict.weak),
            ("UNKNOWN", true)
        );
        assert!(
            a.verdict.reason.contains("does not prove"),
            "{}",
            a.verdict.reason
        );
        assert_eq!(a.gauge.headline, "Unknown");
        assert!(a.difficulty.is_none());
        let level = to_level(&cut, "cut");
        let level = Level {
            figures: a.figures.clone(),
            ..level
        };
        assert!(DungeonGame.stored_weak(&level), "unknown, not unsolvable");
        let exact = analyse_room(&cut, &options(1000), &Cancel::default()).unwrap();
        assert_eq!(exact.verdict.label, "UNSOLVABLE");
    }

    #[test]
    fn a_monster_in_the_only_way_is_struck_by_turning_to_face_it() {
        // The normal monster at (2, 6) stands in the one-cell way to the exit. Under the old
        // turn-and-move rules the avatar could not face it without walking into it; a new
        // direction only turns the avatar now, so the frozen skeleton strikes it and wins.
        let room = Room::parse_ascii(
            "wwwwwwwwwwwww\nw.....ww+..3w\nw.wwww......w\nw.....~....ww\nw~3w.......ww\n\
             w..w........w\nwg2w........w\nw~~~...A..~~w\nwwwwwwwwwwwww\n",
        )
        .unwrap();
        let a = analyse_room(&room, &AnalyseOptions::default(), &Cancel::default()).unwrap();
        assert_eq!(a.fields["solvable"], true, "{}", a.verdict.reason);
        assert_ne!(a.verdict.label, "UNSOLVABLE");
        assert!(a.difficulty.is_some());
        // The pattern GA's breakdown rides along.
        assert_eq!(
            a.fields["fitness"]["constraints"]
                .as_object()
                .unwrap()
                .len(),
            7
        );
        assert!(a
            .gauge
            .tables
            .iter()
            .any(|(t, _)| t.starts_with("Pattern GA")));
    }
}
