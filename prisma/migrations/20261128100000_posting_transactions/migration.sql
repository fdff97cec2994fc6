-- Statements point at the reader's own transactions. A journal entry names the transaction that
-- initiated it (a transfer's SENDER side, a quote's TRADE), but one entry can move money on
-- accounts of several organizations: the receiver of a transfer, the broker paid a commission.
-- Each posting now carries the transaction of the account it lands on, which is what
-- GET /v1/accounts/{id}/entries shows; platform lines carry the entry's own transaction.

-- AlterTable
ALTER TABLE "ledger"."postings" ADD COLUMN "transaction_id" TEXT;

-- Backfill. The journal is append-only (its trigger refuses UPDATE); the trigger is off for this
-- one backfill, inside this migration's transaction, and back on before it commits. The balance
-- check fires on INSERT only and is untouched: no amount changes.
ALTER TABLE "ledger"."postings" DISABLE TRIGGER "postings_append_only";

-- Every line first takes its entry's transaction: right for every line on the initiating account
-- and for every platform line.
UPDATE "ledger"."postings" p SET "transaction_id" = j."transaction_id"
FROM "ledger"."journals" j WHERE j."id" = p."journal_id";

-- A trade's commission line: the COMMISSION of the same quote on the broker's account (at most one
-- per quote, by the unique (quote_id, type)).
UPDATE "ledger"."postings" p SET "transaction_id" = c."id"
FROM "ledger"."journals" j
JOIN "ledger"."transactions" t ON t."id" = j."transaction_id" AND t."type" = 'TRADE'
JOIN "ledger"."transactions" c ON c."quote_id" = t."quote_id" AND c."type" = 'COMMISSION'
WHERE j."id" = p."journal_id" AND p."account_id" = c."account_id" AND p."account_id" <> t."account_id";

-- A transfer's receiving line: the RECEIVER transaction written with the SENDER one. Nothing links
-- the two rows but what they share (the receiving account, the sender's organization as
-- counterparty, asset, amount, reference and the instant both were written), so lines and RECEIVER
-- rows are paired within each group of equal values; rows in one group differ in nothing but their
-- ids, so any one-to-one pairing within it is a true one.
WITH sent AS (
  SELECT p."id" AS posting_id, s."organization_id", p."account_id", s."asset", s."amount", s."created_at", s."reference",
    row_number() OVER (PARTITION BY s."organization_id", p."account_id", s."asset", s."amount", s."created_at", s."reference" ORDER BY p."id") AS n
  FROM "ledger"."postings" p
  JOIN "ledger"."journals" j ON j."id" = p."journal_id"
  JOIN "ledger"."transactions" s ON s."id" = j."transaction_id" AND s."type" = 'INTERNAL_TRANSFER'
  WHERE p."account_id" IS NOT NULL AND p."account_id" <> s."account_id"
), received AS (
  SELECT r."id", r."counterparty_organization_id", r."account_id", r."asset", r."amount", r."created_at", r."reference",
    row_number() OVER (PARTITION BY r."counterparty_organization_id", r."account_id", r."asset", r."amount", r."created_at", r."reference" ORDER BY r."id") AS n
  FROM "ledger"."transactions" r
  WHERE r."type" = 'INTERNAL_TRANSFER' AND r."role" = 'RECEIVER'
)
UPDATE "ledger"."postings" p SET "transaction_id" = received."id"
FROM sent
JOIN received ON received."counterparty_organization_id" = sent."organization_id" AND received."account_id" = sent."account_id"
  AND received."asset" = sent."asset" AND received."amount" = sent."amount" AND received."created_at" = sent."created_at"
  AND received."reference" IS NOT DISTINCT FROM sent."reference" AND received."n" = sent."n"
WHERE p."id" = sent.posting_id;

ALTER TABLE "ledger"."postings" ENABLE TRIGGER "postings_append_only";

-- Every line names a transaction from now on.
ALTER TABLE "ledger"."postings" ALTER COLUMN "transaction_id" SET NOT NULL;

-- CreateIndex: the target of the foreign key below (the primary key alone cannot be).
CREATE UNIQUE INDEX "transactions_id_account_id_key" ON "ledger"."transactions"("id", "account_id");

-- AddForeignKey
ALTER TABLE "ledger"."postings" ADD CONSTRAINT "postings_transaction_id_fkey" FOREIGN KEY ("transaction_id") REFERENCES "ledger"."transactions"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey: a customer line's transaction is one of that account's own, checked by PostgreSQL
-- (a platform line has no account_id, and a foreign key with a NULL column is not checked).
-- Adding it validates every backfilled row: a line left on another account's transaction fails
-- this migration rather than stay wrong.
ALTER TABLE "ledger"."postings" ADD CONSTRAINT "postings_transaction_id_account_id_fkey" FOREIGN KEY ("transaction_id", "account_id") REFERENCES "ledger"."transactions"("id", "account_id") ON DELETE RESTRICT ON UPDATE CASCADE;
