//! `--time-limit SECONDS`, taken by every command: the process ends once the command has run
//! that long, saying so, with exit code 124 (as `timeout` ends a command). A bound for a batch,
//! a sweep on a cluster or a probe, where a GA or a profile that plays many games could run for
//! minutes (docs/files.md). Every file the studio writes is replaced atomically and written
//! under a lock the kernel frees when the process ends, so a command stopped mid-save leaves the
//! old file or the new one, never a mix; a `generate --out` run keeps the pack it saved last
//! (every 10 s), and `generate --vgdl` writes each run's best level as it improves. Shortly
//! before the limit, a `generate` run is asked to stop as Ctrl-C asks it, so it writes what
//! it made (a search: its best) and ends with the same exit code.

use std::ffi::OsString;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::Duration;
use studio_core::jobs::Cancel;

/// The exit code of a command stopped at its time limit.
pub const EXIT: u8 = 124;
/// The longest limit taken, in seconds: a week.
pub const MOST_SECONDS: f64 = 7.0 * 24.0 * 3600.0;

/// Takes `--time-limit S` / `--time-limit=S` out of `words` (the program name first), before a
/// `--`; `None` when it is not given. A missing or non-numeric value, one not above 0 or
/// past a week, or the flag given twice is refused in words (exit 2).
///
/// # Errors
/// The exit code, once the refusal is printed.
pub fn take_time_limit(
    words: Vec<OsString>,
) -> Result<(Vec<OsString>, Option<Duration>), ExitCode> {
    let refuse = |why: String| {
        eprintln!("error: {why}");
        ExitCode::from(2)
    };
    let mut kept = Vec::with_capacity(words.len());
    let mut given: Option<Duration> = None;
    let mut words = words.into_iter().enumerate();
    while let Some((i, word)) = words.next() {
        let text = word.to_string_lossy().into_owned();
        if text == "--" {
            kept.push(word);
            kept.extend(words.map(|(_, w)| w));
            break;
        }
        let value = if i >= 2 && text == "--time-limit" {
            match words.next() {
                Some((_, v)) => v.to_string_lossy().into_owned(),
                None => return Err(refuse("--time-limit needs a value: seconds".into())),
            }
        } else if let Some(v) = text.strip_prefix("--time-limit=").filter(|_| i >= 2) {
            v.to_string()
        } else {
            kept.push(word);
            continue;
        };
        if given.is_some() {
            return Err(refuse("--time-limit is given twice".into()));
        }
        given = Some(parse(&value).map_err(refuse)?);
    }
    Ok((kept, given))
}

/// Seconds above 0 and at most a week.
fn parse(value: &str) -> Result<Duration, String> {
    match value.trim().parse::<f64>() {
        Ok(s) if s.is_finite() && s > 0.0 && s <= MOST_SECONDS => Ok(Duration::from_secs_f64(s)),
        Ok(s) => Err(format!(
            "--time-limit {s} is out of range: seconds above 0, at most {MOST_SECONDS} (a week)"
        )),
        Err(_) => Err(format!("--time-limit {value:?} is not a number of seconds")),
    }
}

/// The searches and sweeps asked to stop before the limit (see [`stop_before_limit`]).
static STOPS: Mutex<Vec<Cancel>> = Mutex::new(Vec::new());
/// True once the limit's stop was asked of them.
static STOPPED: AtomicBool = AtomicBool::new(false);
/// The longest time before the limit that a run is asked to stop.
const MOST_GRACE: Duration = Duration::from_secs(2);

/// How long before `limit` a run is asked to stop: a fifth of it, at most 2 s.
fn grace(limit: Duration) -> Duration {
    (limit / 5).min(MOST_GRACE)
}

/// Has `cancel` asked to stop ([`Cancel::stop`], as Ctrl-C does) shortly before the time
/// limit (a fifth of it, at most 2 s), so a search ends after its generation and a sweep
/// writes what it made before the hard stop. Without a limit it is never asked.
pub fn stop_before_limit(cancel: &Cancel) {
    if let Ok(mut stops) = STOPS.lock() {
        stops.push(cancel.clone());
    }
}

/// True once the time limit's stop was asked (the command should then end with [`EXIT`]).
pub fn stopped() -> bool {
    STOPPED.load(Ordering::Relaxed)
}

/// Ends the process once `limit` has passed, saying which command ran past it; shortly
/// before, asks the runs given to [`stop_before_limit`] to stop.
pub fn start(limit: Duration, command: &str) {
    let command = command.to_string();
    let _ = std::thread::Builder::new()
        .name("time-limit".into())
        .spawn(move || {
            let grace = grace(limit);
            std::thread::sleep(limit - grace);
            if let Ok(stops) = STOPS.lock() {
                if !stops.is_empty() {
                    STOPPED.store(true, Ordering::Relaxed);
                    eprintln!(
                        "\nstopping: `level-studio {command}` is {:.1} s from its time limit; \
                         writing what was made so far",
                        grace.as_secs_f64()
                    );
                    for cancel in stops.iter() {
                        cancel.stop();
                    }
                }
            }
            std::thread::sleep(grace);
            eprintln!(
                "\nerror: `level-studio {command}` ran past its time limit of {} s \
                 (--time-limit) and was stopped; the files it wrote are whole (each is \
                 replaced at once), and one it had not finished was not written (a GA run \
                 on a VGDL game keeps the best level it had found, tagged unfinished)",
                limit.as_secs_f64()
            );
            std::process::exit(i32::from(EXIT));
        });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(line: &str) -> Vec<OsString> {
        line.split_whitespace().map(OsString::from).collect()
    }

    #[test]
    fn a_run_is_asked_to_stop_a_fifth_of_the_limit_before_it_at_most_two_seconds() {
        assert_eq!(grace(Duration::from_secs(1)), Duration::from_millis(200));
        assert_eq!(grace(Duration::from_secs(9)), Duration::from_millis(1800));
        assert_eq!(grace(Duration::from_secs(20)), Duration::from_secs(2));
        assert_eq!(grace(Duration::from_secs(3600)), Duration::from_secs(2));
    }

    #[test]
    fn the_flag_is_taken_anywhere_after_the_command_and_refused_when_bad() {
        let (kept, limit) = take_time_limit(words("ls eval --time-limit 2.5 --count 3")).unwrap();
        assert_eq!(kept, words("ls eval --count 3"));
        assert_eq!(limit, Some(Duration::from_millis(2500)));
        let (kept, limit) = take_time_limit(words("ls play --time-limit=10 x")).unwrap();
        assert_eq!(
            (kept, limit),
            (words("ls play x"), Some(Duration::from_secs(10)))
        );
        // After `--` it is a value, not the flag.
        let (kept, limit) = take_time_limit(words("ls play -- --time-limit 3")).unwrap();
        assert_eq!((kept, limit), (words("ls play -- --time-limit 3"), None));
        for bad in [
            "ls eval --time-limit",
            "ls eval --time-limit 0",
            "ls eval --time-limit -1",
            "ls eval --time-limit nan",
            "ls eval --time-limit 1e30",
            "ls eval --time-limit soon",
            "ls eval --time-limit 1 --time-limit 2",
        ] {
            assert!(take_time_limit(words(bad)).is_err(), "{bad}");
        }
    }
}
