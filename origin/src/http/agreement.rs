//! The electronic purchase agreement (电子合同, `/dzht`): what a member signs before the first
//! order. The checkout and orders answer code 459 until it is signed (`order::may_order`); the
//! web app then opens `/dzht`, which reads the agreement here and signs it.

use axum::extract::State;
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::ApiContext;
use super::error::{Answer, Envelope, Error, Result, ok};
use super::extract::{Fields, Form, FromFields, Member, required_checked};
use crate::domain::messages;
use crate::now;
use crate::security::text;

pub fn router() -> OpenApiRouter<ApiContext> {
    OpenApiRouter::new().routes(routes!(agreement)).routes(routes!(sign))
}

/// The agreement's clauses, in order; their placeholders are filled as an article's are
/// (`crate::domain::shop::fill`).
const CLAUSES: [&str; 8] = [
    "买方通过{{shop.name}}（以下简称“本平台”）向卖方采购药品，应具备合法有效的药品经营或医疗机构执业资质，并保证在本平台提交的资质证件真实、有效；资质变更或到期的，应及时更新。",
    "卖方在本平台展示的商品价格、促销规则以下单时页面及结算金额为准；订单提交后，买方应在{{order.pay_minutes}}分钟内按订单金额付款（账户余额或在线支付），逾期未付款的订单自动取消。",
    "卖方按订单发货，药品随货附同批号检验报告及随货同行单；买方收货时应当场核对品名、规格、批号、数量。",
    "买方对质量或配送有异议的，可在订单中申请售后；符合退货条件的，按退货规则退款至账户余额。",
    "买方采购的药品仅用于自身合法经营或诊疗，不得转售给无资质单位或个人，不得用于非法用途。",
    "双方应对在交易中知悉的对方商业信息保密，未经对方同意不得向第三方披露。",
    "因不可抗力不能履行的，受影响一方应及时通知对方，并在合理期限内提供证明，双方互不承担违约责任。",
    "本合同自买方在线签署之日起生效，长期有效；因本合同发生的争议，双方协商解决，协商不成的，提交卖方所在地人民法院诉讼解决。",
];

/// The agreement as the member reads it, and whether (and by whom, when) it was signed.
#[derive(Serialize, ToSchema)]
pub struct Agreement {
    #[schema(example = "药品购销电子合同")]
    title: String,
    /// The seller: the shop's seller entity (`shop.company`).
    #[schema(example = "杭州瑞禾医药有限公司")]
    seller: String,
    /// The shop's identity, the seller's licences, tax number, address and hotline among it
    /// (`settings`, as the footer states it).
    shop: crate::domain::shop::ShopIdentity,
    /// The buyer: the member's company.
    buyer: String,
    clauses: Vec<String>,
    /// 1 when signed.
    signed: i64,
    /// Who signed, empty when not signed (or signed before signers were recorded).
    signer: String,
    /// When, Unix seconds; 0 when not signed.
    signed_at: i64,
}

async fn read(context: &ApiContext, member: Member) -> Result<Agreement, Error> {
    let row: Option<(String, i64, String, i64)> =
        sqlx::query_as("SELECT company, agreement_signed, agreement_signer, agreement_signed_at FROM members WHERE id = $1")
            .bind(member.id)
            .fetch_optional(&context.db.pool)
            .await?;
    let (buyer, signed, signer, signed_at) = row.ok_or(Error::Unauthorized)?;
    let shop = crate::domain::shop::read(&mut *context.db.pool.acquire().await?).await?;
    let facts = crate::domain::shop::Facts { pay_minutes: context.pay_minutes };
    Ok(Agreement {
        title: "药品购销电子合同".into(),
        seller: shop.company.clone(),
        buyer,
        clauses: CLAUSES.iter().map(|clause| crate::domain::shop::fill(clause, &shop, facts)).collect(),
        shop,
        signed,
        signer,
        signed_at,
    })
}

/// `GET /api/user/agreement`: the electronic agreement the member signs before ordering.
#[utoipa::path(get, path = "/api/user/agreement", operation_id = "agreement", tag = "账户", responses((status = 200, description = "电子合同", body = Envelope<Agreement>)))]
async fn agreement(State(context): State<ApiContext>, member: Member) -> Answer<Agreement> {
    ok(read(&context, member).await?)
}

/// A signature: who signs, and that they agree (both required).
#[derive(ToSchema)]
pub struct SignForm {
    /// 签署人.
    #[schema(value_type = String)]
    signer: Option<String>,
    /// `1`: the member has read the agreement and agrees.
    #[schema(value_type = String, example = "1")]
    agree: Option<String>,
}

impl FromFields for SignForm {
    fn from_fields(form: &Fields) -> Result<SignForm> {
        Ok(SignForm { signer: form.text("signer"), agree: form.text("agree") })
    }
}

/// `POST /api/user/agreement/sign` (`signer`, `agree=1`): signs the agreement for the member,
/// once; signing again changes nothing and answers the agreement as it was signed.
#[utoipa::path(post, path = "/api/user/agreement/sign", request_body(content = SignForm, content_type = "application/x-www-form-urlencoded"), operation_id = "agreement_sign", tag = "账户", responses((status = 200, description = "已签署的电子合同", body = Envelope<Agreement>)))]
async fn sign(State(context): State<ApiContext>, member: Member, Form(form): Form<SignForm>) -> Answer<Agreement> {
    if form.agree.as_deref() != Some("1") {
        return Err(Error::field("agree", "请阅读并同意电子合同"));
    }
    let signer = required_checked(text::SIGNER, form.signer)?;
    let mut tx = context.db.pool.begin().await?;
    let signed = sqlx::query(
        "UPDATE members SET agreement_signed = 1, agreement_signer = $1, agreement_signed_at = $2 WHERE id = $3 AND agreement_signed = 0",
    )
    .bind(&signer)
    .bind(now())
    .bind(member.id)
    .execute(&mut *tx)
    .await?;
    if signed.rows_affected() == 1 {
        messages::send(
            &mut tx,
            member.id,
            messages::MessageKind::System,
            "电子合同已签署",
            &format!("{signer} 已代表贵单位在线签署《药品购销电子合同》。"),
        )
        .await?;
    }
    tx.commit().await?;
    ok(read(&context, member).await?)
}
