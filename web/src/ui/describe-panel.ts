// The "Describe" box: a trader types what they want ("ema 20/50 cross, long only, 2% stop, 9:30-16:00
// New York"), resin writes the script, and the app puts it in the editor and runs it. With the HTTP
// engine the resin server's POST /generate writes it (that host may have a model configured);
// otherwise src/generate runs here in the page with the offline grammar (loaded on first use, so the
// app's first paint does not pay for it). Either way only a verified script comes back; what was not
// understood is listed under the box.

import { h } from "./dom.js";

export type DescribeOutcome =
  | { ok: true; script: string; verified: string[]; notes: string[] }
  | { ok: false; message: string; notes: string[]; code?: string };

interface AnswerJson {
  status?: string;
  code?: string;
  script?: string;
  message?: string;
  verified?: { name: string }[];
  not_understood?: string[];
  corrections?: string[];
}

function outcomeOf(a: AnswerJson): DescribeOutcome {
  const notes = [...(a.corrections ?? []), ...(a.not_understood ?? []).map((n) => `not understood: ${n}`)];
  if (a.status === "success" && typeof a.script === "string")
    return { ok: true, script: a.script, verified: (a.verified ?? []).map((c) => c.name), notes };
  return {
    ok: false,
    message: a.message ?? "no script came back",
    notes,
    ...(typeof a.code === "string" ? { code: a.code } : {}),
  };
}

/** Asks `serverUrl`'s POST /generate, or the in-page generator when `serverUrl` is null. */
export async function requestScript(
  text: string,
  serverUrl: string | null,
  fetchImpl: typeof fetch = (...args) => fetch(...args),
): Promise<DescribeOutcome> {
  if (serverUrl !== null) {
    let res: Response;
    try {
      res = await fetchImpl(`${serverUrl.replace(/\/+$/, "")}/generate`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ text }),
      });
    } catch (err) {
      return {
        ok: false,
        message: `cannot reach ${serverUrl}: ${err instanceof Error ? err.message : String(err)}`,
        notes: [],
      };
    }
    try {
      return outcomeOf((await res.json()) as AnswerJson);
    } catch {
      return { ok: false, message: `${serverUrl}/generate answered HTTP ${res.status} without JSON`, notes: [] };
    }
  }
  const { generate, GenerateError } = await import("../../../src/generate/index.js");
  try {
    return outcomeOf({ status: "success", ...(await generate(text)) });
  } catch (err) {
    if (err instanceof GenerateError)
      return outcomeOf({ status: "error", code: err.code, message: err.message, ...err.details });
    throw err;
  }
}

export interface DescribeHost {
  /** The server to ask, or null to write the script in the page. */
  serverUrl(): string | null;
  /** Puts the script in the editor and runs it. */
  apply(script: string): void;
}

/** Mounts the box right above `anchor` (the editor). */
export class DescribePanel {
  private readonly input: HTMLTextAreaElement;
  private readonly button: HTMLButtonElement;
  private readonly report: HTMLElement;

  constructor(
    anchor: HTMLElement,
    private readonly host: DescribeHost,
  ) {
    this.input = h("textarea", {
      rows: 2,
      placeholder: "Describe a script: ema 20/50 crossover, long only, 2% stop, 4% take profit, 9:30-16:00 New York",
      "aria-label": "Describe a script",
      "data-testid": "describe-text",
      style: "width: 100%; box-sizing: border-box; resize: vertical; font: inherit;",
    });
    this.button = h(
      "button",
      {
        type: "button",
        class: "primary",
        "data-testid": "describe-go",
        // a long report beside it must not squeeze the label onto two lines
        style: "flex-shrink: 0; white-space: nowrap;",
        onclick: () => void this.submit(),
      },
      "Write script",
    );
    this.report = h("div", {
      class: "describe-report",
      role: "status",
      "data-testid": "describe-report",
      style: "font-size: 0.85em;",
    });
    this.input.addEventListener("keydown", (e) => {
      if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
        e.preventDefault();
        void this.submit();
      }
    });
    const box = h(
      "details",
      { class: "describe-panel", "data-testid": "describe-panel", style: "margin-bottom: 6px;" },
      h("summary", {}, "Describe"),
      this.input,
      h(
        "div",
        { style: "display: flex; gap: 8px; align-items: flex-start; margin-top: 4px;" },
        this.button,
        this.report,
      ),
    );
    anchor.before(box);
  }

  async submit(): Promise<void> {
    const text = this.input.value.trim();
    if (!text) return;
    this.button.disabled = true;
    this.report.replaceChildren("writing and verifying…");
    try {
      const out = await requestScript(text, this.host.serverUrl());
      const lines: (string | HTMLElement)[] = out.ok
        ? [`verified: ${out.verified.join(", ")}`]
        : [h("span", { class: "error", "data-code": out.code ?? "" }, out.code ? `[${out.code}] ` : "", out.message)];
      for (const n of out.notes) lines.push(h("div", {}, n));
      this.report.replaceChildren(...lines);
      if (out.ok) this.host.apply(out.script);
    } catch (err) {
      this.report.replaceChildren(`failed: ${err instanceof Error ? err.message : String(err)}`);
    } finally {
      this.button.disabled = false;
    }
  }
}
