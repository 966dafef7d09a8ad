/**
 * Launch steps end-to-end tests share: launches made directly through the factory on a test
 * stack's devnet, as a wallet would send them.
 */
import { parseEther, type Address } from "viem";
import { launchToken } from "../../devnet/actions";
import type { Stack } from "./harness";

/** Name and symbol of one token of a pair. */
export type PairToken = { name: string; symbol: string };

/** The first buy of a pair's first token, in wei: 0.05 ETH (the second launches without one). */
export const PAIR_FIRST_BUY_WEI = parseEther("0.05");

/**
 * Launches two tokens, one after the other: `first` by dev account 1 with a first buy of
 * {@link PAIR_FIRST_BUY_WEI}, `second` by dev account 2 without one (both directly through the
 * factory, `launchToken`), so a test has a token with and one without a first buy.
 * @returns both launches (transaction, receipt and `TokenLaunched` event) and the two token addresses
 * @throws the launch's error when either transaction reverts
 */
export async function launchTokenPair(stack: Stack, first: PairToken, second: PairToken) {
  const withFirstBuy = await launchToken(stack.wallet(1), stack.publicClient, stack.manifest, {
    ...first,
    firstBuyWei: PAIR_FIRST_BUY_WEI,
  });
  const withoutFirstBuy = await launchToken(stack.wallet(2), stack.publicClient, stack.manifest, second);
  const tokens: [Address, Address] = [withFirstBuy.event.token, withoutFirstBuy.event.token];
  return { first: withFirstBuy, second: withoutFirstBuy, tokens };
}
