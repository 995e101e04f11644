//! The JSON shapes of `/v1/tables` (requests are next to their handlers): a table's
//! summary and a viewer's view, composed from the rules engine's own types.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;
use yaniv_domain::cards::{Card, Cards};
use yaniv_domain::game::{Game, LegalActions, PileView, RoundStage, Seat, SeatView, Viewer};

use crate::visibility::Seen;
use yaniv_domain::rules::Rules;
use yaniv_domain::shuffle::Commitment;
use yaniv_domain::table::clock::{Clock, Waiting};
use yaniv_domain::table::{BotKindName, SeatHolder, Table, TableStatus, TournamentLink};

/// Cards in record notation.
pub fn card_strings(cards: &Cards) -> Vec<String> {
    hand_strings(cards.as_slice())
}

/// A hand's cards in record notation (a hand may hold more than a [`Cards`] list).
pub fn hand_strings(cards: &[Card]) -> Vec<String> {
    cards.iter().map(|c| c.to_string()).collect()
}

/// The rules a table was created with.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct TableRules {
    #[schema(example = "belgian")]
    #[schema(value_type = yaniv_domain::rules::Preset)]
    pub preset: String,
    /// Rule parameters overridden by name.
    #[schema(value_type = yaniv_domain::rules::RuleOverrides, example = json!({"call_threshold": 7}))]
    pub overrides: serde_json::Map<String, Value>,
}

/// Who sits at a seat.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum SeatKind {
    Empty,
    Human,
    Bot,
}

/// One seat of a table.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct SeatInfo {
    #[schema(example = 0)]
    pub seat: u8,
    pub kind: SeatKind,
    /// The player's name in the game: the username, or the bot's name.
    pub name: Option<String>,
    pub account_id: Option<i64>,
    pub username: Option<String>,
    pub bot: Option<BotKindName>,
}

/// An account, by id and name.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct AccountInfo {
    pub account_id: i64,
    pub username: String,
}

/// The stage of the round in play.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Stage {
    /// Waiting for the next deal (the server deals at once; seen only in audits).
    BetweenRounds,
    Playing,
    /// After a Belgian call: the other players' last turns.
    LastTurns,
    /// Belgian declarations: going along or not.
    GoingAlong,
    /// Onderkluft decisions after a Kluft call.
    Kluft,
    /// Waterfall (a bonus rule): a straight goes round the table from `to_act`'s
    /// right; `to_act` keeps one of the cards (`legal.waterfall_pick`).
    Waterfall,
    Finished,
}

impl From<RoundStage> for Stage {
    fn from(stage: RoundStage) -> Self {
        match stage {
            RoundStage::BetweenRounds => Self::BetweenRounds,
            RoundStage::Playing => Self::Playing,
            RoundStage::LastTurns => Self::LastTurns,
            RoundStage::GoingAlong => Self::GoingAlong,
            RoundStage::Kluft => Self::Kluft,
            RoundStage::Waterfall => Self::Waterfall,
            RoundStage::Finished => Self::Finished,
        }
    }
}

/// A player's place in the standings; tied players share a place.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct StandingInfo {
    pub seat: u8,
    pub name: String,
    pub total: u32,
    #[schema(example = 1)]
    pub place: u8,
}

/// What everybody may know of a table (`GET /v1/tables/{id}`).
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct TableSummary {
    #[schema(example = 12)]
    pub id: i64,
    pub status: TableStatus,
    pub rules: TableRules,
    /// The complete rule configuration the game is played with (the rules engine's
    /// `Rules`: every parameter by name), fixed when the table was created.
    pub effective_rules: Rules,
    pub seats: Vec<SeatInfo>,
    pub free_seats: usize,
    pub created_by: AccountInfo,
    /// The stream's version: every change makes it grow (also the `ETag`).
    #[schema(example = 42)]
    pub version: u64,
    /// The round in play (or the last one), once the table has started.
    pub round: Option<u32>,
    pub stage: Option<Stage>,
    /// The seat that must act now (throw or call, or declare).
    pub to_act: Option<u8>,
    /// Every seat's total, once started.
    pub totals: Option<Vec<u32>>,
    pub eliminated: Option<Vec<bool>>,
    /// Final standings once finished, current ones while playing.
    pub standings: Option<Vec<StandingInfo>>,
    /// Every deal's seed mixes the server's committed seed with the human seats'
    /// contributions (see `entropy` in the table's view).
    #[serde(default)]
    pub player_entropy: bool,
    /// The finished game counts towards the rating list (`docs/ratings.md`). Absent
    /// when false, so an unrated table's pushed views carry not a byte more.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub rated: bool,
    /// The tournament table this game plays, when a tournament's draw created it
    /// (`/t/{tournament_id}` in the pages); absent for every other table, so a casual
    /// table's pushed views carry not a byte more.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tournament: Option<TournamentLink>,
}

