//! The human-like test player of rl-quality-diversity §6.5 ([`HumanLikeAgent`]), one seeded
//! game with it ([`trial`]) and ten of them on one level ([`evaluate`], [`HumanStats`]).
//!
//! Each choice the thesis leaves open, its calibration on Table 6.2 and the sets tried are in
//! docs/mario.md ("Agents", "Table 6.2"); the choices are the fields of [`HumanParams`], and
//! `cargo bench -p mario --bench mario_human_sweep` scores other sets against Table 6.2.

use super::{play_world, AStarAgent, Agent, DamageEvent};
use crate::engine::{Action, Cause, LevelMap, Status, World, DEFAULT_TIME_TICKS, TILE};
use std::sync::Arc;
use studio_core::rng::Rng;

/// Columns per pattern, the unit the slip and long-press limits count in.
pub const PATTERN_COLUMNS: usize = 4;
/// Probability of a virtual slip at a change of A*'s action (the thesis's 30 %).
pub const SLIP_CHANCE: f64 = 0.3;
/// Virtual slips per pattern at most (the thesis's one).
pub const MAX_SLIPS_PER_PATTERN: u8 = 1;
/// Probability of a long press at a change of action (the thesis's 30 %).
pub const LONG_PRESS_CHANCE: f64 = 0.3;
/// Long presses per pattern at most (the thesis's two).
pub const MAX_LONG_PRESSES_PER_PATTERN: u8 = 2;
/// Ticks simulated after a slip (slipped inputs included) to see whether it is fatal.
pub const SLIP_WINDOW: u32 = 30;
/// With a recovery A* ([`HumanParams::recovery_budget`] above 0): ticks after the slipped
/// inputs that the intended plan is still followed (a human's reaction time, about 90 ms at
/// 30 ms a tick) before the recovery A* takes over.
pub const REACTION_TICKS: u32 = 3;
/// Nodes per search of a recovery A* that plays on after a slip: none (the plan A* made
/// before the slip is followed through the window; see the module doc).
pub const RECOVERY_BUDGET: usize = 0;
/// Slips are drawn only at ticks where A*'s action changes.
pub const DRAW_SLIPS_EVERY_TICK: bool = false;
/// The thesis's largest extra jump reward (Mario at the top of the screen).
pub const THESIS_MAX_JUMP_REWARD: f32 = 0.1;
/// A* cost in ticks that one unit of the thesis's jump reward is worth at the top row.
pub const JUMP_REWARD_PER_THESIS_UNIT: f32 = 35.0;
/// Rows of the levels the thesis plays (the height its 0..0.1 reward spans).
pub const THESIS_ROWS: f32 = 14.0;
/// The jump reward handed to [`AStarAgent::with_path_jump_reward`], in ticks of A* cost per
/// tile of height per node.
pub const HUMAN_JUMP_REWARD: f32 =
    THESIS_MAX_JUMP_REWARD * JUMP_REWARD_PER_THESIS_UNIT / THESIS_ROWS;
/// Ticks between the base A*'s searches (the plain A* searches every 4; the thesis's agent,
/// on the framework, at every frame — every 2 matches Table 6.2 best, see the module doc).
pub const REPLAN_EVERY: u32 = 2;
/// Ticks without a new furthest x after which the agent searches deeper.
pub const STUCK_TICKS: u32 = 24;
/// Pixels past the stuck spot after which normal searches resume.
pub const UNSTUCK_PIXELS: f32 = 32.0;
/// Budget multiplier of the deeper searches.
pub const DEEP_BUDGET_FACTOR: usize = 4;

/// The human-like agent's knobs, the places where the thesis leaves a choice open (issue 44,
/// item 3). [`HumanParams::default`] is the agent the studio plays everywhere (the constants
/// above); other sets are for calibrating against Table 6.2
/// (`cargo bench -p mario --bench mario_human_sweep`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HumanParams {
    /// The path jump reward handed to A*, in ticks per tile of height per node.
    pub jump_reward: f32,
    /// Probability of a virtual slip at a tick where it is drawn.
    pub slip_chance: f64,
    /// Virtual slips per pattern at most.
    pub max_slips_per_pattern: u8,
    /// Probability of a long press at a change of action.
    pub long_press_chance: f64,
    /// Long presses per pattern at most.
    pub max_long_presses_per_pattern: u8,
    /// Long presses at every change of action (true) or only where A* releases a button.
    pub long_press_any_change: bool,
    /// Ticks simulated after a slip to see whether it is fatal.
    pub slip_window: u32,
    /// Ticks the intended plan is still followed after the slipped inputs.
    pub reaction_ticks: u32,
    /// Nodes per search of the recovery A*; 0 for none (the intended plan is followed to
    /// the window's end, then no button).
    pub recovery_budget: usize,
    /// Slips drawn at every tick (true; where nothing changes a slip changes nothing but
    /// uses up the pattern's allowance) or only where A*'s action changes. Long presses are
    /// drawn only where A*'s action changes either way.
    pub draw_every_tick: bool,
    /// Ticks between the base A*'s searches (the plain A*'s 4; the framework's agent
    /// searched at every frame).
    pub replan_every: u32,
}

