/**
 * The launch write path shared by every surface (docs/launch.md; spec: "What the service does"
 * 1–2, "States and transitions", Endpoints). The v1 launch flow, the coin flow and the session
 * surface call these functions; they differ only in how the caller is authenticated and in field
 * names. The steps live in `buildStep.ts`, `confirmStep.ts` and `statusStep.ts`, their bodies in
 * `responses.ts`, their catalogue errors in `stepErrors.ts`, the creator's signature check in
 * `signature.ts`; none of them sees an HTTP request. Every build goes through the one builder (`launch/build.ts`), every confirmation through
 * the one verifier (`launch/verify.ts`), every state change through `launch/states.ts` +
 * `store/launches.ts` (conditional updates), so the rules hold on every surface:
 *
 * - build only from `intent_created` (signature of the creator, EIP-191 personal_sign verified with
 *   viem `verifyMessage`: EOA, ERC-1271, ERC-6492) or `built` (the stored transaction, replayed);
 * - persistence (state `confirmed`, the creator's metadata) only after the verifier passed;
 * - a transaction hash confirms at most one launch.
 */
import type { PublicClient } from "viem";
import type { Deployment } from "../../config/deployment";
import type { PublicConfig } from "../../config/public";
import type { Store } from "../../store/index";
import type { MarketDb } from "../market/db";

/** What the flow needs; built per request by the routers. */
export type LaunchFlowDeps = {
  store: Store;
  publicClient: PublicClient;
  deployment: Deployment;
  publicBaseUrl: string;
  /** Public settings (metadata defaults of the confirmation result). */
  publicConfig: PublicConfig;
  /** Ponder's read-only db (whether the token page resolves yet). */
  db: MarketDb;
  /** Clock, unix seconds. */
  nowSec: () => number;
};
