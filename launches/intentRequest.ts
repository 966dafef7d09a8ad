/**
 * The launch request (spec: "Launch request fields"; docs/trust.md "Bounds"): the zod schema every
 * surface validates an intent body with, and the rule that an `image_url` is one this service
 * issued. Name 1–32 characters (no control characters), symbol 1–11 of [A-Za-z0-9], description
 * <= 1000 characters, URLs https and <= 256 characters (twitter_url on x.com/twitter.com,
 * telegram_url on t.me/telegram.me), first_buy_wei a decimal string in [0, 100 ETH], slippage_bps
 * an integer in [0, 5000] (default 300); unknown fields are refused.
 */
import { getAddress, isAddress } from "viem";
import { z } from "zod";
import { DEFAULT_SLIPPAGE_BPS, MAX_FIRST_BUY_WEI, MAX_SLIPPAGE_BPS } from "../src/domain/launchBounds";

/** Media URLs this service issues: `{base}/media/{32 hex}.{ext}`. */
export const MEDIA_PATH = /^\/media\/([0-9a-f]{32})\.(png|jpg|webp|gif)$/;

const noControl = (s: string) => !/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/.test(s);

function httpsUrl(hosts?: string[]) {
  return z
    .string()
    .max(256, "must be at most 256 characters")
    .refine(
      (v) => {
        try {
          const u = new URL(v);
          if (u.protocol !== "https:" || u.username || u.password) return false;
          return !hosts || hosts.includes(u.hostname.toLowerCase().replace(/^(www|mobile)\./, ""));
        } catch {
          return false;
        }
      },
      hosts ? `must be an https URL on ${hosts.join(" or ")}` : "must be an https URL",
    );
}

/** The intent body (spec: Launch request fields). */
export const intentRequestSchema = z.strictObject({
  creator: z
    .string()
    .refine((v) => isAddress(v, { strict: false }), {
      message: "must be a 20-byte hex address",
      params: { code: "invalid_address" },
    })
    .transform((v) => getAddress(v)),
  name: z
    .string()
    .transform((s) => s.trim())
    .pipe(
      z
        .string()
        .min(1, "must not be empty")
        .max(32, "must be at most 32 characters")
        .refine(noControl, "must not contain control characters"),
    ),
  symbol: z.string().regex(/^[A-Za-z0-9]{1,11}$/, "must be 1-11 letters or digits"),
  description: z.string().max(1000, "must be at most 1000 characters").optional(),
  image_url: z.string().max(256, "must be at most 256 characters").optional(),
  first_buy_wei: z
    .string()
    .regex(/^(0|[1-9][0-9]{0,29})$/, "must be a decimal string of wei")
    .refine(
      (v) => !/^\d+$/.test(v) || BigInt(v) <= MAX_FIRST_BUY_WEI,
      "must be at most 100 ETH (100000000000000000000 wei)",
    )
    .default("0"),
  slippage_bps: z
    .number({ message: "must be an integer" })
    .int("must be an integer")
    .min(0, "must be at least 0")
    .max(MAX_SLIPPAGE_BPS, `must be at most ${MAX_SLIPPAGE_BPS}`)
    .default(DEFAULT_SLIPPAGE_BPS),
  website_url: httpsUrl().optional(),
  twitter_url: httpsUrl(["x.com", "twitter.com"]).optional(),
  telegram_url: httpsUrl(["t.me", "telegram.me"]).optional(),
});

/** A validated intent request. */
export type IntentRequest = z.infer<typeof intentRequestSchema>;

/**
 * The media id in an image URL this service issued, or `null` for any other URL.
 * @example mediaIdFromUrl("https://x.example/media/0123…ef.png", "https://x.example") // "0123…ef"
 */
export function mediaIdFromUrl(url: string, publicBaseUrl: string): string | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return null;
  }
  if (u.origin !== new URL(publicBaseUrl).origin || u.search || u.hash) return null;
  return MEDIA_PATH.exec(u.pathname)?.[1] ?? null;
}
