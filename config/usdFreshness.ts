/**
 * When the ETH/USD reference counts as stale (docs/public.md "USD values", "Staleness").
 *
 * {@link ETH_USD_STALE_AFTER_SEC} = 3,600 s, the heartbeat of the widely used ETH/USD oracle feeds:
 * a reference price set more than an hour before the service's clock is not a current market
 * price, and the token record says `usd_stale: true`. A constant, not a setting: making it one
 * needs its declaration in the settings schema (`config/env.ts`).
 */

/** Staleness threshold of the ETH/USD reference price, seconds. */
export const ETH_USD_STALE_AFTER_SEC = 3_600;
