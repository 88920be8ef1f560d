//! What an interaction rule does when two sprites meet (or a sprite meets the edge, or the
//! clock runs it), and what it scores: one function per effect, in files by family.

mod kill;
mod motion;
mod resources;
mod spawn;
mod transform;

use transform::Handover;

use super::{At, State, FIRED_RULES};
use crate::rules::{Effect, Kind, Rule};

/// What an effect adds to the score once it has acted (GVGAI's `applyScore`).
enum Score {
    /// The rule's score change (`scoreChange`).
    Rule,
    /// Nothing: the effect's condition did not hold.
    Nothing,
    /// Another change: `subtractHealthPoints`' `scoreChangeIfKilled`, when it killed.
    Instead(i32),
}

impl Score {
    /// The rule's score change when `held`, else nothing.
    fn when(held: bool) -> Score {
        if held {
            Score::Rule
        } else {
            Score::Nothing
        }
    }
}

impl State {
    /// Applies `rule` to `s1` (meeting `s2`, or the edge), scoring as GVGAI scores.
    pub(super) fn apply(&mut self, rule: &Rule, s1: At, s2: Option<At>) {
        self.apply_as(rule, s1, s2, false);
    }

    /// [`Self::apply`]; `timed` for a clock's rule, whose score change always applies as
    /// written (GVGAI scores the time effect, not the effect it runs).
    pub(super) fn apply_as(&mut self, rule: &Rule, s1: At, s2: Option<At>, timed: bool) {
        if rule.index < FIRED_RULES {
            self.fired[rule.index / 64] |= 1 << (rule.index % 64);
        }
        let change = match self.act(rule, s1, s2) {
            _ if timed => Some(rule.score),
            Score::Rule => Some(rule.score),
            Score::Nothing => None,
            Score::Instead(change) => Some(change),
        };
        if let Some(change) = change {
            self.score += f64::from(change);
        }
    }

    /// A rule run on no sprite (a clock `addTimer` started): only the effects that need no
    /// sprite act; its score change applies in any case.
    pub(super) fn apply_without_sprites(&mut self, rule: &Rule) {
        match &rule.effect {
            Effect::TransformToAll {
                from,
                to,
                kill_second,
                force_orientation,
            } => {
                let how = Handover::new(None, *kill_second, *force_orientation);
                self.transform_to_all(*from, *to, how);
            }
            Effect::KillAll { what } => {
                self.kill_all(*what);
            }
            _ => {}
        }
        self.score += f64::from(rule.score);
    }

