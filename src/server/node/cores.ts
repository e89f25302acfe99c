// The cores this process may use: os.availableParallelism() (the CPUs its affinity allows) capped
// by a CPU quota its cgroup sets, as a container started with `--cpus 2` has. Node 20's libuv does not
// read the quota, so on a 64-core host such a container reported 64: the pool's default size
// (pool.ts) and `resin optimize`'s threads (cli/optimize-engine.ts, cli/optimize-threads.ts) would
// have started threads that only share the quota's two cores. Read once per process: a quota does not
// change under a running process often enough to pay a file read per question.

import { readFileSync } from "node:fs";
import { availableParallelism } from "node:os";

/** A reader of a small system file: its text, or null when it cannot be read. */
export type ReadText = (path: string) => string | null;

function readText(path: string): string | null {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return null;
  }
}

/**
 * The cores a cgroup CPU quota allows (quota over period, at least 1, whole cores only: 1.5 is 1),
 * or null where none is set or none can be read: cgroup v2's cpu.max ("max 100000" is none, "200000
 * 100000" two cores), else v1's cpu.cfs_quota_us (-1 is none) over cpu.cfs_period_us, both at the
 * root of the hierarchy the process sees (a container's own).
 */
export function cgroupCpuLimit(read: ReadText = readText): number | null {
  const v2 = read("/sys/fs/cgroup/cpu.max");
  if (v2 !== null) {
    const [quota, period] = v2.trim().split(/\s+/);
    return coresOf(Number(quota), Number(period));
  }
  const quota = read("/sys/fs/cgroup/cpu/cpu.cfs_quota_us");
  const period = read("/sys/fs/cgroup/cpu/cpu.cfs_period_us");
  return quota === null || period === null ? null : coresOf(Number(quota.trim()), Number(period.trim()));
}

function coresOf(quota: number, period: number): number | null {
  if (!(quota > 0) || !(period > 0)) return null;
  return Math.max(1, Math.floor(quota / period));
}

let usable: number | undefined;

/** availableParallelism() capped by cgroupCpuLimit(), worked out on the first call. */
export function usableCores(): number {
  if (usable === undefined) usable = Math.min(availableParallelism(), cgroupCpuLimit() ?? Number.POSITIVE_INFINITY);
  return usable;
}
