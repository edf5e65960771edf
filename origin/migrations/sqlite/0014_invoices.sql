-- E-invoices (电子发票, `/zzfw/dzfp`): a member's request for an invoice of a paid order — the
-- title, tax number, e-mail, and for a 专票 (VAT special invoice) the company's registered
-- address, phone, bank and account — and, once the operator issues it (`origin admin
-- issue-invoice`), its number, date and amount: what was paid for the order's lines.

CREATE TABLE invoices (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    order_id INTEGER NOT NULL REFERENCES orders(id),
    member_id INTEGER NOT NULL REFERENCES members(id),
    -- 1 普票 (ordinary), 2 专票 (VAT special)
    kind INTEGER NOT NULL CHECK (kind IN (1, 2)),
    title TEXT NOT NULL,
    tax_no TEXT NOT NULL,
    email TEXT NOT NULL,
    registered_address TEXT NOT NULL DEFAULT '',
    registered_phone TEXT NOT NULL DEFAULT '',
    bank TEXT NOT NULL DEFAULT '',
    bank_account TEXT NOT NULL DEFAULT '',
    -- 0 待开票 (requested), 1 已开票 (issued)
    status INTEGER NOT NULL DEFAULT 0,
    invoice_no TEXT,
    amount INTEGER,
    issued_at INTEGER,
    created_at INTEGER NOT NULL
);
CREATE INDEX invoices_member ON invoices(member_id, created_at);
CREATE INDEX invoices_order ON invoices(order_id, status);
