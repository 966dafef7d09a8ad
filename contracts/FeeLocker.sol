// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {IERC721Receiver} from "@openzeppelin/contracts/token/ERC721/IERC721Receiver.sol";
import {ReentrancyGuard} from "@openzeppelin/contracts/utils/ReentrancyGuard.sol";
import {INonfungiblePositionManager} from "./interfaces/IUniswapV3.sol";

/// @title FeeLocker
/// @notice Holds Uniswap V3 position NFTs forever and splits their trading fees 70/30 between the
///         launch creator and the protocol.
/// @dev There is deliberately no function that transfers, approves, burns or decreases the
///      liquidity of a position: once an NFT arrives here it can never leave. The only thing that
///      can be done with a locked position is `collectFees`, callable by anyone, which always pays
///      the fixed split to the recorded creator and the immutable protocol fee recipient.
contract FeeLocker is IERC721Receiver, ReentrancyGuard {
    using SafeERC20 for IERC20;

    /// @notice Share of collected fees paid to the creator, in basis points (70%).
    uint256 public constant CREATOR_SHARE_BPS = 7000;
    uint256 private constant BPS_DENOMINATOR = 10_000;

    /// @notice The Uniswap V3 NonfungiblePositionManager whose NFTs this locker accepts.
    address public immutable positionManager;
    /// @notice Receives the protocol's 30% of every fee collection.
    address public immutable protocolFeeRecipient;

    struct LockedPosition {
        address creator;
        address token;
        address token0;
        address token1;
    }

    mapping(uint256 positionId => LockedPosition) private _positions;

    /// @notice A position NFT was received and is now locked forever.
    /// @param positionId The NonfungiblePositionManager token id.
    /// @param creator Who receives the creator share of this position's fees.
    /// @param token The launched token the position belongs to.
    /// @param lockedBy The previous owner of the NFT (the launch factory for launches).
    event PositionLocked(uint256 indexed positionId, address indexed creator, address indexed token, address lockedBy);

    /// @notice Fees of a locked position were collected and split. Amounts are in token base units.
    event FeesCollected(
        uint256 indexed positionId,
        address indexed creator,
        address indexed token,
        address token0,
        address token1,
        uint256 amount0,
        uint256 amount1,
        uint256 creatorAmount0,
        uint256 creatorAmount1,
        uint256 protocolAmount0,
        uint256 protocolAmount1
    );

    /// @notice A constructor argument was the zero address.
    error ZeroAddress();
    /// @notice `onERC721Received` was called by something other than the position manager.
    error NotPositionManager(address caller);
    /// @notice The lock data had a zero creator, or a token that is not one of the position's tokens.
    error InvalidLockData(address creator, address token);
    /// @notice The position id is not locked here.
    error UnknownPosition(uint256 positionId);

    /// @param positionManager_ The Uniswap V3 NonfungiblePositionManager.
    /// @param protocolFeeRecipient_ Receives 30% of all collected fees.
    constructor(address positionManager_, address protocolFeeRecipient_) {
        if (positionManager_ == address(0) || protocolFeeRecipient_ == address(0)) revert ZeroAddress();
        positionManager = positionManager_;
        protocolFeeRecipient = protocolFeeRecipient_;
    }

    /// @notice Accepts a position NFT sent with `safeTransferFrom` by the position manager.
    /// @param from The previous owner of the NFT.
    /// @param tokenId The position id.
    /// @param data `abi.encode(address creator, address token)`; `token` must be token0 or token1 of the position.
    /// @return The ERC721 receiver selector.
    function onERC721Received(address, address from, uint256 tokenId, bytes calldata data)
        external
        override
        returns (bytes4)
    {
        if (msg.sender != positionManager) revert NotPositionManager(msg.sender);
        (address creator, address token) = abi.decode(data, (address, address));
        (,, address token0, address token1,,,,,,,,) = INonfungiblePositionManager(positionManager).positions(tokenId);
        if (creator == address(0) || (token != token0 && token != token1)) revert InvalidLockData(creator, token);
        _positions[tokenId] = LockedPosition({creator: creator, token: token, token0: token0, token1: token1});
        emit PositionLocked(tokenId, creator, token, from);
        return IERC721Receiver.onERC721Received.selector;
    }

    /// @notice The creator recorded for a locked position.
    /// @param positionId The position id.
    /// @return The creator address (zero if the position is not locked here).
    function positionCreator(uint256 positionId) external view returns (address) {
        return _positions[positionId].creator;
    }

    /// @notice The launched token recorded for a locked position.
    /// @param positionId The position id.
    /// @return The token address (zero if the position is not locked here).
    function positionToken(uint256 positionId) external view returns (address) {
        return _positions[positionId].token;
    }

    /// @notice Collects all fees owed to a locked position and pays 70% to its creator and 30% to
    ///         the protocol fee recipient, for both tokens. Callable by anyone.
    /// @param positionId The position id.
    /// @return amount0 Total token0 collected (base units).
    /// @return amount1 Total token1 collected (base units).
    function collectFees(uint256 positionId) external nonReentrant returns (uint256 amount0, uint256 amount1) {
        return _collect(positionId);
    }

    /// @notice `collectFees` for several positions in one transaction.
    /// @param positionIds The position ids; each must be locked here.
    function collectFeesMany(uint256[] calldata positionIds) external nonReentrant {
        for (uint256 i = 0; i < positionIds.length; ++i) {
            _collect(positionIds[i]);
        }
    }

    function _collect(uint256 positionId) private returns (uint256 amount0, uint256 amount1) {
        LockedPosition memory p = _positions[positionId];
        if (p.creator == address(0)) revert UnknownPosition(positionId);
        (amount0, amount1) = INonfungiblePositionManager(positionManager).collect(
            INonfungiblePositionManager.CollectParams({
                tokenId: positionId,
                recipient: address(this),
                amount0Max: type(uint128).max,
                amount1Max: type(uint128).max
            })
        );
        uint256 creatorAmount0 = _pay(p.token0, p.creator, amount0);
        uint256 creatorAmount1 = _pay(p.token1, p.creator, amount1);
        emit FeesCollected(
            positionId,
            p.creator,
            p.token,
            p.token0,
            p.token1,
            amount0,
            amount1,
            creatorAmount0,
            creatorAmount1,
            amount0 - creatorAmount0,
            amount1 - creatorAmount1
        );
    }

    /// @dev Pays the creator share of `amount` to `creator` and the rest to the protocol.
    function _pay(address token, address creator, uint256 amount) private returns (uint256 creatorAmount) {
        creatorAmount = amount * CREATOR_SHARE_BPS / BPS_DENOMINATOR;
        uint256 protocolAmount = amount - creatorAmount;
        if (creatorAmount > 0) IERC20(token).safeTransfer(creator, creatorAmount);
        if (protocolAmount > 0) IERC20(token).safeTransfer(protocolFeeRecipient, protocolAmount);
    }
}
