//! The toy's window part: a tool window beside the canvas that counts the canvas level's
//! crates and can put an emptied copy on the canvas. What a game's window part looks like
//! (listed in the View menu while the canvas shows the toy).

use studio_core::game::GameId;
use studio_core::jobs::JobMode;
use studio_core::level::Level;
use studio_ui::{Tool, ToolAction, ToolContext, ToolWindow};

/// The tool as the plug-in registers it.
pub fn tool() -> Tool {
    Tool {
        game: crate::TOY,
        make: |_: JobMode| Box::new(CrateCount { open: false }),
        generators: &[],
    }
}

/// The crate counter.
struct CrateCount {
    open: bool,
}

impl ToolWindow for CrateCount {
    fn game(&self) -> GameId {
        crate::TOY
    }
    fn title(&self) -> &'static str {
        "Crate count"
    }
    fn help(&self) -> &'static str {
        "the canvas level's crates, and an emptied copy"
    }
    fn is_open(&self) -> bool {
        self.open
    }
    fn set_open(&mut self, open: bool) {
        self.open = open;
    }
    fn ui(&mut self, ctx: &egui::Context, studio: &ToolContext<'_>, actions: &mut Vec<ToolAction>) {
        let mut open = self.open;
        egui::Window::new("Crate count")
            .open(&mut open)
            .show(ctx, |ui| {
                let Some(level) = studio.level else {
                    ui.label("No toy level on the canvas");
                    return;
                };
                ui.label(format!("{} crates", crate::level::crates(level)));
                if ui.button("Empty it").clicked() {
                    actions.push(ToolAction::LoadLevel(emptied(level)));
                }
            });
        self.open = open;
    }
}

/// The level with every crate cleared.
fn emptied(level: &Level) -> Level {
    let mut out = level.clone();
    out.cells = level.cells.iter().map(|r| r.replace('x', "o")).collect();
    out
}
