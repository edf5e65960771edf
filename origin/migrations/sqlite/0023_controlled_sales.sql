-- The controlled-sales zone (控销专区, `/kxzq`): goods a manufacturer sells only through
-- approved buyers (`goods.is_kx`, listed at `kx_listed_at`: new within 30 days), grouped in
-- programmes (`/kxzq/goods/{url}`) with the zone's ads. A member applies once; the operator
-- approves or rejects (`origin admin approve-kx`, `reject-kx`). Only approved members may put
-- controlled goods in the cart, and a cart line of one is not buyable for anyone else.
ALTER TABLE goods ADD COLUMN is_kx INTEGER NOT NULL DEFAULT 0;
ALTER TABLE goods ADD COLUMN kx_listed_at INTEGER NOT NULL DEFAULT 0;
CREATE INDEX goods_kx ON goods(is_kx, kx_listed_at);

CREATE TABLE kx_programmes (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    url TEXT NOT NULL UNIQUE,
    title TEXT NOT NULL,
    subtitle TEXT NOT NULL DEFAULT '',
    color TEXT NOT NULL DEFAULT '#0958d9',
    sort INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE kx_programme_goods (
    programme_id INTEGER NOT NULL REFERENCES kx_programmes(id) ON DELETE CASCADE,
    goods_id INTEGER NOT NULL REFERENCES goods(id),
    sort INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (programme_id, goods_id)
);

CREATE TABLE kx_ads (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    title TEXT NOT NULL,
    subtitle TEXT NOT NULL DEFAULT '',
    color TEXT NOT NULL DEFAULT '#0958d9',
    -- where the ad leads (a programme's page, the new goods)
    url TEXT NOT NULL,
    sort INTEGER NOT NULL DEFAULT 0
);

-- A member's application: 0 待审核, 1 已通过, 2 未通过 (with the reason).
CREATE TABLE kx_members (
    member_id INTEGER PRIMARY KEY REFERENCES members(id),
    status INTEGER NOT NULL DEFAULT 0,
    reason TEXT NOT NULL DEFAULT '',
    created_at INTEGER NOT NULL,
    reviewed_at INTEGER
);
