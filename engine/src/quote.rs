//! The rules of `docs/pricing.md`, in its order: buyable lines, forced unselect, unit price, ladder
//! display, line amounts, totals, counts, full-reduction tiers, free shipping, stock.
//!
//! The hot path allocates nothing per line: lines go into one vector, ladder rows into another
//! (each line keeps the span of its rows), sums are whole cents in `i128`, and money is turned
//! into text only when the quote is written out.

use serde::ser::{SerializeMap, SerializeStruct};
use serde::{Serialize, Serializer};

use crate::error::EngineError;
use crate::model::{CartInput, CartItem, Goods, LINE_TYPE_COMBINATION, LINE_TYPE_FLASH_SALE, ManjianTier, ShippingData, write_flag};
use crate::money::{Cents, Exact, Money};
use crate::priced::{Counts, FreeShippingHint, LadderRow, LadderSpan, LineQuote, PriceKind, Shipping, Summary, TierStatus, Totals};
use crate::settle::{Settlement, settle};
use crate::share::share_out;

/// The engine's answer for one cart.
#[derive(Clone, Debug, PartialEq)]
pub struct CartQuote {
    /// One per input line, in input order.
    pub lines: Vec<LineQuote>,
    /// The ladder rows of all lines; each line holds the span of its own.
    pub(crate) ladder_rows: Vec<LadderRow>,
    pub summary: Summary,
    /// Rules 11–19, when the cart carried a `settlement`.
    pub settlement: Option<Settlement>,
}

/// The most the cart badge shows; above it the header shows `99+`.
pub const BADGE_MAX: u32 = 99;

/// Quotes one cart.
pub fn quote(cart: &CartInput) -> Result<CartQuote, EngineError> {
    let (mut lines, ladder_rows, sums) = price_lines(cart)?;
    let summary = sums.summary(cart)?;
    share_discount(cart, &mut lines, summary.totals.discount)?;
    let settlement = match &cart.settlement {
        Some(input) => Some(settle(cart, &lines, &summary, input)?),
        None => None,
    };
    Ok(CartQuote { lines, ladder_rows, summary, settlement })
}

/// Prices every line and sums them up.
pub(crate) fn price_lines(cart: &CartInput) -> Result<(Vec<LineQuote>, Vec<LadderRow>, Accumulator), EngineError> {
    let mut lines = Vec::with_capacity(cart.items.len());
    let mut ladder_rows = Vec::new();
    let mut sums = Accumulator::default();
    for (index, item) in cart.items.iter().enumerate() {
        let line = price_line(index, item, &mut ladder_rows)?;
        sums.add(index, &contribution(item, &line))?;
        lines.push(line);
    }
    Ok((lines, ladder_rows, sums))
}

/// Prices one line (rules 1–5, 9 and 10), appending its ladder rows to `rows`.
fn price_line(index: usize, item: &CartItem, rows: &mut Vec<LadderRow>) -> Result<LineQuote, EngineError> {
    let start = rows.len() as u32;
    let goods = effective_goods(index, item)?;
    if item.follows_ladder() {
        rows.extend(ladder_display(goods, item.quantity));
    }
    let ladder = LadderSpan { start, len: rows.len() as u32 - start };
    line_quote(index, item, goods, ladder)
}

/// Prices one line again after an edit, rewriting its ladder rows in place (the ladder itself
/// does not change, so neither does the number of rows).
pub(crate) fn reprice_line(index: usize, item: &CartItem, ladder: LadderSpan, rows: &mut [LadderRow]) -> Result<LineQuote, EngineError> {
    let goods = effective_goods(index, item)?;
    if item.follows_ladder() {
        let own = &mut rows[ladder.start as usize..(ladder.start + ladder.len) as usize];
        for (slot, row) in own.iter_mut().zip(ladder_display(goods, item.quantity)) {
            *slot = row;
        }
    }
    line_quote(index, item, goods, ladder)
}

fn effective_goods(index: usize, item: &CartItem) -> Result<&Goods, EngineError> {
    if item.line_type == Some(LINE_TYPE_COMBINATION) {
        return item
            .combination
            .as_ref()
            .ok_or_else(|| EngineError::input(format!("items[{index}].combination"), "missing (required for type 3)"));
    }
    Ok(item.effective_goods())
}

