//! The termination set compiled, in order.

use super::{error, sprite_named, Kind, ParamReader, Term};
use crate::description::{GameDesc, Termination, VgdlError};

/// Compiles the termination set, listing in `missing` the terminations and parameters the
/// engine does not run (those are left out).
pub(super) fn compile(
    desc: &GameDesc,
    file: &str,
    kind_of: &dyn Fn(&str) -> Option<Kind>,
    missing: &mut Vec<VgdlError>,
) -> Result<Vec<Term>, VgdlError> {
    let mut terminations = Vec::new();
    for t in &desc.terminations {
        let Some(allowed) = allowed_params(&t.class) else {
            missing.push(error(
                file,
                t.line,
                format!("the termination {} is not supported yet", t.class),
            ));
            continue;
        };
        if let Some(p) = t.params.iter().find(|p| !allowed.contains(&p.key.as_str())) {
            missing.push(error(
                file,
                t.line,
                format!(
                    "the parameter {}={} of {} is not supported yet",
                    p.key, p.value, t.class
                ),
            ));
            continue;
        }
        terminations.push(termination(t, file, kind_of)?);
    }
    Ok(terminations)
}

/// The parameters a termination class reads; none for a class the engine does not run.
fn allowed_params(class: &str) -> Option<&'static [&'static str]> {
    Some(match class {
        "SpriteCounter" => &["stype", "limit", "win", "count_score"],
        "MultiSpriteCounter" => &[
            "stype1",
            "stype2",
            "stype3",
            "limit",
            "min",
            "win",
            "count_score",
        ],
        "Timeout" => &["limit", "win", "count_score"],
        "SpriteCounterMore" => &["stype", "limit", "win", "count_score"],
        "MultiSpriteCounterSubTypes" => &["stype1", "limit", "subTypesNum", "win", "count_score"],
        _ => return None,
    })
}

/// The termination `t`, of a class the engine runs.
fn termination(
    t: &Termination,
    file: &str,
    kind_of: &dyn Fn(&str) -> Option<Kind>,
) -> Result<Term, VgdlError> {
    let reader = ParamReader {
        params: &t.params,
        file,
        line: t.line,
    };
    let lookup = |name: &str| sprite_named(kind_of, file, t.line, name);
    let win = reader.get("win").is_some_and(|w| {
        w.split(',')
            .next()
            .unwrap_or("")
            .eq_ignore_ascii_case("true")
    });
    let limit = reader.int("limit", 0)?;
    Ok(match t.class.as_str() {
        "SpriteCounter" => Term::SpriteCounter {
            kind: lookup(reader.required("stype")?)?,
            limit,
            win,
        },
        "MultiSpriteCounter" => Term::MultiSpriteCounter {
            kinds: ["stype1", "stype2", "stype3"]
                .iter()
                .filter_map(|k| reader.get(k))
                .map(lookup)
                .collect::<Result<_, _>>()?,
            limit,
            min: reader.flag("min")?,
            win,
        },
        "SpriteCounterMore" => Term::SpriteCounterMore {
            kind: lookup(reader.required("stype")?)?,
            limit,
            win,
        },
        "MultiSpriteCounterSubTypes" => Term::MultiSpriteCounterSubTypes {
            kind: lookup(reader.required("stype1")?)?,
            limit,
            subtypes: reader.int("subTypesNum", -1)?,
            win,
        },
        _ => Term::Timeout { limit, win },
    })
}
