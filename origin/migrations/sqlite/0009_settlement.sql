-- Settlement at checkout (docs/pricing.md, rules 11–20): coupons of both kinds and every scope,
-- cash vouchers, red packets and points (each account a balance and a log row for every
-- movement, like the wallet's), the shop's settlement settings, and what every order settled,
-- line by line, which is what a return refunds. Money in ten-thousandths of a yuan, as
-- everywhere; rates in ten-thousandths too (9500 is 0.95).

-- Coupon templates: kind 1 满减 (`amount` off from `min_amount`), kind 2 折扣 (pay `rate`,
-- at most `max_reduce` off); scope 0 every coupon line, 1 preferred (youx), 2 Chinese herbs
-- (zy), 3 medical devices (qx).
ALTER TABLE coupons ADD COLUMN kind INTEGER NOT NULL DEFAULT 1 CHECK (kind IN (1, 2));
ALTER TABLE coupons ADD COLUMN scope INTEGER NOT NULL DEFAULT 0 CHECK (scope IN (0, 1, 2, 3));
ALTER TABLE coupons ADD COLUMN rate INTEGER NOT NULL DEFAULT 0;
ALTER TABLE coupons ADD COLUMN max_reduce INTEGER;

-- A member's coupon: status 0 unused, 1 used (by `order_id`); valid from `starts_at` until
-- `expires_at` (exclusive). Expired is unused past `expires_at`.
ALTER TABLE member_coupons ADD COLUMN starts_at INTEGER NOT NULL DEFAULT 0;
ALTER TABLE member_coupons ADD COLUMN order_id INTEGER REFERENCES orders(id);
ALTER TABLE member_coupons ADD COLUMN used_at INTEGER;
ALTER TABLE member_coupons ADD COLUMN created_at INTEGER NOT NULL DEFAULT 0;

CREATE TABLE cash_vouchers (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    title TEXT NOT NULL,
    amount INTEGER NOT NULL CHECK (amount >= 0),
    min_amount INTEGER NOT NULL DEFAULT 0,
    days INTEGER NOT NULL
);

CREATE TABLE member_cash_vouchers (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    member_id INTEGER NOT NULL REFERENCES members(id) ON DELETE CASCADE,
    voucher_id INTEGER NOT NULL REFERENCES cash_vouchers(id),
    status INTEGER NOT NULL DEFAULT 0,
    starts_at INTEGER NOT NULL DEFAULT 0,
    expires_at INTEGER NOT NULL,
    order_id INTEGER REFERENCES orders(id),
    used_at INTEGER,
    created_at INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX member_cash_vouchers_member ON member_cash_vouchers(member_id, status);

-- The red-packet account (账户红包) and its log; points have their balance in members.points.
ALTER TABLE members ADD COLUMN red_packet INTEGER NOT NULL DEFAULT 0 CHECK (red_packet >= 0);

CREATE TABLE red_packet_logs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    member_id INTEGER NOT NULL REFERENCES members(id),
    -- signed: negative when red packets are spent
    amount INTEGER NOT NULL,
    balance_after INTEGER NOT NULL CHECK (balance_after >= 0),
    order_id INTEGER REFERENCES orders(id),
    note TEXT NOT NULL DEFAULT '',
    created_at INTEGER NOT NULL
);
CREATE INDEX red_packet_logs_member ON red_packet_logs(member_id, created_at);

CREATE TABLE points_logs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    member_id INTEGER NOT NULL REFERENCES members(id),
    -- signed: negative when points are spent
    points INTEGER NOT NULL,
    balance_after INTEGER NOT NULL CHECK (balance_after >= 0),
    order_id INTEGER REFERENCES orders(id),
    note TEXT NOT NULL DEFAULT '',
    created_at INTEGER NOT NULL
);
CREATE INDEX points_logs_member ON points_logs(member_id, created_at);

-- What an order settled (rules 13–18) and the points its payment earned. The coupon and the
-- voucher rows name the order that used them (their order_id); the order names them back
-- without a foreign key, so that neither row must go before the other.
ALTER TABLE orders ADD COLUMN member_coupon_id INTEGER;
ALTER TABLE orders ADD COLUMN coupon_value INTEGER NOT NULL DEFAULT 0;
ALTER TABLE orders ADD COLUMN member_cash_voucher_id INTEGER;
ALTER TABLE orders ADD COLUMN cash_voucher_value INTEGER NOT NULL DEFAULT 0;
ALTER TABLE orders ADD COLUMN red_packet INTEGER NOT NULL DEFAULT 0;
ALTER TABLE orders ADD COLUMN points_used INTEGER NOT NULL DEFAULT 0;
ALTER TABLE orders ADD COLUMN points_value INTEGER NOT NULL DEFAULT 0;
ALTER TABLE orders ADD COLUMN shipping_fee INTEGER NOT NULL DEFAULT 0;
ALTER TABLE orders ADD COLUMN due INTEGER NOT NULL DEFAULT 0;
ALTER TABLE orders ADD COLUMN points_earned INTEGER NOT NULL DEFAULT 0;
UPDATE orders SET due = payable;

-- Each line's shares of every deduction and what is left paid for it (rule 19).
ALTER TABLE order_items ADD COLUMN goods_manjian_amount INTEGER NOT NULL DEFAULT 0;
ALTER TABLE order_items ADD COLUMN coupon INTEGER NOT NULL DEFAULT 0;
ALTER TABLE order_items ADD COLUMN cash_voucher INTEGER NOT NULL DEFAULT 0;
ALTER TABLE order_items ADD COLUMN red_packet INTEGER NOT NULL DEFAULT 0;
ALTER TABLE order_items ADD COLUMN points INTEGER NOT NULL DEFAULT 0;
ALTER TABLE order_items ADD COLUMN paid INTEGER NOT NULL DEFAULT 0;
UPDATE order_items SET paid = amount;

-- The shop's settlement settings (yuan and rates as decimal text).
INSERT INTO settings (key, value) VALUES
    ('shipping_fee', '10.00'),
    ('red_packet_max_rate', '0.1'),
    ('points_max_rate', '0.1'),
    ('points_per_yuan', '100'),
    ('points_earned_per_yuan', '1')
ON CONFLICT (key) DO NOTHING;
