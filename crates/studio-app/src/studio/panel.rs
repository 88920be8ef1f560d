//! Tool panels as a small trait, the context they see, and the app-level commands they emit
//! (applied in one place by the studio; edits of the board go on to [`Editor::apply`]).

use crate::analysis::LiveAnalysis;
use crate::editor::{EditCommand, Editor};
use crate::pack_doc::PackDoc;
use crate::studio::settings::ToolState;
use std::path::PathBuf;
use studio_core::level::{Game, Level, Playtest};

/// A change to the open packs.
#[derive(Clone, Debug, PartialEq)]
pub enum PackCommand {
    /// Append the level under edit to the active pack.
    AddCurrent,
    /// Remove a level.
    Remove(usize),
    /// Put the level removed last back where it was.
    UndoRemove,
    /// Rename a level.
    Rename(usize, String),
    /// Move a level to another place in the order.
    Move {
        /// Where the level is now.
        from: usize,
        /// Where it goes (counted after taking it out).
        to: usize,
    },
    /// Order levels from easiest to hardest.
    SortByDifficulty,
    /// Load a level into the editor.
    Edit(usize),
    /// Make another open pack the active one.
    Activate(usize),
    /// Rename an open pack.
    RenamePack(usize, String),
    /// Start a new empty pack.
    New,
    /// Close the active pack (guarded when unsaved).
    Close,
}

/// What a pack exports to from the window.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExportFormat {
    /// The pack as JSON.
    Json,
    /// A labelled PNG sheet of the levels.
    Png,
    /// A folder of Tiled maps, one per level.
    Tiled,
    /// A format a game adds (`studio_core::formats::exporters()[i]`: the Mario level text).
    Registered(usize),
}

/// Something a panel, the menu or a shortcut asks the studio to do.
#[derive(Clone, Debug, PartialEq)]
pub enum AppCommand {
    /// Edit the board.
    Edit(EditCommand),
    /// Show the other game.
    SwitchGame(Game),
    /// Replace the board with a fresh one of this size.
    NewLevel {
        /// Columns (clamped to the game's size rules).
        width: usize,
        /// Rows (clamped to the game's size rules).
        height: usize,
    },
    /// Show a state of the level's state graph on the canvas.
    ShowGraphState(usize),
    /// Back from a graph state to the level.
    LeaveGraphState,
    /// Change the packs.
    Pack(PackCommand),
    /// Open a pack or level file (guarded when unsaved work would be replaced).
    Open(PathBuf),
    /// Ask for a file to open.
    OpenDialog,
    /// Save the active pack to its file (or ask for one).
    Save,
    /// Save the active pack (one never saved) to this file and go on quitting: the answer to
    /// the quit dialog's Save.
    SaveAsThenQuit(std::path::PathBuf),
    /// Save the active pack under a new name.
    SaveAs(PathBuf),
    /// Ask where to save the active pack.
    SaveAsDialog,
    /// Export the active pack as JSON.
    ExportJson(PathBuf),
    /// Export the active pack in a game's format (`formats::exporters()[i]`) to this folder.
    ExportAs(ExportFormat, PathBuf),
    /// Ask where to read levels of a game's format (`formats::importers()[i]`).
    ImportDialog(usize),
    /// Read levels of a game's format (`formats::importers()[i]`) from this file or folder
    /// into a new, unsaved pack.
    Import(usize, PathBuf),
    /// Export the active pack as a PNG sheet.
    ExportPng(PathBuf),
    /// Export the active pack as Tiled maps into a folder.
    ExportTiled(PathBuf),
    /// Ask where to export, in this format.
    ExportDialog(ExportFormat),
    /// Restore the autosaved work offered at start.
    Recover,
    /// Drop the autosaved work offered at start.
    DiscardRecovery,
    /// Close the window (guarded when unsaved).
    Quit,
    /// Run the sidebar's generator with its conditions.
    Generate,
    /// Stop the running generation.
    CancelGeneration,
    /// End a running search early, keeping the best it found.
    StopGeneration,
    /// Generate near candidate `i`'s latent point.
    MoreLikeThis(usize),
    /// Load a level (a candidate, an in-between level) into the editor.
    LoadLevel(Level),
    /// Append a level to the active pack.
    AddLevel(Level),
    /// Put a level into the active pack at a place (a candidate dropped onto a card).
    InsertLevel {
        /// The level.
        level: Level,
        /// Its place in the pack (the end when past it).
        at: usize,
    },
    /// Open the playtest window on the level under edit.
    Playtest,
    /// Keep a designer's attempt with the level of these cells.
    RecordPlaytest {
        /// The game of the level played.
        game: Game,
        /// The cells of the level played.
        cells: Vec<String>,
        /// The attempt.
        attempt: Playtest,
    },
    /// Show or hide the latent interpolation window.
    ToggleInterpolation,
    /// Show or hide the game's tool window of this index.
    ToggleTool(usize),
    /// Put levels made elsewhere (a tool window's) into the
    /// candidate list.
    OfferCandidates {
        /// Where they come from, for the note (the tool window's title).
        from: &'static str,
        /// The levels.
        list: Vec<studio_core::generation::Candidate>,
    },
    /// Show or hide the Agent profile window.
    ToggleProfile,
    /// Show or hide the Level models window (train, open, regenerate a selection).
    ToggleModels,
    /// Ask for a level VAE file to add to its game's generators.
    OpenModelDialog,
    /// Add the level VAE at this path to its game's generators.
    OpenModel(PathBuf),
    /// Regenerate the canvas selection (the Level models window's source and count).
    RegenerateSelection,
    /// Analyse the level under edit again with this bot seed and number of games.
    Validate {
        /// Base seed of the bot games.
        seed: u64,
        /// Bot games per validation.
        games: u32,
    },
}

/// What a panel sees: the level, the live analysis and the packs (read), the tools (write),
/// and a list to push commands onto.
pub struct PanelCtx<'a> {
    /// The game shown.
    pub game: Game,
    /// The level under edit.
    pub editor: &'a Editor,
    /// Tool, tiles and mirror.
    pub tools: &'a mut ToolState,
    /// The live gauge's state.
    pub analysis: &'a LiveAnalysis,
    /// The open packs and which is active.
    pub packs: &'a [PackDoc],
    /// Index of the active pack.
    pub active_pack: usize,
    /// The graph node shown on the canvas, if any.
    pub shown_state: Option<usize>,
    /// Playtests of levels in no pack yet (game, cells, attempt).
    pub unattached: &'a [(Game, Vec<String>, Playtest)],
    /// Commands for the studio to apply after the panels ran.
    pub commands: &'a mut Vec<AppCommand>,
}

/// A panel of the window: listed, opened and tested the same way.
pub trait ToolPanel {
    /// The panel's title.
    fn name(&self) -> &'static str;
    /// Draws the panel and pushes what the designer asked for onto `ctx.commands`.
    fn ui(&mut self, ui: &mut egui::Ui, ctx: &mut PanelCtx<'_>);
}
