-- Webhook endpoints (issue 11 §1), owned by the webhook-delivery service. The signing secret is
-- stored sealed (AES-256-GCM, key from WEBHOOK_SECRET_KEY), never in plain text; during a
-- rotation's grace period the previous secret is kept, sealed too, until it expires. A deleted
-- endpoint keeps its row (deleted_at) for the delivery log, and answers not_found.

-- CreateTable
CREATE TABLE "webhook"."endpoints" (
    "id" TEXT NOT NULL,
    "organization_id" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "description" TEXT,
    "disabled" BOOLEAN NOT NULL DEFAULT false,
    "event_types" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[],
    "secret_sealed" TEXT NOT NULL,
    "previous_secret_sealed" TEXT,
    "previous_secret_expires_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "deleted_at" TIMESTAMPTZ(3),

    CONSTRAINT "endpoints_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "endpoints_organization_id_created_at_id_idx" ON "webhook"."endpoints"("organization_id", "created_at" DESC, "id" DESC);
