-- Pricing tier assignments of client organizations (spec 4.2, api-decisions §6), append-only:
-- the tier in force at a time is the latest row assigned at or before it; a null tier_key
-- removes the tier.

-- CreateTable
CREATE TABLE "organization"."sub_org_tier_assignments" (
    "id" BIGSERIAL NOT NULL,
    "organization_id" TEXT NOT NULL,
    "tier_key" TEXT,
    "assigned_at" TIMESTAMPTZ(3) NOT NULL,
    "assigned_by" TEXT NOT NULL,

    CONSTRAINT "sub_org_tier_assignments_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "sub_org_tier_assignments_organization_id_assigned_at_id_idx" ON "organization"."sub_org_tier_assignments"("organization_id", "assigned_at" DESC, "id" DESC);

-- AddForeignKey
ALTER TABLE "organization"."sub_org_tier_assignments" ADD CONSTRAINT "sub_org_tier_assignments_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organization"."organizations"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
