//! Where a move's probability went (the design's "logit analysis" hook): from the log
//! probabilities an endpoint returned with a reply and the alternatives at each token
//! (`top_logprobs`), the probability the model gave each row at the token where it wrote
//! the move's row, and each column at the token where it wrote the column.
//!
//! The move is the one the move reader took ([`read_move_at`]), at the place it took it
//! from. A coordinate is written row first, so the column's probabilities are given the
//! row the model wrote: a cell of that row has the probability *row × column*, while of
//! another row only the row's total is known (the model never wrote the column that would
//! have followed it). What the probabilities are conditioned on is everything the reply
//! said before: a reply that names its cell earlier and then repeats it made the choice at
//! the first mention, and the repeat is near certain.
//!
//! A number is read from an alternative token when the alternative starts as the written
//! token did up to the number (spaces aside): at `(` `2` the alternatives `3` and ` 3`
//! name row 3, and `row` names no number ("other text"). The probability of tokens outside
//! the returned alternatives is what remains of one. When a number's token comes right
//! after a token of spaces alone (Gemma writes `(1, 2)` as ` (` `1` `,` ` ` `2` `)`), the
//! number could also have been written at the space's place: the space's alternatives
//! that are numbers count directly, and the number token's probabilities count in the
//! space's share (real replies of `tests/fixtures/real-logprobs/` show both).

use crate::maze::grid::{Grid, Pos};
use crate::model::reply::TokenLogprob;
use crate::sort::sort_by;
use crate::verify::read_move_at;

/// The probabilities at one coordinate's token.
#[derive(Clone, Debug, PartialEq)]
pub struct Spread {
    /// Each number written or named by an alternative there, with its probability, most
    /// likely first.
    pub values: Vec<(usize, f64)>,
    /// The probability of the alternatives that name no number there.
    pub other: f64,
}

impl Spread {
    /// The probability of the number `n` (0 when no returned token names it).
    pub fn of(&self, n: usize) -> f64 {
        self.values
            .iter()
            .find(|(v, _)| *v == n)
            .map_or(0.0, |(_, p)| *p)
    }

    /// What is left for the tokens the endpoint did not return.
    pub fn unseen(&self) -> f64 {
        let seen: f64 = self.values.iter().map(|(_, p)| p).sum::<f64>() + self.other;
        (1.0 - seen).max(0.0)
    }
}

/// The probabilities behind one move.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveChoice {
    /// The cell the reply named.
    pub cell: Pos,
    /// At the row's token.
    pub row: Spread,
    /// At the column's token, given the row written.
    pub col: Spread,
}

impl MoveChoice {
    /// The probability of naming `p`, for a cell of the row written (row × column);
    /// `None` for another row, where only the row's own probability is known.
    pub fn cell_probability(&self, p: Pos) -> Option<f64> {
        (p.row == self.cell.row).then(|| self.row.of(p.row) * self.col.of(p.col))
    }
}

/// Why a reply's log probabilities say nothing about its move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoChoice {
    /// The reply names no move.
    NoMove,
    /// The tokens do not spell the reply.
    NotSpelled,
    /// A number shares its token with the other number, or runs over two tokens.
    Split,
    /// The endpoint returned no alternatives at the move's tokens.
    NoAlternatives,
}

impl NoChoice {
    /// One sentence for the replay.
    pub fn explain(self) -> &'static str {
        match self {
            NoChoice::NoMove => "The reply names no move, so there is no choice to show.",
            NoChoice::NotSpelled => {
                "The recorded tokens do not spell the reply, so the move's tokens cannot be found."
            }
            NoChoice::Split => {
                "The move's row and column are not each in a token of their own, so their probabilities cannot be told apart."
            }
            NoChoice::NoAlternatives => {
                "The endpoint returned no alternatives at the move's tokens (top_logprobs), so only the move itself has a probability."
            }
        }
    }
}

