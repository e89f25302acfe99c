// `resinctl trace ...`: the structured events the workers emit (trace-store.ts): list, metrics per
// kind, live follow, the field keys and values seen, export destinations (OTLP/HTTP) and usage.
// Reading commands first export what the destinations have not had yet.

import { group, leaf, type Cmd } from "../command.js";
import type { CmdResult, Ctx, Inv } from "../context.js";
import { CtlError, EXIT, usageError } from "../errors.js";
import { follow } from "../interaction.js";
import { table } from "../output.js";
import { destinations, flush, saveDestinations, type TraceEvent, traceEvents } from "../trace-store.js";

function filtered(ctx: Ctx, opts: Inv["opts"]): TraceEvent[] {
  return traceEvents(ctx).filter(
    (e) => (!opts.worker || e.worker === opts.worker) && (!opts.kind || e.kind === opts.kind),
  );
}

const fmt = (e: TraceEvent) =>
  `${e.at} ${e.worker} ${e.kind} ${Object.entries(e.fields)
    .map(([k, v]) => `${k}=${typeof v === "string" ? v : JSON.stringify(v)}`)
    .join(" ")}`;

async function events(ctx: Ctx, { opts }: Inv): Promise<CmdResult> {
  const exported = await flush(ctx);
  const list = filtered(ctx, opts).slice(-((opts.limit as number | undefined) ?? 50));
  return { data: { events: list, exported }, text: list.length ? list.map(fmt).join("\n") : "no trace events yet" };
}

function quantile(sorted: number[], q: number): number {
  return sorted.length ? (sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] as number) : 0;
}

async function metrics(ctx: Ctx, { opts }: Inv): Promise<CmdResult> {
  const by = new Map<string, { count: number; errors: number; ms: number[] }>();
  for (const e of filtered(ctx, opts)) {
    const k = `${e.worker} ${e.kind}`;
    const m = by.get(k) ?? { count: 0, errors: 0, ms: [] };
    m.count++;
    if (Number(e.fields.status) >= 400) m.errors++;
    if (typeof e.fields.ms === "number") m.ms.push(e.fields.ms);
    by.set(k, m);
  }
  const rows = [...by.entries()].map(([k, m]) => {
    const ms = m.ms.sort((a, b) => a - b);
    return {
      series: k,
      count: m.count,
      errors: m.errors,
      p50_ms: quantile(ms, 0.5),
      p95_ms: quantile(ms, 0.95),
      p99_ms: quantile(ms, 0.99),
    };
  });
  return {
    data: { metrics: rows },
    text: rows.length
      ? table(
          ctx.out,
          ["series", "count", "errors", "p50", "p95", "p99"],
          rows.map((r) => [r.series, r.count, r.errors, r.p50_ms, r.p95_ms, r.p99_ms]),
        )
      : "no trace events yet",
  };
}

async function live(ctx: Ctx, { opts }: Inv): Promise<CmdResult> {
  let seen = traceEvents(ctx).length;
  let printed = 0;
  const signal = await follow(
    async () => {
      const all = traceEvents(ctx);
      for (const e of all.slice(seen)) {
        if ((opts.worker && e.worker !== opts.worker) || (opts.kind && e.kind !== opts.kind)) continue;
        ctx.out.write(ctx.flags.json ? `${JSON.stringify({ event: "trace", ...e })}\n` : `${fmt(e)}\n`);
        printed++;
      }
      seen = all.length;
      await flush(ctx);
    },
    opts.for as number | undefined,
  );
  return { data: { printed, signal }, text: `${printed} events` };
}

async function keys(ctx: Ctx, { opts }: Inv): Promise<CmdResult> {
  const counts = new Map<string, number>();
  for (const e of filtered(ctx, opts))
    for (const k of ["kind", ...Object.keys(e.fields)]) counts.set(k, (counts.get(k) ?? 0) + 1);
  const rows = [...counts.entries()].sort((a, b) => b[1] - a[1]);
  return {
    data: { keys: Object.fromEntries(rows) },
    text: rows.length
      ? table(
          ctx.out,
          ["key", "events"],
          rows.map(([k, n]) => [k, n]),
        )
      : "no trace events yet",
  };
}

