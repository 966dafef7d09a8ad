/**
 * The token read queries in one import: row lookups (`tokenLookups.ts`), list orders
 * (`tokenLists.ts`) and records with their figures at one indexed block (`tokenReads.ts`).
 */
export {
  findTokenAddress,
  findTokenBySlug,
  findTokenBySymbol,
  findTokenHolderFacts,
  tokenIndexed,
  tokensByAddress,
  tokensByCreator,
  type TokenRow,
} from "./tokenLookups";
export { countLaunches, type TokenSort, tokenPage, trendingTokens } from "./tokenLists";
export {
  findToken,
  findTokenRecordBySlug,
  findTokens,
  itemsAtOneBlock,
  requireToken,
  TOKEN_BATCH_MAX,
  tokenListPage,
  tokensAtOneBlock,
  trendingRecords,
} from "./tokenReads";
