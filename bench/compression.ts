/**
 * Compression benchmark: bytes on the wire per endpoint with `Accept-Encoding: identity`, `gzip`
 * and `br` (http/middleware/compression.ts), on a seeded devnet stack (`test/helpers/harness.ts`
 * `startStack` + `devnet/seed.ts` `seedDemo`, every seeded block indexed before the first fetch).
 *
 * Each endpoint is fetched once per encoding with a raw HTTP client (no decoding on the way), so
 * the figure is the body bytes as sent (headers not counted). Each compressed body is decoded
 * (zlib) and must equal the identity body byte for byte; an image must come back uncompressed.
 * Baseline, in the same run: the identity body of the same endpoint; ratios = compressed bytes /
 * identity bytes (lower is better, 1 = not compressed).
 *
 * Usage: `npm run bench -- compression [--trades 12]`.
 * Result: `bench/results/latest/compression.json` (bytes; ratios rounded to 3 places).
 */
import { request as httpRequest } from "node:http";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { seedDemo } from "../devnet/seed";
import { startStack, until } from "../test/helpers/harness";
import { cpus, loadavg } from "node:os";
import { parseBenchFlags, writeBenchResult } from "./harness";

const values = parseBenchFlags("compression", { trades: { type: "string", default: "12" } });

type Encoding = "identity" | "gzip" | "br";
const ENCODINGS: readonly Encoding[] = ["identity", "gzip", "br"];

/** One GET with a given `Accept-Encoding`, returning the raw (undecoded) body and its headers. */
function rawGet(
  url: string,
  acceptEncoding: Encoding,
): Promise<{ status: number; contentType: string; contentEncoding: string | undefined; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { headers: { "Accept-Encoding": acceptEncoding, Accept: "*/*" } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () =>
        resolve({
          status: res.statusCode ?? 0,
          contentType: String(res.headers["content-type"] ?? ""),
          contentEncoding: res.headers["content-encoding"],
          body: Buffer.concat(chunks),
        }),
      );
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

/** Decodes a body sent with `contentEncoding` (none, gzip or br). */
function decode(body: Buffer, contentEncoding: string | undefined): Buffer {
  if (!contentEncoding || contentEncoding === "identity") return body;
  if (contentEncoding === "gzip") return gunzipSync(body);
  if (contentEncoding === "br") return brotliDecompressSync(body);
  throw new Error(`unexpected Content-Encoding ${contentEncoding}`);
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;

const stack = await startStack({ schema: "bench_compression" });
try {
  const seeded = await seedDemo(stack.manifest, { trades: Number(values.trades) });
  const headBlock = await stack.publicClient.getBlockNumber();
  await until(
    "the seeded history indexed",
    async () => {
      const { status, body } = await stack.request("/api/v1/ready");
      return status === 200 && BigInt(body.indexed_block) >= headBlock ? true : undefined;
    },
    120_000,
  );
  const token = seeded.tokens[0]!.token.toLowerCase();
  const record = await stack.request(`/api/public/token/${token}`);
  const slug: string | undefined = record.body?.token?.slug ?? record.body?.slug;
  const toSec = Math.floor(Date.now() / 1000) + 86_400;

  const endpoints: { name: string; path: string; image?: true }[] = [
    { name: "OpenAPI document", path: "/api/openapi.json" },
    { name: "API reference page", path: "/api/docs" },
    { name: "token list (new)", path: "/api/public/tokens/new" },
    { name: "token record", path: `/api/public/token/${token}` },
    { name: "trades", path: `/api/public/token/${token}/trades?limit=100` },
    { name: "candles (JSON)", path: `/api/public/token/${token}/candles?resolution=1m` },
    {
      name: "candles (UDF)",
      path: `/api/public/token/${token}/candles?resolution=1m&format=udf&countback=1440`,
    },
    { name: "events feed", path: "/api/public/events?include_pending=1&limit=500" },
    { name: "RSS feed", path: "/feed/new-launches.xml" },
    { name: "token list JSON", path: "/token-list/evmchain.json" },
    { name: "home page", path: "/" },
    { name: "token page", path: `/token/${token}` },
    { name: "page script", path: "/assets/token.js" },
    // The seed uploads no image, so the one image every page links stands in for `/media/…`.
    { name: "image (PNG)", path: "/static/token-default.png", image: true },
  ];

  const rows = [];
  const failures: string[] = [];
  for (const endpoint of endpoints) {
    const answers = {} as Record<Encoding, Awaited<ReturnType<typeof rawGet>>>;
    for (const encoding of ENCODINGS)
      answers[encoding] = await rawGet(`${stack.service.url}${endpoint.path}`, encoding);
    const identity = answers.identity;
    if (identity.status !== 200) failures.push(`${endpoint.path}: status ${identity.status}`);
    if (identity.contentEncoding) failures.push(`${endpoint.path}: identity sent as ${identity.contentEncoding}`);
    const perEncoding: Record<string, { bytes: number; contentEncoding: string | null; ratio: number }> = {};
    for (const encoding of ["gzip", "br"] as const) {
      const answer = answers[encoding];
      let decoded: Buffer;
      try {
        decoded = decode(answer.body, answer.contentEncoding);
      } catch (error) {
        failures.push(`${endpoint.path} (${encoding}): does not decode: ${String(error)}`);
        decoded = Buffer.alloc(0);
      }
      if (!decoded.equals(identity.body)) failures.push(`${endpoint.path} (${encoding}): decoded body differs`);
      if (endpoint.image && answer.contentEncoding) failures.push(`${endpoint.path}: image sent as ${encoding}`);
      perEncoding[encoding] = {
        bytes: answer.body.length,
        contentEncoding: answer.contentEncoding ?? null,
        ratio: round3(answer.body.length / identity.body.length),
      };
    }
    rows.push({
      name: endpoint.name,
      path: endpoint.path,
      status: identity.status,
      contentType: identity.contentType,
      identityBytes: identity.body.length,
      gzip: perEncoding.gzip!,
      br: perEncoding.br!,
    });
  }

  const result = {
    benchmark: "compression",
    date: new Date().toISOString(),
    machine: { cpus: cpus().length, loadavg: loadavg() },
    seed: { tokens: seeded.tokens.length, buys: seeded.buys, sells: seeded.sells },
    endpoints: rows,
    failures,
  };
  writeBenchResult("compression", result);
  console.log(
    [
      "| endpoint | path | identity bytes | gzip / identity | br / identity |",
      "| --- | --- | --- | --- | --- |",
      ...rows.map(
        (r) =>
          `| ${r.name} | \`${r.path.replace(token, "{token}").replace(slug ?? "\u0000", "{slug}")}\` | ${r.identityBytes.toLocaleString("en-US")} | ${r.gzip.contentEncoding ? `${r.gzip.ratio.toFixed(3)}x` : "not compressed"} | ${r.br.contentEncoding ? `${r.br.ratio.toFixed(3)}x` : "not compressed"} |`,
      ),
    ].join("\n"),
  );
  if (failures.length > 0) {
    console.error(`compression: ${failures.length} check(s) failed:\n${failures.join("\n")}`);
    process.exitCode = 1;
  }
} finally {
  await stack.stop();
}
