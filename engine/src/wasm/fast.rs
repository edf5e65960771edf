//! The quick way through the token stream: reads a cart straight from the tokens when every
//! value is one the engine takes as it is, and gives up (`None`) at the first surprise — a
//! wrong type, a bad value, a missing field, a NaN. The caller then reads the same tokens with
//! the serde readers (`tokens.rs` + `read.rs`), which give the same cart or name the wrong field.
//! On a good cart both ways give the same `CartInput`; a property test holds them to it.

use crate::model::{ActivityData, CartInput, CartItem, Goods, Ladder, LadderStep, MAX_QUANTITY, ManjianTier, ShippingData};
use crate::money::{MAX_SAFE_INTEGER, Money};
use crate::read::Key;

use super::tokens::{ARR, FALSE, MAP, NULL, NUM, STR, TRUE, take_string};

struct Cursor<'a> {
    tokens: &'a [f64],
    at: usize,
    text: &'a str,
}

pub fn cart(tokens: &[f64], text: &str) -> Option<CartInput> {
    let mut cursor = Cursor { tokens, at: 0, text };
    let cart = cursor.cart()?;
    (cursor.at == tokens.len() && cursor.text.is_empty()).then_some(cart)
}

impl<'a> Cursor<'a> {
    fn next(&mut self) -> Option<f64> {
        let token = *self.tokens.get(self.at)?;
        self.at += 1;
        Some(token)
    }

    fn peek(&self) -> Option<f64> {
        self.tokens.get(self.at).copied()
    }

