//! The ridge-regression difficulty predictor over the graph variables, with its own small
//! linear algebra (the normal equations solved by Gaussian elimination), its model file, and
//! the playtest CSV it can be re-trained from.
//!
//! Features are standardised (mean 0, standard deviation 1 over the training rows) before the
//! penalty applies, and the intercept is not penalised, as in common ridge implementations.

pub mod training;

use crate::variables::GraphVariables;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The coefficients that ship with the studio (`models/longcat-ridge.ron`).
pub const SHIPPED_MODEL: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../../models/longcat-ridge.ron"
));

/// The largest magnitude of a coefficient, the intercept or a training label (the shipped
/// model's are below 10). With [`MAX_MEAN`] and [`MIN_SCALE`] it keeps every prediction
/// finite: a graph variable is a count below 2⁶⁴ ≈ 1.8e19, so each term is at most
/// 1e12 · (1.8e19 + 1e20) / 1e-6 ≈ 1.2e38, far below `f64::MAX`.
pub const MAX_WEIGHT: f64 = 1e12;
/// The largest magnitude of a feature mean, and the largest scale (graph variables are counts
/// below 2⁶⁴).
pub const MAX_MEAN: f64 = 1e20;
/// The smallest scale: a fit gives a near-constant feature (variance at most 1e-12) the scale
/// 1 and any other its standard deviation, which is above 1e-6.
pub const MIN_SCALE: f64 = 1e-6;
/// The largest mean solve time a playtest CSV may give, in seconds (a day).
pub const MAX_MEAN_SECONDS: f64 = 86_400.0;

/// Why a predictor could not be trained, loaded or read from a CSV.
#[derive(Debug, thiserror::Error)]
pub enum PredictorError {
    /// Fewer training rows than the fit needs.
    #[error("need at least {needed} training rows, got {got}")]
    TooFewRows {
        /// The fewest rows the fit needs.
        needed: usize,
        /// The rows given.
        got: usize,
    },
    /// A training row has the wrong number of features.
    #[error("row {row} has {found} features, expected {expected}")]
    RowLength {
        /// The row, counted from 1.
        row: usize,
        /// The features it has.
        found: usize,
        /// The features of the first row.
        expected: usize,
    },
    /// A feature or label is NaN or infinite.
    #[error("row {row} holds a value that is not a finite number")]
    NotFinite {
        /// The row, counted from 1.
        row: usize,
    },
    /// A label beyond ±[`MAX_WEIGHT`]: no difficulty or time is that large.
    #[error(
        "row {row}: the label {shown} is beyond ±{max:e}, not a difficulty or a time",
        shown = figure(*.label),
        max = MAX_WEIGHT
    )]
    AbsurdLabel {
        /// The row, counted from 1.
        row: usize,
        /// The label.
        label: f64,
    },
    /// The fit gave a figure that is not finite or beyond what a model file may hold (see
    /// [`RidgeModel::check`]); nothing is written.
    #[error("the fit is unusable: {reason}")]
    UnusableFit {
        /// The figure and why, in words.
        reason: String,
    },
    /// The normal equations have no unique solution (only with a zero penalty).
    #[error("the normal equations are singular; use a positive ridge penalty")]
    Singular,
    /// The model file is malformed.
    #[error("{path}:{line}:{column}: {message}")]
    ModelFile {
        /// The model file, as given to the reader.
        path: String,
        /// The line of the error, counted from 1.
        line: usize,
        /// The column of the error, counted from 1.
        column: usize,
        /// What the RON parser reported.
        message: String,
    },
    /// The model's features do not match the graph variables this build computes.
    #[error("the model uses features {found:?}, this build knows {known:?}")]
    UnknownFeatures {
        /// The feature names in the model file.
        found: Vec<String>,
        /// The graph variables this build computes, in order.
        known: Vec<String>,
    },
    /// A malformed line in a playtest CSV.
    #[error("{path}:{line}: {message}")]
    Csv {
        /// The CSV file.
        path: PathBuf,
        /// The line of the problem, counted from 1.
        line: usize,
        /// What is wrong with it.
        message: String,
    },
    /// A file could not be read.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The operating system's error.
        source: std::io::Error,
    },
    /// A file that cannot be read as text (too large, not UTF-8).
    #[error(transparent)]
    File(#[from] studio_core::io::FileError),
}

