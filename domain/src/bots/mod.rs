//! Bots: players that choose their commands from what their seat may see.
//!
//! - `view.rs`: [`BotView`], one seat's view of a game. It is the only way a bot sees the
//!   game: its own hand, the public table and the legal actions, produced without
//!   allocating. The game itself stays private to that module, so a bot cannot look at
//!   another hand or the stock.
//! - `random.rs`: [`RandomBot`], a uniformly random legal action (seeded).
//! - `greedy.rs`: [`GreedyBot`], keeps its hand total low; its heuristics are documented
//!   there.
//! - `stand_in.rs`: [`StandIn`], the fixed safe move the server makes for a seat whose
//!   clock ran out or that is marked absent.
//! - `turn_loop.rs`: [`turn_loop::run`], the one loop that deals and plays the bot seats,
//!   shared by the simulator and the server's tables.
//!
//! A driver ([`crate::sim`], or a server filling an empty seat) asks a bot twice:
//! [`Bot::act`] when the seat must act (throw and draw, or call, or declare), and
//! [`Bot::out_of_turn`] while cards may be laid on the top throw (slap-down for the
//! thrower, add-ons for the others). Whatever a bot returns is a command the rules accept
//! now: `domain/tests/properties.rs` sends every one through `Game::decide`.

mod greedy;
mod random;
mod stand_in;
pub mod turn_loop;
mod view;

pub use greedy::{GreedyBot, GreedyParams};
pub use random::RandomBot;
pub use stand_in::StandIn;
pub use view::{BotView, Declaration};

use std::fmt;
use std::str::FromStr;

use crate::game::Command;

/// A player of the game, deciding from one seat's view.
pub trait Bot {
    /// The seat of `view` must act now (`view.to_act() == Some(view.seat())`): throw and
    /// draw, call, go along or not, challenge or not. `None` only if it has nothing legal
    /// to do, which the rules never leave a seat that must act with.
    fn act(&mut self, view: &BotView<'_>) -> Option<Command>;

    /// A chance to play out of turn on the top throw: a slap-down (`view.slap()`) or an
    /// add-on (`view.for_each_add_on`). `None` passes.
    fn out_of_turn(&mut self, view: &BotView<'_>) -> Option<Command>;
}

impl<B: Bot + ?Sized> Bot for Box<B> {
    fn act(&mut self, view: &BotView<'_>) -> Option<Command> {
        (**self).act(view)
    }

    fn out_of_turn(&mut self, view: &BotView<'_>) -> Option<Command> {
        (**self).out_of_turn(view)
    }
}

impl<B: Bot + ?Sized> Bot for &mut B {
    fn act(&mut self, view: &BotView<'_>) -> Option<Command> {
        (**self).act(view)
    }

    fn out_of_turn(&mut self, view: &BotView<'_>) -> Option<Command> {
        (**self).out_of_turn(view)
    }
}

/// The bots by name, for command lines and configuration.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BotKind {
    Random,
    Greedy,
}

impl BotKind {
    pub const ALL: [BotKind; 2] = [BotKind::Random, BotKind::Greedy];

    pub fn name(self) -> &'static str {
        match self {
            BotKind::Random => "random",
            BotKind::Greedy => "greedy",
        }
    }

    /// A bot of this kind; `seed` feeds its random choices.
    pub fn make(self, seed: u64) -> AnyBot {
        match self {
            BotKind::Random => AnyBot::Random(RandomBot::new(seed)),
            BotKind::Greedy => AnyBot::Greedy(GreedyBot::new(GreedyParams::default(), seed)),
        }
    }
}

impl fmt::Display for BotKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for BotKind {
    type Err = String;

    fn from_str(name: &str) -> Result<Self, Self::Err> {
        BotKind::ALL
            .into_iter()
            .find(|k| k.name() == name)
            .ok_or_else(|| format!("unknown bot {name:?}: expected random or greedy"))
    }
}

/// Any of the bots, without boxing: tables of mixed bots stay statically dispatched.
#[derive(Debug, Clone)]
pub enum AnyBot {
    Random(RandomBot),
    Greedy(GreedyBot),
    /// The move the server makes for an absent or timed-out seat.
    StandIn(StandIn),
}

