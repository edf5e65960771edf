-- Balance grants above a set amount (docs/backoffice.md, "Grants") wait for a second operator:
-- the request, who asked and why, and who decided. 0 待审批, 1 已通过, 2 已驳回.
CREATE TABLE balance_requests (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    member_id INTEGER NOT NULL REFERENCES members(id),
    amount INTEGER NOT NULL CHECK (amount > 0),
    reason TEXT NOT NULL,
    requested_by INTEGER REFERENCES operators(id),
    requested_name TEXT NOT NULL,
    status INTEGER NOT NULL DEFAULT 0,
    decided_by INTEGER REFERENCES operators(id),
    decided_name TEXT NOT NULL DEFAULT '',
    created_at INTEGER NOT NULL,
    decided_at INTEGER
);
CREATE INDEX balance_requests_status ON balance_requests(status, id);
