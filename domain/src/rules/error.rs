//! What can be wrong with rules chosen by name: an unknown preset or parameter, a bad
//! value, or parameters that contradict each other.

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RulesError {
    #[error(
        "unknown preset {name:?}: expected one of israeli, nepali, kluft, belgian, wikipedia, house"
    )]
    UnknownPreset { name: String },
    #[error("unknown rule parameter {name:?}")]
    UnknownParameter { name: String },
    #[error("bad value for rule parameter {name:?}: {message}")]
    BadValue { name: String, message: String },
    #[error("inconsistent rules ({name}): {message}")]
    Inconsistent { name: &'static str, message: String },
}

impl RulesError {
    /// The parameter the error is about, for validation errors that name a field.
    pub fn parameter(&self) -> Option<&str> {
        match self {
            RulesError::UnknownPreset { .. } => None,
            RulesError::UnknownParameter { name } | RulesError::BadValue { name, .. } => Some(name),
            RulesError::Inconsistent { name, .. } => Some(name),
        }
    }
}
