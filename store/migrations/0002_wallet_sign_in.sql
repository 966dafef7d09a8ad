DROP INDEX "launches_confirmed_tx_uidx";--> statement-breakpoint
DROP INDEX "launches_confirmed_token_uidx";--> statement-breakpoint
ALTER TABLE "key_challenges" ADD COLUMN "purpose" text DEFAULT 'sign_in_and_create_key' NOT NULL;--> statement-breakpoint
ALTER TABLE "launches" ADD COLUMN "canonical_launch_id" text;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "wallet" text;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "signed_in_at_ms" bigint;--> statement-breakpoint
CREATE UNIQUE INDEX "launches_canonical_tx_uidx" ON "launches" USING btree ("tx_hash") WHERE state = 'confirmed' and canonical_launch_id is null;--> statement-breakpoint
CREATE UNIQUE INDEX "launches_canonical_token_uidx" ON "launches" USING btree ("token_address") WHERE state = 'confirmed' and canonical_launch_id is null;