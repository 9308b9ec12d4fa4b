//! A held-out evaluation of the reply readers: `heldout/replies.json` holds replies (next
//! moves, shapes named, generated mazes) in forms that no other test names, each labelled
//! with what a careful human grader reads in it (`expect`, with a `note` saying why).
//!
//! What this set is for: measuring how well the readers generalise to forms nobody tuned
//! them to. It was written apart from the readers' rules and is never tuned to: do not add
//! a rule, a word list entry or a special case because a reply here is missed. A miss is
//! fixed only by a rule of a general class (one that would also read forms this file does
//! not hold), never by a phrase taken from this file. Do not edit an item to match what the
//! code reads; an item's label changes only if the label itself is wrong for a careful
//! grader.
//!
//! The test prints `phase: right/total` and every miss (id, expected, read), and fails
//! when the total right falls below [`FLOOR`], the score measured on the code when the set
//! was written: reading may only get better. Raise `FLOOR` when it does.
//!
//! The move replies are all answers to one maze, the 5x5 square ring (`1` wall, `0` open):
//!
//! ```text
//! P 0 0 0 0
//! 0 1 1 1 0
//! 0 1 1 1 0
//! 0 1 1 1 0
//! 0 0 0 0 G
//! ```
//!
//! player at (0, 0), goal at (4, 4), 4-direction moves, cells as 0-based (row, col). A move
//! may be valid or not there: the reader only has to extract what the reply puts forward.
//! The maze replies offer a 5x5 maze (their `expect` is its rows); `null` means the reply
//! gives no move, no shape or no maze.
#![cfg(not(target_arch = "wasm32"))]

use serde_json::Value;
use shapemaze_core::maze::encoding::Encoding;
use shapemaze_core::maze::grid::Pos;
use shapemaze_core::maze::shape::ShapeSet;
use shapemaze_core::maze::symbols::Symbols;
use shapemaze_core::verify::{
    maze_reading, move_reading, move_reading_from, outline, shape_reading, Extracted, Reading,
    Role, Rule,
};

/// The total number of items read right on the code last measured (32 of 56 on the phrase
/// readers before issue 39, 48 of 56 on the readers by structure); the test fails below it.
const FLOOR: usize = 48;

/// The precision of sure on every set, in percent: of the readings marked sure, at least
/// this share must be right (docs/DECISIONS.md, sixth round: a reading marked sure is a
/// claim a reviewer should never have to check). Verifier 9 reads 100% on each set (it was
/// 60.6% to 97.1% on verifier 8). May only rise.
const SURE_PRECISION_FLOOR: usize = 99;

/// How many readings of each set (1 to 5) verifier 9 marks sure, the floor of the share of
/// sure: a reader that marked everything unsure would keep the precision floor and help
/// nobody. May only rise.
const SURE_FLOORS: [usize; 5] = [39, 58, 59, 43, 26];

/// The phases, in the order they are reported.
const PHASES: [&str; 3] = ["move", "shape", "maze"];

/// The second set, `heldout/replies-2.json` (77 items), was written later by another hand
/// that had read neither the readers' rules nor their tests (only the first set, whose forms
/// it avoids), under the same rules as the first. First measured before any rule saw it:
/// 53 of 77 (moves 19/33, shapes 21/28, mazes 13/16) on verifier 5; 72 of 77 on verifier 6
/// (30/33, 26/28, 16/16); 73 of 77 once the replies labelled N were read with N in play
/// (27/28 shapes), the floor.
const FLOOR_2: usize = 73;

/// The third set, `heldout/replies-3.json` (84 items), was written in the fifth session by
/// another hand under the same rules, after verifier 6, to measure the readers on forms no
/// rule had seen. First measured before any rule saw it: 51 of 84 with its writer's labels;
/// 57 of 84 (moves 24/36, shapes 24/31, mazes 9/17) once four replies that give a direction
/// and no coordinate were labelled as giving no move (DECISIONS.md, third round: a move is a
/// coordinate) and the replies labelled U or N were read with U and N in play. On verifier
/// 7: 75 of 84 (29/36, 31/31, 15/17), the floor.
const FLOOR_3: usize = 75;

