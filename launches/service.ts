/**
 * The launch service: one instance per app, built by `createApp`, serving both surfaces (spec:
 * "Launch write path"). The key-authenticated surface runs intent → build → confirm → status
 * (`./apiKeyLaunches.ts`); the browser session surface runs build → verify (`./sessionLaunches.ts`).
 * Both share the steps (`./buildStep.ts`, `./confirmStep.ts`, `./statusStep.ts`), the store, the
 * chain client and the observer, so a launch is built and verified by the same code whichever
 * surface it came from. No HTTP here: results are typed unions, errors are `ServiceError` classes
 * (`./errors.ts`) that `http/serviceErrors.ts` maps to the catalogue.
 */
import type { z } from "zod";
import type { Limits } from "../config/limits";
import { type ApiKeyLaunchDeps, apiKeyLaunches } from "./apiKeyLaunches";
import { launchDepsFor } from "./launchDeps";
import type { sessionBuildSchema, sessionVerifySchema } from "./requestSchemas";
import { type SessionBuildResult, type SessionVerifyResult, sessionBuild, sessionVerify } from "./sessionLaunches";

/** What the launch service needs: the API-key use cases' dependencies plus the session surface's bounds. */
export type LaunchServiceDeps = ApiKeyLaunchDeps & {
  limits: ApiKeyLaunchDeps["limits"] & Pick<Limits, "openBuildsPerSession">;
  /** How long a session verify waits for the indexer's token row, ms (`LAUNCH_REDIRECT_WAIT_MS`). */
  redirectWaitMs: number;
};

/** The service: `apiKey` for `/api/v1`, `session` for the browser session surface. */
export type LaunchService = ReturnType<typeof launchService>;

/**
 * Builds the launch service.
 * @param deps - store getter, chain client, deployment, quotas and bounds, clocks, intent lifetime,
 *   redirect wait, observer
 * @example const launches = launchService(deps); await launches.session.build(sessionId, body)
 */
export function launchService(deps: LaunchServiceDeps) {
  const stepDeps = () => launchDepsFor(deps);
  return {
    /** The key-authenticated use cases: intent, build, confirm, status (./apiKeyLaunches.ts). */
    apiKey: apiKeyLaunches(deps),
    session: {
      /**
       * `build-direct-v3-launch` for a signed-in session, bounded by `openBuildsPerSession`.
       * @throws what `sessionBuild` throws (BoundReachedError at the session's bound)
       */
      async build(sessionId: string, body: z.infer<typeof sessionBuildSchema>): Promise<SessionBuildResult> {
        return sessionBuild(await stepDeps(), sessionId, body, { maxOpenBuilds: deps.limits.openBuildsPerSession });
      },
      /**
       * `verify-direct-v3-launch`: verifies the receipt (dry run or persist), `pending` while unmined.
       * @throws what `sessionVerify` throws
       */
      async verify(sessionId: string, req: z.infer<typeof sessionVerifySchema>): Promise<SessionVerifyResult> {
        return sessionVerify({ ...(await stepDeps()), redirectWaitMs: deps.redirectWaitMs }, sessionId, req);
      },
    },
  };
}
