//! Who is looking at the catalogue, as far as the goods cards differ by it: a member approved
//! to order sees which goods are outside its business scope (`docs/compliance.md`).

use sqlx::AnyConnection;

use super::scope::Scope;

/// The one the cards are shown to.
#[derive(Clone, Debug, Default)]
pub struct Viewer {
    /// The approved member's business scope; `None` for a visitor or a member not yet approved,
    /// who may not order at all.
    pub scope: Option<Scope>,
}

impl Viewer {
    /// A visitor.
    pub fn visitor() -> Viewer {
        Viewer::default()
    }

    /// Member `member` (or a visitor), as the database holds them now.
    pub async fn load(conn: &mut AnyConnection, member: Option<i64>) -> sqlx::Result<Viewer> {
        let Some(member) = member else { return Ok(Viewer::visitor()) };
        let passed: Option<i64> =
            sqlx::query_scalar("SELECT is_passed FROM members WHERE id = $1").bind(member).fetch_optional(&mut *conn).await?;
        let scope = match passed {
            Some(1) => Some(Scope::of_member(conn, member).await?),
            _ => None,
        };
        Ok(Viewer { scope })
    }
}
