/**
 * The shared page frame: document head (stylesheet, title), header navigation and footer. Pages
 * are server-rendered with `hono/jsx` (which escapes every interpolated value); their scripts are
 * ES modules served by the service itself (`/assets/…`), so the CSP admits `'self'` only.
 */
import type { Child } from "hono/jsx";

/** Props of {@link Layout}. */
export type LayoutProps = { title: string; scripts?: readonly string[]; children?: Child };

/** The page frame around `children`; `scripts` are module scripts loaded at the end of the body. */
export function Layout({ title, scripts = [], children }: LayoutProps) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{title}</title>
        <link rel="stylesheet" href="/assets/site.css" />
        <link rel="icon" href="/static/token-default.png" />
      </head>
      <body>
        <header class="site">
          <a class="brand" href="/">
            evmchain launch
          </a>
          <nav>
            <a href="/">Newest</a>
            <a href="/launch">Launch a token</a>
            <a href="/api/docs">API</a>
          </nav>
        </header>
        <main>{children}</main>
        <footer class="site">
          Non-custodial: your wallet signs and sends every transaction; this service never holds a key.
        </footer>
        {scripts.map((src) => (
          <script type="module" src={src}></script>
        ))}
      </body>
    </html>
  );
}