/// A fitted ridge model: `prediction = intercept + Σ coefficient_i · (x_i − mean_i) / scale_i`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RidgeModel {
    /// Feature names, in [`GraphVariables::NAMES`] order.
    pub features: Vec<String>,
    /// Per-feature training mean.
    pub means: Vec<f64>,
    /// Per-feature training standard deviation (1 for a constant feature).
    pub scales: Vec<f64>,
    /// Coefficients on the standardised features.
    pub coefficients: Vec<f64>,
    /// The intercept (the mean training label).
    pub intercept: f64,
    /// The ridge penalty the model was fitted with.
    pub alpha: f64,
    /// What the label is (`"player-model difficulty"` or `"mean seconds"`).
    pub label: String,
    /// How the model was obtained, in words (the command and data).
    pub provenance: String,
    /// Training rows.
    pub rows: usize,
    /// Mean squared error on the training rows.
    pub training_mse: f64,
    /// Coefficient of determination on the training rows.
    pub training_r2: f64,
}

impl RidgeModel {
    /// Fits `y ≈ f(x)` with ridge penalty `alpha` on standardised features.
    ///
    /// # Errors
    /// [`PredictorError`] for too few or ragged rows, non-finite values, a label beyond
    /// ±[`MAX_WEIGHT`], a fit whose figures [`RidgeModel::check`] refuses, or (with
    /// `alpha = 0`) a singular system.
    pub fn fit(
        features: &[&str],
        x: &[Vec<f64>],
        y: &[f64],
        alpha: f64,
    ) -> Result<Self, PredictorError> {
        let k = features.len();
        if x.len() < 2 || x.len() != y.len() {
            return Err(PredictorError::TooFewRows {
                needed: 2,
                got: x.len().min(y.len()),
            });
        }
        for (row, (xs, &label)) in x.iter().zip(y).enumerate() {
            if xs.len() != k {
                return Err(PredictorError::RowLength {
                    row: row + 1,
                    found: xs.len(),
                    expected: k,
                });
            }
            if !label.is_finite() || xs.iter().any(|v| !v.is_finite()) {
                return Err(PredictorError::NotFinite { row: row + 1 });
            }
            if label.abs() > MAX_WEIGHT {
                return Err(PredictorError::AbsurdLabel {
                    row: row + 1,
                    label,
                });
            }
        }
        let n = x.len() as f64;
        let means: Vec<f64> = (0..k)
            .map(|j| x.iter().map(|r| r[j]).sum::<f64>() / n)
            .collect();
        let scales: Vec<f64> = (0..k)
            .map(|j| {
                let var = x.iter().map(|r| (r[j] - means[j]).powi(2)).sum::<f64>() / n;
                if var > 1e-12 {
                    var.sqrt()
                } else {
                    1.0
                }
            })
            .collect();
        let intercept = y.iter().sum::<f64>() / n;
        // Normal equations on standardised features: (ZᵀZ + αI) β = Zᵀ(y − ȳ).
        let mut a = vec![vec![0.0; k]; k];
        let mut b = vec![0.0; k];
        let mut z = vec![0.0; k];
        for (row, &label) in x.iter().zip(y) {
            for j in 0..k {
                z[j] = (row[j] - means[j]) / scales[j];
            }
            for i in 0..k {
                b[i] += z[i] * (label - intercept);
                for j in 0..k {
                    a[i][j] += z[i] * z[j];
                }
            }
        }
        for (i, row) in a.iter_mut().enumerate() {
            row[i] += alpha;
        }
        let coefficients = solve(a, b).ok_or(PredictorError::Singular)?;
        let mut model = Self {
            features: features.iter().map(|s| s.to_string()).collect(),
            means,
            scales,
            coefficients,
            intercept,
            alpha,
            label: String::new(),
            provenance: String::new(),
            rows: x.len(),
            training_mse: 0.0,
            training_r2: 0.0,
        };
        let mse = x
            .iter()
            .zip(y)
            .map(|(r, &l)| (model.predict_row(r) - l).powi(2))
            .sum::<f64>()
            / n;
        let var = y.iter().map(|l| (l - intercept).powi(2)).sum::<f64>() / n;
        model.training_mse = mse;
        model.training_r2 = if var > 0.0 { 1.0 - mse / var } else { 1.0 };
        model
            .check()
            .map_err(|reason| PredictorError::UnusableFit { reason })?;
        Ok(model)
    }

