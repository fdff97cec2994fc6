-- Payouts (issue 14 §1): the sandbox settlement sweeper asks, every pass, for the payouts still
-- EXPECTED or LOCKED whose last change is old enough. Without this index that is a scan of every
-- transaction ever written; with it, a range per moving status.

-- CreateIndex
CREATE INDEX "transactions_status_updated_at_idx" ON "ledger"."transactions"("status", "updated_at");
