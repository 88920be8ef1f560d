//! `list [--json]`: the registered games, their generators and the conditions each takes.

use anyhow::Result;
use clap::Args;
use serde_json::{json, Value};
use std::process::ExitCode;
use studio_core::game::{self, ConditionKind, ConditionValue};

#[derive(Args, Debug)]
pub struct ListArgs {
    /// Print one JSON object with a `games` array.
    #[arg(long)]
    pub json: bool,
}

fn value_json(value: ConditionValue) -> Value {
    match value {
        ConditionValue::Int(v) => json!(v),
        ConditionValue::Float(v) => json!(v),
        ConditionValue::Symmetry(s) => json!(s.name()),
        ConditionValue::Flag(b) => json!(b),
    }
}

fn kind_json(kind: &ConditionKind) -> Value {
    match kind {
        ConditionKind::Int { min, max } => json!({"type": "int", "min": min, "max": max}),
        ConditionKind::Float { min, max, .. } => {
            json!({"type": "float", "min": min, "max": max})
        }
        ConditionKind::Symmetry => {
            json!({"type": "symmetry", "values": ["none", "vertical", "horizontal", "quadrant"]})
        }
        ConditionKind::Flag => json!({"type": "flag"}),
    }
}

fn kind_text(kind: &ConditionKind) -> String {
    match kind {
        ConditionKind::Int { min, max } => format!("{min}..={max}"),
        ConditionKind::Float { min, max, .. } => format!("{min}..={max}"),
        ConditionKind::Symmetry => "none|vertical|horizontal|quadrant".into(),
        ConditionKind::Flag => "true|false".into(),
    }
}

/// The registry as JSON: `{"games": [{id, name, tiles, sizes, generators: [...]}]}`.
pub fn registry_json() -> Value {
    let games: Vec<Value> = game::games()
        .iter()
        .map(|g| {
            let rules = g.size_rules();
            let generators: Vec<Value> = g
                .generators()
                .iter()
                .map(|gen| {
                    let conditions: Vec<Value> = gen
                        .conditions()
                        .iter()
                        .map(|c| {
                            let mut o = json!({
                                "key": c.key,
                                "label": c.label,
                                "default": value_json(c.default),
                                "required": c.required,
                                "help": c.help,
                            });
                            if let (Value::Object(o), Value::Object(k)) = (&mut o, kind_json(&c.kind)) {
                                o.extend(k);
                            }
                            o
                        })
                        .collect();
                    json!({
                        "id": gen.id(),
                        "label": gen.label(),
                        "description": gen.description(),
                        "weights": gen.weights_file(),
                        "conditions": conditions,
                    })
                })
                .collect();
            json!({
                "id": g.id().as_str(),
                "name": g.name(),
                "tiles": g.tiles().iter().map(|t| json!({"ascii": t.ascii.to_string(), "name": t.name})).collect::<Vec<_>>(),
                "sizes": {"min": [rules.min.0, rules.min.1], "max": [rules.max.0, rules.max.1]},
                "generators": generators,
            })
        })
        .collect();
    json!({ "games": games })
}

pub fn run(args: &ListArgs) -> Result<ExitCode> {
    if args.json {
        println!("{}", registry_json());
        return Ok(ExitCode::SUCCESS);
    }
    for g in game::games() {
        let rules = g.size_rules();
        let tiles: Vec<String> = g
            .tiles()
            .iter()
            .map(|t| format!("{} {}", t.ascii, t.name))
            .collect();
        println!(
            "{} ({}): {}; sizes {}x{} to {}x{}",
            g.id(),
            g.name(),
            tiles.join(", "),
            rules.min.0,
            rules.min.1,
            rules.max.0,
            rules.max.1
        );
        for gen in g.generators() {
            println!(
                "  --model {:<18} {} — {}",
                gen.id(),
                gen.label(),
                gen.description()
            );
            for c in gen.conditions() {
                println!(
                    "      {:<12} {:<32} default {}{}",
                    c.key,
                    kind_text(&c.kind),
                    c.default,
                    if c.required { " (required)" } else { "" }
                );
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}
