/**
 * Compiles `contracts/*.sol` with solc-js and writes one TypeScript module per contract to `abis/`
 * (`export const xAbi = [...] as const; export const xBytecode = "0x..." as const;`), plus modules
 * for the precompiled Uniswap V3 and WETH9 artifacts shipped in npm packages (never recompiled: the
 * pool init code hash must match the periphery).
 *
 * Run with `npm run compile`. The output is deterministic: a re-run produces identical files.
 */
import { readFileSync, readdirSync, writeFileSync, mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import solc from "solc";

const require = createRequire(import.meta.url);

/** Project root (the folder holding `contracts/` and `abis/`). */
export const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** Fixed compiler settings; changing any of them changes the committed bytecode. */
export const solcSettings = {
  optimizer: { enabled: true, runs: 200 },
  evmVersion: "cancun",
  metadata: { bytecodeHash: "none" },
  outputSelection: { "*": { "*": ["abi", "evm.bytecode.object"] } },
} as const;

/** Our contracts that get an ABI module, with the export prefix of each. */
const ownContracts = [
  { name: "LaunchToken", prefix: "launchToken" },
  { name: "LaunchFactory", prefix: "launchFactory" },
  { name: "FeeLocker", prefix: "feeLocker" },
  { name: "SwapBatcher", prefix: "swapBatcher" },
  { name: "OwnerWallet", prefix: "ownerWallet" },
  { name: "DevStablecoin", prefix: "devStablecoin" },
] as const;

/** Precompiled artifacts from npm packages: module name, export prefix, artifact path, whether to export bytecode. */
const externalArtifacts = [
  {
    name: "UniswapV3Pool",
    prefix: "uniswapV3Pool",
    artifact: "@uniswap/v3-core/artifacts/contracts/UniswapV3Pool.sol/UniswapV3Pool.json",
    bytecode: false,
  },
  {
    name: "UniswapV3Factory",
    prefix: "uniswapV3Factory",
    artifact: "@uniswap/v3-core/artifacts/contracts/UniswapV3Factory.sol/UniswapV3Factory.json",
    bytecode: true,
  },
  {
    name: "NonfungiblePositionManager",
    prefix: "nonfungiblePositionManager",
    artifact:
      "@uniswap/v3-periphery/artifacts/contracts/NonfungiblePositionManager.sol/NonfungiblePositionManager.json",
    bytecode: true,
  },
  {
    name: "SwapRouter",
    prefix: "swapRouter",
    artifact: "@uniswap/v3-periphery/artifacts/contracts/SwapRouter.sol/SwapRouter.json",
    bytecode: true,
  },
  {
    name: "QuoterV2",
    prefix: "quoterV2",
    artifact: "@uniswap/v3-periphery/artifacts/contracts/lens/QuoterV2.sol/QuoterV2.json",
    bytecode: true,
  },
  { name: "WETH9", prefix: "weth9", artifact: "@uniswap/v2-periphery/build/WETH9.json", bytecode: true },
] as const;

/** Thrown when solc reports errors. */
export class CompilationError extends Error {
  override name = "CompilationError" as const;
  constructor(readonly messages: string[]) {
    super(`solc reported ${messages.length} error(s):\n${messages.join("\n")}`);
  }
}

type SolcOutput = {
  errors?: { severity: "error" | "warning" | "info"; formattedMessage: string }[];
  contracts?: Record<string, Record<string, { abi: unknown[]; evm: { bytecode: { object: string } } }>>;
};

/**
 * Resolves an import for solc: project-relative paths first, then npm packages.
 * @param importPath The path solc asks for (e.g. `contracts/interfaces/IUniswapV3.sol` or `@openzeppelin/...`).
 * @returns `{ contents }` or `{ error }` as solc-js expects.
 */
function findImport(importPath: string): { contents: string } | { error: string } {
  try {
    if (importPath.startsWith("contracts/")) {
      return { contents: readFileSync(path.join(projectRoot, importPath), "utf8") };
    }
    return { contents: readFileSync(require.resolve(importPath), "utf8") };
  } catch {
    return { error: `not found: ${importPath}` };
  }
}

/**
 * Compiles every `contracts/*.sol` file with solc-js and the fixed `solcSettings`.
 * @param onWarning Receives each solc warning (formatted); default ignores them.
 * @returns ABI and `0x`-prefixed creation bytecode per contract name.
 * @throws {CompilationError} When solc reports an error.
 */
export function compileContracts(
  onWarning: (message: string) => void = () => {},
): Record<string, { abi: unknown[]; bytecode: `0x${string}` }> {
  const files = readdirSync(path.join(projectRoot, "contracts"))
    .filter((f) => f.endsWith(".sol"))
    .sort();
  const sources = Object.fromEntries(
    files.map((f) => [`contracts/${f}`, readFileSync(path.join(projectRoot, "contracts", f), "utf8")]),
  );
  return compileSolidity(sources, onWarning);
}

/**
 * Compiles Solidity sources with solc-js and the fixed `solcSettings` (imports resolve as in
 * {@link compileContracts}). Tests use it for reference contracts that are not shipped, e.g. a
 * plain OpenZeppelin ERC-20 to measure a launch token's extra gas against.
 * @param sourceTexts Source text per path; only paths under `contracts/` (not `contracts/interfaces/`) are returned.
 * @param onWarning Receives each solc warning (formatted); default ignores them.
 * @returns ABI and `0x`-prefixed creation bytecode per contract name.
 * @throws {CompilationError} When solc reports an error.
 */
export function compileSolidity(
  sourceTexts: Record<string, string>,
  onWarning: (message: string) => void = () => {},
): Record<string, { abi: unknown[]; bytecode: `0x${string}` }> {
  const sources = Object.fromEntries(Object.entries(sourceTexts).map(([p, content]) => [p, { content }]));
  const input = { language: "Solidity", sources, settings: solcSettings };
  const output = JSON.parse(solc.compile(JSON.stringify(input), { import: findImport })) as SolcOutput;
  const errors = (output.errors ?? []).filter((e) => e.severity === "error").map((e) => e.formattedMessage);
  if (errors.length > 0) throw new CompilationError(errors);
  for (const e of output.errors ?? []) if (e.severity === "warning") onWarning(e.formattedMessage);

  const result: Record<string, { abi: unknown[]; bytecode: `0x${string}` }> = {};
  for (const [file, contracts] of Object.entries(output.contracts ?? {})) {
    if (!file.startsWith("contracts/") || file.includes("/interfaces/")) continue;
    for (const [name, c] of Object.entries(contracts)) {
      result[name] = { abi: c.abi, bytecode: `0x${c.evm.bytecode.object}` };
    }
  }
  return result;
}

/**
 * Renders one ABI module.
 * @param source Where the artifact comes from (for the header).
 * @param prefix Export prefix, e.g. `launchFactory` -> `launchFactoryAbi`, `launchFactoryBytecode`.
 * @param abi The ABI array.
 * @param bytecode `0x`-prefixed creation bytecode, or undefined to export only the ABI.
 * @returns The module text.
 */
function renderModule(source: string, prefix: string, abi: unknown[], bytecode?: string): string {
  const lines = [
    `// Generated by scripts/compile.ts from ${source}. Do not edit; run \`npm run compile\`.`,
    "",
    `export const ${prefix}Abi = ${JSON.stringify(abi, null, 2)} as const;`,
  ];
  if (bytecode !== undefined) {
    lines.push("", `export const ${prefix}Bytecode =\n  ${JSON.stringify(bytecode)} as const;`);
  }
  return `${lines.join("\n")}\n`;
}

/**
 * Builds the content of every `abis/*.ts` module in memory (compiles our contracts, reads the npm artifacts).
 * @param onWarning Receives each solc warning (formatted); default ignores them.
 * @returns Map from file name (e.g. `LaunchFactory.ts`) to module text, in a stable order.
 * @throws {CompilationError} When solc reports an error.
 * @throws {Error} When a contract or an npm artifact is missing.
 */
export function buildAbiModules(onWarning?: (message: string) => void): Map<string, string> {
  const modules = new Map<string, string>();
  const compiled = compileContracts(onWarning);
  for (const { name, prefix } of ownContracts) {
    const c = compiled[name];
    if (!c) throw new Error(`contract ${name} missing from solc output`);
    modules.set(
      `${name}.ts`,
      renderModule(`contracts/${name}.sol (solc ${solc.version()})`, prefix, c.abi, c.bytecode),
    );
  }
  for (const { name, prefix, artifact, bytecode } of externalArtifacts) {
    const json = JSON.parse(readFileSync(require.resolve(artifact), "utf8")) as { abi: unknown[]; bytecode: string };
    const code = json.bytecode.startsWith("0x") ? json.bytecode : `0x${json.bytecode}`;
    modules.set(`${name}.ts`, renderModule(artifact, prefix, json.abi, bytecode ? code : undefined));
  }
  return modules;
}

/**
 * Writes the modules from `buildAbiModules` into a folder.
 * @param outDir Target folder; defaults to `abis/` in the project.
 * @param onWarning Receives each solc warning (formatted); default ignores them.
 * @returns The written file paths.
 * @throws {CompilationError} When solc reports an error.
 */
export function writeAbiModules(
  outDir = path.join(projectRoot, "abis"),
  onWarning?: (message: string) => void,
): string[] {
  mkdirSync(outDir, { recursive: true });
  const written: string[] = [];
  for (const [file, text] of buildAbiModules(onWarning)) {
    const target = path.join(outDir, file);
    writeFileSync(target, text);
    written.push(target);
  }
  return written;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const warn = (message: string) => console.warn(message);
  for (const file of writeAbiModules(undefined, warn)) console.log(`wrote ${path.relative(projectRoot, file)}`);
}
