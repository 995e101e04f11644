//! The desk's controls of the venue's wall screen (`/t/{id}/projector`): the round
//! clock, started for so many minutes or stopped, and one announcement in large type.
//! Both are tournament commands (`set_round_clock`, `announce`), sent by `desk.js`.

use maud::{Markup, html};
use serde_json::json;

use crate::http::pages::lang::Lang;
use crate::http::pages::text;
use crate::http::pages::tournament::{Loaded, clock_left};

pub fn controls(t: &Loaded, lang: Lang) -> Markup {
    let left = clock_left(t.view.clock_ends_at);
    html! {
        section aria-labelledby="screen" {
            h2 #screen { (text::PROJECTOR.get(lang)) }
            p { a href={ "/t/" (t.id) "/projector" } target="_blank" { (text::OPEN_PROJECTOR.get(lang)) } }
            p data-desk-clock-state {
                (text::ROUND_CLOCK.get(lang)) ": "
                @match left {
                    None => (text::NO_CLOCK.get(lang)),
                    Some(0) => (text::TIME_UP.get(lang)),
                    Some(seconds) => (text::CLOCK_LEFT.get(lang).replace("{minutes}", &((seconds + 59) / 60).to_string())),
                }
            }
            form.inline data-desk-clock {
                label for="clock-minutes" { (text::CLOCK_MINUTES.get(lang)) }
                " "
                input #clock-minutes name="minutes" type="number" min="1" max="600" required;
                " "
                button type="submit" { (text::START_CLOCK.get(lang)) }
                @if left.is_some() {
                    " "
                    button type="button" class="secondary"
                        data-command=(json!({"command": "set_round_clock"}).to_string()) {
                        (text::STOP_CLOCK.get(lang))
                    }
                }
            }
            form.inline data-desk-announce {
                label for="announcement" { (text::ANNOUNCEMENT.get(lang)) }
                " "
                input #announcement name="text" type="text" maxlength="280" required
                    value=[t.view.announcement.as_deref()];
                " "
                button type="submit" { (text::SHOW_ON_PROJECTOR.get(lang)) }
                @if t.view.announcement.is_some() {
                    " "
                    button type="button" class="secondary"
                        data-command=(json!({"command": "announce", "text": ""}).to_string()) {
                        (text::TAKE_DOWN.get(lang))
                    }
                }
            }
        }
    }
}
