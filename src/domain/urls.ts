/**
 * Where a token's page lives: the one place its path and URL are built (pages, records, feeds,
 * integrations, the launch write path). Addresses are checksummed (EIP-55) in every URL.
 */
import { getAddress } from "viem";

/**
 * Path of a token's page.
 * @example tokenPath("0x1d84b75127c5e16b0980f0c678886a13a7bd17fc") // "/token/0x1D84b75127c5e16B0980f0C678886a13A7bD17Fc"
 */
export function tokenPath(token: string): string {
  return `/token/${getAddress(token)}`;
}

/**
 * Absolute URL of a token's page.
 * @param publicBaseUrl - the service's public base URL, without trailing slash
 * @example tokenUrl("https://launch.example", "0x1d84…") // "https://launch.example/token/0x1D84…"
 */
export function tokenUrl(publicBaseUrl: string, token: string): string {
  return `${publicBaseUrl}${tokenPath(token)}`;
}
