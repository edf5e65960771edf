-- Earned points a return takes back that the member no longer holds (spent since the order
-- was paid) come out of its refund at the points' value (docs/pricing.md, rule 21): the return
-- records how many points were short and the money deducted for them (stored amounts, like
-- `refund`). Before it is refunded, the figures are those of the points held when it was
-- requested; once refunded, those paid.
ALTER TABLE returns ADD COLUMN points_short BIGINT NOT NULL DEFAULT 0;
ALTER TABLE returns ADD COLUMN points_deducted BIGINT NOT NULL DEFAULT 0;
