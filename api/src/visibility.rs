//! Every read of a table goes through here, so that every answer about one is built
//! from what its caller may see now: the domain's one policy
//! ([`yaniv_domain::visibility`]), fed with what only the server knows (who the caller
//! is, which roles they hold, the table's tournament).
//!
//! - [`SeenTable`] / [`Seen`]: a table with the caller's [`Relation`] to it. The answers
//!   that show a table (views, event pages, pushed streams, audits, diffs,
//!   verifications) are built from a [`Seen`], never from a bare table, so none can
//!   forget whose eyes it serves.
//! - [`Disclosed`]: a stream's stored events (exact bytes, hashes) cut before its first
//!   secret still in play. Archives are built from it: a hash over a secret would let
//!   anyone try every card against it, so such an event leaves the server whole or not
//!   at all.

use std::collections::BTreeMap;
use std::sync::Arc;

use sqlx::PgPool;

use yaniv_domain::table::Table;
use yaniv_domain::tournament::{Actor, Roles, State as TournamentState, Tournament};
use yaniv_domain::visibility::{self, Relation, VisibleEvent};

use crate::app_state::AppState;
use crate::auth::accounts::{Account, roles_of};
use crate::error::ApiError;
use crate::store::RecordedEvent;

/// How `caller` stands to `table` now (see [`yaniv_domain::visibility::relation`]).
pub async fn relation(
    state: &AppState,
    table: &Table,
    caller: Option<&Account>,
) -> Result<Relation, ApiError> {
    let roles = roles_of(caller);
    let account = caller.map(|a| a.id);
    let seated = account.is_some_and(|a| table.seat_of(a).is_some());
    // Only a role makes an official: without one there is no tournament to read.
    let tournament = match table.created.tournament {
        Some(link) if !seated && roles != Roles::NONE => {
            tournament(state, link.tournament_id).await?
        }
        _ => None,
    };
    Ok(visibility::relation(
        table,
        tournament.as_ref().map(|t| t.state()),
        account,
        roles,
    ))
}

/// Whether `caller` may verify table `id` whose stream cannot be folded (so no relation
/// to it can be told from its events): an admin; or, at a table outside any tournament
/// where it has no seat (both as the listing remembers them), an account holding the
/// referee role, the table's referee by the policy. The verdict is sealed either way.
pub async fn may_verify_unreadable(
    pool: &PgPool,
    id: i64,
    caller: &Account,
) -> Result<bool, ApiError> {
    let roles = roles_of(Some(caller));
    if roles.admin {
        return Ok(true);
    }
    if !roles.referee {
        return Ok(false);
    }
    let referees: Option<bool> = sqlx::query_scalar(
        "SELECT tournament_id IS NULL AND NOT EXISTS \
           (SELECT 1 FROM table_seats WHERE table_id = $1 AND account_id = $2) \
         FROM game_tables WHERE id = $1",
    )
    .bind(id)
    .bind(caller.id)
    .fetch_optional(pool)
    .await?;
    Ok(referees.unwrap_or(false))
}

/// Whether `caller` may read a tournament (folded: `tournament`) as its officials do
/// (its archive and verification before it is finished): an official it names who
/// holds the role now, or the operator.
pub fn officiates_or_operates(tournament: &TournamentState, caller: &Account) -> bool {
    let roles = roles_of(Some(caller));
    roles.admin || visibility::officiates(tournament, Actor::Account(caller.id), roles)
}

/// Tournament `id`, folded (`None` when there is none).
async fn tournament(state: &AppState, id: i64) -> Result<Option<Arc<Tournament>>, ApiError> {
    match state.tournaments.read(id).await {
        Ok(t) => Ok(Some(t)),
        Err(ApiError::NotFound(_)) => Ok(None),
        Err(e) => Err(e),
    }
}

/// A table as one caller sees it, read for them.
#[derive(Debug, Clone)]
pub struct SeenTable {
    table: Arc<Table>,
    relation: Relation,
}

impl SeenTable {
    /// Table `id` as it is now, for `caller`.
    pub async fn read(
        state: &AppState,
        id: i64,
        caller: Option<&Account>,
    ) -> Result<Self, ApiError> {
        Self::of(state, state.tables.read(id).await?, caller).await
    }

    /// Table `id` at version `at_least` or later (see `Repository::read_at_least`).
    pub async fn read_at_least(
        state: &AppState,
        id: i64,
        at_least: u64,
        caller: Option<&Account>,
    ) -> Result<Self, ApiError> {
        Self::of(
            state,
            state.tables.read_at_least(id, at_least).await?,
            caller,
        )
        .await
    }

    /// `table`, read already, for `caller`.
    pub async fn of(
        state: &AppState,
        table: Arc<Table>,
        caller: Option<&Account>,
    ) -> Result<Self, ApiError> {
        let relation = relation(state, &table, caller).await?;
        Ok(Self { table, relation })
    }

