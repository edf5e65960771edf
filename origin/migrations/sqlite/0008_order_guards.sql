-- Orders that hold stock, and who may buy (docs/api.md, "Orders").
--
-- Members sign the electronic agreement (电子合同) before they may order; approved members
-- already in the database count as having signed.
ALTER TABLE members ADD COLUMN agreement_signed INTEGER NOT NULL DEFAULT 0;
UPDATE members SET agreement_signed = 1 WHERE is_passed = 1;

-- When an order was cancelled (by its member, or because it stayed unpaid too long).
ALTER TABLE orders ADD COLUMN cancelled_at INTEGER;
-- The auto-cancel task finds unpaid orders by status and age.
CREATE INDEX orders_status_created ON orders(status, created_at);

-- The flash sale or combination an item was bought in, 0 otherwise (as cart_items.activity_id),
-- so that a flash sale's per-member limit counts what the member already ordered in it.
ALTER TABLE order_items ADD COLUMN activity_id INTEGER NOT NULL DEFAULT 0;
UPDATE order_items SET activity_id = COALESCE((
    SELECT MAX(f.id) FROM flash_sales f, orders o
    WHERE o.id = order_items.order_id AND f.goods_id = order_items.goods_id
    AND f.starts_at <= o.created_at AND f.ends_at > o.created_at), 0)
WHERE type = 1;
UPDATE order_items SET activity_id = COALESCE((SELECT MIN(c.id) FROM combinations c WHERE c.name = order_items.name), 0)
WHERE type = 3;
CREATE INDEX order_items_activity ON order_items(activity_id, type);

-- What an order took from stock: a goods (its stock, and its sales count) or a combination
-- (its own stock). Cancelling the order gives back exactly these rows, once.
CREATE TABLE order_stock (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    order_id INTEGER NOT NULL REFERENCES orders(id) ON DELETE CASCADE,
    goods_id INTEGER REFERENCES goods(id),
    combination_id INTEGER REFERENCES combinations(id),
    number INTEGER NOT NULL CHECK (number >= 1),
    CHECK ((goods_id IS NULL) <> (combination_id IS NULL))
);
CREATE INDEX order_stock_order ON order_stock(order_id);
-- Orders placed before this table took a goods' stock for normal and flash-sale items and a
-- combination's own stock for combination items; unpaid ones may still be cancelled.
INSERT INTO order_stock (order_id, goods_id, combination_id, number)
SELECT i.order_id, i.goods_id, NULL, i.number FROM order_items i JOIN orders o ON o.id = i.order_id
WHERE o.status = 0 AND i.type <> 3;
INSERT INTO order_stock (order_id, goods_id, combination_id, number)
SELECT i.order_id, NULL, i.activity_id, i.number FROM order_items i JOIN orders o ON o.id = i.order_id
WHERE o.status = 0 AND i.type = 3 AND i.activity_id > 0;
