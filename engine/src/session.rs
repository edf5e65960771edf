//! A cart held for repeated edits: after a change of quantity or selection only the edited
//! line is priced again and the sums are updated from it, so an edit costs the same on a
//! 10-line and a 10,000-line cart. After any sequence of edits, [`CartSession::quote`] equals
//! [`crate::quote`] of the edited cart.

use crate::error::EngineError;
use crate::model::CartItem;
use crate::model::{CartInput, MAX_QUANTITY, SettlementInput};
use crate::priced::{LadderRow, LineQuote, Summary};
#[cfg(feature = "wasm")]
use crate::quote::QuoteView;
use crate::quote::{Accumulator, CartQuote, contribution, price_lines, reprice_line, share_discount};
use crate::settle::{Settlement, settle};
use crate::share::sort_by_key;

const NO_LINE: u32 = u32::MAX;

#[derive(Clone, Debug)]
pub struct CartSession {
    cart: CartInput,
    lines: Vec<LineQuote>,
    ladder_rows: Vec<LadderRow>,
    sums: Accumulator,
    /// (line id, its first line), sorted by id; `next_same_id` chains further lines with the
    /// same id.
    first_line: Vec<(i64, u32)>,
    next_same_id: Vec<u32>,
}

impl CartSession {
    pub fn new(cart: CartInput) -> Result<CartSession, EngineError> {
        let mut session = CartSession {
            cart,
            lines: Vec::new(),
            ladder_rows: Vec::new(),
            sums: Accumulator::default(),
            first_line: Vec::new(),
            next_same_id: Vec::new(),
        };
        session.rebuild()?;
        Ok(session)
    }

    /// The cart as edited so far.
    pub fn cart(&self) -> &CartInput {
        &self.cart
    }

    /// Sets the quantity of the line(s) with this id.
    pub fn set_number(&mut self, id: i64, quantity: i64) -> Result<(), EngineError> {
        if !(1..=i64::from(MAX_QUANTITY)).contains(&quantity) {
            return Err(EngineError::input("number", format_args!("must be between 1 and {MAX_QUANTITY}, got {quantity}")));
        }
        let first = self.first_index(id)?;
        self.edit_chain(first, &|item| item.quantity = quantity as u32)
    }

    /// Selects (or unselects) the lines with these ids. Lines that cannot be bought stay
    /// unselected (rule 2).
    pub fn select(&mut self, ids: &[i64], selected: bool) -> Result<(), EngineError> {
        let firsts = ids.iter().map(|id| self.first_index(*id)).collect::<Result<Vec<_>, _>>()?;
        for first in firsts {
            self.edit_chain(first, &|item| item.is_selected = selected)?;
        }
        Ok(())
    }

    /// Removes the lines with these ids.
    pub fn remove(&mut self, ids: &[i64]) -> Result<(), EngineError> {
        for id in ids {
            self.first_index(*id)?;
        }
        self.cart.items.retain(|item| !ids.contains(&item.id));
        self.rebuild()
    }

    /// The whole quote, equal to `quote(self.cart())`.
    pub fn quote(&self) -> Result<CartQuote, EngineError> {
        let summary = self.summary()?;
        let mut lines = self.lines.clone();
        share_discount(&self.cart, &mut lines, summary.totals.discount)?;
        let settlement = match &self.cart.settlement {
            Some(input) => Some(settle(&self.cart, &lines, &summary, input)?),
            None => None,
        };
        Ok(CartQuote { lines, ladder_rows: self.ladder_rows.clone(), summary, settlement })
    }

    /// Settles the cart as it stands with `input` (rules 11–19), which replaces the settlement
    /// the cart held: equal to the `settlement` of `quote` of the cart with this settlement.
    pub fn settle(&mut self, input: SettlementInput) -> Result<Settlement, EngineError> {
        let summary = self.summary()?;
        self.share_discount(&summary)?;
        let settlement = settle(&self.cart, &self.lines, &summary, &input)?;
        self.cart.settlement = Some(input);
        Ok(settlement)
    }

