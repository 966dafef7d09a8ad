/**
 * The launch state machine (docs/launch.md "States and transitions"; spec: "States and
 * transitions" — the spec orders the operations intent -> build -> confirm and leaves the states
 * open; this module fixes them). Pure: the store applies a transition with a conditional update
 * (`WHERE state IN (from…)`), so two concurrent requests can never both move a launch.
 *
 * ```
 * intent_created --build (signed, before expiry)--> built
 * intent_created --build/status after expiry-----> expired        (terminal)
 * built | submitted | failed --confirm: pending--> submitted
 * built | submitted | failed --confirm: verified-> confirmed      (terminal)
 * built | submitted | failed --confirm: failed---> failed         (retry only with another tx hash)
 * ```
 */

/** Every state a launch can be in. */
export const LAUNCH_STATES = ["intent_created", "built", "submitted", "confirmed", "failed", "expired"] as const;

/** A launch state. */
export type LaunchState = (typeof LAUNCH_STATES)[number];

/** What moves a launch. */
export type LaunchEvent =
  /** A valid creator signature before expiry (v1), or a session build. */
  | "build"
  /** The intent's expiry passed before it was built. */
  | "expire"
  /** Confirm/verify found no receipt yet. */
  | "confirm_pending"
  /** Confirm/verify passed every check and the launch was persisted. */
  | "confirm_verified"
  /** Confirm/verify found a receipt that fails a check. */
  | "confirm_failed";

/** States no operation ever leaves. */
export const TERMINAL_STATES: ReadonlySet<LaunchState> = new Set(["confirmed", "expired"]);

/** States a confirm (v1) or verify (session) may start from. */
export const CONFIRMABLE_STATES: readonly LaunchState[] = ["built", "submitted", "failed"];

/** The transition table: event -> the states it may start from and the state it leads to. */
export const TRANSITIONS: Readonly<Record<LaunchEvent, { from: readonly LaunchState[]; to: LaunchState }>> = {
  build: { from: ["intent_created"], to: "built" },
  expire: { from: ["intent_created"], to: "expired" },
  confirm_pending: { from: CONFIRMABLE_STATES, to: "submitted" },
  confirm_verified: { from: CONFIRMABLE_STATES, to: "confirmed" },
  confirm_failed: { from: CONFIRMABLE_STATES, to: "failed" },
};

/**
 * The state `event` leads to from `state`, or `null` when the transition is illegal.
 * @example nextState("intent_created", "build") // "built"
 * @example nextState("confirmed", "confirm_failed") // null
 */
export function nextState(state: LaunchState, event: LaunchEvent): LaunchState | null {
  const t = TRANSITIONS[event];
  return t.from.includes(state) ? t.to : null;
}

/** Whether `state` is terminal ({@link TERMINAL_STATES}). */
export function isTerminal(state: LaunchState): boolean {
  return TERMINAL_STATES.has(state);
}

/** Whether `value` is a known state. */
export function isLaunchState(value: string): value is LaunchState {
  return (LAUNCH_STATES as readonly string[]).includes(value);
}

/**
 * Operations a client may call next in `state` (the status record's `next_actions`).
 * @example nextActions("built") // ["build", "confirm"]
 */
export function nextActions(state: LaunchState): Array<"build" | "confirm"> {
  switch (state) {
    case "intent_created":
      return ["build"];
    case "built":
      return ["build", "confirm"];
    case "submitted":
    case "failed":
      return ["confirm"];
    case "confirmed":
      return ["confirm"]; // idempotent replay of the same transaction hash
    case "expired":
      return [];
  }
}

/** Whether an intent issued with `expiresAtSec` has expired at `nowSec` (expiry is exclusive). */
export function intentExpired(expiresAtSec: number | null, nowSec: number): boolean {
  return expiresAtSec !== null && nowSec >= expiresAtSec;
}
