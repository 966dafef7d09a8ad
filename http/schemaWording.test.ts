import { describe, expect, it } from "vitest";
import { z } from "zod";
import { plainIssueMessage, useServiceWording } from "./schemaWording";

useServiceWording();

/** The first issue's message of a failed parse. */
function messageOf(schema: z.ZodType, input: unknown): string {
  const result = schema.safeParse(input);
  if (result.success) throw new Error("expected the parse to fail");
  return result.error.issues[0]!.message;
}

describe("the service's wording of schema failures", () => {
  it("words every common failure without zod's library terms", () => {
    const body = z.strictObject({ name: z.string().max(32), kind: z.enum(["a", "b"]), n: z.number().min(1) });
    expect(messageOf(body, { kind: "a", n: 1 })).toBe("missing (required)");
    expect(messageOf(body, { name: null, kind: "a", n: 1 })).toBe("must be a string (got null)");
    expect(messageOf(body, { name: ["x", "y"], kind: "a", n: 1 })).toBe("must be given once, as a string (got a list)");
    expect(messageOf(body, { name: "x".repeat(33), kind: "a", n: 1 })).toBe("must be at most 32 characters");
    expect(messageOf(body, { name: "x", kind: "c", n: 1 })).toBe('must be one of "a", "b"');
    expect(messageOf(body, { name: "x", kind: "a", n: 0 })).toBe("must be at least 1");
    expect(messageOf(body, { name: "x", kind: "a", n: 1, extra: 1 })).toBe('unknown field "extra" (not accepted here)');
    expect(messageOf(z.string().min(1), "")).toBe("must not be empty");
    expect(messageOf(z.string().regex(/^\d+$/), "x")).toBe("is malformed");
    expect(messageOf(z.array(z.string()).max(2), ["a", "b", "c"])).toBe("must be at most 2 items");
  });

  it("keeps a message the schema gives itself", () => {
    expect(messageOf(z.string().max(3, "slug is too long"), "abcd")).toBe("slug is too long");
  });

  it("leaves an issue it does not word to zod (undefined)", () => {
    expect(plainIssueMessage({ code: "custom", input: 1 } as never)).toBeUndefined();
  });
});
