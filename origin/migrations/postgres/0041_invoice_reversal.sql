-- A blue invoice reversed whole by finance (docs/compliance.md, "Invoices"): a wrong title or
-- tax number is never edited; finance issues a red-letter invoice for all the blue one still
-- stands for, with a reason, and the member may then request the order's invoice again.
ALTER TABLE invoices ADD COLUMN reversed_at BIGINT;
ALTER TABLE invoices ADD COLUMN reversal_reason TEXT NOT NULL DEFAULT '';
