-- Referral suspension (spec §5 rule 4, spec 4.3): the operator may suspend an organization's
-- referrals, possibly before its first invite, so enabled_at becomes optional and is always
-- written explicitly.

-- AlterTable
ALTER TABLE "organization"."referral_programs" ADD COLUMN     "suspended_at" TIMESTAMPTZ(3),
ALTER COLUMN "enabled_at" DROP NOT NULL,
ALTER COLUMN "enabled_at" DROP DEFAULT;
