//! Objects and lists: which field of which object is read where ([`field`]), what happens once
//! a compound field is read ([`finish`]), and how lists grow in place.

use super::Key;
use super::what::{Out, Read, Shape, Slot};
use crate::model::{ActivityData, CartItem, Goods, Ladder, LadderStep, ManjianTier, ShippingData};
use crate::money::Money;

// An object's reader keeps a bit for every key it read.
const _: () = assert!(Key::ALL.len() <= 64);

/// Goods before their fields are read.
pub(super) fn no_goods() -> Goods {
    Goods {
        id: 0,
        is_buy: false,
        stock: 0,
        is_youx: false,
        goods_type: None,
        is_dpby: false,
        qg_number: 0,
        base_price: None,
        ladder: Ladder::default(),
        ladder_price_type: None,
    }
}

/// A cart line before its fields are read.
pub(super) fn no_item() -> CartItem {
    CartItem {
        id: 0,
        line_type: None,
        quantity: 0,
        price: Money::ZERO,
        is_selected: false,
        with_coupon: false,
        goods_manjian_id: 0,
        goods: no_goods(),
        combination: None,
    }
}

pub(super) fn no_tier() -> ManjianTier {
    ManjianTier { amount: Money::ZERO, reduce: None }
}

pub(super) fn no_step() -> LadderStep {
    LadderStep { number: 0, price: Money::ZERO }
}

