/**
 * The swap build routes (docs/trade.md), one per surface, thin over {@link buildSwap}:
 *
 * - `POST /api/evm/evmchain/build-swap` (session surface; mounted by `sessionRoutes`, behind its
 *   per-IP limit): CSRF (header + body `csrf_token`), and the session must have signed in
 *   (EIP-4361) as the body's `wallet`.
 * - `POST /api/v1/evmchain/swaps/build` (key-authenticated; mounted by `v1Surface` behind the key,
 *   its per-key limit and scope `evmchain:launch:build`): the body's `wallet` must be the key's.
 *
 * Both also count builds per proven wallet (`swapBuildsPerMinute`, store-backed): every build costs
 * several RPC reads. The app's body parser has already refused `to`, `data`, `router`, `pool`, key
 * material and the like (400 `forbidden_field`) before these handlers run.
 */
import { Hono, type MiddlewareHandler } from "hono";
import type { Store } from "../../store/index";
import { ApiError } from "../errors";
import { sendOk } from "../json";
import { currentKey, type TrustEnv } from "../middleware/context";
import { assertSessionWallet } from "../session/csrf";
import { storeRateLimiter } from "../middleware/rateLimit";
import { documented } from "../openapi/describe";
import { describedInput, parseJsonBody } from "../validation";
import {
  buildSwap,
  SWAP_BUILD_ERRORS,
  sessionSwapBuildSchema,
  swapBuildSchema,
  swapBuildWire,
  type SwapFlowDeps,
} from "../../launches/swapFlow";

/** What the swap routes need. */
export type SwapRoutesDeps = SwapFlowDeps & {
  getStore: () => Promise<Store>;
  /** Swap builds per proven wallet per minute (`LIMITS.swapBuildsPerMinute`). */
  buildsPerMinute: number;
  /** The app's clock, unix ms (the per-minute windows; default: the wall clock). */
  nowMs?: () => number;
};

const DESCRIPTION =
  "The service quotes with QuoterV2 and encodes a call to its own SwapRouter (1 % pool of the token): the client never chooses the router, pool or calldata. `amount_in_wei` is wei of ETH for a buy, token base units for a sell; the minimum out is the quote less `slippage_bps` (default 100 = 1 %, at most 5000). A sell whose allowance is short also gets `approval` to send first. Nothing is stored. See docs/trade.md.";

function perWalletLimiter(deps: SwapRoutesDeps, wallet: (c: Parameters<MiddlewareHandler<TrustEnv>>[0]) => string) {
  return storeRateLimiter({
    getStore: deps.getStore,
    nowMs: deps.nowMs,
    prefix: "swap:",
    limit: deps.buildsPerMinute,
    key: (c) => wallet(c).toLowerCase(),
  });
}

/**
 * The session route (mount on the session router at `/`).
 * @param csrf - the session surface's `requireCsrf` guard
 */
export function swapSessionRoutes(deps: SwapRoutesDeps, csrf: MiddlewareHandler<TrustEnv>) {
  return (
    new Hono<TrustEnv>()
      /**
       * POST /api/evm/evmchain/build-swap `{wallet, token, side, amount_in_wei, slippage_bps?,
       * csrf_token}` + `X-CSRF-Token` — the unsigned swap (and approval) for the signed-in wallet.
       * 200 `{ok, side, wallet, token, transaction, approval, token_in, token_out, pool_fee,
       * amount_in_wei, expected_amount_out_wei, minimum_amount_out_wei, slippage_bps,
       * deadline_sec, allowance_wei, gas_limit, gas_estimated, quoted_at_block}`. Errors: 400
       * `invalid_request` / `invalid_address` / `forbidden_field` / `amount_out_of_range`, 403
       * `csrf_failed` / `sign_in_required` / `wallet_mismatch`, 404 `token_not_found`, 422
       * `insufficient_balance` / `no_liquidity` / `swap_simulation_failed`, 429 `rate_limited`,
       * 503 `chain_unavailable`.
       */
      .post(
        "/build-swap",
        documented({
          tag: "session",
          summary: "Build the unsigned buy or sell of a launched token for the signed-in wallet",
          description: DESCRIPTION,
          ok: swapBuildWire,
          errors: [...SWAP_BUILD_ERRORS, "sign_in_required"],
        }),
        describedInput("json", sessionSwapBuildSchema),
        csrf,
        // Counted per signed-in wallet (per session before sign-in, which then fails anyway).
        perWalletLimiter(deps, (c) => c.get("session")?.wallet ?? `session:${c.get("session")?.id}`),
        async (c) => {
          const { csrf_token: _csrf, ...body } = await parseJsonBody(c, sessionSwapBuildSchema);
          assertSessionWallet(c, body.wallet, "wallet");
          c.header("Cache-Control", "no-store");
          return sendOk(c, await buildSwap(deps, body));
        },
      )
  );
}

/** The key-authenticated route (mount on the v1 surface at `/evmchain`, after its auth middleware). */
export function swapV1Routes(deps: SwapRoutesDeps) {
  return (
    new Hono<TrustEnv>()
      /**
       * POST /api/v1/evmchain/swaps/build `{wallet, token, side, amount_in_wei, slippage_bps?}`
       * (scope `evmchain:launch:build`) — the same build as the session route, for the wallet
       * the API key belongs to. 200 as `build-swap`; errors as `build-swap` without the session
       * ones (403 `wallet_mismatch` when `wallet` is not the key's wallet).
       */
      .post(
        "/swaps/build",
        documented({
          tag: "v1",
          summary: "Build the unsigned buy or sell of a launched token for the API key's wallet",
          description: DESCRIPTION,
          ok: swapBuildWire,
          errors: SWAP_BUILD_ERRORS,
        }),
        describedInput("json", swapBuildSchema),
        perWalletLimiter(deps, (c) => currentKey(c).wallet),
        async (c) => {
          const body = await parseJsonBody(c, swapBuildSchema);
          const keyWallet = currentKey(c).wallet;
          if (keyWallet.toLowerCase() !== body.wallet.toLowerCase()) {
            throw new ApiError(
              "wallet_mismatch",
              `wallet ${body.wallet} is not the wallet of this API key (${keyWallet}); a key builds only for its own wallet`,
            );
          }
          c.header("Cache-Control", "no-store");
          return sendOk(c, await buildSwap(deps, body));
        },
      )
  );
}
