//! A learned Longcat generator: solution-down DQN (SD-PCGRL) trained on this machine, with a
//! temperature and the diversity-aware greedy policy for generation.
//!
//! - [`env::SolutionDownEnv`]: the solution-down process as a step function (reward = change
//!   in the difficulty of the level as if finished now).
//! - [`qnet::QNet`]: the convolutional Q-network; [`train::train`]: DQN with replay, target
//!   network and ε-greedy decay; [`model::DqnModel`]: weights + sidecar on disk.
//! - [`policy::generate`]: levels from a trained model; [`eval`]: the thesis's evaluation.

pub mod env;
pub mod eval;
pub mod model;
pub mod policy;
pub mod qnet;
pub mod sequential;
pub mod train;

pub use model::{DqnError, DqnModel};
pub use policy::Policy;