async function values(ctx: Ctx, { args, opts }: Inv): Promise<CmdResult> {
  const key = args[0] as string;
  const counts = new Map<string, number>();
  for (const e of filtered(ctx, opts)) {
    const v = key === "kind" ? e.kind : e.fields[key];
    if (v === undefined) continue;
    const s = typeof v === "string" ? v : JSON.stringify(v);
    counts.set(s, (counts.get(s) ?? 0) + 1);
  }
  const rows = [...counts.entries()].sort((a, b) => b[1] - a[1]).slice(0, (opts.limit as number | undefined) ?? 50);
  return {
    data: { key, values: Object.fromEntries(rows) },
    text: rows.length
      ? table(
          ctx.out,
          [key, "events"],
          rows.map(([k, n]) => [k, n]),
        )
      : `no events carry '${key}'`,
  };
}

async function destAdd(ctx: Ctx, { args, opts }: Inv): Promise<CmdResult> {
  const endpoint = args[0] as string;
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw usageError(`the endpoint must be a URL like http://127.0.0.1:4318 (got '${endpoint}')`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw usageError("OTLP/HTTP endpoints are http or https");
  const name = String(opts.name ?? url.host).replace(/[^A-Za-z0-9._:-]/g, "-");
  const list = destinations(ctx);
  if (list.some((d) => d.name === name))
    throw new CtlError("ALREADY_EXISTS", `destination '${name}' exists`, { exit: EXIT.FAILED });
  list.push({
    name,
    endpoint: url.href.replace(/\/$/, ""),
    exported: opts.fromNow ? traceEvents(ctx).length : 0,
    last_status: null,
    last_at: null,
  });
  saveDestinations(ctx, list);
  const sent = await flush(ctx);
  return {
    data: { name, endpoint: url.href, exported: sent },
    text: `added ${name} (${url.href}); exported ${sent.find((s) => s.name === name)?.sent ?? 0} events (${sent.find((s) => s.name === name)?.status ?? "nothing to send"})`,
  };
}

async function destRemove(ctx: Ctx, { args }: Inv): Promise<CmdResult> {
  const name = args[0] as string;
  const list = destinations(ctx);
  if (!list.some((d) => d.name === name))
    throw new CtlError("NOT_FOUND", `no destination '${name}'`, {
      exit: EXIT.FAILED,
      suggestions: list.map((d) => `resinctl trace destinations remove ${d.name}`),
    });
  saveDestinations(
    ctx,
    list.filter((d) => d.name !== name),
  );
  return { data: { name, removed: true }, text: `removed ${name}` };
}

async function usage(ctx: Ctx): Promise<CmdResult> {
  const evs = traceEvents(ctx);
  const list = destinations(ctx);
  const bytes = evs.reduce((n, e) => n + JSON.stringify(e.fields).length, 0);
  return {
    data: { events: evs.length, bytes, destinations: list },
    text: `${evs.length} events (${bytes} bytes of fields)\n${
      list.length
        ? table(
            ctx.out,
            ["destination", "endpoint", "exported", "last status"],
            list.map((d) => [d.name, d.endpoint, d.exported, d.last_status ?? "-"]),
          )
        : "no destinations"
    }`,
  };
}

const FILTERS: [string, string, "int"?][] = [
  ["--worker <NAME>", "only this worker"],
  ["--kind <KIND>", "only this kind (request, ...)"],
];

export const commands: Record<string, Cmd> = {
  trace: group("structured events the workers emit", {
    events: leaf("the last events", events, { options: [...FILTERS, ["--limit <N>", "how many (default 50)", "int"]] }),
    metrics: leaf("count, errors and p50/p95/p99 per worker and kind", metrics, { options: FILTERS }),
    live: leaf("follow new events (Ctrl-C or --for stops)", live, {
      options: [...FILTERS, ["--for <S>", "stop after S seconds", "int"]],
    }),
    keys: leaf("the field keys the events carry", keys, { options: FILTERS }),
    values: leaf("the values of one key, by count", values, {
      args: "<key>",
      options: [...FILTERS, ["--limit <N>", "how many (default 50)", "int"]],
    }),
    destinations: group("OTLP/HTTP export destinations", {
      add: leaf("export events to an OTLP/HTTP endpoint (POST /v1/logs)", destAdd, {
        args: "<endpoint>",
        options: [
          ["--name <NAME>", "its name (default host:port)"],
          ["--from-now", "skip the events captured so far"],
        ],
        examples: ["resinctl trace destinations add http://127.0.0.1:4318"],
      }),
      remove: leaf("stop exporting to a destination", destRemove, { args: "<name>" }),
    }),
    usage: leaf("events kept and what each destination received", usage),
  }),
};
