/** `getLaunch`: a launch's state on the service. */
import type { LaunchClientBase } from "../clientBase.js";
import { send } from "../internal/http.js";
import type { Answer } from "../internal/types.js";

export type GetLaunchParameters = ({ launchId: string; txHash?: never } | { txHash: string; launchId?: never }) & {
  signal?: AbortSignal;
};

/** The launch record: `state`, `transaction` once built, `tx_hash`, `token_address`, `token_url`, `failure`. */
export type GetLaunchReturnType = Answer<"getApiV1EvmchainLaunchesStatus">;

/**
 * Reads a launch by id or by transaction hash (`GET /api/v1/evmchain/launches/status`; docs/launch.md).
 * @throws LaunchApiError `launch_not_found` (404), `invalid_request`; RateLimitedError
 * @example
 * const { state, token_address } = await getLaunch(client, { launchId });
 */
export async function getLaunch(client: LaunchClientBase, params: GetLaunchParameters): Promise<GetLaunchReturnType> {
  const query = params.launchId !== undefined ? { launch_id: params.launchId } : { tx_hash: params.txHash };
  const { data } = await send(
    () => client.api.GET("/api/v1/evmchain/launches/status", { params: { query }, signal: params.signal }),
    { retry: client.retry, signal: params.signal },
  );
  return data as GetLaunchReturnType;
}
