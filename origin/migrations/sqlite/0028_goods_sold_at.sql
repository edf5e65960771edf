-- When a goods' sales last moved (an order took it, a cancel gave it back): the search index,
-- which ranks by sales, reads again every few seconds the sales of the goods sold lately
-- instead of every goods' (`crate::search`).
ALTER TABLE goods ADD COLUMN sold_at INTEGER NOT NULL DEFAULT 0;
CREATE INDEX goods_sold_at ON goods(sold_at);
