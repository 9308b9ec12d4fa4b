//! Published seeds keep giving the same mazes natively (tests/browser.rs checks the same
//! fingerprints in a real browser).

mod common;

#[test]
fn seed_2026_gives_the_recorded_maze_sets_natively() {
    assert_eq!(
        common::sets::fingerprints(),
        common::sets::EXPECTED,
        "the maze sets for a published seed changed"
    );
}
