-- The token of the request holding an idempotency key's claim (`crate::idempotency`): an
-- answer is kept only under the token that claimed the key, so a claim taken over after its
-- origin died can never be answered twice.
ALTER TABLE idempotency ADD COLUMN claim_token TEXT NOT NULL DEFAULT '';
