//! The server's own moves at a table: dealing each round from a fresh secret seed,
//! and playing the bot seats.
//!
//! After every accepted command ([`advance`]) the server
//!
//! 1. deals the next round when one is due (a fresh 32-byte seed from the OS
//!    generator; the round-1 starter is drawn uniformly from the seats, later
//!    starters follow from the rules);
//! 2. offers the open out-of-turn window (slap-down, add-ons) to the bot seats, in
//!    rounds starting with the thrower, until a whole round passes with no card laid
//!    (as `yaniv_domain::sim` does);
//! 3. lets the bot that must act (throw or call, declare) act, and goes back to 1;
//!
//! until a human seat must act or the game is over. Everything is appended with
//! the command that caused it, in one transaction.
//!
//! Bounds: at most [`MAX_SERVER_COMMANDS`] commands per request. A whole game
//! between four greedy bots is about 900 events, so the bound is only reached by a
//! runaway; then the loop stops (logged), the table waits, and the next accepted
//! command continues. A bot whose command the rules refuse (a bug) stops the loop
//! the same way rather than failing the human's request.
//!
//! Humans and bots race for the out-of-turn window like everyone else: the bots are
//! offered it at once, and a human's slap-down or add-on is accepted as long as the
//! window is open when it arrives (it closes with the next throw, which a bot makes
//! without waiting).

use yaniv_domain::bots::{AnyBot, Bot, BotView};
use yaniv_domain::game::{Command, DealSource, Event as GameEvent, Game, Seat};
use yaniv_domain::rules::SlapDown;
use yaniv_domain::shuffle::Seed;

use super::events::BotKindName;
use crate::error::ApiError;

/// Most commands (deals and bot actions) the server makes for one request.
pub const MAX_SERVER_COMMANDS: usize = 20_000;

/// The bots of a table, one slot per seat (`None` for human seats). Their memory of
/// the round is a heuristic only: a bot rebuilt from scratch plays as legally.
pub type Bots = Vec<Option<AnyBot>>;

/// Fresh bots for the seats of `kinds`, seeded from the OS generator.
pub fn make_bots(kinds: &[Option<BotKindName>]) -> Result<Bots, ApiError> {
    kinds
        .iter()
        .map(|kind| {
            kind.map(|kind| Ok(kind.domain().make(random_u64()?)))
                .transpose()
        })
        .collect()
}

/// A fresh deal seed: 32 bytes from the OS generator.
pub fn fresh_seed() -> Result<Seed, ApiError> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).map_err(|e| ApiError::unexpected("reading the OS RNG", e))?;
    Ok(Seed(bytes))
}

fn random_u64() -> Result<u64, ApiError> {
    let mut bytes = [0u8; 8];
    getrandom::fill(&mut bytes).map_err(|e| ApiError::unexpected("reading the OS RNG", e))?;
    Ok(u64::from_le_bytes(bytes))
}

/// Uniform in `0..n` (`n >= 1`), without modulo bias.
pub fn random_below(n: u32) -> Result<u32, ApiError> {
    let n = n.max(1);
    let limit = u32::MAX - (u32::MAX % n);
    loop {
        let mut bytes = [0u8; 4];
        getrandom::fill(&mut bytes).map_err(|e| ApiError::unexpected("reading the OS RNG", e))?;
        let x = u32::from_le_bytes(bytes);
        if x < limit {
            return Ok(x % n);
        }
    }
}

/// The deal of the next round: a fresh seed; the starter drawn at random for round 1.
pub fn deal_command(game: &Game) -> Result<Command, ApiError> {
    let starter = if game.round_number() == 0 {
        let seats = u32::try_from(game.players().len()).unwrap_or(1);
        Some(Seat::try_from(random_below(seats)?).unwrap_or(0))
    } else {
        None
    };
    Ok(Command::Deal {
        starter,
        source: DealSource::Seeded(fresh_seed()?),
    })
}

/// Why [`advance`] stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    /// A human seat must act.
    HumanToAct(Seat),
    /// The game is over.
    Finished,
    /// [`MAX_SERVER_COMMANDS`] reached.
    Bounded,
    /// A bot returned nothing or something the rules refused (a bug, logged).
    BotFailed(Seat),
}