/// The probabilities the reply's tokens give its move (see the module documentation).
pub fn move_choice(reply: &str, tokens: &[TokenLogprob]) -> Result<MoveChoice, NoChoice> {
    let (cell, [start, end]) = read_move_at(reply).ok_or(NoChoice::NoMove)?;
    let spelled: String = tokens.iter().map(|t| t.token.as_str()).collect();
    let offset = spelled.rfind(reply).ok_or(NoChoice::NotSpelled)?;
    let runs = digit_runs(&reply.as_bytes()[start..end]);
    let (Some(&row), Some(&col)) = (runs.first(), runs.get(1)) else {
        return Err(NoChoice::Split);
    };
    let shift = offset + start;
    let row = token_at(tokens, [row[0] + shift, row[1] + shift]).ok_or(NoChoice::Split)?;
    let col = token_at(tokens, [col[0] + shift, col[1] + shift]).ok_or(NoChoice::Split)?;
    if row.0 == col.0 {
        return Err(NoChoice::Split);
    }
    if tokens[row.0].top_logprobs.is_empty() && tokens[col.0].top_logprobs.is_empty() {
        return Err(NoChoice::NoAlternatives);
    }
    Ok(MoveChoice {
        cell,
        row: spread_at(tokens, row),
        col: spread_at(tokens, col),
    })
}

/// The spread of the number starting at byte `at` of token `i`. When the number starts
/// its token right after a token of spaces alone (Gemma writes `,` ` ` `2`), the number
/// could also have come at the space's place: its alternatives that are numbers count
/// directly, and the number token's spread counts in the share of the space.
fn spread_at(tokens: &[TokenLogprob], (i, at): (usize, usize)) -> Spread {
    let mut s = spread(&tokens[i], at);
    let space = i
        .checked_sub(1)
        .map(|p| &tokens[p])
        .filter(|p| at == 0 && !p.token.is_empty() && p.token.trim().is_empty());
    if let Some(space) = space {
        let share = space.logprob.exp();
        let before = spread(space, space.token.len());
        for v in &mut s.values {
            v.1 *= share;
        }
        s.other = s.other * share + before.other - share;
        for (n, p) in before.values {
            add_value(&mut s.values, n, p);
        }
        sort_by(&mut s.values, by_probability);
    }
    s
}

/// Adds `p` to the number `n` in `values`.
fn add_value(values: &mut Vec<(usize, f64)>, n: usize, p: f64) {
    match values.iter_mut().find(|(v, _)| *v == n) {
        Some(v) => v.1 += p,
        None => values.push((n, p)),
    }
}

/// Most likely first, then the smaller number.
fn by_probability(a: &(usize, f64), b: &(usize, f64)) -> std::cmp::Ordering {
    b.1.total_cmp(&a.1).then(a.0.cmp(&b.0))
}

/// The `[start, end)` byte ranges of the digit runs in `text`.
fn digit_runs(text: &[u8]) -> Vec<[usize; 2]> {
    let mut out: Vec<[usize; 2]> = Vec::new();
    for (i, b) in text.iter().enumerate() {
        if b.is_ascii_digit() {
            match out.last_mut() {
                Some(run) if run[1] == i => run[1] = i + 1,
                _ => out.push([i, i + 1]),
            }
        }
    }
    out
}

/// The token holding the whole byte range `[start, end)` of the tokens' text, and where
/// the range starts in it.
fn token_at(tokens: &[TokenLogprob], [start, end]: [usize; 2]) -> Option<(usize, usize)> {
    let mut at = 0;
    for (i, t) in tokens.iter().enumerate() {
        let next = at + t.token.len();
        if start < next {
            return (start >= at && end <= next).then_some((i, start - at));
        }
        at = next;
    }
    None
}

/// The number at the start of `s` (up to four digits).
fn leading_number(s: &str) -> Option<usize> {
    let digits = s.bytes().take_while(u8::is_ascii_digit).count();
    (1..=4)
        .contains(&digits)
        .then(|| s[..digits].parse().ok())?
}