impl Default for HumanParams {
    fn default() -> Self {
        HumanParams {
            jump_reward: HUMAN_JUMP_REWARD,
            slip_chance: SLIP_CHANCE,
            max_slips_per_pattern: MAX_SLIPS_PER_PATTERN,
            long_press_chance: LONG_PRESS_CHANCE,
            max_long_presses_per_pattern: MAX_LONG_PRESSES_PER_PATTERN,
            long_press_any_change: true,
            slip_window: SLIP_WINDOW,
            reaction_ticks: REACTION_TICKS,
            recovery_budget: RECOVERY_BUDGET,
            draw_every_tick: DRAW_SLIPS_EVERY_TICK,
            replan_every: REPLAN_EVERY,
        }
    }
}

/// Normal A* budget (nodes a search) of the human-like agent.
const BASE_BUDGET: usize = 3000;
/// Normal A* horizon (pixels) of the human-like agent.
const BASE_HORIZON: f32 = 176.0;

/// The time limit trials use: `max(666, 4 × columns)` ticks.
pub fn time_limit(map: &LevelMap) -> u32 {
    DEFAULT_TIME_TICKS.max(4 * map.width() as u32)
}

/// Which way a virtual slip shifted the action.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SlipKind {
    /// The action came two ticks late (the previous one held at t, the new at t+1, t+2).
    Delay,
    /// The action came two ticks early (the new one at t−2 and t−1).
    Haste,
}

/// One simulated slip.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Slip {
    /// Real tick the slipped action was due on (1 for the first tick).
    pub tick: u32,
    /// Mario's column then.
    pub column: usize,
    /// Delay or haste.
    pub kind: SlipKind,
    /// The damage it led to in the check window, if any.
    pub damage: Option<Cause>,
}

/// One real long press.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LongPress {
    /// Real tick of the press (1 for the first tick).
    pub tick: u32,
    /// Mario's column then.
    pub column: usize,
    /// The action held (the previous tick's).
    pub held: Action,
    /// A*'s action, which it replaced (always a different one).
    pub instead: Action,
}

/// Where a slip would have hurt Mario.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct VirtualDamage {
    /// Simulated tick the damage happened on (same clock as the real game).
    pub tick: u32,
    /// Mario's x (centre) in pixels then.
    pub x_px: f32,
    /// Mario's y (feet) in pixels then.
    pub y_px: f32,
    /// Mario's column then.
    pub column: usize,
    /// Enemy or hole.
    pub cause: Cause,
}

/// The human-like agent: A* with a jump reward and deeper searches when stuck, virtual
/// slips and real long presses. Its records grow as it plays.
#[derive(Clone, Debug)]
pub struct HumanLikeAgent {
    params: HumanParams,
    rng: Rng,
    astar: AStarAgent,
    previous: Action,
    /// Worlds seen at t−2 and t−1 (oldest first).
    history: [Option<World>; 2],
    slips_in: Vec<u8>,
    presses_in: Vec<u8>,
    furthest: f32,
    since_progress: u32,
    deep_until: Option<f32>,
    slips: Vec<Slip>,
    long_presses: Vec<LongPress>,
    virtual_damage: Vec<VirtualDamage>,
}

impl HumanLikeAgent {
    /// A human-like agent whose random choices come from `Rng::new(seed)`.
    pub fn new(seed: u64) -> HumanLikeAgent {
        Self::with_params(seed, HumanParams::default())
    }

    /// The same with other knobs (for calibration).
    pub fn with_params(seed: u64, params: HumanParams) -> HumanLikeAgent {
        HumanLikeAgent {
            params,
            rng: Rng::new(seed),
            astar: Self::base_astar(params.jump_reward).with_replan_every(params.replan_every),
            previous: Action::NONE,
            history: [None, None],
            slips_in: Vec::new(),
            presses_in: Vec::new(),
            furthest: f32::MIN,
            since_progress: 0,
            deep_until: None,
            slips: Vec::new(),
            long_presses: Vec::new(),
            virtual_damage: Vec::new(),
        }
    }

