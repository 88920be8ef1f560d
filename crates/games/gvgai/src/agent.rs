//! The [`Agent`] trait: what every agent that plays a VGDL game implements, the simple
//! controllers of `agents` and the planners of `planners` alike.

use vgdl::{Action, State};

/// An agent: picks the avatar's action each tick.
pub trait Agent {
    /// The action for this tick.
    fn act(&mut self, state: &State) -> Action;
}
