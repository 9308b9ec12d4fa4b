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

/// The two tables per shape and size in docs/guides/mazes.md, templates and distinct mazes,
/// are the generator's own counts.
#[test]
fn the_readmes_template_and_maze_counts_are_the_generators() {
    use shapemaze::core::maze::generate::distinct_mazes;
    use shapemaze::core::maze::shape::{Shape, ShapeSet};
    use shapemaze::core::maze::templates::TemplateLibrary;
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/guides/mazes.md"))
            .expect("docs/guides/mazes.md");
    // Every table row that starts with a grid size, in order: the templates' table first.
    let rows: Vec<Vec<usize>> = readme
        .lines()
        .filter(|l| {
            l.starts_with("| 5x5 ")
                || l.starts_with("| 7x7 ")
                || l.starts_with("| 9x9 ")
                || l.starts_with("| 11x11 ")
        })
        .map(|l| {
            l.split('|')
                .skip(2)
                .filter_map(|c| c.trim().parse().ok())
                .collect()
        })
        .collect();
    assert_eq!(
        rows.len(),
        8,
        "two tables of four sizes in docs/guides/mazes.md"
    );
    for (i, n) in [5, 7, 9, 11].into_iter().enumerate() {
        // Each shape as a trial of it alone sees it, then the C beside the U.
        let libs: Vec<(Shape, TemplateLibrary)> = Shape::ALL
            .iter()
            .map(|&s| (s, TemplateLibrary::for_shape(n, s)))
            .chain([(Shape::C, TemplateLibrary::of_set(n, ShapeSet::ALL))])
            .collect();
        let templates: Vec<usize> = libs.iter().map(|(s, lib)| lib.of(*s).len()).collect();
        let mazes: Vec<usize> = libs
            .iter()
            .map(|(s, lib)| distinct_mazes(*s, lib))
            .collect();
        assert_eq!(rows[i], templates, "templates at {n}x{n}");
        assert_eq!(rows[4 + i], mazes, "distinct mazes at {n}x{n}");
    }
}