impl TableSummary {
    pub fn of(table: &Table) -> Self {
        let names = table.player_names();
        let seats = table
            .seats
            .iter()
            .enumerate()
            .map(|(i, holder)| {
                let seat = u8::try_from(i).unwrap_or(u8::MAX);
                match holder {
                    SeatHolder::Empty => SeatInfo {
                        seat,
                        kind: SeatKind::Empty,
                        name: None,
                        account_id: None,
                        username: None,
                        bot: None,
                    },
                    SeatHolder::Human {
                        account_id,
                        username,
                    } => SeatInfo {
                        seat,
                        kind: SeatKind::Human,
                        name: Some(username.clone()),
                        account_id: Some(*account_id),
                        username: Some(username.clone()),
                        bot: None,
                    },
                    SeatHolder::Bot { kind, name } => SeatInfo {
                        seat,
                        kind: SeatKind::Bot,
                        name: Some(name.clone()),
                        account_id: None,
                        username: None,
                        bot: Some(*kind),
                    },
                }
            })
            .collect();
        let game = table.started.then_some(&table.game);
        let seat_count = table.seats.len();
        Self {
            id: table.id,
            status: table.status(),
            rules: TableRules {
                preset: table.created.rules.preset.clone(),
                overrides: table.created.rules.overrides.clone(),
            },
            effective_rules: table.rules().clone(),
            seats,
            free_seats: table.free_seats(),
            created_by: AccountInfo {
                account_id: table.created.created_by.account_id,
                username: table.created.created_by.username.clone(),
            },
            version: table.version,
            round: game.map(Game::round_number),
            stage: game.map(|g| g.round_stage().into()),
            to_act: game.and_then(Game::to_act),
            totals: game.map(|g| g.totals().to_vec()),
            eliminated: game.map(|g| {
                (0..seat_count)
                    .map(|s| g.is_eliminated(Seat::try_from(s).unwrap_or(u8::MAX)))
                    .collect()
            }),
            player_entropy: table.created.player_entropy,
            rated: table.created.rated,
            tournament: table.created.tournament,
            standings: game.map(|g| {
                g.standings()
                    .into_iter()
                    .map(|s| StandingInfo {
                        seat: s.seat,
                        name: names.get(s.seat as usize).cloned().unwrap_or_default(),
                        total: s.total,
                        place: s.place,
                    })
                    .collect()
            }),
        }
    }
}

/// The table as laid out in front of everybody: no hand, no stock card, no seed.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct PublicGame {
    pub round: u32,
    pub stage: Stage,
    pub to_act: Option<u8>,
    /// Southern Hemisphere (a bonus rule): a nine reversed the direction of play for
    /// this round, so turns pass to the previous seat.
    pub reversed: bool,
    /// Piñata (a bonus rule): a card lies aside, face down, for the next player to
    /// throw a three.
    pub pinata_aside: bool,
    /// The caller whose hand is closed while the others finish the round.
    pub caller: Option<u8>,
    pub hand_sizes: Vec<u8>,
    /// The latest throw, on top of its discard pile, bottom card first.
    #[schema(value_type = Vec<yaniv_domain::cards::Card>)]
    pub top_throw: Vec<String>,
    /// Who threw it; `null` for the card turned up at the deal.
    pub top_thrower: Option<u8>,
    /// The cards of the latest throw that may be drawn from it.
    #[schema(value_type = Vec<yaniv_domain::cards::Card>)]
    pub takeable: Vec<String>,
    /// The discard piles, smallest size first: one under most rules; under Cell
    /// Division (a bonus rule) one per throw size, created by the first throw of that
    /// many cards.
    #[serde(default)]
    pub piles: Vec<PileInfo>,
    pub stock_size: usize,
    pub totals: Vec<u32>,
    pub eliminated: Vec<bool>,
    /// Hex SHA-256 commitment to the seed of the round in play; the seed itself is
    /// revealed in the events once the round is over.
    pub commitment: Option<String>,
}

