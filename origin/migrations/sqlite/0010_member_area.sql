-- The member's own area (member centre, account centre): qualification certificates with a
-- scan and a review, the business scope, the stores of a multi-store account and the one orders
-- go to, messages, a WeChat binding, and the log of what operators changed.

-- A certificate: `kind` one of business_licence, drug_licence, gsp, medical_device, other;
-- `expires_on` a date (YYYY-MM-DD) or '' for none; the scan is a file under the data directory
-- (`file_name` its stored name, never a path the member chose); status 0 pending, 1 approved,
-- 2 rejected (with `reason`).
ALTER TABLE qualifications ADD COLUMN expires_on TEXT NOT NULL DEFAULT '';
ALTER TABLE qualifications ADD COLUMN file_name TEXT NOT NULL DEFAULT '';
ALTER TABLE qualifications ADD COLUMN file_type TEXT NOT NULL DEFAULT '';
ALTER TABLE qualifications ADD COLUMN file_size INTEGER NOT NULL DEFAULT 0;
ALTER TABLE qualifications ADD COLUMN status INTEGER NOT NULL DEFAULT 0 CHECK (status IN (0, 1, 2));
ALTER TABLE qualifications ADD COLUMN reason TEXT NOT NULL DEFAULT '';
ALTER TABLE qualifications ADD COLUMN reviewed_at INTEGER;

-- 经营范围: what the member may buy, one item per line, set when the licences are approved.
ALTER TABLE members ADD COLUMN business_scope TEXT NOT NULL DEFAULT '';
-- The store of a multi-store account that orders go to (NULL: the account's own address book).
ALTER TABLE members ADD COLUMN store_id INTEGER REFERENCES member_stores(id) ON DELETE SET NULL;
-- The bound WeChat account (the provider's subject) and its nickname.
ALTER TABLE members ADD COLUMN wechat_subject TEXT;
ALTER TABLE members ADD COLUMN wechat_name TEXT NOT NULL DEFAULT '';
CREATE UNIQUE INDEX members_wechat ON members(wechat_subject);

ALTER TABLE member_stores ADD COLUMN contact TEXT NOT NULL DEFAULT '';
ALTER TABLE member_stores ADD COLUMN phone TEXT NOT NULL DEFAULT '';
ALTER TABLE member_stores ADD COLUMN created_at INTEGER NOT NULL DEFAULT 0;

-- 我的消息: kind 1 system, 2 order, 3 wallet, 4 qualification.
CREATE TABLE messages (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    member_id INTEGER NOT NULL REFERENCES members(id) ON DELETE CASCADE,
    kind INTEGER NOT NULL DEFAULT 1,
    title TEXT NOT NULL,
    body TEXT NOT NULL,
    read_at INTEGER,
    created_at INTEGER NOT NULL
);
CREATE INDEX messages_member ON messages(member_id, created_at);

-- A WeChat binding under way: the OAuth2 `state` sent to the provider (its SHA-256), the member
-- it is for, and until when the provider's answer is taken.
CREATE TABLE oauth_states (
    state_hash TEXT PRIMARY KEY,
    member_id INTEGER NOT NULL REFERENCES members(id) ON DELETE CASCADE,
    expires_at INTEGER NOT NULL
);

-- What an operator (`origin admin …`) changed: who, what, on which member, and the details.
CREATE TABLE admin_logs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    operator TEXT NOT NULL,
    action TEXT NOT NULL,
    member_id INTEGER REFERENCES members(id) ON DELETE SET NULL,
    detail TEXT NOT NULL,
    created_at INTEGER NOT NULL
);
CREATE INDEX admin_logs_member ON admin_logs(member_id, created_at);

-- Members approved before certificates had a review were approved with their certificates.
UPDATE qualifications SET status = 1 WHERE member_id IN (SELECT id FROM members WHERE is_passed = 1);
