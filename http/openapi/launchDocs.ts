/**
 * OpenAPI descriptions of the key-authenticated launch operations, shared by the v1 launch routes
 * and the coin flow (the same handlers under draft naming; docs/launch.md).
 */
import { z } from "zod";
import type { RouteDoc } from "./describe";
import {
  builtLaunchWire,
  confirmedLaunchWire,
  launchStateWire,
  launchStatusWire,
  pendingConfirmationWire,
} from "../../launches/wire";
import { unixSec } from "../../src/domain/wire";

type LaunchDoc = Omit<RouteDoc, "tag">;

/**
 * Who an intent may name as creator (docs/launch.md "Who may open an intent"): stated in the
 * descriptor and in the OpenAPI description of the intent endpoints.
 */
export const INTENT_CREATOR_RULE =
  "An API key may open intents for any creator address (a partner key acting for its users), not only its own wallet: nothing is built until the creator signs intent.message (which quotes the metadata SHA-256) with personal_sign, and only the creator's own wallet can send the built transaction.";

/** Intent / create-draft. */
export const intentDoc: LaunchDoc = {
  status: 201,
  summary: "Create a launch intent for the creator to sign (personal_sign)",
  description: INTENT_CREATOR_RULE,
  ok: launchStateWire.extend({
    ok: z.literal(true),
    intent: z.looseObject({
      message: z.string().meta({ description: "the exact text the creator signs with personal_sign (EIP-191)" }),
      expires_at_sec: z.number().int(),
    }),
  }),
  headers: [
    {
      name: "Idempotency-Key",
      required: true,
      description:
        "1-255 visible ASCII characters; a retry with the same key and body replays the first answer (24 h).",
    },
  ],
  errors: [
    "invalid_request",
    "invalid_address",
    "forbidden_field",
    "invalid_image_url",
    "idempotency_key_missing",
    "idempotency_key_invalid",
    "idempotency_in_progress",
    "idempotency_key_mismatch",
    "quota_exceeded",
  ],
};

/** Build / create-transaction. */
export const buildDoc: LaunchDoc = {
  summary: "Verify the creator's signature of intent.message and build the unsigned launch transaction",
  // The same fields the handlers are typed with (launches/responses.ts); loose for `draft_id`.
  ok: launchStateWire.extend({ ok: z.literal(true), ...builtLaunchWire.shape, built_at_sec: unixSec.nullable() }),
  errors: [
    "invalid_request",
    "forbidden_field",
    "invalid_signature",
    "launch_not_found",
    "launch_state_conflict",
    "intent_expired",
    "launch_simulation_failed",
    "chain_unavailable",
  ],
};

/** Confirm / finalize. */
export const confirmDoc: LaunchDoc = {
  summary: "Verify the broadcast launch (receipt, LP lock, first buy) and persist it",
  ok: launchStateWire.extend({ ok: z.literal(true), ...confirmedLaunchWire.shape }),
  also: {
    202: {
      description: "The transaction is not mined yet (`Retry-After`); state `submitted`.",
      schema: launchStateWire.extend({ ok: z.literal(true), ...pendingConfirmationWire.shape }),
    },
  },
  errors: [
    "invalid_request",
    "forbidden_field",
    "launch_not_found",
    "launch_state_conflict",
    "tx_already_used",
    "quota_exceeded",
    "chain_unavailable",
    "transaction_reverted",
    "factory_not_accepted",
    "launch_event_missing",
    "launch_event_ambiguous",
    "creator_mismatch",
    "metadata_mismatch",
    "value_mismatch",
    "lp_not_locked",
    "first_buy_missing",
    "first_buy_below_minimum",
  ],
};

/** Status. */
export const statusDoc: LaunchDoc = {
  summary: "The launch's idempotent state record",
  ok: launchStateWire.extend({ ok: z.literal(true), ...launchStatusWire.shape }),
  errors: ["invalid_request", "launch_not_found"],
};
