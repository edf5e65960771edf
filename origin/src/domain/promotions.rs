//! Promotions' rules that more than one caller states: the store-wide discount's name, and
//! what a flash sale's per-member limit refuses (`crate::domain::orders::ordered_in_sale`
//! counts what the member ordered in the sale).

/// A stored rate as the shop writes it, the engine's label (docs/pricing.md rule 23): `0.94`
/// is `9.4折`, `0.9` is `9折`. A rate the engine refuses is shown as stored.
pub fn discount_name(rate: &str) -> String {
    engine::Money::parse(rate).ok().and_then(|money| engine::text::discount_label(money).ok()).unwrap_or_else(|| rate.to_owned())
}

/// What a flash sale's per-member limit refuses (422), in the goods' own unit (`盒`, `瓶` …).
pub fn limit_message(limit: i64, unit: &str) -> String {
    format!("秒杀商品每人限购{limit}{unit}")
}
