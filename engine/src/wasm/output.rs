//! Writes a quote for `js/boundary.js` to build as JavaScript objects: numbers and flags into
//! one `f64` list, money (already text) into one comma-joined ASCII text, in the order
//! `decodeQuote` reads them. Both halves must change together.

use crate::money::{Cents, Money};
use crate::priced::Summary;
use crate::quote::QuoteView;
use crate::settle::{Chosen, Settlement};

#[derive(Default)]
pub struct Output {
    pub numbers: Vec<f64>,
    /// ASCII only: digits, points and commas.
    pub text: Vec<u8>,
}

impl Output {
    fn number(&mut self, value: impl Into<f64>) {
        self.push(value.into());
    }

    fn flag(&mut self, value: bool) {
        self.push(if value { 1.0 } else { 0.0 });
    }

    /// One copy of `Vec::push`, called from everywhere.
    #[inline(never)]
    fn push(&mut self, value: f64) {
        self.numbers.push(value);
    }

    fn money(&mut self, value: impl Into<Amount>) {
        self.amount(value.into());
    }

    /// One copy, called from everywhere: inlined, it would be copied some forty times.
    #[inline(never)]
    fn amount(&mut self, value: Amount) {
        if !self.text.is_empty() {
            self.text.push(b',');
        }
        match value {
            Amount::Given(money) => money.write_to(&mut self.text),
            Amount::Computed(cents) => cents.write_to(&mut self.text),
        }
    }

    pub fn quote(view: &QuoteView<'_>) -> Output {
        let mut out = Output {
            numbers: Vec::with_capacity(16 + view.lines.len() * 12 + view.ladder_rows.len() * 4),
            text: Vec::with_capacity(64 + view.lines.len() * 24 + view.ladder_rows.len() * 8),
        };
        out.number(view.lines.len() as f64);
        for line in view.lines {
            let rows = view.ladder_of(line);
            let bands = rows.first().is_some_and(|row| row.max.is_some());
            out.number(line.id as f64);
            out.flag(line.is_selected);
            out.flag(line.sellable);
            out.flag(line.buyable);
            out.flag(line.over_stock);
            out.number(rows.len() as f64);
            out.flag(bands);
            out.number(line.price_kind as u8);
            out.money(line.unit_price);
            out.money(line.amount);
            out.money(line.savings);
            out.money(line.goods_manjian_amount);
            for row in rows {
                out.number(row.number);
                if bands {
                    out.number(row.max.flatten().map_or(-1.0, f64::from));
                }
                out.money(row.price);
                out.flag(row.reached);
                out.number(row.need);
            }
            match line.free_shipping_hint {
                Some(hint) => {
                    out.flag(true);
                    out.number(hint.qg_number as f64);
                    out.flag(hint.reached);
                }
                None => out.flag(false),
            }
        }
        out.summary(view.summary);
        match view.settlement {
            Some(settlement) => {
                out.flag(true);
                out.settlement(settlement);
            }
            None => out.flag(false),
        }
        out
    }

    pub fn settlement_only(settlement: &Settlement) -> Output {
        let mut out = Output::default();
        out.settlement(settlement);
        out
    }

    fn settlement(&mut self, settlement: &Settlement) {
        self.money(settlement.goods);
        self.number(settlement.coupons.len() as f64);
        for coupon in &settlement.coupons {
            self.number(coupon.id as f64);
            self.flag(coupon.usable);
            self.money(coupon.value);
            self.money(coupon.need);
        }
        self.chosen(settlement.coupon);
        self.number(settlement.cash_vouchers.len() as f64);
        for voucher in &settlement.cash_vouchers {
            self.number(voucher.id as f64);
            self.flag(voucher.usable);
            self.money(voucher.value);
        }
        self.chosen(settlement.cash_voucher);
        self.money(settlement.red_packet);
        self.number(settlement.points_used as f64);
        self.money(settlement.points_value);
        self.money(settlement.shipping_fee);
        self.money(settlement.due);
        self.number(settlement.lines.len() as f64);
        for line in &settlement.lines {
            self.number(line.id as f64);
            for amount in [line.coupon, line.cash_voucher, line.red_packet, line.points, line.paid] {
                self.money(amount);
            }
        }
    }

    fn chosen(&mut self, chosen: Option<Chosen>) {
        match chosen {
            Some(chosen) => {
                self.flag(true);
                self.number(chosen.id as f64);
                self.money(chosen.value);
            }
            None => self.flag(false),
        }
    }

    pub fn summary_only(summary: &Summary) -> Output {
        let mut out = Output::default();
        out.summary(summary);
        out
    }

    fn summary(&mut self, summary: &Summary) {
        let totals = &summary.totals;
        for amount in [
            totals.total,
            totals.coupon,
            totals.non_coupon,
            totals.youx,
            totals.zy,
            totals.qx,
            totals.manjian,
            totals.discount,
            totals.payable,
        ] {
            self.money(amount);
        }
        let counts = &summary.counts;
        self.number(counts.items);
        self.number(counts.selected);
        self.number(counts.units as f64);
        self.number(counts.badge);
        self.number(summary.manjian_tiers.len() as f64);
        for tier in &summary.manjian_tiers {
            self.money(tier.amount);
            self.money(tier.reduce);
            self.number(tier.status);
            self.money(tier.need);
        }
        self.flag(summary.shipping.free_shipping);
        match summary.shipping.need {
            Some(need) => {
                self.flag(true);
                self.money(need);
            }
            None => self.flag(false),
        }
    }
}

/// Either kind of money the quote holds.
enum Amount {
    Given(Money),
    Computed(Cents),
}

impl From<Money> for Amount {
    fn from(money: Money) -> Amount {
        Amount::Given(money)
    }
}

impl From<Cents> for Amount {
    fn from(cents: Cents) -> Amount {
        Amount::Computed(cents)
    }
}
