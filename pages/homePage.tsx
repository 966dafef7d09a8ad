/**
 * The home page (`GET /?q=` for browsers; docs/pages.md): a search form (a plain GET form, so it
 * works without JavaScript; matches ranked as `GET /api/public/search`), then trending tokens
 * (`/api/public/tokens/trending`), tokens about to graduate (`/api/public/tokens/graduating`) and
 * the newest launches (`/api/public/tokens/new`), read from the same queries and presenter as
 * those endpoints, each card linking to its token page; links to the launch page.
 */
import type { z } from "zod";
import type { tokenWire } from "../market/wire";
import { compactPrice, formatAmount } from "./format";
import { Layout } from "./layout";
import { sameOriginPath } from "./links";
import { tokenPath } from "../src/domain/urls";
import { Change, GraduationBar } from "./tokenParts";

type Token = z.infer<typeof tokenWire>;

/** A search the page answers: the query as typed, its matches, or a message instead of matches. */
export type HomeSearch = { query: string; tokens: Token[]; message?: string };

/** Props: the token lists as the public API serves them, and the search when there is one. */
export type HomePageProps = {
  /** Newest launches first. */
  tokens: Token[];
  /** Highest trending score first (traded in the last 24 h). */
  trending?: Token[];
  /** Not graduated, closest to graduation first. */
  graduating?: Token[];
  search?: HomeSearch;
  /** The service's public base URL: logos are shown only when they are its own. */
  publicBaseUrl?: string;
};

/** The home page. */
export function HomePage({ tokens, trending = [], graduating = [], search, publicBaseUrl = "" }: HomePageProps) {
  return (
    <Layout
      title="evmchain launch: discover tokens"
      description="Discover tokens launched on evmchain: search, trending, about to graduate and new launches, with live prices and trades."
    >
      <h1>Discover tokens</h1>
      <p>
        Tokens launched through this service. Each has its Uniswap V3 pool with liquidity locked forever.{" "}
        <a href="/launch">Launch your own token</a>.
      </p>
      <search>
        <form class="search" action="/" method="get">
          <label class="visually-hidden" for="search-q">
            Search tokens
          </label>
          <input
            id="search-q"
            name="q"
            type="search"
            value={search?.query ?? ""}
            placeholder="Name, symbol or address"
            autocomplete="off"
          />
          <button type="submit">Search</button>
        </form>
      </search>
      {search ? <SearchResults search={search} publicBaseUrl={publicBaseUrl} /> : null}
      {tokens.length === 0 ? (
        <p id="no-tokens">
          No token has been launched yet. Be the first: <a href="/launch">launch a token</a>.
        </p>
      ) : (
        <>
          <TokenSection
            id="trending"
            title="Trending"
            tokens={trending}
            empty="No token was traded in the last 24 hours."
            base={publicBaseUrl}
          />
          <TokenSection
            id="graduating"
            title="About to graduate"
            tokens={graduating}
            empty="Every token has graduated."
            base={publicBaseUrl}
          />
          <TokenSection id="newest" title="New launches" tokens={tokens} empty="" base={publicBaseUrl} />
        </>
      )}
    </Layout>
  );
}

function SearchResults({ search, publicBaseUrl }: { search: HomeSearch; publicBaseUrl: string }) {
  return (
    <section aria-labelledby="results-title">
      <h2 id="results-title">Results for “{search.query}”</h2>
      {search.message ? (
        <p class="error">{search.message}</p>
      ) : search.tokens.length === 0 ? (
        <p id="no-results">
          No token matches “{search.query}”. Try a symbol, part of a name or the start of an address, or{" "}
          <a href="/launch">launch it yourself</a>.
        </p>
      ) : (
        <TokenGrid id="results" tokens={search.tokens} base={publicBaseUrl} />
      )}
    </section>
  );
}

function TokenSection(props: { id: string; title: string; tokens: Token[]; empty: string; base: string }) {
  const { id, title, tokens, empty, base } = props;
  return (
    <section aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{title}</h2>
      {tokens.length === 0 ? <p class="hint">{empty}</p> : <TokenGrid id={id} tokens={tokens} base={base} />}
    </section>
  );
}

function TokenGrid({ id, tokens, base }: { id: string; tokens: Token[]; base: string }) {
  return (
    <ul class="token-grid" id={id}>
      {tokens.map((t) => (
        <TokenCard token={t} list={id} base={base} />
      ))}
    </ul>
  );
}

/** One token: logo, name and symbol (the link), price, 24 h change, market cap, graduation bar. */
function TokenCard({ token: t, list, base }: { token: Token; list: string; base: string }) {
  const image = sameOriginPath(t.metadata.image_url, base) ?? "/static/token-default.png";
  return (
    <li class="token-card">
      <img src={image} alt="" width="48" height="48" loading="lazy" />
      <a href={tokenPath(t.address)}>
        {t.name} ({t.symbol})
      </a>
      <span class="figures">
        <span>{compactPrice(t.price_wei)} ETH</span>
        <Change bps={t.price_change_24h_bps} />
        <span>MC {formatAmount(t.market_cap_wei, 18, 2)} ETH</span>
        <span>{t.trade_count} trades</span>
      </span>
      <GraduationBar bps={t.graduation_progress_bps} graduated={t.graduated} id={`${list}-${t.address}-grad`} />
    </li>
  );
}
