//! Declarations after a call, taken one by one from the caller's left (RULES.md
//! interpretations 3 and 8).

use super::super::error::GameError;
use super::super::event::{Event, OnderkluftDeclared, Seat, WentAlong};
use super::super::scoring::RoundEnding;
use super::super::state::{Game, Stage};

impl Game {
    pub(super) fn decide_go_along(&self, seat: Seat, going: bool) -> Result<Vec<Event>, GameError> {
        self.rules_in_round()?;
        self.check_seat(seat)?;
        let Stage::GoingAlong {
            caller,
            next,
            going: mask,
            ..
        } = self.round.stage
        else {
            return Err(GameError::DeclarationNotAllowed(
                "nobody is declaring whether to go along now",
            ));
        };
        if seat != next {
            return Err(GameError::NotYourTurn { expected: next });
        }
        let events = vec![Event::WentAlong(WentAlong { seat, going })];
        if self.next_active(next) != caller {
            return Ok(events);
        }
        let going = if going { mask | 1 << seat } else { mask };
        Ok(self.then_end_round(events, RoundEnding::GoAlong { caller, going }))
    }

    pub(super) fn decide_onderkluft(
        &self,
        seat: Seat,
        challenge: bool,
    ) -> Result<Vec<Event>, GameError> {
        self.rules_in_round()?;
        self.check_seat(seat)?;
        let Stage::Kluft {
            caller,
            next,
            challengers,
        } = self.round.stage
        else {
            return Err(GameError::DeclarationNotAllowed("nobody has called kluft"));
        };
        if seat != next {
            return Err(GameError::NotYourTurn { expected: next });
        }
        let events = vec![Event::OnderkluftDeclared(OnderkluftDeclared {
            seat,
            challenged: challenge,
        })];
        if self.next_active(next) != caller {
            return Ok(events);
        }
        let challengers = if challenge {
            challengers | 1 << seat
        } else {
            challengers
        };
        Ok(self.then_end_round(
            events,
            RoundEnding::Kluft {
                caller,
                challengers,
            },
        ))
    }
}
