CREATE TABLE "webhook_deliveries" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "webhook_deliveries_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"subscription_id" text NOT NULL,
	"message_id" text NOT NULL,
	"event_id" bigint,
	"event_type" text NOT NULL,
	"attempt" integer NOT NULL,
	"outcome" text NOT NULL,
	"status_code" integer,
	"error" text,
	"duration_ms" integer NOT NULL,
	"response_prefix" text,
	"next_attempt_at_ms" bigint,
	"attempted_at_ms" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_subscriptions" (
	"id" text PRIMARY KEY NOT NULL,
	"wallet" text NOT NULL,
	"api_key_id" text NOT NULL,
	"url" text NOT NULL,
	"events" jsonb NOT NULL,
	"token_address" text,
	"description" text,
	"secret" text NOT NULL,
	"previous_secret" text,
	"previous_secret_expires_at_ms" bigint,
	"status" text NOT NULL,
	"status_reason" text,
	"cursor_event_id" bigint NOT NULL,
	"pending_event_id" bigint,
	"attempts" integer DEFAULT 0 NOT NULL,
	"first_attempt_at_ms" bigint,
	"next_attempt_at_ms" bigint NOT NULL,
	"lease_token" text,
	"lease_until_ms" bigint,
	"created_at_ms" bigint NOT NULL,
	"updated_at_ms" bigint NOT NULL
);
--> statement-breakpoint
CREATE INDEX "webhook_deliveries_subscription_idx" ON "webhook_deliveries" USING btree ("subscription_id","id");--> statement-breakpoint
CREATE INDEX "webhook_subscriptions_wallet_idx" ON "webhook_subscriptions" USING btree ("wallet");--> statement-breakpoint
CREATE INDEX "webhook_subscriptions_due_idx" ON "webhook_subscriptions" USING btree ("next_attempt_at_ms");