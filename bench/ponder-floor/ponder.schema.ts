/**
 * Ponder needs a schema; the pipeline floor writes nothing, so this table stays empty.
 */
import { onchainTable } from "ponder";

export const unused = onchainTable("unused", (t) => ({ id: t.text().primaryKey() }));
