//! The Device setting: where the models the window trains and decodes with run (auto, the
//! CPU, or a CUDA device), chosen in View > Device, kept with the settings, and named in the
//! status bar.

use super::StudioApp;
use studio_ml::DeviceChoice;

/// The choices the Device menu offers: auto, the CPU and each CUDA device that starts.
pub(super) fn device_options() -> Vec<DeviceChoice> {
    [DeviceChoice::Auto, DeviceChoice::Cpu]
        .into_iter()
        .chain(
            studio_ml::cuda_devices()
                .into_iter()
                .map(DeviceChoice::Cuda),
        )
        .collect()
}

/// Sets the process-wide device from the settings' `device` at start. One that does not read
/// or that this build or machine lacks is said in a note and replaced by `auto`.
pub(super) fn apply_saved_device(device: &mut String, notes: &mut Vec<String>) {
    let chosen = device
        .parse::<DeviceChoice>()
        .and_then(studio_ml::set_device);
    if let Err(e) = chosen {
        notes.push(format!(
            "settings: device {device:?}: {e}; models run on auto"
        ));
        *device = DeviceChoice::Auto.to_string();
        // `auto` always has a device.
        let _ = studio_ml::set_device(DeviceChoice::Auto);
    }
}

/// What a menu entry says of a choice.
fn label(choice: DeviceChoice) -> String {
    match choice {
        DeviceChoice::Auto => "Auto".into(),
        DeviceChoice::Cpu => "CPU".into(),
        DeviceChoice::Cuda(i) => format!("CUDA {i}"),
    }
}

impl StudioApp {
    /// View > Device: the choices as radio buttons; a choice applies to the next model loaded
    /// or trained and is kept with the settings.
    pub(super) fn device_menu(&mut self, ui: &mut egui::Ui) {
        ui.menu_button("Device", |ui| {
            let current = studio_ml::device_choice();
            for choice in self.device_options.clone() {
                if ui.radio(current == choice, label(choice)).clicked() && current != choice {
                    self.choose_device(choice);
                }
            }
        })
        .response
        .on_hover_text("Where models train and decode (auto: a CUDA GPU when there is one)");
    }

    /// Makes `choice` the device models run on, keeps it in the settings and says so.
    pub(super) fn choose_device(&mut self, choice: DeviceChoice) {
        match studio_ml::set_device(choice) {
            Ok(_) => {
                self.settings.device = choice.to_string();
                self.device_name = studio_ml::device_name();
                self.status = format!(
                    "Models run on {} from the next one loaded or trained",
                    self.device_name
                );
            }
            Err(e) => self.status = format!("Device {}: {e}", label(choice)),
        }
    }
}
