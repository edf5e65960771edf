//! Reading a checkout or order form (`docs/api.md`, "Requests"): lists come as repeated keys
//! (`ids=1&ids=2`), with brackets (`ids[]=1`) or comma-separated (`ids=1,2`), in any mix; values
//! are trimmed. The edge and the origin read `ids`, `expected_payable` and the settlement's
//! choices (`coupon_id`, `cash_voucher_id`, `use_red_packet`, `use_points`, `expected_due`) with
//! these functions, so that what the edge checked is what the origin orders.

use engine::checkout::{Expected, Refusal};
use engine::{Money, SettlementInput};

/// A form field that cannot be read, with the Chinese message the buyer sees (a 422).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldError {
    pub field: &'static str,
    pub message: &'static str,
}

/// Whether a form key names the field `name`: `name` itself or `name[]`.
pub fn key_is(key: &str, name: &str) -> bool {
    key == name || key.strip_suffix("[]") == Some(name)
}

/// A part of an id list that is not an integer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BadId;

impl BadId {
    /// What the buyer is told (a 422 on the list's field).
    pub const MESSAGE: &'static str = "编号格式不正确";
}

/// Every id in the values given for one list field: each value split at commas, empty parts
/// skipped.
pub fn ids<'a>(values: impl IntoIterator<Item = &'a str>) -> Result<Vec<i64>, BadId> {
    let mut ids = Vec::new();
    for value in values {
        for part in value.split(',').map(str::trim).filter(|part| !part.is_empty()) {
            ids.push(part.parse().map_err(|_| BadId)?);
        }
    }
    Ok(ids)
}

/// The fields of a checkout or order form that the edge checks and signs.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OrderForm {
    /// The chosen cart line ids, in the order given, duplicates kept.
    pub ids: Vec<i64>,
    /// `expected_payable` as posted, trimmed; `None` when absent or empty.
    pub expected_payable: Option<String>,
    /// The member's choices at checkout (`docs/pricing.md`, rules 13–16).
    pub choices: Choices,
    /// `expected_due` as posted, trimmed: the amount due the buyer was shown.
    pub expected_due: Option<String>,
}

/// What the member chose to pay part of the order with. `None` for a coupon or voucher: the
/// engine's best; `Some(0)`: none.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Choices {
    pub coupon_id: Option<i64>,
    pub cash_voucher_id: Option<i64>,
    pub use_red_packet: bool,
    pub use_points: bool,
}

impl Choices {
    /// Puts the choices into the member's settlement input.
    pub fn apply(&self, settlement: &mut SettlementInput) {
        settlement.coupon_id = self.coupon_id;
        settlement.cash_voucher_id = self.cash_voucher_id;
        settlement.use_red_packet = self.use_red_packet;
        settlement.use_points = self.use_points;
    }

    /// The choices as one line of text, for the edge's signed check.
    pub fn text(&self) -> String {
        let id = |id: Option<i64>| id.map_or_else(|| "best".to_owned(), |id| id.to_string());
        format!(
            "coupon={};voucher={};red_packet={};points={}",
            id(self.coupon_id),
            id(self.cash_voucher_id),
            u8::from(self.use_red_packet),
            u8::from(self.use_points)
        )
    }
}

/// An optional id: absent or empty is `None`.
fn optional_id(value: &str, field: &'static str, message: &'static str) -> Result<Option<i64>, FieldError> {
    let value = value.trim();
    if value.is_empty() {
        return Ok(None);
    }
    value.parse().map(Some).map_err(|_| FieldError { field, message })
}

/// A 0/1 switch: absent or empty is 0.
fn switch(value: &str, field: &'static str, message: &'static str) -> Result<bool, FieldError> {
    match value.trim() {
        "" | "0" => Ok(false),
        "1" => Ok(true),
        _ => Err(FieldError { field, message }),
    }
}

impl OrderForm {
    /// Reads the form's `(key, value)` pairs, already decoded. Refuses an id that is not an
    /// integer; an empty list or a missing payable is the caller's to judge.
    pub fn read<K: AsRef<str>, V: AsRef<str>>(pairs: impl IntoIterator<Item = (K, V)>) -> Result<OrderForm, FieldError> {
        let mut values = Vec::new();
        let mut form = OrderForm::default();
        let text = |value: &str| Some(value.trim().to_owned()).filter(|text| !text.is_empty());
        for (key, value) in pairs {
            let (key, value) = (key.as_ref(), value.as_ref());
            match key {
                _ if key_is(key, "ids") => values.push(value.to_owned()),
                "expected_payable" => form.expected_payable = text(value),
                "expected_due" => form.expected_due = text(value),
                "coupon_id" => form.choices.coupon_id = optional_id(value, "coupon_id", "优惠券编号格式不正确")?,
                "cash_voucher_id" => form.choices.cash_voucher_id = optional_id(value, "cash_voucher_id", "现金券编号格式不正确")?,
                "use_red_packet" => form.choices.use_red_packet = switch(value, "use_red_packet", "红包选项只能是0或1")?,
                "use_points" => form.choices.use_points = switch(value, "use_points", "积分选项只能是0或1")?,
                _ => {}
            }
        }
        form.ids = ids(values.iter().map(String::as_str)).map_err(|BadId| FieldError { field: "ids", message: BadId::MESSAGE })?;
        Ok(form)
    }

