-- Wanted varieties (品种求购, `/zzfw/pzqg`): goods a member asks the shop to source, and the
-- shop's answer: 0 待处理, 1 已上架 (sourced), 2 暂无货源 (cannot be sourced).
CREATE TABLE wanted_varieties (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    member_id INTEGER NOT NULL REFERENCES members(id),
    name TEXT NOT NULL,
    sccj TEXT NOT NULL DEFAULT '',
    ypgg TEXT NOT NULL DEFAULT '',
    number INTEGER NOT NULL CHECK (number >= 1),
    remark TEXT NOT NULL DEFAULT '',
    status INTEGER NOT NULL DEFAULT 0,
    reply TEXT NOT NULL DEFAULT '',
    created_at INTEGER NOT NULL,
    replied_at INTEGER
);
CREATE INDEX wanted_varieties_member ON wanted_varieties(member_id, created_at);
