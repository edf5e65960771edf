-- A store-wide discount (全场折扣, `/welfare`: 全场94折): while one is on and running, every
-- goods card prices the goods and its ladder steps at the engine's `rate_price` (floor2 of
-- price × rate), and the cart hands the engine those prices, so browser, edge and origin quote
-- the same. Flash sales and combinations keep their own prices. The newest running one counts.
CREATE TABLE welfare_activities (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    title TEXT NOT NULL,
    -- A decimal 0 < rate ≤ 1 as text: 0.94 is 94折.
    rate TEXT NOT NULL,
    starts_at INTEGER NOT NULL,
    ends_at INTEGER NOT NULL,
    is_on INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX welfare_activities_running ON welfare_activities(ends_at);
