-- The electronic purchase agreement (电子合同, `/dzht`): who signed it for the member and when.
-- Members who signed before these columns existed keep an empty signer and time 0.
ALTER TABLE members ADD COLUMN agreement_signer TEXT NOT NULL DEFAULT '';
ALTER TABLE members ADD COLUMN agreement_signed_at BIGINT NOT NULL DEFAULT 0;
