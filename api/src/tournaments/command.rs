//! Any tournament command an account sends ([`CommandWrite`]): the rules engine
//! decides it as that account, around two checks only the server can make. What only
//! the server does (choosing draw seeds, opening its own online games) is refused
//! before the decision; the accounts a command brings in must exist (and a referee
//! hold the role) once the caller may send it.

use std::borrow::Cow;
use std::collections::HashMap;

use serde_json::Value;
use sqlx::PgConnection;
use yaniv_domain::aggregate::Aggregate;
use yaniv_domain::tournament::{
    AccountId, Command, Event, RATINGS_PROCEDURE, RatingSeeding, Seeding, Tournament,
};
use yaniv_verify::tournament::linked_table;

use super::answers::{CommandResponse, TournamentEvent, view};
use super::{refusal, repo, seeds};
use crate::auth::accounts::{self, Account};
use crate::auth::role::Role;
use crate::error::{ApiError, Reason};
use crate::streams::{Write, json_answer};

/// A domain command sent by an account, decided as that account.
#[derive(Debug)]
pub struct CommandWrite {
    id: i64,
    account: Account,
    command: Command,
    /// The rating list read before the write, for the start of a tournament seeded by
    /// rating.
    ratings: Option<RatingOrder>,
}

/// The rating list as a seeding needs it (`docs/ratings.md` section 9): everyone on it
/// best first, as it stood before `as_of_micros`.
#[derive(Debug, Clone)]
pub struct RatingOrder {
    pub as_of_micros: i64,
    pub best_first: Vec<AccountId>,
}

impl RatingOrder {
    /// `entrants` in the list's order, then those not on it in the order given.
    fn seeding_of(&self, entrants: &[AccountId]) -> Vec<AccountId> {
        let place: HashMap<AccountId, usize> = self
            .best_first
            .iter()
            .enumerate()
            .map(|(i, &a)| (a, i))
            .collect();
        let mut order: Vec<AccountId> = entrants
            .iter()
            .copied()
            .filter(|a| place.contains_key(a))
            .collect();
        order.sort_by_key(|a| place.get(a).copied().unwrap_or(usize::MAX));
        order.extend(entrants.iter().copied().filter(|a| !place.contains_key(a)));
        order
    }
}

impl CommandWrite {
    /// `command` to tournament `id`, sent by `account`.
    pub fn new(id: i64, account: Account, command: Command) -> Self {
        Self {
            id,
            account,
            command,
            ratings: None,
        }
    }

    /// With the rating list a `start_qualification` seeds from, when the tournament
    /// asks for it.
    pub fn with_ratings(mut self, ratings: RatingOrder) -> Self {
        self.ratings = Some(ratings);
        self
    }

    /// The command as the rules engine decides it: a `start_qualification` of a
    /// tournament seeded by rating gets the order of the rating list, taken here and
    /// never from the client ([`CommandWrite::refuse_servers_own`]).
    fn as_decided(&self, tournament: &Tournament) -> Cow<'_, Command> {
        let (Command::StartQualification { .. }, Some(ratings)) = (&self.command, &self.ratings)
        else {
            return Cow::Borrowed(&self.command);
        };
        let state = tournament.state();
        if !state
            .config
            .as_ref()
            .is_some_and(|c| c.seeding == Seeding::Rating)
        {
            return Cow::Borrowed(&self.command);
        }
        let entrants: Vec<AccountId> = state.qualification_entrants().map(|p| p.account).collect();
        Cow::Owned(Command::StartQualification {
            seeding: Some(RatingSeeding {
                procedure: RATINGS_PROCEDURE.to_owned(),
                as_of_micros: ratings.as_of_micros,
                order: ratings.seeding_of(&entrants),
            }),
        })
    }
}

