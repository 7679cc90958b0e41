//! Puzzle ratings from players' attempts: Glicko-2 (Mark Glickman, "Example of the Glicko-2
//! system", 2013), each attempt one rating period of one game between the puzzle and the player,
//! the puzzle winning when the player fails.
//!
//! The system constant τ is 0.5 and the convergence tolerance ε 0.000001; the new volatility is
//! found by the Illinois iteration of the paper's step 5, bounded (a hundred steps) so that no
//! input can make it loop.

/// Glicko-2's scale: rating points per unit of its internal scale.
const SCALE: f64 = 173.7178;
/// The system constant τ, which bounds how fast volatility changes.
pub const TAU: f64 = 0.5;
/// The convergence tolerance of the volatility iteration.
pub const EPSILON: f64 = 0.000_001;

/// A Glicko-2 rating: the value, its deviation (the uncertainty, as a standard deviation in
/// rating points) and its volatility (how erratic the performances are).
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Rating {
    pub value: f64,
    pub deviation: f64,
    pub volatility: f64,
}

/// A stored puzzle's rating and the attempts it was made from.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct PuzzleRating {
    pub rating: Rating,
    /// The attempts recorded (0: the rating is the puzzle's first, from its difficulty).
    pub attempts: u64,
}

/// An attempt recorded: the puzzle's rating after it, and the player's after this one game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Attempted {
    pub puzzle: PuzzleRating,
    pub player: Rating,
}

/// Why a rating sent by a client is refused: the member and what is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{field}` {message}")]
pub struct RatingError {
    /// `rating`, `deviation` or `volatility`.
    pub field: &'static str,
    pub message: String,
}

impl Rating {
    /// A new player's rating, as the paper starts one: 1500, deviation 350, volatility 0.06.
    pub const NEW_PLAYER: Rating = Rating {
        value: 1500.0,
        deviation: 350.0,
        volatility: 0.06,
    };

    /// The most a deviation may be: a new rating's, 350.
    pub const MAX_DEVIATION: f64 = 350.0;

    /// A puzzle's first rating at difficulty 0 ([`Rating::of_difficulty`]).
    pub const FIRST_BASE: u32 = 1000;
    /// The points a puzzle's first rating gains per point of difficulty.
    pub const FIRST_PER_DIFFICULTY: u32 = 15;
    /// The difficulty a puzzle without one is rated as.
    pub const FIRST_UNKNOWN_DIFFICULTY: u8 = 50;

    /// A puzzle's first rating, from its difficulty (0 to 100, computed from its proof: see
    /// [`crate::difficulty`]): the monotone map `1000 + 15 × difficulty` onto 1000 to 2500,
    /// deviation 350, volatility 0.06. A puzzle without a difficulty starts at 1750.
    pub fn of_difficulty(difficulty: Option<u8>) -> Rating {
        Rating {
            value: f64::from(Rating::FIRST_BASE)
                + f64::from(Rating::FIRST_PER_DIFFICULTY)
                    * f64::from(
                        difficulty
                            .unwrap_or(Rating::FIRST_UNKNOWN_DIFFICULTY)
                            .min(100),
                    ),
            ..Rating::NEW_PLAYER
        }
    }

    /// Checks a rating a client sent: a finite value from 0 to 4000, a deviation above 0 and at
    /// most 350, a volatility above 0 and below 1.
    ///
    /// # Errors
    /// The first member out of its range.
    pub fn check(&self) -> Result<(), RatingError> {
        let refuse = |field, message: &str| {
            Err(RatingError {
                field,
                message: message.to_string(),
            })
        };
        if !self.value.is_finite() || !(0.0..=4000.0).contains(&self.value) {
            return refuse("rating", "must be a number from 0 to 4000");
        }
        if !self.deviation.is_finite() || self.deviation <= 0.0 || self.deviation > 350.0 {
            return refuse("deviation", "must be a number above 0 and at most 350");
        }
        if !self.volatility.is_finite() || self.volatility <= 0.0 || self.volatility >= 1.0 {
            return refuse("volatility", "must be a number above 0 and below 1");
        }
        Ok(())
    }