fn line_quote(index: usize, item: &CartItem, goods: &Goods, ladder: LadderSpan) -> Result<LineQuote, EngineError> {
    let quantity = item.quantity;
    let sellable = goods.is_buy && goods.stock > 0;
    let buyable = item.is_selected && sellable;
    let (unit_price, price_kind) = unit_price(item, goods);
    let overflow = || EngineError::out_of_range(format!("items[{index}]"));
    let amount = unit_price.times_floor_cents(quantity).ok_or_else(overflow)?;
    let savings = match goods.base_price {
        Some(base) if base > unit_price => base
            .exact()
            .checked_sub(unit_price.exact())
            .and_then(|difference| difference.checked_mul_int(quantity))
            .and_then(Exact::floor_cents)
            .ok_or_else(overflow)?,
        _ => Cents::ZERO,
    };
    let free_shipping_hint =
        goods.is_dpby.then(|| FreeShippingHint { qg_number: goods.qg_number, reached: i64::from(quantity) >= goods.qg_number });
    Ok(LineQuote {
        id: item.id,
        is_selected: buyable,
        sellable,
        buyable,
        over_stock: i64::from(quantity) > goods.stock,
        unit_price,
        price_kind,
        amount,
        savings,
        goods_manjian_amount: Cents::ZERO,
        ladder,
        free_shipping_hint,
    })
}

/// Rule 3.
fn unit_price(item: &CartItem, goods: &Goods) -> (Money, PriceKind) {
    match item.line_type {
        Some(LINE_TYPE_FLASH_SALE) => (item.price, PriceKind::FlashSale),
        Some(LINE_TYPE_COMBINATION) => (item.price, PriceKind::Combination),
        _ => match goods.ladder.step_for(item.quantity) {
            Some(step) if step.price != item.price => (step.price, PriceKind::Ladder),
            Some(step) => (step.price, PriceKind::Regular),
            None => (item.price, PriceKind::Regular),
        },
    }
}

/// Rule 4: the ladder as the buyer sees it, sorted and merged already by [`crate::model::Ladder`].
fn ladder_display(goods: &Goods, quantity: u32) -> impl Iterator<Item = LadderRow> + '_ {
    let steps = goods.ladder.steps();
    let bands = goods.ladder_is_bands();
    steps.iter().enumerate().map(move |(i, step)| LadderRow {
        number: step.number,
        max: bands.then(|| steps.get(i + 1).map(|next| next.number - 1)),
        price: step.price,
        reached: quantity >= step.number,
        need: step.number.saturating_sub(quantity),
    })
}

/// What one buyable line adds to the sums (rules 6, 7 and 9).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Contribution {
    amount: i128,
    with_coupon: bool,
    youx: bool,
    zy: bool,
    qx: bool,
    manjian: bool,
    units: u32,
    free_shipping: bool,
}

pub(crate) fn contribution(item: &CartItem, line: &LineQuote) -> Option<Contribution> {
    if !line.buyable {
        return None;
    }
    let goods = item.effective_goods();
    Some(Contribution {
        amount: line.amount.0,
        with_coupon: item.with_coupon,
        youx: goods.is_youx,
        zy: goods.is_zy(),
        qx: goods.is_qx(),
        manjian: item.goods_manjian_id > 0,
        units: item.quantity,
        free_shipping: goods.is_dpby && i64::from(item.quantity) >= goods.qg_number,
    })
}

/// Running sums over buyable lines; a line can be taken out again, so that a cart edit updates
/// the sums from the edited line alone.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Accumulator {
    items: u32,
    total: i128,
    coupon: i128,
    non_coupon: i128,
    youx: i128,
    zy: i128,
    qx: i128,
    manjian: i128,
    selected: u32,
    units: u64,
    free_shipping_lines: u32,
}

impl Accumulator {
    /// Counts one line (a buyable one also toward the sums).
    pub fn add(&mut self, index: usize, line: &Option<Contribution>) -> Result<(), EngineError> {
        self.items += 1;
        let Some(line) = line else { return Ok(()) };
        let overflow = || EngineError::out_of_range(format!("items[{index}]"));
        let add = |sum: &mut i128, yes: bool| -> Result<(), EngineError> {
            if yes {
                *sum = sum.checked_add(line.amount).ok_or_else(overflow)?;
            }
            Ok(())
        };
        add(&mut self.total, true)?;
        add(&mut self.coupon, line.with_coupon)?;
        add(&mut self.non_coupon, !line.with_coupon)?;
        add(&mut self.youx, line.youx)?;
        add(&mut self.zy, line.zy)?;
        add(&mut self.qx, line.qx)?;
        add(&mut self.manjian, line.manjian)?;
        self.selected += 1;
        self.units += u64::from(line.units);
        self.free_shipping_lines += u32::from(line.free_shipping);
        Ok(())
    }

