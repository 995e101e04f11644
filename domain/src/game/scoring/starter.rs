//! Who deals and starts the next round (RULES.md parameter "starter of a round").

use crate::rules::{Rules, StarterRule};

use super::super::event::{MAX_PLAYERS, Seat};

/// `order`: the round's players from the caller's left round to the caller; `survivors`:
/// those still in the game, in the same order. Returns (dealer, starter).
pub(super) fn next_round(
    rules: &Rules,
    dealer: Seat,
    winner: Seat,
    order: &[Seat],
    survivors: &[Seat],
    hands: &[u32; MAX_PLAYERS],
    seats: usize,
) -> (Option<Seat>, Seat) {
    // The first survivor after `seat` in the direction of play.
    let after = |seat: Seat| -> Seat {
        (1..=seats as Seat)
            .map(|i| (seat + i) % seats as Seat)
            .find(|s| survivors.contains(s))
            .unwrap_or(seat)
    };
    match rules.next_starter {
        StarterRule::LowestHand => {
            // RULES.md interpretation 11: "the lowest hand of the round; ties go to the first
            // of them counting from the caller's left". Among the players still in.
            let starter = survivors
                .iter()
                .copied()
                .fold(None, |best: Option<Seat>, s| match best {
                    Some(b) if hands[b as usize] <= hands[s as usize] => Some(b),
                    _ => Some(s),
                })
                .or_else(|| order.first().copied())
                .unwrap_or(winner);
            (None, starter)
        }
        StarterRule::LeftOfDealer => {
            // RULES.md interpretation 2: "The dealer rotates one seat clockwise each round".
            let dealer = after(dealer);
            (Some(dealer), after(dealer))
        }
        StarterRule::LeftOfRoundWinner => {
            // yaniv.co: "After each round, the winner shuffles and deals, and the player to
            // his or her left goes first."
            let dealer = if survivors.contains(&winner) {
                winner
            } else {
                after(winner)
            };
            (Some(dealer), after(dealer))
        }
    }
}
