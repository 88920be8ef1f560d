//! Which device every model trains and decodes on: one [`DeviceChoice`] for the process, set
//! once at start by the command line (`--device`) or by the window's setting, and read by
//! [`device`]. `auto` takes the first CUDA device when the build has the `cuda` feature and
//! one is usable, and the CPU otherwise; `cpu` is always the CPU; `cuda[:N]` is refused in
//! words on a build without CUDA or a machine without that GPU.

use candle_core::{Device, DeviceLocation};
use std::fmt;
use std::str::FromStr;
use std::sync::Mutex;

/// Where the designer asked models to run (`--device`, the window's Device setting).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum DeviceChoice {
    /// The first CUDA device when the build has CUDA support and one is usable, else the CPU.
    #[default]
    Auto,
    /// The CPU, always.
    Cpu,
    /// CUDA device N (`cuda` is device 0).
    Cuda(usize),
}

impl DeviceChoice {
    /// The words `--device` takes, for help and errors.
    pub const WORDS: &'static str = "auto, cpu, cuda or cuda:N";

    /// The device this choice names on this machine and build.
    ///
    /// # Errors
    /// [`DeviceError`] when the choice names a CUDA device this build or machine lacks.
    pub fn resolve(self) -> Result<Device, DeviceError> {
        match self {
            DeviceChoice::Cpu => Ok(Device::Cpu),
            DeviceChoice::Auto => Ok(Device::new_cuda(0).unwrap_or(Device::Cpu)),
            DeviceChoice::Cuda(_) if !cuda_built() => Err(DeviceError::NoCudaSupport),
            // Device 0 failing says why in the driver's words (no driver, no GPU); a later
            // one failing most often does not exist: say how many do.
            DeviceChoice::Cuda(0) => Device::new_cuda(0).map_err(|e| DeviceError::CudaFailed {
                index: 0,
                reason: driver_words(&e),
            }),
            DeviceChoice::Cuda(index) => {
                Device::new_cuda(index).map_err(|_| DeviceError::NoSuchCuda {
                    index,
                    count: cuda_count_below(index),
                })
            }
        }
    }
}

impl fmt::Display for DeviceChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DeviceChoice::Auto => f.write_str("auto"),
            DeviceChoice::Cpu => f.write_str("cpu"),
            DeviceChoice::Cuda(index) => write!(f, "cuda:{index}"),
        }
    }
}

impl FromStr for DeviceChoice {
    type Err = DeviceError;

    /// `auto`, `cpu`, `cuda` or `cuda:N` (any case, spaces around ignored).
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let word = text.trim().to_ascii_lowercase();
        match word.as_str() {
            "auto" => Ok(DeviceChoice::Auto),
            "cpu" => Ok(DeviceChoice::Cpu),
            "cuda" => Ok(DeviceChoice::Cuda(0)),
            _ => word
                .strip_prefix("cuda:")
                .filter(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
                .and_then(|n| n.parse().ok())
                .map(DeviceChoice::Cuda)
                .ok_or_else(|| DeviceError::Unknown(text.to_string())),
        }
    }
}

/// Why a device choice cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DeviceError {
    /// The text names no device.
    #[error("{0:?} is not a device: use {words}", words = DeviceChoice::WORDS)]
    Unknown(String),
    /// A CUDA device was asked of a build without the `cuda` feature.
    #[error("this build has no CUDA support: rebuild with --features cuda")]
    NoCudaSupport,
    /// The machine has fewer CUDA devices than the one asked for.
    #[error("no CUDA device {index}: this machine has {count}")]
    NoSuchCuda {
        /// The device asked for.
        index: usize,
        /// How many CUDA devices the machine has.
        count: usize,
    },
    /// The device exists but could not be started (driver, libraries, memory).
    #[error("CUDA device {index} could not be started: {reason}")]
    CudaFailed {
        /// The device asked for.
        index: usize,
        /// The driver's words.
        reason: String,
    },
}

/// A CUDA start error in words: its first line. candle appends a backtrace to the errors
/// of its CUDA backend (20 lines of frames in a status line otherwise).
fn driver_words(error: &candle_core::Error) -> String {
    error
        .to_string()
        .lines()
        .next()
        .unwrap_or_default()
        .trim_end()
        .to_string()
}

/// Whether this build has CUDA support (the `cuda` feature).
pub fn cuda_built() -> bool {
    cfg!(feature = "cuda")
}

/// Whether CUDA device `index` starts.
fn cuda_usable(index: usize) -> bool {
    Device::new_cuda(index).is_ok()
}

/// How many of the CUDA devices 0, 1, … below `limit` start, counting up to the first that
/// does not (what an error says the machine has).
fn cuda_count_below(limit: usize) -> usize {
    (0..limit).take_while(|&i| cuda_usable(i)).count()
}

/// The CUDA devices this machine has that start, for the window's list (none without CUDA
/// support; at most 16 are tried).
pub fn cuda_devices() -> Vec<usize> {
    if !cuda_built() {
        return Vec::new();
    }
    (0..cuda_count_below(16)).collect()
}