/// The spread at token `t`, whose number starts at byte `at`.
fn spread(t: &TokenLogprob, at: usize) -> Spread {
    let before = t.token[..at].trim_start();
    let mut values: Vec<(usize, f64)> = Vec::new();
    let mut other = 0.0;
    let mut add = |token: &str, logprob: f64| {
        let p = logprob.exp();
        match token
            .trim_start()
            .strip_prefix(before)
            .and_then(leading_number)
        {
            Some(n) => add_value(&mut values, n, p),
            None => other += p,
        }
    };
    add(&t.token, t.logprob);
    for alt in t.top_logprobs.iter().filter(|a| a.token != t.token) {
        add(&alt.token, alt.logprob);
    }
    sort_by(&mut values, by_probability);
    Spread { values, other }
}

/// A solve reply's choice as the replay shows it: the maze as it stood when the model
/// chose, and what its tokens say.
#[derive(Clone, Debug, PartialEq)]
pub struct Choice {
    /// The maze before the move.
    pub before: Grid,
    /// The probabilities, or why there are none.
    pub read: Result<MoveChoice, NoChoice>,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A token with its alternatives, each `(text, probability)`.
    fn tok(text: &str, p: f64, top: &[(&str, f64)]) -> TokenLogprob {
        TokenLogprob {
            token: text.into(),
            logprob: p.ln(),
            top_logprobs: top
                .iter()
                .map(|&(t, p)| TokenLogprob {
                    token: t.into(),
                    logprob: p.ln(),
                    top_logprobs: Vec::new(),
                })
                .collect(),
        }
    }

