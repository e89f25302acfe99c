// The cores a process may use (src/server/node/cores.ts): availableParallelism() capped by the CPU
// quota of its cgroup, which Node 20 does not read (a container run with --cpus 2 on a larger host).
import { availableParallelism } from "node:os";
import { describe, expect, it } from "vitest";
import { cgroupCpuLimit, usableCores } from "../../src/server/node/cores.js";

/** A reader over these files' texts (any other path cannot be read). */
const files =
  (texts: Record<string, string>) =>
  (path: string): string | null =>
    texts[path] ?? null;

const V2 = "/sys/fs/cgroup/cpu.max";
const V1_QUOTA = "/sys/fs/cgroup/cpu/cpu.cfs_quota_us";
const V1_PERIOD = "/sys/fs/cgroup/cpu/cpu.cfs_period_us";

describe("cgroupCpuLimit", () => {
  it("reads cgroup v2's cpu.max", () => {
    expect(cgroupCpuLimit(files({ [V2]: "200000 100000\n" }))).toBe(2);
    expect(cgroupCpuLimit(files({ [V2]: "max 100000\n" }))).toBeNull();
    // whole cores only, at least one
    expect(cgroupCpuLimit(files({ [V2]: "150000 100000" }))).toBe(1);
    expect(cgroupCpuLimit(files({ [V2]: "50000 100000" }))).toBe(1);
  });

  it("reads cgroup v1's quota over its period when there is no cpu.max", () => {
    expect(cgroupCpuLimit(files({ [V1_QUOTA]: "400000\n", [V1_PERIOD]: "100000\n" }))).toBe(4);
    expect(cgroupCpuLimit(files({ [V1_QUOTA]: "-1\n", [V1_PERIOD]: "100000\n" }))).toBeNull();
    expect(cgroupCpuLimit(files({ [V1_QUOTA]: "400000\n" }))).toBeNull();
  });

  it("is null where nothing can be read or the text is not numbers", () => {
    expect(cgroupCpuLimit(files({}))).toBeNull();
    expect(cgroupCpuLimit(files({ [V2]: "" }))).toBeNull();
    expect(cgroupCpuLimit(files({ [V2]: "lots 100000" }))).toBeNull();
  });
});

describe("usableCores", () => {
  it("is at least one and at most availableParallelism()", () => {
    const n = usableCores();
    expect(n).toBeGreaterThanOrEqual(1);
    expect(n).toBeLessThanOrEqual(availableParallelism());
    expect(usableCores()).toBe(n);
    // this machine's own quota, where it has one, caps it
    const limit = cgroupCpuLimit();
    if (limit !== null) expect(n).toBeLessThanOrEqual(limit);
  });
});