impl PublicGame {
    fn of(view: &SeatView) -> Self {
        Self {
            round: view.round,
            stage: view.stage.into(),
            to_act: view.to_act,
            reversed: view.reversed,
            pinata_aside: view.pinata_aside,
            caller: view.caller,
            hand_sizes: view.hand_sizes.clone(),
            top_throw: card_strings(&view.top_throw),
            top_thrower: view.top_thrower,
            takeable: card_strings(&view.takeable),
            piles: view.piles.iter().map(PileInfo::from).collect(),
            stock_size: view.stock_size,
            totals: view.totals.clone(),
            eliminated: view.eliminated.clone(),
            commitment: view.commitment.map(|c| c.to_hex()),
        }
    }
}

/// One discard pile as everyone sees it.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct PileInfo {
    /// How many cards its throws have: 1 for the original pile (the up card's).
    pub size: u8,
    /// Its top throw, bottom card first (Fifths Disease: the five of diamonds that
    /// killed it).
    #[schema(value_type = Vec<yaniv_domain::cards::Card>)]
    pub top: Vec<String>,
    /// The cards of `top` that may be drawn from it.
    #[schema(value_type = Vec<yaniv_domain::cards::Card>)]
    pub takeable: Vec<String>,
    /// How many cards lie below the top throw.
    pub below: usize,
    /// Fifths Disease (a bonus rule): killed for the rest of the round: nothing is
    /// thrown on it or drawn from it.
    pub dead: bool,
}

impl From<&PileView> for PileInfo {
    fn from(pile: &PileView) -> Self {
        Self {
            size: pile.size,
            top: card_strings(&pile.top),
            takeable: card_strings(&pile.takeable),
            below: pile.below,
            dead: pile.dead,
        }
    }
}

/// Cell Division: the discard cards a throw of `size` cards may draw.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct SizeDrawsInfo {
    pub size: u8,
    #[schema(value_type = Vec<yaniv_domain::cards::Card>)]
    pub cards: Vec<String>,
}

/// What one seat may do now. Every listed action is accepted by the rules.
#[derive(Debug, Clone, Default, Serialize, Deserialize, ToSchema)]
pub struct LegalActionsInfo {
    pub call: bool,
    /// A call now is above the threshold: the rules accept it but score it with a
    /// penalty (Belgian, or `over_threshold_call` set). A client should ask before
    /// sending it.
    #[serde(default)]
    pub call_penalised: bool,
    /// Every combination the hand can throw (a set in any order and a run in either
    /// direction are legal too; each is listed once).
    #[schema(value_type = Vec<Vec<yaniv_domain::cards::Card>>)]
    pub throws: Vec<Vec<String>>,
    pub draw_from_stock: bool,
    /// The discard cards this turn may draw whatever it throws. Under Cell Division
    /// (a bonus rule, without Osmosis) that depends on how many cards are thrown:
    /// see `discard_draws`.
    #[schema(value_type = Vec<yaniv_domain::cards::Card>)]
    pub draw_from_discard: Vec<String>,
    /// Cell Division: for each throw size among `throws`, the discard cards a throw of
    /// that many cards may draw (from its own pile; under Osmosis from any pile).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub discard_draws: Vec<SizeDrawsInfo>,
    /// The card this seat may slap down now.
    #[schema(value_type = Option<yaniv_domain::cards::Card>)]
    pub slap: Option<String>,
    #[schema(value_type = Vec<Vec<yaniv_domain::cards::Card>>)]
    pub add_ons: Vec<Vec<String>>,
    /// This seat must declare whether it goes along (Belgian).
    pub go_along: bool,
    /// This seat must declare whether it challenges (Onderkluft).
    pub onderkluft: bool,
    /// The out-of-turn window is held open for this seat: it may pass.
    #[serde(default)]
    pub pass: bool,
    /// This seat is marked absent: `return` makes the table wait for it again.
    #[serde(default, rename = "return")]
    pub come_back: bool,
    /// The next deal waits for this seat's contribution to its seed (player entropy):
    /// send a `contribute` action.
    #[serde(default)]
    pub contribute: bool,
    /// Crazy queens: the seats a throw holding a queen may target. When it is not
    /// empty, a `play` whose throw holds a (natural) queen and leaves a card in the
    /// hand must carry `queen: {target, give}`; `give` is any card the throw leaves.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub queen_targets: Vec<Seat>,
    /// Waterfall: the straights this seat may pass to its left now, at the beginning
    /// of its turn (a `waterfall` action).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schema(value_type = Vec<Vec<yaniv_domain::cards::Card>>)]
    pub waterfalls: Vec<Vec<String>>,
    /// Waterfall: the cards passed to this seat; it must keep one now (a
    /// `waterfall_pick` action) and the rest go on to its left.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schema(value_type = Vec<yaniv_domain::cards::Card>)]
    pub waterfall_pick: Vec<String>,
    /// Fifths Disease: the sizes of the piles this seat may kill now, before its turn,
    /// with the five of diamonds (a `kill_pile` action).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub kill_piles: Vec<u8>,
}

