//! The interaction set compiled: each rule read (its effect, score change, probability and
//! repeats), then filed as GVGAI files it: by the clock (`TIME`), at the screen's edge
//! (`EOS`), or under its pair of types.

use std::collections::HashMap;

use super::{error, sprite_named, Effect, Kind, ParamReader, Rule, Timed, MAX_REPEAT};
use crate::description::{GameDesc, Interaction, VgdlError};

/// The interaction set, compiled.
pub(super) struct Interactions {
    /// The rules between pairs of types, by pair in the order each pair first appears.
    pub(super) pairs: Vec<(Kind, Kind, Vec<Rule>)>,
    /// The types with edge rules, one entry per rule line.
    pub(super) eos: Vec<Kind>,
    /// Each type's edge rules.
    pub(super) eos_rules: Vec<Vec<Rule>>,
    /// The clock's rules, in the file's order.
    pub(super) timed: Vec<Timed>,
}

/// Compiles the interaction set of a game with `types` sprite types, listing in `missing`
/// the effects and parameters the engine does not run.
pub(super) fn compile(
    desc: &GameDesc,
    file: &str,
    kind_of: &dyn Fn(&str) -> Option<Kind>,
    types: usize,
    missing: &mut Vec<VgdlError>,
) -> Result<Interactions, VgdlError> {
    let mut found = Interactions {
        pairs: Vec::new(),
        eos: Vec::new(),
        eos_rules: vec![Vec::new(); types],
        timed: Vec::new(),
    };
    let mut pair_at: HashMap<(Kind, Kind), usize> = HashMap::new();
    for (index, i) in desc.interactions.iter().enumerate() {
        let lookup = |name: &str| sprite_named(kind_of, file, i.line, name);
        let is = |n: &str, w: &str| n.eq_ignore_ascii_case(w);
        let timed = is(&i.actor, "TIME") || is(&i.actee, "TIME");
        let Some((rule, repeat)) = read_rule(index, i, timed, file, &lookup, missing)? else {
            continue;
        };
        if timed {
            found.timed.push(timed_rule(i, rule, file, &lookup)?);
            continue;
        }
        if is(&i.actee, "EOS") || is(&i.actor, "EOS") {
            let k = if is(&i.actee, "EOS") {
                lookup(&i.actor)?
            } else {
                lookup(&i.actee)?
            };
            found.eos.push(k);
            for _ in 0..repeat {
                found.eos_rules[k].push(rule.clone());
            }
            continue;
        }
        let a = lookup(&i.actor)?;
        let b = lookup(&i.actee)?;
        let pairs = &mut found.pairs;
        let at = *pair_at.entry((a, b)).or_insert_with(|| {
            pairs.push((a, b, Vec::new()));
            pairs.len() - 1
        });
        for _ in 0..repeat {
            pairs[at].2.push(rule.clone());
        }
    }
    Ok(found)
}

/// The rule of interaction `i`, number `index` in the set, with its count of repeats; none
/// (listed in `missing`) for an effect the engine does not run.
fn read_rule(
    index: usize,
    i: &Interaction,
    timed: bool,
    file: &str,
    lookup: &dyn Fn(&str) -> Result<Kind, VgdlError>,
    missing: &mut Vec<VgdlError>,
) -> Result<Option<(Rule, usize)>, VgdlError> {
    let reader = ParamReader {
        params: &i.params,
        file,
        line: i.line,
    };
    let Some(effect) = Effect::named(&i.effect, &reader, lookup)? else {
        missing.push(error(
            file,
            i.line,
            format!("the effect {} is not supported yet", i.effect),
        ));
        return Ok(None);
    };
    let own = Effect::own_params(&i.effect);
    for p in &i.params {
        let general = matches!(
            p.key.as_str(),
            "scoreChange" | "prob" | "repeat" | "counter" | "counterElse" | "count"
        );
        let timing = timed && matches!(p.key.as_str(), "timer" | "repeating" | "nextExecution");
        let delegated = i.effect == "addTimer"
            && reader
                .get("ftype")
                .is_some_and(|f| Effect::own_params(f).contains(&p.key.as_str()));
        if !general && !timing && !delegated && !own.contains(&p.key.as_str()) {
            missing.push(error(
                file,
                i.line,
                format!(
                    "the parameter {}={} of {} is not supported yet",
                    p.key, p.value, i.effect
                ),
            ));
        }
    }
    let score = match reader.get("scoreChange") {
        None => 0,
        // GVGAI reads the first player's part of `a,b`.
        Some(v) => v.split(',').next().unwrap_or("0").parse().map_err(|_| {
            error(
                file,
                i.line,
                format!("scoreChange={v} is not a whole number"),
            )
        })?,
    };
    let rule = Rule {
        effect,
        score,
        prob: reader.float("prob", 1.0)?,
        line: i.line,
        name: i.effect.clone(),
        index,
    };
    let repeat = reader.int("repeat", 1)?;
    // GVGAI stores a rule once per repeat: a bound keeps a slip of the keyboard from
    // asking for hundreds of gigabytes (F27).
    if !(0..=MAX_REPEAT).contains(&repeat) {
        return Err(error(
            file,
            i.line,
            format!("repeat={repeat}: a rule repeats 0 to {MAX_REPEAT} times"),
        ));
    }
    Ok(Some((rule, repeat as usize)))
}

/// A clock's rule (`TIME` beside a sprite): on the sprites named beside `TIME`, first run at
/// tick 0 unless `nextExecution` is given, which plans it `timer` ticks in.
fn timed_rule(
    i: &Interaction,
    rule: Rule,
    file: &str,
    lookup: &dyn Fn(&str) -> Result<Kind, VgdlError>,
) -> Result<Timed, VgdlError> {
    let reader = ParamReader {
        params: &i.params,
        file,
        line: i.line,
    };
    let k = if i.actor.eq_ignore_ascii_case("TIME") {
        lookup(&i.actee)?
    } else {
        lookup(&i.actor)?
    };
    let timer = reader.int("timer", -1)?;
    let repeating = reader.flag("repeating")?;
    // Planned again `timer` ticks on: at 0 or fewer it is due again in the same
    // tick, for ever (GVGAI's clock loops there too).
    if repeating && timer < 1 {
        return Err(error(
            file,
            i.line,
            format!(
                "timer={timer} with repeating=True: a repeating TIME rule needs a \
                 timer of at least 1 tick, or it runs again in the same tick for ever"
            ),
        ));
    }
    let next = if reader.int("nextExecution", -1)? != -1 {
        timer
    } else {
        -1
    };
    Ok(Timed {
        kind: Some(k),
        rule,
        timer,
        repeating,
        next,
    })
}
