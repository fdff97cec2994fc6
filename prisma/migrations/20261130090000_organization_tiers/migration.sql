-- The ledger's own copy of the pricing tier in force for each organization, kept from the
-- organization service's `organization.tier.assigned` events, so pricing a quote or answering
-- GET /v1/fees asks no other service. A null tier_key is the platform default. `sequence` is the
-- event's number for the organization: a row is replaced only by a newer one. Starts empty: an
-- organization not in it yet is asked for once and remembered with sequence 0.

-- CreateTable
CREATE TABLE "ledger"."organization_tiers" (
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
ALTER TABLE "ledger"."organization_tiers" ADD CONSTRAINT "organization_tiers_whole" CHECK (
    (tier_key IS NULL AND tier_label IS NULL AND spread_bps IS NULL AND referrer_share_bps IS NULL)
    OR (tier_key IS NOT NULL AND tier_label IS NOT NULL AND spread_bps IS NOT NULL AND referrer_share_bps IS NOT NULL));
