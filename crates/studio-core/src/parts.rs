//! The part files of a sweep split over processes (`--shard I/N --out PART`), and the check a
//! merge makes before it reads them: that the files are the N parts of this very run, each
//! once (docs/files.md, "Sweeps split over processes").
//!
//! A part is one JSON object: its `format` and `version`, its `shard` (`[I, N]`), the `run`'s
//! key (what its figures depend on, compared whole at the merge) and its `levels`, whose
//! layout belongs to the command that writes it.

use crate::generation::Shard;
use crate::io::{self, FileError};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// What kind of part a command writes.
#[derive(Clone, Copy, Debug)]
pub struct PartKind {
    /// The file's `format` field, which also names it in messages ("level-studio … part").
    pub format: &'static str,
    /// Its layout's version; a part of another version is refused.
    pub version: u32,
    /// What the part is, in words ("a profile part").
    pub what: &'static str,
    /// The command that writes one, as the user types it.
    pub written_by: &'static str,
    /// The flags a merge must repeat, said when a part of another run is given.
    pub flags: &'static str,
}

/// A part file.
#[derive(Debug, Serialize, Deserialize)]
struct Part<T> {
    format: String,
    version: u32,
    /// `[I, N]`.
    shard: [usize; 2],
    run: Value,
    levels: T,
}

/// Why parts do not merge.
#[derive(Debug, thiserror::Error)]
pub enum PartsError {
    /// A file that does not read or cannot be written.
    #[error(transparent)]
    File(#[from] FileError),
    /// A file that is not a part of this kind.
    #[error("{path}: not {what} written by {written_by} ({why})")]
    NotAPart {
        /// The file.
        path: String,
        /// The kind's `what`.
        what: &'static str,
        /// The kind's `written_by`.
        written_by: &'static str,
        /// The reader's words.
        why: String,
    },
    /// A part of another kind or version.
    #[error("{path}: a {format:?} file of version {version}, not a {expected:?} of version {expected_version}")]
    OtherFormat {
        /// The file.
        path: String,
        /// Its `format`.
        format: String,
        /// Its `version`.
        version: u32,
        /// The format asked for.
        expected: &'static str,
        /// The version asked for.
        expected_version: u32,
    },
    /// A part of another run.
    #[error(
        "{path}: a part of another run: {why} (merge the parts of one run with its own {flags})"
    )]
    Foreign {
        /// The file.
        path: String,
        /// The first difference, in words.
        why: String,
        /// The kind's `flags`.
        flags: &'static str,
    },
    /// Parts of two splits (different N).
    #[error("{path} is part {index}/{of} but {first} is part {first_index}/{first_of}: the parts of one split")]
    TwoSplits {
        /// The file.
        path: String,
        /// Its I.
        index: usize,
        /// Its N.
        of: usize,
        /// The first file given.
        first: String,
        /// Its I.
        first_index: usize,
        /// Its N.
        first_of: usize,
    },
    /// One part given twice.
    #[error("part {index}/{of} given twice ({first} and {second})")]
    Twice {
        /// I.
        index: usize,
        /// N.
        of: usize,
        /// The first file.
        first: String,
        /// The second.
        second: String,
    },
    /// A part missing.
    #[error("part {missing}/{of} is missing: give all {of} parts")]
    Missing {
        /// The missing I.
        missing: usize,
        /// N.
        of: usize,
    },
}

/// Writes part `shard` of the run keyed `run`, with its `levels`, to `path` (whole or not at
/// all).
///
/// # Errors
/// A file that cannot be written.
pub fn write<T: Serialize>(
    path: &Path,
    kind: PartKind,
    shard: Shard,
    run: &Value,
    levels: &T,
) -> Result<(), PartsError> {
    let part = Part {
        format: kind.format.into(),
        version: kind.version,
        shard: [shard.index, shard.of],
        run: run.clone(),
        levels,
    };
    let text = serde_json::to_string_pretty(&part).map_err(|e| PartsError::NotAPart {
        path: path.display().to_string(),
        what: kind.what,
        written_by: kind.written_by,
        why: e.to_string(),
    })?;
    io::write_atomic(path, text.as_bytes())?;
    Ok(())
}