impl From<&LegalActions> for LegalActionsInfo {
    fn from(legal: &LegalActions) -> Self {
        Self {
            call: legal.call,
            call_penalised: legal.call_penalised,
            throws: legal.throws.iter().map(card_strings).collect(),
            draw_from_stock: legal.draw_from_stock,
            draw_from_discard: card_strings(&legal.draw_from_discard),
            discard_draws: legal
                .discard_draws
                .iter()
                .map(|d| SizeDrawsInfo {
                    size: d.size,
                    cards: card_strings(&d.cards),
                })
                .collect(),
            slap: legal.slap.map(|c| c.to_string()),
            add_ons: legal.add_ons.iter().map(card_strings).collect(),
            go_along: legal.go_along,
            onderkluft: legal.onderkluft,
            pass: false,
            come_back: false,
            contribute: false,
            queen_targets: legal.queen_targets.clone(),
            waterfalls: legal.waterfalls.iter().map(card_strings).collect(),
            waterfall_pick: card_strings(&legal.waterfall_pick),
            kill_piles: legal.kill_piles.clone(),
        }
    }
}

impl LegalActionsInfo {
    /// What `seat` may do at `table` now, the clock's actions included.
    pub fn at(table: &Table, seat: Seat) -> Self {
        Self {
            pass: table.clock.window_waiting().contains(&seat),
            come_back: table.clock.is_absent(seat),
            contribute: table.entropy.awaiting().contains(&seat),
            ..Self::from(&table.legal_actions(seat))
        }
    }
}

/// What a table's clock says now: public, like the rest of the table.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct ClockInfo {
    pub settings: Clock,
    /// What the table waits on: `turn`, `decision`, `window` or `contributions`; `null` when nothing
    /// runs (between games, at a bot's turn).
    pub waiting_for: Option<WaitingFor>,
    /// The seat waited on (`turn`, `decision`).
    pub seat: Option<u8>,
    /// Milliseconds the table may wait, from its last change (`last_change_at` and
    /// `deadline_at` in `GET /v1/tables`).
    pub limit_ms: Option<u32>,
    /// The seats the held window waits for (until each has passed).
    pub window_waiting: Vec<u8>,
    /// Seats marked absent: the server plays them at once until they `return`.
    pub absent: Vec<u8>,
    /// Timeouts in a row, per seat.
    pub timeouts: Vec<u8>,
}

/// What a clock waits on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum WaitingFor {
    Turn,
    Decision,
    Window,
    /// The human seats' contributions to the next deal's seed (player entropy).
    Contributions,
}

impl ClockInfo {
    pub fn of(table: &Table) -> Option<Self> {
        let settings = table.created.clock?;
        let due = table.due();
        let seats = (0..table.seats.len()).filter_map(|s| Seat::try_from(s).ok());
        Some(Self {
            settings,
            waiting_for: due.map(|due| match due.waiting {
                Waiting::Turn(_) => WaitingFor::Turn,
                Waiting::Decision(_) => WaitingFor::Decision,
                Waiting::Window => WaitingFor::Window,
                Waiting::Contributions => WaitingFor::Contributions,
            }),
            seat: due.and_then(|due| due.waiting.seat()),
            limit_ms: due.map(|due| due.limit_ms),
            window_waiting: table.clock.window_waiting().to_vec(),
            absent: seats
                .clone()
                .filter(|&s| table.clock.is_absent(s))
                .collect(),
            timeouts: seats.map(|s| table.clock.timeouts(s)).collect(),
        })
    }
}

