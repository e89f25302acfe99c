// Objects and arrays read in place from their variables' slots (src/interpret/compiler.ts: a field
// of a variable, a field assigned on a variable, xs.size() / xs.get(i) on an array variable with the
// index in a numeric variable, also declared or assigned into a variable, == / != with a variable or a constant on a side), ternaries of a
// closure and a numeric variable or constant, and user calls of three arguments. Each script computes every value
// both ways, through the slot path and through the general closures it replaces (the same field or
// element reached through a function call's value), and runs in both backends: the two ways must
// agree within a run and the interpreter must equal compile, na objects, out-of-range and na indexes
// and na arrays included (the same errors on the same bars and lines).
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { Runtime } from "../../src/runtime/index.js";
import { generateBars } from "../../src/cli/bench.js";
import { comparable, firstDifference } from "../compile/parity.js";

/** A window of UDT objects: field reads and writes, gets by a counter, size, methods of three arguments. */
const ZONES = `//@version=6
indicator("object slots")
keep = input.int(6, "Keep")
skew = input.int(0, "Skew")
naAt = input.int(-5, "NaAt")
type Zone
    float top
    float bottom
    int born
    bool up
    Zone prev
var zones = array.new<Zone>()
var Zone last = na
same(Zone z) => z
sameI(int i) => i
sameArr(array<Zone> xs) => xs
method grow(Zone z, float top, float bottom) =>
    z.top := math.max(z.top, top)
    z.bottom := math.min(z.bottom, bottom)
    z.top - z.bottom
method span3(Zone z, float k, int n) =>
    z.top * k - z.bottom + n
if bar_index % 3 == 0
    Zone z = Zone.new(high, low, bar_index, close > open, last)
    zones.push(z)
    last := z
if zones.size() > keep
    zones.shift()
float viaSlot = 0.0
float viaCall = 0.0
int ups = 0
var ups1 = array.new<bool>()
ups1.push(close > open)
if ups1.size() > 9
    ups1.shift()
sameBs(array<bool> xs) => xs
Zone q = na
int i = zones.size() - 1 + skew
while i >= 0
    Zone z = zones.get(i)
    Zone w = sameArr(zones).get(sameI(i))
    q := zones.get(i)
    bool u = ups1.get(i % ups1.size())
    bool uw = sameBs(ups1).get(sameI(i % ups1.size()))
    viaSlot += (z.up ? z.top - close : close - z.bottom) + q.born + (u ? 1 : 0)
    viaCall += (same(w).up ? same(w).top - close : close - same(w).bottom) + same(w).born + (uw ? 1 : 0)
    if z.up
        ups += 1
    z.bottom -= 0.001
    z.born += 1
    i -= 1
float grown = 0.0
for z in zones
    grown += z.grow(high, low) + z.span3(0.5, bar_index % 7)
Zone probe = bar_index == naAt ? na : last
float pv = na(probe) ? na : probe.top
if bar_index == naAt + 1
    probe := na
    pv := probe.bottom
// == / != on strings, bools and objects with a variable or a constant on a side, na included
mode = input.string("Close", "Mode", options = ["Close", "Wick"])
sameS(string x) => x
sameB(bool x) => x
string tag = bar_index % 4 == 0 ? na : bar_index % 4 == 1 ? "a" : "b"
string tag2 = bar_index % 3 == 0 ? "a" : na
bool flag = close > open
int eqSlot = (mode == "Close" ? 1 : 0) + (tag == "a" ? 2 : 0) + ("b" != tag ? 4 : 0) + (tag == tag2 ? 8 : 0) + (tag != tag2 ? 16 : 0) + (flag == (bar_index % 2 == 0) ? 32 : 0) + (last == last ? 64 : 0) + (last != probe ? 128 : 0)
int eqCall = (sameS(mode) == "Close" ? 1 : 0) + (sameS(tag) == "a" ? 2 : 0) + ("b" != sameS(tag) ? 4 : 0) + (sameS(tag) == sameS(tag2) ? 8 : 0) + (sameS(tag) != sameS(tag2) ? 16 : 0) + (sameB(flag) == (bar_index % 2 == 0) ? 32 : 0) + (same(last) == same(last) ? 64 : 0) + (same(last) != same(probe) ? 128 : 0)
// a ternary of one closure and one numeric variable or constant, against both sides as closures
sameF(float x) => x
float tA = close > open ? high - low : close
float tB = close > open ? close : high - low
float tC = bar_index % 3 == 0 ? high - low : na
float tD = bar_index % 5 == 0 ? 2.5 : close - open
float tE = bar_index % 2 == 0 ? ups : viaSlot
float fA = close > open ? sameF(high - low) : sameF(close)
float fB = close > open ? sameF(close) : sameF(high - low)
float fC = bar_index % 3 == 0 ? sameF(high - low) : sameF(na)
float fD = bar_index % 5 == 0 ? sameF(2.5) : sameF(close - open)
float fE = bar_index % 2 == 0 ? sameF(ups) : sameF(viaSlot)
float tF = close > open ? high - low : 1.5
float fF = close > open ? sameF(high - low) : sameF(1.5)
plot(tA + tB * 3 + nz(tC) * 7 + 1 / tD + tE + tF * 11, "tern")
plot(fA + fB * 3 + nz(fC) * 7 + 1 / fD + fE + fF * 11, "ternCall")
plot(eqSlot, "eqSlot")
plot(eqCall, "eqCall")
sz = zones.size()
szCall = sameArr(zones).size()
plot(viaSlot, "viaSlot")
plot(viaCall, "viaCall")
plot(ups, "ups")
plot(grown, "grown")
plot(pv, "pv")
plot(sz, "sz")
plot(szCall, "szCall")
`;

