/**
 * The app on placeholder dependencies, for reading what it describes without a chain or a database
 * (docs/openapi.md "Lint"): the OpenAPI document route and the app-level middleware run, and nothing
 * reaches the database, the store or the RPC. Used by `npm run openapi` and the document's unit tests.
 */
import { createPublicClient, http, zeroAddress } from "viem";
import type { Deployment } from "../../config/deployment";
import { createApp } from "../app";
import { buildServices } from "../services";
import { loadEnv } from "../../config/env";
import type { MarketDb } from "../../market/db";

/** A deployment of placeholder addresses: the document names no address of a real deployment. */
const placeholderDeployment: Deployment = {
  chainId: 4663,
  rpcUrl: "http://127.0.0.1:8545",
  startBlock: 0,
  protocolFeeRecipient: zeroAddress,
  contracts: {
    weth: zeroAddress,
    uniswapV3Factory: zeroAddress,
    nonfungiblePositionManager: zeroAddress,
    swapRouter: zeroAddress,
    quoterV2: zeroAddress,
    launchFactory: zeroAddress,
    feeLocker: zeroAddress,
  },
  launchFactory: { minimumPoolLiquidityWei: "0", startTick: 0, poolFee: 10_000, tickSpacing: 200 },
  acceptedFactories: [zeroAddress],
};

/**
 * Builds the app on placeholder dependencies.
 * @param publicBaseUrl - the document's server URL, without trailing slash
 * @example await placeholderApp("http://localhost:42069").request("/api/openapi.json") // 200, the document
 */
export function placeholderApp(publicBaseUrl = "http://localhost:42069") {
  const services = buildServices(loadEnv(), {
    db: {} as MarketDb,
    store: new Promise(() => {}),
    deployment: placeholderDeployment,
    publicClient: createPublicClient({ transport: http(placeholderDeployment.rpcUrl) }),
  });
  return createApp({ ...services, publicBaseUrl });
}
