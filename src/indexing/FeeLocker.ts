/**
 * `FeesCollected` of the fee locker -> fee-claim rows, per-token creator/protocol fee totals and
 * `fee_claim` events. Only positions created by an accepted launch count: anyone may hand a
 * position to the locker, so the position must be one listed in the token's launch event.
 */
import { ponder } from "ponder:registry";
import { event as eventTable, feeClaim, token } from "../../ponder.schema";
import { encodeEventPayload, eventId } from "../domain/events";
import { decodePositionIds } from "../domain/positions";
import { lower } from "../domain/hex";

ponder.on("FeeLocker:FeesCollected", async ({ event, context }) => {
  const args = event.args;
  const tokenRow = await context.db.find(token, { address: lower(args.token) });
  if (!tokenRow || !decodePositionIds(tokenRow.positionIdsCsv).includes(args.positionId)) return;

  // token0/token1 amounts -> token and WETH sides.
  const tokenIsToken0 = tokenRow.tokenIsToken0;
  const creatorFeesToken = tokenIsToken0 ? args.creatorAmount0 : args.creatorAmount1;
  const creatorFeesWei = tokenIsToken0 ? args.creatorAmount1 : args.creatorAmount0;
  const protocolFeesToken = tokenIsToken0 ? args.protocolAmount0 : args.protocolAmount1;
  const protocolFeesWei = tokenIsToken0 ? args.protocolAmount1 : args.protocolAmount0;

  await context.db.insert(feeClaim).values({
    id: `${event.transaction.hash}-${event.log.logIndex}`,
    positionId: args.positionId,
    token: tokenRow.address,
    creator: lower(args.creator),
    creatorFeesWei,
    creatorFeesToken,
    protocolFeesWei,
    protocolFeesToken,
    blockNumber: event.block.number,
    logIndex: event.log.logIndex,
    timestampSec: event.block.timestamp,
    txHash: event.transaction.hash,
  });
  await context.db.update(token, { address: tokenRow.address }).set((row) => ({
    creatorFeesWei: row.creatorFeesWei + creatorFeesWei,
    creatorFeesToken: row.creatorFeesToken + creatorFeesToken,
    protocolFeesWei: row.protocolFeesWei + protocolFeesWei,
    protocolFeesToken: row.protocolFeesToken + protocolFeesToken,
  }));
  await context.db.insert(eventTable).values({
    id: eventId(event.block.number, event.log.logIndex, 0),
    kind: "fee_claim",
    token: tokenRow.address,
    blockNumber: event.block.number,
    logIndex: event.log.logIndex,
    timestampSec: event.block.timestamp,
    txHash: event.transaction.hash,
    payloadJson: encodeEventPayload({
      position_id: args.positionId.toString(),
      creator: lower(args.creator),
      creator_fees_wei: creatorFeesWei.toString(),
      creator_fees_token: creatorFeesToken.toString(),
      protocol_fees_wei: protocolFeesWei.toString(),
      protocol_fees_token: protocolFeesToken.toString(),
    }),
  });
});
