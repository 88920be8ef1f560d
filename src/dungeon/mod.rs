//! Dungeon rooms (SPEC §2.3): a Zelda-like room with an avatar, a key, a locked exit and
//! monsters, played by GVGAI's Zelda rules. This folder holds the room and its rules; the
//! skeleton graph, the agents, the importers, the generators and the registry line follow
//! (issue 14), and until then the game is not registered.

pub mod agents;
pub mod import;
pub mod room;
pub mod rules;
pub mod skeleton;

pub use room::{Cell, Room, RoomError, Speed};
pub use rules::{Action, Dir, Monster, Outcome, Play, TickEvents, TICK_LIMIT};
