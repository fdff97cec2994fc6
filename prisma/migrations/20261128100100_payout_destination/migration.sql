-- A payout remembers where the money went: the destination it was created with (rail, the
-- beneficiary's nickname and name, the bank account masked to its last four characters or the
-- chain and address), kept with the payout and read by every later step, so a PATCH of the
-- beneficiary never redirects a payout in flight. Never a full account number: the ledger keeps
-- only what the API may show.
--
-- Payouts created before this migration keep NULL: what their beneficiary looked like when they
-- were created is not known here (the beneficiary service holds only its current state).

-- AlterTable
ALTER TABLE "ledger"."transactions" ADD COLUMN "destination" JSONB;
