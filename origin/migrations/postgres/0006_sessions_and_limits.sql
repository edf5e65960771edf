-- Issue 17. Sessions end after an idle time: `last_seen`, written at most once a minute.
ALTER TABLE sessions ADD COLUMN last_seen BIGINT NOT NULL DEFAULT 0;
UPDATE sessions SET last_seen = created_at;

-- Rate counters (codes sent per phone and per address, guesses per phone, reports per
-- address, ...): one row per key, each with its own fixed window.
CREATE TABLE rate_limits (
    key TEXT PRIMARY KEY,
    window_end BIGINT NOT NULL,
    hits BIGINT NOT NULL
);

-- Login attempts on an account, per client address: an account locks only when they come from
-- more than one address (login_failures keeps the per-address counts).
CREATE TABLE login_account_failures (
    account TEXT NOT NULL,
    address TEXT NOT NULL,
    window_start BIGINT NOT NULL,
    failures BIGINT NOT NULL,
    PRIMARY KEY (account, address)
);
DELETE FROM login_failures WHERE key LIKE 'account:%';

-- What the hourly purge deletes by age.
CREATE INDEX sms_codes_sent ON sms_codes (sent_at);
CREATE INDEX idempotency_created ON idempotency (created_at);
CREATE INDEX page_views_created ON page_views (created_at);
CREATE INDEX client_reports_created ON client_reports (created_at);
