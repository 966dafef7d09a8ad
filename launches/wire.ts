/**
 * Wire schemas of the launch surface's records (docs/launch.md): the transaction a wallet sends,
 * the pool policy and a launch's state.
 */
import { z } from "zod";
import { LAUNCH_STATES } from "../src/domain/launchStates";
import { tokenMetadataWire } from "../market/wire";
import { addressWire, blockNumber, hashWire, uintString, unixSec } from "../src/domain/wire";

/** EIP-1193 transaction the wallet sends unchanged (spec: Transaction). */
export const transactionWire = z
  .looseObject({
    chainId: z.string().regex(/^0x[0-9a-f]+$/),
    from: addressWire,
    to: addressWire,
    value: z
      .string()
      .regex(/^0x[0-9a-f]+$/)
      .meta({ description: "hex quantity in wei" }),
    data: z.string().regex(/^0x[0-9a-f]*$/i),
    gas: z
      .string()
      .regex(/^0x[0-9a-f]+$/)
      .optional()
      .meta({ description: "hex quantity: the gas limit the service estimated; send it unchanged" }),
  })
  .meta({ id: "Transaction" });

/** Launch pool policy (spec: Policy). */
export const policyWire = z
  .object({
    minimum_pool_liquidity_wei: uintString,
    first_buy_amount_wei: uintString,
    total_transaction_value_wei: uintString,
  })
  .meta({ id: "Policy" });

/** A launch's state (src/domain/launchStates.ts). */
const launchStateEnum = z.enum(LAUNCH_STATES);

/** A launch's state record (docs/launch.md "States"). */
export const launchStateWire = z
  .looseObject({
    launch_id: z.string(),
    state: launchStateEnum,
  })
  .meta({ id: "LaunchState" });

/**
 * What a build returns and the store keeps for a repeated build to replay (`builtResponse` in
 * launches/responses.ts): the transaction, the value policy and what the simulation predicts.
 */
export const builtLaunchWire = z.object({
  transaction: transactionWire,
  policy: policyWire,
  predicted_token_address: addressWire,
  predicted_pool_address: addressWire,
  gas_limit: uintString,
  amount_out_minimum: uintString.meta({ description: "the first buy's amountOutMinimum, token base units" }),
  expected_tokens_out: uintString.meta({ description: "tokens the simulated first buy delivers, base units" }),
  slippage_bps: z.number().int().min(0).max(10_000),
  simulated_at_block: blockNumber,
});
/** A build response's builder fields (amounts as decimal strings). */
export type BuiltLaunchBody = z.infer<typeof builtLaunchWire>;

/** The verifier's facts of a confirmed launch (`verifiedJson`; stored in `launches.verified`). */
export const verifiedLaunchWire = z.object({
  tx_hash: hashWire,
  block_number: blockNumber,
  block_hash: hashWire,
  factory: addressWire,
  token_address: addressWire,
  pool_address: addressWire,
  creator: addressWire,
  name: z.string(),
  symbol: z.string(),
  position_ids: z.array(uintString).meta({ description: "the locked Uniswap V3 position NFT ids" }),
  liquidity_wei: uintString,
  first_buy_wei: uintString,
  first_buy_tokens_out: uintString,
});
/** A confirmed launch's verified facts (amounts as decimal strings). */
export type VerifiedLaunchBody = z.infer<typeof verifiedLaunchWire>;

/** The confirmation of a confirmed launch, identical on every repetition (`confirmedBody`). */
export const confirmedLaunchWire = verifiedLaunchWire.extend({
  launch_id: z.string(),
  state: z.literal("confirmed"),
  canonical_launch_id: z
    .string()
    .nullable()
    .meta({ description: "the record of the same launch confirmed first (whose metadata the token shows), else null" }),
  token_url: z.string(),
  metadata: tokenMetadataWire,
  confirmed_at_sec: unixSec.nullable(),
});
/** A confirmation's body without the `ok` flag. */
export type ConfirmedLaunchBody = z.infer<typeof confirmedLaunchWire>;

/** A launch's stored metadata as submitted (`intentMetadata`; absent fields are null). */
export const launchMetadataWire = z.object({
  description: z.string().nullable(),
  image_url: z.string().nullable(),
  telegram_url: z.string().nullable(),
  twitter_url: z.string().nullable(),
  website_url: z.string().nullable(),
});

