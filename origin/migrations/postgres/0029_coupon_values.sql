-- Coupon templates hold only what the pricing engine accepts (docs/pricing.md, rule 13): a
-- 满减 (kind 1) takes an amount above 0 off; a 折扣 (kind 2) pays a rate above 0 and below 1
-- (rates in ten-thousandths: 9500 is 0.95), since a rate of 0 would take everything off;
-- thresholds and caps are not negative. NOT VALID: new and changed rows are checked, rows
-- written before are not (as SQLite's triggers, which stand in for this constraint there); the
-- origin reads every coupon through the engine's reader and leaves out one it refuses
-- (origin/src/settlement.rs).
ALTER TABLE coupons ADD CONSTRAINT coupons_values CHECK (
    ((kind = 1 AND amount > 0) OR (kind = 2 AND rate > 0 AND rate < 10000))
    AND amount >= 0 AND min_amount >= 0 AND (max_reduce IS NULL OR max_reduce >= 0)
) NOT VALID;
