-- Referral invites (spec 4.3, api-decisions §3): the referral switch per organization and one
-- invite per (referrer, email), renewed in place while pending.

-- CreateTable
CREATE TABLE "organization"."referral_programs" (
    "organization_id" TEXT NOT NULL,
    "enabled_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "referral_programs_pkey" PRIMARY KEY ("organization_id")
);

-- CreateTable
CREATE TABLE "organization"."referral_invites" (
    "id" TEXT NOT NULL,
    "referrer_organization_id" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "accepted_at" TIMESTAMPTZ(3),
    "accepted_organization_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "referral_invites_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "referral_invites_referrer_organization_id_created_at_id_idx" ON "organization"."referral_invites"("referrer_organization_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "referral_invites_referrer_organization_id_email_key" ON "organization"."referral_invites"("referrer_organization_id", "email");

-- AddForeignKey
ALTER TABLE "organization"."referral_programs" ADD CONSTRAINT "referral_programs_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organization"."organizations"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "organization"."referral_invites" ADD CONSTRAINT "referral_invites_referrer_organization_id_fkey" FOREIGN KEY ("referrer_organization_id") REFERENCES "organization"."organizations"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
