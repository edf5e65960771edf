//! The shop's identity — its name, the seller entity, licence numbers, tax number, address,
//! hotline — kept once, as rows of `settings`, and read by everything that shows it: the footer
//! (the home data, `GET /api/index`), the electronic agreement's seller, help and news articles
//! (their `{{shop.…}}` placeholders, filled when an article is served), the e-invoice PDF's
//! seller and the payment provider's cashier (the payee and the payment's subject). The
//! operator changes it with `origin admin settings` (`crate::admin`); nothing else holds a copy.

use serde::{Deserialize, Serialize};
use sqlx::AnyConnection;
use utoipa::ToSchema;

/// The shop's identity, as the footer, the agreement and the articles state it.
/// `seed/catalogue.json`'s `shop` has the same fields.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ShopIdentity {
    /// The shop's name, as its pages, articles and the cashier give it.
    #[schema(example = "医药批发商城")]
    pub name: String,
    /// The seller entity (公司名称): the agreement's seller, the invoice's 销售方, the payee.
    #[schema(example = "杭州瑞禾医药有限公司")]
    pub company: String,
    /// The number of the 药品经营许可证.
    #[schema(example = "浙AA5710286")]
    pub drug_licence: String,
    /// The number of the 互联网药品信息服务资格证书.
    #[schema(example = "(浙)-经营性-2024-0087")]
    pub internet_drug_licence: String,
    /// The number of the 医疗器械经营许可证.
    #[schema(example = "浙杭食药监械经营许20190215号")]
    pub device_licence: String,
    /// The 统一社会信用代码, which is also the seller's 纳税人识别号 on invoices.
    #[schema(example = "91330110MA2H3K7R5X")]
    pub credit_code: String,
    /// The company's address.
    pub address: String,
    /// The service hotline (客服热线), which is also the complaints line (投诉电话).
    #[schema(example = "400-816-3368")]
    pub hot_line: String,
    /// Service QQ numbers; empty when there is none.
    pub qq1: String,
    pub qq2: String,
    /// The ICP filing number (ICP备案号); empty when there is none.
    pub icp: String,
}

/// What a field's value may be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    /// Any text up to the limit, not empty.
    Text,
    /// Text up to the limit, or empty.
    Optional,
    /// 15 to 20 ASCII letters and digits, kept upper-case (a tax number, as invoices take one).
    TaxNumber,
    /// Digits, `-`, spaces and brackets: a phone number.
    Phone,
    /// Digits only, or empty: a QQ number.
    Digits,
}

/// One field of the identity: its name in the answer and in placeholders (`{{shop.name}}`), its
/// `settings` key, its Chinese label, its length limit and its rule.
#[derive(Clone, Copy, Debug)]
pub struct Field {
    pub name: &'static str,
    pub key: &'static str,
    pub label: &'static str,
    pub max: usize,
    pub rule: Rule,
}

/// Every field, in the order the footer and `origin admin settings` list them.
pub const FIELDS: [Field; 11] = [
    Field { name: "name", key: "shop_name", label: "店铺名称", max: 30, rule: Rule::Text },
    Field { name: "company", key: "company_name", label: "公司名称", max: 100, rule: Rule::Text },
    Field { name: "drug_licence", key: "drug_licence", label: "药品经营许可证", max: 50, rule: Rule::Text },
    Field {
        name: "internet_drug_licence", key: "internet_drug_licence", label: "互联网药品信息服务资格证书", max: 50, rule: Rule::Text
    },
    Field { name: "device_licence", key: "device_licence", label: "医疗器械经营许可证", max: 50, rule: Rule::Optional },
    Field { name: "credit_code", key: "credit_code", label: "统一社会信用代码", max: 20, rule: Rule::TaxNumber },
    Field { name: "address", key: "address", label: "公司地址", max: 200, rule: Rule::Text },
    Field { name: "hot_line", key: "hot_line", label: "客服热线", max: 30, rule: Rule::Phone },
    Field { name: "qq1", key: "qq1", label: "客服QQ", max: 15, rule: Rule::Digits },
    Field { name: "qq2", key: "qq2", label: "客服QQ", max: 15, rule: Rule::Digits },
    Field { name: "icp", key: "icp", label: "ICP备案号", max: 50, rule: Rule::Optional },
];

