// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";

/// @title LaunchToken
/// @notice A plain fixed-supply ERC20 (18 decimals). The whole supply is minted once, in the
///         constructor, to the deployer (the launch factory). There is no owner, no mint, no pause,
///         no blacklist and no fee on transfer.
/// @dev Every balance change also emits `HolderBalances`, an event only launch tokens emit, so an
///      indexer can follow holders of every launched token by one topic without receiving the
///      whole chain's ERC-20 `Transfer` logs (docs/operations.md, "Scale").
contract LaunchToken is ERC20 {
    /// @notice The fixed total supply: 1,000,000,000 tokens with 18 decimals.
    uint256 public constant TOTAL_SUPPLY = 1_000_000_000 * 10 ** 18;

    /// @notice Balances right after a balance change (a transfer, the constructor's mint). Emitted
    ///         after the standard `Transfer` of the same change.
    /// @param from The sender; the zero address for the mint.
    /// @param to The recipient; the zero address for a burn (this token has none).
    /// @param fromBalanceWei `balanceOf(from)` after the change, in base units; 0 for the zero address.
    /// @param toBalanceWei `balanceOf(to)` after the change, in base units; 0 for the zero address.
    event HolderBalances(address indexed from, address indexed to, uint256 fromBalanceWei, uint256 toBalanceWei);

    /// @param name_ The token name.
    /// @param symbol_ The token symbol.
    constructor(string memory name_, string memory symbol_) ERC20(name_, symbol_) {
        _mint(msg.sender, TOTAL_SUPPLY);
    }

    /// @dev OpenZeppelin's balance update (and its `Transfer`), then `HolderBalances` with both
    ///      post-change balances (a transfer to self reports the same balance twice).
    function _update(address from, address to, uint256 value) internal override {
        super._update(from, to, value);
        emit HolderBalances(
            from, to, from == address(0) ? 0 : balanceOf(from), to == address(0) ? 0 : balanceOf(to)
        );
    }
}
