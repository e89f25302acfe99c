// Realtime rollback through the package entry (service.md 1.4: non-varip state is rolled back before
// each tick). Collections and UDT objects are mutated in place, so their content must come back to the
// bar's start before every tick after the first; varip variables and varip UDT fields keep every
// tick's change (user manual, Objects page). Bars: 8 hourly bars; the counts below are in bars/ticks.
import { describe, expect, it } from "vitest";
import { Runtime } from "../../src/index.js";

const N = 8;
const bars = Array.from({ length: N }, (_, i) => ({
  time: 1_700_000_000_000 + i * 3_600_000,
  open: 10 + i,
  high: 12 + i,
  low: 9 + i,
  close: 11 + i,
  volume: 100,
}));

async function run(body: string, opts: Record<string, unknown>) {
  const src = `//@version=6\nindicator("rb")\n${body}`;
  const r = await new Runtime("CHART", { timeframe: "60" }).run(src, bars, opts);
  expect(r.error, r.error).toBeUndefined();
  return r;
}

/** The same script without realtime: what every non-varip value must commit. */
async function history(body: string) {
  return run(body, {});
}

describe("realtime rollback of counters", () => {
  it("a realtime window of 3 ticks on the last bar leaves a varip counter at bars + 2 and a var counter at bars", async () => {
    const r = await run(
      "var int bars = 0\nvarip int ticks = 0\nbars += 1\nticks += 1\nplot(bars, 'bars')\nplot(ticks, 'ticks')",
      { realtimeLastBar: true, realtimeTicks: 3 },
    );
    expect(r.series.bars![N - 1]).toBe(N);
    expect(r.series.ticks![N - 1]).toBe(N + 2);
  });
});

describe("realtime rollback of collections and objects", () => {
  const cases: Record<string, string> = {
    "a var array pushed once per tick has one element per bar":
      "var a = array.new<float>()\na.push(close)\nplot(a.size(), 'n')\nplot(a.sum(), 'sum')",
    "a map put per tick keeps one key per bar":
      "var m = map.new<int, float>()\nm.put(bar_index, close)\nm.put(-1, nz(m.get(-1)) + 1)\nplot(m.size(), 'n')\nplot(m.get(-1), 'runs')",
    "a UDT field += per tick counts bars":
      "type C\n    int n = 0\n    float s = 0\nvar c = C.new()\nc.n += 1\nc.s += close\nplot(c.n, 'n')\nplot(c.s, 's')",
    "a matrix grown per tick has one row per bar":
      "var mx = matrix.new<float>(0, 2)\nmx.add_row(mx.rows(), array.from(close, volume))\nplot(mx.rows(), 'n')\nplot(mx.get(mx.rows() - 1, 0), 'last')",
    "nested: objects inside a var array, arrays inside objects":
      "type P\n    float[] xs\nvar ps = array.new<P>()\nif ps.size() == 0\n    ps.push(P.new(array.new<float>()))\nps.first().xs.push(close)\nq = P.new(array.new<float>())\nps.push(q)\nplot(ps.size(), 'n')\nplot(ps.first().xs.size(), 'xs')",
    "a cycle through a map of objects":
      "type Node\n    int hits = 0\n    map<string, Node> next\nvar root = Node.new(0, map.new<string, Node>())\nif bar_index == 0\n    root.next.put('self', root)\nroot.next.get('self').hits += 1\nplot(root.hits, 'hits')",
    "a seeded math.random draws once per bar (its generator state rolls back)":
      "plot(math.random(0, 1, 42), 'r')\nplot(timeframe.change('D') ? 1 : 0, 'tc')",
    "an array read from history is rolled back too":
      "a = array.new<float>(1, close)\nif bar_index > 0\n    a[1].push(1)\nplot(a.size(), 'n')\nplot(bar_index > 0 ? a[1].size() : na, 'prev')",
  };
  for (const [name, body] of Object.entries(cases)) {
    it(name, async () => {
      const want = await history(body);
      for (const opts of [
        { realtimeLastBar: true, realtimeTicks: 4 },
        { realtimeBars: 3, realtimeTicks: 5 },
      ]) {
        const got = await run(body, opts);
        for (const title of Object.keys(want.series))
          expect(got.series[title], `${title} ${JSON.stringify(opts)}`).toEqual(want.series[title]);
      }
    });
  }

  it("keeps the object's identity: a reference taken on an earlier bar sees the restored content", async () => {
    const body =
      "var a = array.new<int>()\nvar alias = a\na.push(1)\nplot(alias.size(), 'n')\nplot(a == alias ? 1 : 0, 'same')";
    const got = await run(body, { realtimeBars: 2, realtimeTicks: 3 });
    expect(got.series.n).toEqual((await history(body)).series.n);
    expect(got.series.same).toEqual(new Array(N).fill(1));
  });
});

describe("varip keeps its changes", () => {
  it("a varip array keeps every tick's push", async () => {
    const r = await run("varip a = array.new<float>()\na.push(close)\nplot(a.size(), 'n')", {
      realtimeBars: 2,
      realtimeTicks: 3,
    });
    // 6 historical bars push once, each of the 2 realtime bars 3 times
    expect(r.series.n).toEqual([1, 2, 3, 4, 5, 6, 9, 12]);
  });

  it("a varip UDT field keeps ticks, a plain one rolls back (the manual's Counter)", async () => {
    const body =
      "type Counter\n    int bars = 0\n    varip int ticks = 0\nvar Counter counter = Counter.new()\ncounter.bars += 1\ncounter.ticks += 1\nplot(counter.bars, 'bars')\nplot(counter.ticks, 'ticks')";
    const r = await run(body, { realtimeLastBar: true, realtimeTicks: 4 });
    expect(r.series.bars![N - 1]).toBe(N);
    expect(r.series.ticks![N - 1]).toBe(N + 3);
  });

  it("an object held by a varip variable still rolls back its plain fields (the manual)", async () => {
    const body = "type C\n    int n = 0\nvarip c = C.new()\nc.n += 1\nplot(c.n, 'n')";
    const r = await run(body, { realtimeLastBar: true, realtimeTicks: 4 });
    expect(r.series.n![N - 1]).toBe(N);
  });

  it("an array reachable from both a var and a varip variable rolls back", async () => {
    const body = "var a = array.new<int>()\nvarip b = a\nb.push(1)\nplot(a.size(), 'n')";
    const r = await run(body, { realtimeLastBar: true, realtimeTicks: 4 });
    expect(r.series.n![N - 1]).toBe(N);
  });
});

describe("drawings held in collections", () => {
  it("a line pushed into a var array per tick: one line per bar, the array's lines alive", async () => {
    const body =
      "var lines = array.new<line>()\nlines.push(line.new(bar_index, close, bar_index + 1, close))\nalive = 0\nfor l in lines\n    alive += na(l.get_x1()) ? 0 : 1\nplot(lines.size(), 'n')\nplot(alive, 'alive')";
    const want = await history(body);
    const got = await run(body, { realtimeBars: 3, realtimeTicks: 4 });
    expect(got.series.n).toEqual(want.series.n);
    expect(got.series.alive).toEqual(want.series.alive);
    expect(got.drawings.length).toBe(want.drawings.length);
  });
});
