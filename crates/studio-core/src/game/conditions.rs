//! The conditions a generator takes (size, symmetry, target moves, temperature, …): what
//! each one is, its range and default, and the values of one request. The window draws a
//! control per condition; the command line maps its flags onto them.

use crate::symmetry::Symmetry;
use std::collections::BTreeMap;

/// What kind of value a condition takes, with its range.
#[derive(Clone, Debug, PartialEq)]
pub enum ConditionKind {
    /// A whole number in `min..=max`.
    Int {
        /// Smallest.
        min: i64,
        /// Largest.
        max: i64,
    },
    /// A number in `min..=max`, edited in steps of `step`.
    Float {
        /// Smallest.
        min: f64,
        /// Largest.
        max: f64,
        /// Drag step in the window.
        step: f64,
    },
    /// A symmetry.
    Symmetry,
    /// On or off.
    Flag,
}

/// One condition a generator takes.
#[derive(Clone, Debug, PartialEq)]
pub struct ConditionSpec {
    /// The key (`width`, `moves`): command-line flags and requests use it.
    pub key: &'static str,
    /// The label in the window ("Target moves").
    pub label: &'static str,
    /// What it takes.
    pub kind: ConditionKind,
    /// The value a new request starts with.
    pub default: ConditionValue,
    /// True when the command line must give it (no sensible default for a batch job).
    pub required: bool,
    /// One line of help.
    pub help: &'static str,
}

/// A condition's value refused (out of range, of the wrong kind, unreadable), in words that
/// name the condition: a bad request, never a failure of the generator.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ConditionError(pub String);

impl ConditionSpec {
    /// Checks a value against the kind and range.
    ///
    /// # Errors
    /// [`ConditionError`]: the problem in words, naming the condition.
    pub fn check(&self, value: &ConditionValue) -> Result<(), ConditionError> {
        let refused = |message: String| Err(ConditionError(message));
        match (&self.kind, value) {
            (ConditionKind::Int { min, max }, ConditionValue::Int(v)) => {
                if v < min || v > max {
                    return refused(format!("{} {v} is outside {min}..={max}", self.key));
                }
            }
            (ConditionKind::Float { min, max, .. }, ConditionValue::Float(v)) => {
                if !v.is_finite() || v < min || v > max {
                    return refused(format!("{} {v} is outside {min}..={max}", self.key));
                }
            }
            (ConditionKind::Symmetry, ConditionValue::Symmetry(_))
            | (ConditionKind::Flag, ConditionValue::Flag(_)) => {}
            _ => return refused(format!("{} has the wrong kind of value", self.key)),
        }
        Ok(())
    }
}

impl ConditionSpec {
    /// Reads a value of this condition from text (the command line's `--set KEY=VALUE`).
    ///
    /// # Errors
    /// [`ConditionError`]: text that is not a value of this kind, or out of range.
    pub fn parse(&self, text: &str) -> Result<ConditionValue, ConditionError> {
        let refused = |message: String| ConditionError(message);
        let value = match self.kind {
            ConditionKind::Int { .. } => ConditionValue::Int(text.parse().map_err(|_| {
                refused(format!("{} needs a whole number, not {text:?}", self.key))
            })?),
            ConditionKind::Float { .. } => ConditionValue::Float(
                text.parse()
                    .map_err(|_| refused(format!("{} needs a number, not {text:?}", self.key)))?,
            ),
            ConditionKind::Symmetry => ConditionValue::Symmetry(text.parse().map_err(refused)?),
            ConditionKind::Flag => ConditionValue::Flag(match text {
                "true" | "yes" | "on" | "1" => true,
                "false" | "no" | "off" | "0" => false,
                _ => {
                    return Err(refused(format!(
                        "{} needs true or false, not {text:?}",
                        self.key
                    )))
                }
            }),
        };
        self.check(&value)?;
        Ok(value)
    }
}

/// The value of one condition.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ConditionValue {
    /// A whole number.
    Int(i64),
    /// A number.
    Float(f64),
    /// A symmetry.
    Symmetry(Symmetry),
    /// On or off.
    Flag(bool),
}

impl std::fmt::Display for ConditionValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ConditionValue::Int(v) => write!(f, "{v}"),
            ConditionValue::Float(v) => write!(f, "{v}"),
            ConditionValue::Symmetry(s) => write!(f, "{s}"),
            ConditionValue::Flag(b) => write!(f, "{b}"),
        }
    }
}

/// The conditions of one request, by key.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Conditions(BTreeMap<&'static str, ConditionValue>);

impl Conditions {
    /// The defaults of every condition in `specs`.
    pub fn defaults(specs: &[ConditionSpec]) -> Self {
        Self(specs.iter().map(|s| (s.key, s.default)).collect())
    }

    /// Sets a condition.
    pub fn set(&mut self, key: &'static str, value: ConditionValue) {
        self.0.insert(key, value);
    }

    /// Removes a condition (the generator's default applies).
    pub fn remove(&mut self, key: &str) {
        self.0.remove(key);
    }

    /// The raw value of a condition.
    pub fn get(&self, key: &str) -> Option<ConditionValue> {
        self.0.get(key).copied()
    }

    /// A mutable value, for the window's controls.
    pub fn get_mut(&mut self, key: &str) -> Option<&mut ConditionValue> {
        self.0.get_mut(key)
    }

    /// A whole-number condition (`width`, `height`).
    pub fn int(&self, key: &str) -> Option<i64> {
        match self.get(key)? {
            ConditionValue::Int(v) => Some(v),
            ConditionValue::Float(v) => Some(v.round() as i64),
            _ => None,
        }
    }

    /// A whole-number condition as a size.
    pub fn usize(&self, key: &str) -> Option<usize> {
        self.int(key).and_then(|v| usize::try_from(v).ok())
    }

    /// A number condition (`moves`, `temperature`).
    pub fn float(&self, key: &str) -> Option<f64> {
        match self.get(key)? {
            ConditionValue::Float(v) => Some(v),
            ConditionValue::Int(v) => Some(v as f64),
            _ => None,
        }
    }

    /// The symmetry condition.
    pub fn symmetry(&self, key: &str) -> Option<Symmetry> {
        match self.get(key)? {
            ConditionValue::Symmetry(s) => Some(s),
            _ => None,
        }
    }

    /// An on/off condition.
    pub fn flag(&self, key: &str) -> Option<bool> {
        match self.get(key)? {
            ConditionValue::Flag(b) => Some(b),
            _ => None,
        }
    }

    /// The request's width and height, when it has them.
    pub fn size(&self) -> Option<(usize, usize)> {
        Some((self.usize("width")?, self.usize("height")?))
    }

    /// The keys set.
    pub fn keys(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.0.keys().copied()
    }
}
