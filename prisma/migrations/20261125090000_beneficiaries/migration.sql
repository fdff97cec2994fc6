-- Beneficiaries (issue 12), owned by the beneficiary service. Account numbers, IBANs (which
-- embed the account number) and tax ids are stored sealed (AES-256-GCM, key from
-- BENEFICIARY_DATA_KEY), never in plain text; only the account number's last four digits are
-- kept readable, for the API's masked view. Duplicates are found by a keyed fingerprint (HMAC)
-- of the destination, so the column cannot be reversed by hashing every account number.

-- CreateTable
CREATE TABLE "beneficiary"."beneficiaries" (
    "id" TEXT NOT NULL,
    "organization_id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "nickname" TEXT NOT NULL,
    "entity_type" TEXT,
    "email" TEXT,
    "phone_number" TEXT,
    "first_name" TEXT,
    "last_name" TEXT,
    "legal_name" TEXT,
    "date_of_birth" TEXT,
    "business_name" TEXT,
    "registration_number" TEXT,
    "address_line1" TEXT,
    "address_line2" TEXT,
    "city" TEXT,
    "region" TEXT,
    "zip_code" TEXT,
    "country" TEXT,
    "tax_id_sealed" TEXT,
    "tax_id_type" TEXT,
    "tags" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[],
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "bank_name" TEXT,
    "bank_method" TEXT,
    "bank_currency" TEXT,
    "swift_code" TEXT,
    "account_number_sealed" TEXT,
    "account_number_last4" TEXT,
    "bank_country" TEXT,
    "iban_sealed" TEXT,
    "routing_number" TEXT,
    "bank_address_line1" TEXT,
    "bank_city" TEXT,
    "bank_region" TEXT,
    "bank_zip_code" TEXT,
    "intermediary_bank_name" TEXT,
    "intermediary_swift_code" TEXT,
    "intermediary_bank_address" TEXT,
    "chain_name" TEXT,
    "chain_display_name" TEXT,
    "platform" TEXT,
    "address" TEXT,
    "asset" TEXT,
    "destination_fingerprint" TEXT NOT NULL,
    "duplicate_of" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "beneficiaries_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "beneficiaries_organization_id_created_at_id_idx" ON "beneficiary"."beneficiaries"("organization_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "beneficiaries_account_id_type_destination_fingerprint_creat_idx" ON "beneficiary"."beneficiaries"("account_id", "type", "destination_fingerprint", "created_at");
