-- Letters of Authorization (LOA) between organizations (api-decisions §3). An authorization is
-- ACTIVE while revoked_at is null.

-- CreateTable
CREATE TABLE "organization"."authorizations" (
    "id" TEXT NOT NULL,
    "grantor_organization_id" TEXT NOT NULL,
    "grantee_organization_id" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "revoked_at" TIMESTAMPTZ(3),

    CONSTRAINT "authorizations_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "authorizations_grantor_organization_id_created_at_id_idx" ON "organization"."authorizations"("grantor_organization_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "authorizations_grantee_organization_id_created_at_id_idx" ON "organization"."authorizations"("grantee_organization_id", "created_at" DESC, "id" DESC);

-- AddForeignKey
ALTER TABLE "organization"."authorizations" ADD CONSTRAINT "authorizations_grantor_organization_id_fkey" FOREIGN KEY ("grantor_organization_id") REFERENCES "organization"."organizations"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "organization"."authorizations" ADD CONSTRAINT "authorizations_grantee_organization_id_fkey" FOREIGN KEY ("grantee_organization_id") REFERENCES "organization"."organizations"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
