/**
 * What the token read routes (public tokens, v1 market, integrations) are given: one shape, built
 * once by `createApp`.
 */
import type { Deployment } from "../config/deployment";
import type { PublicConfig } from "../config/public";
import type { CreatorFundingSource } from "./creatorFundingRecord";
import type { MetadataSource } from "./metadata";
import type { MarketDb } from "./db";

/** What a route needs to read tokens and serve token records. */
export type MarketReadDeps = {
  db: MarketDb;
  /** Base URL of the service's pages (token URLs), no trailing slash. */
  publicBaseUrl: string;
  publicConfig: PublicConfig;
  /** The fee locker and position manager label holders. */
  deployment: Pick<Deployment, "contracts">;
  /** Clock, unix seconds (24 h figures, trending, the default candle window). */
  nowSec: () => number;
  /** Creator metadata of confirmed launches (`storedMetadataSource`, built once by `createApp`). */
  storedMetadata: MetadataSource;
  /** Creator-funding rows of launches (`creatorFundingSource`, built once by `createApp`; absent: pending). */
  creatorFunding?: CreatorFundingSource;
};
