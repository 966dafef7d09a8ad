/**
 * The HTML answer to a browser for a page that does not exist (`/token/<unknown>`, `/t/<unknown>`)
 * or a malformed address (`/token/notanaddress`): the catalogue's message in words, links onward.
 * API clients get the usual JSON error body instead (content negotiation in `pageResponses.tsx`).
 */
import { Layout } from "./layout";

/** Props: a short title, the catalogue message, and the HTTP status it goes with. */
export type ErrorPageProps = { title: string; message: string; status: number };

/** The error page. */
export function ErrorPage({ title, message, status }: ErrorPageProps) {
  return (
    <Layout title={title}>
      <h1>{title}</h1>
      <p id="error-message">{message}</p>
      <p class="hint">Error {status}.</p>
      <p>
        <a href="/">See the newest launches</a> or <a href="/launch">launch a token</a>.
      </p>
    </Layout>
  );
}
