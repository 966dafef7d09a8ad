CREATE TABLE "creator_funding" (
	"token" text PRIMARY KEY NOT NULL,
	"launch_seq" integer NOT NULL,
	"launch_block_number" bigint NOT NULL,
	"status" text NOT NULL,
	"reason" text,
	"window_start_block" bigint NOT NULL,
	"window_end_block" bigint NOT NULL,
	"creator_transaction_count" integer,
	"funded" jsonb NOT NULL,
	"measured_at_ms" bigint NOT NULL
);
--> statement-breakpoint
CREATE INDEX "creator_funding_launch_seq_idx" ON "creator_funding" USING btree ("launch_seq");