    fn plain(text: &str) -> TokenLogprob {
        tok(text, 1.0, &[])
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    /// "Move: (1, 2)" as a Qwen-style tokenizer splits it: digits alone.
    fn qwen_move(row: &[(&str, f64)], col: &[(&str, f64)]) -> Vec<TokenLogprob> {
        vec![
            plain("Move"),
            plain(":"),
            plain(" ("),
            tok("1", row[0].1, row),
            plain(","),
            tok(" ", 1.0, &[(" ", 1.0)]),
            tok("2", col[0].1, col),
            plain(")"),
        ]
    }

    #[test]
    fn the_row_and_the_column_given_the_row_are_read_at_their_tokens() {
        let tokens = qwen_move(
            &[("1", 0.7), ("0", 0.2), ("2", 0.05), ("(", 0.01)],
            &[("2", 0.6), ("0", 0.3), ("1", 0.1)],
        );
        let c = move_choice("Move: (1, 2)", &tokens).expect("read");
        assert_eq!(c.cell, Pos::new(1, 2));
        assert_eq!(
            c.row.values.iter().map(|v| v.0).collect::<Vec<_>>(),
            [1, 0, 2]
        );
        assert!(close(c.row.of(0), 0.2) && close(c.row.other, 0.01));
        assert!(close(c.row.unseen(), 0.04), "{}", c.row.unseen());
        // The cells of row 1: row × column; another row: unknown.
        assert!(close(
            c.cell_probability(Pos::new(1, 2)).expect("row 1"),
            0.42
        ));
        assert!(close(
            c.cell_probability(Pos::new(1, 0)).expect("row 1"),
            0.21
        ));
        assert_eq!(c.cell_probability(Pos::new(1, 4)), Some(0.0));
        assert_eq!(c.cell_probability(Pos::new(0, 2)), None);
    }

    #[test]
    fn alternatives_are_read_past_the_text_before_the_number_and_spaces() {
        // A tokenizer that joins the bracket or a space to the digit.
        let tokens = vec![
            plain("I"),
            plain(" move"),
            plain(" to"),
            tok(
                " (3",
                0.5,
                &[(" (3", 0.5), (" (2", 0.25), ("(4", 0.1), (" [", 0.1)],
            ),
            plain(","),
            tok(" 1", 0.9, &[(" 1", 0.9), ("0", 0.05)]),
            plain(")."),
        ];
        let c = move_choice("I move to (3, 1).", &tokens).expect("read");
        assert_eq!(c.cell, Pos::new(3, 1));
        assert!(close(c.row.of(2), 0.25) && close(c.row.of(4), 0.1));
        assert!(close(c.row.other, 0.1), "[ names no number");
        assert!(close(c.col.of(0), 0.05));
    }

    #[test]
    fn a_number_after_a_space_token_also_counts_the_numbers_offered_at_the_space() {
        // As Gemma writes it: the column's digit after a space of its own, where the
        // model could have written a digit at once.
        let tokens = vec![
            plain("Move"),
            plain(":"),
            plain(" ("),
            tok("1", 0.9, &[("1", 0.9), ("2", 0.1)]),
            plain(","),
            tok(
                " ",
                0.9,
                &[(" ", 0.9), ("2", 0.05), ("1", 0.03), (" -", 0.01)],
            ),
            tok("2", 0.8, &[("2", 0.8), ("0", 0.15)]),
            plain(")"),
        ];
        let c = move_choice("Move: (1, 2)", &tokens).expect("read");
        assert!(close(c.col.of(2), 0.9 * 0.8 + 0.05), "{:?}", c.col);
        assert!(close(c.col.of(0), 0.9 * 0.15));
        assert!(close(c.col.of(1), 0.03));
        assert!(
            close(c.col.other, 0.01),
            "the space's other text, not the space"
        );
        assert!(close(c.col.unseen(), 1.0 - 0.77 - 0.135 - 0.03 - 0.01));
        // The row's token follows ` (`, not spaces alone: read as it is.
        assert!(close(c.row.of(1), 0.9) && close(c.row.of(2), 0.1));
    }

    #[test]
    fn the_move_is_the_one_the_reader_takes_and_reasoning_tokens_before_are_skipped() {
        // The reply restates the start, then names the move; the tokens begin with text
        // the reply does not hold (an endpoint counting its reasoning in).
        let mut tokens = vec![
            plain("<think>ok</think>"),
            plain("From"),
            plain(" ("),
            plain("0"),
            plain(","),
            plain(" "),
            plain("0"),
            plain(") "),
            plain("I"),
            plain(" go"),
            plain(" to"),
            plain(" ("),
        ];
        tokens.extend([
            tok("1", 0.8, &[("1", 0.8), ("0", 0.15)]),
            plain(","),
            plain(" "),
            tok("0", 0.95, &[("0", 0.95)]),
            plain(")"),
        ]);
        let c = move_choice("From (0, 0) I go to (1, 0)", &tokens).expect("read");
        assert_eq!(c.cell, Pos::new(1, 0));
        assert!(close(c.row.of(1), 0.8) && close(c.row.of(0), 0.15));
    }

    #[test]
    fn what_cannot_be_read_says_why() {
        let spelled = qwen_move(&[("1", 0.5)], &[("2", 0.5)]);
        assert_eq!(
            move_choice("I am not sure.", &spelled),
            Err(NoChoice::NoMove)
        );
        assert_eq!(
            move_choice("Move: (1, 3)", &spelled),
            Err(NoChoice::NotSpelled),
            "tokens of another text"
        );
        let no_top = vec![
            plain("Move: ("),
            plain("1"),
            plain(", "),
            plain("2"),
            plain(")"),
        ];
        assert_eq!(
            move_choice("Move: (1, 2)", &no_top),
            Err(NoChoice::NoAlternatives)
        );
        let joined = vec![plain("Move: "), tok("(1, 2)", 0.9, &[("(0, 2)", 0.1)])];
        assert_eq!(move_choice("Move: (1, 2)", &joined), Err(NoChoice::Split));
        let over_two = vec![
            plain("Move: ("),
            tok("1", 0.9, &[("1", 0.9)]),
            plain("0, "),
            plain("2)"),
        ];
        assert_eq!(
            move_choice("Move: (10, 2)", &over_two),
            Err(NoChoice::Split)
        );
        for why in [
            NoChoice::NoMove,
            NoChoice::NotSpelled,
            NoChoice::Split,
            NoChoice::NoAlternatives,
        ] {
            assert!(why.explain().ends_with('.'));
        }
    }
}
