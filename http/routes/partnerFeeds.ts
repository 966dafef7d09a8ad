/**
 * The two partner feeds under `/api/public/integrations` (docs/public.md "Integrations"), whose
 * path segments come from `PARTNER_A_SLUG` / `PARTNER_B_SLUG`.
 */
import { confirmedHeadBlock } from "../../market/confirmedBound";
import { Hono } from "hono";
import { getAddress } from "viem";
import { z } from "zod";
import type { Deployment } from "../../config/deployment";
import { tokenUrl } from "../../src/domain/urls";
import { ApiError } from "../errors";
import { sendOk } from "../json";
import type { MarketReadDeps } from "../../market/readDeps";
import { launchesQuery } from "../market/params";
import { requireToken, tokenListPage } from "../../market/tokenReads";
import { tokenPage } from "../../market/tokenLists";
import { tokenRecord } from "../../market/tokenRecord";
import { documented } from "../openapi/describe";
import { addressWire, okBody, uintString } from "../../src/domain/wire";
import { limitParam, validate } from "../validation";
import { addressParam } from "../../src/domain/wire";

/** What the partner feeds read. */
export type PartnerFeedDeps = MarketReadDeps & { deployment: Deployment };

const addressQuery = z.object({ address: addressParam });
const orderIdQuery = z.object({
  orderId: z.coerce
    .number({ message: "orderId must be an integer" })
    .int("orderId must be an integer")
    .min(0)
    .max(2 ** 31)
    .default(0),
  limit: limitParam(100, 500),
});

/** A token record as the launch lists serve it ({@link tokenRecord}). */
export type TokenRecord = ReturnType<typeof tokenRecord>;

/**
 * Body of a launch list (the integrations launch feed and partner B's): one page of launches in
 * `sort` order, each token record shaped by `toLaunch`, and the cursor of the next page.
 * @param query the validated `launchesQuery` (`sort`, `limit`, `cursor`)
 * @param toLaunch picks the fields a feed serves from a token record
 * @returns `{ sort, launches, next_cursor }`; `next_cursor` is null on the last page
 * @throws ApiError `invalid_cursor` when the cursor was not issued by this list
 */
export async function launchListBody<Launch>(
  deps: PartnerFeedDeps,
  query: z.infer<typeof launchesQuery>,
  toLaunch: (record: TokenRecord) => Launch,
) {
  const { sort, limit, cursor } = query;
  const page = await tokenListPage(deps.db, deps.nowSec(), { sort, limit, cursor }, deps.storedMetadata);
  return {
    sort,
    launches: page.rows.map((r) => toLaunch(tokenRecord(r, deps))),
    next_cursor: page.next_cursor,
  };
}

/** Builds the partner feeds (mounted inside the integrations router). */
export function partnerFeedRoutes(deps: PartnerFeedDeps) {
  const config = deps.publicConfig;
  const { deployment, nowSec } = deps;
  return (
    new Hono()
      // Confirmed launches only, so a reorg never reuses an order id.
      .get(
        `/${config.partnerASlug}/evmchain/tokens`,
        documented({
          tag: "integrations",
          summary: "Partner A feed: tokens by increasing orderId",
          ok: okBody({
            tokens: z.array(
              z.looseObject({
                orderId: z.number().int(),
                chainId: z.number().int(),
                address: addressWire,
                name: z.string(),
                symbol: z.string(),
              }),
            ),
          }),
          errors: ["invalid_request"],
        }),
        validate("query", orderIdQuery),
        async (c) => {
          const { orderId, limit } = c.req.valid("query");
          // The one confirmed bound (market/confirmedBound.ts): an order id handed out is never reverted.
          const confirmed = await confirmedHeadBlock(deps.db, config.confirmationBlocks);
          if (confirmed === null) throw new ApiError("not_indexed_yet", "the indexer has not processed a block yet");
          const rows = await tokenPage(deps.db, { sort: "old", limit, minSeq: orderId, maxLaunchBlock: confirmed });
          return sendOk(c, {
            tokens: rows.map((r) => ({
              orderId: r.launchSeq,
              chainId: deployment.chainId,
              address: getAddress(r.address),
              name: r.name,
              symbol: r.symbol,
              decimals: r.decimals,
              totalSupply: r.totalSupply,
              creator: getAddress(r.creator),
              pool: getAddress(r.pool),
              quoteToken: getAddress(r.weth),
              createdAtSec: Number(r.launchTimestampSec),
              createdAtBlock: Number(r.launchBlockNumber),
              txHash: r.launchTxHash,
              imageUrl: config.defaultImageUrl(deps.publicBaseUrl),
              url: tokenUrl(deps.publicBaseUrl, r.address),
            })),
            nextOrderId: rows.at(-1)?.launchSeq ?? orderId,
          });
        },
      )
      .get(
        `/${config.partnerBSlug}/evmchain/launches`,
        documented({
          tag: "integrations",
          summary: "Partner B feed: launches, sorted",
          ok: okBody({
            sort: z.string(),
            launches: z.array(
              z.looseObject({
                address: addressWire,
                name: z.string(),
                symbol: z.string(),
                price_wei: uintString,
                market_cap_wei: uintString,
              }),
            ),
          }),
          errors: ["invalid_request", "invalid_cursor"],
        }),
        validate("query", launchesQuery),
        async (c) =>
          sendOk(
            c,
            await launchListBody(deps, c.req.valid("query"), (rec) => ({
              address: rec.address,
              name: rec.name,
              symbol: rec.symbol,
              creator: rec.creator,
              pool: rec.pool,
              launch_timestamp_sec: rec.launch_timestamp_sec,
              price_wei: rec.price_wei,
              market_cap_wei: rec.market_cap_wei,
              volume_24h_wei: rec.volume_24h_wei,
              graduated: rec.graduated,
              graduation_progress_bps: rec.graduation_progress_bps,
              token_url: rec.token_url,
            })),
          ),
      )
      .get(
        `/${config.partnerBSlug}/evmchain/status`,
        documented({
          tag: "integrations",
          summary: "Partner B feed: one launch's status",
          ok: okBody({
            status: z.looseObject({
              address: addressWire,
              launched: z.boolean(),
              confirmed: z.boolean(),
              graduated: z.boolean(),
            }),
          }),
          errors: ["invalid_request", "invalid_address", "token_not_found"],
        }),
        validate("query", addressQuery),
        async (c) => {
          const row = await requireToken(deps.db, c.req.valid("query").address, nowSec(), deps.storedMetadata);
          const confirmedBlock = await confirmedHeadBlock(deps.db, config.confirmationBlocks);
          const rec = tokenRecord(row, deps);
          return sendOk(c, {
            status: {
              address: rec.address,
              launched: true,
              confirmed: confirmedBlock !== null && row.launchBlockNumber <= confirmedBlock,
              launch_block_number: rec.launch_block_number,
              launch_tx_hash: rec.launch_tx_hash,
              graduated: rec.graduated,
              graduated_at_sec: rec.graduated_at_sec,
              graduation_progress_bps: rec.graduation_progress_bps,
              price_wei: rec.price_wei,
              market_cap_wei: rec.market_cap_wei,
              trade_count: rec.trade_count,
              token_url: rec.token_url,
            },
          });
        },
      )
  );
}
