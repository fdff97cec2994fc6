-- The ledger's own copy of each organization's standing (verification, creator, LOA for the
-- creator, referrer), kept from the organization service's `organization.standing.updated`
-- events, so a money command reads a row instead of asking the organization service. `sequence`
-- is the event's number for the organization: a row is replaced only by a newer one. Starts
-- empty: an organization not in it yet is asked for once and remembered with sequence 0.

-- CreateTable
CREATE TABLE "ledger"."organization_standings" (
    "organization_id" TEXT NOT NULL,
    "verification_status" TEXT NOT NULL,
    "parent_organization_id" TEXT,
    "parent_holds_active_loa" BOOLEAN NOT NULL,
    "referrer_organization_id" TEXT,
    "sequence" INTEGER NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "organization_standings_pkey" PRIMARY KEY ("organization_id")
);
