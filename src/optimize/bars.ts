// Bars as the optimizer slices them: always an array of bar objects (columnar input is converted once,
// and the rows remember the columns they came from: a host packs those for its runs, cheaper than
// packing the rows again), or, for a host that reads them only as columns, an array that stands for
// the rows without them (columnStandIn).

import type { Bar, OhlcvInput } from "../core/result.js";

const columnsOfRows = new WeakMap<readonly Bar[], OhlcvInput>();

/** The columns `rows` were made from by toBarArray, if they were. */
export function sourceColumns(rows: readonly Bar[]): OhlcvInput | undefined {
  return columnsOfRows.get(rows);
}

export function toBarArray(data: OhlcvInput | unknown): Bar[] {
  if (Array.isArray(data)) return data as Bar[];
  if (data === null || typeof data !== "object") return [];
  const c = data as Record<string, ArrayLike<number> | undefined>;
  const time = c.time;
  if (!time || typeof time.length !== "number") return [];
  const out: Bar[] = new Array(time.length);
  for (let i = 0; i < time.length; i++) {
    const bar: Bar = {
      time: time[i] as number,
      open: c.open?.[i] as number,
      high: c.high?.[i] as number,
      low: c.low?.[i] as number,
      close: c.close?.[i] as number,
    };
    if (c.volume) bar.volume = c.volume[i] as number;
    out[i] = bar;
  }
  columnsOfRows.set(out, data as OhlcvInput);
  return out;
}

/**
 * Rows that stand for columns, for a host whose runs read a study's bars only as columns (the server's
 * trials by range and its winner's run, server/engine.ts columnStudyData): an array of `length`
 * holes, remembered with its columns (sourceColumns), that the study measures, slices and hands to
 * its runners without a row object made per bar. Only such a host may make one: an element read
 * from it is undefined.
 */
export function columnStandIn(data: OhlcvInput): Bar[] {
  const out = new Array<Bar>((data as { time: ArrayLike<number> }).time.length);
  columnsOfRows.set(out, data);
  return out;
}

/** The declaration a source starts with, read lexically (comments skipped), or null. */
export function declarationKind(source: string): "indicator" | "strategy" | "library" | null {
  for (const raw of source.split(/\r?\n/)) {
    const line = raw.replace(/\/\/.*$/, "");
    const m = /^(indicator|strategy|library)\s*\(/.exec(line);
    if (m) return m[1] as "indicator" | "strategy" | "library";
  }
  return null;
}