impl ShopIdentity {
    /// A field's value by its name (`name`, `company`, …).
    pub fn get(&self, name: &str) -> Option<&str> {
        Some(match name {
            "name" => &self.name,
            "company" => &self.company,
            "drug_licence" => &self.drug_licence,
            "internet_drug_licence" => &self.internet_drug_licence,
            "device_licence" => &self.device_licence,
            "credit_code" => &self.credit_code,
            "address" => &self.address,
            "hot_line" => &self.hot_line,
            "qq1" => &self.qq1,
            "qq2" => &self.qq2,
            "icp" => &self.icp,
            _ => return None,
        })
    }

    fn slot(&mut self, name: &str) -> Option<&mut String> {
        Some(match name {
            "name" => &mut self.name,
            "company" => &mut self.company,
            "drug_licence" => &mut self.drug_licence,
            "internet_drug_licence" => &mut self.internet_drug_licence,
            "device_licence" => &mut self.device_licence,
            "credit_code" => &mut self.credit_code,
            "address" => &mut self.address,
            "hot_line" => &mut self.hot_line,
            "qq1" => &mut self.qq1,
            "qq2" => &mut self.qq2,
            "icp" => &mut self.icp,
            _ => return None,
        })
    }

    /// The identity's `settings` rows, `(key, value)`, in [`FIELDS`]' order.
    pub fn rows(&self) -> Vec<(&'static str, &str)> {
        FIELDS.iter().map(|field| (field.key, self.get(field.name).unwrap_or_default())).collect()
    }
}

/// The shop's identity as `settings` holds it now; a missing row reads as empty.
pub async fn read(conn: &mut AnyConnection) -> sqlx::Result<ShopIdentity> {
    let keys: Vec<String> = FIELDS.iter().map(|field| format!("'{}'", field.key)).collect();
    let rows: Vec<(String, String)> =
        sqlx::query_as(sqlx::AssertSqlSafe(format!("SELECT key, value FROM settings WHERE key IN ({})", keys.join(", "))))
            .fetch_all(&mut *conn)
            .await?;
    let mut identity = ShopIdentity::default();
    for (key, value) in rows {
        if let Some(field) = FIELDS.iter().find(|field| field.key == key)
            && let Some(slot) = identity.slot(field.name)
        {
            *slot = value;
        }
    }
    Ok(identity)
}

/// `value` as the field keeps it (trimmed; a tax number upper-case), or why it cannot be kept.
pub fn check(field: &Field, value: &str) -> Result<String, String> {
    let value = value.trim();
    let label = field.label;
    if value.chars().count() > field.max {
        return Err(format!("{label}不能超过{}字", field.max));
    }
    if value.chars().any(char::is_control) {
        return Err(format!("{label}不能包含控制字符"));
    }
    let required = !matches!(field.rule, Rule::Optional | Rule::Digits);
    if value.is_empty() {
        return if required { Err(format!("请填写{label}")) } else { Ok(String::new()) };
    }
    match field.rule {
        Rule::Text | Rule::Optional => Ok(value.to_owned()),
        Rule::TaxNumber if (15..=20).contains(&value.len()) && value.chars().all(|c| c.is_ascii_alphanumeric()) => {
            Ok(value.to_ascii_uppercase())
        }
        Rule::TaxNumber => Err(format!("{label}应为15到20位字母或数字")),
        Rule::Phone if value.chars().all(|c| c.is_ascii_digit() || "-() ".contains(c)) && value.chars().any(|c| c.is_ascii_digit()) => {
            Ok(value.to_owned())
        }
        Rule::Phone => Err(format!("{label}只能包含数字、“-”、空格和括号")),
        Rule::Digits if value.chars().all(|c| c.is_ascii_digit()) => Ok(value.to_owned()),
        Rule::Digits => Err(format!("{label}只能是数字")),
    }
}

