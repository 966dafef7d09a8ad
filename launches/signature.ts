/**
 * The creator's signature over a launch intent (docs/launch.md "Build"): EIP-191 personal_sign,
 * checked locally for a plain key and on chain for contract wallets.
 */
import { isAddressEqual, recoverMessageAddress, type Address, type Hex, type PublicClient } from "viem";
import { ChainUnavailableError } from "./errors";

/**
 * Whether `signature` is the creator's personal_sign (EIP-191) of `message`: EOA signatures,
 * ERC-1271 contract wallets and ERC-6492 counterfactual wallets (viem `verifyMessage`). A plain
 * ECDSA signature recovering to `creator` is accepted without an RPC call.
 * @throws ChainUnavailableError when the RPC cannot be reached for a contract wallet
 */
export async function creatorSigned(
  publicClient: PublicClient,
  creator: Address,
  message: string,
  signature: Hex,
): Promise<boolean> {
  // An ECDSA signature by the creator's own key needs no RPC (viem's verifyMessage tries the
  // ERC-6492 validator call first and recovers only after it fails: with the RPC stalled that
  // doubled a build's time to failure). Anything else goes to the chain.
  try {
    if (isAddressEqual(await recoverMessageAddress({ message, signature }), creator)) return true;
  } catch {
    // not a plain 65-byte ECDSA signature (ERC-1271 / ERC-6492): verified on chain below
  }
  try {
    return await publicClient.verifyMessage({ address: creator, message, signature });
  } catch (err) {
    const name = (err as Error)?.name ?? "";
    if (/HttpRequestError|TimeoutError|RpcRequestError|WebSocketRequestError/.test(name)) {
      throw new ChainUnavailableError("the chain RPC failed while checking the signature; retry");
    }
    return false;
  }
}