    /// Checks every figure: means, coefficients and the intercept finite and within
    /// [`MAX_MEAN`] and [`MAX_WEIGHT`], scales from [`MIN_SCALE`] to [`MAX_MEAN`], and a finite
    /// penalty, training error and R². Within these, [`RidgeModel::predict`] is finite for
    /// every level.
    ///
    /// # Errors
    /// The first figure that is not, in words.
    pub fn check(&self) -> Result<(), String> {
        let outside = |what: &str, values: &[f64], low: f64, high: f64| {
            values
                .iter()
                .enumerate()
                .find(|(_, v)| !(v.is_finite() && (low..=high).contains(*v)))
                .map(|(j, v)| {
                    let feature = self.features.get(j).map_or("?", String::as_str);
                    format!(
                        "the {what} of {feature:?} is {}, not a finite number from {low:e} to \
                         {high:e}",
                        figure(*v)
                    )
                })
        };
        let problem = outside("mean", &self.means, -MAX_MEAN, MAX_MEAN)
            .or_else(|| outside("scale", &self.scales, MIN_SCALE, MAX_MEAN))
            .or_else(|| outside("coefficient", &self.coefficients, -MAX_WEIGHT, MAX_WEIGHT));
        if let Some(problem) = problem {
            return Err(problem);
        }
        let figures = [
            ("intercept", self.intercept, MAX_WEIGHT),
            ("alpha", self.alpha, f64::MAX),
            ("training_mse", self.training_mse, f64::MAX),
            ("training_r2", self.training_r2, f64::MAX),
        ];
        for (name, v, most) in figures {
            if !(v.is_finite() && v.abs() <= most) {
                return Err(format!(
                    "{name} is {}, not a finite number within ±{most:e}",
                    figure(v)
                ));
            }
        }
        if self.alpha < 0.0 || self.training_mse < 0.0 {
            return Err("alpha and training_mse cannot be negative".into());
        }
        Ok(())
    }

    /// The prediction for one row of raw features.
    pub fn predict_row(&self, x: &[f64]) -> f64 {
        let mut y = self.intercept;
        for (j, &v) in x.iter().enumerate().take(self.coefficients.len()) {
            y += self.coefficients[j] * (v - self.means[j]) / self.scales[j];
        }
        y
    }

    /// The coefficients on the raw (unstandardised) features, and the raw intercept.
    pub fn raw_coefficients(&self) -> (Vec<f64>, f64) {
        let raw: Vec<f64> = self
            .coefficients
            .iter()
            .zip(&self.scales)
            .map(|(c, s)| c / s)
            .collect();
        let intercept =
            self.intercept - raw.iter().zip(&self.means).map(|(c, m)| c * m).sum::<f64>();
        (raw, intercept)
    }

    /// The predicted difficulty of a level from its graph variables, never below 0 (a
    /// difficulty or a time cannot be negative; the linear fit can dip below on tiny levels).
    /// Finite for every level when the model passed [`RidgeModel::check`] (every loaded or
    /// fitted model has; see [`MAX_WEIGHT`]).
    pub fn predict(&self, variables: &GraphVariables) -> f64 {
        self.predict_row(&variables.to_vec()).max(0.0)
    }

    /// The model as RON text.
    ///
    /// # Errors
    /// [`studio_core::io::FileError::Serialise`] when a coefficient cannot be written.
    pub fn to_ron(&self) -> Result<String, studio_core::io::FileError> {
        studio_core::io::to_ron(self)
    }

    /// Reads a model from RON text; `path` names it in errors.
    ///
    /// # Errors
    /// [`PredictorError::ModelFile`] with line and column, or
    /// [`PredictorError::UnknownFeatures`] when the features are not the graph variables.
    pub fn from_ron(path: &str, text: &str) -> Result<Self, PredictorError> {
        let model: Self = ron::from_str(text).map_err(|e| PredictorError::ModelFile {
            path: path.to_string(),
            line: e.span.start.line,
            column: e.span.start.col,
            message: e.code.to_string(),
        })?;
        let known: Vec<String> = GraphVariables::NAMES
            .iter()
            .map(|s| s.to_string())
            .collect();
        let k = model.features.len();
        if model.features != known
            || model.means.len() != k
            || model.scales.len() != k
            || model.coefficients.len() != k
        {
            return Err(PredictorError::UnknownFeatures {
                found: model.features,
                known,
            });
        }
        // NaN would predict NaN, shown as 0.00 after the floor at 0; a zero scale divides
        // by zero; a huge coefficient predicts infinity (printed as null).
        model.check().map_err(|message| PredictorError::ModelFile {
            path: path.to_string(),
            line: 1,
            column: 1,
            message,
        })?;
        Ok(model)
    }

