//! The bounds of a season's points scale and count (`docs/seasons.md` section 1). They
//! live here, below the season, because a final's recorded seeding carries a scale
//! that the tournament's own audit checks; the season's validation is this one.

/// Longest scale: places beyond it earn 0.
pub const MAX_PLACES: usize = 64;
/// Most points one place earns.
pub const MAX_POINTS: u32 = 1_000_000;
/// Largest "best N".
pub const MAX_BEST: u32 = 100;
/// Most tournaments in one season.
pub const MAX_MEMBERS: usize = 100;

/// What is wrong with a scale and a count, with the field it is about, or `None`.
pub fn scale_problem(points: &[u32], best: Option<u32>) -> Option<(&'static str, String)> {
    if points.is_empty() || points.len() > MAX_PLACES {
        return Some(("points", format!("1 to {MAX_PLACES} places")));
    }
    if points.iter().any(|&p| p > MAX_POINTS) {
        return Some(("points", format!("0 to {MAX_POINTS} points a place")));
    }
    if points.windows(2).any(|w| w[1] > w[0]) {
        return Some((
            "points",
            "a place never earns more than the place above it".into(),
        ));
    }
    if let Some(best) = best
        && !(1..=MAX_BEST).contains(&best)
    {
        return Some((
            "best",
            format!("1 to {MAX_BEST} results, or absent for all"),
        ));
    }
    None
}
