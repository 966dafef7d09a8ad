/** Where the API description is served (docs/openapi.md). */

/** Path of the OpenAPI 3.1 JSON document. */
export const OPENAPI_PATH = "/api/openapi.json";
/** Path of the interactive reference page. */
export const REFERENCE_PATH = "/api/docs";
