-- The back office (docs/backoffice.md): operators are not members. Each has a role, an Argon2
-- password hash, and a TOTP secret (required for the `super` role); they sign in with sessions
-- of their own, under a cookie of their own.
CREATE TABLE operators (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    username TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL DEFAULT '',
    password_hash TEXT NOT NULL,
    -- super, operations, warehouse, service, finance, readonly
    role TEXT NOT NULL,
    -- base32; NULL: no second factor
    totp_secret TEXT,
    -- the last TOTP step accepted: a code is taken once
    totp_step INTEGER NOT NULL DEFAULT 0,
    disabled INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL,
    last_login_at INTEGER
);

CREATE TABLE operator_sessions (
    token_hash TEXT PRIMARY KEY,
    operator_id INTEGER NOT NULL REFERENCES operators(id) ON DELETE CASCADE,
    address TEXT NOT NULL DEFAULT '',
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    last_seen INTEGER NOT NULL
);
CREATE INDEX operator_sessions_operator ON operator_sessions(operator_id);

-- Every operator write, in the write's own transaction: who (the operator, or the command line's
-- name when `operator_id` is NULL), from where, what, on which thing and member, and the values
-- before and after (JSON). Rows are only ever added: the triggers refuse every change.
CREATE TABLE audit_log (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    operator_id INTEGER REFERENCES operators(id),
    operator TEXT NOT NULL,
    address TEXT NOT NULL,
    action TEXT NOT NULL,
    target TEXT NOT NULL DEFAULT '',
    member_id INTEGER,
    summary TEXT NOT NULL,
    before TEXT NOT NULL DEFAULT 'null',
    after TEXT NOT NULL DEFAULT 'null',
    created_at INTEGER NOT NULL
);
CREATE INDEX audit_log_time ON audit_log(created_at);
CREATE INDEX audit_log_operator ON audit_log(operator_id, created_at);
CREATE INDEX audit_log_target ON audit_log(target);

-- The operator log before it: its rows join the trail (from the command line, no values kept).
INSERT INTO audit_log (operator_id, operator, address, action, target, member_id, summary, created_at)
    SELECT NULL, operator, 'cli', action, '', member_id, detail, created_at FROM admin_logs ORDER BY id;
DROP TABLE admin_logs;

CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
BEGIN
    SELECT RAISE(ABORT, 'the audit trail is append-only');
END;
CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log
BEGIN
    SELECT RAISE(ABORT, 'the audit trail is append-only');
END;
