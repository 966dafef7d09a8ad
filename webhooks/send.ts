/**
 * One webhook HTTP attempt (docs/webhooks.md): `POST` the signed body to the receiver with
 * node:http(s), the connect-time address check of `urlSafety.ts` (on every new connection), no
 * redirects followed, connections kept alive in the caller's agents (a reused connection goes to
 * the address checked when it opened), an overall deadline, and only a short prefix of the answer kept.
 */
import http from "node:http";
import https from "node:https";
import type { SignedMessage } from "./signing";
import { AddressRefusedError, checkWebhookUrl, guardedLookup, type UrlPolicy } from "./urlSafety";

/** Default deadline of one attempt (connect to end of the answer's head), milliseconds. */
export const ATTEMPT_TIMEOUT_MS = 10_000;
/** How much of a receiver's answer is kept (bytes, decoded as UTF-8 text). */
export const RESPONSE_PREFIX_BYTES = 256;

/**
 * Keep-alive agents for {@link sendWebhook}: at most `maxSockets` connections per receiver
 * host, idle ones closed after 5 s. A new connection still passes the address check.
 */
export function keepAliveAgents(maxSockets: number) {
  const options = { keepAlive: true, maxSockets, timeout: 5_000 };
  return { http: new http.Agent(options), https: new https.Agent(options) };
}

/** Outcome of one attempt: the HTTP status, or why there is none. */
export type AttemptResult = {
  /** HTTP status of the answer; absent when the attempt failed before one. */
  statusCode?: number;
  /** `timeout`, `address_refused`, `invalid_url`, `dns_failed`, `connection_failed`. */
  error?: string;
  durationMs: number;
  /** First {@link RESPONSE_PREFIX_BYTES} bytes of the answer's body (or the error's message). */
  responsePrefix: string | null;
};

/**
 * Sends one signed webhook request.
 * @param input.url - receiver URL (checked again here)
 * @param input.message - body and Standard Webhooks headers (`signing.ts`)
 * @param input.policy - URL policy (`urlSafety.ts`)
 * @param input.timeoutMs - overall deadline (default {@link ATTEMPT_TIMEOUT_MS})
 * @returns the attempt's result; never throws
 * @example await sendWebhook({ url, message, policy }) // { statusCode: 204, durationMs: 12, responsePrefix: "" }
 */
export async function sendWebhook(input: {
  url: string;
  message: SignedMessage;
  policy: UrlPolicy;
  timeoutMs?: number;
  /** Keep-alive agents ({@link keepAliveAgents}); absent: a new connection per attempt. */
  agents?: { http: http.Agent; https: https.Agent };
}): Promise<AttemptResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const check = checkWebhookUrl(input.url, input.policy);
  if (!check.ok) return { error: "invalid_url", durationMs: 0, responsePrefix: check.reason };
  const url = check.url;
  const transport = url.protocol === "https:" ? https : http;
  const body = Buffer.from(input.message.body, "utf8");
  return new Promise<AttemptResult>((resolve) => {
    let settled = false;
    const finish = (result: Omit<AttemptResult, "durationMs">) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...result, durationMs: elapsed() });
    };
    const req = transport.request(url, {
      method: "POST",
      agent: input.agents ? input.agents[url.protocol === "https:" ? "https" : "http"] : false,
      lookup: guardedLookup(input.policy) as never,
      headers: {
        "Content-Type": "application/json",
        "Content-Length": String(body.byteLength),
        "User-Agent": "evmchain-launch-webhooks/1",
        ...input.message.headers,
      },
    });
    const timer = setTimeout(() => {
      finish({ error: "timeout", responsePrefix: `no answer within ${input.timeoutMs ?? ATTEMPT_TIMEOUT_MS} ms` });
      req.destroy();
    }, input.timeoutMs ?? ATTEMPT_TIMEOUT_MS);
    req.on("response", (res) => {
      const chunks: Buffer[] = [];
      let kept = 0;
      // A complete answer leaves the connection to the agent (kept alive); a longer one closes it.
      const done = (ended: boolean) => {
        finish({
          statusCode: res.statusCode,
          responsePrefix: Buffer.concat(chunks).subarray(0, RESPONSE_PREFIX_BYTES).toString("utf8"),
        });
        if (!ended) res.destroy();
      };
      res.on("data", (chunk: Buffer) => {
        if (kept < RESPONSE_PREFIX_BYTES) {
          chunks.push(chunk);
          kept += chunk.byteLength;
        }
        if (kept >= RESPONSE_PREFIX_BYTES) done(false);
      });
      res.on("end", () => done(true));
      res.on("error", () => done(false));
    });
    req.on("error", (err: NodeJS.ErrnoException) => {
      const error =
        err instanceof AddressRefusedError
          ? "address_refused"
          : err.code === "ENOTFOUND" || err.code === "EAI_AGAIN"
            ? "dns_failed"
            : "connection_failed";
      finish({ error, responsePrefix: err.message.slice(0, RESPONSE_PREFIX_BYTES) });
    });
    req.end(body);
  });
}
