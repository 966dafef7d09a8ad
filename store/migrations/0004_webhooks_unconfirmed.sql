CREATE TABLE "webhook_unconfirmed_sent" (
	"subscription_id" text NOT NULL,
	"event_id" bigint NOT NULL,
	"kind" text NOT NULL,
	"token" text NOT NULL,
	"tx_hash" text NOT NULL,
	"block_number" bigint NOT NULL,
	"timestamp_sec" bigint NOT NULL,
	CONSTRAINT "webhook_unconfirmed_sent_subscription_id_event_id_pk" PRIMARY KEY("subscription_id","event_id")
);
--> statement-breakpoint
ALTER TABLE "webhook_subscriptions" ADD COLUMN "include_unconfirmed" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "webhook_subscriptions" ADD COLUMN "pending_retraction" boolean DEFAULT false NOT NULL;