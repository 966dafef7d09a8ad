// The token page's facts the server rendered on its <article id="token"> (pages/tokenPage.tsx):
// the token, its creator and symbol, the launch price, and the block explorer (or null).
const article = document.getElementById("token");

/** The token's address, as the page's API reads take it. */
export const token = article.dataset.token;
/** The creator's address (tags the creator's holder row; only the creator may claim fees). */
export const creator = article.dataset.creator;
/** The token's symbol, shown after balances. */
export const symbol = article.dataset.symbol;
/** Wei per whole token at launch (decimal string): the open of a flat first candle; may be empty. */
export const launchPriceWei = article.dataset.launchPriceWei || null;
/** The block explorer's base URL (BLOCK_EXPLORER_URL), or null when none is configured. */
export const explorer = article.dataset.explorer || null;
