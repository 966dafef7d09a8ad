// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";

/// @title DevStablecoin
/// @notice A devnet-only stand-in for a USD stablecoin: 6 decimals like USDC and USDT, so the
///         WETH/stablecoin reference pool (`ETH_USD_POOL`) has a real chain's shape. Anyone may
///         mint: it exists only on the local devnet, where it has no value. Never deploy it on a
///         real chain.
contract DevStablecoin is ERC20 {
    constructor() ERC20("Devnet USD", "dUSD") {}

    /// @notice 6, as USDC and USDT.
    function decimals() public pure override returns (uint8) {
        return 6;
    }

    /// @notice Mints `amount` base units (10^-6 dUSD) to `to`.
    /// @param to Receiver.
    /// @param amount Base units.
    function mint(address to, uint256 amount) external {
        _mint(to, amount);
    }
}
