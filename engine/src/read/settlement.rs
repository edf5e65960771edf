//! Reading the `settlement` object (`docs/pricing.md`, rules 11–20).
//!
//! Unlike the cart, the settlement is small, so it is read in two steps: serde reads it into a
//! plain tree ([`Node`], one visitor whatever the format), then plain functions check the tree
//! into a [`SettlementInput`], naming the wrong field. One copy of those functions serves every
//! format, which keeps the WebAssembly small (serde's readers are copied per field type and
//! format), and JSON text, JSON values and JavaScript objects get the same errors.

use std::fmt::{self, Display};

use serde::Deserialize;
use serde::de::{self, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

use super::{Float, Key, KeySeed};
use crate::model::{CashVoucher, Coupon, CouponKind, CouponScope, DEFAULT_POINTS_PER_YUAN, SettlementInput};
use crate::money::{Cents, MAX_SAFE_INTEGER, Money, Quoted};

/// A value as read, keeping only the keys the engine knows.
#[derive(Debug)]
pub(crate) enum Node {
    Null,
    Bool(bool),
    Int(i64),
    UInt(u64),
    Float(f64),
    Text(String),
    List(Vec<Node>),
    Map(Vec<(Key, Node)>),
}

impl<'de> Deserialize<'de> for Node {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Node, D::Error> {
        deserializer.deserialize_any(NodeVisitor)
    }
}

struct NodeVisitor;

impl<'de> Visitor<'de> for NodeVisitor {
    type Value = Node;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E: de::Error>(self, value: bool) -> Result<Node, E> {
        Ok(Node::Bool(value))
    }

    fn visit_i64<E: de::Error>(self, value: i64) -> Result<Node, E> {
        Ok(Node::Int(value))
    }

    fn visit_u64<E: de::Error>(self, value: u64) -> Result<Node, E> {
        Ok(Node::UInt(value))
    }

    fn visit_f64<E: de::Error>(self, value: f64) -> Result<Node, E> {
        Ok(Node::Float(value))
    }

    fn visit_str<E: de::Error>(self, value: &str) -> Result<Node, E> {
        Ok(Node::Text(value.to_owned()))
    }

    fn visit_unit<E: de::Error>(self) -> Result<Node, E> {
        Ok(Node::Null)
    }

    fn visit_none<E: de::Error>(self) -> Result<Node, E> {
        Ok(Node::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Node, D::Error> {
        Node::deserialize(deserializer)
    }

    fn visit_seq<S: SeqAccess<'de>>(self, mut seq: S) -> Result<Node, S::Error> {
        let mut list = Vec::new();
        while let Some(element) = seq.next_element()? {
            list.push(element);
        }
        Ok(Node::List(list))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Node, A::Error> {
        let mut fields = Vec::new();
        while let Some(key) = map.next_key_seed(KeySeed)? {
            match key {
                Some(key) => fields.push((key, map.next_value()?)),
                None => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(Node::Map(fields))
    }
}

/// A wrong value: where (relative to the settlement), and why.
pub(crate) struct Wrong {
    pub path: String,
    pub reason: String,
}

type Read<T> = Result<T, Wrong>;

/// Where a value is, written out only when it is wrong: `parent.key` (`coupons[2].rate`).
#[derive(Clone, Copy)]
struct At<'a> {
    parent: &'a str,
    key: Option<Key>,
}

impl Display for At<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.parent.is_empty(), self.key) {
            (_, None) => f.write_str(self.parent),
            (true, Some(key)) => f.write_str(key.name()),
            (false, Some(key)) => write!(f, "{}.{}", self.parent, key.name()),
        }
    }
}

impl<'a> At<'a> {
    fn of(parent: &'a str, key: Key) -> At<'a> {
        At { parent, key: Some(key) }
    }

    /// One copy for every kind of reason (`dyn`).
    #[inline(never)]
    fn wrong(self, reason: &dyn Display) -> Wrong {
        Wrong { path: self.to_string(), reason: reason.to_string() }
    }
}

/// What was found instead of what was expected, worded as the cart's readers word it.
#[inline(never)]
fn invalid_type(node: &Node, expected: &str) -> String {
    let found = match node {
        Node::Null => "null".to_owned(),
        Node::Bool(value) => format!("boolean `{value}`"),
        Node::Int(value) => format!("integer `{value}`"),
        Node::UInt(value) => format!("integer `{value}`"),
        Node::Float(value) => format!("floating point{}", Float(*value, " `", "`")),
        Node::Text(text) => format!("string {}", Quoted(text)),
        Node::List(_) => "sequence".to_owned(),
        Node::Map(_) => "map".to_owned(),
    };
    format!("invalid type: {found}, expected {expected}")
}

/// The fields of an object, or why it is not one.
fn fields<'a>(node: &'a Node, at: At<'_>, expected: &str) -> Read<&'a [(Key, Node)]> {
    match node {
        Node::Map(fields) => Ok(fields),
        other => Err(at.wrong(&invalid_type(other, expected))),
    }
}

/// The value of `key` when present and not null.
fn get(fields: &[(Key, Node)], key: Key) -> Option<&Node> {
    fields.iter().rev().find(|(name, _)| *name == key).map(|(_, node)| node).filter(|node| !matches!(node, Node::Null))
}

#[inline(never)]
fn integer(node: &Node, at: At<'_>) -> Read<i64> {
    match *node {
        Node::Int(value) if value.unsigned_abs() <= MAX_SAFE_INTEGER as u64 => Ok(value),
        Node::UInt(value) if value <= MAX_SAFE_INTEGER as u64 => Ok(value as i64),
        Node::Int(_) | Node::UInt(_) => Err(at.wrong(&"beyond a safe integer")),
        Node::Float(value) if value.trunc() != value => Err(at.wrong(&format_args!("not an integer{}", Float(value, ": ", "")))),
        Node::Float(value) if value.abs() > MAX_SAFE_INTEGER as f64 => Err(at.wrong(&"beyond a safe integer")),
        Node::Float(value) => Ok(value as i64),
        ref other => Err(at.wrong(&invalid_type(other, "an integer"))),
    }
}

#[inline(never)]
fn money(node: &Node, at: At<'_>) -> Read<Money> {
    let read = match node {
        Node::Text(text) => Money::parse(text),
        Node::Int(value) => Money::from_integer(i128::from(*value)),
        Node::UInt(value) => Money::from_integer(i128::from(*value)),
        Node::Float(value) => Money::from_f64(*value),
        other => return Err(at.wrong(&invalid_type(other, "a decimal amount as a string or a number"))),
    };
    read.map_err(|error| at.wrong(&error))
}

/// Money cut to whole cents (`floor2`): every deduction is whole cents.
fn cents(node: &Node, at: At<'_>) -> Read<Cents> {
    money(node, at)?.floor_cents().ok_or_else(|| at.wrong(&"more than 28 significant digits or too large"))
}

#[inline(never)]
fn flag(node: &Node, at: At<'_>) -> Read<bool> {
    let number = match *node {
        Node::Bool(value) => return Ok(value),
        Node::Int(value) => value as f64,
        Node::UInt(value) => value as f64,
        Node::Float(value) => value,
        ref other => return Err(at.wrong(&invalid_type(other, "0 or 1"))),
    };
    match number {
        0.0 => Ok(false),
        1.0 => Ok(true),
        _ => Err(at.wrong(&format_args!("must be 0 or 1{}", Float(number, ", got ", "")))),
    }
}

/// A share of the amount: a rate from 0 to 1.
fn share(node: &Node, at: At<'_>) -> Read<Money> {
    let rate = money(node, at)?;
    if rate > Money::ONE {
        return Err(at.wrong(&"must be between 0 and 1"));
    }
    Ok(rate)
}

/// Out of line: one copy per value type, called for every optional field.
#[inline(never)]
fn optional<T>(fields: &[(Key, Node)], key: Key, parent: &str, read: fn(&Node, At<'_>) -> Read<T>) -> Read<Option<T>> {
    get(fields, key).map(|node| read(node, At::of(parent, key))).transpose()
}

fn required<T>(fields: &[(Key, Node)], key: Key, parent: &str, read: fn(&Node, At<'_>) -> Read<T>) -> Read<T> {
    match get(fields, key) {
        Some(node) => read(node, At::of(parent, key)),
        None => Err(At::of(parent, key).wrong(&"missing")),
    }
}

/// The elements of the list at `key`, each read by `read` at `key[index]`.
fn list<T>(fields: &[(Key, Node)], key: Key, read: fn(&Node, &str) -> Read<T>) -> Read<Vec<T>> {
    let mut list = Vec::new();
    match get(fields, key) {
        None => {}
        Some(Node::List(nodes)) => {
            for (index, node) in nodes.iter().enumerate() {
                list.push(read(node, &format!("{}[{index}]", key.name()))?);
            }
        }
        Some(other) => return Err(At::of("", key).wrong(&invalid_type(other, "an array"))),
    }
    Ok(list)
}

/// The settlement object; paths in errors are relative to it (`coupons[2].rate`).
pub(crate) fn settlement(node: &Node) -> Read<SettlementInput> {
    let fields = fields(node, At { parent: "", key: None }, "a settlement object")?;
    let coupons = list(fields, Key::Coupons, coupon)?;
    if let Some((index, id)) = first_duplicate(coupons.iter().map(|coupon| coupon.id)) {
        return Err(
            At { parent: &format!("{}[{index}]", Key::Coupons.name()), key: Some(Key::Id) }.wrong(&format_args!("duplicate id {id}"))
        );
    }
    let cash_vouchers = list(fields, Key::CashVouchers, voucher)?;
    if let Some((index, id)) = first_duplicate(cash_vouchers.iter().map(|voucher| voucher.id)) {
        return Err(
            At { parent: &format!("{}[{index}]", Key::CashVouchers.name()), key: Some(Key::Id) }.wrong(&format_args!("duplicate id {id}"))
        );
    }
    let points_balance = optional(fields, Key::PointsBalance, "", integer)?.unwrap_or(0);
    if points_balance < 0 {
        return Err(At::of("", Key::PointsBalance).wrong(&format_args!("must not be negative, got {points_balance}")));
    }
    let points_per_yuan = optional(fields, Key::PointsPerYuan, "", integer)?.unwrap_or(DEFAULT_POINTS_PER_YUAN);
    if points_per_yuan < 1 {
        return Err(At::of("", Key::PointsPerYuan).wrong(&format_args!("must be at least 1, got {points_per_yuan}")));
    }
    Ok(SettlementInput {
        now: optional(fields, Key::Now, "", integer)?,
        coupons,
        coupon_id: optional(fields, Key::CouponId, "", integer)?,
        cash_vouchers,
        cash_voucher_id: optional(fields, Key::CashVoucherId, "", integer)?,
        red_packet_balance: optional(fields, Key::RedPacketBalance, "", cents)?.unwrap_or(Cents::ZERO),
        use_red_packet: optional(fields, Key::UseRedPacket, "", flag)?.unwrap_or(false),
        points_balance,
        use_points: optional(fields, Key::UsePoints, "", flag)?.unwrap_or(false),
        shipping_fee: optional(fields, Key::ShippingFee, "", cents)?.unwrap_or(Cents::ZERO),
        red_packet_max_rate: optional(fields, Key::RedPacketMaxRate, "", share)?.unwrap_or(Money::ZERO),
        points_per_yuan,
        points_max_rate: optional(fields, Key::PointsMaxRate, "", share)?.unwrap_or(Money::ZERO),
    })
}

#[inline(never)]
fn coupon(node: &Node, path: &str) -> Read<Coupon> {
    let fields = fields(node, At { parent: path, key: None }, "a coupon object")?;
    let id = required(fields, Key::Id, path, integer)?;
    let kind = match required(fields, Key::Kind, path, integer)? {
        1 => match get(fields, Key::Reduce) {
            Some(node) => CouponKind::Reduce { reduce: cents(node, At::of(path, Key::Reduce))? },
            None => return Err(At::of(path, Key::Reduce).wrong(&"missing (required for kind 1)")),
        },
        2 => {
            let at = At::of(path, Key::Rate);
            let rate = match get(fields, Key::Rate) {
                Some(node) => money(node, at)?,
                None => return Err(at.wrong(&"missing (required for kind 2)")),
            };
            if rate.is_zero() || rate >= Money::ONE {
                return Err(at.wrong(&"must be above 0 and below 1"));
            }
            CouponKind::Rate { rate, max_reduce: optional(fields, Key::MaxReduce, path, cents)? }
        }
        other => return Err(At::of(path, Key::Kind).wrong(&format_args!("must be 1 or 2, got {other}"))),
    };
    let scope = optional(fields, Key::Scope, path, integer)?.unwrap_or(0);
    let scope =
        CouponScope::from_code(scope).ok_or_else(|| At::of(path, Key::Scope).wrong(&format_args!("must be 0, 1, 2 or 3, got {scope}")))?;
    Ok(Coupon {
        id,
        kind,
        scope,
        threshold: optional(fields, Key::Threshold, path, money)?.unwrap_or(Money::ZERO),
        starts_at: optional(fields, Key::StartsAt, path, integer)?,
        ends_at: optional(fields, Key::EndsAt, path, integer)?,
    })
}

#[inline(never)]
fn voucher(node: &Node, path: &str) -> Read<CashVoucher> {
    let fields = fields(node, At { parent: path, key: None }, "a cash voucher object")?;
    Ok(CashVoucher {
        id: required(fields, Key::Id, path, integer)?,
        amount: required(fields, Key::Amount, path, cents)?,
        threshold: optional(fields, Key::Threshold, path, money)?.unwrap_or(Money::ZERO),
        starts_at: optional(fields, Key::StartsAt, path, integer)?,
        ends_at: optional(fields, Key::EndsAt, path, integer)?,
    })
}

/// The position and value of the first id seen before, if any.
fn first_duplicate(ids: impl Iterator<Item = i64>) -> Option<(usize, i64)> {
    let mut seen: Vec<i64> = Vec::new();
    for (index, id) in ids.enumerate() {
        if seen.contains(&id) {
            return Some((index, id));
        }
        seen.push(id);
    }
    None
}
