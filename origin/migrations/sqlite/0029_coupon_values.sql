-- Coupon templates hold only what the pricing engine accepts (docs/pricing.md, rule 13): a
-- 满减 (kind 1) takes an amount above 0 off; a 折扣 (kind 2) pays a rate above 0 and below 1
-- (rates in ten-thousandths: 9500 is 0.95), since a rate of 0 would take everything off;
-- thresholds and caps are not negative. SQLite cannot add a CHECK to a table that exists, so
-- these triggers refuse such a row instead, as PostgreSQL's constraint does. Rows written
-- before them are not checked here: the origin reads every coupon through the engine's reader
-- and leaves out one it refuses (origin/src/settlement.rs).
CREATE TRIGGER coupons_values_insert BEFORE INSERT ON coupons
WHEN NOT (
    ((NEW.kind = 1 AND NEW.amount > 0) OR (NEW.kind = 2 AND NEW.rate > 0 AND NEW.rate < 10000))
    AND NEW.amount >= 0 AND NEW.min_amount >= 0 AND (NEW.max_reduce IS NULL OR NEW.max_reduce >= 0)
)
BEGIN
    SELECT RAISE(ABORT, 'coupons_values: a kind 1 coupon takes an amount above 0 off, a kind 2 coupon a rate above 0 and below 1');
END;

CREATE TRIGGER coupons_values_update BEFORE UPDATE OF kind, amount, min_amount, rate, max_reduce ON coupons
WHEN NOT (
    ((NEW.kind = 1 AND NEW.amount > 0) OR (NEW.kind = 2 AND NEW.rate > 0 AND NEW.rate < 10000))
    AND NEW.amount >= 0 AND NEW.min_amount >= 0 AND (NEW.max_reduce IS NULL OR NEW.max_reduce >= 0)
)
BEGIN
    SELECT RAISE(ABORT, 'coupons_values: a kind 1 coupon takes an amount above 0 off, a kind 2 coupon a rate above 0 and below 1');
END;