    /// What answers are built from.
    pub fn seen(&self) -> Seen<'_> {
        Seen {
            table: &self.table,
            relation: self.relation,
        }
    }

    pub fn table(&self) -> &Table {
        &self.table
    }

    pub fn relation(&self) -> Relation {
        self.relation
    }
}

/// A table and how the caller stands to it: what every answer about a table is built
/// from. Only this module makes one, from the caller's [`Relation`].
#[derive(Debug, Clone, Copy)]
pub struct Seen<'a> {
    table: &'a Table,
    relation: Relation,
}

impl<'a> Seen<'a> {
    /// `table` as the account that just changed it sees it: from its seat, or from the
    /// public's side (the answer to a command needs nothing more).
    pub fn by_writer(table: &'a Table, account: &Account) -> Self {
        let relation = table
            .seat_of(account.id)
            .map_or(Relation::Spectator, Relation::Seat);
        Self { table, relation }
    }

    pub fn table(self) -> &'a Table {
        self.table
    }

    pub fn relation(self) -> Relation {
        self.relation
    }

    /// Up to `limit` events after version `after`, as the caller may see them, and
    /// the version of the last one.
    pub fn events(self, after: u64, limit: usize) -> (Vec<VisibleEvent>, u64) {
        visibility::visible_events(self.table, self.relation, after, limit)
    }

    /// Where the table's secrets still in play begin, if a round is in play.
    pub fn sealed_from(self) -> Option<u64> {
        visibility::sealed_from(self.table)
    }

    /// Whether version `version` lies in a round that is over now (or before any deal):
    /// all of it is public.
    pub fn is_over_at(self, version: u64) -> bool {
        self.sealed_from().is_none_or(|from| version < from)
    }

    /// Refuses (403) unless the caller may inspect the table's history up to version
    /// `upto` (audits, diffs, verification): a referee of the table or the operator, and
    /// for a version in the round still in play a referee only (it shows every hand).
    pub fn require_inspection(self, upto: u64) -> Result<(), ApiError> {
        self.require_inspector()?;
        if !self.is_over_at(upto) && !self.relation.sees_hands_in_play() {
            return Err(ApiError::forbidden(format!(
                "version {upto} is in the round still in play: its cards are sealed until \
                 it ends, for everyone but the table's referees"
            )));
        }
        Ok(())
    }

    /// Refuses (403) unless the caller may inspect the table's history at all: a
    /// referee of the table or the operator.
    pub fn require_inspector(self) -> Result<(), ApiError> {
        if !self.relation.may_inspect() {
            return Err(ApiError::forbidden(match self.relation {
                Relation::Seat(_) => {
                    "you play at this table: its rounds are open to you as they end, in \
                     /events and /record"
                }
                Relation::PlayingOfficial => {
                    "you play in this table's tournament: an official who does not inspects \
                     its tables"
                }
                _ => {
                    "only a referee of this table (an official of its tournament who plays \
                     nowhere in it) or an admin may inspect it"
                }
            }));
        }
        Ok(())
    }

    /// `past`, an earlier state of this table, as an inspection shows it: every hand
    /// when its round is over now, else through the caller's own eyes.
    pub fn inspecting<'b>(self, past: &'b Table) -> Seen<'b> {
        let relation = if self.is_over_at(past.version) {
            Relation::Referee
        } else {
            self.relation
        };
        Seen {
            table: past,
            relation,
        }
    }
}

/// Where the secrets still in play begin in a table's stored `events` (in version
/// order), if a round is in play.
pub fn sealed_from_stored(events: &[RecordedEvent]) -> Option<u64> {
    visibility::sealed_from_types(
        events
            .iter()
            .map(|e| (u64::try_from(e.version).unwrap_or(0), e.event_type.as_str())),
    )
}

/// For every table whose game is not over, where its secrets still in play begin
/// ([`sealed_from_stored`], read in the database): what answers listing many streams'
/// heads (checkpoints) leave out.
pub async fn sealed_tables(pool: &PgPool) -> Result<BTreeMap<String, u64>, sqlx::Error> {
    let rows: Vec<(String, i64)> = sqlx::query_as(
        "SELECT e.stream_id, min(e.version) FROM events e \
         WHERE e.stream_id IN (SELECT 'table-' || id FROM game_tables WHERE status <> 'finished') \
           AND e.event_type = ANY($1) \
           AND e.version > COALESCE((SELECT max(r.version) FROM events r \
                                     WHERE r.stream_id = e.stream_id AND r.event_type = $2), 0) \
         GROUP BY e.stream_id",
    )
    .bind(&visibility::SECRETS_BEGIN[..])
    .bind(visibility::SECRETS_END)
    .fetch_all(pool)
    .await?;
    Ok(rows
        .into_iter()
        .map(|(stream, from)| (stream, u64::try_from(from).unwrap_or(0)))
        .collect())
}

