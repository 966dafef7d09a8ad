/**
 * The SDK's `verifyWebhook` accepts exactly what the service's signer (webhooks/signing.ts, the
 * `standardwebhooks` package) sends: a delivery signed with the endpoint's secret verifies and
 * yields its payload, also during a rotation (two signatures); a changed body, another secret, a
 * stale timestamp or a missing header is a WebhookVerificationError.
 */
import { describe, expect, it } from "vitest";
import { verifyWebhook, WebhookVerificationError } from "../../sdk/src/index";
import { newSigningSecret, signMessage, webhookPayload } from "../../webhooks/signing";

const secret = newSigningSecret();
const body = webhookPayload("trade", 1_700_000_000, { id: 7, kind: "trade" });

describe("verifyWebhook", () => {
  it("verifies a delivery the service signed and returns its payload (Headers or a plain object)", () => {
    const signed = signMessage("42", Date.now(), body, [secret]);
    const expected = { type: "trade", timestamp: "2023-11-14T22:13:20.000Z", data: { id: 7, kind: "trade" } };
    expect(verifyWebhook(signed.body, signed.headers, secret)).toEqual(expected);
    expect(verifyWebhook(signed.body, new Headers(signed.headers), secret)).toEqual(expected);
  });

  it("verifies with either secret during a rotation", () => {
    const next = newSigningSecret();
    const signed = signMessage("43", Date.now(), body, [next, secret]);
    expect(verifyWebhook(signed.body, signed.headers, secret).type).toBe("trade");
    expect(verifyWebhook(signed.body, signed.headers, next).type).toBe("trade");
  });

  it("refuses a changed body, another secret, a stale timestamp and a missing header", () => {
    const signed = signMessage("44", Date.now(), body, [secret]);
    const refuse = (payload: string, headers: Record<string, string>, key: string) =>
      expect(() => verifyWebhook(payload, headers, key)).toThrow(WebhookVerificationError);
    refuse(signed.body.replace('"id":7', '"id":8'), signed.headers, secret);
    refuse(signed.body, signed.headers, newSigningSecret());
    const stale = signMessage("45", Date.now() - 10 * 60_000, body, [secret]);
    refuse(stale.body, stale.headers, secret);
    const { "webhook-signature": _dropped, ...unsigned } = signed.headers;
    refuse(signed.body, unsigned, secret);
  });
});
