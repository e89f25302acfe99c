// sha256Hex (script_id) with its small memo: known digests, also when asked again and after the
// memo has dropped them.
import { describe, expect, it } from "vitest";
import { randomHex16, sha256Hex } from "../../src/core/sha256.js";

const ABC = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
const EMPTY = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

describe("sha256Hex", () => {
  it("gives the FIPS 180-4 digests, first time and from memory", () => {
    for (let k = 0; k < 2; k++) {
      expect(sha256Hex("abc")).toBe(ABC);
      expect(sha256Hex("")).toBe(EMPTY);
    }
  });
  it("stays right after many other texts pushed those out", () => {
    const texts = Array.from({ length: 40 }, (_, i) => `//@version=6\nindicator("s${i}")\n`);
    const first = texts.map(sha256Hex);
    expect(new Set(first).size).toBe(40);
    expect(sha256Hex("abc")).toBe(ABC);
    expect(texts.map(sha256Hex)).toEqual(first);
  });
});

describe("randomHex16", () => {
  it("gives 16 lowercase hex characters, different across more ids than one batch of random bytes holds", () => {
    const ids = Array.from({ length: 1000 }, () => randomHex16());
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{16}$/);
    expect(new Set(ids).size).toBe(ids.length);
    // every hex digit turns up (the bytes are not stuck at a value)
    expect(new Set(ids.join("")).size).toBe(16);
  });
});
