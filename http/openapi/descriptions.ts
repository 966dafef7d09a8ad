/**
 * The `description` of every operation whose route does not write its own (docs/openapi.md): what
 * the operation does for a client, its units, paging and caching rules, and where the full rules
 * are documented. Keyed by `METHOD /path` as the document spells it; `buildOpenApiDocument` fills
 * them in, and `http/openapi/descriptions.test.ts` fails on a key that names no operation, so the
 * table cannot drift from the routes. Error codes are not repeated here: each response lists its
 * own.
 */
export const OPERATION_DESCRIPTIONS: Readonly<Record<string, string>> = {
  "GET /api/v1":
    "The key-authenticated surface's descriptor: interface version, base paths, scopes and the rate limits a key gets. Open (no key needed); per-IP limited.",
  "GET /api/v1/ready":
    'Readiness for load balancers: 200 while the indexed head is within `READY_MAX_LAG_BLOCKS` of the chain head and still progressing; 503 `service_unavailable` with `status` `degraded` or `stalled` and a `reason` otherwise. Open; per-IP limited (docs/operations.md "Readiness and stalls").',
  "GET /api/v1/health":
    "Operator health: the offchain store's latency, the RPC's chain id and head, and the indexer's readiness. 200 when all are ok, 503 otherwise, with the same body. Open; per-IP limited.",
  "POST /api/v1/evmchain/launches/build":
    "Step 2 of the launch flow: checks the creator's `personal_sign` (EIP-191) signature of the intent's `message` and returns the unsigned launch transaction (`to`, `data`, `value` in wei, `gas`, `chainId`) for the creator's wallet to sign and broadcast. The service never holds a key. Scope `evmchain:launch:build`.",
  "POST /api/v1/evmchain/launches/confirm":
    "Step 3: verifies the broadcast transaction against the accepted factories (receipt, LP lock in the fee locker, the first buy and its minimum) and persists the launch and its token page. 202 with `Retry-After` while the receipt or the indexer's row is not there yet; repeating a confirm is idempotent. Scope `evmchain:launch:confirm`.",
  "GET /api/v1/evmchain/launches/status":
    "The launch's state record (`intent` → `built` → `confirmed`, or `expired`), by `launch_id` or `tx_hash`, for this key's launches only (another key's launch is 404). Scope `evmchain:launch:read`.",
  "POST /api/v1/evmchain/media/upload":
    "Uploads a token logo as `multipart/form-data` (field `image`: PNG, JPEG, WebP or GIF, at most 2 MiB and 4,096 px per side). The image is decoded, stripped of metadata, re-encoded and served from `/media/…` (immutable); the returned URL is accepted as an intent's `image_url`. Scope `evmchain:launch:build`.",
  "GET /api/v1/evmchain/tokens/{address}":
    "The canonical token record (market figures in wei and USD, 24 h statistics, creator metadata) with its top holders. Scope `evmchain:market:read`.",
  "GET /api/v1/evmchain/tokens/{address}/holders":
    "A token's holders, largest balance first (balances in token base units, shares in basis points of the supply), paged by `cursor`. The pool and the fee locker are flagged. Scope `evmchain:market:read`.",
  "GET /api/v1/evmchain/tokens/{address}/trades":
    "The token's swaps as trades (side, amounts in wei and token base units, price, trader, block and log index), newest first, paged by `cursor` and/or `before_timestamp` (unix seconds). Scope `evmchain:market:read`.",
  "POST /api/v1/coins/create-transaction":
    "The coin flow's build step (the same use case as `POST /api/v1/evmchain/launches/build`, addressed by `draft_id`): checks the creator's signature of the draft's message and returns the unsigned launch transaction. Scope `evmchain:launch:build`.",
  "POST /api/v1/coins/finalize":
    "The coin flow's confirm step (as `POST /api/v1/evmchain/launches/confirm`, by `draft_id`): verifies the broadcast launch and persists it; 202 with `Retry-After` while pending. Scope `evmchain:launch:confirm`.",
  "GET /api/v1/coins/status":
    "A coin draft's state record (as `GET /api/v1/evmchain/launches/status`, by `draft_id` or `tx_hash`). Scope `evmchain:launch:read`.",
  "GET /api/evm/evmchain/session":
    "Starts or continues a browser session: sets the HttpOnly, SameSite=Strict session cookie and returns the session's CSRF token and the wallet it signed in with, if any. Every session POST sends the token in `X-CSRF-Token` and in the body's `csrf_token`.",
  "POST /api/evm/evmchain/sign-in/challenge":
    "Issues a one-time Sign-In with Ethereum (EIP-4361) message for `wallet`, bound to this session, valid for a few minutes. The wallet signs it with `personal_sign`.",
  "POST /api/evm/evmchain/sign-in":
    "Signs the session in with the wallet's signature of its challenge (EOA or ERC-1271 / ERC-6492 smart account). The session cookie rotates; the challenge is spent.",
  "POST /api/evm/evmchain/sign-out":
    "Forgets the wallet this session signed in with; the session and its CSRF token stay.",
  "POST /api/evm/evmchain/api-keys/challenge":
    "Issues a one-time EIP-4361 message whose signature both signs the session in and creates an API key for the wallet (bounded per session and per wallet).",
  "POST /api/evm/evmchain/api-keys":
    "Creates an API key from the signed challenge (and signs the session in). The secret (`sk_live_…`) is in this answer only; the store keeps its hash. Bounded per wallet (`API_KEYS_PER_WALLET`).",
  "GET /api/evm/evmchain/status":
    "What the launch page needs before it asks a wallet for anything: the chain as EIP-3085 `wallet_addEthereumChain` parameters, the launch factory's live parameters, and the service's readiness.",
  "POST /api/evm/evmchain/build-direct-v3-launch":
    "Builds the unsigned launch transaction for the session's signed-in wallet (name, symbol, first buy in wei with its slippage bound, metadata). The wallet signs and broadcasts it; nothing is stored until it is verified.",
  "POST /api/evm/evmchain/verify-direct-v3-launch":
    "Verifies a broadcast launch of this session's build against the accepted factories. With `write: true` it persists the launch and its metadata and reports `redirect_ready` and `token_url` once the indexer has the token.",
  "GET /api/evm/evmchain/creator-rewards":
    "A creator's LP fees per launched token: claimed (from the fee locker's logs) and uncollected (the creator's 70% share, floored per position as the fee locker pays it), in wei of each token of the pair.",
  "POST /api/evm/evmchain/build-creator-rewards-claim":
    "Unsigned `collectFeesMany` transaction(s) of the fee locker for the signed-in creator's positions; the wallet signs and broadcasts them.",
  "GET /media/{file}":
    "An uploaded, re-encoded image. Content-addressed, so cached as immutable; served with a sandboxing CSP and `nosniff`.",
  "GET /api/public":
    "The public surface's descriptor: interface version, endpoints, per-IP limits and the events feed's confirmation depth.",
  "GET /api/public/udf/time":
    "The server clock as unix seconds, as TradingView's UDF adapter asks for it (`text/plain`).",
  "GET /api/public/tokens/new": "Launched tokens, newest launch first, with market figures; paged by `cursor`.",
  "GET /api/public/tokens/trending":
    'Tokens traded in the last 24 hours ranked by trending score (docs/public.md "Trending"); paged by `cursor`.',
  "GET /api/public/tokens/graduating":
    "Tokens not yet graduated (market cap below `GRADUATION_MARKET_CAP_WEI`), closest to graduation first; paged by `cursor`.",
  "GET /api/public/search":
    'Searches launched tokens by address prefix, symbol, name or slug (case-insensitive), ranked exact match first (docs/public.md "Search").',
  "GET /api/public/token/{address_or_slug}":
    "One token record by checksummed or any-case address, or by slug, with its top holders. 404 `token_not_found` for an address no accepted factory launched.",
  "GET /api/public/token/{address_or_slug}/holders":
    "A token's holders, largest balance first (token base units, basis points of supply); paged by `cursor`.",
  "GET /api/public/token/{address_or_slug}/trades":
    "A token's trades, newest first (amounts in wei and token base units); paged by `cursor` and/or `before_timestamp`.",
  "GET /api/public/token/{address_or_slug}/candles":
    "A token's OHLCV candles at `resolution` (1m … 1d), oldest first, between `from` and `to` (unix seconds, inclusive) or the last `countback` buckets; prices in wei per whole token (or USD with `currency=usd`); `format=udf` answers TradingView's `{s, t, o, h, l, c, v}` arrays.",
  "GET /api/public/trades/recent": "Trades of every launched token, newest first; paged by `cursor`.",
  "GET /api/public/events":
    "The events feed: launches, trades, big buys, graduations and fee collections, confirmed (`EVENTS_CONFIRMATION_BLOCKS` below the indexed head and at or below the indexer's finalized block; or also pending ones with `include_pending`), in chain order after `since_id`. Ids are stable and reorg-safe: poll with the last id seen.",
  "GET /api/public/integrations/evmchain/launches":
    "Launches with their token records for integrators, sorted by `sort` (new, old, market_cap, volume, trades); paged by `cursor`.",
  "GET /api/public/integrations/evmchain/token-metadata":
    "Name, symbol, decimals, total supply, the creator's metadata and links of one launched token.",
  "GET /api/public/integrations/evmchain/factories":
    "The accepted launch factories and the `TokenLaunched` event's topic0, so an integrator can follow launches on chain itself.",
  "GET /api/public/integrations/partner-a/evmchain/tokens":
    "Partner A's feed: launched tokens by increasing `orderId`, from the given `orderId` on.",
  "GET /api/public/integrations/partner-b/evmchain/launches":
    "Partner B's feed: launches, sorted and paged as that partner expects.",
  "GET /api/public/integrations/partner-b/evmchain/status": "Partner B's feed: one launch's status by token address.",
  "GET /api/public/integrations/dexscreener/evmchain/latest-block":
    "DEX Screener adapter: the newest confirmed block the `/events` endpoint serves (DEX Screener Adapter Specs).",
  "GET /api/public/integrations/dexscreener/evmchain/asset":
    "DEX Screener adapter: a launched token or WETH, with its supply in whole units.",
  "GET /api/public/integrations/dexscreener/evmchain/pair":
    "DEX Screener adapter: a launch pool (asset0/asset1 = token0/token1, `feeBps` 100, the creation block and transaction).",
  "GET /api/public/integrations/dexscreener/evmchain/events":
    "DEX Screener adapter: swap and join events of launch pools in the inclusive block range `fromBlock`..`toBlock` (at most 1,000 blocks), with reserves after each event.",
  "GET /token-list/evmchain.json":
    "Launched tokens as a Uniswap token list (https://uniswap.org/tokenlist.schema.json), versioned by content; supports `If-None-Match`.",
  "GET /feed/new-launches.xml": "RSS 2.0 feed of the newest launches (one item per token, with its page link).",
  "GET /feed/big-buys.xml":
    "RSS 2.0 feed of buys of at least `BIG_BUY_THRESHOLD_WEI` (one item per trade, with the token's page link).",
  "GET /feed/graduations.xml": "RSS 2.0 feed of tokens whose market cap reached `GRADUATION_MARKET_CAP_WEI`.",
  "GET /": "The home page (HTML): search, trending tokens, tokens about to graduate and new launches.",
  "GET /launch": "The launch page (HTML): a form that builds, signs (in the browser wallet) and verifies a launch.",
  "GET /token/{address}":
    "A token's page (HTML): metadata, market figures, price chart, trades, creator fees and contract addresses.",
  "GET /t/{slug}": "A short link by slug: redirects (302, `Location`) to the token's page.",
  "GET /static/token-default.png": "The image shown for a token whose creator set none.",
  "GET /assets/{name}": "Scripts, the stylesheet and vendored browser modules of the pages.",
  "GET /api/openapi.json":
    "This document: every route the service serves, with its parameters, bodies, responses and errors.",
  "GET /api/docs":
    "An interactive reference of this document (Swagger UI, served by the service itself: no third-party request).",
  "GET /api/docs/init.js": "The script that starts the interactive reference on this document.",
  "GET /api/docs/{asset}": "Swagger UI's script and stylesheet for the interactive reference.",
};
