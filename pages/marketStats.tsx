/**
 * The token page's market figures: price, 24 h change, market cap, volumes, liquidity, trades,
 * holders and the graduation bar, each ETH figure with its USD value when the service has an
 * ETH/USD reference. `token.js` keeps them current by their ids.
 */
import type { z } from "zod";
import type { tokenWire } from "../market/wire";
import { compactPrice, formatAmount, usdText } from "./format";
import { Change, GraduationBar } from "./tokenParts";

/** The market figures of one token record. */
export function MarketStats({ token }: { token: z.infer<typeof tokenWire> }) {
  return (
    <section class="stats" aria-label="Market">
      <Stat
        label="Price"
        value={`${compactPrice(token.price_wei)} ETH`}
        usd={usdText(token.price_usd)}
        id="stat-price"
      />
      <div class="stat">
        <span class="label">24 h change</span>
        <span class="value">
          <Change bps={token.price_change_24h_bps} id="stat-change-24h" />
        </span>
      </div>
      <Stat
        label="Market cap"
        value={`${formatAmount(token.market_cap_wei, 18, 4)} ETH`}
        usd={usdText(token.market_cap_usd)}
        id="stat-mcap"
      />
      <Stat
        label="Volume 24 h"
        value={token.volume_24h_wei === null ? "—" : `${formatAmount(token.volume_24h_wei, 18, 4)} ETH`}
        usd={usdText(token.volume_24h_usd)}
        id="stat-volume-24h"
      />
      <Stat
        label="Volume (all)"
        value={`${formatAmount(token.volume_wei, 18, 4)} ETH`}
        usd={usdText(token.volume_usd)}
        id="stat-volume"
      />
      <Stat
        label="Liquidity"
        value={`${formatAmount(token.liquidity.total_value_wei, 18, 4)} ETH`}
        usd={usdText(token.liquidity.total_value_usd)}
        id="stat-liquidity"
      />
      <Stat
        label="Trades"
        value={`${token.trade_count} (${token.buy_count} buys, ${token.sell_count} sells)`}
        id="stat-trades"
      />
      <Stat label="Holders" value={String(token.holder_count)} id="stat-holders" />
      <div class="stat wide">
        <span class="label">Graduation</span>
        <span class="value">
          <GraduationBar bps={token.graduation_progress_bps} graduated={token.graduated} id="stat-graduation" />
        </span>
      </div>
    </section>
  );
}

function Stat({ label, value, id, usd }: { label: string; value: string; id: string; usd?: string | null }) {
  return (
    <div class="stat">
      <span class="label">{label}</span>
      <span class="value" id={id}>
        {value}
      </span>
      {usd ? (
        <span class="usd" id={`${id}-usd`}>
          ≈ {usd}
        </span>
      ) : null}
    </div>
  );
}
