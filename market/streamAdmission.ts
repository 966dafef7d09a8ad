/**
 * The streams' connection caps: open streams per client IP and per process.
 */
import type { StreamSettings } from "./streamSettings";
import { TooManyStreamsError } from "./errors";

/**
 * Counts open streams against `settings.maxPerIp` and `settings.maxConnections`.
 * @returns `admit`, and the number of open streams (`connections`)
 */
export function streamAdmission(settings: Pick<StreamSettings, "maxPerIp" | "maxConnections">) {
  const perIp = new Map<string, number>();
  let connections = 0;
  return {
    /** Open streams now. */
    get connections(): number {
      return connections;
    },
    /**
     * Counts a new connection against the caps.
     * @returns `release`, to call once when the connection ends
     * @throws TooManyStreamsError over the per-IP or per-process cap
     */
    admit(ip: string): { release: () => void } {
      const held = perIp.get(ip) ?? 0;
      if (held >= settings.maxPerIp)
        throw new TooManyStreamsError(`this client already holds ${held} open streams (at most ${settings.maxPerIp})`);
      if (connections >= settings.maxConnections)
        throw new TooManyStreamsError(`the service holds its maximum of ${settings.maxConnections} open streams`);
      perIp.set(ip, held + 1);
      connections++;
      let released = false;
      return {
        release: () => {
          if (released) return;
          released = true;
          connections--;
          const left = (perIp.get(ip) ?? 1) - 1;
          if (left > 0) perIp.set(ip, left);
          else perIp.delete(ip);
        },
      };
    },
  };
}
