//! Which later draws a changed result affects.
//!
//! TOURNAMENT.md: "A correction to a game whose result already fed later rounds
//! recomputes the standings from the events; draws already made stand and are flagged,
//! unless the organizer redraws the round that has not started."
//!
//! A draw is *affected* when it would have come out differently had the change been
//! known: for every round drawn (or redrawn) after the changed table's round, the state
//! just before that draw is folded from the events, the change is applied to it, and the
//! draw is planned again with its own seed. If the entrants, tables or byes differ, or the
//! draw is no longer possible (a voided game leaves its round incomplete), the round is
//! flagged. Standings themselves need no flag: they are always computed from the results
//! in force.

use std::collections::BTreeSet;

use super::super::Tournament;
use super::super::event::Event;
use super::super::refs::{RoundRef, TableRef};
use super::super::state::State;

impl Tournament {
    /// The rounds drawn after `at`'s round whose draw `change` (an event about `at`)
    /// alters.
    pub(crate) fn flags(&self, at: TableRef, change: &Event) -> Vec<RoundRef> {
        let changed = at.round_ref();
        let later_draw = self
            .state
            .stages
            .iter()
            .flat_map(|s| s.rounds.iter())
            .any(|r| r.draw.round_ref() > changed);
        if !later_draw {
            return Vec::new();
        }
        let mut state = State::default();
        let mut flagged = BTreeSet::new();
        for event in &self.log {
            if let Event::RoundDrawn(d) | Event::RoundRedrawn(d) = event
                && d.round_ref() > changed
            {
                let mut what_if = state.clone();
                what_if.apply(change);
                let same = what_if
                    .plan_draw(d.stage, d.round, &d.seed)
                    .is_ok_and(|plan| plan.matches(d));
                if !same {
                    flagged.insert(d.round_ref());
                } else {
                    flagged.remove(&d.round_ref());
                }
            }
            state.apply(event);
        }
        flagged.into_iter().collect()
    }

    /// `change` (a result recorded, corrected or voided, its flags empty) with the later
    /// draws it alters flagged.
    pub(super) fn flagged(&self, mut change: Event) -> Event {
        if let Some((at, _)) = change_flags(&mut change) {
            let flags = self.flags(at, &change);
            if let Some((_, flagged)) = change_flags(&mut change) {
                *flagged = flags;
            }
        }
        change
    }
}

/// The table a result change is about and the rounds it flags; `None` for every other
/// event.
pub(crate) fn change_flags(event: &mut Event) -> Option<(TableRef, &mut Vec<RoundRef>)> {
    match event {
        Event::ResultRecorded(e) => Some((e.table, &mut e.flagged)),
        Event::ResultCorrected(e) => Some((e.table, &mut e.flagged)),
        Event::GameVoided(e) => Some((e.table, &mut e.flagged)),
        Event::NoShowRecorded(e) => Some((e.table, &mut e.flagged)),
        _ => None,
    }
}