    /// Loads a model file.
    ///
    /// # Errors
    /// As [`RidgeModel::from_ron`], or [`PredictorError::Io`].
    pub fn load(path: &Path) -> Result<Self, PredictorError> {
        let text = studio_core::io::read_text(path)?;
        Self::from_ron(&path.display().to_string(), &text)
    }

    /// The model that ships with the studio.
    ///
    /// # Errors
    /// As [`RidgeModel::from_ron`] (only if the shipped file was damaged at build time).
    pub fn shipped() -> Result<Self, PredictorError> {
        Self::from_ron("models/longcat-ridge.ron", SHIPPED_MODEL)
    }
}

/// A number for a message: plain when ordinary, in exponent form when huge or tiny (1e308
/// rather than its 309 digits).
fn figure(v: f64) -> String {
    if v != 0.0 && v.is_finite() && !(1e-6..1e15).contains(&v.abs()) {
        format!("{v:e}")
    } else {
        v.to_string()
    }
}

/// Solves `a x = b` by Gaussian elimination with partial pivoting; `None` when singular.
pub fn solve(mut a: Vec<Vec<f64>>, mut b: Vec<f64>) -> Option<Vec<f64>> {
    let n = b.len();
    let scale = a
        .iter()
        .flatten()
        .fold(0.0f64, |m, v| m.max(v.abs()))
        .max(1.0);
    for col in 0..n {
        let pivot = (col..n).max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))?;
        if a[pivot][col].abs() <= 1e-12 * scale {
            return None;
        }
        a.swap(col, pivot);
        b.swap(col, pivot);
        let (upper, lower) = a.split_at_mut(col + 1);
        let pivot_row = &upper[col];
        for (offset, row) in lower.iter_mut().enumerate() {
            let f = row[col] / pivot_row[col];
            if f != 0.0 {
                for (cell, &p) in row[col..].iter_mut().zip(&pivot_row[col..]) {
                    *cell -= f * p;
                }
                b[col + 1 + offset] -= f * b[col];
            }
        }
    }
    let mut x = vec![0.0; n];
    for row in (0..n).rev() {
        let s: f64 = (row + 1..n).map(|k| a[row][k] * x[k]).sum();
        x[row] = (b[row] - s) / a[row][row];
    }
    Some(x)
}

/// One row of a playtest CSV: which level, and its mean completion time.
#[derive(Clone, Debug, PartialEq)]
pub struct PlaytestRow {
    /// The 1-based line in the CSV.
    pub line: usize,
    /// The level reference as written (`path` or `path#level name`).
    pub level: String,
    /// The level file, resolved against the CSV's folder.
    pub path: PathBuf,
    /// The level's name inside a pack, when given after `#`.
    pub name: Option<String>,
    /// Mean seconds players took to solve it.
    pub mean_seconds: f64,
}

/// The fields of one CSV line: separated by commas and trimmed; a field in double quotes may
/// hold commas, and `""` inside it is one quote (RFC 4180).
///
/// # Errors
/// An unclosed quote, or text after a closing quote.
pub fn csv_fields(line: &str) -> Result<Vec<String>, String> {
    let mut fields = Vec::new();
    let mut chars = line.chars().peekable();
    loop {
        while chars.peek().is_some_and(|c| *c == ' ' || *c == '\t') {
            chars.next();
        }
        let mut field = String::new();
        if chars.peek() == Some(&'"') {
            chars.next();
            loop {
                match chars.next() {
                    Some('"') if chars.peek() == Some(&'"') => {
                        chars.next();
                        field.push('"');
                    }
                    Some('"') => break,
                    Some(c) => field.push(c),
                    None => return Err("a quoted field is not closed".into()),
                }
            }
            while chars.peek().is_some_and(|c| *c == ' ' || *c == '\t') {
                chars.next();
            }
            if chars.peek().is_some_and(|c| *c != ',') {
                return Err(format!("text after the closing quote of {field:?}"));
            }
        } else {
            while let Some(c) = chars.peek().copied().filter(|c| *c != ',') {
                chars.next();
                field.push(c);
            }
            field = field.trim().to_string();
        }
        fields.push(field);
        if chars.next().is_none() {
            return Ok(fields);
        }
    }
}