/// A stream's stored events that may leave the server as stored: all of them, or those
/// before the first secret of a round still in play.
#[derive(Debug, Clone)]
pub struct Disclosed {
    events: Vec<RecordedEvent>,
    /// The first version left out, when the stream was cut.
    sealed_from: Option<u64>,
}

impl Disclosed {
    /// `events` (a table's stream, in version order) cut before its first secret still
    /// in play.
    pub fn table_stream(mut events: Vec<RecordedEvent>) -> Self {
        let sealed_from = sealed_from_stored(&events);
        if let Some(from) = sealed_from {
            events.retain(|e| u64::try_from(e.version).is_ok_and(|v| v < from));
        }
        Self {
            events,
            sealed_from,
        }
    }

    /// `events` whole: a stream that holds no secret (a tournament's).
    pub fn whole(events: Vec<RecordedEvent>) -> Self {
        Self {
            events,
            sealed_from: None,
        }
    }

    pub fn events(&self) -> &[RecordedEvent] {
        &self.events
    }

    /// The first version left out, when the stream was cut.
    pub fn sealed_from(&self) -> Option<u64> {
        self.sealed_from
    }
}

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    /// The reads of a table that bypass [`super::SeenTable`], each where it is allowed
    /// and why. Any other use under `http/` (routes, pages, pushed streams), `audit/`,
    /// `background/`, `live/`, `tournaments/` or `tables/` fails the test below: a new
    /// surface reads a table through this module.
    const ALLOWED: [(&str, &str, &str); 12] = [
        (
            "http/routes/tables/mod.rs",
            ".tables.read(",
            "defines load_public",
        ),
        (
            "http/routes/tables/mod.rs",
            "load_public(",
            "defines load_public",
        ),
        (
            "http/routes/tables/show.rs",
            "load_public(",
            "the summary everyone may see",
        ),
        (
            "http/routes/tables/record.rs",
            "load_public(",
            "the record holds rounds that are over",
        ),
        (
            "http/routes/tables/rounds.rs",
            "load_public(",
            "only the ends of rounds that are over, hands shown at the table",
        ),
        (
            "http/routes/tables/audit.rs",
            ".tables.load_fresh(",
            "an earlier version, after require_inspection, shown through Seen::inspecting",
        ),
        (
            "http/routes/tables/diff.rs",
            ".tables.load_fresh(",
            "the same, for a diff",
        ),
        (
            "http/routes/tables/verify.rs",
            ".tables.read_all(",
            "verified whole, answered sealed",
        ),
        (
            "audit/archive.rs",
            ".tables.read_all(",
            "wrapped in Disclosed",
        ),
        (
            "audit/table.rs",
            ".tables.load_fresh(",
            "the fold's status for the listing check; callers seal the verdict",
        ),
        (
            "audit/tournament_links.rs",
            ".tables.load_fresh(",
            "a finished game compared with its result, never shown",
        ),
        (
            "audit/tournament.rs",
            ".tables.read_all(",
            "a result's game verified, its verdict sealed",
        ),
    ];

    const READS: [&str; 7] = [
        ".tables.read(",
        ".tables.read_at_least(",
        ".tables.load_fresh(",
        ".tables.read_all(",
        ".tables.read_page(",
        ".tables.load(",
        "load_public(",
    ];

    fn sources(dir: &Path, into: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                sources(&path, into);
            } else if path.extension().is_some_and(|e| e == "rs") {
                into.push(path);
            }
        }
    }

    #[test]
    fn every_surface_reads_tables_through_the_visibility_policy() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut files = Vec::new();
        for dir in [
            "http",
            "audit",
            "background",
            "live",
            "tournaments",
            "tables",
        ] {
            sources(&root.join(dir), &mut files);
        }
        assert!(files.len() > 40, "{files:?}");
        let mut found = Vec::new();
        for file in files {
            let name = file
                .strip_prefix(&root)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            let text: String = std::fs::read_to_string(&file)
                .unwrap()
                .chars()
                .filter(|c| !c.is_whitespace())
                .collect();
            for read in READS {
                if text.contains(read) {
                    let allowed = ALLOWED.iter().any(|(f, r, _)| *f == name && *r == read);
                    assert!(
                        allowed,
                        "{name} reads a table with `{read}`: go through \
                         crate::visibility::SeenTable (or list it in ALLOWED with why)"
                    );
                    found.push((name.clone(), read));
                }
            }
        }
        // Every allowance is still used: a stale one would hide a new read.
        for (file, read, _) in ALLOWED {
            assert!(
                found.iter().any(|(f, r)| f == file && *r == read),
                "{file} no longer uses `{read}`: remove it from ALLOWED"
            );
        }
    }
}