/** A field assigned on an na object, an na array's size and get, an na index. */
const NAS = `//@version=6
indicator("na objects")
what = input.int(0, "What")
at = input.int(50, "At")
type P
    float a
var P p = P.new(1.0)
var array<float> xs = array.from(1.0, 2.0, 3.0)
int k = bar_index % 3
float v = xs.get(k) + p.a
if bar_index == at
    if what == 1
        p := na
        p.a := 2.0
    if what == 2
        xs := na
        v := xs.size()
    if what == 3
        xs := na
        v := xs.get(k)
    if what == 4
        k := int(na)
        v := xs.get(k)
    if what == 5
        k := -1
        v := xs.get(k)
    if what == 6
        k := 3
        v := xs.get(k)
plot(v, "v")
plot(xs.size(), "n")
`;

async function both(src: string, bars: number, seed: number, inputs: Record<string, number | string>) {
  const data = generateBars(bars, seed);
  const rt = new Runtime();
  const got = await rt.run(src, data, { mode: "interpret", inputs });
  const want = await new Runtime().run(src, data, { mode: "compile", inputs });
  expect(got.mode).toBe("interpret");
  expect(got.error_kind).not.toBe("check");
  expect(firstDifference(comparable(got), comparable(want))).toBeNull();
  return got;
}

describe("objects and arrays read from their slots", () => {
  it("the slot path and the general closures agree, and equal compile, on random windows and offsets", async () => {
    let whole = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: -3, max: 1 }),
        fc.integer({ min: -5, max: 400 }),
        fc.integer({ min: 1, max: 1000 }),
        fc.constantFrom("Close", "Wick"),
        async (keep, skew, naAt, seed, mode) => {
          const r = await both(ZONES, 160, seed, { Keep: keep, Skew: skew, NaAt: naAt, Mode: mode });
          const p = r.series as Record<string, unknown[]>;
          // (a run stopped by its na probe or an index past the end keeps no series)
          if (r.error) return;
          whole++;
          expect(p.viaSlot).toHaveLength(160);
          expect(firstDifference(p.viaSlot, p.viaCall)).toBeNull();
          expect(firstDifference(p.sz, p.szCall)).toBeNull();
          expect(firstDifference(p.eqSlot, p.eqCall)).toBeNull();
          expect(firstDifference(p.tern, p.ternCall)).toBeNull();
        },
      ),
      { numRuns: 40, seed: 20261129 },
    );
    expect(whole).toBeGreaterThan(10);
  }, 120_000);

  it("an index past the end stops the run with the builtin's error, on the same bar and line in both modes", async () => {
    const r = await both(ZONES, 120, 3, { Keep: 5, Skew: 1 });
    expect(r.error).toBeTruthy();
    expect(r.diagnostics?.[0]?.line).toBe(ZONES.split("\n").indexOf("    Zone z = zones.get(i)") + 1);
  });

  it("na objects, na arrays and na, negative and out-of-range indexes: the same values and errors as compile", async () => {
    for (let what = 0; what <= 6; what++) {
      const r = await both(NAS, 80, 5, { What: what, At: 40 });
      // (an na index reads na; a negative one counts from the end, as in v6)
      if (what === 0 || what === 4 || what === 5) expect(r.error ?? null).toBeNull();
      else {
        expect(r.error).toBeTruthy();
        expect(r.error_bar).toBe(40);
      }
    }
  });
});