/// Reads the parts at `paths` (any order) and gives each one's shard and levels in order 1 to
/// N, once they are shown to be the N parts of the run keyed `run`; `difference(theirs,
/// ours)` says in words how another run's key differs.
///
/// # Errors
/// A file that does not read or is not a part of `kind`; a part of another run, parts of two
/// splits, a part given twice, a missing part.
pub fn read_all<T: DeserializeOwned>(
    paths: &[PathBuf],
    kind: PartKind,
    run: &Value,
    difference: &dyn Fn(&Value, &Value) -> String,
) -> Result<Vec<(PathBuf, Shard, T)>, PartsError> {
    let mut parts: Vec<(PathBuf, Part<T>)> = Vec::new();
    for path in paths {
        let shown = path.display().to_string();
        let text = io::read_text(path)?;
        let part: Part<T> = serde_json::from_str(&text).map_err(|e| PartsError::NotAPart {
            path: shown.clone(),
            what: kind.what,
            written_by: kind.written_by,
            why: e.to_string(),
        })?;
        if part.format != kind.format || part.version != kind.version {
            return Err(PartsError::OtherFormat {
                path: shown,
                format: part.format,
                version: part.version,
                expected: kind.format,
                expected_version: kind.version,
            });
        }
        if &part.run != run {
            return Err(PartsError::Foreign {
                path: shown,
                why: difference(&part.run, run),
                flags: kind.flags,
            });
        }
        if let Some((first, p)) = parts.first() {
            if p.shard[1] != part.shard[1] {
                return Err(PartsError::TwoSplits {
                    path: shown,
                    index: part.shard[0],
                    of: part.shard[1],
                    first: first.display().to_string(),
                    first_index: p.shard[0],
                    first_of: p.shard[1],
                });
            }
        }
        if let Some((twice, _)) = parts.iter().find(|(_, p)| p.shard == part.shard) {
            return Err(PartsError::Twice {
                index: part.shard[0],
                of: part.shard[1],
                first: twice.display().to_string(),
                second: shown,
            });
        }
        parts.push((path.clone(), part));
    }
    let of = parts.first().map_or(0, |(_, p)| p.shard[1]);
    if let Some(missing) = (1..=of).find(|i| !parts.iter().any(|(_, p)| p.shard[0] == *i)) {
        return Err(PartsError::Missing { missing, of });
    }
    parts.sort_by_key(|(_, p)| p.shard[0]);
    Ok(parts
        .into_iter()
        .map(|(path, p)| {
            let shard = Shard {
                index: p.shard[0],
                of: p.shard[1],
            };
            (path, shard, p.levels)
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const KIND: PartKind = PartKind {
        format: "level-studio test part",
        version: 1,
        what: "a test part",
        written_by: "`test --shard I/N`",
        flags: "--seed",
    };

    #[test]
    fn parts_read_back_in_order_and_foreign_doubled_missing_or_mixed_ones_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let run = json!({ "seed": 3 });
        let write_part = |i: usize, n: usize, run: &Value| {
            let p = dir.path().join(format!("p-{i}-{n}.json"));
            write(&p, KIND, Shard { index: i, of: n }, run, &vec![i * 10]).unwrap();
            p
        };
        let p: Vec<PathBuf> = (1..=3).map(|i| write_part(i, 3, &run)).collect();
        let say = |_: &Value, _: &Value| "the seed differs".to_string();
        let got: Vec<(PathBuf, Shard, Vec<usize>)> = read_all(
            &[p[2].clone(), p[0].clone(), p[1].clone()],
            KIND,
            &run,
            &say,
        )
        .unwrap();
        let levels: Vec<Vec<usize>> = got.iter().map(|g| g.2.clone()).collect();
        assert_eq!(levels, [vec![10], vec![20], vec![30]]);
        assert_eq!(got[1].1, Shard { index: 2, of: 3 });
        let refused = |paths: &[PathBuf]| {
            read_all::<Vec<usize>>(paths, KIND, &run, &say)
                .unwrap_err()
                .to_string()
        };
        assert!(refused(&p[..2]).contains("part 3/3 is missing"));
        assert!(refused(&[p[0].clone(), p[0].clone()]).contains("given twice"));
        let other_split = write_part(1, 2, &run);
        assert!(refused(&[p[0].clone(), other_split]).contains("the parts of one split"));
        let foreign = write_part(1, 3, &json!({ "seed": 4 }));
        let e = refused(&[foreign]);
        assert!(
            e.contains("another run: the seed differs") && e.contains("--seed"),
            "{e}"
        );
        let junk = dir.path().join("junk.json");
        std::fs::write(&junk, "{\"levels\": 1}").unwrap();
        assert!(refused(&[junk]).contains("not a test part written by `test --shard I/N`"));
        let other = dir.path().join("other.json");
        std::fs::write(
            &other,
            r#"{"format":"x","version":1,"shard":[1,1],"run":{},"levels":[]}"#,
        )
        .unwrap();
        assert!(refused(&[other]).contains("not a \"level-studio test part\""));
    }
}
