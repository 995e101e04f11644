//! A player's rating over time as an SVG drawn on the server: a line through the rating
//! after each rated game, one point per game, evenly spaced (a tournament's games come
//! minutes apart and months may pass between tournaments: spacing by time would pile
//! them up). No script draws it, so it prints and shows without JavaScript; its colours
//! come from the style sheet, as the pages' policy wants.

use maud::{Markup, html};

use crate::http::pages::format::figure;
use crate::http::pages::lang::Lang;
use crate::http::pages::text;

const WIDTH: f64 = 640.0;
const HEIGHT: f64 = 260.0;
const LEFT: f64 = 60.0;
const RIGHT: f64 = 16.0;
const TOP: f64 = 14.0;
const BOTTOM: f64 = 34.0;
/// About as many labels as fit under the axis at a phone's width.
const MOST_GAME_LABELS: usize = 8;

/// The rating axis: from `low` to `high` in steps of `step`, all round numbers.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Scale {
    low: f64,
    high: f64,
    step: f64,
}

impl Scale {
    /// Round numbers around `values`, about four steps between them.
    fn around(values: &[f64]) -> Scale {
        let lowest = values.iter().copied().fold(f64::INFINITY, f64::min);
        let highest = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let (lowest, highest) = if highest - lowest < 1.0 {
            let middle = (lowest + highest) / 2.0;
            (middle - 0.5, middle + 0.5)
        } else {
            (lowest, highest)
        };
        let rough = (highest - lowest) / 4.0;
        let magnitude = 10f64.powf(rough.log10().floor());
        let step = [1.0, 2.0, 5.0, 10.0]
            .into_iter()
            .map(|m| m * magnitude)
            .find(|&s| s >= rough)
            .unwrap_or(10.0 * magnitude);
        Scale {
            low: (lowest / step).floor() * step,
            high: (highest / step).ceil() * step,
            step,
        }
    }

    fn ticks(self) -> impl Iterator<Item = f64> {
        let count = ((self.high - self.low) / self.step).round() as usize;
        (0..=count).map(move |k| self.low + k as f64 * self.step)
    }

    fn y(self, value: f64) -> f64 {
        TOP + (self.high - value) / (self.high - self.low) * (HEIGHT - TOP - BOTTOM)
    }

    /// A tick's label, with as many decimals as the step needs.
    fn label(self, value: f64) -> String {
        let decimals = if self.step >= 1.0 {
            0
        } else if self.step >= 0.1 {
            1
        } else {
            2
        };
        format!("{value:.decimals$}").replace('-', "−")
    }
}

/// The x of game `k` (from 0) of `count`.
fn x(k: usize, count: usize) -> f64 {
    let width = WIDTH - LEFT - RIGHT;
    if count < 2 {
        LEFT + width / 2.0
    } else {
        LEFT + width * k as f64 / (count - 1) as f64
    }
}

/// The chart of `ratings` (the rating after each game, in order), labelled by the
/// element `labelled_by` (its heading) and described in words for screen readers. The
/// axis of games is named by the figure's caption, in the page's type, which stays
/// readable when a phone shrinks the drawing.
pub fn chart(ratings: &[f64], lang: Lang, labelled_by: &str) -> Markup {
    let scale = Scale::around(ratings);
    let count = ratings.len();
    let points: Vec<(f64, f64)> = ratings
        .iter()
        .enumerate()
        .map(|(k, &r)| (x(k, count), scale.y(r)))
        .collect();
    let line: String = points
        .iter()
        .map(|(x, y)| format!("{x:.1},{y:.1}"))
        .collect::<Vec<_>>()
        .join(" ");
    let every = count.div_ceil(MOST_GAME_LABELS).max(1);
    let lowest = ratings.iter().copied().fold(f64::INFINITY, f64::min);
    let highest = ratings.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let description = text::CHART_DESCRIPTION
        .get(lang)
        .replace("{n}", &count.to_string())
        .replace("{low}", &figure(lowest))
        .replace("{high}", &figure(highest));
    let bottom = HEIGHT - BOTTOM;
    html! {
        svg.chart viewBox={ "0 0 " (WIDTH) " " (HEIGHT) } role="img"
            aria-labelledby={ (labelled_by) " chart-description" } {
            desc #chart-description { (description) }
            @for tick in scale.ticks() {
                @let y = scale.y(tick);
                line.chart-grid x1=(LEFT) x2=(WIDTH - RIGHT) y1={ (format!("{y:.1}")) } y2={ (format!("{y:.1}")) } {}
                text.chart-label x=(LEFT - 6.0) y={ (format!("{y:.1}")) } text-anchor="end"
                    dominant-baseline="central" {
                    (scale.label(tick))
                }
            }
            line.chart-axis x1=(LEFT) x2=(WIDTH - RIGHT) y1=(bottom) y2=(bottom) {}
            @for k in (0..count).filter(|k| k % every == 0 || k + 1 == count) {
                text.chart-label x={ (format!("{:.1}", x(k, count))) } y=(bottom + 24.0) text-anchor="middle" {
                    (k + 1)
                }
            }
            polyline.chart-line points=(line) {}
            @for (k, (x, y)) in points.iter().enumerate() {
                circle.chart-point cx={ (format!("{x:.1}")) } cy={ (format!("{y:.1}")) } r="4" {
                    title { (text::GAME_NUMBER.get(lang)) " " (k + 1) ": " (figure(ratings[k])) }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_scale_takes_round_steps_around_the_ratings() {
        let scale = Scale::around(&[0.0, 3.2, 6.9]);
        assert_eq!(
            scale,
            Scale {
                low: 0.0,
                high: 8.0,
                step: 2.0
            }
        );
        assert_eq!(scale.ticks().count(), 5);
        let flat = Scale::around(&[4.3]);
        assert!(flat.low <= 4.3 && flat.high >= 4.3 && flat.high > flat.low);
        assert_eq!(Scale::around(&[-1.3, 0.4]).label(-1.0), "−1.0");
    }

    #[test]
    fn the_chart_has_a_point_per_game_and_says_what_it_shows() {
        let drawn = chart(&[0.0, 1.5, 0.8], Lang::En, "title").into_string();
        assert_eq!(drawn.matches("<circle").count(), 3);
        assert!(drawn.contains("3 rated games, from 0.00 at the lowest to 1.50"));
    }
}