/// The fourth set, `heldout/replies-4.json` (67 items), was written in the sixth session by
/// another hand under the same rules (it read neither the readers' code nor their tests),
/// after verifier 7 and the outline were done. Measured before any rule saw it: 44 of 67
/// (moves 20/28, shapes 17/25, mazes 7/14). On verifier 8: 56 of 67 (22/28, 22/25, 12/14),
/// the floor.
const FLOOR_4: usize = 56;

/// The fifth set, `heldout/replies-5.json` (91 items), was written in the eighth session by
/// another hand under the same rules (it read neither the readers' code nor their tests),
/// weighted toward replies where a careless reader would be confidently wrong (an answer
/// line followed by deliberation, a cell followed by another in its sentence, cells in
/// notations no rule reads). Measured before any rule saw it, on verifier 8: 51 of 91
/// (moves 26/40, shapes 17/32, mazes 8/19), and 43 of the 71 readings marked sure right.
const FLOOR_5: usize = 51;

fn items_of(text: &str, name: &str) -> Vec<Value> {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("{name} is not a JSON array: {e}"))
}

fn items() -> Vec<Value> {
    items_of(include_str!("heldout/replies.json"), "heldout/replies.json")
}

fn items_2() -> Vec<Value> {
    items_of(
        include_str!("heldout/replies-2.json"),
        "heldout/replies-2.json",
    )
}

fn items_4() -> Vec<Value> {
    items_of(
        include_str!("heldout/replies-4.json"),
        "heldout/replies-4.json",
    )
}

fn items_5() -> Vec<Value> {
    items_of(
        include_str!("heldout/replies-5.json"),
        "heldout/replies-5.json",
    )
}

fn items_3() -> Vec<Value> {
    items_of(
        include_str!("heldout/replies-3.json"),
        "heldout/replies-3.json",
    )
}

fn text<'a>(item: &'a Value, key: &str) -> &'a str {
    item[key]
        .as_str()
        .unwrap_or_else(|| panic!("{}: '{key}' is not a string", item["id"]))
}

/// What a careful grader reads in `item`, written the way [`read`] writes what the code
/// reads.
fn expected(item: &Value) -> String {
    let e = &item["expect"];
    if e.is_null() {
        return "none".to_string();
    }
    match text(item, "phase") {
        "move" => {
            let pair: [usize; 2] = serde_json::from_value(e.clone())
                .unwrap_or_else(|err| panic!("{}: expect is not [row, col]: {err}", item["id"]));
            format!("({}, {})", pair[0], pair[1])
        }
        "shape" => e.as_str().expect("a shape name").to_string(),
        "maze" => {
            let rows: Vec<String> = serde_json::from_value(e.clone())
                .unwrap_or_else(|err| panic!("{}: expect is not rows: {err}", item["id"]));
            let grid = Encoding::Matrix
                .parse_grid(&rows.join("\n"), 5, 5)
                .unwrap_or_else(|err| panic!("{}: expected maze: {err:?}", item["id"]));
            Encoding::Matrix.render(&grid)
        }
        other => panic!("{}: unknown phase {other}", item["id"]),
    }
}

/// What the code reads in `item`'s reply (written as [`expected`] writes it), whether the
/// reading is marked sure, and the rule that read it.
fn reading(item: &Value) -> (String, bool, Rule) {
    let (value, reading) = reading_of(item);
    (value, reading.sure(), reading.rule)
}

/// What the code reads in `item`'s reply, written as [`expected`] writes it, and the whole
/// reading.
fn reading_of(item: &Value) -> (String, Reading) {
    let reply = text(item, "reply");
    let reading = match text(item, "phase") {
        // Every move reply answers the ring, whose player stands at (0, 0).
        "move" => move_reading_from(reply, Pos::new(0, 0)),
        // A reply labelled U or N answers a design that includes them (DECISIONS.md: in a
        // design without U, "U-shape" names the C).
        "shape" => {
            let extended = matches!(item["expect"].as_str(), Some("U" | "N"));
            let shapes = if extended {
                ShapeSet::ALL
            } else {
                ShapeSet::STANDARD
            };
            shape_reading(reply, shapes)
        }
        "maze" => maze_reading(reply, Encoding::Matrix, 5, 5, Symbols::STANDARD),
        other => panic!("{}: unknown phase {other}", item["id"]),
    };
    let value = match &reading.value {
        Extracted::Nothing => "none".to_string(),
        Extracted::Cell(p) => p.to_string(),
        Extracted::Shape(s) => s.name().to_string(),
        Extracted::Grid(g) => Encoding::Matrix.render(g),
        other => panic!("{}: an unexpected reading {other:?}", item["id"]),
    };
    (value, reading)
}

