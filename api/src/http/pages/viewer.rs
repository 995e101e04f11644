//! The replay viewer's body, shared by the two pages that step through a game: a stored
//! table at any version (`desk/replay.rs`) and a pasted or uploaded game record
//! (`record.rs`). `assets/replay.js` fills it from either source, so both show a game
//! the same way: the controls, the position, every hand, the stock, the round's
//! discard pile and the list of events to jump to.

use maud::{Markup, html};

use super::lang::{Lang, json_by_key};
use super::text;

/// The controls and places of the viewer. `step_word` names what it steps through
/// (versions of a table, steps of a record).
pub fn viewer(lang: Lang, caption: &str, step_word: &str, go_to: &str) -> Markup {
    html! {
        nav.replay-controls aria-label=(step_word) {
            button type="button" data-step="first" { (text::FIRST.get(lang)) }
            button type="button" data-step="back" { (text::BACK_ONE.get(lang)) }
            button type="button" data-step="forward" { (text::FORWARD_ONE.get(lang)) }
            button type="button" data-step="last" { (text::LAST.get(lang)) }
            form.jump data-replay-jump {
                label for="as-of" { (go_to) }
                " "
                input #as-of name="as_of" type="number" min="1" inputmode="numeric";
                " "
                button type="submit" { (text::GO.get(lang)) }
            }
        }
        p.replay-position data-replay-position aria-live="polite" { }
        p.failure-here data-replay-failure-here hidden { }
        // Focusable, so a keyboard can scroll the hands on a narrow screen.
        div.scroll tabindex="0" {
            table.grid.replay-seats {
                caption.vh { (caption) }
                thead {
                    tr {
                        th scope="col" { (text::SEAT.get(lang)) }
                        th scope="col" { (text::PLAYER.get(lang)) }
                        th scope="col" { (text::HAND_CARDS.get(lang)) }
                        th scope="col" { (text::HAND_TOTAL.get(lang)) }
                        th scope="col" { (text::SCORE.get(lang)) }
                    }
                }
                tbody data-replay-seats { }
            }
        }
        p data-replay-stock { }
        div.replay-columns {
            section aria-labelledby="pile-title" {
                h2 #pile-title data-replay-pile-title { (text::DISCARD_PILE.get(lang)) }
                ol.pile data-replay-pile { }
            }
            section aria-labelledby="events-title" {
                h2 #events-title { (text::EVENTS.get(lang)) }
                ol.events data-replay-events { }
            }
        }
        template data-replay-labels
            data-step-word=(step_word)
            data-of=(text::OF.get(lang))
            data-event=(text::EVENT.get(lang))
            data-record=(text::RECORD_ACTION.get(lang))
            data-to-act=(text::TO_ACT.get(lang))
            data-empty-seat=(text::EMPTY_SEAT.get(lang))
            data-stock=(text::STOCK.get(lang))
            data-cards=(text::CARDS.get(lang))
            data-pile=(text::DISCARD_PILE.get(lang))
            data-turned-up=(text::TURNED_UP.get(lang))
            data-drew-stock=(text::DREW_STOCK.get(lang))
            data-drew-discard=(text::DREW_DISCARD.get(lang))
            data-taken-by=(text::TAKEN_BY.get(lang))
            data-pile-of=(text::PILE_OF.get(lang))
            data-pile-killed=(text::PILE_KILLED.get(lang))
            data-laid-on=(text::LAID_ON.get(lang))
            data-reshuffled=(text::RESHUFFLED.get(lang))
            data-not-dealt=(text::NOT_DEALT.get(lang))
            data-verified=(text::VERIFIED.get(lang))
            data-first-failure=(text::FIRST_FAILURE.get(lang))
            data-go-to-failure=(text::GO_TO_FAILURE.get(lang))
            data-this-is-the-failure=(text::THIS_IS_THE_FAILURE.get(lang))
            data-table-created=(text::TABLE_CREATED.get(lang))
            data-record-replays=(text::RECORD_REPLAYS.get(lang))
            data-record-problem=(text::RECORD_PROBLEM.get(lang))
            data-at-line=(text::AT_LINE.get(lang))
            data-json-hints=(json_by_key(text::JSON_HINTS, lang))
            data-record-stops-here=(text::RECORD_STOPS_HERE.get(lang))
            data-go-to-stop=(text::GO_TO_STOP.get(lang))
            data-card-names=(text::CARD_NAMES.get(lang))
            data-round-word=(text::ROUND_WORD.get(lang))
            data-event-names=(text::EVENT_NAMES.get(lang)) { }
    }
}
