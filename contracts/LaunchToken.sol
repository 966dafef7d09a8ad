// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";

/// @title LaunchToken
/// @notice A plain fixed-supply ERC20 (18 decimals). The whole supply is minted once, in the
///         constructor, to the deployer (the launch factory). There is no owner, no mint, no pause,
///         no blacklist and no fee on transfer.
contract LaunchToken is ERC20 {
    /// @notice The fixed total supply: 1,000,000,000 tokens with 18 decimals.
    uint256 public constant TOTAL_SUPPLY = 1_000_000_000 * 10 ** 18;

    /// @param name_ The token name.
    /// @param symbol_ The token symbol.
    constructor(string memory name_, string memory symbol_) ERC20(name_, symbol_) {
        _mint(msg.sender, TOTAL_SUPPLY);
    }
}
