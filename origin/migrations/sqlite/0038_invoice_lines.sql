-- Invoices that add up (docs/compliance.md, "Invoices"): an issued invoice keeps its own number
-- (from the shop's counter, not the order's), its lines as issued — specification, unit, units,
-- unit price and amount before tax, rate and tax — and its totals; a return refunded after it
-- is issued gets a red-letter (红字) invoice of its own for what it refunded, naming the blue
-- one it reverses and the return.
ALTER TABLE invoices ADD COLUMN red_of INTEGER REFERENCES invoices(id);
ALTER TABLE invoices ADD COLUMN return_id INTEGER REFERENCES returns(id);
-- Totals as issued: before tax and tax (`amount` is their sum, tax included); NULL for an
-- invoice issued before lines were kept.
ALTER TABLE invoices ADD COLUMN net INTEGER;
ALTER TABLE invoices ADD COLUMN tax INTEGER;
CREATE INDEX invoices_red_of ON invoices(red_of);

CREATE TABLE invoice_lines (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    invoice_id INTEGER NOT NULL REFERENCES invoices(id) ON DELETE CASCADE,
    order_item_id INTEGER NOT NULL REFERENCES order_items(id),
    name TEXT NOT NULL,
    ypgg TEXT NOT NULL,
    bzdw TEXT NOT NULL,
    -- negative on a red-letter invoice
    number INTEGER NOT NULL,
    -- the unit price before tax (ten-thousandths), the amount before tax, the rate in percent,
    -- the tax
    price INTEGER NOT NULL,
    net INTEGER NOT NULL,
    rate INTEGER NOT NULL,
    tax INTEGER NOT NULL
);
CREATE INDEX invoice_lines_invoice ON invoice_lines(invoice_id);

-- The last invoice number given in each year.
CREATE TABLE invoice_counters (
    year INTEGER PRIMARY KEY,
    last INTEGER NOT NULL
);
