/**
 * Wire schema of the launch-integrity record (docs/public.md "Launch integrity"), served by
 * `GET /api/public/token/{address_or_slug}/integrity`, its v1 mirror and as `integrity` on the
 * token detail record. Conventions of `market/wire.ts`: token amounts as decimal strings of base
 * units, shares in basis points of the total supply rounded down.
 */
import { z } from "zod";
import { addressWire, blockNumber, okBody, uintString } from "../src/domain/wire";

const bps = z.number().int().min(0).max(10_000);

const groupFields = {
  count: z.number().int().nonnegative().meta({ description: "addresses in the group" }),
  tokens_bought_wei: uintString.meta({
    description: "tokens (base units) the pool sent to the group's addresses by the buys that qualified them",
  }),
  held_wei: uintString.meta({ description: "the group's current balances, summed (token base units)" }),
  held_bps: bps.meta({ description: "held_wei / total_supply in basis points, rounded down" }),
};

/** The launch-integrity record of one token. */
export const integrityWire = z
  .object({
    token: addressWire,
    creator: addressWire,
    launch_block_number: blockNumber,
    total_supply: uintString.meta({ description: "token base units" }),
    creator_balance_wei: uintString.meta({ description: "the creator's balance now (token base units)" }),
    creator_balance_bps: bps.meta({ description: "creator_balance_wei / total_supply, bps rounded down" }),
    creator_balance_at_launch_wei: uintString.meta({
      description: "the creator's balance right after the launch transaction, its first buy included",
    }),
    creator_balance_at_launch_bps: bps.meta({ description: "creator_balance_at_launch_wei / total_supply, bps" }),
    snipers: z
      .object({
        window_blocks: z.number().int().nonnegative().meta({
          description: "a buy in the launch block or the next window_blocks blocks makes its recipient a sniper",
        }),
        ...groupFields,
      })
      .meta({
        description:
          "recipients other than the creator of a buy in the launch block or the next window_blocks blocks (1 s at 100 ms blocks)",
      }),
    bundled: z.object(groupFields).meta({
      description: "recipients other than the creator of a buy in the launch block (the launch transaction included)",
    }),
    top10_balance_bps: bps.meta({
      description: "the ten largest balances other than the token's pool and the fee locker, summed, / total_supply",
    }),
    holder_count: z.number().int().nonnegative().meta({ description: "addresses holding a non-zero balance" }),
    creator_funded: z
      .object({
        status: z.enum(["measured", "pending", "unavailable"]).meta({
          description:
            "measured: the creator's transactions in the window were read; pending: not yet (the sniper window's blocks are read once confirmed); unavailable: not measurable (reason)",
        }),
        available: z.boolean().meta({ description: "true exactly when status is measured" }),
        count: z.number().int().nonnegative().nullable().meta({
          description:
            "snipers the creator sent native ETH to (or to the sender of their first buy) before their first buy",
        }),
        funded_eth_wei: uintString.nullable().meta({ description: "the ETH (wei) those transfers carried, summed" }),
        held_wei: uintString
          .nullable()
          .meta({ description: "those snipers' current balances, summed (token base units)" }),
        held_bps: bps.nullable().meta({ description: "held_wei / total_supply in basis points, rounded down" }),
        window_start_block: blockNumber.nullable().meta({
          description: "first block whose creator transactions were read (24 h of blocks before the launch block)",
        }),
        window_end_block: blockNumber
          .nullable()
          .meta({ description: "last block read: the sniper window's last block" }),
        reason: z
          .string()
          .nullable()
          .meta({ description: "why the figure is pending or unavailable; null when measured" }),
      })
      .meta({
        description:
          "snipers funded by the creator: the creator's direct native ETH transfers (its own transactions with value) read from the chain once the sniper window is confirmed; transfers made through a contract are not seen",
      }),
  })
  .meta({ id: "TokenIntegrity", description: "Launch integrity figures of one token (docs: Launch integrity)." });

/** `GET …/integrity` answer. */
export const integrityBody = okBody({ integrity: integrityWire });
