-- 中包装: how many units one middle pack holds (1: the goods has none). Quantity steppers step
-- by it, and cards show it beside 件装量 (`jzl`, units per case).
ALTER TABLE goods ADD COLUMN zbz INTEGER NOT NULL DEFAULT 1 CHECK (zbz >= 1);
