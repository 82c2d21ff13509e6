-- An API key may act for one person of the tenant's stakeholders rail; null: a service key.
ALTER TABLE "api_keys" ADD COLUMN "person_id" TEXT;