/// What an article's placeholders stand for beside the identity.
#[derive(Clone, Copy, Debug)]
pub struct Facts {
    /// Minutes an order may stay unpaid (`ORDER_PAY_MINUTES`).
    pub pay_minutes: u64,
}

/// `text` with its placeholders filled: `{{shop.<field>}}` for each field of the identity
/// (`{{shop.name}}`, `{{shop.company}}`, `{{shop.hot_line}}`, …), `{{order.pay_minutes}}`
/// (`ORDER_PAY_MINUTES`) and `{{shipping.free_from}}` (the order amount from which shipping is
/// free). Spaces inside the braces do not matter; an unknown name stays as written, so that a
/// mistyped one shows on the page rather than vanishing.
pub fn fill(text: &str, shop: &ShopIdentity, facts: Facts) -> String {
    let value = |name: &str| -> Option<String> {
        match name.split_once('.') {
            Some(("shop", field)) => shop.get(field).map(str::to_owned),
            Some(("order", "pay_minutes")) => Some(facts.pay_minutes.to_string()),
            Some(("shipping", "free_from")) => Some(crate::domain::cart::free_shipping_from().to_string()),
            _ => None,
        }
    };
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(open) = rest.find("{{") {
        let Some(close) = rest[open + 2..].find("}}") else { break };
        let name = rest[open + 2..open + 2 + close].trim();
        out.push_str(&rest[..open]);
        match value(name) {
            Some(value) => out.push_str(&value),
            None => out.push_str(&rest[open..open + 2 + close + 2]),
        }
        rest = &rest[open + 2 + close + 2..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shop() -> ShopIdentity {
        ShopIdentity { name: "医药批发商城".into(), hot_line: "400-816-3368".into(), ..ShopIdentity::default() }
    }

    #[test]
    fn placeholders_are_filled_and_unknown_ones_stay() {
        let facts = Facts { pay_minutes: 30 };
        assert_eq!(
            fill("欢迎来到{{shop.name}}，请在{{ order.pay_minutes }}分钟内支付，热线{{shop.hot_line}}。", &shop(), facts),
            "欢迎来到医药批发商城，请在30分钟内支付，热线400-816-3368。"
        );
        assert_eq!(fill("{{shop.nope}} {{other}} {{shop.name", &shop(), facts), "{{shop.nope}} {{other}} {{shop.name");
        assert_eq!(
            fill("满{{shipping.free_from}}元包邮", &shop(), facts),
            format!("满{}元包邮", crate::domain::cart::free_shipping_from())
        );
        assert_eq!(fill("没有占位符", &shop(), facts), "没有占位符");
    }

    #[test]
    fn every_field_has_a_slot_and_values_are_checked() {
        let mut identity = ShopIdentity::default();
        for field in FIELDS {
            *identity.slot(field.name).unwrap() = field.key.to_owned();
            assert_eq!(identity.get(field.name), Some(field.key));
        }
        let field = |name: &str| FIELDS.iter().find(|field| field.name == name).unwrap();
        assert_eq!(check(field("credit_code"), " 91330110ma2h3k7r5x "), Ok("91330110MA2H3K7R5X".into()));
        assert!(check(field("credit_code"), "123").is_err());
        assert_eq!(check(field("name"), ""), Err("请填写店铺名称".into()));
        assert_eq!(check(field("icp"), ""), Ok(String::new()));
        assert!(check(field("hot_line"), "call us").is_err());
        assert_eq!(check(field("hot_line"), "0571-8888 6666"), Ok("0571-8888 6666".into()));
        assert!(check(field("qq1"), "12a").is_err());
        assert!(check(field("name"), &"名".repeat(31)).is_err());
    }
}
