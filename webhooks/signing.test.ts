import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { newSigningSecret, signMessage, webhookPayload } from "./signing";

describe("webhook signing (Standard Webhooks, standardwebhooks package)", () => {
  it("makes whsec_ secrets of 32 random bytes, never the same twice", () => {
    const a = newSigningSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(a.slice(6), "base64").byteLength).toBe(32);
    expect(newSigningSecret()).not.toBe(a);
  });

  it("signs so that the package's verifier accepts the exact body and headers, and refuses a changed body, id or secret", () => {
    const secret = newSigningSecret();
    const body = webhookPayload("trade", 1_700_000_000, { id: 42, kind: "trade" });
    const now = Date.now();
    const { headers } = signMessage("42", now, body, [secret]);
    expect(headers["webhook-id"]).toBe("42");
    expect(headers["webhook-timestamp"]).toBe(String(Math.floor(now / 1000)));
    expect(headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(secret).verify(body.replace("42", "43"), headers)).toThrow();
    expect(() => new Webhook(secret).verify(body, { ...headers, "webhook-id": "43" })).toThrow();
    expect(() => new Webhook(newSigningSecret()).verify(body, headers)).toThrow();
  });

  it("during a rotation signs with both secrets: a receiver holding either one verifies", () => {
    const [current, previous] = [newSigningSecret(), newSigningSecret()];
    const body = webhookPayload("launch", 1_700_000_000, { id: 7 });
    const { headers } = signMessage("7", Date.now(), body, [current, previous]);
    expect(headers["webhook-signature"].split(" ")).toHaveLength(2);
    expect(() => new Webhook(current).verify(body, headers)).not.toThrow();
    expect(() => new Webhook(previous).verify(body, headers)).not.toThrow();
    expect(() => new Webhook(newSigningSecret()).verify(body, headers)).toThrow();
  });

  it("wraps the record as {type, timestamp, data} with the event time in ISO 8601", () => {
    expect(JSON.parse(webhookPayload("trade", 1_700_000_000, { id: 7 }))).toEqual({
      type: "trade",
      timestamp: "2023-11-14T22:13:20.000Z",
      data: { id: 7 },
    });
  });

  it("refuses to sign without a secret", () => {
    expect(() => signMessage("1", Date.now(), "{}", [])).toThrow(/at least one secret/);
  });
});
