//! Hand-made levels shared by the engine and agent tests.

use crate::engine::LevelMap;
use std::sync::Arc;

/// A map from rows of letters; panics on a bad level (tests only).
pub fn map(rows: &[&str]) -> Arc<LevelMap> {
    Arc::new(LevelMap::from_ascii(&rows.join("\n")).expect("test level parses"))
}

/// Flat ground, `width` columns, 14 rows, nothing else.
pub fn flat(width: usize) -> Arc<LevelMap> {
    let mut rows = vec!["-".repeat(width); 12];
    rows.push("X".repeat(width));
    rows.push("X".repeat(width));
    let refs: Vec<&str> = rows.iter().map(String::as_str).collect();
    map(&refs)
}

/// 30 columns of ground with a 3-wide hole at columns 10–12.
pub fn hole3() -> Arc<LevelMap> {
    let ground = format!("{}---{}", "X".repeat(10), "X".repeat(17));
    let mut rows = vec!["-".repeat(30); 12];
    rows.push(ground.clone());
    rows.push(ground);
    let refs: Vec<&str> = rows.iter().map(String::as_str).collect();
    map(&refs)
}

/// 60 columns with three gaps, three pipes, goombas, a koopa, blocks, coins and a stair.
pub const SIXTY: [&str; 14] = [
    "------------------------------------------------------------",
    "------------------------------------------------------------",
    "------------------------------------------------------------",
    "------------------------------------------------------------",
    "------------------------------------------------------------",
    "------------------------------------------------------------",
    "------------------------------------------------------------",
    "------------------------------oo----------------------------",
    "------------------S!S@S--------------------------------#----",
    "------------------------<>----------------------------##----",
    "--------<>--------------[]--------------<>-----------###----",
    "--------[]----------g---[]---g-------k--[]--g-------####----",
    "XXXXXXXXXXXXXX---XXXXXXXXXXXXXXXX--XXXXXXXXXXXX---XXXXXXXXXX",
    "XXXXXXXXXXXXXX---XXXXXXXXXXXXXXXX--XXXXXXXXXXXX---XXXXXXXXXX",
];

/// The 60-column level as a map.
pub fn sixty() -> Arc<LevelMap> {
    map(&SIXTY)
}

/// The VGLC's 1-1, when the shared data set is present.
pub fn vglc_1_1() -> Option<Arc<LevelMap>> {
    let text = crate::formats::vglc_level_text("1-1")?;
    Some(Arc::new(
        crate::formats::read_vglc(&text)
            .map(|l| LevelMap::from_level(&l))
            .expect("1-1 parses"),
    ))
}

/// 41 columns with two gaps, a pipe, goombas, a koopa and a block row.
pub const FORTY_ONE: [&str; 14] = [
    "-----------------------------------------",
    "-----------------------------------------",
    "-----------------------------------------",
    "-----------------------------------------",
    "-----------------------------------------",
    "-----------------------------------------",
    "-----------------------------------------",
    "-----------------------------------------",
    "-------------S!S-------------------------",
    "-----------------------------------------",
    "--------------------<>-------------------",
    "---------g-----g----[]---g-k-------g-----",
    "XXXXXXXXXXXXXXXXX---XXXXXXXXXXX---XXXXXXX",
    "XXXXXXXXXXXXXXXXX---XXXXXXXXXXX---XXXXXXX",
];

/// The 41-column level as a map.
pub fn forty_one() -> Arc<LevelMap> {
    map(&FORTY_ONE)
}

/// A VGLC Super Mario Bros level by name (e.g. "1-1"), when the shared data set is present.
pub fn vglc(name: &str) -> Option<Arc<LevelMap>> {
    let text = crate::formats::vglc_level_text(name)?;
    Some(Arc::new(
        crate::formats::read_vglc(&text)
            .map(|l| LevelMap::from_level(&l))
            .expect("VGLC level parses"),
    ))
}