/// How the caller sees the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ViewerKind {
    /// Seated here: their own hand and legal actions.
    Seat,
    /// Not seated: what is face up.
    Spectator,
    /// Referees this table and plays nowhere in its tournament: every hand too, but
    /// never the seed or the stock (see `docs/security.md`).
    Referee,
}

/// `GET /v1/tables/{id}/view`: the table as the caller may see it.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct TableView {
    pub table: TableSummary,
    pub viewer: ViewerKind,
    /// The caller's seat, when seated.
    pub seat: Option<u8>,
    /// The table once started, as everyone sees it.
    pub game: Option<PublicGame>,
    /// The caller's hand (seated players).
    #[schema(value_type = Option<Vec<yaniv_domain::cards::Card>>)]
    pub hand: Option<Vec<String>>,
    pub hand_total: Option<u32>,
    /// What the caller may do now (seated players).
    pub legal: Option<LegalActionsInfo>,
    /// Every seat's hand: for a referee of the table while a round is in play, for
    /// everyone once none is (a finished game's last hands).
    #[schema(value_type = Option<Vec<Vec<yaniv_domain::cards::Card>>>)]
    pub hands: Option<Vec<Vec<String>>>,
    /// The table's clock, when it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<ClockInfo>,
    /// The next deal's seed while it waits for contributions (player entropy).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub entropy: Option<EntropyInfo>,
    /// Spy (a bonus rule): per seat, the cards of its hand that were shown to the
    /// caller after their queen of diamonds and that it still holds. Absent when none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Vec<Vec<yaniv_domain::cards::Card>>>)]
    pub shown_hands: Option<Vec<Vec<String>>>,
}

/// The next deal at a table with player entropy, between the server's commitment and
/// the deal. Public, like the contributions themselves.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct EntropyInfo {
    /// The round it will deal.
    pub round: u32,
    /// SHA-256 of the server's seed for it; the seed is shown once the round is over.
    pub commitment: Commitment,
    /// The seats whose contribution the deal waits for.
    pub awaiting: Vec<u8>,
    /// The seats that have contributed (defaults included).
    pub contributed: Vec<u8>,
}

impl EntropyInfo {
    pub fn of(table: &Table) -> Option<Self> {
        let pending = table.entropy.pending()?;
        Some(Self {
            round: pending.round,
            commitment: pending.commitment,
            awaiting: table.entropy.awaiting(),
            contributed: pending.contributed(),
        })
    }
}

impl TableView {
    /// The table as `seen`'s caller may see it.
    pub fn of(seen: Seen<'_>) -> Self {
        let table = seen.table();
        let relation = seen.relation();
        let summary = TableSummary::of(table);
        let seat = relation.seat();
        let view = table
            .started
            .then(|| table.game.view(seat.unwrap_or(0)))
            .flatten();
        let own = seat.and(view.as_ref());
        Self {
            table: summary,
            viewer: match relation.viewer() {
                Viewer::Seat(_) => ViewerKind::Seat,
                Viewer::Referee => ViewerKind::Referee,
                Viewer::Spectator => ViewerKind::Spectator,
            },
            seat,
            game: view.as_ref().map(PublicGame::of),
            hand: own.map(|v| hand_strings(v.hand.as_slice())),
            hand_total: own.map(|v| v.hand_total),
            legal: seat
                .filter(|&seat| own.is_some() || table.entropy.awaiting().contains(&seat))
                .map(|seat| LegalActionsInfo::at(table, seat)),
            // Every hand is public once the game is over (its last round is over; a
            // started game is otherwise always in a round or dealing the next one);
            // while it is played, only its referees see them. Asked of the game, not
            // of `sealed_from`, which walks the stream: every answer to a move and every
            // push builds a view.
            hands: (table.started && (relation.sees_hands_in_play() || table.game.is_finished()))
                .then(|| {
                    (0..table.seats.len())
                        .map(|s| {
                            hand_strings(
                                table
                                    .game
                                    .hand(Seat::try_from(s).unwrap_or(u8::MAX))
                                    .as_slice(),
                            )
                        })
                        .collect()
                }),
            clock: ClockInfo::of(table),
            entropy: EntropyInfo::of(table),
            shown_hands: seat
                .filter(|_| table.started)
                .map(|seat| table.game.shown_to(seat))
                .filter(|shown| shown.iter().any(|cards| !cards.is_empty()))
                .map(|shown| shown.iter().map(|h| hand_strings(h.as_slice())).collect()),
        }
    }
}