/// Plays the server's part from the state of `game` (see the module docs), folding
/// every event into `game` and pushing it to `out`.
pub fn advance(
    game: &mut Game,
    bots: &mut Bots,
    out: &mut Vec<GameEvent>,
) -> Result<Stop, ApiError> {
    let windows = game
        .rules()
        .is_some_and(|r| r.slap_down != SlapDown::Off || r.add_ons.any());
    let mut commands = 0usize;
    let execute =
        |game: &mut Game, command: &Command, out: &mut Vec<GameEvent>, commands: &mut usize| {
            *commands += 1;
            game.execute(command).map(|events| out.extend(events))
        };
    loop {
        if game.is_finished() {
            return Ok(Stop::Finished);
        }
        if commands >= MAX_SERVER_COMMANDS {
            tracing::warn!(
                commands,
                "the server's moves reached their bound for one request"
            );
            return Ok(Stop::Bounded);
        }
        if game.needs_deal() {
            let deal = deal_command(game)?;
            execute(game, &deal, out, &mut commands)
                .map_err(|e| ApiError::unexpected("dealing a round", e))?;
            continue;
        }
        if windows && let Some(thrower) = game.top_thrower() {
            if let Some(stop) = offer_window(game, bots, thrower, out, &mut commands) {
                return Ok(stop);
            }
            if !game.round_in_progress() {
                continue;
            }
        }
        let Some(seat) = game.to_act() else {
            // A round in progress always has someone to act; be safe anyway.
            return Ok(Stop::Finished);
        };
        let Some(bot) = bots.get_mut(seat as usize).and_then(Option::as_mut) else {
            return Ok(Stop::HumanToAct(seat));
        };
        let Some(command) = bot.act(&BotView::new(game, seat)) else {
            tracing::error!(seat, "a bot had to act but chose nothing");
            return Ok(Stop::BotFailed(seat));
        };
        if let Err(error) = execute(game, &command, out, &mut commands) {
            tracing::error!(seat, ?command, %error, "a bot's command was refused");
            return Ok(Stop::BotFailed(seat));
        }
    }
}

/// The out-of-turn window after `thrower`'s throw: rounds of offers to the bot seats,
/// the thrower first, until a whole round passes with no card laid.
fn offer_window(
    game: &mut Game,
    bots: &mut Bots,
    thrower: Seat,
    out: &mut Vec<GameEvent>,
    commands: &mut usize,
) -> Option<Stop> {
    let seats = bots.len();
    let mut laid_any = true;
    while laid_any && game.round_in_progress() && *commands < MAX_SERVER_COMMANDS {
        laid_any = false;
        for i in 0..seats {
            let seat = ((thrower as usize + i) % seats) as Seat;
            if !game.round_in_progress() || game.is_eliminated(seat) {
                continue;
            }
            let Some(bot) = bots.get_mut(seat as usize).and_then(Option::as_mut) else {
                continue;
            };
            if let Some(command) = bot.out_of_turn(&BotView::new(game, seat)) {
                *commands += 1;
                match game.execute(&command) {
                    Ok(events) => out.extend(events),
                    Err(error) => {
                        tracing::error!(seat, ?command, %error, "a bot's out-of-turn command was refused");
                        return Some(Stop::BotFailed(seat));
                    }
                }
                laid_any = true;
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use yaniv_domain::rules::Preset;

    fn created(preset: Preset, players: usize) -> (Game, Vec<GameEvent>) {
        let mut game = Game::new();
        let log = game
            .execute(&Command::Create {
                rules: preset.rules(),
                players: (0..players).map(|i| format!("p{i}")).collect(),
                initial_totals: vec![],
            })
            .unwrap();
        (game, log)
    }

    #[test]
    fn bots_play_a_whole_game_when_nobody_else_sits() {
        for preset in [
            Preset::Israeli,
            Preset::Belgian,
            Preset::Kluft,
            Preset::House,
        ] {
            let (mut game, mut log) = created(preset, 3);
            let mut bots = make_bots(&[
                Some(BotKindName::Greedy),
                Some(BotKindName::Random),
                Some(BotKindName::Greedy),
            ])
            .unwrap();
            let stop = advance(&mut game, &mut bots, &mut log).unwrap();
            assert_eq!(stop, Stop::Finished, "{preset}");
            let replayed = Game::replay_checked(&log);
            assert!(replayed.is_ok(), "{preset}: {:?}", replayed.err());
        }
    }

    #[test]
    fn the_loop_stops_where_a_human_must_act() {
        let (mut game, _) = created(Preset::Israeli, 2);
        let mut bots = make_bots(&[None, Some(BotKindName::Greedy)]).unwrap();
        let mut out = Vec::new();
        let stop = advance(&mut game, &mut bots, &mut out).unwrap();
        assert_eq!(stop, Stop::HumanToAct(0));
        assert_eq!(game.to_act(), Some(0));
        assert!(matches!(out[0], GameEvent::RoundDealt(_)));
    }

    #[test]
    fn random_indices_are_in_range() {
        for n in 1..10 {
            for _ in 0..20 {
                assert!(random_below(n).unwrap() < n);
            }
        }
    }
}
