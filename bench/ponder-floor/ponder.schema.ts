/**
 * The pipeline floor writes nothing, so `unused` stays empty. With `PONDER_FLOOR_WRITES=trades`
 * (bench/ponder-floor/src/index.ts) it writes one row per Swap into the service's own `trade`
 * table (same columns and indexes), the one row per swap no service that serves trades can skip.
 */
import { onchainTable } from "ponder";

export { trade, tradeSide } from "../../ponder.schema";

export const unused = onchainTable("unused", (t) => ({ id: t.text().primaryKey() }));
