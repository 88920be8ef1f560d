//! What every game's "Evolve (α)" / "Evolve (β)" generator shares: the population and
//! generations conditions, the settings read from a request, the live charts, and the run
//! itself (progress per generation, Stop keeps the best so far, the distinct feasible levels
//! offered best first).

use super::pattern::Fitness;
use super::{evolve_reporting, Evolvable, GenerationStats, Run, Settings};
use crate::game::{
    Chart, ConditionKind, ConditionSpec, ConditionValue, GenRequest, GenerationContext,
    LevelGenerator, LevelSink,
};
use crate::grid::Grid;
use crate::jobs::JobError;
use crate::level::Level;

/// What a game gives to get "Evolve (α)" and "Evolve (β)": its conditions, the GA for a
/// request, and how cells become a studio level.
pub trait Breeder: Send + Sync {
    /// The game's GA.
    type Ga: Evolvable;
    /// The sidebar's line on "Evolve (α)" and on "Evolve (β)".
    fn descriptions(&self) -> [&'static str; 2];
    /// The game's own conditions (size, …); population and generations follow them.
    fn conditions(&self) -> Vec<ConditionSpec>;
    /// What "validated only" keeps, in words.
    fn validated_help(&self) -> &'static str;
    /// The GA for `request` under `fitness`.
    ///
    /// # Errors
    /// [`ConditionError`](crate::game::ConditionError): a condition the game refuses, in
    /// words (a bad request).
    fn ga(
        &self,
        request: &GenRequest,
        fitness: Fitness,
    ) -> Result<Self::Ga, crate::game::ConditionError>;
    /// A studio level of `cells` named `name` (`None` skips it).
    fn to_level(
        &self,
        request: &GenRequest,
        cells: Grid<<Self::Ga as Evolvable>::Cell>,
        name: String,
    ) -> Option<Level>;
}

/// "Evolve (α)" or "Evolve (β)" of a game: the FI2Pop GA as a generator. It runs the whole
/// search (Stop ends it early), then offers the distinct feasible levels it met, best first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fi2PopGenerator<B> {
    /// α or β.
    pub fitness: Fitness,
    /// The game's part.
    pub breeder: B,
}

impl<B: Breeder> Fi2PopGenerator<B> {
    /// The generator of `breeder`'s game under `fitness`.
    pub fn new(fitness: Fitness, breeder: B) -> Self {
        Self { fitness, breeder }
    }
}

impl<B: Breeder> LevelGenerator for Fi2PopGenerator<B> {
    fn id(&self) -> &'static str {
        match self.fitness {
            Fitness::Alpha => "fi2pop-alpha",
            Fitness::Beta => "fi2pop-beta",
        }
    }

    fn aliases(&self) -> &'static [&'static str] {
        match self.fitness {
            Fitness::Alpha => &["fi2pop"],
            Fitness::Beta => &[],
        }
    }

    fn label(&self) -> &'static str {
        match self.fitness {
            Fitness::Alpha => "Evolve (α)",
            Fitness::Beta => "Evolve (β)",
        }
    }

    fn description(&self) -> &'static str {
        let [alpha, beta] = self.breeder.descriptions();
        match self.fitness {
            Fitness::Alpha => alpha,
            Fitness::Beta => beta,
        }
    }

    fn conditions(&self) -> Vec<ConditionSpec> {
        let mut specs = self.breeder.conditions();
        specs.extend(conditions());
        specs
    }

    fn validated_help(&self) -> &'static str {
        self.breeder.validated_help()
    }

    fn stops_early(&self) -> bool {
        true
    }

    fn generate(
        &self,
        request: &GenRequest,
        ctx: &GenerationContext<'_>,
        sink: &mut dyn LevelSink,
    ) -> Result<(), JobError> {
        let ga = self
            .breeder
            .ga(request, self.fitness)
            .map_err(JobError::failed)?;
        search(
            &ga,
            &settings(request),
            self.label(),
            ctx,
            sink,
            &|cells, name| self.breeder.to_level(request, cells, name),
        )
    }
}

