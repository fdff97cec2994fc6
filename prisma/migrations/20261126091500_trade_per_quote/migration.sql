-- Trades (issue 13): the quote id is the ledger's operation id for a trade. Whatever fails between
-- the quote service and the ledger (two databases), a quote has at most one TRADE, and its one
-- COMMISSION, ever. Transactions without a quote have NULL here, and NULLs are distinct.

-- CreateIndex
CREATE UNIQUE INDEX "transactions_quote_id_type_key" ON "ledger"."transactions"("quote_id", "type");