/// Prints, for every set, the readings not marked sure that are right, by why they are
/// not sure: what keeps the share of sure down.
#[test]
fn unsure_readings_by_their_doubt() {
    let mut by_kind: std::collections::BTreeMap<String, Vec<String>> = Default::default();
    for item in items()
        .iter()
        .chain(&items_2())
        .chain(&items_3())
        .chain(&items_4())
        .chain(&items_5())
    {
        let (got, reading) = reading_of(item);
        if let Some(d) = &reading.doubt {
            let right = got == expected(item);
            let key = format!(
                "{} {:?} {}",
                text(item, "phase"),
                d.kind,
                if right { "right" } else { "wrong" }
            );
            by_kind.entry(key).or_default().push(format!(
                "{} ({}): {}",
                text(item, "id"),
                reading.rule,
                d.why
            ));
        }
    }
    for (kind, items) in &by_kind {
        println!("{kind}: {}", items.len());
        for i in items {
            println!("    {i}");
        }
    }
}

#[test]
fn the_sets_are_well_formed() {
    well_formed(&items());
    well_formed(&items_2());
    well_formed(&items_3());
    well_formed(&items_4());
    well_formed(&items_5());
}

fn well_formed(items: &[Value]) {
    assert!(items.len() >= 48, "{} items", items.len());
    let mut ids: Vec<&str> = items.iter().map(|i| text(i, "id")).collect();
    ids.sort_unstable();
    let before = ids.len();
    ids.dedup();
    assert_eq!(ids.len(), before, "ids are unique");
    for item in items {
        assert!(PHASES.contains(&text(item, "phase")), "{}", item["id"]);
        assert!(!text(item, "reply").is_empty(), "{}", item["id"]);
        assert!(!text(item, "note").is_empty(), "{}", item["id"]);
        expected(item);
    }
    for phase in PHASES {
        let n = items.iter().filter(|i| text(i, "phase") == phase).count();
        assert!(n >= 10, "{phase}: {n} items");
    }
}

#[test]
fn the_readers_read_held_out_replies_as_a_careful_grader_does() {
    score("heldout/replies.json", &items(), FLOOR, SURE_FLOORS[0]);
}

#[test]
fn the_readers_read_the_second_held_out_set_as_a_careful_grader_does() {
    score(
        "heldout/replies-2.json",
        &items_2(),
        FLOOR_2,
        SURE_FLOORS[1],
    );
}

#[test]
fn the_readers_read_the_third_held_out_set_as_a_careful_grader_does() {
    score(
        "heldout/replies-3.json",
        &items_3(),
        FLOOR_3,
        SURE_FLOORS[2],
    );
}

#[test]
fn the_readers_read_the_fourth_held_out_set_as_a_careful_grader_does() {
    score(
        "heldout/replies-4.json",
        &items_4(),
        FLOOR_4,
        SURE_FLOORS[3],
    );
}

#[test]
fn the_readers_read_the_fifth_held_out_set_as_a_careful_grader_does() {
    score(
        "heldout/replies-5.json",
        &items_5(),
        FLOOR_5,
        SURE_FLOORS[4],
    );
}

