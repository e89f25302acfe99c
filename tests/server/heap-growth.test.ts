import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { heapGrowingPercent, SERVER_HEAP_GROWING_PERCENT } from "../../src/server/node/heap-growth.js";
import { ensureDist } from "./dist.js";

describe("the server process's heap growth (SVC_HEAP_GROWING_PERCENT)", () => {
  it("reads an integer percent 0-1000 and falls back to the default for anything else", () => {
    expect(SERVER_HEAP_GROWING_PERCENT).toBe(200);
    expect(heapGrowingPercent({})).toBe(200);
    expect(heapGrowingPercent({ SVC_HEAP_GROWING_PERCENT: "0" })).toBe(0);
    expect(heapGrowingPercent({ SVC_HEAP_GROWING_PERCENT: "50" })).toBe(50);
    expect(heapGrowingPercent({ SVC_HEAP_GROWING_PERCENT: " 300 " })).toBe(300);
    for (const bad of ["", " ", "-1", "1.5", "1001", "lots", "1e9"])
      expect(heapGrowingPercent({ SVC_HEAP_GROWING_PERCENT: bad })).toBe(200);
  });

  it("takes effect at run time, and leaves a growth the process was started with", () => {
    ensureDist();
    const module = new URL("../../dist/server/node/heap-growth.js", import.meta.url).href;
    /** The factor V8 reports for the main heap's next limit (--trace-gc-verbose) after a forced collection. */
    const factor = (startFlags: string[], percent: number) => {
      const program = `import { setHeapGrowth } from ${JSON.stringify(module)};
        setHeapGrowth(${percent});
        const live = []; for (let i = 0; i < 100000; i++) live.push({ i });
        gc();`;
      const r = spawnSync(
        process.execPath,
        [...startFlags, "--expose-gc", "--trace-gc-verbose", "--input-type=module", "-e", program],
        { encoding: "utf8", timeout: 30_000 },
      );
      expect(r.status, r.stderr).toBe(0);
      const limits = [...r.stdout.matchAll(/\[HeapController\] Limit: .*\(([\d.]+)\)/g)];
      expect(limits.length).toBeGreaterThan(0);
      return Number(limits[limits.length - 1]![1]);
    };
    expect(factor([], 200)).toBe(3);
    expect(factor([], 0)).not.toBe(3);
    expect(factor(["--heap-growing-percent=50"], 200)).toBe(1.5);
  });
});
