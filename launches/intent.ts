import { createHash, randomBytes } from "node:crypto";
import type { Address } from "viem";
import type { Deployment } from "../config/deployment";
import type { NewLaunch } from "../store/launches";
import { canonicalJson } from "../src/domain/json";
import type { IntentRequest } from "./intentRequest";

/** Prefix of every launch id. */
export const LAUNCH_ID_PREFIX = "lnch_";
/** How long an intent may be signed and built: 15 minutes. */
export const INTENT_TTL_SEC = 15 * 60;
/** The metadata the message commits to, with `null` for omitted fields. */
export function intentMetadata(req: IntentRequest) {
  return {
    description: req.description ?? null,
    image_url: req.image_url ?? null,
    telegram_url: req.telegram_url ?? null,
    twitter_url: req.twitter_url ?? null,
    website_url: req.website_url ?? null,
  };
}

/** SHA-256 (hex) of the canonical JSON of {@link intentMetadata}. */
export function metadataSha256(req: IntentRequest): string {
  return createHash("sha256")
    .update(canonicalJson(intentMetadata(req)), "utf8")
    .digest("hex");
}

/** A fresh launch id: `lnch_` + 24 hex characters (96 random bits). */
export function newLaunchId(): string {
  return LAUNCH_ID_PREFIX + randomBytes(12).toString("hex");
}

/** Everything the intent message states. */
export type IntentMessageFields = {
  domain: string;
  uri: string;
  creator: Address;
  chainId: number;
  factory: Address;
  launchId: string;
  name: string;
  symbol: string;
  firstBuyWei: string;
  slippageBps: number;
  metadataSha256: string;
  /**
   * The metadata itself, stated in words before its hash, so the creator sees what the token's
   * page will show (the links, image and description); absent fields are omitted.
   */
  metadata?: ReturnType<typeof intentMetadata>;
  issuedAtSec: number;
  expiresAtSec: number;
};

/** Message labels of the metadata fields, in message order. */
const METADATA_LINES = [
  ["description", "Description"],
  ["website_url", "Website"],
  ["twitter_url", "X"],
  ["telegram_url", "Telegram"],
  ["image_url", "Image"],
] as const;

const iso = (sec: number) => new Date(sec * 1000).toISOString();

/**
 * The message the creator signs with personal_sign, in the EIP-4361 layout (domain line, address
 * line, statement, then `Key: value` lines). Deterministic: the same fields give the same text.
 *
 * @example
 * buildIntentMessage({ domain: "launch.example", creator: "0xf39F…", chainId: 4663, … })
 * // "launch.example wants you to authorize a token launch with your Ethereum account:\n0xf39F…\n\n…"
 */
export function buildIntentMessage(f: IntentMessageFields): string {
  return [
    `${f.domain} wants you to authorize a token launch with your Ethereum account:`,
    f.creator,
    "",
    `Launch ${f.name} (${f.symbol}) through the factory below. Your wallet signs and sends the transaction; the service never holds your keys.`,
    "",
    `URI: ${f.uri}`,
    "Version: 1",
    `Chain ID: ${f.chainId}`,
    `Nonce: ${f.launchId.slice(LAUNCH_ID_PREFIX.length)}`,
    `Issued At: ${iso(f.issuedAtSec)}`,
    `Expiration Time: ${iso(f.expiresAtSec)}`,
    `Launch ID: ${f.launchId}`,
    `Factory: ${f.factory}`,
    `Token Name: ${f.name}`,
    `Token Symbol: ${f.symbol}`,
    `First Buy (wei): ${f.firstBuyWei}`,
    `Slippage (bps): ${f.slippageBps}`,
    // The description may hold line breaks: it is quoted as a JSON string, one line.
    ...METADATA_LINES.flatMap(([field, label]) => {
      const value = f.metadata?.[field];
      if (value === null || value === undefined) return [];
      return [`${label}: ${field === "description" ? JSON.stringify(value) : value}`];
    }),
    `Metadata SHA-256: ${f.metadataSha256}`,
  ].join("\n");
}

/** The intent's 201 body: the launch's id and state, and the intent the creator signs (`intent.message`). */
export type IntentBody = {
  launch_id: string;
  state: "intent_created";
  intent: {
    message: string;
    issued_at_sec: number;
    expires_at_sec: number;
    chain_id: number;
    factory: Address;
    creator: Address;
    name: string;
    symbol: string;
    /** Decimal wei. */
    first_buy_wei: string;
    slippage_bps: number;
    metadata: ReturnType<typeof intentMetadata>;
    metadata_sha256: string;
  };
};

/**
 * Builds the launch row and the response body of a new intent.
 * @param nowSec - unix seconds
 * @returns `launch` (to insert) and `body` (201 response fields)
 */
export function prepareIntent(input: {
  request: IntentRequest;
  deployment: Pick<Deployment, "chainId" | "contracts">;
  publicBaseUrl: string;
  apiKeyId: string;
  nowSec: number;
  /** Intent lifetime in seconds (default {@link INTENT_TTL_SEC}; `LAUNCH_INTENT_TTL_SEC`). */
  ttlSec?: number;
}): { launch: NewLaunch; body: IntentBody } {
  const { request: req, deployment } = input;
  const launchId = newLaunchId();
  const base = new URL(input.publicBaseUrl);
  const fields: IntentMessageFields = {
    domain: base.host,
    uri: base.origin,
    creator: req.creator,
    chainId: deployment.chainId,
    factory: deployment.contracts.launchFactory,
    launchId,
    name: req.name,
    symbol: req.symbol,
    firstBuyWei: req.first_buy_wei,
    slippageBps: req.slippage_bps,
    metadataSha256: metadataSha256(req),
    metadata: intentMetadata(req),
    issuedAtSec: input.nowSec,
    expiresAtSec: input.nowSec + (input.ttlSec ?? INTENT_TTL_SEC),
  };
  const message = buildIntentMessage(fields);
  const nowMs = input.nowSec * 1000;
  const launch: NewLaunch = {
    id: launchId,
    surface: "v1",
    apiKeyId: input.apiKeyId,
    state: "intent_created",
    chainId: fields.chainId,
    factory: fields.factory,
    creator: fields.creator,
    name: fields.name,
    symbol: fields.symbol,
    description: req.description ?? null,
    imageUrl: req.image_url ?? null,
    websiteUrl: req.website_url ?? null,
    twitterUrl: req.twitter_url ?? null,
    telegramUrl: req.telegram_url ?? null,
    firstBuyWei: fields.firstBuyWei,
    slippageBps: fields.slippageBps,
    metadataSha256: fields.metadataSha256,
    intentMessage: message,
    issuedAtSec: fields.issuedAtSec,
    expiresAtSec: fields.expiresAtSec,
    createdAtMs: nowMs,
    updatedAtMs: nowMs,
  };
  const body: IntentBody = {
    launch_id: launchId,
    state: "intent_created",
    intent: {
      message,
      issued_at_sec: fields.issuedAtSec,
      expires_at_sec: fields.expiresAtSec,
      chain_id: fields.chainId,
      factory: fields.factory,
      creator: fields.creator,
      name: fields.name,
      symbol: fields.symbol,
      first_buy_wei: fields.firstBuyWei,
      slippage_bps: fields.slippageBps,
      metadata: intentMetadata(req),
      metadata_sha256: fields.metadataSha256,
    },
  };
  return { launch, body };
}
