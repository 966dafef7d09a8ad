/**
 * Wire schemas of the launch surface's records (docs/launch.md): the transaction a wallet sends,
 * the pool policy and a launch's state.
 */
import { z } from "zod";
import { addressWire, uintString } from "./wirePrimitives";

/** EIP-1193 transaction the wallet sends unchanged (spec: Transaction). */
export const transactionWire = z
  .looseObject({
    chainId: z.string().regex(/^0x[0-9a-f]+$/),
    from: addressWire,
    to: addressWire,
    value: z
      .string()
      .regex(/^0x[0-9a-f]+$/)
      .meta({ description: "hex quantity in wei" }),
    data: z.string().regex(/^0x[0-9a-f]*$/i),
  })
  .meta({ id: "Transaction" });

/** Launch pool policy (spec: Policy). */
export const policyWire = z
  .object({
    minimum_pool_liquidity_wei: uintString,
    first_buy_amount_wei: uintString,
    total_transaction_value_wei: uintString,
  })
  .meta({ id: "Policy" });

/** A launch's state record (docs/launch.md "States"). */
export const launchStateWire = z
  .looseObject({
    launch_id: z.string(),
    state: z.enum(["intent_created", "built", "submitted", "failed", "confirmed", "expired"]),
  })
  .meta({ id: "LaunchState" });
