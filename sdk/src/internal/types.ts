/** Shorthands over the generated types: an operation's query, body and 2xx JSON answer. */
import type { operations } from "../generated/schema.js";

type Json<R> = R extends { content: { "application/json": infer B } } ? B : never;

/** The JSON body of an operation's `status` answer. */
export type Answer<
  Op extends keyof operations,
  Status extends number = 200,
> = operations[Op]["responses"] extends infer R ? (Status extends keyof R ? Json<R[Status]> : never) : never;

/** An operation's query parameters. */
export type Query<Op extends keyof operations> = NonNullable<operations[Op]["parameters"]["query"]>;

/** An operation's JSON request body. */
export type Body<Op extends keyof operations> = operations[Op] extends {
  requestBody: { content: { "application/json": infer B } };
}
  ? B
  : never;
