-- The quote service prices quotes and answers the spread GET /v1/fees shows, so the copy of the
-- tier in force per organization is the quote service's now, one copy read by both: the fees
-- shown and the next quote's price never disagree. The ledger's copy goes. The quote service's
-- starts empty (each schema may live in its own database, so rows do not move): an organization
-- not in it is asked of the organization service once and remembered with sequence 0.
DROP TABLE "ledger"."organization_tiers";

-- CreateTable
CREATE TABLE "quote"."organization_tiers" (
    "organization_id" TEXT NOT NULL,
    "tier_key" TEXT,
    "tier_label" TEXT,
    "spread_bps" INTEGER,
    "referrer_share_bps" INTEGER,
    "sequence" INTEGER NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "organization_tiers_pkey" PRIMARY KEY ("organization_id")
);

-- A tier is whole or absent.
ALTER TABLE "quote"."organization_tiers" ADD CONSTRAINT "organization_tiers_whole" CHECK (
    (tier_key IS NULL AND tier_label IS NULL AND spread_bps IS NULL AND referrer_share_bps IS NULL)
    OR (tier_key IS NOT NULL AND tier_label IS NOT NULL AND spread_bps IS NOT NULL AND referrer_share_bps IS NOT NULL));

-- The quote service's copy of the ledger's accounts, so a quote checks its account without
-- asking the ledger: who holds each (which never changes) and its status as the ledger last
-- answered. Starts empty: an account not in it is asked of the ledger once and remembered; a
-- status other than ACTIVE is asked again before a quote is refused on it.

-- CreateTable
CREATE TABLE "quote"."account_holders" (
    "account_id" TEXT NOT NULL,
    "organization_id" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "account_holders_pkey" PRIMARY KEY ("account_id")
);

ALTER TABLE "quote"."account_holders" ADD CONSTRAINT "account_holders_status" CHECK (status IN ('ACTIVE', 'SUSPENDED', 'CLOSED'));
