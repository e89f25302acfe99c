// CPU time the browser's threads used, read from /proc (Linux): a contention-proof companion to
// wall-clock figures on a shared machine, where trials/s mostly measures what other processes leave.

import { readdirSync, readFileSync } from "node:fs";

const TICK_MS = 10; // USER_HZ is 100 on Linux

/** Per-thread CPU ms of every chromium process, keyed by pid/tid, with a readable label. */
export type CpuSample = Map<string, { label: string; ms: number }>;

export function sampleBrowserCpu(): CpuSample | null {
  const out: CpuSample = new Map();
  let pids: string[];
  try {
    pids = readdirSync("/proc").filter((d) => /^\d+$/.test(d));
  } catch {
    return null;
  }
  for (const pid of pids) {
    let cmd: string;
    try {
      cmd = readFileSync(`/proc/${pid}/cmdline`, "utf8");
    } catch {
      continue;
    }
    if (!cmd.includes("chrom")) continue;
    const type = /--type=([\w-]+)/.exec(cmd)?.[1] ?? "browser";
    let tids: string[];
    try {
      tids = readdirSync(`/proc/${pid}/task`);
    } catch {
      continue;
    }
    for (const tid of tids) {
      try {
        const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
        const close = stat.lastIndexOf(")");
        const fields = stat.slice(close + 2).split(" ");
        const comm = stat.slice(stat.indexOf("(") + 1, close);
        // utime and stime are fields 14 and 15 of stat, 12 and 13 after the command
        out.set(`${pid}/${tid}`, {
          label: `${type}:${tid === pid ? "main" : comm}`,
          ms: (Number(fields[11]) + Number(fields[12])) * TICK_MS,
        });
      } catch {
        // the thread ended between the listing and the read
      }
    }
  }
  return out;
}

/** CPU ms used between two samples, in total and by the page's renderer main thread. */
export function cpuBetween(a: CpuSample | null, b: CpuSample | null): { totalMs: number; pageMainMs: number } | null {
  if (!a || !b) return null;
  let totalMs = 0;
  let pageMainMs = 0;
  for (const [id, v] of b) {
    const d = v.ms - (a.get(id)?.ms ?? 0);
    if (d <= 0) continue;
    totalMs += d;
    if (v.label === "renderer:main") pageMainMs += d;
  }
  return { totalMs, pageMainMs };
}
