/**
 * Index descriptors of the key-authenticated surface (`GET /api/v1`) and the public surface
 * (`GET /api/public`) (spec: Other records — descriptor fields; Versioning).
 */
import { Hono } from "hono";
import { IMAGE_LIMITS } from "../../media/image";
import { sendOk } from "../json";
import { z } from "zod";
import { documented } from "../openapi/describe";
import { okBody } from "../../src/domain/wire";
import { INTENT_CREATOR_RULE } from "../openapi/launchDocs";
import { OPENAPI_PATH, REFERENCE_PATH } from "../openapi/paths";
import { SCOPE_TABLE } from "../middleware/auth";
import type { TrustEnv } from "../middleware/context";
import type { Limits } from "../../config/limits";
import { IDEMPOTENCY_TTL_MS } from "../../store/idempotency";
import { API_KEY_PREFIX, DEFAULT_SCOPES } from "../../store/keys";
import { INTENT_TTL_SEC } from "../../launches/intent";
import { DEFAULT_SLIPPAGE_BPS, MAX_SLIPPAGE_BPS } from "../../src/domain/launchBounds";

/** Interface description version of `/api/v1` (spec: Versioning 1). */
export const V1_INTERFACE_VERSION = "1.0.0";

/** Operation name -> `METHOD path` of the key-authenticated surface. */
const V1_ENDPOINTS = {
  index: "GET /api/v1",
  health: "GET /api/v1/health",
  media_upload: "POST /api/v1/evmchain/media/upload",
  launch_intent: "POST /api/v1/evmchain/launches/intent",
  launch_build: "POST /api/v1/evmchain/launches/build",
  launch_confirm: "POST /api/v1/evmchain/launches/confirm",
  launch_status: "GET /api/v1/evmchain/launches/status",
  swap_build: "POST /api/v1/evmchain/swaps/build",
  tokens: "GET /api/v1/evmchain/tokens",
  token: "GET /api/v1/evmchain/tokens/{address}",
  token_trades: "GET /api/v1/evmchain/tokens/{address}/trades",
  token_candles: "GET /api/v1/evmchain/tokens/{address}/candles",
  token_holders: "GET /api/v1/evmchain/tokens/{address}/holders",
  token_integrity: "GET /api/v1/evmchain/tokens/{address}/integrity",
  coins_create_draft: "POST /api/v1/coins/create-draft",
  coins_create_transaction: "POST /api/v1/coins/create-transaction",
  coins_finalize: "POST /api/v1/coins/finalize",
  coins_status: "GET /api/v1/coins/status",
} as const;

/**
 * The `/api/v1` descriptor body (without `ok`).
 * @param limits - effective limits
 * @param intentTtlSec - the configured launch intent lifetime, seconds (`LAUNCH_INTENT_TTL_SEC`)
 */
export function v1Descriptor(
  publicBaseUrl: string,
  limits: Limits,
  requestId: string | undefined,
  intentTtlSec: number = INTENT_TTL_SEC,
) {
  return {
    name: "evmchain launch service",
    version: "v1",
    interface_version: V1_INTERFACE_VERSION,
    status: "ok",
    docs: `${publicBaseUrl}${REFERENCE_PATH}`,
    openapi: `${publicBaseUrl}${OPENAPI_PATH}`,
    authentication: {
      type: "bearer",
      header: "Authorization: Bearer <API_KEY>",
      key_prefix: API_KEY_PREFIX,
      scopes: [...DEFAULT_SCOPES],
      endpoint_scopes: Object.fromEntries(
        SCOPE_TABLE.map((r) => [`${r.method} ${r.path.replace(/:([a-z_]+)/g, "{$1}")}`, r.scope]),
      ),
      open_endpoints: [V1_ENDPOINTS.index, V1_ENDPOINTS.health],
      key_creation:
        "browser: POST /api/evm/evmchain/sign-in/challenge {wallet, create_api_key: true} then POST /api/evm/evmchain/sign-in (one EIP-4361 signature signs the session in and creates the key); operators: npm run keys -- create --wallet <address>",
    },
    base_url: `${publicBaseUrl}/api/v1`,
    endpoints: V1_ENDPOINTS,
    limits: {
      default_requests_per_minute: limits.v1RequestsPerMinute,
      default_coins_per_day: limits.coinsCreatedPerDay,
      default_finalized_coins_per_day: limits.coinsFinalizedPerDay,
      coin_quotas_per: "wallet",
      // Per client IP, over all its wallets and keys (docs/trust.md "Limits", "Throw-away wallets").
      requests_per_minute_per_client: limits.v1ClientRequestsPerMinute,
      coins_per_day_per_client: limits.coinsCreatedPerIpPerDay,
      finalized_coins_per_day_per_client: limits.coinsFinalizedPerIpPerDay,
      active_keys_per_wallet: limits.activeKeysPerWallet,
      keys_created_per_session_per_hour: limits.keysPerSessionPerHour,
      keys_created_per_client_per_hour: limits.keysPerIpPerHour,
      idempotency_key_ttl_sec: IDEMPOTENCY_TTL_MS / 1000,
      intent_ttl_sec: intentTtlSec,
      image_max_bytes: IMAGE_LIMITS.maxBytes,
      image_max_side_px: IMAGE_LIMITS.maxWidth,
      image_max_pixels: IMAGE_LIMITS.maxPixels,
      image_formats: [...IMAGE_LIMITS.formats],
      name_max_chars: 32,
      symbol_max_chars: 11,
      description_max_chars: 1000,
      url_max_chars: 256,
      slippage_bps_max: MAX_SLIPPAGE_BPS,
      slippage_bps_default: DEFAULT_SLIPPAGE_BPS,
      first_buy_wei_max: "100000000000000000000",
      trades_limit_max: 200,
    },
    notes: [
      "Every request except this descriptor and /api/v1/health needs Authorization: Bearer <API_KEY>; keys are server-side secrets.",
      "Every response carries X-Request-Id; errors are {ok:false, error, message, request_id}.",
      "Rate limit headers (IETF RateLimit / RateLimit-Policy, draft 7) are on every authenticated response; 429 carries Retry-After.",
      "POST /api/v1/evmchain/launches/intent requires an Idempotency-Key header; records are kept 24 hours.",
      "Amounts are decimal strings in wei; times are unix seconds (*_sec); addresses are checksummed.",
      "The creator signs intent.message with personal_sign; the wallet signs and broadcasts, the service never holds keys.",
      INTENT_CREATOR_RULE,
      "The daily coin quotas count per wallet, over all API keys of the key's wallet; a wallet holds at most limits.active_keys_per_wallet active keys.",
    ],
    request_id: requestId,
  };
}

