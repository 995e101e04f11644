//! Game tables that a tournament creates for its drawn tables: every seat taken by the
//! drawn player in the drawn order, started and dealt at once, and linked to the
//! tournament table in `table_created.v1` so that the game's end records its result
//! (`crate::tournaments::play::record_online_result`).
//!
//! The table is an ordinary table from then on: the players act through
//! `/v1/tables/{id}/actions`, the audit and the record export work as for any other.

use sqlx::PgConnection;
use yaniv_domain::game::Command;
use yaniv_domain::rules::{RuleSpec, Rules};

use super::autoplay;
use super::events::{
    AccountRef, SeatTaken, StreamEvent, TableCreated, TableEvent, TableStarted, TournamentLink,
    stream_id,
};
use super::state::TableState;
use crate::error::ApiError;
use crate::startup::AppState;
use crate::store::EventMetadata;
use crate::stream_command::append_all;

/// What a tournament's game table is made of.
#[derive(Debug, Clone)]
pub struct TournamentGame<'a> {
    pub link: TournamentLink,
    /// The tournament's rules, as asked and as resolved when it was created.
    pub rules: &'a RuleSpec,
    pub effective_rules: &'a Rules,
    /// The players in seat order (the draw's order at the table).
    pub players: &'a [AccountRef],
    /// The official whose request creates it.
    pub created_by: AccountRef,
}

/// The events of a new table of `game`, from its creation to the first deal.
fn opening_events(game: &TournamentGame<'_>) -> Result<Vec<StreamEvent>, ApiError> {
    let seats = u8::try_from(game.players.len())
        .map_err(|_| ApiError::unexpected("seating a tournament table", "too many players"))?;
    let created = TableCreated {
        rules: game.rules.clone(),
        effective_rules: game.effective_rules.clone(),
        seats,
        bots: Vec::new(),
        created_by: game.created_by.clone(),
        tournament: Some(game.link),
    };
    let mut table = TableState::new(0, created.clone());
    let mut events = vec![StreamEvent::Table(TableEvent::Created(created))];
    let unfoldable = |e| ApiError::unexpected("seating a tournament table", e);
    for (seat, player) in (0u8..).zip(game.players) {
        let taken = StreamEvent::Table(TableEvent::SeatTaken(SeatTaken {
            seat,
            account_id: player.account_id,
            username: player.username.clone(),
        }));
        table.apply(taken.clone()).map_err(unfoldable)?;
        events.push(taken);
    }
    let players = table.player_names();
    let started = StreamEvent::Table(TableEvent::Started(TableStarted {
        started_by: game.created_by.account_id,
        players: players.clone(),
    }));
    table.apply(started.clone()).map_err(unfoldable)?;
    events.push(started);
    let mut game_events = table
        .game
        .execute(&Command::Create {
            rules: game.effective_rules.clone(),
            players,
            initial_totals: Vec::new(),
        })
        .map_err(|e| ApiError::unexpected("creating a tournament table's game", e))?;
    // No bots sit here: this only deals round 1.
    let mut bots = autoplay::make_bots(&table.bot_kinds())?;
    autoplay::advance(&mut table.game, &mut bots, &mut game_events)?;
    events.extend(game_events.into_iter().map(StreamEvent::Game));
    Ok(events)
}

/// Creates, seats, starts and deals the game table of `game` in the caller's
/// transaction; returns its id.
pub async fn create_started(
    state: &AppState,
    conn: &mut PgConnection,
    game: &TournamentGame<'_>,
    metadata: &EventMetadata,
) -> Result<i64, ApiError> {
    let events = opening_events(game)?;
    let encoded = events
        .iter()
        .map(|e| {
            e.to_new_event()
                .map_err(|err| ApiError::unexpected("serialising an event", err))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let id: i64 = sqlx::query_scalar(
        "INSERT INTO game_tables \
             (created_by, preset, seats, free_seats, status, version, tournament_id) \
         VALUES ($1, $2, $3, 0, 'playing', $4, $5) RETURNING id",
    )
    .bind(game.created_by.account_id)
    .bind(&game.rules.preset)
    .bind(i16::try_from(game.players.len()).unwrap_or(i16::MAX))
    .bind(i64::try_from(events.len()).unwrap_or(i64::MAX))
    .bind(game.link.tournament_id)
    .fetch_one(&mut *conn)
    .await?;
    append_all(state, conn, &stream_id(id), 0, &encoded, metadata).await?;
    Ok(id)
}

#[cfg(test)]
mod tests {
    use super::*;
    use yaniv_domain::rules::Preset;
    use yaniv_domain::tournament::TableRef;

    #[test]
    fn a_tournament_table_opens_seated_started_and_dealt() {
        let rules = RuleSpec {
            preset: "belgian".into(),
            overrides: Default::default(),
        };
        let effective = Preset::Belgian.rules();
        let players: Vec<AccountRef> = (1..=5)
            .map(|i| AccountRef {
                account_id: 10 + i,
                username: format!("p{i}"),
            })
            .collect();
        let game = TournamentGame {
            link: TournamentLink {
                tournament_id: 4,
                table: TableRef {
                    stage: 1,
                    round: 2,
                    table: 3,
                },
            },
            rules: &rules,
            effective_rules: &effective,
            players: &players,
            created_by: AccountRef {
                account_id: 1,
                username: "org".into(),
            },
        };
        let events = opening_events(&game).unwrap();
        let types: Vec<&str> = events.iter().map(StreamEvent::type_name).collect();
        assert_eq!(types[0], "table_created.v1");
        assert_eq!(types[1..6], ["seat_taken.v1"; 5]);
        assert_eq!(types[6], "table_started.v1");
        assert_eq!(types[7], "game_created.v1");
        assert_eq!(types[8], "round_dealt.v1");
        assert_eq!(types.len(), 9, "nobody acts for the players: {types:?}");
        let table = TableState::fold(7, events).unwrap().unwrap();
        assert_eq!(table.created.tournament, Some(game.link));
        assert_eq!(table.player_names(), ["p1", "p2", "p3", "p4", "p5"]);
        assert_eq!(table.free_seats(), 0);
        assert!(table.started && !table.game.is_finished());
    }
}
