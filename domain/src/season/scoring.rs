//! The points a place earns and how many results count (`docs/seasons.md` section 1).

use serde::{Deserialize, Serialize};

use super::error::SeasonError;
use crate::tournament::season_scale::scale_problem;

pub use crate::tournament::season_scale::{MAX_BEST, MAX_MEMBERS, MAX_PLACES, MAX_POINTS};

/// A season's scale and count.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Scoring {
    /// Points of places 1, 2, 3, ..., never rising.
    pub points: Vec<u32>,
    /// How many of a player's results count; absent: all of them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub best: Option<u32>,
}

impl Scoring {
    /// The points place `place` (from 1) earns.
    pub fn points_of(&self, place: u32) -> u32 {
        let index = usize::try_from(place).unwrap_or(usize::MAX);
        index
            .checked_sub(1)
            .and_then(|i| self.points.get(i))
            .copied()
            .unwrap_or(0)
    }

    /// Refuses a scale or a count outside section 1's bounds, naming the field.
    pub fn validate(&self) -> Result<(), SeasonError> {
        match scale_problem(&self.points, self.best) {
            None => Ok(()),
            Some((field, message)) => Err(SeasonError::BadSeason { field, message }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn field(points: &[u32], best: Option<u32>) -> Option<&'static str> {
        let scoring = Scoring {
            points: points.to_vec(),
            best,
        };
        match scoring.validate() {
            Ok(()) => None,
            Err(SeasonError::BadSeason { field, .. }) => Some(field),
            Err(other) => panic!("{other:?}"),
        }
    }

    /// seasons.md 1: "1 to 64 whole numbers from 0 to 1,000,000, never rising from one
    /// place to the next"; "best: ... 1 to 100; absent ... means all".
    #[test]
    fn a_scale_never_rises_and_a_count_is_one_to_a_hundred() {
        assert_eq!(field(&[10, 6, 4], Some(2)), None);
        assert_eq!(field(&[5, 5, 0], None), None);
        assert_eq!(field(&[], None), Some("points"));
        assert_eq!(field(&[4, 6], None), Some("points"));
        assert_eq!(field(&[MAX_POINTS + 1], None), Some("points"));
        assert_eq!(field(&[1; MAX_PLACES + 1], None), Some("points"));
        assert_eq!(field(&[1], Some(0)), Some("best"));
        assert_eq!(field(&[1], Some(MAX_BEST + 1)), Some("best"));
    }

    /// seasons.md 2: "points = the scale's entry for that place ... or 0 beyond the
    /// scale".
    #[test]
    fn a_place_beyond_the_scale_earns_nothing() {
        let scoring = Scoring {
            points: vec![10, 6, 4],
            best: None,
        };
        assert_eq!(
            [0, 1, 2, 3, 4, u32::MAX].map(|p| scoring.points_of(p)),
            [0, 10, 6, 4, 0, 0]
        );
    }
}