/**
 * The `/api/public` descriptor body (without `ok`): the read-only public surface.
 */
function publicDescriptor(publicBaseUrl: string, limits: Limits) {
  return {
    name: "evmchain launch service public API",
    version: "public-v1",
    base_url: `${publicBaseUrl}/api/public`,
    docs: `${publicBaseUrl}${REFERENCE_PATH}`,
    openapi: `${publicBaseUrl}${OPENAPI_PATH}`,
    well_known: {
      token_list: `${publicBaseUrl}/token-list/evmchain.json`,
      api_v1: `${publicBaseUrl}/api/v1`,
    },
    authentication: {
      type: "none",
      note: "read-only; no credentials",
      rate_limit_per_minute_per_ip: limits.publicRequestsPerMinute,
    },
    endpoints: {
      tokens_new: "GET /api/public/tokens/new?limit=<n>",
      tokens_trending: "GET /api/public/tokens/trending?limit=<n>",
      tokens_graduating: "GET /api/public/tokens/graduating?limit=<n>",
      token: "GET /api/public/token/{address_or_slug}",
      token_trades: "GET /api/public/token/{address_or_slug}/trades?limit=<n>",
      token_holders: "GET /api/public/token/{address_or_slug}/holders?limit=<n>",
      token_integrity: "GET /api/public/token/{address_or_slug}/integrity",
      token_candles:
        "GET /api/public/token/{address_or_slug}/candles?resolution=<1s|15s|1m|5m|15m|1h|4h|1d>&from=<unix_sec>&to=<unix_sec>",
      trades_recent: "GET /api/public/trades/recent?limit=<n>",
      events: "GET /api/public/events?since_id=<id>&limit=<n>",
      token_list: "GET /token-list/evmchain.json?limit=<n>",
      integrations_launches: "GET /api/public/integrations/evmchain/launches?sort=<sort>&limit=<n>",
      integrations_token_metadata: "GET /api/public/integrations/evmchain/token-metadata?address=<address>",
      integrations_factories: "GET /api/public/integrations/evmchain/factories",
      media: "GET /media/{id}.{ext}",
    },
    feeds: [
      `${publicBaseUrl}/feed/new-launches.xml`,
      `${publicBaseUrl}/feed/big-buys.xml`,
      `${publicBaseUrl}/feed/graduations.xml`,
    ],
  };
}

/** `GET /api/public` — the public descriptor; mounted by the app before the public router. */
export function publicDescriptorRoutes(deps: { publicBaseUrl: string; limits: Limits }) {
  return new Hono<TrustEnv>().get(
    "/",
    documented({
      tag: "public",
      summary: "Index descriptor of the public surface",
      ok: okBody({
        name: z.string(),
        version: z.literal("public-v1"),
        base_url: z.string(),
        docs: z.string(),
        well_known: z.unknown(),
        authentication: z.unknown(),
        endpoints: z.record(z.string(), z.string()),
        feeds: z.array(z.string()),
      }),
    }),
    (c) => sendOk(c, { ...publicDescriptor(deps.publicBaseUrl, deps.limits), request_id: c.get("requestId") }),
  );
}
