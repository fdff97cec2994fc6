-- Funding methods (issue 4 part C): an account holds at most one deposit address per chain for
-- each asset, so provisioning can never hand out two. Bank methods have no chain (NULLs are
-- distinct); the ledger serialises their provisioning on the account row instead.

-- CreateIndex
CREATE UNIQUE INDEX "funding_methods_account_id_asset_chain_name_key" ON "ledger"."funding_methods"("account_id", "asset", "chain_name");