    /// The amount due the buyer was shown, when given: `Err` when it is not an amount.
    pub fn expected_due(&self) -> Result<Option<Money>, FieldError> {
        self.expected_due
            .as_deref()
            .map(|text| Money::parse(text).map_err(|_| FieldError { field: "expected_due", message: "实付金额格式不正确" }))
            .transpose()
    }

    /// Both amounts the buyer was shown, for `engine::checkout::check`.
    pub fn expectations(&self) -> Result<Expected, FieldError> {
        Ok(Expected { payable: self.expected()?, due: self.expected_due()? })
    }

    /// What the edge signs of the form besides the key, the lines and the payable: the choices
    /// and the amount due.
    pub fn settlement_text(&self) -> String {
        format!("{};due={}", self.choices.text(), self.expected_due.as_deref().unwrap_or(""))
    }

    /// The payable the buyer was shown, when given: `Err` when it is not an amount.
    pub fn expected(&self) -> Result<Option<Money>, FieldError> {
        self.expected_payable
            .as_deref()
            .map(|text| Money::parse(text).map_err(|_| FieldError { field: "expected_payable", message: "应付金额格式不正确" }))
            .transpose()
    }

    /// What the edge insists on before it asks the origin anything: some lines, and the
    /// payable the buyer was shown.
    pub fn required(&self) -> Result<Money, FieldError> {
        if self.ids.is_empty() {
            return Err(FieldError { field: "ids", message: Refusal::NothingSelected.message() });
        }
        self.expected()?.ok_or(FieldError { field: "expected_payable", message: "缺少应付金额，请刷新购物车后重试" })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(body: &[(&str, &str)]) -> Result<OrderForm, FieldError> {
        OrderForm::read(body.iter().copied())
    }

    #[test]
    fn ids_come_comma_separated_repeated_or_bracketed() {
        let form = read(&[("ids", "1, 2"), ("ids[]", "3"), ("ids", "4,"), ("expected_payable", " 24.50 ")]).unwrap();
        assert_eq!(form.ids, [1, 2, 3, 4]);
        assert_eq!(form.expected_payable.as_deref(), Some("24.50"));
        assert_eq!(form.required().unwrap().to_string(), "24.50");
        assert!(key_is("goods_ids[]", "goods_ids") && !key_is("ids[]x", "ids") && !key_is("xids", "ids"));
    }

    #[test]
    fn what_the_edge_refuses() {
        fn error<T>(field: &'static str, message: &'static str) -> Result<T, FieldError> {
            Err(FieldError { field, message })
        }
        assert_eq!(read(&[("ids", "1,x")]), error("ids", BadId::MESSAGE));
        assert_eq!(read(&[("expected_payable", "1")]).unwrap().required(), error("ids", "请选择要结算的商品"));
        assert_eq!(read(&[("ids", "1")]).unwrap().required(), error("expected_payable", "缺少应付金额，请刷新购物车后重试"));
        assert_eq!(
            read(&[("ids", "1"), ("expected_payable", " ")]).unwrap().required(),
            error("expected_payable", "缺少应付金额，请刷新购物车后重试")
        );
        assert_eq!(
            read(&[("ids", "1"), ("expected_payable", "12元")]).unwrap().required(),
            error("expected_payable", "应付金额格式不正确")
        );
        assert_eq!(read(&[("ids", "1")]).unwrap().expected(), Ok(None), "the origin's preview may go without");
    }

    #[test]
    fn settlement_choices() {
        let form =
            read(&[("ids", "1"), ("coupon_id", "7"), ("cash_voucher_id", "0"), ("use_points", "1"), ("expected_due", " 9.50 ")]).unwrap();
        assert_eq!(form.choices, Choices { coupon_id: Some(7), cash_voucher_id: Some(0), use_red_packet: false, use_points: true });
        assert_eq!(form.expected_due().unwrap().unwrap().to_string(), "9.50");
        assert_eq!(form.settlement_text(), "coupon=7;voucher=0;red_packet=0;points=1;due=9.50");
        assert_eq!(read(&[("ids", "1")]).unwrap().settlement_text(), "coupon=best;voucher=best;red_packet=0;points=0;due=");
        let mut settlement = SettlementInput::default();
        form.choices.apply(&mut settlement);
        assert_eq!((settlement.coupon_id, settlement.cash_voucher_id, settlement.use_points), (Some(7), Some(0), true));
        assert_eq!(read(&[("coupon_id", "x")]), Err(FieldError { field: "coupon_id", message: "优惠券编号格式不正确" }));
        assert_eq!(read(&[("use_red_packet", "2")]), Err(FieldError { field: "use_red_packet", message: "红包选项只能是0或1" }));
        assert_eq!(
            read(&[("expected_due", "九元")]).unwrap().expected_due(),
            Err(FieldError { field: "expected_due", message: "实付金额格式不正确" })
        );
    }
}
