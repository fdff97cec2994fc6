-- Webhook fan-out and delivery (issue 11 §2, §3). PostgreSQL is the store, Redis only the
-- transport: every message, delivery and attempt is a row here, and a sweeper re-enqueues any
-- delivery that is due but has no job (Redis lost its data, a worker died mid-attempt).
--
-- webhook (the webhook-delivery service): one message per webhook event, with the exact body
-- and the endpoints it was fanned out to.
-- delivery (the webhook-delivery worker): its copy of the message, one delivery per endpoint
-- with its schedule, every attempt, and each endpoint's run of failures (auto-disable).

-- CreateTable
CREATE TABLE "webhook"."messages" (
    "id" TEXT NOT NULL,
    "event_id" TEXT NOT NULL,
    "event_type" TEXT NOT NULL,
    "organization_id" TEXT NOT NULL,
    "payload" TEXT NOT NULL,
    "endpoint_ids" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[],
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "messages_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "delivery"."messages" (
    "id" TEXT NOT NULL,
    "event_type" TEXT NOT NULL,
    "payload" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "messages_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "delivery"."deliveries" (
    "id" TEXT NOT NULL,
    "message_id" TEXT NOT NULL,
    "endpoint_id" TEXT NOT NULL,
    "organization_id" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "attempts_made" INTEGER NOT NULL DEFAULT 0,
    "retry_index" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMPTZ(3),
    "leased_until" TIMESTAMPTZ(3),
    "leased_by" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "deliveries_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "deliveries_status_check" CHECK ("status" IN ('PENDING', 'SUCCEEDED', 'FAILED', 'DROPPED')),
    -- A pending delivery always has its next attempt's time; a finished one never.
    CONSTRAINT "deliveries_next_attempt_check" CHECK (("status" = 'PENDING') = ("next_attempt_at" IS NOT NULL))
);

-- CreateTable
CREATE TABLE "delivery"."attempts" (
    "id" TEXT NOT NULL,
    "delivery_id" TEXT NOT NULL,
    "message_id" TEXT NOT NULL,
    "endpoint_id" TEXT NOT NULL,
    "organization_id" TEXT NOT NULL,
    "event_type" TEXT NOT NULL,
    "attempt" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "status_code" INTEGER,
    "duration_ms" INTEGER NOT NULL,
    "error" TEXT,
    "response" TEXT,

    CONSTRAINT "attempts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "delivery"."endpoint_health" (
    "endpoint_id" TEXT NOT NULL,
    "consecutive_failures" INTEGER NOT NULL DEFAULT 0,
    "failing_since" TIMESTAMPTZ(3),
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "endpoint_health_pkey" PRIMARY KEY ("endpoint_id")
);

-- CreateIndex
CREATE UNIQUE INDEX "messages_event_id_key" ON "webhook"."messages"("event_id");

-- CreateIndex
CREATE INDEX "messages_organization_id_created_at_idx" ON "webhook"."messages"("organization_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "deliveries_message_id_endpoint_id_key" ON "delivery"."deliveries"("message_id", "endpoint_id");

-- CreateIndex
CREATE INDEX "deliveries_status_next_attempt_at_idx" ON "delivery"."deliveries"("status", "next_attempt_at");

-- CreateIndex
CREATE INDEX "deliveries_endpoint_id_created_at_idx" ON "delivery"."deliveries"("endpoint_id", "created_at");

-- CreateIndex
CREATE INDEX "attempts_endpoint_id_created_at_id_idx" ON "delivery"."attempts"("endpoint_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "attempts_delivery_id_idx" ON "delivery"."attempts"("delivery_id");

-- AddForeignKey
ALTER TABLE "delivery"."deliveries" ADD CONSTRAINT "deliveries_message_id_fkey" FOREIGN KEY ("message_id") REFERENCES "delivery"."messages"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "delivery"."attempts" ADD CONSTRAINT "attempts_delivery_id_fkey" FOREIGN KEY ("delivery_id") REFERENCES "delivery"."deliveries"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