    /// `rule`'s effect on `s1` (meeting `s2`, or the edge, or nothing for the clock's rules).
    fn act(&mut self, rule: &Rule, s1: At, s2: Option<At>) -> Score {
        match &rule.effect {
            Effect::KillSprite => self.kill_sprite(s1),
            Effect::KillBoth => self.kill_both(s1, s2),
            Effect::KillAll { what } => self.kill_all(*what),
            Effect::KillIfFrontal => self.kill_if_frontal(s1, s2, true),
            Effect::KillIfNotFrontal => self.kill_if_frontal(s1, s2, false),
            Effect::KillIfFromAbove => self.kill_if_from_above(s1, s2),
            Effect::KillIfHasMore { resource, limit } => {
                self.kill_if_has_more(s1, *resource, *limit)
            }
            Effect::KillIfHasLess { resource, limit } => {
                self.kill_if_has_less(s1, *resource, *limit)
            }
            Effect::KillIfOtherHasMore {
                resource,
                limit,
                subtract,
            } => self.kill_if_other_has_more(s1, s2, *resource, *limit, *subtract),
            Effect::TransformTo {
                to,
                kill_second,
                force_orientation,
            } => self.transform_to(s1, *to, Handover::new(s2, *kill_second, *force_orientation)),
            Effect::TransformToAll {
                from,
                to,
                kill_second,
                force_orientation,
            } => {
                let how = Handover::new(s2, *kill_second, *force_orientation);
                self.transform_to_all(*from, *to, how)
            }
            Effect::TransformIfCount {
                to,
                count,
                geq,
                leq,
                otherwise,
                kill_second,
                force_orientation,
            } => {
                let how = Handover::new(s2, *kill_second, *force_orientation);
                self.transform_if_count(s1, *to, *count, *geq..=*leq, *otherwise, how)
            }
            Effect::TransformToRandomChild {
                of,
                kill_second,
                force_orientation,
            } => {
                let how = Handover::new(s2, *kill_second, *force_orientation);
                self.transform_to_random_child(s1, *of, how)
            }
            Effect::TransformToSingleton {
                to,
                back,
                take_orientation,
            } => self.transform_to_singleton(s1, s2, *to, *back, *take_orientation),
            Effect::CloneSprite => self.clone_sprite(s1),
            Effect::Spawn { what } => self.spawn(rule, s1, *what),
            Effect::SpawnIfHasLess {
                resource,
                limit,
                what,
            } => self.spawn_if_has_less(rule, s1, *resource, *limit, *what),
            Effect::SpawnIfHasMore {
                resource,
                limit,
                what,
                spend,
            } => self.spawn_if_has_more(rule, s1, *resource, *limit, *what, *spend),
            Effect::SpawnBehind { what } => self.spawn_behind(rule, s2, *what),
            Effect::SpawnBeside {
                what,
                dir,
                step_back,
            } => self.spawn_beside(rule, s2, *what, *dir, *step_back),
            Effect::StepBack { pixel_perfect } => self.step_back(s1, s2, *pixel_perfect),
            Effect::UndoAll { except } => self.undo_all(except),
            Effect::BounceForward => self.bounce_forward(s1, s2),
            Effect::PullWithIt { pixel_perfect } => self.pull_with_it(rule, s1, s2, *pixel_perfect),
            Effect::Align { orient } => self.align(s1, s2, *orient),
            Effect::AttractGaze { align } => self.attract_gaze(rule, s1, s2, *align),
            Effect::ReverseDirection => self.reverse_direction(s1),
            Effect::TurnAround => self.turn_around(s1),
            Effect::FlipDirection => self.flip_direction(s1),
            Effect::WrapAround => self.wrap_around(s1),
            Effect::TeleportToExit => self.teleport_to_exit(s1, s2),
            Effect::ChangeResource {
                resource,
                value,
                kill_resource,
            } => self.change_resource(s1, s2, *resource, *value, *kill_resource),
            Effect::CollectResource { kill_resource } => {
                self.collect_resource(s1, s2, *kill_resource)
            }
            Effect::CollectResourceIfHeld {
                held,
                value,
                kill_resource,
            } => self.collect_resource_if_held(s1, s2, *held, *value, *kill_resource),
            Effect::AddHealthPoints { value, kill_second } => {
                self.add_health_points(s1, s2, *value, *kill_second)
            }
            Effect::AddHealthPointsToMax { value, kill_second } => {
                self.add_health_points_to_max(s1, s2, *value, *kill_second)
            }
            Effect::SubtractHealthPoints {
                value,
                limit,
                score_if_killed,
                of,
            } => self.subtract_health_points(s1, *value, *limit, *score_if_killed, *of),
            Effect::ShieldFrom { what, effect } => self.shield_from(s1, *what, effect),
            Effect::SetSpeedForAll { what, value } => self.set_speed_for_all(*what, *value),
            Effect::AddTimer {
                timer,
                repeating,
                effect,
                name,
            } => {
                self.add_timer(rule, *timer, *repeating, effect, name);
                Score::Rule
            }
        }
    }

    /// `shieldFrom`: this tick, rules with `effect` between `s1`'s type and `what` are off.
    fn shield_from(&mut self, s1: At, what: Kind, effect: &str) -> Score {
        self.shields.push((s1.0, what, effect.to_string()));
        Score::Rule
    }

    /// `setSpeedForAll`: every sprite of `what` and its subtypes gets speed `value`.
    fn set_speed_for_all(&mut self, what: Kind, value: f64) -> Score {
        let rules = self.rules.clone();
        for &k in &rules.subtypes[what] {
            for s in self.groups[k].iter_mut() {
                s.speed = value;
            }
        }
        Score::Rule
    }
}
