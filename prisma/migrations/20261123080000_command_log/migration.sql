-- Exactly-once commands (issue 9): every mutating command's id is stored with its result in the
-- same transaction as its change, so a re-delivered job or a client retry returns the stored
-- result and changes nothing. One table in each service's own schema.

-- CreateTable
CREATE TABLE "organization"."command_log" (
    "command_id" TEXT NOT NULL,
    "command" TEXT NOT NULL,
    "payload_hash" TEXT NOT NULL,
    "result" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "command_log_pkey" PRIMARY KEY ("command_id","command")
);

-- CreateIndex
CREATE INDEX "command_log_created_at_idx" ON "organization"."command_log"("created_at");

-- CreateTable
CREATE TABLE "ledger"."command_log" (
    "command_id" TEXT NOT NULL,
    "command" TEXT NOT NULL,
    "payload_hash" TEXT NOT NULL,
    "result" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "command_log_pkey" PRIMARY KEY ("command_id","command")
);

-- CreateIndex
CREATE INDEX "command_log_created_at_idx" ON "ledger"."command_log"("created_at");

-- CreateTable
CREATE TABLE "quote"."command_log" (
    "command_id" TEXT NOT NULL,
    "command" TEXT NOT NULL,
    "payload_hash" TEXT NOT NULL,
    "result" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "command_log_pkey" PRIMARY KEY ("command_id","command")
);

-- CreateIndex
CREATE INDEX "command_log_created_at_idx" ON "quote"."command_log"("created_at");

-- CreateTable
CREATE TABLE "beneficiary"."command_log" (
    "command_id" TEXT NOT NULL,
    "command" TEXT NOT NULL,
    "payload_hash" TEXT NOT NULL,
    "result" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "command_log_pkey" PRIMARY KEY ("command_id","command")
);

-- CreateIndex
CREATE INDEX "command_log_created_at_idx" ON "beneficiary"."command_log"("created_at");

-- CreateTable
CREATE TABLE "webhook"."command_log" (
    "command_id" TEXT NOT NULL,
    "command" TEXT NOT NULL,
    "payload_hash" TEXT NOT NULL,
    "result" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "command_log_pkey" PRIMARY KEY ("command_id","command")
);

-- CreateIndex
CREATE INDEX "command_log_created_at_idx" ON "webhook"."command_log"("created_at");

-- CreateTable
CREATE TABLE "delivery"."command_log" (
    "command_id" TEXT NOT NULL,
    "command" TEXT NOT NULL,
    "payload_hash" TEXT NOT NULL,
    "result" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "command_log_pkey" PRIMARY KEY ("command_id","command")
);

-- CreateIndex
CREATE INDEX "command_log_created_at_idx" ON "delivery"."command_log"("created_at");