/// The process-wide choice and the device it gave.
struct Chosen {
    choice: DeviceChoice,
    device: Device,
}

static CHOSEN: Mutex<Option<Chosen>> = Mutex::new(None);

/// Sets the device every model of this process runs on from now on, and answers it.
///
/// # Errors
/// [`DeviceError`] when the choice names a CUDA device this build or machine lacks; the
/// setting is then unchanged.
pub fn set_device(choice: DeviceChoice) -> Result<Device, DeviceError> {
    let device = choice.resolve()?;
    let mut chosen = CHOSEN.lock().unwrap_or_else(|e| e.into_inner());
    *chosen = Some(Chosen {
        choice,
        device: device.clone(),
    });
    Ok(device)
}

/// The choice in force: the last one [`set_device`] took, `auto` before any.
pub fn device_choice() -> DeviceChoice {
    CHOSEN
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .as_ref()
        .map_or(DeviceChoice::Auto, |c| c.choice)
}

/// The device models run on: the one [`set_device`] chose, or `auto`'s (the first CUDA device
/// when the build has CUDA support and one is usable, the CPU otherwise) when none was set.
pub fn device() -> Device {
    let mut chosen = CHOSEN.lock().unwrap_or_else(|e| e.into_inner());
    chosen
        .get_or_insert_with(|| Chosen {
            choice: DeviceChoice::Auto,
            device: DeviceChoice::Auto.resolve().unwrap_or(Device::Cpu),
        })
        .device
        .clone()
}

/// A device in words, for progress lines and the status bar: "CPU", "CUDA 0".
pub fn name_of(device: &Device) -> String {
    match device.location() {
        DeviceLocation::Cpu => "CPU".into(),
        DeviceLocation::Cuda { gpu_id } => format!("CUDA {gpu_id}"),
        DeviceLocation::Metal { gpu_id } => format!("Metal {gpu_id}"),
    }
}

/// The device models run on, in words ("CPU", "CUDA 0"), with why when `auto` fell back to
/// the CPU on a build with CUDA support ("CPU (no usable CUDA device: …)").
pub fn device_name() -> String {
    let device = device();
    let name = name_of(&device);
    if cuda_built() && device_choice() == DeviceChoice::Auto && !device.is_cuda() {
        let why = Device::new_cuda(0)
            .err()
            .map_or_else(String::new, |e| format!(": {}", driver_words(&e)));
        return format!("{name} (no usable CUDA device{why})");
    }
    name
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn choices_read_and_print_in_the_same_words() {
        for (text, choice) in [
            ("auto", DeviceChoice::Auto),
            ("cpu", DeviceChoice::Cpu),
            ("CPU", DeviceChoice::Cpu),
            (" cuda ", DeviceChoice::Cuda(0)),
            ("cuda:3", DeviceChoice::Cuda(3)),
        ] {
            assert_eq!(text.parse::<DeviceChoice>(), Ok(choice), "{text}");
            assert_eq!(choice.to_string().parse::<DeviceChoice>(), Ok(choice));
        }
        for bad in [
            "",
            "gpu",
            "cuda:",
            "cuda:-1",
            "cuda:x",
            "cuda:99999999999999999999999",
        ] {
            let e = bad.parse::<DeviceChoice>().unwrap_err();
            assert_eq!(e, DeviceError::Unknown(bad.into()));
            assert!(e.to_string().contains("auto, cpu, cuda or cuda:N"), "{e}");
        }
    }

    #[test]
    fn cpu_is_always_the_cpu_and_names_itself_so() {
        let cpu = DeviceChoice::Cpu.resolve().unwrap();
        assert!(cpu.is_cpu());
        assert_eq!(name_of(&cpu), "CPU");
    }

    #[test]
    fn a_cuda_start_error_is_said_in_its_first_line_without_the_backtrace() {
        let e = candle_core::Error::Msg("DriverError(CUDA_ERROR_NOT_INITIALIZED)".into()).bt();
        assert_eq!(driver_words(&e), "DriverError(CUDA_ERROR_NOT_INITIALIZED)");
        assert_eq!(
            driver_words(&candle_core::Error::Msg("one line".into())),
            "one line"
        );
    }

    #[cfg(not(feature = "cuda"))]
    #[test]
    fn without_cuda_support_auto_is_the_cpu_and_cuda_is_refused_in_words() {
        assert!(DeviceChoice::Auto.resolve().unwrap().is_cpu());
        for index in [0, 7] {
            let e = DeviceChoice::Cuda(index).resolve().unwrap_err();
            assert_eq!(e, DeviceError::NoCudaSupport);
            assert_eq!(
                e.to_string(),
                "this build has no CUDA support: rebuild with --features cuda"
            );
        }
        assert!(cuda_devices().is_empty());
    }

    #[test]
    fn a_missing_gpu_is_named_with_how_many_the_machine_has() {
        let e = DeviceError::NoSuchCuda { index: 7, count: 1 };
        assert_eq!(e.to_string(), "no CUDA device 7: this machine has 1");
    }
}