/// Where field `key` of an object is read, and whether it may be null.
pub(super) enum Field<'a> {
    /// A field the engine does not read in this object.
    Ignored,
    Scalar(Slot<'a>, bool),
    /// An object, a list or the settlement, emptied first: a later field of the same name
    /// replaces an earlier one.
    Compound(Shape, bool, Out<'a>),
}

/// Where field `key` of `record` is read.
pub(super) fn field<'a>(record: &'a mut Out<'_>, key: Key) -> Field<'a> {
    let (slot, optional) = match (record, key) {
        (Out::Cart(cart), Key::Items) => {
            cart.items.clear();
            return Field::Compound(Shape::Items, false, Out::Items(&mut cart.items));
        }
        (Out::Cart(cart), Key::ShippingData) => {
            cart.shipping_data = ShippingData::default();
            return Field::Compound(Shape::Shipping, true, Out::Shipping(&mut cart.shipping_data));
        }
        (Out::Cart(cart), Key::ActivityData) => {
            cart.activity_data = ActivityData::default();
            return Field::Compound(Shape::Activity, true, Out::Activity(&mut cart.activity_data));
        }
        (Out::Cart(cart), Key::Settlement) => return Field::Compound(Shape::Settlement, false, Out::Settlement(&mut cart.settlement)),
        (Out::Shipping(data), Key::ShippingAmount) => (Slot::Money(&mut data.shipping_amount), true),
        (Out::Shipping(data), Key::NoTransOrderAmount) => (Slot::Money(&mut data.no_trans_order_amount), true),
        (Out::Activity(data), Key::Manjians) => {
            data.manjians.clear();
            return Field::Compound(Shape::Tiers, true, Out::Tiers(&mut data.manjians));
        }
        (Out::Tier(tier), Key::Amount) => (Slot::Money(&mut tier.amount), false),
        (Out::Tier(tier), Key::Reduce) => (Slot::OptionalMoney(&mut tier.reduce), true),
        (Out::Item(item), Key::Id) => (Slot::Integer(&mut item.id), false),
        (Out::Item(item), Key::Type) => (Slot::OptionalInteger(&mut item.line_type), true),
        (Out::Item(item), Key::Number) => (Slot::Quantity(&mut item.quantity), false),
        (Out::Item(item), Key::Price) => (Slot::Money(&mut item.price), false),
        (Out::Item(item), Key::IsSelected) => (Slot::Flag(&mut item.is_selected), false),
        (Out::Item(item), Key::WithCoupon) => (Slot::Flag(&mut item.with_coupon), true),
        (Out::Item(item), Key::GoodsManjianId) => (Slot::Integer(&mut item.goods_manjian_id), true),
        (Out::Item(item), Key::Goods) => {
            item.goods = no_goods();
            return Field::Compound(Shape::Goods, false, Out::Goods(&mut item.goods));
        }
        (Out::Item(item), Key::Combination) => return Field::Compound(Shape::Goods, true, Out::Goods(item.combination.insert(no_goods()))),
        (Out::Goods(goods), Key::Id) => (Slot::Integer(&mut goods.id), false),
        (Out::Goods(goods), Key::IsBuy) => (Slot::Flag(&mut goods.is_buy), false),
        (Out::Goods(goods), Key::Number) => (Slot::Integer(&mut goods.stock), false),
        (Out::Goods(goods), Key::IsYoux) => (Slot::Flag(&mut goods.is_youx), true),
        (Out::Goods(goods), Key::Type) => (Slot::OptionalInteger(&mut goods.goods_type), true),
        (Out::Goods(goods), Key::IsDpby) => (Slot::Flag(&mut goods.is_dpby), true),
        (Out::Goods(goods), Key::QgNumber) => (Slot::Integer(&mut goods.qg_number), true),
        (Out::Goods(goods), Key::BasePrice) => (Slot::OptionalMoney(&mut goods.base_price), true),
        (Out::Goods(goods), Key::LadderPrice) => {
            goods.ladder = Ladder::default();
            return Field::Compound(Shape::Ladder, true, Out::Ladder(goods.ladder.entries()));
        }
        (Out::Goods(goods), Key::LadderPriceType) => (Slot::OptionalInteger(&mut goods.ladder_price_type), true),
        (Out::Step(step), Key::Number) => (Slot::Quantity(&mut step.number), false),
        (Out::Step(step), Key::Price) => (Slot::Money(&mut step.price), false),
        _ => return Field::Ignored,
    };
    Field::Scalar(slot, optional)
}

/// After an object or a list of `record` was read as field `key` (`Null`: it was null).
pub(super) fn finish(record: &mut Out<'_>, key: Key, read: Read) {
    match (record, key, read) {
        (Out::Cart(cart), Key::Settlement, Read::Null) => cart.settlement = None,
        (Out::Item(item), Key::Combination, Read::Null) => item.combination = None,
        (Out::Goods(goods), Key::LadderPrice, Read::Built) => goods.ladder.normalize(),
        // Null shipping or activity data, or ladder: emptied by `field` already.
        _ => {}
    }
}

// ---- lists ---------------------------------------------------------------------------------

/// Room for `more` elements in a list.
pub(super) fn reserve(list: &mut Out<'_>, more: usize) {
    match list {
        Out::Items(items) => items.reserve(more),
        Out::Tiers(tiers) => tiers.reserve(more),
        Out::Ladder(steps) => steps.reserve(more),
        _ => {}
    }
}

/// Appends an element to read to a list: its position, and where it is read.
pub(super) fn push<'a>(list: &'a mut Out<'_>) -> (usize, Option<Out<'a>>) {
    match list {
        Out::Items(items) => {
            items.push(no_item());
            (items.len() - 1, items.last_mut().map(Out::Item))
        }
        Out::Tiers(tiers) => {
            tiers.push(no_tier());
            (tiers.len() - 1, tiers.last_mut().map(Out::Tier))
        }
        Out::Ladder(steps) => {
            steps.push(no_step());
            (steps.len() - 1, steps.last_mut().map(Out::Step))
        }
        _ => (0, None),
    }
}

/// Takes back the element [`push`] appended, when the list had no more.
pub(super) fn pop(list: &mut Out<'_>) {
    match list {
        Out::Items(items) => drop(items.pop()),
        Out::Tiers(tiers) => drop(tiers.pop()),
        Out::Ladder(steps) => drop(steps.pop()),
        _ => {}
    }
}
