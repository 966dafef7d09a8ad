import { describe, expect, it } from "vitest";
import { statedAt } from "./claimed";

describe("statedAt", () => {
  const head = { blockNumber: 10n, timestampSec: 100n };
  it("states the answer at the head when no collection is newer", () => {
    expect(statedAt(head, null)).toEqual(head);
    expect(statedAt(head, { blockNumber: 9n, timestampSec: 90n })).toEqual(head);
    expect(statedAt(head, { blockNumber: 10n, timestampSec: 100n })).toEqual(head);
  });
  it("moves to the newest collection when the rows already hold a later block", () => {
    expect(statedAt(head, { blockNumber: 12n, timestampSec: 120n })).toEqual({ blockNumber: 12n, timestampSec: 120n });
  });
});