/// One CSV field: quoted when it holds a comma, a quote, a `#` or spaces at its ends, so
/// that [`csv_fields`] reads it back unchanged.
pub fn csv_field(text: &str) -> String {
    let plain = !text.contains([',', '"', '#']) && text.trim() == text;
    if plain {
        text.to_string()
    } else {
        format!("\"{}\"", text.replace('"', "\"\""))
    }
}

/// Parses a playtest CSV: `level,mean_seconds` per line, an optional header line, blank
/// lines and `#` comment lines ignored. `level` is a path to a level file (relative to the
/// CSV's folder), or `pack.ron#Level name` for one level of a pack; a level holding a comma
/// or a quote is written in double quotes (see [`csv_field`]).
///
/// # Errors
/// [`PredictorError::Csv`] naming the line of the first problem.
pub fn parse_playtest_csv(path: &Path, text: &str) -> Result<Vec<PlaytestRow>, PredictorError> {
    let base = path.parent().unwrap_or(Path::new(""));
    let bad = |line: usize, message: String| PredictorError::Csv {
        path: path.to_path_buf(),
        line,
        message,
    };
    let mut rows = Vec::new();
    let mut seen_content = false;
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let trimmed = raw.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let fields = csv_fields(trimmed).map_err(|m| bad(line, m))?;
        let fields: Vec<&str> = fields.iter().map(String::as_str).collect();
        if fields.len() != 2 {
            return Err(bad(
                line,
                format!(
                    "expected 2 fields `level,mean_seconds`, found {}",
                    fields.len()
                ),
            ));
        }
        let first = !seen_content;
        seen_content = true;
        if first && fields[0].eq_ignore_ascii_case("level") {
            continue;
        }
        if fields[0].is_empty() {
            return Err(bad(line, "the level is empty".into()));
        }
        let mean_seconds: f64 = fields[1].parse().map_err(|_| {
            bad(
                line,
                format!("mean_seconds {:?} is not a number", fields[1]),
            )
        })?;
        if !(0.0..=MAX_MEAN_SECONDS).contains(&mean_seconds) {
            return Err(bad(
                line,
                format!(
                    "mean_seconds {} must be a finite number from 0 to {MAX_MEAN_SECONDS} \
                     (a day)",
                    figure(mean_seconds)
                ),
            ));
        }
        let (file, name) = match fields[0].split_once('#') {
            Some((f, n)) => (f, Some(n.to_string())),
            None => (fields[0], None),
        };
        rows.push(PlaytestRow {
            line,
            level: fields[0].to_string(),
            path: base.join(file),
            name,
            mean_seconds,
        });
    }
    if rows.is_empty() {
        return Err(bad(text.lines().count().max(1), "no data rows".into()));
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_fields_read_back_what_csv_field_writes() {
        for name in [
            "plain",
            "a, b",
            "say \"hi\"",
            " padded ",
            "pack.ron#13 x, y",
            "",
        ] {
            let line = format!("{},12.5", csv_field(name));
            assert_eq!(
                csv_fields(&line).unwrap(),
                vec![name.to_string(), "12.5".into()],
                "{line}"
            );
        }
        assert!(csv_fields("\"open,1").is_err());
        assert!(csv_fields("\"a\"b,1").is_err());
    }

    #[test]
    fn solves_a_small_system() {
        let x = solve(vec![vec![2.0, 1.0], vec![1.0, 3.0]], vec![3.0, 5.0]).unwrap();
        assert!(
            (x[0] - 0.8).abs() < 1e-12 && (x[1] - 1.4).abs() < 1e-12,
            "{x:?}"
        );
        assert!(solve(vec![vec![1.0, 2.0], vec![2.0, 4.0]], vec![1.0, 2.0]).is_none());
    }

    #[test]
    fn csv_errors_name_the_line() {
        let p = Path::new("data/playtest.csv");
        let ok = parse_playtest_csv(
            p,
            "level,mean_seconds\na.ron, 12.5\n\n# note\nb.ron#Two,3\n",
        )
        .unwrap();
        assert_eq!(ok.len(), 2);
        assert_eq!(ok[1].name.as_deref(), Some("Two"));
        assert_eq!(ok[1].line, 5);
        assert_eq!(ok[0].path, Path::new("data/a.ron"));
        let e = parse_playtest_csv(p, "level,mean_seconds\na.ron,12\nb.ron,fast\n").unwrap_err();
        assert!(e.to_string().contains(":3:"), "{e}");
        let e = parse_playtest_csv(p, "a.ron,1,2\n").unwrap_err();
        assert!(e.to_string().contains(":1:"), "{e}");
    }

    #[test]
    fn shipped_model_loads() {
        RidgeModel::shipped().unwrap();
    }

    /// The shipped model's text with `field`'s first number replaced by `value`.
    fn shipped_with(field: &str, value: &str) -> String {
        let at = SHIPPED_MODEL.find(field).unwrap() + field.len();
        let at = at
            + SHIPPED_MODEL[at..]
                .find(|c: char| c == '-' || c.is_ascii_digit())
                .unwrap();
        let end = at + SHIPPED_MODEL[at..].find([',', ']']).unwrap();
        format!("{}{value}{}", &SHIPPED_MODEL[..at], &SHIPPED_MODEL[end..])
    }

    #[test]
    fn a_model_that_could_predict_infinity_is_refused_on_load_naming_the_file() {
        for (field, value, says) in [
            (
                "coefficients: [",
                "1e308",
                "coefficient of \"states\" is 1e308",
            ),
            ("intercept: ", "-1e300", "intercept is -1e300"),
            ("scales: [", "1e-300", "scale of \"states\""),
            ("means: [", "inf", "mean of \"states\" is inf"),
            ("training_mse: ", "NaN", "training_mse is NaN"),
        ] {
            let err = RidgeModel::from_ron("mine.ron", &shipped_with(field, value))
                .unwrap_err()
                .to_string();
            assert!(err.starts_with("mine.ron:") && err.contains(says), "{err}");
        }
    }

    #[test]
    fn a_model_at_every_bound_still_predicts_a_finite_number_for_any_level() {
        let mut m = RidgeModel::shipped().unwrap();
        let k = m.features.len();
        m.means = vec![-MAX_MEAN; k];
        m.scales = vec![MIN_SCALE; k];
        m.coefficients = vec![MAX_WEIGHT; k];
        m.intercept = MAX_WEIGHT;
        m.check().unwrap();
        let most = GraphVariables {
            states: usize::MAX,
            size: usize::MAX,
            branches: usize::MAX,
            solutions: usize::MAX,
            fails: usize::MAX,
            shortest_solution: Some(u32::MAX),
            solution_branches: usize::MAX,
            non_dead: usize::MAX,
            dead: usize::MAX,
            indeterminate: usize::MAX,
            indeterminate_branches: usize::MAX,
        };
        assert!(m.predict(&most).is_finite());
    }

    #[test]
    fn a_fit_on_absurd_labels_or_features_is_refused_in_words() {
        let x: Vec<Vec<f64>> = (0..4).map(|i| vec![f64::from(i)]).collect();
        let err = RidgeModel::fit(&["a"], &x, &[1.0, 2.0, 1e308, 4.0], 1.0).unwrap_err();
        assert!(
            matches!(err, PredictorError::AbsurdLabel { row: 3, .. }),
            "{err}"
        );
        assert!(err.to_string().contains("1e308"), "{err}");
        // Features so large their mean is beyond what a model file may hold: no file.
        let huge: Vec<Vec<f64>> = (0..4).map(|i| vec![1e300 * f64::from(i)]).collect();
        let err = RidgeModel::fit(&["a"], &huge, &[1.0, 2.0, 3.0, 4.0], 1.0).unwrap_err();
        assert!(matches!(err, PredictorError::UnusableFit { .. }), "{err}");
        // A fitted model passes its own check: what training writes, loading reads.
        let fit = RidgeModel::fit(&["a"], &x, &[1.0, 2.0, 3.0, 5.0], 1.0).unwrap();
        fit.check().unwrap();
    }

    #[test]
    fn a_playtest_time_beyond_a_day_is_refused_naming_the_line() {
        let p = Path::new("playtest.csv");
        let e = parse_playtest_csv(p, "level,mean_seconds\na.ron,12\nb.ron,1e308\n").unwrap_err();
        assert!(e.to_string().contains("playtest.csv:3:"), "{e}");
        assert!(e.to_string().contains("86400"), "{e}");
        assert!(parse_playtest_csv(p, "a.ron,86400\n").is_ok());
    }
}
