//! The pack room: the open packs as tabs, thumbnails of their levels, and the difficulty
//! curve. Curation itself (sorting, difficulty, verdicts) is [`studio_core::document::pack_doc`].

pub mod pack_strip;
pub mod thumbnail;
