//! Why a season command was refused: a stable code and a message an organizer reads.

use crate::aggregate::{Refusal, RefusalKind};

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SeasonError {
    #[error("the season has not been created")]
    NotCreated,
    #[error("the season was already created")]
    AlreadyCreated,
    #[error("only the season's organizer may change it")]
    Forbidden,
    #[error("a season's name is 1 to 100 characters")]
    BadName,
    #[error("{field}: {message}")]
    BadSeason {
        field: &'static str,
        message: String,
    },
    #[error("tournament {0} is already in the season")]
    AlreadyInSeason(i64),
    #[error("tournament {0} is not in the season")]
    NotInSeason(i64),
    #[error("a season holds at most {0} tournaments")]
    TooManyTournaments(usize),
}

impl Refusal for SeasonError {
    fn code(&self) -> &'static str {
        match self {
            SeasonError::NotCreated => "not_created",
            SeasonError::AlreadyCreated => "already_created",
            SeasonError::Forbidden => "forbidden",
            SeasonError::BadName => "bad_name",
            SeasonError::BadSeason { .. } => "bad_season",
            SeasonError::AlreadyInSeason(_) => "already_in_season",
            SeasonError::NotInSeason(_) => "not_in_season",
            SeasonError::TooManyTournaments(_) => "too_many_tournaments",
        }
    }

    fn kind(&self) -> RefusalKind {
        match self {
            SeasonError::Forbidden => RefusalKind::Forbidden,
            SeasonError::NotCreated
            | SeasonError::AlreadyCreated
            | SeasonError::AlreadyInSeason(_)
            | SeasonError::NotInSeason(_)
            | SeasonError::TooManyTournaments(_) => RefusalKind::NotNow,
            SeasonError::BadName | SeasonError::BadSeason { .. } => RefusalKind::Invalid,
        }
    }

    fn field(&self) -> Option<String> {
        match self {
            SeasonError::BadSeason { field, .. } => Some((*field).to_owned()),
            SeasonError::BadName => Some("name".to_owned()),
            _ => None,
        }
    }

    fn catalogue() -> &'static [(&'static str, RefusalKind)] {
        use RefusalKind::*;
        &[
            ("not_created", NotNow),
            ("already_created", NotNow),
            ("forbidden", Forbidden),
            ("bad_name", Invalid),
            ("bad_season", Invalid),
            ("already_in_season", NotNow),
            ("not_in_season", NotNow),
            ("too_many_tournaments", NotNow),
        ]
    }
}