/// The fewest levels per generation a generator takes.
pub const MIN_POPULATION: i64 = 4;
/// The most levels per generation a generator takes.
pub const MAX_POPULATION: i64 = 200;
/// The fewest generations a generator takes (0: the initial population alone).
pub const MIN_GENERATIONS: i64 = 0;
/// The most generations a generator takes.
pub const MAX_GENERATIONS: i64 = 500;

/// The population and generations conditions (defaults: the paper's 50, and 20).
pub fn conditions() -> Vec<ConditionSpec> {
    let int = |key, label, min, max, default, help| ConditionSpec {
        key,
        label,
        kind: ConditionKind::Int { min, max },
        default: ConditionValue::Int(default),
        required: false,
        help,
    };
    vec![
        int(
            "population",
            "Population",
            MIN_POPULATION,
            MAX_POPULATION,
            50,
            "levels per generation, feasible and infeasible together",
        ),
        int(
            "generations",
            "Generations",
            MIN_GENERATIONS,
            MAX_GENERATIONS,
            20,
            "generations after the initial one",
        ),
    ]
}

/// The GA's settings for a request: its population, generations and seed, the rest the
/// paper's.
pub fn settings(request: &GenRequest) -> Settings {
    let int = |key: &str, default: i64| match request.conditions.get(key) {
        Some(ConditionValue::Int(v)) => v,
        _ => default,
    };
    Settings {
        population: int("population", 50).max(2) as usize,
        generations: int("generations", 20).max(0) as usize,
        seed: request.seed,
        ..Settings::default()
    }
}

/// Runs the GA for a generator: reports each generation (progress and charts), then offers
/// the distinct feasible levels, best first, each tagged with its fitness. A Stop ends the
/// search after the generation being judged and still offers what it found.
///
/// `to_level` turns a level's cells into a studio level named `name` (`None` skips it).
///
/// # Errors
/// [`JobError::Cancelled`] when cancelled.
pub fn search<G: Evolvable>(
    ga: &G,
    settings: &Settings,
    label: &str,
    ctx: &GenerationContext<'_>,
    sink: &mut dyn LevelSink,
    to_level: &dyn Fn(Grid<G::Cell>, String) -> Option<Level>,
) -> Result<(), JobError> {
    let mut history: Vec<GenerationStats> = Vec::new();
    let total = settings.generations + 1;
    // Both reports go to the one sink: per generation, and within one as its levels are
    // judged (the first generation of a slow judge takes a minute: W4).
    let shared = std::cell::RefCell::new(&mut *sink);
    let judging = std::cell::Cell::new(0_usize);
    let run = evolve_reporting(
        ga,
        settings,
        ctx.cancel,
        &mut |g| {
            history.push(*g);
            judging.set(g.generation + 1);
            let mut sink = shared.borrow_mut();
            sink.progress(
                (g.generation + 1) as f32 / total as f32,
                format!(
                    "generation {} of {}: {} feasible, best {}",
                    g.generation,
                    settings.generations,
                    g.feasible,
                    g.best_feasible
                        .map_or("none yet".into(), |b| format!("{b:.3}"))
                ),
            );
            sink.charts(&charts(&history));
        },
        &mut |done, of| {
            let generation = judging.get();
            if generation < total && done < of {
                shared.borrow_mut().progress(
                    (generation as f32 + done as f32 / of.max(1) as f32) / total as f32,
                    format!(
                        "generation {generation} of {}: judged {done} of {of} new levels",
                        settings.generations
                    ),
                );
            }
        },
    );
    if run.cancelled {
        return Err(JobError::Cancelled);
    }
    if run.stopped {
        let done = run.history.last().map_or(0, |g| g.generation);
        sink.progress(
            1.0,
            format!(
                "stopped after generation {done}: keeping the {} feasible levels found",
                run.feasible.len()
            ),
        );
    }
    sink.explain(explanation(&run));
    for (i, individual) in run.feasible.into_iter().enumerate() {
        let fitness = individual.evaluation.fitness();
        let name = format!("{label} {}", i + 1);
        let Some(mut level) = to_level(individual.cells, name) else {
            continue;
        };
        level.tags.push(format!("fitness {fitness:.3}"));
        if !sink.offer(level) {
            return Ok(());
        }
    }
    Ok(())
}

