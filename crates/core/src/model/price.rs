//! What an endpoint charges: a price per million tokens, and the cost of the tokens a
//! trial's calls used.
//!
//! Endpoints bill reasoning tokens as output tokens unless they say otherwise, and they
//! count them inside `completion_tokens`; a separate reasoning price applies to that share
//! alone. Prices are in US dollars (the unit the providers' price lists use), written as
//! the person running the experiment typed them.

use crate::text::Fixed;
use serde::{Deserialize, Serialize};

/// A model's price, in US dollars per million tokens.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Price {
    /// Per million prompt (input) tokens.
    pub input: f64,
    /// Per million completion (output) tokens.
    pub output: f64,
    /// Per million reasoning tokens, when priced apart from the rest of the output (absent:
    /// as output).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reasoning: Option<f64>,
}

impl Price {
    /// The cost in dollars of `prompt` input tokens and `completion` output tokens, of
    /// which `reasoning` went to reasoning.
    pub fn cost(&self, prompt: u64, completion: u64, reasoning: u64) -> f64 {
        let reasoning = reasoning.min(completion);
        let answer = completion - reasoning;
        (prompt as f64 * self.input
            + answer as f64 * self.output
            + reasoning as f64 * self.reasoning.unwrap_or(self.output))
            / 1e6
    }

    /// Why the price cannot be used, if it cannot: every figure must be a number of
    /// dollars, zero or more.
    pub fn check(&self) -> Result<(), PriceError> {
        for (name, v) in [
            ("input", Some(self.input)),
            ("output", Some(self.output)),
            ("reasoning", self.reasoning),
        ] {
            if let Some(v) = v {
                if !v.is_finite() || v < 0.0 {
                    return Err(PriceError::Negative {
                        field: name,
                        value: v,
                    });
                }
            }
        }
        Ok(())
    }
}

/// Why a price cannot be used.
#[derive(Clone, Debug, PartialEq)]
pub enum PriceError {
    /// A price typed as text that is not `input, output[, reasoning]` dollars (the text).
    Unreadable(String),
    /// A figure (`input`, `output` or `reasoning`) that is not a number of dollars, zero
    /// or more.
    Negative {
        /// Which figure.
        field: &'static str,
        /// Its value.
        value: f64,
    },
}

impl std::fmt::Display for PriceError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PriceError::Unreadable(raw) => write!(
                f,
                "its price must be dollars per million tokens as 'input, output' or 'input, output, reasoning' (e.g. 0.4, 1.2), not '{raw}'"
            ),
            PriceError::Negative { field, value } => write!(
                f,
                "the {field} price must be dollars per million tokens, zero or more, not {:#.6}",
                Fixed(*value)
            ),
        }
    }
}

impl std::error::Error for PriceError {}

/// Dollars for people: cents below $100 (`$0.0123` below a cent), whole dollars above.
pub fn dollars(v: f64) -> String {
    if v.abs() < 0.01 && v != 0.0 {
        format!("${v:.4}", v = Fixed(v))
    } else if v.abs() < 100.0 {
        format!("${v:.2}", v = Fixed(v))
    } else {
        format!("${v:.0}", v = Fixed(v))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_trial_costs_its_input_and_output_at_their_prices() {
        // 1,000 prompt tokens at $0.40 and 500 completion at $1.20 per million.
        let p = Price {
            input: 0.40,
            output: 1.20,
            reasoning: None,
        };
        assert!((p.cost(1_000, 500, 0) - 0.001).abs() < 1e-12);
        // Reasoning inside the completion costs as output when not priced apart...
        assert!((p.cost(1_000, 500, 300) - 0.001).abs() < 1e-12);
        // ...and at its own price when it is: 200 x 1.20 + 300 x 4.00.
        let r = Price {
            reasoning: Some(4.0),
            ..p
        };
        assert!((r.cost(1_000, 500, 300) - (0.0004 + 0.00024 + 0.0012)).abs() < 1e-12);
        // Reasoning reported above the completion is capped at it.
        assert!((r.cost(0, 100, 999) - 0.0004).abs() < 1e-12);
    }

    #[test]
    fn prices_are_checked_and_dollars_read_well() {
        assert!(Price::default().check().is_ok());
        let bad = Price {
            input: -1.0,
            ..Price::default()
        };
        assert!(bad
            .check()
            .expect_err("negative")
            .to_string()
            .contains("input price"));
        let nan = Price {
            reasoning: Some(f64::NAN),
            ..Price::default()
        };
        assert!(nan.check().is_err());
        assert_eq!(dollars(0.0), "$0.00");
        assert_eq!(dollars(0.00123), "$0.0012");
        assert_eq!(dollars(1.5), "$1.50");
        assert_eq!(dollars(1234.4), "$1234");
    }
}
