//! File dialogs: native ones (rfd, through the desktop portal) on a helper thread so the UI
//! never waits, and an in-window path field when no portal answers.

use crate::studio::panel::AppCommand;
use crossbeam_channel::{unbounded, Receiver, Sender};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// What a chosen path is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purpose {
    /// Open a pack or level.
    Open,
    /// Save the active pack under a new name.
    SaveAs,
    /// Save the active pack (one never saved) under a name, then go on quitting: the quit
    /// dialog's Save. Cancelling it cancels the quit.
    SaveAsThenQuit,
    /// Export JSON.
    ExportJson,
    /// Export a PNG sheet.
    ExportPng,
    /// Export Tiled maps into a folder.
    ExportTiled,
    /// Export in a game's format (`formats::exporters()[i]`) into a folder.
    ExportRegistered(usize),
    /// Import a game's format (`formats::importers()[i]`) from a file.
    Import(usize),
    /// Open a level VAE file (`.safetensors`).
    OpenModel,
}

impl Purpose {
    fn title(self) -> &'static str {
        match self {
            Purpose::Open => "Open pack or level",
            Purpose::SaveAs => "Save pack as",
            Purpose::SaveAsThenQuit => "Save pack as, then quit",
            Purpose::ExportJson => "Export pack as JSON",
            Purpose::ExportPng => "Export pack as PNG sheet",
            Purpose::ExportTiled => "Export pack as Tiled maps (a folder)",
            Purpose::ExportRegistered(_) => "Export pack as level text files (a folder)",
            Purpose::OpenModel => "Open a level model (.safetensors)",
            // A format with a File menu item of its own is named as that item says.
            Purpose::Import(i) => studio_core::formats::importers()
                .get(i)
                .and_then(|importer| importer.menu)
                .map_or("Import levels (a file, or a folder of them)", |m| {
                    m.trim_end_matches('…')
                }),
        }
    }

    fn command(self, path: PathBuf) -> AppCommand {
        match self {
            Purpose::Open => AppCommand::Open(path),
            Purpose::SaveAs => AppCommand::SaveAs(path),
            Purpose::SaveAsThenQuit => AppCommand::SaveAsThenQuit(path),
            Purpose::ExportJson => AppCommand::ExportJson(path),
            Purpose::ExportPng => AppCommand::ExportPng(path),
            Purpose::ExportTiled => AppCommand::ExportTiled(path),
            Purpose::ExportRegistered(i) => {
                AppCommand::ExportAs(crate::studio::panel::ExportFormat::Registered(i), path)
            }
            Purpose::Import(i) => AppCommand::Import(i, path),
            Purpose::OpenModel => AppCommand::OpenModel(path),
        }
    }
}

/// A native answer faster than this is taken as "no portal answered" (a person needs longer
/// to pick a file), and the in-window field is shown instead.
const NO_PORTAL: Duration = Duration::from_millis(250);

/// The dialogs in flight and the in-window path prompt.
pub struct FileDialogs {
    tx: Sender<(Purpose, Option<PathBuf>, Duration)>,
    rx: Receiver<(Purpose, Option<PathBuf>, Duration)>,
    in_flight: bool,
    native: bool,
    prompt: Option<(Purpose, String)>,
}

impl FileDialogs {
    /// Dialogs; `native` false always uses the in-window field (tests, headless machines).
    pub fn new(native: bool) -> Self {
        let (tx, rx) = unbounded();
        let native = native && std::env::var_os("DBUS_SESSION_BUS_ADDRESS").is_some();
        Self {
            tx,
            rx,
            in_flight: false,
            native,
            prompt: None,
        }
    }

