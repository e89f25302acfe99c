// When a program takes a copy of the interpreter (src/interpret/copies.ts compilerFor): after its first
// COPY_AFTER_RUNS runs, the next copy in turn, kept for the program; MAX_COPIES made at most. The copy
// text here is a stand-in exporting a class of its own per evaluation (copies.test.ts runs real ones).
import { beforeAll, expect, it } from "vitest";
import { Compiler } from "../../src/interpret/compiler.js";
import {
  COPY_AFTER_RUNS,
  compilerFor,
  interpreterCopies,
  loadInterpreterCopies,
  MAX_COPIES,
} from "../../src/interpret/copies.js";
import { program } from "../compile/parity.js";

beforeAll(() => loadInterpreterCopies("exports.Compiler = class StandIn {};"));

it("a program's first runs take the module's Compiler, then a copy of its own, kept; past MAX_COPIES, copies are taken in turn", () => {
  const progs = [0, 1, 2].map((i) => program(`//@version=6\nindicator('p${i}')\nplot(close + ${i})`));
  for (const p of progs) for (let run = 0; run < COPY_AFTER_RUNS; run++) expect(compilerFor(p)).toBe(Compiler);
  // (no copy made for runs that do not take one)
  expect(interpreterCopies()).toBe(0);
  const taken = progs.map((p) => compilerFor(p));
  expect(interpreterCopies()).toBe(3);
  for (const c of taken) expect(c).not.toBe(Compiler);
  expect(new Set(taken).size).toBe(3);
  for (const [i, p] of progs.entries()) expect(compilerFor(p)).toBe(taken[i]);
  // past MAX_COPIES programs, none made beyond: the copies are taken again, in the order they were made
  const more = Array.from({ length: MAX_COPIES }, (_, i) => {
    const p = program(`//@version=6\nindicator('q${i}')\nplot(low + ${i})`);
    for (let run = 0; run < COPY_AFTER_RUNS; run++) compilerFor(p);
    return compilerFor(p);
  });
  expect(interpreterCopies()).toBe(MAX_COPIES);
  expect(more.slice(0, MAX_COPIES - 3)).not.toContain(Compiler);
  expect(new Set(more.slice(0, MAX_COPIES - 3)).size).toBe(MAX_COPIES - 3);
  expect(more.slice(MAX_COPIES - 3)).toEqual(taken);
});
