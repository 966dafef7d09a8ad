/**
 * Ponder requires an API file; the pipeline floor serves only Ponder's own routes (`/ready`, …).
 */
import { Hono } from "hono";

export default new Hono();