/** A launch's status record (`statusBody`; docs/launch.md "States"). */
export const launchStatusWire = z.object({
  launch_id: z.string(),
  draft_id: z.string().meta({ description: "the same id under the coin flow's name" }),
  surface: z.string().meta({ description: "`v1` (key-authenticated intent) or `session` (browser build)" }),
  state: launchStateEnum,
  terminal: z.boolean(),
  next_actions: z.array(z.string()),
  creator: addressWire,
  name: z.string(),
  symbol: z.string(),
  first_buy_wei: uintString,
  slippage_bps: z.number().int(),
  metadata: launchMetadataWire,
  metadata_sha256: z.string(),
  issued_at_sec: unixSec.nullable(),
  expires_at_sec: unixSec.nullable(),
  built_at_sec: unixSec.nullable(),
  transaction: transactionWire.nullable(),
  policy: policyWire.nullable(),
  predicted_token_address: addressWire.nullable(),
  amount_out_minimum: uintString.nullable(),
  gas_limit: uintString.nullable(),
  tx_hash: hashWire.nullable(),
  token_address: addressWire.nullable(),
  token_url: z.string().nullable(),
  pool_address: addressWire.nullable(),
  block_number: blockNumber.nullable(),
  confirmed_at_sec: unixSec.nullable(),
  failure: z.object({ code: z.string().nullable(), message: z.string().nullable() }).nullable(),
  created_at_sec: unixSec.nullable(),
  updated_at_sec: unixSec.nullable(),
});
/** A status record without the `ok` flag. */
export type LaunchStatusBody = z.infer<typeof launchStatusWire>;

/** A confirmation whose transaction is not mined yet (HTTP 202 with `Retry-After`). */
export const pendingConfirmationWire = z.object({
  launch_id: z.string(),
  state: launchStateEnum,
  tx_hash: hashWire,
  pending: z.object({ code: z.literal("receipt_pending"), message: z.string() }),
  retry_after_sec: z.number().int().positive(),
});
/** A pending confirmation's body without the `ok` flag. */
export type PendingConfirmationBody = z.infer<typeof pendingConfirmationWire>;

/**
 * The session surface's build (`sessionBuild` in launches/sessionLaunches.ts): the builder's
 * fields, the stored launch's id and the metadata it will show.
 */
export const sessionBuiltLaunchWire = builtLaunchWire.extend({
  launch_id: z.string(),
  state: z.literal("built"),
  metadata: launchMetadataWire,
  built_at_sec: unixSec,
});
/** A session build's body without the `ok` flag. */
export type SessionBuiltLaunchBody = z.infer<typeof sessionBuiltLaunchWire>;

/** A session verify dry run (`write: false`) that passed: nothing is persisted. */
export const sessionCheckedLaunchWire = z.object({
  launch_id: z.string(),
  state: launchStateEnum,
  verified: z.literal(true),
  persisted: z.literal(false),
  redirect_ready: z.literal(false),
  indexed: z.literal(false),
  tx_hash: hashWire,
  token_address: addressWire,
  token_url: z.string(),
});

/**
 * A session verify that persisted the launch (`write: true`, or a repeat of one): the
 * confirmation, and whether the indexer serves the token yet (`redirect_ready`).
 */
export const sessionPersistedLaunchWire = confirmedLaunchWire.extend({
  verified: z.literal(true),
  persisted: z.literal(true),
  indexed: z.boolean(),
  redirect_ready: z.boolean().meta({ description: "persisted and indexed: the token's page resolves" }),
});

/** A session verify's 200 body without the `ok` flag: a passed dry run, or a persisted launch. */
export const sessionVerifiedLaunchWire = z.union([sessionCheckedLaunchWire, sessionPersistedLaunchWire]);
/** A session verify's 200 body without the `ok` flag. */
export type SessionVerifiedLaunchBody = z.infer<typeof sessionVerifiedLaunchWire>;

/** A session verify whose transaction is not mined yet (HTTP 202 with `Retry-After`). */
export const sessionPendingLaunchWire = pendingConfirmationWire.extend({
  verified: z.literal(false),
  persisted: z.literal(false),
  redirect_ready: z.literal(false),
  token_url: z.null(),
});
/** A pending session verify's body without the `ok` flag. */
export type SessionPendingLaunchBody = z.infer<typeof sessionPendingLaunchWire>;
