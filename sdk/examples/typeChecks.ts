/**
 * Compile-time checks of the generated types (test/unit/sdk.types.test.ts runs `tsc` over this
 * file): the calls marked `@ts-expect-error` must fail to compile, the others must compile. Each
 * marked line is also compiled without its marker and must then fail with the error named after it.
 */
import { createLaunchClient, type ErrorCode, type LaunchApiError, type paths } from "../src/index.js";

type IntentBody = paths["/api/v1/evmchain/launches/intent"]["post"]["requestBody"]["content"]["application/json"];

const client = createLaunchClient({ baseUrl: "http://127.0.0.1:42069", apiKey: "sk_live_example" });
const address = "0x04c17d1E3B87E2701c6303056B0125dd8d39201D";

export async function checks(): Promise<void> {
  // Right: a resolution the document lists, parameters named as declared.
  await client.getCandles({ address, resolution: "1h", fromSec: 0 });
  await client.getCandles({ address, resolution: "1s" }); // second bars (last 24 h)
  await client.api.GET("/api/v1/evmchain/tokens/{address}/candles", {
    params: { path: { address }, query: { resolution: "4h" } },
  });

  // EXPECT: Type '"2h"' is not assignable
  // @ts-expect-error a resolution the service does not serve
  await client.getCandles({ address, resolution: "2h" });

  // EXPECT: Type '"2h"' is not assignable
  await client.api.GET("/api/v1/evmchain/tokens/{address}/candles", {
    // @ts-expect-error the generated query type rejects it too
    params: { path: { address }, query: { resolution: "2h" } },
  });

  // EXPECT: 'resolutoin' does not exist
  // @ts-expect-error a misspelt parameter name
  await client.getCandles({ address, resolutoin: "1h" });

  // EXPECT: 'first_buy' does not exist
  // @ts-expect-error the generated intent body has `first_buy_wei`, not `first_buy`
  const intent: IntentBody = { creator: address, name: "A", symbol: "A", first_buy: "1" };

  // EXPECT: 'firstBuy' does not exist
  // @ts-expect-error launchToken takes `firstBuyWei`
  await client.launchToken({ name: "A", symbol: "A", firstBuy: 1n });

  // EXPECT: Type '"token_gone"' is not assignable
  // @ts-expect-error not an identifier of the error catalogue
  const code: ErrorCode = "token_gone";

  // EXPECT: Type 'number' is not assignable to type 'bigint'
  // @ts-expect-error amounts in wei are bigints
  await client.buildSwap({ token: address, side: "buy", amountInWei: 1 });

  const isNotFound = (err: LaunchApiError) => err.code === "token_not_found";
  void code;
  void intent;
  void isNotFound;
}
