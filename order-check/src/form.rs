//! Reading a checkout or order form (`docs/api.md`, "Requests"): lists come as repeated keys
//! (`ids=1&ids=2`), with brackets (`ids[]=1`) or comma-separated (`ids=1,2`), in any mix; values
//! are trimmed. The edge and the origin read `ids` and `expected_payable` with these functions,
//! so that what the edge checked is what the origin orders.

use engine::Money;
use engine::checkout::Refusal;

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
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OrderForm {
    /// The chosen cart line ids, in the order given, duplicates kept.
    pub ids: Vec<i64>,
    /// `expected_payable` as posted, trimmed; `None` when absent or empty.
    pub expected_payable: Option<String>,
}

impl OrderForm {
    /// Reads the form's `(key, value)` pairs, already decoded. Refuses an id that is not an
    /// integer; an empty list or a missing payable is the caller's to judge.
    pub fn read<K: AsRef<str>, V: AsRef<str>>(pairs: impl IntoIterator<Item = (K, V)>) -> Result<OrderForm, FieldError> {
        let mut values = Vec::new();
        let mut expected_payable = None;
        for (key, value) in pairs {
            let (key, value) = (key.as_ref(), value.as_ref());
            if key_is(key, "ids") {
                values.push(value.to_owned());
            } else if key == "expected_payable" {
                expected_payable = Some(value.trim().to_owned()).filter(|text| !text.is_empty());
            }
        }
        let ids = ids(values.iter().map(String::as_str)).map_err(|BadId| FieldError { field: "ids", message: BadId::MESSAGE })?;
        Ok(OrderForm { ids, expected_payable })
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
}
