//! Who is looking at the catalogue, as far as the goods cards differ by it
//! (`docs/compliance.md`): prices are shown only to members approved to order (unless the shop
//! opens them to all), and an approved member sees which goods are outside its business scope.

use sqlx::AnyConnection;

use super::scope::Scope;

/// The setting (`settings.key`) that opens prices to everyone when its value is `1`.
pub const PRICES_PUBLIC: &str = "prices_public";

/// Whether the viewer sees prices, and if not, what stands in their place.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Prices {
    #[default]
    Shown,
    /// A visitor: 登录可见.
    AfterLogin,
    /// A member whose qualifications are not approved yet: 认证后可见.
    AfterApproval,
}

impl Prices {
    /// What a card shows instead of its prices; empty when they are shown.
    pub fn text(self) -> &'static str {
        match self {
            Prices::Shown => "",
            Prices::AfterLogin => "登录可见",
            Prices::AfterApproval => "认证后可见",
        }
    }

    pub fn shown(self) -> bool {
        self == Prices::Shown
    }
}

/// The one the cards are shown to.
#[derive(Clone, Debug, Default)]
pub struct Viewer {
    /// The approved member's business scope; `None` for a visitor or a member not yet approved,
    /// who may not order at all.
    pub scope: Option<Scope>,
    pub prices: Prices,
}

impl Viewer {
    /// A visitor, with prices as the shop shows them to visitors.
    pub fn visitor(prices_public: bool) -> Viewer {
        Viewer { scope: None, prices: if prices_public { Prices::Shown } else { Prices::AfterLogin } }
    }

    /// The member's own cart and orders: its scope, and every price (a member not approved
    /// cannot put goods in the cart).
    pub async fn buyer(conn: &mut AnyConnection, member: i64) -> sqlx::Result<Viewer> {
        Ok(Viewer { prices: Prices::Shown, ..Viewer::load(conn, Some(member)).await? })
    }

    /// Member `member` (or a visitor), as the database holds them now.
    pub async fn load(conn: &mut AnyConnection, member: Option<i64>) -> sqlx::Result<Viewer> {
        let (passed, public): (Option<i64>, Option<String>) =
            sqlx::query_as("SELECT (SELECT is_passed FROM members WHERE id = $1), (SELECT value FROM settings WHERE key = $2)")
                .bind(member.unwrap_or(0))
                .bind(PRICES_PUBLIC)
                .fetch_one(&mut *conn)
                .await?;
        let public = public.as_deref() == Some("1");
        match (member, passed) {
            (Some(member), Some(1)) => Ok(Viewer { scope: Some(Scope::of_member(conn, member).await?), prices: Prices::Shown }),
            (Some(_), Some(_)) => Ok(Viewer { scope: None, prices: if public { Prices::Shown } else { Prices::AfterApproval } }),
            _ => Ok(Viewer::visitor(public)),
        }
    }
}

/// Whether the shop shows prices to everyone (`true`) or only to approved members.
pub async fn prices_public(conn: &mut AnyConnection) -> sqlx::Result<bool> {
    let value: Option<String> =
        sqlx::query_scalar("SELECT value FROM settings WHERE key = $1").bind(PRICES_PUBLIC).fetch_optional(&mut *conn).await?;
    Ok(value.as_deref() == Some("1"))
}

/// Opens prices to everyone (`true`) or keeps them for approved members, in the caller's
/// transaction.
pub async fn set_prices_public(conn: &mut AnyConnection, public: bool) -> sqlx::Result<()> {
    sqlx::query("INSERT INTO settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value")
        .bind(PRICES_PUBLIC)
        .bind(if public { "1" } else { "0" })
        .execute(&mut *conn)
        .await?;
    Ok(())
}