    fn base_astar(jump_reward: f32) -> AStarAgent {
        AStarAgent::new()
            .with_path_jump_reward(jump_reward)
            .with_budget(BASE_BUDGET)
            .with_horizon(BASE_HORIZON)
    }

    /// Every virtual slip simulated so far.
    pub fn slips(&self) -> &[Slip] {
        &self.slips
    }

    /// Every long press so far.
    pub fn long_presses(&self) -> &[LongPress] {
        &self.long_presses
    }

    /// Every virtual damage so far.
    pub fn virtual_damage(&self) -> &[VirtualDamage] {
        &self.virtual_damage
    }

    /// True while the agent searches deeper because Mario got stuck.
    pub fn searching_deeper(&self) -> bool {
        self.deep_until.is_some()
    }

    /// Bumps the count of `pattern` in `counts` if it is below `limit`; true if it was.
    fn take(counts: &mut Vec<u8>, pattern: usize, limit: u8) -> bool {
        if counts.len() <= pattern {
            counts.resize(pattern + 1, 0);
        }
        if counts[pattern] >= limit {
            return false;
        }
        counts[pattern] += 1;
        true
    }

    /// Switches to deeper searches when Mario has made no progress for a while, and back.
    fn track_progress(&mut self, x: f32) {
        if x > self.furthest + 1.0 {
            self.furthest = x;
            self.since_progress = 0;
        } else {
            self.since_progress += 1;
        }
        match self.deep_until {
            Some(until) if x >= until => {
                self.deep_until = None;
                let astar = std::mem::take(&mut self.astar);
                self.astar = astar.with_budget(BASE_BUDGET).with_horizon(BASE_HORIZON);
            }
            None if self.since_progress >= STUCK_TICKS => {
                self.deep_until = Some(self.furthest + UNSTUCK_PIXELS);
                let astar = std::mem::take(&mut self.astar);
                self.astar = astar
                    .with_budget(BASE_BUDGET * DEEP_BUDGET_FACTOR)
                    .with_horizon(BASE_HORIZON * 2.0);
                self.astar.replan_next();
            }
            _ => {}
        }
    }

    /// Plays the slipped inputs of `kind` for `action` (due at `world`'s next tick) on a
    /// clone, then the intended plan `rest` at its own ticks (with a recovery budget: for
    /// the reaction ticks, then a short A* recovery); the first damage in the window, if any. `None` when no slip can
    /// be simulated (a haste without two ticks of history).
    fn simulate_slip(
        &self,
        world: &World,
        action: Action,
        kind: SlipKind,
        rest: &[Action],
    ) -> Option<Option<VirtualDamage>> {
        // Delay: previous action at t, `action` at t+1 and t+2, then the plan from t+3.
        // Haste: `action` at t−2 and t−1 (and at t, as planned), then the plan from t+1.
        let (mut sim, mut inputs, skip) = match kind {
            SlipKind::Delay => (world.clone(), vec![self.previous, action, action], 2),
            SlipKind::Haste => (self.history[0].clone()?, vec![action, action, action], 0),
        };
        inputs.extend(
            rest.iter()
                .skip(skip)
                .take(self.params.reaction_ticks as usize),
        );
        for &a in &inputs {
            sim.step(a);
            if let Some(hit) = Self::hit(&sim) {
                return Some(Some(hit));
            }
        }
        let mut recovery = AStarAgent::new()
            .with_path_jump_reward(self.astar.path_jump_reward())
            .with_budget(self.params.recovery_budget.max(1))
            .with_replan_every(self.params.slip_window);
        let mut planned = rest.iter().skip(skip + self.params.reaction_ticks as usize);
        for _ in inputs.len() as u32..self.params.slip_window {
            if !sim.is_running() {
                break;
            }
            let a = if self.params.recovery_budget == 0 {
                planned.next().copied().unwrap_or(Action::NONE)
            } else {
                recovery.act(&sim)
            };
            sim.step(a);
            if let Some(hit) = Self::hit(&sim) {
                return Some(Some(hit));
            }
        }
        Some(None)
    }

