//! The room's rules as a forward model ([`studio_core::search::ForwardModel`]) for the agents
//! that search: a simulation is a copy of the game with its own monster dice, seeded from the
//! agent's generator, valued as the agent values a game.

use super::room::Room;
use super::rules::{Action, Outcome, Play, TICK_LIMIT};
use studio_core::rng::Rng;
use studio_core::search::ForwardModel;

/// A room's rules, a game valued by `value`.
pub struct RoomModel<'a, V> {
    room: &'a Room,
    value: V,
}

impl<'a, V: Fn(&Play) -> f64> RoomModel<'a, V> {
    /// The rules of `room`, a game valued by `value`.
    pub fn new(room: &'a Room, value: V) -> Self {
        RoomModel { room, value }
    }
}

/// A game a search advances, with the monster dice it rolls.
pub struct Simulation {
    play: Play,
    dice: Rng,
}

impl<V: Fn(&Play) -> f64> ForwardModel for RoomModel<'_, V> {
    type State = Play;
    type Simulation = Simulation;
    type Action = Action;
    type Rng = Rng;

    fn simulate(&self, play: &Play, rng: &mut Rng) -> Simulation {
        Simulation {
            play: play.clone(),
            dice: Rng::new(rng.next_u64()),
        }
    }

    fn simulate_into(&self, simulation: &mut Simulation, play: &Play, rng: &mut Rng) {
        simulation.play.copy_from(play);
        simulation.dice = Rng::new(rng.next_u64());
    }

    fn advance(&self, simulation: &mut Simulation, action: Action) {
        simulation
            .play
            .tick(self.room, action, &mut simulation.dice, TICK_LIMIT);
    }

    fn is_over(&self, simulation: &Simulation) -> bool {
        simulation.play.outcome != Outcome::Playing
    }

    fn value(&self, simulation: &Simulation) -> f64 {
        (self.value)(&simulation.play)
    }
}
