//! The course generators as [`Sequential`](studio_ml::rl::Sequential) generators, so
//! randomized initialization, DAGP and virtual simulation (`studio_ml::rl`) apply to them: an
//! actor (DDPG, VS-DDPG, the supervised baseline) decides a whole column per step
//! ([`ActorRl`], in `ddpg`), the DQN one parameter per step ([`QRl`], in `dqn`), both over a
//! course being filled ([`Filling`], in `network`). Re-exported here under one name.

pub use super::ddpg::ActorRl;
pub use super::dqn::{parameters, QRl};
pub use super::network::Filling;
