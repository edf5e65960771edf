//! Checking out: who may order, and the order a member asks for checked by the engine against
//! the cart and the accounts as they are read now (`docs/pricing.md`, "Checkout"). Cart step 2's
//! preview and the order's transaction both check here.

use engine::checkout::{self, Expected, Refusal};
use order_check::form::OrderForm;
use sqlx::AnyConnection;

use crate::db::Kind;
use crate::domain::cart::{CartLine, cart_input};
use crate::domain::{Error, Result, certificates, settlement};
use crate::now;

/// What a member whose qualifications are not (yet) approved is told at checkout (403).
const NOT_APPROVED: &str = "资质审核通过后方可下单";

/// Whether the member may check out and order: the electronic agreement signed (else
/// [`Error::Agreement`], and the web app opens /dzht to sign it), then the qualifications
/// approved and every certificate in force in date (else forbidden, naming the certificate).
pub async fn may_order(conn: &mut AnyConnection, member: i64) -> Result<()> {
    let standing: Option<(i64, i64)> =
        sqlx::query_as("SELECT agreement_signed, is_passed FROM members WHERE id = $1").bind(member).fetch_optional(&mut *conn).await?;
    match standing {
        None => Err(Error::Unauthorized),
        Some((signed, _)) if signed != 1 => Err(Error::Agreement),
        Some((_, passed)) if passed != 1 => Err(Error::forbidden(NOT_APPROVED)),
        Some(_) => match certificates::lapsed(conn, member, now()).await? {
            Some(why) => Err(Error::forbidden(why)),
            None => Ok(()),
        },
    }
}

/// The engine's refusal of a checkout as the field error the member reads; a cart the engine
/// cannot read is a fault.
pub fn refusal(refusal: Refusal) -> Error {
    if let Refusal::Invalid(error) = &refusal {
        return Error::Internal(anyhow::anyhow!("cart is not engine input: {error}"));
    }
    Error::field(refusal.field(), refusal.message())
}

/// What [`check`] found: the engine's quote of the chosen lines settled with the member's
/// choices, the chosen lines (list-shaped), the engine input of the chosen lines (without the
/// settlement), and the member's settlement input (without the choices).
pub struct Checked {
    pub quote: engine::CartQuote,
    pub lines: Vec<CartLine>,
    pub input: engine::CartInput,
    pub accounts: engine::SettlementInput,
}

/// Checks the order the member asks for against their cart and accounts, as read on `conn`
/// at `now`.
pub async fn check(conn: &mut AnyConnection, kind: Kind, member: i64, form: &OrderForm, expected: Expected, now: i64) -> Result<Checked> {
    let cart = cart_input(conn, kind, member).await?;
    // A chosen line the member may not buy at all (outside its business scope, controlled
    // goods it is not approved for) is named; the engine would refuse it as not buyable.
    if let Some(line) = cart.data.iter().find(|line| form.ids.contains(&line.id) && !line.goods.refusal.is_empty()) {
        let name = line.combination.as_ref().map_or(line.goods.name.as_str(), |set| set.name.as_str());
        return Err(Error::field("ids", format!("{name}：{}", line.goods.refusal)));
    }
    let accounts = settlement::accounts(conn, member, now).await?;
    let mut input = cart.engine_input();
    let mut chosen = accounts.clone();
    form.choices.apply(&mut chosen);
    input.settlement = Some(chosen);
    let quote = checkout::check(&input, &form.ids, expected).map_err(refusal)?;
    let lines = cart.data.into_iter().filter(|line| form.ids.contains(&line.id)).collect();
    let mut input = checkout::chosen(&input, &form.ids);
    input.settlement = None;
    Ok(Checked { quote, lines, input, accounts })
}
