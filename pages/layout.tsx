/**
 * The shared page frame: document head (stylesheet, title), header navigation and footer. Pages
 * are server-rendered with `hono/jsx` (which escapes every interpolated value); their scripts are
 * ES modules served by the service itself (`/assets/…`), so the CSP admits `'self'` only.
 */
import type { Child } from "hono/jsx";
import { assetUrl } from "./assetRoutes";
import { modulePreloads } from "./moduleGraph";

/**
 * What a link preview shows (Open Graph, https://ogp.me, and Twitter/X cards): absolute URLs, since
 * a crawler reads the tags without the page's origin.
 */
export type SocialCard = { title: string; description: string; url: string; imageUrl: string };

/** Props of {@link Layout}. */
export type LayoutProps = {
  title: string;
  /** The page's `<meta name="description">` (search results); a `card` brings its own. */
  description?: string;
  scripts?: readonly string[];
  card?: SocialCard;
  children?: Child;
};

/**
 * The page frame around `children`; `scripts` are module scripts loaded at the end of the body,
 * and every module they import is announced in the head (`modulepreload`) so the browser fetches
 * them all at once; `card` adds the Open Graph and Twitter card tags of a shared link. Asset links
 * name fingerprinted URLs (`assetUrl`, cached immutable).
 */
export function Layout({ title, description, scripts = [], card, children }: LayoutProps) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{title}</title>
        {description && !card ? <meta name="description" content={description} /> : null}
        <link rel="stylesheet" href={assetUrl("/assets/site.css")} />
        <link rel="icon" href="/static/token-default.png" />
        {modulePreloads(scripts).map((href) => (
          <link rel="modulepreload" href={assetUrl(href)} />
        ))}
        {card ? <SocialCardTags card={card} /> : null}
      </head>
      <body>
        <header class="site">
          <a class="brand" href="/">
            evmchain launch
          </a>
          <nav>
            <a href="/">Tokens</a>
            <a href="/launch">Launch a token</a>
            <a href="/api/docs">API</a>
          </nav>
        </header>
        <main>{children}</main>
        <footer class="site">
          Non-custodial: your wallet signs and sends every transaction; this service never holds a key.
        </footer>
        {scripts.map((src) => (
          <script type="module" src={assetUrl(src)}></script>
        ))}
      </body>
    </html>
  );
}

/** Open Graph and Twitter card tags (a summary card: title, description, square image). */
function SocialCardTags({ card }: { card: SocialCard }) {
  return (
    <>
      <meta name="description" content={card.description} />
      <link rel="canonical" href={card.url} />
      <meta property="og:type" content="website" />
      <meta property="og:site_name" content="evmchain launch" />
      <meta property="og:title" content={card.title} />
      <meta property="og:description" content={card.description} />
      <meta property="og:url" content={card.url} />
      <meta property="og:image" content={card.imageUrl} />
      <meta name="twitter:card" content="summary" />
      <meta name="twitter:title" content={card.title} />
      <meta name="twitter:description" content={card.description} />
      <meta name="twitter:image" content={card.imageUrl} />
    </>
  );
}
