/**
 * Integration feeds under `/api/public/integrations` (spec: Public surface; docs/public.md
 * "Integrations"): launches, token metadata and accepted factories for aggregators, and the two
 * partner feeds (`partnerFeeds.ts`).
 */
import { Hono } from "hono";
import { getAbiItem, getAddress, toEventSelector, toEventSignature } from "viem";
import { z } from "zod";
import { launchFactoryAbi } from "../../abis/LaunchFactory";
import { tokenUrl } from "../../src/domain/urls";
import { sendOk } from "../json";
import { launchesQuery } from "../market/params";
import { requireToken } from "../../market/tokenReads";
import { tokenMetadata } from "../../market/tokenRecord";
import { documented } from "../openapi/describe";
import { addressWire, okBody, uintString } from "../../src/domain/wire";
import { tokenWire } from "../../market/wire";
import { validate } from "../validation";
import { addressParam } from "../../src/domain/wire";
import { launchListBody, type PartnerFeedDeps, partnerFeedRoutes } from "./partnerFeeds";

/** What the integrations router reads. */
export type IntegrationsDeps = PartnerFeedDeps;

const addressQuery = z.object({ address: addressParam });

/** Builds the `/api/public/integrations` router. */
export function integrationsRoutes(deps: IntegrationsDeps) {
  const deployment = deps.deployment;
  const { nowSec } = deps;
  const launchedEvent = getAbiItem({ abi: launchFactoryAbi, name: "TokenLaunched" });

  return new Hono()
    .get(
      "/evmchain/launches",
      documented({
        tag: "integrations",
        summary: "Launches with their token records, sorted (new, old, market_cap, volume, trades)",
        ok: okBody({ sort: z.string(), launches: z.array(tokenWire), next_cursor: z.string().nullable() }),
        errors: ["invalid_request", "invalid_cursor"],
      }),
      validate("query", launchesQuery),
      async (c) => sendOk(c, await launchListBody(deps, c.req.valid("query"), (record) => record)),
    )
    .get(
      "/evmchain/token-metadata",
      documented({
        tag: "integrations",
        summary: "Name, symbol, supply, metadata and links of one token",
        ok: okBody({
          token: z.looseObject({
            chain_id: z.number().int(),
            address: addressWire,
            name: z.string(),
            symbol: z.string(),
            decimals: z.number().int(),
            total_supply: uintString,
          }),
        }),
        errors: ["invalid_request", "invalid_address", "token_not_found"],
      }),
      validate("query", addressQuery),
      async (c) => {
        const row = await requireToken(deps.db, c.req.valid("query").address, nowSec(), deps.storedMetadata);
        return sendOk(c, {
          token: {
            chain_id: deployment.chainId,
            address: getAddress(row.address),
            slug: row.slug,
            name: row.name,
            symbol: row.symbol,
            decimals: row.decimals,
            total_supply: row.totalSupply,
            creator: getAddress(row.creator),
            pool: getAddress(row.pool),
            quote_token: getAddress(row.weth),
            launch_timestamp_sec: Number(row.launchTimestampSec),
            ...tokenMetadata(row, deps),
            token_url: tokenUrl(deps.publicBaseUrl, row.address),
          },
        });
      },
    )
    .get(
      "/evmchain/factories",
      documented({
        tag: "integrations",
        summary: "Accepted launch factories and the launch event's topic0",
        ok: okBody({
          chain_id: z.number().int(),
          factories: z.array(
            z.looseObject({
              address: addressWire,
              current: z.boolean(),
              launch_event: z.string(),
              launch_event_topic0: z.string(),
            }),
          ),
        }),
      }),
      (c) =>
        sendOk(c, {
          chain_id: deployment.chainId,
          factories: deployment.acceptedFactories.map((address, i) => ({
            version: deployment.acceptedFactories.length - i,
            current: i === 0,
            address,
            start_block: deployment.startBlock,
            launch_event: toEventSignature(launchedEvent),
            launch_event_topic0: toEventSelector(launchedEvent),
            fee_locker: deployment.contracts.feeLocker,
            position_manager: deployment.contracts.nonfungiblePositionManager,
            quote_token: deployment.contracts.weth,
            pool_fee: deployment.launchFactory.poolFee,
            tick_spacing: deployment.launchFactory.tickSpacing,
            creator_fee_share_bps: 7000,
          })),
        }),
    )
    .route("/", partnerFeedRoutes(deps));
}
