// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {SafeCast} from "@openzeppelin/contracts/utils/math/SafeCast.sol";
import {IUniswapV3Pool, IUniswapV3SwapCallback, IWETH9} from "./interfaces/IUniswapV3.sol";

/// @title SwapBatcher (devnet and benchmarks only; never deployed in production)
/// @notice Makes many real Uniswap V3 swaps in one transaction, alternating a buy of `token` with
/// WETH and a sell of what was bought, so a benchmark can build a large swap history quickly
/// without flooding the node with transactions. Every swap is an ordinary pool `Swap`.
contract SwapBatcher is IUniswapV3SwapCallback {
    using SafeERC20 for IERC20;

    uint160 private constant MIN_SQRT_RATIO_PLUS_ONE = 4295128740;
    uint160 private constant MAX_SQRT_RATIO_MINUS_ONE = 1461446703485210103287273052203988822378723970341;

    address public immutable weth;
    address private _activePool;

    error UnauthorizedSwapCallback(address caller);

    constructor(address weth_) {
        weth = weth_;
    }

    /// @notice Wraps `msg.value` and makes `swaps` swaps on `pool`: buys of `wethPerBuy` wei
    /// alternating with sells of everything bought. Leftover WETH and tokens stay here.
    /// @param pool A TOKEN/WETH Uniswap V3 pool.
    /// @param token The pool's non-WETH token.
    /// @param swaps Number of swaps (each buy and each sell counts as one).
    /// @param wethPerBuy Wei of WETH paid per buy.
    function churn(address pool, address token, uint256 swaps, uint256 wethPerBuy) external payable {
        if (msg.value > 0) IWETH9(weth).deposit{value: msg.value}();
        bool wethIsToken0 = weth < token;
        _activePool = pool;
        for (uint256 i = 0; i < swaps; ++i) {
            bool buy = i % 2 == 0;
            uint256 amountIn = buy ? wethPerBuy : IERC20(token).balanceOf(address(this));
            if (amountIn == 0) continue;
            // zeroForOne = token0 goes in: WETH in on a buy, the token in on a sell.
            bool zeroForOne = buy == wethIsToken0;
            IUniswapV3Pool(pool).swap(
                address(this),
                zeroForOne,
                SafeCast.toInt256(amountIn),
                zeroForOne ? MIN_SQRT_RATIO_PLUS_ONE : MAX_SQRT_RATIO_MINUS_ONE,
                abi.encode(buy ? weth : token)
            );
        }
        delete _activePool;
    }

    /// @inheritdoc IUniswapV3SwapCallback
    function uniswapV3SwapCallback(int256 amount0Delta, int256 amount1Delta, bytes calldata data) external override {
        if (msg.sender != _activePool) revert UnauthorizedSwapCallback(msg.sender);
        address tokenIn = abi.decode(data, (address));
        uint256 owed = uint256(amount0Delta > 0 ? amount0Delta : amount1Delta);
        IERC20(tokenIn).safeTransfer(msg.sender, owed);
    }
}
