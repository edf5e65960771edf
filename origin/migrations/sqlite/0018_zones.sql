-- The zones' data: a goods' batch expiry date (YYYY-MM-DD, empty when the shop sells the usual
-- long-dated stock), which puts it in the near-expiry zone (近效期专区, `/jxqzc`) when it falls
-- within 180 days.
ALTER TABLE goods ADD COLUMN expires_on TEXT NOT NULL DEFAULT '';
CREATE INDEX goods_expires_on ON goods(expires_on);
