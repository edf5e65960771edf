-- A stolen session cannot keep the account: a phone change is recorded (`phone_changed_at`),
-- and for a day after it the password is not reset through the new phone; the old phone is
-- told by SMS (`sms_notices`: there is no SMS gateway, a notice is kept here as codes are in
-- `sms_codes`).
ALTER TABLE members ADD COLUMN phone_changed_at INTEGER;

CREATE TABLE sms_notices (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    phone TEXT NOT NULL,
    body TEXT NOT NULL,
    sent_at INTEGER NOT NULL
);
CREATE INDEX sms_notices_phone ON sms_notices (phone, sent_at);

-- Lockouts nobody else can cause: failed passwords slow the account and the address with a
-- growing wait (`login_failures`, one row per key), instead of locking the account when they
-- come from two addresses.
DROP TABLE login_account_failures;
DELETE FROM login_failures;
