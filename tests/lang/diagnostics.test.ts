// The diagnostics catalogue: stable, unique codes in their families.
import { describe, expect, it } from "vitest";
import { Codes } from "../../src/lang/index.js";

describe("diagnostic codes", () => {
  it("are unique", () => {
    const codes = Object.values(Codes);
    expect(new Set(codes).size).toBe(codes.length);
  });

  it("follow P1xxx (lexer), P2xxx (parser), P3xxx (script level)", () => {
    for (const code of Object.values(Codes)) expect(code).toMatch(/^P[123]\d{3}$/);
  });
});
