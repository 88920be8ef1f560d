//! A rule's or a sprite's parameters, read with GVGAI's conversions.

use crate::description::{Param, VgdlError};

/// Reads parameters with GVGAI's conversions, naming the line in errors.
pub(super) struct ParamReader<'a> {
    pub(super) params: &'a [Param],
    pub(super) file: &'a str,
    pub(super) line: usize,
}

impl ParamReader<'_> {
    pub(super) fn err(&self, message: String) -> VgdlError {
        VgdlError {
            file: self.file.to_string(),
            line: self.line,
            message,
        }
    }

    pub(super) fn get(&self, key: &str) -> Option<&str> {
        self.params
            .iter()
            .rev()
            .find(|p| p.key == key)
            .map(|p| p.value.as_str())
    }

    pub(super) fn required(&self, key: &str) -> Result<&str, VgdlError> {
        self.get(key)
            .ok_or_else(|| self.err(format!("the rule needs its {key}=")))
    }

    pub(super) fn int(&self, key: &str, default: i32) -> Result<i32, VgdlError> {
        match self.get(key) {
            None => Ok(default),
            Some(v) => v
                .parse()
                .map_err(|_| self.err(format!("{key}={v} is not a whole number"))),
        }
    }

    pub(super) fn float(&self, key: &str, default: f64) -> Result<f64, VgdlError> {
        match self.get(key) {
            None => Ok(default),
            Some(v) => v
                .parse()
                .map_err(|_| self.err(format!("{key}={v} is not a number"))),
        }
    }

    pub(super) fn flag(&self, key: &str) -> Result<bool, VgdlError> {
        match self.get(key) {
            None => Ok(false),
            Some(v) if v.eq_ignore_ascii_case("true") => Ok(true),
            Some(v) if v.eq_ignore_ascii_case("false") => Ok(false),
            Some(v) => Err(self.err(format!("{key}={v} is neither True nor False"))),
        }
    }
}
