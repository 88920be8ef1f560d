//! The window's small pure helpers: a candidate card's first clause and the gauge's count
//! axis (unit tests of `studio-app` before; here so the root's test command runs them, since
//! the GUI crates are not default members of the workspace).

use level_studio::app::analysis::gauge::count_step;
use level_studio::app::generation::candidates::first_clause;

/// Issue 31, D26: a card without a figure says why beside its badge, never the badge's word
/// again.
#[test]
fn a_card_without_a_figure_does_not_repeat_its_badge() {
    assert_eq!(
        first_clause("LR-like · LR A* passes · LoZ A* fails"),
        "LR-like"
    );
    assert_eq!(
        first_clause("Lode Runner-like: its own game's agent is stuck"),
        "Lode Runner-like"
    );
    let long = first_clause(&"x".repeat(40));
    assert_eq!(long.chars().count(), 28);
}

#[test]
fn the_count_axis_covers_the_tallest_bar_in_three_round_steps() {
    assert_eq!(count_step(1.0), 1.0);
    assert_eq!(count_step(3.0), 1.0);
    assert_eq!(count_step(4.0), 2.0);
    assert_eq!(count_step(12.0), 5.0);
    assert_eq!(count_step(30.0), 10.0);
    assert_eq!(count_step(70.0), 25.0);
    assert_eq!(count_step(5000.0), 1667.0);
}

/// Issue 69, W19: the curve's axes fit the data: an all-zero curve gets 0 to 1 (not −2 to 2),
/// and one level's dot sits inside the plot, not on its border.
#[test]
fn the_curve_axes_fit_the_data() {
    use level_studio::app::pack::pack_strip::curve_bounds;
    assert_eq!(
        curve_bounds(&[[1.0, 0.0], [2.0, 0.0], [3.0, 0.0]]),
        ([0.5, 3.5], [0.0, 1.0])
    );
    let (xs, ys) = curve_bounds(&[[1.0, 4.0]]);
    assert!(xs[0] < 1.0 && xs[1] > 1.0, "{xs:?}");
    assert!(ys[0] < 4.0 && ys[1] > 4.0, "the dot is inside: {ys:?}");
    let (_, ys) = curve_bounds(&[[1.0, 2.0], [2.0, 12.0]]);
    assert_eq!(ys[0], 0.0);
    assert!(ys[1] > 12.0 && ys[1] < 14.0, "{ys:?}");
    let (_, ys) = curve_bounds(&[[1.0, -1.0], [2.0, 1.0]]);
    assert!(ys[0] < -1.0, "{ys:?}");
}
