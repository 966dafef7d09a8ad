/**
 * The home page (`GET /` for browsers; docs/pages.md): the newest launches, read from the same
 * public query and presenter as `GET /api/public/tokens/new`, each linking to its token page, and
 * a link to the launch page.
 */
import type { z } from "zod";
import type { tokenWire } from "../api/openapi/schemas";
import { compactPrice, formatAmount } from "./format";
import { Layout } from "./layout";
import { tokenPath } from "../src/domain/urls";

/** Props: the newest launched tokens, newest first, as the public API serves them. */
export type HomePageProps = { tokens: z.infer<typeof tokenWire>[] };

/** The home page. */
export function HomePage({ tokens }: HomePageProps) {
  return (
    <Layout title="evmchain launch: newest tokens">
      <h1>Newest launches</h1>
      <p>
        Tokens launched through this service, newest first. Each has its Uniswap V3 pool with liquidity locked forever.{" "}
        <a href="/launch">Launch your own token</a>.
      </p>
      {tokens.length === 0 ? (
        <p id="no-tokens">
          No token has been launched yet. Be the first: <a href="/launch">launch a token</a>.
        </p>
      ) : (
        <ul class="token-list" id="newest">
          {tokens.map((t) => (
            <li>
              <a href={tokenPath(t.address)}>
                {t.name} ({t.symbol})
              </a>
              <span>Price {compactPrice(t.price_wei)} ETH</span>
              <span>Market cap {formatAmount(t.market_cap_wei, 18, 4)} ETH</span>
              <span>{t.trade_count} trades</span>
            </li>
          ))}
        </ul>
      )}
    </Layout>
  );
}
