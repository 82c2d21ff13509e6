-- A new sign-in link revokes the person's earlier unused ones.
ALTER TABLE "web_sign_in_links" ADD COLUMN "revoked_at" TIMESTAMP(3);
