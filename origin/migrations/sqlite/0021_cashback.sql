-- 满额返现 (`/hb`): an order placed while a cash-back activity runs gets, when it completes,
-- the back of the highest tier its goods reach (what its lines paid less what was refunded)
-- credited to the balance, once (`orders.cashback`, a guarded update). A later return that
-- leaves the order below that tier takes the difference back out of its refund, never more
-- than the refund (`returns.cashback_taken`). Money is stored in ten-thousandths of a yuan.
CREATE TABLE cashback_activities (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    title TEXT NOT NULL,
    starts_at INTEGER NOT NULL,
    ends_at INTEGER NOT NULL,
    is_on INTEGER NOT NULL DEFAULT 1
);

CREATE TABLE cashback_tiers (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    activity_id INTEGER NOT NULL REFERENCES cashback_activities(id) ON DELETE CASCADE,
    amount INTEGER NOT NULL CHECK (amount > 0),
    back INTEGER NOT NULL CHECK (back > 0)
);
CREATE INDEX cashback_tiers_activity ON cashback_tiers(activity_id, amount);

-- The activity an order was placed under (0: none), and the cash back it holds now.
ALTER TABLE orders ADD COLUMN cashback_activity_id INTEGER NOT NULL DEFAULT 0;
ALTER TABLE orders ADD COLUMN cashback INTEGER NOT NULL DEFAULT 0;
ALTER TABLE orders ADD COLUMN cashback_at INTEGER NOT NULL DEFAULT 0;
ALTER TABLE returns ADD COLUMN cashback_taken INTEGER NOT NULL DEFAULT 0;