/// Prints `name`'s score per phase and its misses, and the precision of sure (right among
/// the readings marked sure) with the sure readings that are wrong; fails below `floor`
/// read right, below [`SURE_PRECISION_FLOOR`] or below `sure_floor` readings marked sure.
fn score(name: &str, items: &[Value], floor: usize, sure_floor: usize) {
    let mut total_right = 0;
    let mut table = Vec::new();
    let mut misses = Vec::new();
    let (mut sure, mut sure_right, mut sure_wrong) = (0, 0, Vec::new());
    let mut by_rule: std::collections::BTreeMap<(&str, String), (usize, usize)> =
        std::collections::BTreeMap::new();
    for phase in PHASES {
        let of_phase: Vec<&Value> = items.iter().filter(|i| text(i, "phase") == phase).collect();
        let mut right = 0;
        for item in &of_phase {
            let (want, (got, is_sure, rule)) = (expected(item), reading(item));
            let show = |s: &str| s.replace('\n', " / ");
            sure += usize::from(is_sure);
            let tally = by_rule.entry((phase, rule.to_string())).or_default();
            tally.1 += 1;
            tally.0 += usize::from(want == got);
            if want == got {
                right += 1;
                sure_right += usize::from(is_sure);
            } else {
                let miss = format!(
                    "  {}: expected {}, read {} by {rule}{}",
                    text(item, "id"),
                    show(&want),
                    show(&got),
                    if is_sure { " (marked sure)" } else { "" }
                );
                if is_sure {
                    sure_wrong.push(miss.clone());
                }
                misses.push(miss);
            }
        }
        total_right += right;
        table.push(format!("  {phase}: {right}/{}", of_phase.len()));
    }
    println!("{name}: held-out replies read right:");
    println!("{}", table.join("\n"));
    println!("  total: {total_right}/{}", items.len());
    println!(
        "  sure: {sure} of {} ({:.1}%), right among them: {sure_right} ({:.1}%)",
        items.len(),
        100.0 * sure as f64 / items.len() as f64,
        100.0 * sure_right as f64 / sure.max(1) as f64
    );
    let rules: Vec<String> = by_rule
        .iter()
        .map(|((phase, rule), (r, n))| format!("{phase} {rule} {r}/{n}"))
        .collect();
    println!("  right by rule: {}", rules.join(", "));
    println!("misses ({}):", misses.len());
    println!("{}", misses.join("\n"));
    println!("marked sure and wrong ({}):", sure_wrong.len());
    println!("{}", sure_wrong.join("\n"));
    assert!(
        total_right >= floor,
        "{name}: {total_right} of {} read right, below the floor of {floor}:\n{}",
        items.len(),
        misses.join("\n")
    );
    assert!(
        sure_right * 100 >= sure * SURE_PRECISION_FLOOR,
        "{name}: {sure_right} of the {sure} readings marked sure are right, below {SURE_PRECISION_FLOOR}%:\n{}",
        sure_wrong.join("\n")
    );
    assert!(
        sure >= sure_floor,
        "{name}: {sure} readings marked sure, below the floor of {sure_floor}"
    );
}

/// The outline (`verify::outline`) and the readers agree: where a reader read its value
/// from an answer line, a tick, an option chosen by letter, an answer label in running
/// text or JSON, the line holding it has that role in the outline (`answer`, `chosen`,
/// `conclusion`, `json`);
/// where it read a concluding sentence, the line is not one the outline sets apart as an
/// option, a question or data. Checked on every move and shape reply of the four sets.
#[test]
fn the_outline_gives_the_line_read_the_role_its_rule_reads() {
    let mut checked = 0;
    let mut disagree = Vec::new();
    for item in items()
        .iter()
        .chain(&items_2())
        .chain(&items_3())
        .chain(&items_4())
        .chain(&items_5())
    {
        let reply = text(item, "reply");
        let reading = match text(item, "phase") {
            "move" => move_reading(reply),
            "shape" => shape_reading(reply, ShapeSet::ALL),
            _ => continue,
        };
        let Some([at, _]) = reading.span else {
            continue;
        };
        let parts = outline(reply);
        let role = parts
            .iter()
            .find(|p| p.span[0] <= at && at < p.span[1])
            .map(|p| p.role);
        let agrees = match reading.rule {
            Rule::AnswerLabel | Rule::LabelInText => {
                matches!(role, Some(Role::Answer | Role::Chosen | Role::Conclusion))
            }
            Rule::Ticked => role == Some(Role::Chosen),
            Rule::Json => role == Some(Role::Json),
            Rule::Concluded => !matches!(
                role,
                Some(Role::Options | Role::Question | Role::Data | Role::Reasoning) | None
            ),
            _ => continue,
        };
        checked += 1;
        if !agrees {
            disagree.push(format!(
                "{}: {} read in a line of role {role:?}",
                item["id"], reading.rule
            ));
        }
    }
    println!(
        "outline and reading agree on {} of {checked}",
        checked - disagree.len()
    );
    for d in &disagree {
        println!("  {d}");
    }
    assert!(disagree.is_empty(), "{disagree:#?}");
}
