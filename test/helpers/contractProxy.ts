/**
 * The OpenAPI contract on every e2e response (docs/openapi.md "Tests"): a third-party validating
 * proxy, Stoplight Prism (`prism proxy`), stands between the e2e harness and the service. It
 * validates each response against the document the service serves (status, headers it documents,
 * body schema) and reports violations in its `sl-violations` header; {@link responseViolations}
 * reads them, and the harness fails the request on any response violation. Request violations are
 * not checked (tests send bad input on purpose) and the proxy adds no CORS headers of its own.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { findFreePort } from "../../devnet/anvil";
import { scaledMs } from "./deadlines";
import { API_RESPONSE_HEADERS } from "../../http/openapi/responseHeaders";

const projectRoot = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

/** A running validating proxy, with the document it validates against. */
export type ContractProxy = { url: string; document: OpenApiDocument; stop: () => Promise<void> };

/** The parts of an OpenAPI document the header check reads. */
export type OpenApiDocument = {
  paths: Record<string, Record<string, { responses?: Record<string, { headers?: Record<string, unknown> }> }>>;
};

/** One violation as Prism reports it. */
export type Violation = { location: string[]; severity: string; code?: string; message: string };

/**
 * Starts Prism in proxy mode in front of `serviceUrl`, on the document the service serves now.
 * @returns the proxy's base URL and `stop()`
 * @throws Error when the document cannot be read or Prism does not listen within the deadline
 */
export async function startContractProxy(serviceUrl: string): Promise<ContractProxy> {
  const res = await fetch(`${serviceUrl}/api/openapi.json`);
  if (res.status !== 200) throw new Error(`the service's OpenAPI document answered ${res.status}`);
  const dir = mkdtempSync(join(tmpdir(), "contract-proxy-"));
  const documentPath = join(dir, "openapi.json");
  const documentText = await res.text();
  writeFileSync(documentPath, documentText);
  const port = await findFreePort();
  const child = spawn(
    process.execPath,
    [
      join(projectRoot, "node_modules", "@stoplight", "prism-cli", "dist", "index.js"),
      "proxy",
      documentPath,
      serviceUrl,
      "--host",
      "127.0.0.1",
      "--port",
      String(port),
      "--cors=false",
      "--validate-request=false",
      "--errors=false",
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  let output = "";
  const listening = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`the contract proxy did not listen within its deadline:\n${output.slice(-2000)}`)),
      scaledMs(30_000),
    );
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("Prism is listening")) {
        clearTimeout(timer);
        resolve();
      }
      if (output.length > 100_000) output = output.slice(-50_000);
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`the contract proxy exited with ${code}:\n${output.slice(-2000)}`));
    });
  });
  try {
    await listening;
  } catch (err) {
    child.kill("SIGKILL");
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  return {
    url: `http://127.0.0.1:${port}`,
    document: JSON.parse(documentText) as OpenApiDocument,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGTERM");
        await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 2_000))]);
        if (child.exitCode === null) child.kill("SIGKILL");
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The response violations Prism reported for one response (its `sl-violations` header), errors
 * only; request violations and "route not found" warnings (Ponder's own `/ready`, `/health`,
 * `/metrics`, which the document does not describe) are left out.
 * @example responseViolations(res.headers) // [{ location: ["response", "body"], message: "…" }]
 */
export function responseViolations(headers: Headers): Violation[] {
  const raw = headers.get("sl-violations");
  if (!raw) return [];
  let all: Violation[];
  try {
    all = JSON.parse(raw) as Violation[];
  } catch {
    return [{ location: ["response"], severity: "Error", message: `unreadable sl-violations header: ${raw}` }];
  }
  return all.filter((v) => v.location[0] === "response" && v.severity === "Error");
}

/**
 * The API headers ({@link API_RESPONSE_HEADERS}) a response carries that its operation and status do
 * not document. Prism checks the headers a document states; this finds the ones it does not. A
 * path the document does not describe (Ponder's own `/ready`, `/health`, `/metrics`) is not checked.
 * @returns lower-case header names, empty when all are documented
 */
export function undocumentedHeaders(
  document: OpenApiDocument,
  method: string,
  path: string,
  status: number,
  headers: Headers,
): string[] {
  const pathname = new URL(path, "http://service.invalid").pathname;
  const template = Object.keys(document.paths)
    .sort((a, b) => (a.match(/\{/g)?.length ?? 0) - (b.match(/\{/g)?.length ?? 0))
    .find((t) =>
      new RegExp(`^${t.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\\?\{[^}]+\\?\}/g, "[^/]+")}$`).test(pathname),
    );
  const responses = template ? document.paths[template]![method.toLowerCase()]?.responses : undefined;
  if (!responses) return [];
  const response = responses[String(status)] ?? responses[`${String(status)[0]}XX`] ?? responses.default;
  const documented = new Set(Object.keys(response?.headers ?? {}).map((h) => h.toLowerCase()));
  return API_RESPONSE_HEADERS.filter((name) => headers.has(name) && !documented.has(name));
}

/**
 * Throws when `res` is the proxy's own error answer (an RFC 9457 problem, e.g. `FetchError` when
 * the upstream service hung up), as `fetch` throws when it meets no server; any other answer passes.
 * @throws TypeError("fetch failed") with the problem's title as `cause`
 */
export async function throwIfUpstreamFailed(res: Response): Promise<void> {
  if (!(res.headers.get("content-type") ?? "").includes("application/problem+json")) return;
  // The service never answers with problem+json (its errors are `{ok: false, …}` JSON): such an
  // answer is Prism's own (`FetchError` when the upstream hung up, or one of its error URIs).
  const problem = (await res.clone().json()) as { type?: string; title?: string; detail?: string };
  throw new TypeError("fetch failed", {
    cause: { code: "UPSTREAM_FAILED", message: `${problem.title}: ${problem.detail}` },
  });
}