    fn text(&mut self) -> Option<&'a str> {
        let units = self.next()?;
        if !(units >= 0.0 && units <= self.text.len() as f64) {
            return None;
        }
        take_string(&mut self.text, units as usize)
    }

    fn count(&mut self, tag: f64) -> Option<usize> {
        if self.next()? != tag {
            return None;
        }
        let count = self.next()?;
        (count >= 0.0 && count <= self.tokens.len() as f64).then_some(count as usize)
    }

    fn key(&mut self) -> Option<Key> {
        Key::ALL.get(self.next()? as usize).copied()
    }

    /// `Some(None)` for null; the value read by `read` otherwise.
    fn optional<T>(&mut self, read: impl FnOnce(&mut Self) -> Option<T>) -> Option<Option<T>> {
        if self.peek()? == NULL {
            self.at += 1;
            return Some(None);
        }
        read(self).map(Some)
    }

    fn number(&mut self) -> Option<f64> {
        if self.next()? != NUM {
            return None;
        }
        self.next().filter(|value| value.is_finite())
    }

    fn integer(&mut self) -> Option<i64> {
        let value = self.number()?;
        (value.trunc() == value && value.abs() <= MAX_SAFE_INTEGER as f64).then_some(value as i64)
    }

    fn quantity(&mut self) -> Option<u32> {
        let value = self.integer()?;
        (1..=i64::from(MAX_QUANTITY)).contains(&value).then_some(value as u32)
    }

    fn flag(&mut self) -> Option<bool> {
        let tag = self.next()?;
        if tag == TRUE || tag == FALSE {
            return Some(tag == TRUE);
        }
        if tag != NUM {
            return None;
        }
        match self.next()? {
            0.0 => Some(false),
            1.0 => Some(true),
            _ => None,
        }
    }

    /// Money as the serde readers take it: text as decimal text, a number through the text
    /// JSON gives it (integers as integers, the rest through their shortest round-trip text).
    fn money(&mut self) -> Option<Money> {
        let tag = self.next()?;
        if tag == STR {
            return Money::parse(self.text()?).ok();
        }
        if tag != NUM {
            return None;
        }
        let value = self.next()?;
        if !value.is_finite() {
            return None;
        }
        if (0.0..18_446_744_073_709_551_616.0).contains(&value) && (value as u64) as f64 == value {
            return Money::from_integer(value as u64 as i128).ok();
        }
        if value < 0.0 {
            return None;
        }
        Money::from_f64(value).ok()
    }

    fn cart(&mut self) -> Option<CartInput> {
        let mut items = None;
        let mut shipping_data = ShippingData::default();
        let mut activity_data = ActivityData::default();
        for _ in 0..self.count(MAP)? {
            match self.key()? {
                Key::Items => {
                    let count = self.count(ARR)?;
                    let mut list = Vec::with_capacity(count);
                    for _ in 0..count {
                        list.push(self.item()?);
                    }
                    items = Some(list);
                }
                Key::ShippingData => shipping_data = self.optional(Self::shipping)?.unwrap_or_default(),
                Key::ActivityData => activity_data = self.optional(Self::activity)?.unwrap_or_default(),
                _ => return None,
            }
        }
        Some(CartInput { items: items?, shipping_data, activity_data, settlement: None })
    }

    fn shipping(&mut self) -> Option<ShippingData> {
        let mut data = ShippingData::default();
        for _ in 0..self.count(MAP)? {
            match self.key()? {
                Key::ShippingAmount => data.shipping_amount = self.optional(Self::money)?.unwrap_or_default(),
                Key::NoTransOrderAmount => data.no_trans_order_amount = self.optional(Self::money)?.unwrap_or_default(),
                _ => return None,
            }
        }
        Some(data)
    }

    fn activity(&mut self) -> Option<ActivityData> {
        let mut data = ActivityData::default();
        for _ in 0..self.count(MAP)? {
            match self.key()? {
                Key::Manjians => {
                    data.manjians = self
                        .optional(|cursor| {
                            let count = cursor.count(ARR)?;
                            (0..count).map(|_| cursor.tier()).collect::<Option<Vec<_>>>()
                        })?
                        .unwrap_or_default()
                }
                _ => return None,
            }
        }
        Some(data)
    }

    fn tier(&mut self) -> Option<ManjianTier> {
        let (mut amount, mut reduce) = (None, None);
        for _ in 0..self.count(MAP)? {
            match self.key()? {
                Key::Amount => amount = Some(self.money()?),
                Key::Reduce => reduce = self.optional(Self::money)?,
                _ => return None,
            }
        }
        Some(ManjianTier { amount: amount?, reduce })
    }

    fn item(&mut self) -> Option<CartItem> {
        let (mut id, mut line_type, mut quantity, mut price, mut is_selected) = (None, None, None, None, None);
        let (mut with_coupon, mut manjian_id) = (None, None);
        let (mut goods, mut combination) = (None, None);
        for _ in 0..self.count(MAP)? {
            match self.key()? {
                Key::Id => id = Some(self.integer()?),
                Key::Type => line_type = self.optional(Self::integer)?,
                Key::Number => quantity = Some(self.quantity()?),
                Key::Price => price = Some(self.money()?),
                Key::IsSelected => is_selected = Some(self.flag()?),
                Key::WithCoupon => with_coupon = self.optional(Self::flag)?,
                Key::GoodsManjianId => manjian_id = self.optional(Self::integer)?,
                Key::Goods => goods = Some(self.goods()?),
                Key::Combination => combination = self.optional(Self::goods)?,
                _ => return None,
            }
        }
        Some(CartItem {
            id: id?,
            line_type,
            quantity: quantity?,
            price: price?,
            is_selected: is_selected?,
            with_coupon: with_coupon.unwrap_or(false),
            goods_manjian_id: manjian_id.unwrap_or(0),
            goods: goods?,
            combination,
        })
    }

    fn goods(&mut self) -> Option<Goods> {
        let (mut id, mut is_buy, mut stock) = (None, None, None);
        let (mut is_youx, mut goods_type, mut is_dpby, mut qg_number) = (None, None, None, None);
        let (mut base_price, mut ladder, mut ladder_price_type) = (None, None, None);
        for _ in 0..self.count(MAP)? {
            match self.key()? {
                Key::Id => id = Some(self.integer()?),
                Key::IsBuy => is_buy = Some(self.flag()?),
                Key::Number => stock = Some(self.integer()?),
                Key::IsYoux => is_youx = self.optional(Self::flag)?,
                Key::Type => goods_type = self.optional(Self::integer)?,
                Key::IsDpby => is_dpby = self.optional(Self::flag)?,
                Key::QgNumber => qg_number = self.optional(Self::integer)?,
                Key::BasePrice => base_price = self.optional(Self::money)?,
                Key::LadderPrice => ladder = self.optional(Self::ladder)?,
                Key::LadderPriceType => ladder_price_type = self.optional(Self::integer)?,
                _ => return None,
            }
        }
        Some(Goods {
            id: id?,
            is_buy: is_buy?,
            stock: stock?,
            is_youx: is_youx.unwrap_or(false),
            goods_type,
            is_dpby: is_dpby.unwrap_or(false),
            qg_number: qg_number.unwrap_or(0),
            base_price,
            ladder: ladder.unwrap_or_default(),
            ladder_price_type,
        })
    }

    fn ladder(&mut self) -> Option<Ladder> {
        let count = self.count(ARR)?;
        let mut steps = Vec::with_capacity(count);
        for _ in 0..count {
            let (mut number, mut price) = (None, None);
            for _ in 0..self.count(MAP)? {
                match self.key()? {
                    Key::Number => number = Some(self.quantity()?),
                    Key::Price => price = Some(self.money()?),
                    _ => return None,
                }
            }
            steps.push(LadderStep { number: number?, price: price? });
        }
        Some(Ladder::new(steps))
    }
}
