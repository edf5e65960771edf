-- Wrong guesses at a verification code: the code is spent after five.
ALTER TABLE sms_codes ADD COLUMN attempts BIGINT NOT NULL DEFAULT 0;
