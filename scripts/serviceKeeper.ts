/**
 * How `npm start` keeps the service (one `ponder start` child): it is stopped with the rest on a
 * signal, it never dies unnoticed (its exit stops everything with its code), and when
 * `INDEXER_RESTART_STALLED_SEC` > 0 a stalled indexer is replaced by a new `ponder start` on the
 * same database, which resumes from its checkpoint (scripts/indexerSupervisor.ts).
 */
import type { Env } from "../config/env";
import { rpcAnswers, superviseIndexer } from "./indexerSupervisor";
import { exitCause, type PonderProcess } from "./ponderProcess";
import type { StopSequence } from "./stopSequence";

/** A started service that stays current across supervisor restarts. */
export type KeptService = {
  /** The running process (replaced after a restart). */
  readonly service: PonderProcess;
  /** Starts the stall supervisor on these indexer RPC URLs (no-op when `INDEXER_RESTART_STALLED_SEC` is 0). */
  supervise(indexerRpcUrls: string[]): void;
};

/** What the keeper needs from `npm start`. */
export type KeeperOptions = {
  env: Pick<Env, "LOG_PONDER" | "SHUTDOWN_TIMEOUT_MS" | "INDEXER_RESTART_STALLED_SEC">;
  stops: Pick<StopSequence, "register" | "stopAll" | "stopping">;
  /** Prints one progress line. */
  step: (message: string) => void;
  /** Starts a service process and resolves once it answers `/health`. */
  start: () => Promise<PonderProcess>;
};

/**
 * Starts the service and registers its stop step: SIGTERM, then SIGKILL once its share of the stop
 * budget is spent (the current process, after restarts too).
 * @throws what `start` throws
 */
export async function startKeptService({ env, stops, step, start }: KeeperOptions): Promise<KeptService> {
  let current = await start();
  /** The supervisor is replacing the service: its exit is expected. */
  let restarting = false;

  /** Exits with the service's code (1 when killed by a signal), after the lines that say why. */
  const exitWithService = (service: PonderProcess) => {
    void service.exited.then((code) => {
      if (stops.stopping() || restarting) return;
      if (env.LOG_PONDER !== "1") console.error(`the service's last lines:\n${exitCause(service.output())}`);
      console.error(`the service exited with code ${code ?? "null (signal)"}; stopping`);
      void stops.stopAll(code || 1, "the service exited");
    });
  };

  stops.register({
    name: "the service",
    stop: (budgetMs) => current.stop(Math.max(0, budgetMs - 500)),
    kill: () => current.child.kill("SIGKILL"),
  });
  exitWithService(current);

  const supervise = (indexerRpcUrls: string[]) => {
    if (env.INDEXER_RESTART_STALLED_SEC === 0) return;
    const supervisor = superviseIndexer({
      serviceUrl: () => current.url,
      restartAfterSec: env.INDEXER_RESTART_STALLED_SEC,
      indexerRpcAnswers: () => rpcAnswers(indexerRpcUrls),
      onEvent: step,
      restart: async () => {
        restarting = true;
        try {
          await current.stop(Math.max(1_000, env.SHUTDOWN_TIMEOUT_MS - 500));
          if (stops.stopping()) return;
          current = await start().catch((err: Error) => {
            void stops.stopAll(1, "restarting the service failed");
            throw err;
          });
        } finally {
          restarting = false;
        }
        exitWithService(current);
        step(`the service is back on ${current.url} (restart ${supervisor.restarts()})`);
      },
    });
    stops.register({ name: "the indexer supervisor", stop: async () => supervisor.stop() });
  };

  return {
    get service() {
      return current;
    },
    supervise,
  };
}