    /// Asks for a path; the answer comes back as a command from [`FileDialogs::poll`] or
    /// [`FileDialogs::ui`].
    pub fn request(&mut self, purpose: Purpose, start: Option<PathBuf>, ctx: &egui::Context) {
        // A folder is offered with its separator, so a typed file name lands inside it.
        let start_is_folder = matches!(
            purpose,
            Purpose::Open | Purpose::Import(_) | Purpose::OpenModel
        );
        let start_text = start
            .as_ref()
            .map(|p| {
                let text = p.display().to_string();
                if start_is_folder && !text.ends_with(std::path::MAIN_SEPARATOR) {
                    format!("{text}{}", std::path::MAIN_SEPARATOR)
                } else {
                    text
                }
            })
            .unwrap_or_default();
        if !self.native {
            self.prompt = Some((purpose, start_text));
            return;
        }
        if self.in_flight {
            return;
        }
        self.in_flight = true;
        let tx = self.tx.clone();
        let ctx = ctx.clone();
        let spawned = std::thread::Builder::new()
            .name("file dialog".into())
            .spawn(move || {
                let t = Instant::now();
                let mut d = rfd::FileDialog::new().set_title(purpose.title());
                if start_is_folder {
                    if let Some(dir) = &start {
                        d = d.set_directory(dir);
                    }
                } else {
                    if let Some(dir) = start.as_ref().and_then(|p| p.parent()) {
                        d = d.set_directory(dir);
                    }
                    if let Some(name) = start.as_ref().and_then(|p| p.file_name()) {
                        d = d.set_file_name(name.to_string_lossy());
                    }
                }
                let picked = match purpose {
                    Purpose::Open => d
                        .add_filter("Packs and levels", &["ron", "json", "txt"])
                        .pick_file(),
                    Purpose::SaveAs | Purpose::SaveAsThenQuit => {
                        d.add_filter("RON pack", &["ron"]).save_file()
                    }
                    Purpose::ExportJson => d.add_filter("JSON", &["json"]).save_file(),
                    Purpose::ExportPng => d.add_filter("PNG", &["png"]).save_file(),
                    Purpose::ExportTiled | Purpose::ExportRegistered(_) => d.pick_folder(),
                    Purpose::Import(_) => d.add_filter("Level text", &["txt"]).pick_file(),
                    Purpose::OpenModel => d.add_filter("Level model", &["safetensors"]).pick_file(),
                };
                let _ = tx.send((purpose, picked, t.elapsed()));
                ctx.request_repaint();
            });
        if spawned.is_err() {
            self.in_flight = false;
            self.prompt = Some((purpose, start_text));
        }
    }

    /// Collects a native answer.
    pub fn poll(&mut self) -> Option<AppCommand> {
        let (purpose, picked, took) = self.rx.try_recv().ok()?;
        self.in_flight = false;
        match picked {
            Some(path) => Some(purpose.command(path)),
            None if took < NO_PORTAL => {
                // No portal answered: fall back to the in-window field from now on.
                self.native = false;
                self.prompt = Some((purpose, String::new()));
                None
            }
            None => None,
        }
    }

    /// True while the in-window path prompt is open.
    pub fn prompt_open(&self) -> bool {
        self.prompt.is_some()
    }

    /// Draws the in-window path prompt; returns the command when the designer confirms.
    pub fn ui(&mut self, ctx: &egui::Context) -> Option<AppCommand> {
        let (purpose, text) = self.prompt.as_mut()?;
        let purpose = *purpose;
        let mut result = None;
        let mut close = false;
        egui::Window::new(purpose.title())
            .collapsible(false)
            .resizable(false)
            .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
            .show(ctx, |ui| {
                ui.label(
                    if matches!(purpose, Purpose::ExportTiled | Purpose::ExportRegistered(_)) {
                        "Folder (made when missing):"
                    } else {
                        "File path:"
                    },
                );
                let edit = ui.add(
                    egui::TextEdit::singleline(text)
                        .desired_width(420.0)
                        .id_salt("path-prompt"),
                );
                let enter = (edit.has_focus() || edit.lost_focus())
                    && ui.input(|i| i.key_pressed(egui::Key::Enter));
                if !edit.has_focus() && !edit.lost_focus() {
                    edit.request_focus();
                }
                ui.horizontal(|ui| {
                    if (ui.button("OK").clicked() || enter) && !text.trim().is_empty() {
                        result = Some(purpose.command(PathBuf::from(text.trim())));
                        close = true;
                    }
                    if ui.button("Cancel").clicked()
                        || ui.input(|i| i.key_pressed(egui::Key::Escape))
                    {
                        close = true;
                    }
                });
            });
        if close {
            self.prompt = None;
        }
        result
    }
}