    /// The damage `sim`'s last tick did (a drop below the bottom row counts as a hole).
    fn hit(sim: &World) -> Option<VirtualDamage> {
        let m = sim.mario();
        let cause = match sim.events().damage {
            Some(Cause::Time) | None if m.y() > sim.map().pixel_height() => Cause::Hole,
            Some(Cause::Time) | None => return None,
            Some(cause) => cause,
        };
        Some(VirtualDamage {
            tick: sim.tick(),
            x_px: m.x(),
            y_px: m.y(),
            column: (m.x() / TILE).max(0.0) as usize,
            cause,
        })
    }

    /// Draws a slip for the decision to take `action` at `world`, simulates and records it.
    fn maybe_slip(&mut self, world: &World, action: Action, pattern: usize) {
        if !self.rng.chance(self.params.slip_chance) {
            return;
        }
        let mut kind = if self.rng.chance(0.5) {
            SlipKind::Delay
        } else {
            SlipKind::Haste
        };
        if self.history[0].is_none() {
            kind = SlipKind::Delay;
        }
        if !Self::take(
            &mut self.slips_in,
            pattern,
            self.params.max_slips_per_pattern,
        ) {
            return;
        }
        let rest = self.astar.plan().to_vec();
        let Some(damage) = self.simulate_slip(world, action, kind, &rest) else {
            return;
        };
        self.slips.push(Slip {
            tick: world.tick() + 1,
            column: Self::column(world),
            kind,
            damage: damage.map(|d| d.cause),
        });
        self.virtual_damage.extend(damage);
    }

    fn column(world: &World) -> usize {
        (world.mario().x() / TILE).max(0.0) as usize
    }
}

impl Agent for HumanLikeAgent {
    fn act(&mut self, world: &World) -> Action {
        self.track_progress(world.mario().x());
        let planned = self.astar.act(world);
        let mut action = planned;
        let changes = planned != self.previous;
        if (changes || self.params.draw_every_tick) && world.is_running() {
            let column = Self::column(world);
            let pattern = column / PATTERN_COLUMNS;
            self.maybe_slip(world, planned, pattern);
            // A long press holds the previous action where A* changes it: only there does
            // it press longer than planned.
            let releases = changes
                && (self.params.long_press_any_change
                    || self.previous.without(planned) != Action::NONE);
            if releases
                && self.rng.chance(self.params.long_press_chance)
                && Self::take(
                    &mut self.presses_in,
                    pattern,
                    self.params.max_long_presses_per_pattern,
                )
            {
                action = self.previous;
                self.long_presses.push(LongPress {
                    tick: world.tick() + 1,
                    column,
                    held: self.previous,
                    instead: planned,
                });
                self.astar.replan_next();
            }
        }
        self.history.rotate_left(1);
        self.history[1] = Some(world.clone());
        self.previous = action;
        action
    }
}

/// One seeded game of the human-like agent.
#[derive(Clone, Debug, PartialEq)]
pub struct Trial {
    /// The seed the agent was made with.
    pub seed: u64,
    /// Won, lost (and why), or still running at `max_ticks`.
    pub status: Status,
    /// Ticks played.
    pub ticks: u32,
    /// Jumps started (real).
    pub jumps: u32,
    /// Virtual damages by enemies.
    pub enemy_damage: u32,
    /// Virtual damages by holes.
    pub hole_damage: u32,
    /// Long presses (real).
    pub long_presses: u32,
    /// Real damage taken (shrinking included) and the final loss, if any.
    pub damage_events: Vec<DamageEvent>,
    /// Where the virtual damages happened.
    pub virtual_damage: Vec<VirtualDamage>,
    /// Every virtual slip simulated.
    pub slips: Vec<Slip>,
    /// Every long press, and where.
    pub long_press_log: Vec<LongPress>,
}

impl Trial {
    /// Enemy damage plus 1.1 × hole damage (the thesis's weighting).
    pub fn total_damage(&self) -> f64 {
        f64::from(self.enemy_damage) + 1.1 * f64::from(self.hole_damage)
    }
}

/// Plays one game of `map` with `HumanLikeAgent::new(seed)`, small Mario, the time limit of
/// [`time_limit`], for at most `max_ticks` ticks.
pub fn trial(map: &Arc<LevelMap>, seed: u64, max_ticks: u32) -> Trial {
    trial_with(map, seed, max_ticks, HumanParams::default())
}

