-- Event order (issue 9 §4). Publisher side: the last sequence number given to each aggregate's
-- events, bumped in the outbox's own INSERT transaction (the row lock orders concurrent writers of
-- one aggregate). Subscriber side: the newest sequence an ordered handler has applied per
-- publisher, aggregate and event type, so an older event arriving late is skipped.
-- Two new tables in each service's own schema; nothing existing changes.

-- CreateTable
CREATE TABLE "organization"."aggregate_sequences" (
    "aggregate_id" TEXT NOT NULL,
    "last_sequence" INTEGER NOT NULL,

    CONSTRAINT "aggregate_sequences_pkey" PRIMARY KEY ("aggregate_id")
);

-- CreateTable
CREATE TABLE "organization"."applied_sequences" (
    "source" TEXT NOT NULL,
    "aggregate_id" TEXT NOT NULL,
    "event_type" TEXT NOT NULL,
    "last_sequence" INTEGER NOT NULL,
    "applied_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "applied_sequences_pkey" PRIMARY KEY ("source","aggregate_id","event_type")
);

-- CreateTable
CREATE TABLE "ledger"."aggregate_sequences" (
    "aggregate_id" TEXT NOT NULL,
    "last_sequence" INTEGER NOT NULL,

    CONSTRAINT "aggregate_sequences_pkey" PRIMARY KEY ("aggregate_id")
);

-- CreateTable
CREATE TABLE "ledger"."applied_sequences" (
    "source" TEXT NOT NULL,
    "aggregate_id" TEXT NOT NULL,
    "event_type" TEXT NOT NULL,
    "last_sequence" INTEGER NOT NULL,
    "applied_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "applied_sequences_pkey" PRIMARY KEY ("source","aggregate_id","event_type")
);

-- CreateTable
CREATE TABLE "quote"."aggregate_sequences" (
    "aggregate_id" TEXT NOT NULL,
    "last_sequence" INTEGER NOT NULL,

    CONSTRAINT "aggregate_sequences_pkey" PRIMARY KEY ("aggregate_id")
);

-- CreateTable
CREATE TABLE "quote"."applied_sequences" (
    "source" TEXT NOT NULL,
    "aggregate_id" TEXT NOT NULL,
    "event_type" TEXT NOT NULL,
    "last_sequence" INTEGER NOT NULL,
    "applied_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "applied_sequences_pkey" PRIMARY KEY ("source","aggregate_id","event_type")
);

-- CreateTable
CREATE TABLE "beneficiary"."aggregate_sequences" (
    "aggregate_id" TEXT NOT NULL,
    "last_sequence" INTEGER NOT NULL,

    CONSTRAINT "aggregate_sequences_pkey" PRIMARY KEY ("aggregate_id")
);

-- CreateTable
CREATE TABLE "beneficiary"."applied_sequences" (
    "source" TEXT NOT NULL,
    "aggregate_id" TEXT NOT NULL,
    "event_type" TEXT NOT NULL,
    "last_sequence" INTEGER NOT NULL,
    "applied_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "applied_sequences_pkey" PRIMARY KEY ("source","aggregate_id","event_type")
);

-- CreateTable
CREATE TABLE "webhook"."aggregate_sequences" (
    "aggregate_id" TEXT NOT NULL,
    "last_sequence" INTEGER NOT NULL,

    CONSTRAINT "aggregate_sequences_pkey" PRIMARY KEY ("aggregate_id")
);

-- CreateTable
CREATE TABLE "webhook"."applied_sequences" (
    "source" TEXT NOT NULL,
    "aggregate_id" TEXT NOT NULL,
    "event_type" TEXT NOT NULL,
    "last_sequence" INTEGER NOT NULL,
    "applied_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "applied_sequences_pkey" PRIMARY KEY ("source","aggregate_id","event_type")
);

-- CreateTable
CREATE TABLE "delivery"."aggregate_sequences" (
    "aggregate_id" TEXT NOT NULL,
    "last_sequence" INTEGER NOT NULL,

    CONSTRAINT "aggregate_sequences_pkey" PRIMARY KEY ("aggregate_id")
);

-- CreateTable
CREATE TABLE "delivery"."applied_sequences" (
    "source" TEXT NOT NULL,
    "aggregate_id" TEXT NOT NULL,
    "event_type" TEXT NOT NULL,
    "last_sequence" INTEGER NOT NULL,
    "applied_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "applied_sequences_pkey" PRIMARY KEY ("source","aggregate_id","event_type")
);
