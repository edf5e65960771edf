-- The coupon centre (领券中心, `/lqzx`) and the points mall (积分商城, `/jfsc`, its orders
-- `/jfdd`). Money in ten-thousandths of a yuan, as everywhere.

-- A coupon template in the centre hands out `centre_stock` coupons in all (0: not in the
-- centre), at most `per_member` to one member; `centre_claimed` counts them, and one guarded
-- update (`… WHERE centre_claimed < centre_stock`) takes each, so never more are claimed.
ALTER TABLE coupons ADD COLUMN centre_stock INTEGER NOT NULL DEFAULT 0;
ALTER TABLE coupons ADD COLUMN centre_claimed INTEGER NOT NULL DEFAULT 0;
ALTER TABLE coupons ADD COLUMN per_member INTEGER NOT NULL DEFAULT 1;
ALTER TABLE coupons ADD COLUMN sort INTEGER NOT NULL DEFAULT 0;

-- Where a member's coupon came from: `grant` (the operator, the demo data), `centre`, `mall`.
ALTER TABLE member_coupons ADD COLUMN source TEXT NOT NULL DEFAULT 'grant';
CREATE INDEX member_coupons_claims ON member_coupons(coupon_id, member_id, source);

CREATE TABLE points_goods (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL,
    description TEXT NOT NULL DEFAULT '',
    -- 1 goods shipped to the member (a catalogue goods: its picture), 2 a coupon of a template,
    -- 3 red packets credited at once
    kind INTEGER NOT NULL CHECK (kind IN (1, 2, 3)),
    goods_id INTEGER REFERENCES goods(id),
    coupon_id INTEGER REFERENCES coupons(id),
    red_packet INTEGER NOT NULL DEFAULT 0 CHECK (red_packet >= 0),
    points INTEGER NOT NULL CHECK (points > 0),
    -- money paid from the balance beside the points (积分+现金); 0 for points only
    price INTEGER NOT NULL DEFAULT 0 CHECK (price >= 0),
    stock INTEGER NOT NULL CHECK (stock >= 0),
    redeemed INTEGER NOT NULL DEFAULT 0,
    -- the most one member may redeem in all; 0: no limit
    per_member INTEGER NOT NULL DEFAULT 0,
    sort INTEGER NOT NULL DEFAULT 0,
    is_on INTEGER NOT NULL DEFAULT 1
);

CREATE TABLE points_orders (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    order_no TEXT NOT NULL UNIQUE,
    member_id INTEGER NOT NULL REFERENCES members(id),
    points_goods_id INTEGER NOT NULL REFERENCES points_goods(id),
    name TEXT NOT NULL,
    kind INTEGER NOT NULL,
    number INTEGER NOT NULL CHECK (number >= 1),
    -- what the redemption took: points, and money from the balance
    points INTEGER NOT NULL,
    price INTEGER NOT NULL,
    -- 0 待发货, 1 待收货 (shipped), 2 已完成; coupons and red packets are 已完成 at once
    status INTEGER NOT NULL,
    address TEXT NOT NULL DEFAULT '',
    carrier TEXT NOT NULL DEFAULT '',
    tracking_no TEXT NOT NULL DEFAULT '',
    created_at INTEGER NOT NULL,
    shipped_at INTEGER,
    done_at INTEGER
);
CREATE INDEX points_orders_member ON points_orders(member_id, created_at);
CREATE INDEX points_orders_goods ON points_orders(points_goods_id, member_id);
