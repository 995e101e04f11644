//! The one loop that plays a game's bot seats: [`crate::sim`] runs whole bot games
//! with it, and a server table ([`crate::table`]) runs it after every human command.
//!
//! While the game is not over: deal when a round is due ([`TurnLoop::deal`]); otherwise
//! ask the seat that must act. A bot answers with its command; a human seat stops the
//! loop ([`Stop::HumanToAct`]). After every throw, and once on entry when a throw is
//! still open (a human just threw), the out-of-turn window is offered when the rules
//! have slap-downs or add-ons: the thrower and then every other seat in the direction of
//! play are asked [`Bot::out_of_turn`], in rounds, until a whole round passes with
//! nobody laying a card (each card laid can make another fit, as in the Belgian example
//! of two players extending one run). Human seats are skipped there: they send their
//! own slap-downs and add-ons while the window stays open.
//!
//! A driver with clocks (a server table) may hold that window open for its humans
//! ([`TurnLoop::window_held`]): the loop then stops ([`Stop::WindowHeld`]) instead of
//! letting the next seat throw, and once the driver has closed the window
//! ([`TurnLoop::window_closed`]) no bot lays a card on that throw any more.

use crate::bots::{Bot, BotView};
use crate::game::{Command, Game, Seat};
use crate::rules::SlapDown;

/// Who plays a seat, as the loop sees it.
#[derive(Debug)]
pub enum SeatPlayer<'b, B> {
    /// The seat's bot.
    Bot(&'b mut B),
    /// A human: the loop never acts for it.
    Human,
}

/// What the loop needs from its driver.
pub trait TurnLoop {
    type Bot: Bot;
    /// Why a command could not be carried out (a refusal, a bound reached).
    type Error;

    /// Who plays `seat`.
    fn player(&mut self, seat: Seat) -> SeatPlayer<'_, Self::Bot>;

    /// The command that deals the next round of `game` (its seed, and the starter of
    /// round 1), or `None` while the deal waits for something outside the game (the
    /// players' contributions to its seed).
    fn deal(&mut self, game: &Game) -> Result<Option<Command>, Self::Error>;

    /// Decides `command` on `game` and folds its events into it.
    fn execute(&mut self, game: &mut Game, command: &Command) -> Result<(), Self::Error>;

    /// Whether the window on the top throw stays open for seats the loop does not play
    /// (the next throw waits for it).
    fn window_held(&self) -> bool {
        false
    }

    /// Whether the driver closed the window on the top throw before the rules would.
    fn window_closed(&self) -> bool {
        false
    }
}

/// Why [`run`] stopped without an error.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    /// A human seat must act.
    HumanToAct(Seat),
    /// The game is over.
    Finished,
    /// The out-of-turn window on the top throw is held open ([`TurnLoop::window_held`]).
    WindowHeld,
    /// The next deal waits ([`TurnLoop::deal`] gave none).
    DealWaits,
}

/// Why [`run`] gave up.
#[derive(Debug, Clone, PartialEq)]
pub enum LoopError<E> {
    /// The driver could not deal or carry out a command.
    Driver(E),
    /// A bot that had to act chose nothing (a bot bug: the rules always leave a seat
    /// that must act something legal).
    NoAction { seat: Seat },
    /// The round is in progress but nobody is to act (an engine bug).
    NobodyToAct,
}

/// Plays `game` on from where it is (see the module docs).
pub fn run<D: TurnLoop>(game: &mut Game, driver: &mut D) -> Result<Stop, LoopError<D::Error>> {
    let windows = game
        .rules()
        .is_some_and(|r| r.slap_down != SlapDown::Off || r.add_ons.any());
    if windows && let Some(thrower) = game.top_thrower() {
        offer_window(game, driver, thrower)?;
        if driver.window_held() {
            return Ok(Stop::WindowHeld);
        }
    }
    loop {
        if game.is_finished() {
            return Ok(Stop::Finished);
        }
        if game.needs_deal() {
            let Some(deal) = driver.deal(game).map_err(LoopError::Driver)? else {
                return Ok(Stop::DealWaits);
            };
            driver.execute(game, &deal).map_err(LoopError::Driver)?;
            continue;
        }
        let seat = game.to_act().ok_or(LoopError::NobodyToAct)?;
        let command = match driver.player(seat) {
            SeatPlayer::Human => return Ok(Stop::HumanToAct(seat)),
            SeatPlayer::Bot(bot) => bot
                .act(&BotView::new(game, seat))
                .ok_or(LoopError::NoAction { seat })?,
        };
        driver.execute(game, &command).map_err(LoopError::Driver)?;
        if windows && matches!(command, Command::Play { .. }) {
            offer_window(game, driver, seat)?;
            if driver.window_held() {
                return Ok(Stop::WindowHeld);
            }
        }
    }
}

/// The out-of-turn window after `thrower`'s throw.
fn offer_window<D: TurnLoop>(
    game: &mut Game,
    driver: &mut D,
    thrower: Seat,
) -> Result<(), LoopError<D::Error>> {
    let players = game.players().len();
    loop {
        let mut laid = false;
        for i in 0..players {
            if !game.round_in_progress() || !game.window_open() || driver.window_closed() {
                return Ok(());
            }
            let seat = ((thrower as usize + i) % players) as Seat;
            if game.is_eliminated(seat) {
                continue;
            }
            let SeatPlayer::Bot(bot) = driver.player(seat) else {
                continue;
            };
            if let Some(command) = bot.out_of_turn(&BotView::new(game, seat)) {
                driver.execute(game, &command).map_err(LoopError::Driver)?;
                laid = true;
            }
        }
        if !laid {
            return Ok(());
        }
    }
}
