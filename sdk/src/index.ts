/**
 * @evmchain/launch-sdk: a typed client of the evmchain launch service (sdk/README.md). The paths,
 * bodies and answers are generated from the service's OpenAPI 3.1 document (`src/generated/`,
 * `npm run sdk:generate`); the catalogue's `error` identifiers are the {@link ErrorCode} union.
 */
export type { components, operations, paths } from "./generated/schema.js";
export { ERROR_STATUS, type ErrorCode } from "./generated/errorCodes.js";
