-- Online payment (`origin/src/payment.rs`): the recharge tiers, and every payment the shop
-- asked a provider for — a recharge or an order, its amount (and a recharge's bonus), and
-- status 0 pending, 1 paid (credited), 2 closed, 3 paid after its order was cancelled (so
-- refunded to the balance). Money in ten-thousandths of a yuan.

CREATE TABLE recharge_tiers (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    amount INTEGER NOT NULL CHECK (amount > 0),
    bonus INTEGER NOT NULL DEFAULT 0 CHECK (bonus >= 0),
    sort INTEGER NOT NULL DEFAULT 0
);

INSERT INTO recharge_tiers (amount, bonus, sort) VALUES
    (10000000, 200000, 1),
    (30000000, 800000, 2),
    (50000000, 1500000, 3),
    (100000000, 3500000, 4);

CREATE TABLE payments (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    payment_no TEXT NOT NULL UNIQUE,
    member_id INTEGER NOT NULL REFERENCES members(id),
    -- 'recharge' or 'order'
    kind TEXT NOT NULL,
    order_id INTEGER REFERENCES orders(id),
    amount INTEGER NOT NULL CHECK (amount > 0),
    bonus INTEGER NOT NULL DEFAULT 0,
    status INTEGER NOT NULL DEFAULT 0,
    pay_url TEXT NOT NULL DEFAULT '',
    trade_no TEXT NOT NULL DEFAULT '',
    created_at INTEGER NOT NULL,
    paid_at INTEGER
);
CREATE INDEX payments_member ON payments(member_id, created_at);
CREATE INDEX payments_order ON payments(order_id);

-- How an order was paid: 'balance' or 'online'.
ALTER TABLE orders ADD COLUMN pay_method TEXT NOT NULL DEFAULT '';
