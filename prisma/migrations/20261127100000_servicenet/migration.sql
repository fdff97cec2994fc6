-- Issue 14 §2: servicenet (internal transfers between organizations).

-- CreateTable
CREATE TABLE "organization"."servicenet_memberships" (
    "organization_id" TEXT NOT NULL,
    "enabled" BOOLEAN NOT NULL,
    "handle" TEXT,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "servicenet_memberships_pkey" PRIMARY KEY ("organization_id"),
    -- Stored lower-cased: the unique index is then case-insensitive.
    CONSTRAINT "servicenet_memberships_handle_format" CHECK ("handle" IS NULL OR "handle" ~ '^[a-z0-9_-]{3,32}$')
);

-- CreateIndex
CREATE UNIQUE INDEX "servicenet_memberships_handle_key" ON "organization"."servicenet_memberships"("handle");

-- AddForeignKey
ALTER TABLE "organization"."servicenet_memberships" ADD CONSTRAINT "servicenet_memberships_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organization"."organizations"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AlterTable: a SERVICENET beneficiary's receiving organization (its id never leaves the services).
ALTER TABLE "beneficiary"."beneficiaries" ADD COLUMN     "servicenet_organization_id" TEXT,
ADD COLUMN     "servicenet_handle" TEXT,
ADD COLUMN     "servicenet_organization_name" TEXT;