impl Write<Tournament> for CommandWrite {
    async fn execute(
        &mut self,
        conn: &mut PgConnection,
        _id: i64,
        tournament: &mut Tournament,
    ) -> Result<Vec<Event>, ApiError> {
        self.refuse_servers_own(conn, tournament).await?;
        // The clock is read once the tournament's lock is held: a registration window
        // is judged at the moment of the decision.
        let mut ctx = super::context(&self.account, repo::now());
        let command = self.as_decided(tournament).into_owned();
        let events = Aggregate::execute(tournament, &command, &mut ctx).map_err(|e| refusal(&e))?;
        // Only once the caller may send the command: before, any account could learn
        // from the answer whether an id exists and holds the referee role.
        check_accounts(conn, &self.command).await?;
        Ok(events)
    }

    fn answer(
        &self,
        id: i64,
        tournament: &Tournament,
        events: &[Event],
        _before: u64,
    ) -> Result<Value, ApiError> {
        json_answer(&CommandResponse {
            id,
            version: tournament.version(),
            events: TournamentEvent::appended(tournament, events),
            tournament: view(tournament)?,
        })
    }
}

impl CommandWrite {
    /// What only the server does: choosing draw seeds (a seed chosen by a client would
    /// let whoever chose it pick the seating), taking a seeding from the rating list,
    /// and opening online games.
    ///
    /// One exception keeps old tournaments drawable: a commitment published before the
    /// server held the seeds is drawn from by whoever made it, with `draw_round` and the
    /// seed it commits to (the domain checks the seed against it).
    async fn refuse_servers_own(
        &self,
        conn: &mut PgConnection,
        tournament: &Tournament,
    ) -> Result<(), ApiError> {
        let refused = |code, detail: &str| ApiError::Refused {
            reason: Reason::Invalid,
            code,
            title: "Refused by the tournament",
            detail: detail.to_owned(),
        };
        match &self.command {
            Command::CommitDrawSeed { .. } => Err(refused(
                "draws_by_server",
                "the server chooses and commits every draw seed: draw with \
                 POST /v1/tournaments/{id}/draws",
            )),
            Command::DrawRound { .. } | Command::RedrawRound { .. } => {
                let pending = tournament.state().pending_commitment;
                let held = match &pending {
                    Some(commitment) => seeds::held(conn, self.id, commitment).await?,
                    None => true,
                };
                if held {
                    Err(refused(
                        "draws_by_server",
                        "the server holds the seed of the next draw: draw with \
                         POST /v1/tournaments/{id}/draws",
                    ))
                } else {
                    Ok(())
                }
            }
            Command::StartQualification { seeding: Some(_) } => Err(refused(
                "seeding_by_server",
                "the server takes a seeding from its own rating list: send \
                 start_qualification without one",
            )),
            Command::StartTableGame {
                game: Some(game), ..
            } if linked_table(game).is_some() => Err(refused(
                "online_games_by_server",
                "this server's game tables are opened by a draw or by \
                 POST /v1/tournaments/{id}/tables/{stage}/{round}/{table}/online",
            )),
            _ => Ok(()),
        }
    }
}

/// The accounts a command brings into the tournament must exist, and a referee must
/// hold the referee role: the domain knows account ids only. Checked after the domain
/// has decided that the caller may send the command.
async fn check_accounts(conn: &mut PgConnection, command: &Command) -> Result<(), ApiError> {
    let (account, field, needs_referee) = match command {
        Command::Register { player } | Command::EnterLate { player } => (*player, "player", false),
        Command::AddReferee { referee } => (*referee, "referee", true),
        _ => return Ok(()),
    };
    let found = accounts::by_id(&mut *conn, account)
        .await
        .map_err(|e| ApiError::unexpected("reading an account", e))?;
    let refused = |code, detail: String| ApiError::Refused {
        reason: Reason::Invalid,
        code,
        title: "Refused by the tournament",
        detail: format!("{field}: {detail}"),
    };
    match found {
        None => Err(refused(
            "unknown_account",
            format!("no account with id {account}"),
        )),
        Some(a) if needs_referee && !a.has_role(Role::Referee) => Err(refused(
            "not_a_referee",
            format!("account {account} does not have the referee role"),
        )),
        Some(_) => Ok(()),
    }
}