    /// Takes out a line counted before with [`Accumulator::add`].
    pub fn remove(&mut self, line: &Option<Contribution>) {
        self.items -= 1;
        let Some(line) = line else { return };
        let take = |sum: &mut i128, yes: bool| {
            if yes {
                *sum -= line.amount;
            }
        };
        take(&mut self.total, true);
        take(&mut self.coupon, line.with_coupon);
        take(&mut self.non_coupon, !line.with_coupon);
        take(&mut self.youx, line.youx);
        take(&mut self.zy, line.zy);
        take(&mut self.qx, line.qx);
        take(&mut self.manjian, line.manjian);
        self.selected -= 1;
        self.units -= u64::from(line.units);
        self.free_shipping_lines -= u32::from(line.free_shipping);
    }

    /// Rules 6–9 from the sums.
    pub fn summary(&self, cart: &CartInput) -> Result<Summary, EngineError> {
        let total = Cents(self.total);
        let manjian_tiers = tiers(&cart.activity_data.manjians, Cents(self.manjian))?;
        let discount = discount(&manjian_tiers, Cents(self.manjian));
        let payable = Cents(total.0 - discount.0);
        let totals = Totals {
            total,
            coupon: Cents(self.coupon),
            non_coupon: Cents(self.non_coupon),
            youx: Cents(self.youx),
            zy: Cents(self.zy),
            qx: Cents(self.qx),
            manjian: Cents(self.manjian),
            discount,
            payable,
        };
        let counts = Counts { items: self.items, selected: self.selected, units: self.units, badge: self.items.min(BADGE_MAX) };
        Ok(Summary { totals, counts, manjian_tiers, shipping: shipping(&cart.shipping_data, total, self.free_shipping_lines > 0)? })
    }
}

/// Rule 8: each tier against the activity's total `manjian`; reached tiers first, each group in
/// input order.
fn tiers(manjians: &[ManjianTier], manjian: Cents) -> Result<Vec<TierStatus>, EngineError> {
    let mut reached = Vec::with_capacity(manjians.len());
    let mut unreached = Vec::new();
    for (index, tier) in manjians.iter().enumerate() {
        let overflow = || EngineError::out_of_range(format!("activity_data.manjians[{index}]"));
        let amount = tier.amount.exact();
        let shortfall = amount.checked_sub(manjian.exact()).ok_or_else(overflow)?;
        let need = shortfall.floor_cents().ok_or_else(overflow)?;
        let status = TierStatus {
            amount: tier.amount,
            reduce: tier.reduce.unwrap_or(Money::ZERO),
            status: u8::from(!shortfall.is_positive()),
            need: need.max(Cents::ZERO),
        };
        if status.status == 1 { reached.push(status) } else { unreached.push(status) }
    }
    reached.append(&mut unreached);
    Ok(reached)
}

/// Rule 8: the greatest reduction among reached tiers, in whole cents, at most the activity's
/// total `manjian`.
fn discount(tiers: &[TierStatus], manjian: Cents) -> Cents {
    let reduce = tiers.iter().filter(|tier| tier.status == 1).filter_map(|tier| tier.reduce.floor_cents()).max().unwrap_or(Cents::ZERO);
    reduce.min(manjian)
}

/// Rule 8: the discount shared over the activity's buyable lines (`goods_manjian_id` above 0) by
/// their amounts, in whole cents by largest remainder; each line's share becomes its
/// `goods_manjian_amount`, and every other line's is 0.
pub(crate) fn share_discount(cart: &CartInput, lines: &mut [LineQuote], discount: Cents) -> Result<(), EngineError> {
    let overflow = || EngineError::out_of_range("items");
    let mut weights = Vec::with_capacity(lines.len());
    for (line, item) in lines.iter().zip(&cart.items) {
        weights.push(if line.buyable && item.goods_manjian_id > 0 { i64::try_from(line.amount.0).map_err(|_| overflow())? } else { 0 });
    }
    let discount = i64::try_from(discount.0).map_err(|_| overflow())?;
    let shares = share_out(discount, &weights).ok_or_else(overflow)?;
    for (line, share) in lines.iter_mut().zip(shares) {
        line.goods_manjian_amount = Cents(share.into());
    }
    Ok(())
}

