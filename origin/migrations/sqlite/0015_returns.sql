-- Returns (退货, `/order/returnInfo/{id}`): a member sends back units of a shipped or completed
-- order's lines with a reason and photos; the shop approves or rejects the request, and once
-- the goods are back refunds rule 20 of docs/pricing.md: to the balance what the units paid,
-- and their share of the order's red packets and points, and takes back the points the order
-- earned for what is refunded. One return of an order is open at a time, so each return's
-- amounts, fixed when it is requested, are what its refund pays. Money in ten-thousandths.

-- The order's open return (0: none), claimed by one guarded update; what was refunded so far.
ALTER TABLE orders ADD COLUMN return_open INTEGER NOT NULL DEFAULT 0;
ALTER TABLE orders ADD COLUMN refunded INTEGER NOT NULL DEFAULT 0;

-- Each line's units refunded so far, and what they refunded: to the balance, in red packets,
-- and the money value of the points given back.
ALTER TABLE order_items ADD COLUMN returned INTEGER NOT NULL DEFAULT 0;
ALTER TABLE order_items ADD COLUMN refunded INTEGER NOT NULL DEFAULT 0;
ALTER TABLE order_items ADD COLUMN red_packet_back INTEGER NOT NULL DEFAULT 0;
ALTER TABLE order_items ADD COLUMN points_back_value INTEGER NOT NULL DEFAULT 0;

CREATE TABLE returns (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    return_no TEXT NOT NULL UNIQUE,
    order_id INTEGER NOT NULL REFERENCES orders(id),
    member_id INTEGER NOT NULL REFERENCES members(id),
    -- 1 质量问题, 2 发错货, 3 商品破损, 4 效期问题, 5 不想要了, 6 其他
    reason INTEGER NOT NULL CHECK (reason BETWEEN 1 AND 6),
    description TEXT NOT NULL DEFAULT '',
    -- 0 待审核 (requested), 1 待退货 (approved: goods on their way back), 2 已拒绝,
    -- 3 已退款 (goods received and refunded), 4 已撤销 (withdrawn by the member)
    status INTEGER NOT NULL DEFAULT 0,
    refund INTEGER NOT NULL,
    red_packet INTEGER NOT NULL,
    points_value INTEGER NOT NULL,
    points_back INTEGER NOT NULL,
    -- the earned points to take back; once refunded, what could be taken
    points_taken INTEGER NOT NULL,
    operator_note TEXT NOT NULL DEFAULT '',
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    reviewed_at INTEGER,
    refunded_at INTEGER
);
CREATE INDEX returns_member ON returns(member_id, created_at);
CREATE INDEX returns_order ON returns(order_id);

CREATE TABLE return_lines (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    return_id INTEGER NOT NULL REFERENCES returns(id) ON DELETE CASCADE,
    order_item_id INTEGER NOT NULL REFERENCES order_items(id),
    number INTEGER NOT NULL CHECK (number >= 1),
    refund INTEGER NOT NULL,
    red_packet INTEGER NOT NULL,
    points_value INTEGER NOT NULL
);
CREATE INDEX return_lines_return ON return_lines(return_id);

CREATE TABLE return_photos (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    return_id INTEGER NOT NULL REFERENCES returns(id) ON DELETE CASCADE,
    file_name TEXT NOT NULL,
    file_type TEXT NOT NULL,
    file_size INTEGER NOT NULL
);
CREATE INDEX return_photos_return ON return_photos(return_id);
