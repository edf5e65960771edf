//! The origin's one error: why a call or a rule refused what was asked (with the Chinese
//! message the member reads), or a fault. `http::error` answers it as the envelope with the
//! status of its kind (`docs/api.md`, "The envelope"); the operator's commands print it.

/// What kind of refusal: `http/` answers each with its own status.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// Not allowed for this member (403).
    Forbidden,
    /// No such thing, or not the member's (404).
    NotFound,
    /// Not in this state, or already done (409).
    Conflict,
    /// Too big a request (413).
    TooLarge,
    /// Too often (429).
    TooMany,
    /// A service it needs is not ready or not reachable (503).
    Unavailable,
    /// No room left to store it (507).
    NoSpace,
}

#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Not signed in, the session expired, or its member is gone (401: sign in again).
    #[error("login required")]
    Unauthorized,
    /// Field errors, in the order found (422).
    #[error("validation failed: {0:?}")]
    Validation(Vec<(String, String)>),
    /// The member must sign the agreement first (459).
    #[error("agreement required")]
    Agreement,
    /// A refusal and its Chinese message.
    #[error("refused {0:?}: {1}")]
    Refused(Refusal, String),
    /// A fault: the cause goes to the log only (500).
    #[error(transparent)]
    Internal(#[from] anyhow::Error),
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    /// One field error.
    pub fn field(field: &str, message: impl Into<String>) -> Error {
        Error::Validation(vec![(field.to_owned(), message.into())])
    }

    pub fn not_found(message: impl Into<String>) -> Error {
        Error::Refused(Refusal::NotFound, message.into())
    }

    pub fn forbidden(message: impl Into<String>) -> Error {
        Error::Refused(Refusal::Forbidden, message.into())
    }

    pub fn conflict(message: impl Into<String>) -> Error {
        Error::Refused(Refusal::Conflict, message.into())
    }

    pub fn too_many(message: impl Into<String>) -> Error {
        Error::Refused(Refusal::TooMany, message.into())
    }
}

impl From<sqlx::Error> for Error {
    fn from(error: sqlx::Error) -> Error {
        Error::Internal(error.into())
    }
}

/// A form field the shared order-form reader refused (`order_check::form`).
impl From<order_check::form::FieldError> for Error {
    fn from(error: order_check::form::FieldError) -> Error {
        Error::field(error.field, error.message)
    }
}
