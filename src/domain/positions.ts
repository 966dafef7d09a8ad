/**
 * Locked position ids of a token, stored as text in `token.position_ids_csv`: comma-separated
 * decimal ids in launch-event order (Ponder copies rows of text-only tables cheaply, see
 * ponder.schema.ts).
 */

/**
 * Encodes position ids for the `token.position_ids_csv` column.
 *
 * @param positionIds - Uniswap V3 position NFT ids, in launch-event order
 * @returns comma-separated decimals, `""` for none
 * @example encodePositionIds([7n, 8n]) // "7,8"
 */
export function encodePositionIds(positionIds: readonly bigint[]): string {
  return positionIds.join(",");
}

/**
 * Decodes the `token.position_ids_csv` column.
 *
 * @param csv - comma-separated decimal ids as written by `encodePositionIds`
 * @returns the ids in stored order, `[]` for `""`
 * @throws SyntaxError when an element is not an integer (never for rows this indexer wrote)
 * @example decodePositionIds("7,8") // [7n, 8n]
 */
export function decodePositionIds(csv: string): bigint[] {
  return csv === "" ? [] : csv.split(",").map((id) => BigInt(id));
}
