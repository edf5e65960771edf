-- Lots (批号) and shipments (docs/compliance.md, "Lots, shipments and the delivery note").
--
-- Stock is held in lots: each goods' lots with their production and expiry dates (YYYY-MM-DD),
-- the units received and the units still in the warehouse, and the lot's inspection report.
-- `goods.stock` stays what may still be sold (orders take from it when placed); a lot's
-- `quantity` is what is physically there (shipments take from it). `goods.expires_on` becomes
-- the nearest expiry among the lots on sale, kept by `domain::catalogue::lots`.
CREATE TABLE goods_lots (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    goods_id INTEGER NOT NULL REFERENCES goods(id),
    lot_no TEXT NOT NULL,
    produced_on TEXT NOT NULL DEFAULT '',
    -- '' only for an opening lot made below, whose expiry nobody recorded
    expires_on TEXT NOT NULL DEFAULT '',
    received INTEGER NOT NULL CHECK (received >= 0),
    quantity INTEGER NOT NULL CHECK (quantity >= 0 AND quantity <= received),
    created_at INTEGER NOT NULL,
    UNIQUE (goods_id, lot_no)
);
CREATE INDEX goods_lots_fefo ON goods_lots(goods_id, expires_on);

-- A lot's inspection report (质检报告), a PDF or an image, kept with the data it belongs to.
CREATE TABLE lot_reports (
    lot_id INTEGER PRIMARY KEY REFERENCES goods_lots(id) ON DELETE CASCADE,
    content_type TEXT NOT NULL,
    body BLOB NOT NULL,
    created_at INTEGER NOT NULL
);

-- What is in the warehouse today becomes one opening lot per goods: what may be sold and what
-- orders not yet shipped hold, expiring as the goods said.
INSERT INTO goods_lots (goods_id, lot_no, produced_on, expires_on, received, quantity, created_at)
SELECT g.id, 'QC' || g.id, '', g.expires_on,
       g.stock + COALESCE((SELECT SUM(s.number) FROM order_stock s JOIN orders o ON o.id = s.order_id
                           WHERE s.goods_id = g.id AND o.status IN (0, 1)), 0),
       g.stock + COALESCE((SELECT SUM(s.number) FROM order_stock s JOIN orders o ON o.id = s.order_id
                           WHERE s.goods_id = g.id AND o.status IN (0, 1)), 0),
       0
FROM goods g;

-- An order ships in one or more parts, each with its carrier and tracking number; each part
-- ships units of order lines, and each unit comes from a lot (a set's line from the lots of
-- the goods inside it).
CREATE TABLE shipments (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    order_id INTEGER NOT NULL REFERENCES orders(id),
    -- 1, 2, … within the order
    seq INTEGER NOT NULL,
    carrier TEXT NOT NULL,
    tracking_no TEXT NOT NULL,
    shipped_at INTEGER NOT NULL,
    UNIQUE (order_id, seq)
);
CREATE TABLE shipment_items (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    shipment_id INTEGER NOT NULL REFERENCES shipments(id),
    order_item_id INTEGER NOT NULL REFERENCES order_items(id),
    number INTEGER NOT NULL CHECK (number >= 1)
);
CREATE INDEX shipment_items_shipment ON shipment_items(shipment_id);
CREATE INDEX shipment_items_item ON shipment_items(order_item_id);
CREATE TABLE shipment_lots (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    shipment_item_id INTEGER NOT NULL REFERENCES shipment_items(id),
    goods_id INTEGER NOT NULL REFERENCES goods(id),
    lot_id INTEGER NOT NULL REFERENCES goods_lots(id),
    number INTEGER NOT NULL CHECK (number >= 1)
);
CREATE INDEX shipment_lots_item ON shipment_lots(shipment_item_id);
CREATE INDEX shipment_lots_lot ON shipment_lots(lot_id);

-- Units of each order line shipped so far.
ALTER TABLE order_items ADD COLUMN shipped INTEGER NOT NULL DEFAULT 0;
-- Which part a logistics event follows (NULL for the events of orders shipped before parts).
ALTER TABLE order_logistics ADD COLUMN shipment_id INTEGER REFERENCES shipments(id);
-- Which lot a returned line came back from (NULL for a set, and for returns before lots).
ALTER TABLE return_lines ADD COLUMN lot_id INTEGER REFERENCES goods_lots(id);

-- Orders shipped before parts shipped whole, in one part, from lots nobody recorded.
INSERT INTO shipments (order_id, seq, carrier, tracking_no, shipped_at)
SELECT id, 1, carrier, tracking_no, shipped_at FROM orders WHERE shipped_at IS NOT NULL;
INSERT INTO shipment_items (shipment_id, order_item_id, number)
SELECT s.id, i.id, i.number FROM shipments s JOIN order_items i ON i.order_id = s.order_id;
UPDATE order_items SET shipped = number WHERE order_id IN (SELECT order_id FROM shipments);
UPDATE order_logistics SET shipment_id = (SELECT s.id FROM shipments s WHERE s.order_id = order_logistics.order_id);
