/**
 * Waits for the creator-funding scan (launches/creatorFunding.ts) to settle the given launches:
 * their records' `integrity.creator_funded` leaves `pending` in the background once the sniper
 * window is confirmed, so a test comparing two reads of a record must wait for it first.
 */
import { until, type Stack } from "./harness";

/**
 * Polls each token's integrity record until `creator_funded.status` is no longer `pending`.
 * @returns the settled statuses, by token
 */
export async function untilCreatorFundingSettled(stack: Stack, tokens: readonly string[]): Promise<string[]> {
  return until(
    "the creator-funding scan to settle every launch",
    async () => {
      const statuses: string[] = [];
      for (const token of tokens) {
        const { body } = await stack.request(`/api/public/token/${token}/integrity`);
        const status = body.integrity?.creator_funded?.status as string | undefined;
        if (!status || status === "pending") return undefined;
        statuses.push(status);
      }
      return statuses;
    },
    60_000,
  );
}
