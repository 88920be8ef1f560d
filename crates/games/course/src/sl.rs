//! The supervised baseline (rl-quality-diversity §5.2, "SL"): an actor-shaped network trained
//! by regression on random courses evaluated above [`SlConfig::threshold`] (for each course and
//! each column after the first, the course so far → that column), and for DAGP an evaluator
//! shaped like DDPG's critic, trained on random courses regardless of their evaluation (a
//! course so far and its next column → the finished course's evaluation).

use super::ddpg::{Actor, Critic, Trained, CRITIC_PREFIX};
use super::generators::random_course;
use super::matrix::Structure;
use super::model::greedy_mean;
use super::network::{features, input_len, value_of, DdpgProgress};
use super::rules::evaluate;
use candle_core::{DType, Tensor};
use candle_nn::{Optimizer, VarBuilder, VarMap};
use std::time::Instant;
use studio_core::rng::Rng;

/// Training settings.
#[derive(Clone, Debug)]
pub struct SlConfig {
    /// The course structure.
    pub structure: Structure,
    /// Good courses the actor learns from.
    pub good: usize,
    /// A random course is good above this evaluation (the thesis's 0.7).
    pub threshold: f64,
    /// Random courses the evaluator learns from (the thesis's 10,000).
    pub evaluator_courses: usize,
    /// Passes over the data.
    pub epochs: usize,
    /// Batch size.
    pub batch: usize,
    /// AdamW learning rate.
    pub learning_rate: f64,
    /// Seed.
    pub seed: u64,
}

impl SlConfig {
    /// The thesis's data sizes; epochs scaled to two CPU cores.
    pub fn new(structure: Structure, seed: u64) -> Self {
        Self {
            structure,
            good: 2_000,
            threshold: 0.7,
            evaluator_courses: 10_000,
            epochs: 60,
            batch: 256,
            learning_rate: 1e-3,
            seed,
        }
    }
}

/// Regression pairs: per course and column k ≥ 1, (the course with columns < k, one-hot k) →
/// column k, and the finished course's evaluation.
struct Pairs {
    inputs: Vec<f32>,
    columns: Vec<f32>,
    values: Vec<f32>,
    n: usize,
}

fn pairs(courses: &[Vec<[f64; 3]>], structure: Structure) -> Pairs {
    let mut p = Pairs {
        inputs: Vec::new(),
        columns: Vec::new(),
        values: Vec::new(),
        n: 0,
    };
    for c in courses {
        let value = value_of(c) as f32;
        for k in 1..structure.columns() {
            let mut partial = c.clone();
            for col in partial.iter_mut().skip(k) {
                *col = [0.0; 3];
            }
            features(&partial, k, &mut p.inputs);
            p.columns.extend(c[k].map(|v| v as f32));
            p.values.push(value);
            p.n += 1;
        }
    }
    p
}

/// Trains the supervised actor and its evaluator; `report` hears progress every 5 epochs (the
/// actor's greedy mean evaluation over 50 courses) and may stop the run.
///
/// # Errors
/// A candle error.
pub fn train(
    config: &SlConfig,
    report: &mut dyn FnMut(&DdpgProgress) -> bool,
) -> candle_core::Result<Trained> {
    let started = Instant::now();
    let device = studio_ml::device();
    let s = config.structure;
    let mut rng = Rng::derive(config.seed, 0x51);
    let mut good = Vec::with_capacity(config.good);
    let mut tried = 0usize;
    while good.len() < config.good {
        let course = random_course(s, &mut rng);
        tried += 1;
        if evaluate(&course).value > config.threshold {
            good.push(course.columns().to_vec());
        }
        if tried > 10_000 * config.good.max(1) {
            return Err(candle_core::Error::Msg(format!(
                "only {} of {tried} random courses evaluate above {}",
                good.len(),
                config.threshold
            )));
        }
    }
    let any: Vec<Vec<[f64; 3]>> = (0..config.evaluator_courses)
        .map(|_| random_course(s, &mut rng).columns().to_vec())
        .collect();
    let actor_map = VarMap::new();
    let critic_map = VarMap::new();
    let actor = Actor::new(s, VarBuilder::from_varmap(&actor_map, DType::F32, &device))?;
    let critic = Critic::new(
        s,
        VarBuilder::from_varmap(&critic_map, DType::F32, &device).pp(CRITIC_PREFIX),
    )?;
    let init = |m: &VarMap, seed: u64| {
        studio_ml::seeded_init(m, seed).map_err(|e| candle_core::Error::Msg(e.to_string()))
    };
    init(&actor_map, config.seed)?;
    init(&critic_map, config.seed ^ 0xc1)?;
    let mut actor_opt = studio_ml::adam(actor_map.all_vars(), config.learning_rate)?;
    let mut critic_opt = studio_ml::adam(critic_map.all_vars(), config.learning_rate)?;
    let good_pairs = pairs(&good, s);
    let any_pairs = pairs(&any, s);
    let n_in = input_len(s);
    let gather = |p: &Pairs, idx: &[usize]| -> candle_core::Result<(Tensor, Tensor, Tensor)> {
        let b = idx.len();
        let x: Vec<f32> = idx
            .iter()
            .flat_map(|&i| p.inputs[i * n_in..(i + 1) * n_in].iter().copied())
            .collect();
        let y: Vec<f32> = idx
            .iter()
            .flat_map(|&i| p.columns[i * 3..i * 3 + 3].iter().copied())
            .collect();
        let v: Vec<f32> = idx.iter().map(|&i| p.values[i]).collect();
        Ok((
            Tensor::from_vec(x, (b, n_in), &device)?,
            Tensor::from_vec(y, (b, 3), &device)?,
            Tensor::from_vec(v, b, &device)?,
        ))
    };
    let mut curve = Vec::new();
    for epoch in 0..config.epochs {
        let mut order: Vec<usize> = (0..good_pairs.n).collect();
        rng.shuffle(&mut order);
        for idx in order.chunks(config.batch) {
            let (x, y, _) = gather(&good_pairs, idx)?;
            let loss = (actor.forward(&x)? - y)?.sqr()?.mean_all()?;
            actor_opt.backward_step(&loss)?;
        }
        let mut order: Vec<usize> = (0..any_pairs.n).collect();
        rng.shuffle(&mut order);
        for idx in order.chunks(config.batch) {
            let (x, a, v) = gather(&any_pairs, idx)?;
            let loss = (critic.forward(&x, &a)? - v)?.sqr()?.mean_all()?;
            critic_opt.backward_step(&loss)?;
        }
        if (epoch + 1) % 5 == 0 || epoch + 1 == config.epochs {
            let mean = greedy_mean(&actor, s, 50, 1, config.seed)?;
            curve.push(mean);
            let p = DdpgProgress {
                episode: epoch + 1,
                episodes: config.epochs,
                mean_evaluation: mean,
                seconds: started.elapsed().as_secs_f64(),
            };
            if !report(&p) {
                break;
            }
        }
    }
    Ok(Trained {
        varmap: actor_map,
        critic_varmap: critic_map,
        actor,
        critic,
        curve,
        seconds: started.elapsed().as_secs_f64(),
    })
}