    /// Brings every line's share of the full-reduction discount up to date (rule 8): an edit of
    /// one line moves the shares of all.
    pub(crate) fn share_discount(&mut self, summary: &Summary) -> Result<(), EngineError> {
        share_discount(&self.cart, &mut self.lines, summary.totals.discount)
    }

    /// The settlement of the cart as it stands with the settlement it holds, if any.
    #[cfg(feature = "wasm")]
    pub(crate) fn settlement(&self, summary: &Summary) -> Result<Option<Settlement>, EngineError> {
        match &self.cart.settlement {
            Some(input) => Ok(Some(settle(&self.cart, &self.lines, summary, input)?)),
            None => Ok(None),
        }
    }

    /// The quote without its lines: totals, counts, tiers and shipping.
    pub fn summary(&self) -> Result<Summary, EngineError> {
        self.sums.summary(&self.cart)
    }

    /// The quote to write out; the lines' discount shares must be current ([`Self::share_discount`]).
    #[cfg(feature = "wasm")]
    pub(crate) fn view<'a>(&'a self, summary: &'a Summary, settlement: Option<&'a Settlement>) -> QuoteView<'a> {
        QuoteView { lines: &self.lines, ladder_rows: &self.ladder_rows, summary, settlement }
    }

    fn first_index(&self, id: i64) -> Result<u32, EngineError> {
        self.first_line
            .binary_search_by_key(&id, |(line_id, _)| *line_id)
            .map(|found| self.first_line[found].1)
            .map_err(|_| EngineError::UnknownLine { id })
    }

    /// Applies `edit` to every line of a chain of same-id lines, re-pricing each (one copy for
    /// every kind of edit: `dyn`).
    fn edit_chain(&mut self, first: u32, edit: &dyn Fn(&mut CartItem)) -> Result<(), EngineError> {
        let mut index = first;
        while index != NO_LINE {
            let i = index as usize;
            let item = &mut self.cart.items[i];
            let before = contribution(item, &self.lines[i]);
            let (quantity, is_selected) = (item.quantity, item.is_selected);
            edit(item);
            let mut sums = self.sums;
            let repriced = reprice_line(i, item, self.lines[i].ladder, &mut self.ladder_rows).and_then(|line| {
                sums.remove(&before);
                sums.add(i, &contribution(item, &line))?;
                Ok(line)
            });
            match repriced {
                Ok(line) => {
                    self.lines[i] = line;
                    self.sums = sums;
                }
                Err(error) => {
                    (item.quantity, item.is_selected) = (quantity, is_selected);
                    reprice_line(i, item, self.lines[i].ladder, &mut self.ladder_rows)?;
                    return Err(error);
                }
            }
            index = self.next_same_id[i];
        }
        Ok(())
    }

    fn rebuild(&mut self) -> Result<(), EngineError> {
        let (lines, ladder_rows, sums) = price_lines(&self.cart)?;
        // Sorted by id, then position: the first of each id starts its chain. The sort keeps
        // the order of equal keys; an id with its sign bit flipped orders as a u64.
        const SIGN: u64 = 1 << 63;
        let mut keyed: Vec<(u64, u32)> =
            self.cart.items.iter().enumerate().map(|(index, item)| (item.id as u64 ^ SIGN, index as u32)).collect();
        sort_by_key(&mut keyed);
        let mut by_id: Vec<(i64, u32)> = keyed.into_iter().map(|(key, index)| ((key ^ SIGN) as i64, index)).collect();
        self.next_same_id = vec![NO_LINE; self.cart.items.len()];
        for pair in by_id.windows(2) {
            if pair[0].0 == pair[1].0 {
                self.next_same_id[pair[0].1 as usize] = pair[1].1;
            }
        }
        by_id.dedup_by_key(|(id, _)| *id);
        self.first_line = by_id;
        self.lines = lines;
        self.ladder_rows = ladder_rows;
        self.sums = sums;
        Ok(())
    }
}