impl Bot for AnyBot {
    fn act(&mut self, view: &BotView<'_>) -> Option<Command> {
        match self {
            AnyBot::Random(bot) => bot.act(view),
            AnyBot::Greedy(bot) => bot.act(view),
            AnyBot::StandIn(bot) => bot.act(view),
        }
    }

    fn out_of_turn(&mut self, view: &BotView<'_>) -> Option<Command> {
        match self {
            AnyBot::Random(bot) => bot.out_of_turn(view),
            AnyBot::Greedy(bot) => bot.out_of_turn(view),
            AnyBot::StandIn(bot) => bot.out_of_turn(view),
        }
    }
}

/// The distinct cards of `cards`, in order (a throw from two decks may hold a card twice;
/// drawing either copy is the same command).
pub(crate) fn distinct(cards: crate::cards::Cards) -> crate::cards::Cards {
    let mut out = crate::cards::Cards::new();
    for c in cards.iter() {
        if !out.contains(c) {
            let _ = out.try_push(c);
        }
    }
    out
}

/// A game of `preset` dealt on paper: `hands` per seat, seat 0 to start (for the bots'
/// tests).
#[cfg(test)]
pub(crate) fn dealt(preset: crate::rules::Preset, hands: &[&str], up: &str) -> crate::game::Game {
    use crate::cards::{card, cards};
    use crate::game::{DealSource, Game};
    let mut game = Game::new();
    game.execute(&Command::Create {
        rules: preset.rules(),
        players: (0..hands.len()).map(|i| format!("p{i}")).collect(),
        initial_totals: vec![],
    })
    .expect("create");
    game.execute(&Command::Deal {
        starter: Some(0),
        source: DealSource::Explicit {
            hands: hands.iter().map(|h| cards(h)).collect(),
            up_card: card(up),
        },
    })
    .expect("deal");
    game
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::{Cards, card, cards};
    use crate::game::{DrawChoice, Game, Seat};
    use crate::rules::Preset;

    /// The bot's command for `seat`, which `decide` must accept.
    fn accepted(game: &Game, command: Option<Command>) -> Command {
        let command = command.expect("a command");
        game.decide(&command)
            .unwrap_or_else(|e| panic!("{command:?} refused: {e}"));
        command
    }

    /// Seat `seat` throws `throw` and draws `drawn` from the stock.
    fn play(game: &mut Game, seat: Seat, throw: &str, drawn: &str) {
        let (throw, draw) = (cards(throw), DrawChoice::StockCard(card(drawn)));
        game.execute(&Command::play(seat, throw, draw))
            .unwrap_or_else(|e| panic!("seat {seat} throwing {throw}: {e}"));
    }

    /// What a greedy bot at `seat` plays in its turn; `decide` must accept it.
    fn greedy_turn(game: &Game, seat: Seat) -> Command {
        accepted(game, GreedyBot::default().act(&BotView::new(game, seat)))
    }

    /// What a greedy bot at `seat` lays out of turn; `decide` must accept it.
    fn greedy_out_of_turn(game: &Game, seat: Seat) -> Command {
        accepted(
            game,
            GreedyBot::default().out_of_turn(&BotView::new(game, seat)),
        )
    }

    /// The second seat's hand where it does not matter (no card of it is used elsewhere).
    const OTHER: &str = "KC QC JC 10C 8D";

    #[test]
    fn greedy_calls_a_low_hand() {
        // RULES.md: "call ... at the start of the turn if the hand total is at or under the
        // threshold"; 3 points is at most `call_always_at_most`.
        let game = dealt(Preset::Israeli, &["AS AC AD JK JK", OTHER], "5H");
        let command = greedy_turn(&game, 0);
        assert!(
            matches!(command, Command::Call { seat: 0, .. }),
            "{command:?}"
        );
    }

    #[test]
    fn greedy_never_makes_a_penalised_call_above_the_threshold() {
        // Belgian rule 6 accepts a call above 5 with a penalty; the bot throws instead.
        let game = dealt(Preset::Belgian, &["KS QS 9D 8C 7H", OTHER], "2H");
        assert!(BotView::new(&game, 0).can_call());
        let command = greedy_turn(&game, 0);
        assert!(matches!(command, Command::Play { .. }), "{command:?}");
    }

    #[test]
    fn greedy_sheds_ten_points_and_draws_a_low_discard() {
        let game = dealt(Preset::Israeli, &["KS QS 9D 8C 7H", OTHER], "2H");
        let command = greedy_turn(&game, 0);
        let Command::Play { throw, draw, .. } = command else {
            panic!("{command:?}")
        };
        assert_eq!(Preset::Israeli.rules().hand_total(throw.as_slice()), 10);
        assert_eq!(draw, DrawChoice::Discard(card("2H")));
    }

    #[test]
    fn greedy_draws_the_discard_that_completes_a_pair() {
        let game = dealt(Preset::Israeli, &["9C KS QH JD 2S", OTHER], "9H");
        let command = greedy_turn(&game, 0);
        let Command::Play { draw, .. } = command else {
            panic!("{command:?}")
        };
        assert_eq!(draw, DrawChoice::Discard(card("9H")));
    }

    #[test]
    fn greedy_slaps_down_the_card_it_drew() {
        // Belgian example 1: on a 6 any other 6 may be slapped down.
        let mut game = dealt(Preset::Belgian, &["6H 2C 3D 4S KD", OTHER], "AS");
        play(&mut game, 0, "6H", "6S");
        let command = greedy_out_of_turn(&game, 0);
        assert_eq!(command, Command::slap(0, card("6S")));
        // Nobody else has anything to lay.
        assert_eq!(
            GreedyBot::default().out_of_turn(&BotView::new(&game, 1)),
            None
        );
    }

    #[test]
    fn greedy_adds_on_to_complete_a_set() {
        // Belgian: "Wanneer Speler B twee andere 9's in de hand heeft, mag hij/zij deze direct
        // opleggen om het kwartet af te maken."
        let mut game = dealt(Preset::Belgian, &["9C 9H 2C 3D KD", "9D 9S 4H 5C QS"], "AS");
        play(&mut game, 0, "9C 9H", "7D");
        let command = greedy_out_of_turn(&game, 1);
        assert_eq!(
            command,
            Command::AddOn {
                seat: 1,
                cards: cards("9D 9S")
            }
        );
    }

    #[test]
    fn greedy_goes_along_only_with_a_very_low_hand() {
        // Belgian meegaan: seat 0 calls with 5, seat 1 plays its last turn, then declares.
        let last_turns = [
            ("AS 2C 3C 4C 5C", "2C 3C 4C 5C", "JK", true),
            ("KH QH JH 10H 9H", "KH", "8S", false),
        ];
        for (hand, throw, drawn, going) in last_turns {
            let mut game = dealt(Preset::Belgian, &["AC AD AH JK 2D", hand], "5H");
            game.execute(&Command::Call {
                seat: 0,
                call: crate::game::CallKind::Yaniv,
            })
            .expect("call");
            play(&mut game, 1, throw, drawn);
            let command = greedy_turn(&game, 1);
            let Command::GoAlong {
                going: declared, ..
            } = command
            else {
                panic!("{command:?}")
            };
            let total = BotView::new(&game, 1).hand_total();
            assert_eq!(declared, going, "hand total {total}");
        }
    }

    #[test]
    fn random_bot_picks_throws_uniformly() {
        // Five cards with no set or run: five throws, times two draws (stock or the up
        // card), plus no call: ten actions of probability 1/10 each.
        let game = dealt(Preset::Israeli, &["KS QD 9D 8C 2H", OTHER], "5H");
        let mut bot = RandomBot::new(42);
        let mut counts = std::collections::HashMap::<(Cards, bool), u32>::new();
        for _ in 0..10_000 {
            let Command::Play { throw, draw, .. } =
                accepted(&game, bot.act(&BotView::new(&game, 0)))
            else {
                panic!("a play")
            };
            *counts
                .entry((throw, draw == DrawChoice::Stock))
                .or_default() += 1;
        }
        assert_eq!(counts.len(), 10);
        assert!(
            counts.values().all(|&n| (850..1150).contains(&n)),
            "{counts:?}"
        );
    }

    #[test]
    fn bot_views_see_nothing_to_do_out_of_their_turn() {
        let game = dealt(Preset::Israeli, &["KS QD 9D 8C 2H", OTHER], "5H");
        let view = BotView::new(&game, 1);
        assert!(!view.is_my_turn());
        assert_eq!(view.legal_actions(), game.legal_actions(1));
        assert_eq!(RandomBot::new(1).act(&view), None);
        assert_eq!(GreedyBot::default().act(&view), None);
    }
}
