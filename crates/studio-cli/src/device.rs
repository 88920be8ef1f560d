//! `--device auto|cpu|cuda[:N]`: where the models of `train`, `generate`, `eval` and
//! `interpolate` run. The shell takes the flag out of the words before any command parses
//! them (a game's own flags never see it), sets the process-wide device
//! ([`studio_ml::set_device`]) and names the device used on the command's first progress line.

use std::ffi::OsString;
use std::process::ExitCode;
use studio_ml::DeviceChoice;

/// The sub-commands that take `--device`.
pub const DEVICE_COMMANDS: [&str; 4] = ["train", "generate", "eval", "interpolate"];

/// What `--device` says in every command's help.
const HELP: &str = "Where models train and decode: auto (the first CUDA device when this build \
                    has CUDA support and one is present, else the CPU), cpu, cuda or cuda:N \
                    [default: auto]";

/// `command` with `--device` in its help (the shell reads the flag before the command does).
pub fn with_device_flag(command: clap::Command) -> clap::Command {
    command.arg(
        clap::Arg::new("device")
            .long("device")
            .value_name("DEVICE")
            .help(HELP),
    )
}

/// Whether `command` (the first word after the program name) takes `--device`.
pub fn takes_device(command: &str) -> bool {
    DEVICE_COMMANDS.contains(&command)
}

/// Takes `--device X` / `--device=X` out of `words` (the program name first), before a `--`,
/// and sets the process-wide device. A command that does not take the flag, a value that names
/// no device, a flag given twice, or a device this build or machine lacks is refused in words
/// (exit 2 for a usage error, 1 for a missing device).
///
/// # Errors
/// The exit code, once the refusal is printed.
pub fn take_device(words: Vec<OsString>) -> Result<Vec<OsString>, ExitCode> {
    let refuse = |code: u8, why: String| {
        eprintln!("error: {why}");
        ExitCode::from(code)
    };
    let command = words
        .get(1)
        .map(|w| w.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut kept = Vec::with_capacity(words.len());
    let mut given: Option<String> = None;
    let mut words = words.into_iter().enumerate();
    while let Some((i, word)) = words.next() {
        let text = word.to_string_lossy();
        if i < 2 || text == "--" {
            let done = text == "--";
            kept.push(word);
            if done {
                kept.extend(words.map(|(_, w)| w));
                break;
            }
            continue;
        }
        let value = if text == "--device" {
            match words.next() {
                Some((_, v)) => v.to_string_lossy().into_owned(),
                None => {
                    return Err(refuse(
                        2,
                        format!("--device needs a value: {}", DeviceChoice::WORDS),
                    ))
                }
            }
        } else if let Some(v) = text.strip_prefix("--device=") {
            v.to_string()
        } else {
            kept.push(word);
            continue;
        };
        if !takes_device(&command) {
            return Err(refuse(
                2,
                format!(
                    "--device applies to {} only, not to {command:?}",
                    DEVICE_COMMANDS.join(", ")
                ),
            ));
        }
        if given.is_some() {
            return Err(refuse(2, "--device is given more than once".into()));
        }
        given = Some(value);
    }
    if let Some(text) = given {
        let choice: DeviceChoice = text
            .parse()
            .map_err(|e| refuse(2, format!("invalid value for --device: {e}")))?;
        studio_ml::set_device(choice).map_err(|e| refuse(1, format!("--device {choice}: {e}")))?;
    }
    Ok(kept)
}

/// The first progress line of a command that takes `--device`: the device its models use.
pub fn announce() {
    eprintln!("device: {}", studio_ml::device_name());
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(line: &str) -> Vec<OsString> {
        line.split(' ').map(OsString::from).collect()
    }

    #[test]
    fn the_flag_is_taken_out_of_the_words_wherever_it_stands() {
        for line in [
            "ls generate --device cpu --game toy",
            "ls generate --game toy --device=cpu",
            "ls generate --game toy --device CPU",
        ] {
            assert_eq!(
                take_device(words(line)).unwrap(),
                words("ls generate --game toy"),
                "{line}"
            );
        }
        // After `--` the words are the command's own.
        assert_eq!(
            take_device(words("ls eval -- --device cpu")).unwrap(),
            words("ls eval -- --device cpu")
        );
    }

    #[test]
    fn bad_uses_are_refused() {
        for line in [
            "ls validate --device cpu x.ron",
            "ls train --device",
            "ls train --device gpu",
            "ls train --device cpu --device cpu",
        ] {
            assert_eq!(take_device(words(line)), Err(ExitCode::from(2)), "{line}");
        }
    }
}