/// Rule 9: the amount still needed for free shipping, when positive.
fn shipping(data: &ShippingData, total: Cents, free_shipping: bool) -> Result<Shipping, EngineError> {
    if free_shipping {
        return Ok(Shipping { free_shipping: true, need: None });
    }
    let overflow = || EngineError::out_of_range("shipping_data");
    let need = data
        .shipping_amount
        .exact()
        .checked_sub(total.exact())
        .and_then(|rest| rest.checked_sub(data.no_trans_order_amount.exact()))
        .ok_or_else(overflow)?;
    let need = if need.is_positive() { Some(need.floor_cents().ok_or_else(overflow)?) } else { None };
    Ok(Shipping { free_shipping: false, need })
}

/// A quote to write out, borrowed from wherever its parts live (a [`CartQuote`] or a session).
pub(crate) struct QuoteView<'a> {
    pub lines: &'a [LineQuote],
    pub ladder_rows: &'a [LadderRow],
    pub summary: &'a Summary,
    pub settlement: Option<&'a Settlement>,
}

#[cfg(feature = "wasm")]
impl QuoteView<'_> {
    /// The ladder rows of one line (rule 4).
    pub fn ladder_of(&self, line: &LineQuote) -> &[LadderRow] {
        let span = line.ladder;
        &self.ladder_rows[span.start as usize..(span.start + span.len) as usize]
    }
}

impl Serialize for QuoteView<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(5 + usize::from(self.settlement.is_some())))?;
        let lines = LinesView { lines: self.lines, rows: self.ladder_rows };
        map.serialize_entry("lines", &lines)?;
        map.serialize_entry("totals", &self.summary.totals)?;
        map.serialize_entry("counts", &self.summary.counts)?;
        map.serialize_entry("manjian_tiers", &self.summary.manjian_tiers)?;
        map.serialize_entry("shipping", &self.summary.shipping)?;
        if let Some(settlement) = self.settlement {
            map.serialize_entry("settlement", settlement)?;
        }
        map.end()
    }
}

struct LinesView<'a> {
    lines: &'a [LineQuote],
    rows: &'a [LadderRow],
}

impl Serialize for LinesView<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.lines.iter().map(|line| LineView { line, rows: self.rows }))
    }
}

struct LineView<'a> {
    line: &'a LineQuote,
    rows: &'a [LadderRow],
}

impl Serialize for LineView<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let line = self.line;
        let span = line.ladder;
        let ladder = &self.rows[span.start as usize..(span.start + span.len) as usize];
        let mut out = serializer.serialize_struct("LineQuote", 12)?;
        out.serialize_field("id", &line.id)?;
        out.serialize_field("is_selected", &Flag(line.is_selected))?;
        out.serialize_field("sellable", &line.sellable)?;
        out.serialize_field("buyable", &line.buyable)?;
        out.serialize_field("over_stock", &line.over_stock)?;
        out.serialize_field("unit_price", &line.unit_price)?;
        out.serialize_field("price_kind", &line.price_kind)?;
        out.serialize_field("amount", &line.amount)?;
        out.serialize_field("savings", &line.savings)?;
        out.serialize_field("goods_manjian_amount", &line.goods_manjian_amount)?;
        out.serialize_field("ladder", ladder)?;
        out.serialize_field("free_shipping_hint", &line.free_shipping_hint)?;
        out.end()
    }
}

struct Flag(bool);

impl Serialize for Flag {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        write_flag(&self.0, serializer)
    }
}

impl CartQuote {
    pub(crate) fn view(&self) -> QuoteView<'_> {
        QuoteView { lines: &self.lines, ladder_rows: &self.ladder_rows, summary: &self.summary, settlement: self.settlement.as_ref() }
    }

    /// The ladder rows of one line (rule 4).
    pub fn ladder(&self, line: &LineQuote) -> &[LadderRow] {
        let span = line.ladder;
        &self.ladder_rows[span.start as usize..(span.start + span.len) as usize]
    }
}

impl Serialize for CartQuote {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.view().serialize(serializer)
    }
}
