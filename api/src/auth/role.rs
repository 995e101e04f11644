//! [`Role`]: what an account may do.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// What an account may do. `admin` passes every role check.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, ToSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// Manages accounts and roles; passes every role check.
    Admin,
    /// Creates and runs tournaments.
    Organizer,
    /// Arbitrates game tables.
    Referee,
    /// Plays. Every registered account starts with this role.
    Player,
}

impl Role {
    pub const ALL: [Role; 4] = [Role::Admin, Role::Organizer, Role::Referee, Role::Player];

    pub fn as_str(self) -> &'static str {
        match self {
            Role::Admin => "admin",
            Role::Organizer => "organizer",
            Role::Referee => "referee",
            Role::Player => "player",
        }
    }

    pub fn parse(s: &str) -> Option<Role> {
        Role::ALL.into_iter().find(|r| r.as_str() == s)
    }
}

impl std::fmt::Display for Role {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roles_round_trip_through_their_names() {
        for role in Role::ALL {
            assert_eq!(Role::parse(role.as_str()), Some(role));
            assert_eq!(
                serde_json::to_string(&role).unwrap(),
                format!("\"{}\"", role.as_str())
            );
        }
        assert_eq!(Role::parse("root"), None);
    }
}
