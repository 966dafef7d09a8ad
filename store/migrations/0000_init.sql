CREATE TABLE "api_keys" (
	"id" text PRIMARY KEY NOT NULL,
	"key_hash" text NOT NULL,
	"display_prefix" text NOT NULL,
	"wallet" text NOT NULL,
	"label" text,
	"scopes" jsonb NOT NULL,
	"created_via" text NOT NULL,
	"created_at_ms" bigint NOT NULL,
	"revoked_at_ms" bigint,
	CONSTRAINT "api_keys_key_hash_unique" UNIQUE("key_hash")
);
--> statement-breakpoint
CREATE TABLE "counters" (
	"bucket" text NOT NULL,
	"window_start_ms" bigint NOT NULL,
	"hits" integer NOT NULL,
	"reset_at_ms" bigint NOT NULL,
	CONSTRAINT "counters_bucket_window_start_ms_pk" PRIMARY KEY("bucket","window_start_ms")
);
--> statement-breakpoint
CREATE TABLE "idempotency_records" (
	"scope" text NOT NULL,
	"idempotency_key" text NOT NULL,
	"fingerprint" text NOT NULL,
	"state" text NOT NULL,
	"locked_until_ms" bigint NOT NULL,
	"response_status" integer,
	"response_content_type" text,
	"response_body" "bytea",
	"created_at_ms" bigint NOT NULL,
	"expires_at_ms" bigint NOT NULL,
	CONSTRAINT "idempotency_records_scope_idempotency_key_pk" PRIMARY KEY("scope","idempotency_key")
);
--> statement-breakpoint
CREATE TABLE "key_challenges" (
	"nonce" text PRIMARY KEY NOT NULL,
	"session_id" text NOT NULL,
	"wallet" text NOT NULL,
	"message" text NOT NULL,
	"issued_at_ms" bigint NOT NULL,
	"expires_at_ms" bigint NOT NULL,
	"consumed_at_ms" bigint
);
--> statement-breakpoint
CREATE TABLE "launches" (
	"id" text PRIMARY KEY NOT NULL,
	"api_key_id" text NOT NULL,
	"state" text NOT NULL,
	"chain_id" integer NOT NULL,
	"factory" text NOT NULL,
	"creator" text NOT NULL,
	"name" text NOT NULL,
	"symbol" text NOT NULL,
	"description" text,
	"image_url" text,
	"website_url" text,
	"twitter_url" text,
	"telegram_url" text,
	"first_buy_wei" text NOT NULL,
	"slippage_bps" integer NOT NULL,
	"metadata_sha256" text NOT NULL,
	"intent_message" text NOT NULL,
	"issued_at_sec" bigint NOT NULL,
	"expires_at_sec" bigint NOT NULL,
	"tx_hash" text,
	"token_address" text,
	"created_at_ms" bigint NOT NULL,
	"updated_at_ms" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "media" (
	"id" text PRIMARY KEY NOT NULL,
	"content_type" text NOT NULL,
	"extension" text NOT NULL,
	"bytes" "bytea" NOT NULL,
	"byte_length" integer NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"api_key_id" text NOT NULL,
	"created_at_ms" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"csrf_secret" text NOT NULL,
	"created_at_ms" bigint NOT NULL,
	"expires_at_ms" bigint NOT NULL
);
--> statement-breakpoint
CREATE INDEX "api_keys_wallet_idx" ON "api_keys" USING btree ("wallet");--> statement-breakpoint
CREATE INDEX "counters_reset_idx" ON "counters" USING btree ("reset_at_ms");--> statement-breakpoint
CREATE INDEX "idempotency_expires_idx" ON "idempotency_records" USING btree ("expires_at_ms");--> statement-breakpoint
CREATE INDEX "key_challenges_session_wallet_idx" ON "key_challenges" USING btree ("session_id","wallet");--> statement-breakpoint
CREATE INDEX "launches_api_key_idx" ON "launches" USING btree ("api_key_id");--> statement-breakpoint
CREATE INDEX "launches_tx_hash_idx" ON "launches" USING btree ("tx_hash");