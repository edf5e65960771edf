-- An order's life after payment (`origin/src/order_life.rs`): when it was shipped (by which
-- carrier, under which tracking number) and completed, its logistics events, and the timeline
-- of every change with who made it (member, operator, system).

ALTER TABLE orders ADD COLUMN shipped_at INTEGER;
ALTER TABLE orders ADD COLUMN done_at INTEGER;
ALTER TABLE orders ADD COLUMN carrier TEXT NOT NULL DEFAULT '';
ALTER TABLE orders ADD COLUMN tracking_no TEXT NOT NULL DEFAULT '';

CREATE TABLE order_events (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    order_id INTEGER NOT NULL REFERENCES orders(id) ON DELETE CASCADE,
    -- place, pay, cancel, ship, receive
    action TEXT NOT NULL,
    status_from INTEGER,
    status_to INTEGER NOT NULL,
    -- member, operator or system
    actor TEXT NOT NULL,
    note TEXT NOT NULL DEFAULT '',
    created_at INTEGER NOT NULL
);
CREATE INDEX order_events_order ON order_events(order_id, created_at);

CREATE TABLE order_logistics (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    order_id INTEGER NOT NULL REFERENCES orders(id) ON DELETE CASCADE,
    place TEXT NOT NULL DEFAULT '',
    description TEXT NOT NULL,
    created_at INTEGER NOT NULL
);
CREATE INDEX order_logistics_order ON order_logistics(order_id, created_at);

-- The timelines of the orders already placed, from what they recorded.
INSERT INTO order_events (order_id, action, status_from, status_to, actor, note, created_at)
SELECT id, 'place', NULL, 0, 'member', '', created_at FROM orders;
INSERT INTO order_events (order_id, action, status_from, status_to, actor, note, created_at)
SELECT id, 'pay', 0, 1, 'member', '', paid_at FROM orders WHERE paid_at IS NOT NULL;
INSERT INTO order_events (order_id, action, status_from, status_to, actor, note, created_at)
SELECT id, 'cancel', 0, 4, 'system', '', cancelled_at FROM orders WHERE cancelled_at IS NOT NULL;

-- The auto-complete task finds shipped orders by status and shipping time.
CREATE INDEX orders_status_shipped ON orders(status, shipped_at);
