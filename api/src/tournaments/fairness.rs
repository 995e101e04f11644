//! Who sees the hidden cards of a tournament's online tables.
//!
//! At an ordinary table, referees, organizers and admins who do not play there see
//! every hand (`Access::Staff`). At a tournament's table that
//! would let a competitor with such a role watch the hands of another table of the same
//! tournament and pass them on. So while a tournament table's game runs, an account
//! registered as a player of that tournament (still in it or not: an eliminated player
//! can still help a friend) sees it as a spectator, whatever its roles.

use yaniv_domain::table::{Access, Table, TableStatus};
use yaniv_domain::tournament::Tournament;

use crate::app_state::AppState;
use crate::auth::accounts::Account;
use crate::error::ApiError;
use crate::tables::is_staff;

/// How `account` sees `table` (see the module docs).
pub async fn table_access(
    state: &AppState,
    table: &Table,
    account: &Account,
) -> Result<Access, ApiError> {
    let access = table.access(account.id, is_staff(account));
    let Some(link) = table.created.tournament else {
        return Ok(access);
    };
    if access != Access::Staff || table.status() == TableStatus::Finished {
        return Ok(access);
    }
    let mut conn = state.db.acquire().await?;
    let tournament = state
        .tournaments
        .load(&mut conn, link.tournament_id)
        .await?;
    Ok(downgraded(access, tournament.as_ref(), account.id))
}

/// `access`, or a spectator's when `account` is a player of `tournament`.
fn downgraded(access: Access, tournament: Option<&Tournament>, account: i64) -> Access {
    let competes = tournament.is_some_and(|t| t.state().player(account).is_some());
    if competes { Access::Spectator } else { access }
}

#[cfg(test)]
mod tests {
    use super::*;
    use yaniv_domain::tournament::{Command, Context};

    #[test]
    fn a_player_of_the_tournament_is_only_a_spectator_elsewhere() {
        let mut t = Tournament::new();
        let organizer = Context::account(1, 0);
        let command: Command = serde_json::from_value(serde_json::json!({
            "command": "create", "name": "Cup", "rules": {"preset": "belgian"}, "capacity": 8,
        }))
        .unwrap();
        t.execute(&organizer, &command).unwrap();
        t.execute(&organizer, &Command::OpenRegistration).unwrap();
        t.execute(&organizer, &Command::Register { player: 7 })
            .unwrap();
        t.execute(&organizer, &Command::Withdraw { player: 7 })
            .unwrap();
        // Withdrawn, still a player of this tournament: no staff view.
        assert_eq!(downgraded(Access::Staff, Some(&t), 7), Access::Spectator);
        // A referee who does not play keeps it.
        assert_eq!(downgraded(Access::Staff, Some(&t), 2), Access::Staff);
        assert_eq!(downgraded(Access::Staff, None, 7), Access::Staff);
    }
}