/// [`trial`] with other knobs.
pub fn trial_with(map: &Arc<LevelMap>, seed: u64, max_ticks: u32, params: HumanParams) -> Trial {
    let world = World::new(Arc::clone(map)).with_time_limit(time_limit(map));
    let mut agent = HumanLikeAgent::with_params(seed, params);
    let outcome = play_world(world, &mut agent, max_ticks);
    let count = |cause| {
        agent
            .virtual_damage
            .iter()
            .filter(|d| d.cause == cause)
            .count() as u32
    };
    Trial {
        seed,
        status: outcome.status,
        ticks: outcome.ticks,
        jumps: outcome.jumps,
        enemy_damage: count(Cause::Enemy),
        hole_damage: count(Cause::Hole),
        long_presses: agent.long_presses.len() as u32,
        damage_events: outcome.damage_events,
        virtual_damage: agent.virtual_damage,
        slips: agent.slips,
        long_press_log: agent.long_presses,
    }
}

/// A mean and a (population) standard deviation.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MeanSd {
    /// The mean.
    pub mean: f64,
    /// The population standard deviation (ddof = 0).
    pub sd: f64,
}

/// Mean and population standard deviation of `values` (zeros when empty).
pub fn mean_sd(values: &[f64]) -> MeanSd {
    if values.is_empty() {
        return MeanSd::default();
    }
    let n = values.len() as f64;
    let mean = values.iter().sum::<f64>() / n;
    let var = values.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / n;
    MeanSd {
        mean,
        sd: var.sqrt(),
    }
}

/// A level's evaluation: a plain A* playability run and the human-like trials.
#[derive(Clone, Debug, PartialEq)]
pub struct HumanStats {
    /// How plain A* (no jump reward, no slips) finished.
    pub astar_status: Status,
    /// Ticks plain A* played.
    pub astar_ticks: u32,
    /// The human-like trials, in order.
    pub trials: Vec<Trial>,
    /// Jumps per trial.
    pub jumps: Vec<f64>,
    /// Virtual enemy damage per trial.
    pub enemy_damage: Vec<f64>,
    /// Virtual hole damage per trial.
    pub hole_damage: Vec<f64>,
    /// Long presses per trial.
    pub long_presses: Vec<f64>,
    /// Enemy + 1.1 × hole damage per trial.
    pub total_damage: Vec<f64>,
}

impl HumanStats {
    /// Mean ± sd of the jumps.
    pub fn jumps_stats(&self) -> MeanSd {
        mean_sd(&self.jumps)
    }

    /// Mean ± sd of the virtual enemy damage.
    pub fn enemy_damage_stats(&self) -> MeanSd {
        mean_sd(&self.enemy_damage)
    }

    /// Mean ± sd of the virtual hole damage.
    pub fn hole_damage_stats(&self) -> MeanSd {
        mean_sd(&self.hole_damage)
    }

    /// Mean ± sd of the long presses.
    pub fn long_presses_stats(&self) -> MeanSd {
        mean_sd(&self.long_presses)
    }

    /// Mean ± sd of enemy + 1.1 × hole damage.
    pub fn total_damage_stats(&self) -> MeanSd {
        mean_sd(&self.total_damage)
    }

    /// Share of trials the human-like agent won.
    pub fn win_rate(&self) -> f64 {
        let won = self
            .trials
            .iter()
            .filter(|t| t.status == Status::Won)
            .count();
        won as f64 / self.trials.len().max(1) as f64
    }
}

/// Ticks a trial of `map` may last: the time limit plus room for power-up pauses.
pub fn max_ticks(map: &LevelMap) -> u32 {
    time_limit(map) + 200
}

/// Evaluates `map`: one plain A* run, then `trials` human-like trials, the i-th seeded with
/// `Rng::derive(seed, i).next_u64()`; all with the time limit of [`time_limit`].
pub fn evaluate(map: &Arc<LevelMap>, seed: u64, trials: u32) -> HumanStats {
    let limit = max_ticks(map);
    let world = World::new(Arc::clone(map)).with_time_limit(time_limit(map));
    let plain = play_world(world, &mut AStarAgent::new(), limit);
    let trials: Vec<Trial> = (0..trials)
        .map(|i| trial(map, Rng::derive(seed, u64::from(i)).next_u64(), limit))
        .collect();
    let per = |f: &dyn Fn(&Trial) -> f64| trials.iter().map(f).collect::<Vec<f64>>();
    HumanStats {
        astar_status: plain.status,
        astar_ticks: plain.ticks,
        jumps: per(&|t| f64::from(t.jumps)),
        enemy_damage: per(&|t| f64::from(t.enemy_damage)),
        hole_damage: per(&|t| f64::from(t.hole_damage)),
        long_presses: per(&|t| f64::from(t.long_presses)),
        total_damage: per(&Trial::total_damage),
        trials,
    }
}
