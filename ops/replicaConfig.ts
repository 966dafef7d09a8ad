/**
 * What an API replica (`ponder serve`) needs beyond the indexer's settings (docs/operations.md
 * "Horizontal scaling: API replicas").
 *
 * A replica always runs behind a load balancer, so its own address is never the address clients
 * use. Without `PUBLIC_BASE_URL` the service falls back to `http://localhost:<PORT>`, which then
 * lands in every `token_url`, feed link, sign-in message (its `URI` and domain) and the CSRF origin
 * check, all naming the replica instead of the public site. The indexer keeps that fallback (it is
 * right for `npm start`'s devnet, where the indexer is the site); a replica refuses to start
 * without the setting.
 */
import { isIndexerProcess } from "./metrics/access";

/**
 * The settings problems of this process as a replica, one line each naming the setting.
 * @param env - the validated settings (`PUBLIC_BASE_URL`)
 * @param argv - the process arguments (`ponder serve` is a replica; `start`/`dev` are not)
 * @returns the problems; empty for an indexer or a replica with its public origin set
 * @example replicaConfigProblems({}, ["node", "ponder.js", "serve"]) // ["PUBLIC_BASE_URL: required on an API replica …"]
 */
export function replicaConfigProblems(env: { PUBLIC_BASE_URL?: string }, argv: readonly string[]): string[] {
  if (isIndexerProcess(argv) || !argv.slice(2).includes("serve")) return [];
  if (env.PUBLIC_BASE_URL) return [];
  return [
    "PUBLIC_BASE_URL: required on an API replica (ponder serve): without it token_url, feed links, sign-in messages and the origin check name this replica (http://localhost:<PORT>) instead of the public site; set it to the origin clients use, e.g. https://launch.example.com",
  ];
}
