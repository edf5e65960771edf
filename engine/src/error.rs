//! The engine's one error type. Every message names the field it is about, the way a
//! JavaScript caller would write the path: `items[3].price: not a decimal: "abc"`.

use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineError {
    /// The input is not a cart `docs/pricing.md` accepts.
    Input { path: String, reason: String },
    /// A computed amount does not fit exact arithmetic (absurdly large prices or quantities).
    OutOfRange { path: String },
    /// A cart edit named a line the cart does not have.
    UnknownLine { id: i64 },
}

impl EngineError {
    pub(crate) fn input(path: impl Into<String>, reason: impl fmt::Display) -> EngineError {
        EngineError::Input { path: path.into(), reason: reason.to_string() }
    }

    pub(crate) fn out_of_range(path: impl Into<String>) -> EngineError {
        EngineError::OutOfRange { path: path.into() }
    }

    /// The field the error is about (`items[3].price`), empty for the whole input.
    pub fn path(&self) -> Option<&str> {
        match self {
            EngineError::Input { path, .. } | EngineError::OutOfRange { path } => Some(path),
            EngineError::UnknownLine { .. } => None,
        }
    }
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::Input { path, reason } if path.is_empty() => f.write_str(reason),
            EngineError::Input { path, reason } => write!(f, "{path}: {reason}"),
            EngineError::OutOfRange { path } => {
                write!(f, "{path}: amount too large for exact arithmetic")
            }
            EngineError::UnknownLine { id } => write!(f, "no cart line with id {id}"),
        }
    }
}

impl std::error::Error for EngineError {}
