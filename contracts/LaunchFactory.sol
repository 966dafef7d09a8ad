// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {Create2} from "@openzeppelin/contracts/utils/Create2.sol";
import {SafeCast} from "@openzeppelin/contracts/utils/math/SafeCast.sol";
import {TickMath} from "@uniswap/v4-core/src/libraries/TickMath.sol";
import {LaunchToken} from "./LaunchToken.sol";
import {
    INonfungiblePositionManager,
    ISwapRouter,
    IUniswapV3Factory,
    IUniswapV3Pool,
    IUniswapV3SwapCallback,
    IWETH9
} from "./interfaces/IUniswapV3.sol";

/// @title LaunchFactory
/// @notice Launches a fixed-supply token into a TOKEN/WETH Uniswap V3 pool (1% fee tier) in one
///         transaction: deploys the token with CREATE2, brings the pool to the start price (even if
///         someone pre-created it at another price), mints two liquidity positions, locks both in
///         the FeeLocker forever, and optionally makes the creator's first buy.
/// @dev Position A: full range, funded with exactly `minimumPoolLiquidityWei` of WETH plus the
///      matching tokens. Position B: token-only, from the start price to the far end of the range,
///      with all remaining tokens. See docs/contracts.md.
contract LaunchFactory is IUniswapV3SwapCallback {
    using SafeERC20 for IERC20;

    /// @notice The Uniswap V3 fee tier of launch pools (1%, in hundredths of a bip).
    uint24 public constant POOL_FEE = 10000;
    /// @notice The tick spacing of the 1% fee tier.
    int24 public constant TICK_SPACING = 200;

    int24 private constant MIN_USABLE_TICK = -887200;
    int24 private constant MAX_USABLE_TICK = 887200;
    /// @dev Receives token rounding dust (a few base units per launch) so it is out of circulation.
    address private constant DEAD = 0x000000000000000000000000000000000000dEaD;

    address public immutable weth;
    address public immutable v3Factory;
    address public immutable positionManager;
    address public immutable swapRouter;
    address public immutable feeLocker;
    /// @notice ETH (wei) that every launch puts into the full-range position.
    uint256 public immutable minimumPoolLiquidityWei;
    /// @notice Pool tick at launch when the token is token0 (price in WETH per token); the pool
    ///         starts at `-startTick` when the token is token1.
    int24 public immutable startTick;

    /// @notice Number of launches made by each creator; part of the CREATE2 salt of the next token.
    mapping(address creator => uint256) public launchNonce;

    /// @dev The pool whose swap callback is expected; set only around the price-moving swap.
    address private _activePool;

    /// @notice A token was launched. Emitted last, after the first buy.
    /// @param liquidityWei ETH (wei) devoted to pool liquidity (= minimumPoolLiquidityWei).
    /// @param firstBuyWei ETH (wei) spent on the creator's first buy (= msg.value - liquidityWei).
    /// @param firstBuyTokensOut Tokens (base units) the first buy delivered to the creator.
    event TokenLaunched(
        address indexed token,
        address indexed creator,
        address indexed pool,
        uint256[] positionIds,
        string name,
        string symbol,
        uint256 totalSupply,
        uint256 liquidityWei,
        uint256 firstBuyWei,
        uint256 firstBuyTokensOut
    );

    /// @notice A constructor address argument was zero.
    error ZeroAddress();
    /// @notice The constructor's minimumPoolLiquidityWei was zero.
    error ZeroMinimumLiquidity();
    /// @notice The start tick is not a multiple of 200 strictly inside the usable tick range.
    error InvalidStartTick(int24 tick);
    /// @notice `launch` was called with an empty name.
    error EmptyName();
    /// @notice `launch` was called with an empty symbol.
    error EmptySymbol();
    /// @notice `msg.value` (wei) is below minimumPoolLiquidityWei.
    error InsufficientLiquidityValue(uint256 sentWei, uint256 minimumWei);
    /// @notice The swap callback was called by something other than the pool being launched.
    error UnauthorizedSwapCallback(address caller);
    /// @notice Moving a pre-created pool's price would have required paying WETH (never expected).
    error UnexpectedWethPayment(uint256 amountWei);
    /// @notice A pre-created pool could not be moved to the start price (its WETH absorbed the whole supply).
    error PoolPriceNotAtStart(uint160 sqrtPriceX96, uint160 expectedSqrtPriceX96);

    /// @param weth_ WETH9.
    /// @param v3Factory_ The Uniswap V3 factory.
    /// @param positionManager_ The Uniswap V3 NonfungiblePositionManager.
    /// @param swapRouter_ The Uniswap V3 SwapRouter (used for the first buy).
    /// @param feeLocker_ The FeeLocker that receives every position NFT.
    /// @param minimumPoolLiquidityWei_ ETH (wei) each launch must send for the full-range position; > 0.
    /// @param startTick_ Start tick for the token0 orientation; a multiple of 200 strictly inside the usable range.
    constructor(
        address weth_,
        address v3Factory_,
        address positionManager_,
        address swapRouter_,
        address feeLocker_,
        uint256 minimumPoolLiquidityWei_,
        int24 startTick_
    ) {
        if (
            weth_ == address(0) || v3Factory_ == address(0) || positionManager_ == address(0)
                || swapRouter_ == address(0) || feeLocker_ == address(0)
        ) revert ZeroAddress();
        if (minimumPoolLiquidityWei_ == 0) revert ZeroMinimumLiquidity();
        if (startTick_ % TICK_SPACING != 0 || startTick_ <= MIN_USABLE_TICK || startTick_ >= MAX_USABLE_TICK) {
            revert InvalidStartTick(startTick_);
        }
        weth = weth_;
        v3Factory = v3Factory_;
        positionManager = positionManager_;
        swapRouter = swapRouter_;
        feeLocker = feeLocker_;
        minimumPoolLiquidityWei = minimumPoolLiquidityWei_;
        startTick = startTick_;
        IERC20(weth_).forceApprove(positionManager_, type(uint256).max);
    }

    /// @notice The address the next launch by `creator` with this name and symbol will deploy its token to.
    /// @param creator The launching account (msg.sender of `launch`).
    /// @param name The token name.
    /// @param symbol The token symbol.
    /// @return The CREATE2 token address.
    function predictTokenAddress(address creator, string calldata name, string calldata symbol)
        external
        view
        returns (address)
    {
        return Create2.computeAddress(_salt(creator, launchNonce[creator]), keccak256(_initCode(name, symbol)));
    }

    /// @notice Launches a token. `msg.value` = minimumPoolLiquidityWei (pool liquidity) + first buy (optional).
    /// @param name The token name (non-empty).
    /// @param symbol The token symbol (non-empty).
    /// @param firstBuyAmountOutMinimum Minimum tokens (base units) the first buy must deliver; ignored without a first buy.
    /// @return token The new token.
    /// @return pool The TOKEN/WETH 1% pool.
    /// @return positionIds [full-range position, token-only position], both locked in the FeeLocker.
    /// @return firstBuyTokensOut Tokens (base units) sent to the creator by the first buy (0 without one).
    function launch(string calldata name, string calldata symbol, uint256 firstBuyAmountOutMinimum)
        external
        payable
        returns (address token, address pool, uint256[] memory positionIds, uint256 firstBuyTokensOut)
    {
        if (bytes(name).length == 0) revert EmptyName();
        if (bytes(symbol).length == 0) revert EmptySymbol();
        uint256 liquidityWei = minimumPoolLiquidityWei;
        if (msg.value < liquidityWei) revert InsufficientLiquidityValue(msg.value, liquidityWei);

        token = Create2.deploy(0, _salt(msg.sender, launchNonce[msg.sender]++), _initCode(name, symbol));
        pool = _preparePool(token);
        positionIds = _mintAndLock(token, liquidityWei);

        uint256 firstBuyWei = msg.value - liquidityWei;
        if (firstBuyWei > 0) {
            firstBuyTokensOut = ISwapRouter(swapRouter).exactInputSingle{value: firstBuyWei}(
                ISwapRouter.ExactInputSingleParams({
                    tokenIn: weth,
                    tokenOut: token,
                    fee: POOL_FEE,
                    recipient: msg.sender,
                    deadline: block.timestamp,
                    amountIn: firstBuyWei,
                    amountOutMinimum: firstBuyAmountOutMinimum,
                    sqrtPriceLimitX96: 0
                })
            );
        }

        emit TokenLaunched(
            token,
            msg.sender,
            pool,
            positionIds,
            name,
            symbol,
            LaunchToken(token).TOTAL_SUPPLY(),
            liquidityWei,
            firstBuyWei,
            firstBuyTokensOut
        );
    }

    /// @notice Pays the launch pool for the price-moving swap with tokens this factory holds.
    /// @dev Only the pool being launched may call, and only while the factory swaps on it. Never pays WETH.
    function uniswapV3SwapCallback(int256 amount0Delta, int256 amount1Delta, bytes calldata data) external override {
        if (msg.sender != _activePool) revert UnauthorizedSwapCallback(msg.sender);
        address token = abi.decode(data, (address));
        (int256 tokenDelta, int256 wethDelta) = token < weth ? (amount0Delta, amount1Delta) : (amount1Delta, amount0Delta);
        if (wethDelta > 0) revert UnexpectedWethPayment(uint256(wethDelta));
        if (tokenDelta > 0) IERC20(token).safeTransfer(msg.sender, uint256(tokenDelta));
    }

    /// @notice The sqrt price (Q64.96) a launch pool starts at for the given orientation.
    /// @param tokenIsToken0 Whether the launched token sorts before WETH.
    /// @return The start sqrtPriceX96.
    function startSqrtPriceX96(bool tokenIsToken0) public view returns (uint160) {
        // token0: one below the tick price so [startTick, MAX] is token-only but in range on the first buy.
        return tokenIsToken0 ? TickMath.getSqrtPriceAtTick(startTick) - 1 : TickMath.getSqrtPriceAtTick(-startTick);
    }

    function _salt(address creator, uint256 nonce) private pure returns (bytes32) {
        return keccak256(abi.encode(creator, nonce));
    }

    function _initCode(string calldata name, string calldata symbol) private pure returns (bytes memory) {
        return abi.encodePacked(type(LaunchToken).creationCode, abi.encode(name, symbol));
    }

    /// @dev Gets or creates the pool and leaves it at the start price. A pool pre-created at another
    ///      price is moved there by swapping on it directly; tokens pay for any liquidity crossed and
    ///      WETH received that way stays here until `_mintAndLock` sends it to the creator.
    function _preparePool(address token) private returns (address pool) {
        pool = IUniswapV3Factory(v3Factory).getPool(token, weth, POOL_FEE);
        if (pool == address(0)) pool = IUniswapV3Factory(v3Factory).createPool(token, weth, POOL_FEE);
        uint160 target = startSqrtPriceX96(token < weth);
        (uint160 current,,,,,,) = IUniswapV3Pool(pool).slot0();
        if (current == 0) {
            IUniswapV3Pool(pool).initialize(target);
            return pool;
        }
        if (current == target) return pool;
        _activePool = pool;
        IUniswapV3Pool(pool).swap(
            address(this),
            target < current,
            SafeCast.toInt256(IERC20(token).balanceOf(address(this))),
            target,
            abi.encode(token)
        );
        delete _activePool;
        (current,,,,,,) = IUniswapV3Pool(pool).slot0();
        if (current != target) revert PoolPriceNotAtStart(current, target);
    }

    /// @dev Mints position A (full range, liquidityWei of WETH) and position B (token-only), sends
    ///      WETH left here to the creator and token dust to the dead address, and locks both NFTs.
    function _mintAndLock(address token, uint256 liquidityWei) private returns (uint256[] memory positionIds) {
        IWETH9(weth).deposit{value: liquidityWei}();
        IERC20(token).forceApprove(positionManager, type(uint256).max);
        bool tokenIsToken0 = token < weth;

        positionIds = new uint256[](2);
        positionIds[0] = _mint(token, tokenIsToken0, MIN_USABLE_TICK, MAX_USABLE_TICK, liquidityWei);
        (int24 lower, int24 upper) = tokenIsToken0 ? (startTick, MAX_USABLE_TICK) : (MIN_USABLE_TICK, -startTick);
        positionIds[1] = _mint(token, tokenIsToken0, lower, upper, 0);

        uint256 wethLeft = IERC20(weth).balanceOf(address(this));
        if (wethLeft > 0) IERC20(weth).safeTransfer(msg.sender, wethLeft);
        uint256 tokenDust = IERC20(token).balanceOf(address(this));
        if (tokenDust > 0) IERC20(token).safeTransfer(DEAD, tokenDust);

        bytes memory lockData = abi.encode(msg.sender, token);
        for (uint256 i = 0; i < positionIds.length; ++i) {
            INonfungiblePositionManager(positionManager).safeTransferFrom(address(this), feeLocker, positionIds[i], lockData);
        }
    }

    /// @dev Mints a position owned by this factory with all tokens held and up to `wethWei` WETH.
    function _mint(address token, bool tokenIsToken0, int24 tickLower, int24 tickUpper, uint256 wethWei)
        private
        returns (uint256 positionId)
    {
        uint256 tokenAmount = IERC20(token).balanceOf(address(this));
        (positionId,,,) = INonfungiblePositionManager(positionManager).mint(
            INonfungiblePositionManager.MintParams({
                token0: tokenIsToken0 ? token : weth,
                token1: tokenIsToken0 ? weth : token,
                fee: POOL_FEE,
                tickLower: tickLower,
                tickUpper: tickUpper,
                amount0Desired: tokenIsToken0 ? tokenAmount : wethWei,
                amount1Desired: tokenIsToken0 ? wethWei : tokenAmount,
                amount0Min: 0,
                amount1Min: 0,
                recipient: address(this),
                deadline: block.timestamp
            })
        );
    }
}
