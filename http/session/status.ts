/**
 * `GET /api/evm/evmchain/status` on the session surface: what a wallet needs before sending a built
 * launch (EIP-3085 network parameters, the factory and its live minimum liquidity) and whether the
 * service is ready. Open (no CSRF: a read), under the per-IP session limit of the surface.
 */
import { Hono } from "hono";
import { z } from "zod";
import type { PublicClient } from "viem";
import { launchFactoryAbi } from "../../abis/LaunchFactory";
import type { Deployment } from "../../config/deployment";
import { redactPrivateUrls } from "../../config/redact";
import { hasPublicRpc, type AddEthereumChainParameter } from "../../chain/network";
import type { ChainProbeResult } from "../../ops/chainProbe";
import { sendOk } from "../json";
import type { TrustEnv } from "../middleware/context";
import { documented } from "../openapi/describe";
import { addressWire, okBody } from "../../src/domain/wire";
import type { Readiness } from "../../ops/readiness";
import { SOURCE_TIMEOUT_MS, withTimeout } from "../../market/timeout";

/** What the status route needs (built once by `createApp`). */
export type SessionStatusDeps = {
  deployment: Deployment;
  publicClient: PublicClient;
  /** The wallet's network parameters (`wallet_addEthereumChain`; public RPC URLs only). */
  network: AddEthereumChainParameter;
  /** The shared, cached RPC probe (ops/chainProbe.ts). */
  chainProbe: () => Promise<ChainProbeResult>;
  /** The service's readiness check (ops/readiness.ts). */
  readiness: () => Promise<Readiness>;
};

/** Builds the status route (mount at `/api/evm/evmchain`). */
export function sessionStatusRoutes(deps: SessionStatusDeps) {
  const { network, readiness } = deps;
  const probe = deps.chainProbe;
  return (
    new Hono<TrustEnv>()
      /**
       * GET /api/evm/evmchain/status — what a wallet needs before sending a built launch, and
       * whether the service is ready (spec: session surface; EIP-3085 / EIP-3326). Always 200:
       * `{ok, chain_id: "0x1237", chain_id_decimal, chain_name, native_currency {name, symbol,
       * decimals}, rpc_urls (PUBLIC_RPC_URL only, never the service's RPC_URL; [] when unset),
       * block_explorer_urls, wallet_add_ethereum_chain (the EIP-3085 parameter object, or null
       * without a public RPC URL), factory {address, accepted_factories, fee_locker,
       * minimum_pool_liquidity_wei (live, null when the RPC is down)}, readiness {ready (as
       * `GET /api/v1/ready`: the indexed head within `READY_MAX_LAG_BLOCKS` of the chain head and
       * not stalled; ops/readiness.ts), status (ok, degraded, stalled), reason (null when ready),
       * max_lag_blocks, max_indexed_age_sec, rpc {ok, chain_id, block_number}, indexer {ok,
       * block_number, age_sec (seconds since the indexed block), status, lag_blocks (null while
       * the RPC is down)}}}`. RPC probes are bounded to 2 s (a
       * stalled RPC is `rpc.ok: false`); the chain id / head probe is shared with
       * `/api/v1/health` and reused for one second (ops/chainProbe.ts).
       */
      .get(
        "/status",
        documented({
          tag: "session",
          summary: "Network (EIP-3085 parameters for wallet_addEthereumChain), factory and readiness",
          ok: okBody({
            chain_id: z.literal("0x1237").or(z.string()),
            chain_id_decimal: z.number().int(),
            chain_name: z.string(),
            rpc_urls: z.array(z.string()).meta({
              description:
                "PUBLIC_RPC_URL (comma-separated); never the service's own RPC URL; empty when not configured",
            }),
            wallet_add_ethereum_chain: z
              .record(z.string(), z.unknown())
              .nullable()
              .meta({ description: "EIP-3085 parameters, or null when no public RPC URL is configured" }),
            factory: z.looseObject({ address: addressWire, minimum_pool_liquidity_wei: z.string().nullable() }),
            readiness: z.looseObject({ ready: z.boolean() }),
          }),
        }),
        async (c) => {
          const [rpc, ready, minimum] = await Promise.all([
            // RPC probes are bounded (2 s: a stalled RPC reports `rpc.ok: false` instead of hanging)
            // and shared with /api/v1/health for one second (ops/chainProbe.ts).
            probe().then(({ checked_at_ms: _, ...rpc }) =>
              "error" in rpc
                ? {
                    ok: false,
                    chain_id: null,
                    block_number: null,
                    error: redactPrivateUrls(rpc.error, [deps.deployment.rpcUrl]),
                  }
                : rpc,
            ),
            // The service's readiness (ops/readiness.ts): indexed head against the chain head.
            readiness(),
            withTimeout(
              deps.publicClient.readContract({
                address: deps.deployment.contracts.launchFactory,
                abi: launchFactoryAbi,
                functionName: "minimumPoolLiquidityWei",
              }),
              SOURCE_TIMEOUT_MS,
            )
              .then((v) => v.toString())
              .catch(() => null),
          ]);
          const indexer =
            ready.indexed_block === null
              ? { ok: false, block_number: null, status: ready.status, error: ready.reason }
              : {
                  ok: true,
                  block_number: ready.indexed_block,
                  age_sec: ready.indexed_block_age_sec,
                  status: ready.status,
                  lag_blocks: ready.lag_blocks,
                };
          const reason = ready.reason === null ? null : redactPrivateUrls(ready.reason, [deps.deployment.rpcUrl]);
          c.header("Cache-Control", "no-store");
          return sendOk(c, {
            chain_id: network.chainId,
            chain_id_decimal: deps.deployment.chainId,
            chain_name: network.chainName,
            native_currency: network.nativeCurrency,
            rpc_urls: network.rpcUrls,
            block_explorer_urls: network.blockExplorerUrls ?? [],
            wallet_add_ethereum_chain: hasPublicRpc(network) ? network : null,
            factory: {
              address: deps.deployment.contracts.launchFactory,
              accepted_factories: deps.deployment.acceptedFactories,
              fee_locker: deps.deployment.contracts.feeLocker,
              minimum_pool_liquidity_wei: minimum,
            },
            readiness: {
              ready: rpc.ok && ready.ready,
              status: ready.status,
              reason,
              max_lag_blocks: ready.max_lag_blocks,
              max_indexed_age_sec: ready.max_indexed_age_sec,
              rpc,
              indexer,
            },
          });
        },
      )
  );
}
