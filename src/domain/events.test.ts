import { describe, expect, it } from "vitest";
import { decodeEventPayload, encodeEventPayload, eventId } from "./events";

describe("eventId", () => {
  it("orders by block, then log index, then sub", () => {
    const ids = [eventId(5n, 0, 0), eventId(5n, 0, 1), eventId(5n, 1, 0), eventId(5n, 99_999, 9), eventId(6n, 0, 0)];
    expect([...ids].sort((a, b) => (a < b ? -1 : 1))).toEqual(ids);
    expect(eventId(12n, 3, 1)).toBe(12_000_031n);
  });
  it("rejects out-of-range parts", () => {
    expect(() => eventId(1n, 100_000, 0)).toThrow(RangeError);
    expect(() => eventId(1n, 0, 10)).toThrow(RangeError);
  });
});

describe("event payload text", () => {
  it("round-trips a payload with its key order, types and nulls", () => {
    const payload = { trade_id: "0xab-3", side: "buy", amount: "10", n: 1, ok: true, none: null };
    const json = encodeEventPayload(payload);
    expect(json).toBe('{"trade_id":"0xab-3","side":"buy","amount":"10","n":1,"ok":true,"none":null}');
    expect(decodeEventPayload(json)).toEqual(payload);
    expect(Object.keys(decodeEventPayload(json))).toEqual(Object.keys(payload));
  });
});