/// What a run looked at, in words: the generations and levels judged, and when too few were
/// feasible, the constraint the nearest infeasible level failed and how far it got (W12).
pub fn explanation<C>(run: &Run<C>) -> String {
    let (generations, judged) = run
        .history
        .last()
        .map_or((0, 0), |g| (g.generation + 1, g.evaluations));
    let mut out = format!(
        "{generations} generation{} judged, {judged} level{}, {} feasible",
        if generations == 1 { "" } else { "s" },
        if judged == 1 { "" } else { "s" },
        run.feasible.len()
    );
    let unmet = run.infeasible.first().and_then(|nearest| {
        nearest
            .evaluation
            .constraints
            .iter()
            .filter(|c| c.value < 1.0)
            .min_by(|a, b| a.value.total_cmp(&b.value))
    });
    if let Some(c) = unmet {
        // How many of the last infeasible population failed the same constraint.
        let same = run
            .infeasible
            .iter()
            .filter(|i| {
                i.evaluation
                    .constraints
                    .iter()
                    .any(|k| k.name == c.name && k.value < 1.0)
            })
            .count();
        out.push_str(&format!(
            "; {same} of the last {} infeasible fail \"{}\" (the nearest: {})",
            run.infeasible.len(),
            c.name,
            c.text
        ));
    }
    out
}

/// The run's live charts: the best fitness per generation, and the two populations' sizes.
pub fn charts(history: &[GenerationStats]) -> Vec<Chart> {
    let line = |name: &str, f: &dyn Fn(&GenerationStats) -> Option<f64>| {
        (
            name.to_string(),
            history
                .iter()
                .filter_map(|g| f(g).map(|y| [g.generation as f64, y]))
                .collect::<Vec<[f64; 2]>>(),
        )
    };
    vec![
        Chart {
            title: "Best fitness".into(),
            x: "generation".into(),
            series: vec![
                line("best feasible", &|g| g.best_feasible),
                line("best infeasible (constraints)", &|g| {
                    (g.infeasible > 0).then_some(g.best_constraint)
                }),
            ],
        },
        Chart {
            title: "Population".into(),
            x: "generation".into(),
            series: vec![
                line("feasible", &|g| Some(g.feasible as f64)),
                line("infeasible", &|g| Some(g.infeasible as f64)),
            ],
        },
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evolve::{Constraint, Evaluation, Individual};

    fn infeasible(win: f64) -> Individual<u8> {
        Individual {
            cells: Grid::filled(2, 2, 0_u8),
            evaluation: Evaluation {
                constraints: vec![
                    Constraint {
                        name: "do-nothing survives",
                        value: 1.0,
                        text: "survives 200 ticks".into(),
                    },
                    Constraint {
                        name: "strong agent wins",
                        value: win,
                        text: format!("wins {:.0} %", win * 100.0),
                    },
                ],
                terms: Vec::new(),
            },
        }
    }

    /// Issue 69, W12: a GA that found nothing says how much it judged and which constraint
    /// the nearest levels failed, never "after 0 attempts".
    #[test]
    fn a_search_that_finds_nothing_says_what_it_judged_and_why() {
        let stats = |generation, evaluations| GenerationStats {
            generation,
            best_feasible: None,
            best_constraint: 0.75,
            feasible: 0,
            infeasible: 10,
            evaluations,
        };
        let run = Run {
            feasible: Vec::new(),
            infeasible: vec![infeasible(0.5), infeasible(0.2)],
            history: vec![stats(0, 10), stats(1, 18), stats(2, 30)],
            cancelled: false,
            stopped: false,
        };
        let why = explanation(&run);
        assert!(
            why.starts_with("3 generations judged, 30 levels, 0 feasible"),
            "{why}"
        );
        assert!(
            why.contains("2 of the last 2 infeasible fail \"strong agent wins\""),
            "{why}"
        );
        assert!(why.contains("wins 50 %"), "{why}");
    }
}
