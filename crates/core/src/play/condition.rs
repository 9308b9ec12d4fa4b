//! How a person was shown the maze: the clickable grid, or the very text a model sees. A
//! study chooses one for its participants; each person's trial record keeps it, so that a
//! person is paired with models as the maze was shown to them.

use serde::{Deserialize, Serialize};

/// How a study shows its mazes to a person.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Condition {
    /// The clickable grid, drawing for generation.
    #[default]
    Grid,
    /// The very text a model sees; moves typed as coordinates, the new maze typed.
    Text,
}

impl Condition {
    /// Every condition, in order.
    pub const ALL: [Condition; 2] = [Condition::Grid, Condition::Text];

    /// Its name in study files.
    pub fn name(self) -> &'static str {
        match self {
            Condition::Grid => "grid",
            Condition::Text => "text",
        }
    }
}
