ALTER TABLE "launches" ALTER COLUMN "api_key_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "launches" ALTER COLUMN "intent_message" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "launches" ALTER COLUMN "issued_at_sec" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "launches" ALTER COLUMN "expires_at_sec" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "launches" ADD COLUMN "surface" text DEFAULT 'v1' NOT NULL;--> statement-breakpoint
ALTER TABLE "launches" ADD COLUMN "session_id" text;--> statement-breakpoint
ALTER TABLE "launches" ADD COLUMN "build" jsonb;--> statement-breakpoint
ALTER TABLE "launches" ADD COLUMN "predicted_token_address" text;--> statement-breakpoint
ALTER TABLE "launches" ADD COLUMN "amount_out_minimum" text;--> statement-breakpoint
ALTER TABLE "launches" ADD COLUMN "built_at_ms" bigint;--> statement-breakpoint
ALTER TABLE "launches" ADD COLUMN "pool_address" text;--> statement-breakpoint
ALTER TABLE "launches" ADD COLUMN "block_number" bigint;--> statement-breakpoint
ALTER TABLE "launches" ADD COLUMN "verified" jsonb;--> statement-breakpoint
ALTER TABLE "launches" ADD COLUMN "confirmed_at_ms" bigint;--> statement-breakpoint
ALTER TABLE "launches" ADD COLUMN "failure_code" text;--> statement-breakpoint
ALTER TABLE "launches" ADD COLUMN "failure_message" text;--> statement-breakpoint
CREATE INDEX "launches_session_creator_idx" ON "launches" USING btree ("session_id","creator");--> statement-breakpoint
CREATE UNIQUE INDEX "launches_confirmed_tx_uidx" ON "launches" USING btree ("tx_hash") WHERE state = 'confirmed';--> statement-breakpoint
CREATE UNIQUE INDEX "launches_confirmed_token_uidx" ON "launches" USING btree ("token_address") WHERE state = 'confirmed';