    /// The rating after one rating period of `games`: each an opponent's rating (as it was before
    /// the period) and the score against it (1 a win, 0 a loss, 0.5 a draw). With no game, only
    /// the deviation grows (the paper's step 6 alone).
    pub fn after(&self, games: &[(Rating, f64)]) -> Rating {
        // Step 2: to Glicko-2's scale.
        let mu = (self.value - 1500.0) / SCALE;
        let phi = self.deviation / SCALE;
        let sigma = self.volatility;
        if games.is_empty() {
            let phi_star = (phi * phi + sigma * sigma).sqrt();
            return Rating {
                deviation: (phi_star * SCALE).min(Rating::MAX_DEVIATION),
                ..*self
            };
        }
        let g =
            |phi_j: f64| 1.0 / (1.0 + 3.0 * phi_j * phi_j / (std::f64::consts::PI.powi(2))).sqrt();
        let expected = |mu_j: f64, phi_j: f64| 1.0 / (1.0 + (-g(phi_j) * (mu - mu_j)).exp());
        // Steps 3 and 4: the estimated variance and improvement.
        let mut inverse_v = 0.0;
        let mut sum = 0.0;
        for (opponent, score) in games {
            let mu_j = (opponent.value - 1500.0) / SCALE;
            let phi_j = opponent.deviation / SCALE;
            let (gj, e) = (g(phi_j), expected(mu_j, phi_j));
            inverse_v += gj * gj * e * (1.0 - e);
            sum += gj * (score - e);
        }
        let v = 1.0 / inverse_v;
        let delta = v * sum;
        // Step 5: the new volatility, by the Illinois iteration.
        let a = (sigma * sigma).ln();
        let f = |x: f64| {
            let ex = x.exp();
            let d = phi * phi + v + ex;
            ex * (delta * delta - phi * phi - v - ex) / (2.0 * d * d) - (x - a) / (TAU * TAU)
        };
        let mut big_a = a;
        let mut big_b = if delta * delta > phi * phi + v {
            (delta * delta - phi * phi - v).ln()
        } else {
            let mut k = 1.0;
            while f(a - k * TAU) < 0.0 && k < 100.0 {
                k += 1.0;
            }
            a - k * TAU
        };
        let (mut f_a, mut f_b) = (f(big_a), f(big_b));
        for _ in 0..100 {
            if (big_b - big_a).abs() <= EPSILON {
                break;
            }
            let c = big_a + (big_a - big_b) * f_a / (f_b - f_a);
            let f_c = f(c);
            if f_c * f_b <= 0.0 {
                big_a = big_b;
                f_a = f_b;
            } else {
                f_a /= 2.0;
            }
            big_b = c;
            f_b = f_c;
        }
        let sigma_new = (big_a / 2.0).exp();
        // Steps 6 and 7: the new deviation and value.
        let phi_star = (phi * phi + sigma_new * sigma_new).sqrt();
        let phi_new = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
        let mu_new = mu + phi_new * phi_new * sum;
        // Step 8: back to the rating scale.
        Rating {
            value: SCALE * mu_new + 1500.0,
            deviation: (SCALE * phi_new).min(Rating::MAX_DEVIATION),
            volatility: sigma_new,
        }
    }
}

/// One attempt at a puzzle: the puzzle's and the player's ratings after it, each a rating period
/// of this one game (the puzzle wins when the player fails).
pub fn attempt(puzzle: Rating, player: Rating, solved: bool) -> (Rating, Rating) {
    let score = if solved { 1.0 } else { 0.0 };
    (
        puzzle.after(&[(player, 1.0 - score)]),
        player.after(&[(puzzle, score)]),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_paper_s_example() {
        // Glickman's example: a 1500/200/0.06 player against 1400/30, 1550/100 and 1700/300,
        // scoring 1, 0, 0.
        let player = Rating {
            value: 1500.0,
            deviation: 200.0,
            volatility: 0.06,
        };
        let opponent = |value, deviation| Rating {
            value,
            deviation,
            volatility: 0.06,
        };
        let after = player.after(&[
            (opponent(1400.0, 30.0), 1.0),
            (opponent(1550.0, 100.0), 0.0),
            (opponent(1700.0, 300.0), 0.0),
        ]);
        assert!((after.value - 1464.06).abs() < 0.01, "{after:?}");
        assert!((after.deviation - 151.52).abs() < 0.01, "{after:?}");
        assert!((after.volatility - 0.05999).abs() < 0.00001, "{after:?}");
    }

    #[test]
    fn a_solved_puzzle_loses_points_and_its_player_gains_them() {
        let puzzle = Rating::of_difficulty(Some(40));
        assert_eq!(puzzle.value, 1600.0);
        let (p, q) = attempt(puzzle, Rating::NEW_PLAYER, true);
        assert!(p.value < puzzle.value && q.value > 1500.0, "{p:?} {q:?}");
        assert!(p.deviation < puzzle.deviation);
        let (p, q) = attempt(puzzle, Rating::NEW_PLAYER, false);
        assert!(p.value > puzzle.value && q.value < 1500.0, "{p:?} {q:?}");
    }

    #[test]
    fn the_difficulty_map_is_monotone_onto_1000_to_2500() {
        let values: Vec<f64> = (0..=100)
            .map(|d| Rating::of_difficulty(Some(d)).value)
            .collect();
        assert_eq!((values[0], values[100]), (1000.0, 2500.0));
        assert!(values.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn every_rating_a_client_may_send_updates_to_finite_numbers() {
        for value in [0.0, 1.0, 1500.0, 3999.0, 4000.0] {
            for deviation in [0.001, 1.0, 30.0, 350.0] {
                for volatility in [0.000_001, 0.06, 0.5, 0.999] {
                    let player = Rating {
                        value,
                        deviation,
                        volatility,
                    };
                    assert_eq!(player.check(), Ok(()));
                    for puzzle in [
                        Rating::of_difficulty(Some(0)),
                        Rating::of_difficulty(Some(100)),
                    ] {
                        for solved in [true, false] {
                            let (p, q) = attempt(puzzle, player, solved);
                            for r in [p, q] {
                                assert!(
                                    r.value.is_finite()
                                        && r.deviation.is_finite()
                                        && r.deviation > 0.0
                                        && r.volatility.is_finite()
                                        && r.volatility > 0.0,
                                    "{player:?} {puzzle:?} {solved}: {r:?}"
                                );
                            }
                        }
                    }
                }
            }
        }
        let bad = |value, deviation, volatility| {
            Rating {
                value,
                deviation,
                volatility,
            }
            .check()
            .unwrap_err()
            .field
        };
        assert_eq!(bad(f64::NAN, 200.0, 0.06), "rating");
        assert_eq!(bad(-1.0, 200.0, 0.06), "rating");
        assert_eq!(bad(1500.0, -5.0, 0.06), "deviation");
        assert_eq!(bad(1500.0, 351.0, 0.06), "deviation");
        assert_eq!(bad(1500.0, 200.0, 0.0), "volatility");
        assert_eq!(bad(1500.0, 200.0, f64::INFINITY), "volatility");
    }
}
