-- The lucky draw (抽奖, §4 and §7): activities with weighted prizes, each prize handed out at
-- most its stock (a guarded update), one draw per member per activity (a unique key), and what
-- each member drew. A prize is nothing (谢谢参与: no stock, the draw's answer when no prize is
-- left), a coupon of a template, points, or red packets, landing in the member's accounts.

CREATE TABLE draw_activities (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    title TEXT NOT NULL,
    description TEXT NOT NULL DEFAULT '',
    starts_at INTEGER NOT NULL,
    ends_at INTEGER NOT NULL,
    is_on INTEGER NOT NULL DEFAULT 1
);

CREATE TABLE draw_prizes (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    activity_id INTEGER NOT NULL REFERENCES draw_activities(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    remarks TEXT NOT NULL DEFAULT '',
    -- 0 nothing, 1 a coupon, 2 points, 3 red packets
    kind INTEGER NOT NULL CHECK (kind IN (0, 1, 2, 3)),
    coupon_id INTEGER REFERENCES coupons(id),
    points INTEGER NOT NULL DEFAULT 0,
    red_packet INTEGER NOT NULL DEFAULT 0,
    -- the relative chance of the prize among those with stock left
    weight INTEGER NOT NULL CHECK (weight > 0),
    stock INTEGER NOT NULL DEFAULT 0 CHECK (stock >= 0),
    handed INTEGER NOT NULL DEFAULT 0,
    sort INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX draw_prizes_activity ON draw_prizes(activity_id, sort);

CREATE TABLE draw_records (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    activity_id INTEGER NOT NULL REFERENCES draw_activities(id),
    member_id INTEGER NOT NULL REFERENCES members(id),
    prize_id INTEGER NOT NULL REFERENCES draw_prizes(id),
    name TEXT NOT NULL,
    remarks TEXT NOT NULL,
    kind INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    UNIQUE (activity_id, member_id)
);
CREATE INDEX draw_records_member ON draw_records(member_id, created_at);
CREATE INDEX draw_records_activity ON draw_records(activity_id, created_at);
