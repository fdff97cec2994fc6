-- The ledger's journal (issue 10). Every balance change is one journal entry whose postings sum to
-- zero per asset. A posting lands either on a customer account (accounts/balances) or on a
-- platform account, one per purpose and asset, so the platform's books balance to zero per asset.
--
-- No hot row: a platform account has no balance row. Its balance is the sum of its postings,
-- which are only ever inserted, so concurrent postings never wait on one another through it.
-- Customer balances keep a running row (locked in (account_id, asset) order by every posting),
-- which PostgreSQL itself keeps from going below zero.

-- CreateTable
CREATE TABLE "ledger"."platform_accounts" (
    "id" TEXT NOT NULL,
    "purpose" TEXT NOT NULL,
    "asset" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "platform_accounts_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "platform_accounts_purpose_asset_key" ON "ledger"."platform_accounts"("purpose", "asset");

-- CreateTable
CREATE TABLE "ledger"."transactions" (
    "id" TEXT NOT NULL,
    "organization_id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "asset" TEXT NOT NULL,
    "amount" DECIMAL(38,18) NOT NULL,
    "chain_name" TEXT,
    "beneficiary_id" TEXT,
    "quote_id" TEXT,
    "fee" DECIMAL(38,18),
    "fee_asset" TEXT,
    "counterparty_organization_id" TEXT,
    "reference" TEXT,
    "failure_reason" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "transactions_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "transactions_amount_positive" CHECK ("amount" > 0),
    CONSTRAINT "transactions_fee_not_negative" CHECK ("fee" IS NULL OR "fee" >= 0)
);

-- CreateIndex
CREATE INDEX "transactions_organization_id_created_at_id_idx" ON "ledger"."transactions"("organization_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "transactions_account_id_created_at_id_idx" ON "ledger"."transactions"("account_id", "created_at" DESC, "id" DESC);

-- AddForeignKey
ALTER TABLE "ledger"."transactions" ADD CONSTRAINT "transactions_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "ledger"."accounts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AlterTable: a journal entry belongs to the transaction whose transition it records.
ALTER TABLE "ledger"."journals" ADD COLUMN "transaction_id" TEXT;

-- CreateIndex
CREATE INDEX "journals_transaction_id_idx" ON "ledger"."journals"("transaction_id");

-- AddForeignKey
ALTER TABLE "ledger"."journals" ADD CONSTRAINT "journals_transaction_id_fkey" FOREIGN KEY ("transaction_id") REFERENCES "ledger"."transactions"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AlterTable: a posting is on exactly one customer or platform account; customer lines carry the
-- balance they left, so a statement reconciles line by line.
ALTER TABLE "ledger"."postings" ALTER COLUMN "account_id" DROP NOT NULL,
ADD COLUMN "platform_account_id" TEXT,
ADD COLUMN "balance_after" DECIMAL(38,18),
ADD CONSTRAINT "postings_one_account" CHECK (num_nonnulls("account_id", "platform_account_id") = 1),
ADD CONSTRAINT "postings_balance_after_on_customer_lines" CHECK (("account_id" IS NULL) = ("balance_after" IS NULL)),
ADD CONSTRAINT "postings_amount_not_zero" CHECK ("amount" <> 0);

-- DropIndex
DROP INDEX "ledger"."postings_account_id_asset_idx";

-- CreateIndex
CREATE INDEX "postings_account_id_id_idx" ON "ledger"."postings"("account_id", "id" DESC);

-- CreateIndex
CREATE INDEX "postings_platform_account_id_idx" ON "ledger"."postings"("platform_account_id");

-- AddForeignKey
ALTER TABLE "ledger"."postings" ADD CONSTRAINT "postings_platform_account_id_fkey" FOREIGN KEY ("platform_account_id") REFERENCES "ledger"."platform_accounts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- A customer balance never goes below zero, whatever the code above it does.
ALTER TABLE "ledger"."balances" ADD CONSTRAINT "balances_amount_not_negative" CHECK ("amount" >= 0);

-- Every journal entry balances per asset, checked by PostgreSQL at COMMIT (deferred), so no code
-- path can commit half an entry.
CREATE FUNCTION "ledger"."assert_journal_balanced"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (
    SELECT 1 FROM "ledger"."postings" WHERE journal_id = NEW.journal_id GROUP BY asset HAVING SUM(amount) <> 0
  ) THEN
    RAISE EXCEPTION 'journal entry % does not balance', NEW.journal_id USING ERRCODE = 'check_violation';
  END IF;
  RETURN NULL;
END
$$;

CREATE CONSTRAINT TRIGGER "postings_journal_balanced" AFTER INSERT ON "ledger"."postings"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "ledger"."assert_journal_balanced"();

-- The journal is append-only: a correction is a new entry, never an edit.
CREATE FUNCTION "ledger"."refuse_journal_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'the journal is append-only (% on %)', TG_OP, TG_TABLE_NAME USING ERRCODE = 'insufficient_privilege';
END
$$;

CREATE TRIGGER "postings_append_only" BEFORE UPDATE OR DELETE ON "ledger"."postings"
  FOR EACH ROW EXECUTE FUNCTION "ledger"."refuse_journal_change"();

CREATE TRIGGER "journals_append_only" BEFORE UPDATE OR DELETE ON "ledger"."journals"
  FOR EACH ROW EXECUTE FUNCTION "ledger"."refuse_journal_change"();
