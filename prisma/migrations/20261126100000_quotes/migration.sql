-- Quotes (issue 13), owned by the quote service. A quote keeps the pricing it was made with
-- (spread and referrer share of the tier in force then), so a later tier change never
-- reprices it. Amounts are numeric, never floating point.

-- CreateTable
CREATE TABLE "quote"."quotes" (
    "id" TEXT NOT NULL,
    "organization_id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "from_asset" TEXT NOT NULL,
    "to_asset" TEXT NOT NULL,
    "from_amount" DECIMAL(38,18) NOT NULL,
    "to_amount" DECIMAL(38,18) NOT NULL,
    "fee" DECIMAL(38,18) NOT NULL,
    "applied_rate" TEXT NOT NULL,
    "spread_bps" INTEGER NOT NULL,
    "referrer_share_bps" INTEGER NOT NULL,
    "status" TEXT NOT NULL,
    "transaction_id" TEXT,
    "failure_reason" TEXT,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "quotes_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "quotes_organization_id_created_at_id_idx" ON "quote"."quotes"("organization_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "quotes_status_expires_at_idx" ON "quote"."quotes"("status", "expires_at");
