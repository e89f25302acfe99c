// The "Create alert" dialog: registers the script with the edge worker (scripts registry, alert
// destinations, a bar-close job on the chart's symbol and timeframe, optionally the chart's bars) and
// shows the delivery history. Alerts are delivered only by an edge worker's bar-close jobs, so with
// no worker answering it explains how to get one instead of failing.

import type { PackedBars } from "../../../src/worker/protocol.js";
import {
  type AlertDestinationInput,
  type AlertDestinationView,
  type DeliveryView,
  deliveries,
  edgeAvailable,
  getAlerts,
  guessTimeframe,
  MAX_INGEST_BARS,
  registerAlert,
  runAlertJob,
  scriptIdFrom,
} from "../engines/edge-alerts.js";
import type { HttpTarget } from "../engines/http.js";
import { fmtTime, h } from "./dom.js";

export interface AlertDialogContext {
  /** The edge worker the app is configured with (⚙): URL and API key. */
  target: HttpTarget;
  source: string;
  /** The script's declared title. */
  title: string;
  scriptType: string | null;
  /** alert() and alertcondition() firings in the last run, and alertcondition() declarations. */
  firings: number;
  conditions: number;
  /** The chart's ticker and bars. */
  symbol: string;
  bars: PackedBars | null;
}

/** What to do about the worker's coded refusals, for a worker run with resinctl. */
const HINTS: Record<string, string> = {
  URL_REFUSED: " — to allow a host on this machine: npx resinctl secrets set resin OUTBOUND_ALLOW_HOSTS",
  CHAT_NOT_ALLOWED: " — add the chat: npx resinctl secrets set resin CHAT_ALLOWLIST",
  UNAUTHORIZED: " — set the worker's API key under ⚙ (Edge API key)",
};

const WEBHOOK_ID = "webhook";
const CHAT_ID = "chat";

/** Opens the dialog; resolves when it is closed. */
export function openAlertDialog(ctx: AlertDialogContext): Promise<void> {
  return new Promise((resolve) => {
    const dialog = h("dialog", { class: "alert-dialog", "data-testid": "alert-dialog" });
    const body = h("div", { class: "alert-body" });
    const close = () => {
      dialog.close();
      dialog.remove();
      resolve();
    };
    dialog.addEventListener("cancel", (e) => {
      e.preventDefault();
      close();
    });
    dialog.append(
      h(
        "div",
        { class: "alert-head" },
        h("h4", {}, `Create alert — ${ctx.title}`),
        h("button", { type: "button", class: "link", title: "Close", "aria-label": "Close", onclick: close }, "×"),
      ),
      body,
    );
    document.body.append(dialog);
    dialog.showModal();
    void probe(ctx, body, close);
  });
}

async function probe(ctx: AlertDialogContext, body: HTMLElement, close: () => void): Promise<void> {
  const url = ctx.target.baseUrl || "(not set)";
  body.replaceChildren(h("p", { class: "muted" }, `Looking for the edge worker at ${url}…`));
  if (!(await edgeAvailable(ctx.target))) {
    body.replaceChildren(noEdge(url, () => void probe(ctx, body, close), close));
    return;
  }
  let existing: AlertDestinationView[] | null = null;
  const id = scriptIdFrom(ctx.title);
  try {
    existing = await getAlerts(ctx.target, id);
  } catch (e) {
    body.replaceChildren(h("p", { class: "error" }, (e as Error).message));
    return;
  }
  body.replaceChildren(...form(ctx, id, existing, close));
}

/** What to do when no edge worker answers: how alerts are delivered and how to get a worker. */
function noEdge(url: string, retry: () => void, close: () => void): HTMLElement {
  const code = (t: string) => h("code", {}, t);
  return h(
    "div",
    { class: "alert-no-edge", "data-testid": "alert-no-edge" },
    h(
      "p",
      {},
      "Alerts are delivered by an edge worker: its bar-close job runs this script on every closed bar and sends the new alert() and alertcondition() firings to your webhook or chat. ",
      h("strong", {}, `No edge worker answers at ${url}.`),
    ),
    h("p", {}, "To get one:"),
    h(
      "ul",
      {},
      h(
        "li",
        {},
        "locally: run ",
        code("npx resinctl dev start"),
        " in your workspace (the evaluate worker listens on http://127.0.0.1:8788, the trade service beside it); a webhook on this machine also needs its host allowed: ",
        code("npx resinctl secrets set resin OUTBOUND_ALLOW_HOSTS"),
        " (e.g. 127.0.0.1);",
      ),
      h(
        "li",
        {},
        "deployed: ",
        code("npx resinctl deploy worker resin"),
        ", then set its URL and API key under ⚙ (Edge worker, Edge API key) in the top bar.",
      ),
    ),
    h(
      "p",
      { class: "muted" },
      "Chat destinations need the bot's token and the chat on the worker's allowlist: resinctl secrets set resin TELEGRAM_BOT_TOKEN (the chat bot's, as deploy telegram-webhook uses) and CHAT_ALLOWLIST.",
    ),
    h(
      "div",
      { class: "actions" },
      h("button", { type: "button", onclick: close }, "Close"),
      h("button", { type: "button", class: "primary", "data-testid": "alert-retry", onclick: retry }, "Check again"),
    ),
  );
}

function form(
  ctx: AlertDialogContext,
  id: string,
  existing: AlertDestinationView[] | null,
  close: () => void,
): HTMLElement[] {
  const hook = existing?.find((d) => d.type === "webhook");
  const chat = existing?.find((d) => d.type === "chat");
  const input = (name: string, value: string, attrs: Record<string, string> = {}) =>
    h("input", { name, value, "data-testid": `alert-${name}`, ...attrs });
  const scriptId = input("script-id", id, { pattern: "[A-Za-z0-9._-]{1,64}" });
  const symbol = input("symbol", ctx.symbol);
  const timeframe = input("timeframe", ctx.bars ? guessTimeframe(ctx.bars.time) : "1D", {
    placeholder: "1, 60, 1D…",
  });
  const webhook = input("webhook", hook?.type === "webhook" ? hook.url : "", {
    type: "url",
    placeholder: "https://example.com/hook",
  });
  const secret = input("secret", "", {
    type: "password",
    autocomplete: "off",
    placeholder:
      hook?.type === "webhook" && hook.signed
        ? "signed: leave empty to keep the secret, or type a new one"
        : "optional, 8+ characters",
  });
  const chatId = input("chat", chat?.type === "chat" ? chat.chat_id : "", { placeholder: "optional Telegram chat id" });
  const bars = ctx.bars?.time.length ?? 0;
  const ingest = h("input", {
    type: "checkbox",
    checked: bars > 0,
    disabled: bars === 0,
    "data-testid": "alert-ingest",
  });
  const status = h("p", { class: "alert-status", "data-testid": "alert-status", role: "status" });
  const history = h("div", { class: "alert-history", "data-testid": "alert-history" });
  const submit = h(
    "button",
    { type: "submit", class: "primary", "data-testid": "alert-save" },
    existing ? "Update alert" : "Create alert",
  );
  const runNow = h(
    "button",
    {
      type: "button",
      "data-testid": "alert-run",
      hidden: !existing,
      title: "Run the bar-close job now, as the cron trigger does when a bar closes",
    },
    "Run job now",
  );
  const say = (text: string, error = false) => {
    status.textContent = error ? `${text}${HINTS[/^[A-Z_]+/.exec(text)?.[0] ?? ""] ?? ""}` : text;
    status.classList.toggle("error", error);
  };
  const target = ctx.target;
  const refresh = async () => {
    try {
      renderHistory(history, await deliveries(target, scriptId.value.trim()));
    } catch (e) {
      history.replaceChildren(h("p", { class: "error" }, (e as Error).message));
    }
  };
  const f = h(
    "form",
    { class: "alert-form", method: "dialog" },
    h("label", {}, "Script id"),
    scriptId,
    h("label", {}, "Symbol / timeframe"),
    h("div", { class: "pair" }, symbol, timeframe),
    h("label", {}, "Webhook URL"),
    webhook,
    h("label", {}, "Signing secret"),
    secret,
    h("label", {}, "Chat id"),
    chatId,
    h("span", {}),
    h(
      "label",
      { class: "check" },
      ingest,
      bars
        ? ` Send the chart's ${Math.min(bars, MAX_INGEST_BARS).toLocaleString("en-US")} newest bars to the worker (its job runs on the bars it stores)`
        : " No chart bars to send: the worker's own feed must store this symbol's bars",
    ),
    status,
    h("div", { class: "actions" }, h("button", { type: "button", onclick: close }, "Close"), runNow, submit),
  );
  f.addEventListener("submit", (e) => {
    e.preventDefault();
    const dests: AlertDestinationInput[] = [];
    const url = webhook.value.trim();
    // An empty secret keeps the stored one (same URL): the worker never shows it, so it cannot be refilled here.
    if (url)
      dests.push({
        id: WEBHOOK_ID,
        type: "webhook",
        url,
        ...(secret.value ? { secret: secret.value } : { keep_secret: true }),
      });
    const c = chatId.value.trim();
    if (c) dests.push({ id: CHAT_ID, type: "chat", chat_id: c });
    if (!dests.length) return say("Give a webhook URL or a chat id: the alert needs somewhere to go.", true);
    submit.disabled = true;
    say("Registering…");
    registerAlert(target, {
      scriptId: scriptId.value.trim(),
      name: ctx.title,
      source: ctx.source,
      symbol: symbol.value.trim(),
      timeframe: timeframe.value.trim(),
      destinations: dests,
      bars: ingest.checked ? ctx.bars : null,
    })
      .then((saved) => {
        say(
          `Registered '${scriptId.value.trim()}' with ${saved.length} destination${saved.length === 1 ? "" : "s"}: its job runs on ${symbol.value.trim()} ${timeframe.value.trim()} at every bar close.`,
        );
        submit.textContent = "Update alert";
        runNow.hidden = false;
        return refresh();
      })
      .catch((err) => say((err as Error).message, true))
      .finally(() => {
        submit.disabled = false;
      });
  });
  runNow.addEventListener("click", () => {
    runNow.disabled = true;
    say("Running the job…");
    runAlertJob(target, scriptId.value.trim())
      .then((o) => {
        if (!o) return say("The worker has no job for this script.", true);
        if (o.status !== "ran") return say(`Job ${o.status}: ${o.reason ?? ""}`, o.status === "error");
        say(
          `Job ran: ${o.alerts ?? 0} new firing(s), ${o.alerts_delivered ?? 0} delivered, ${o.alerts_pending ?? 0} waiting for a retry.`,
        );
      })
      .catch((err) => say((err as Error).message, true))
      .finally(() => {
        runNow.disabled = false;
        void refresh();
      });
  });
  const note =
    ctx.firings + ctx.conditions === 0
      ? h(
          "p",
          { class: "alert-note warn", "data-testid": "alert-none" },
          "This script calls neither alert() nor alertcondition() in the last run: a job would have nothing to send.",
        )
      : h(
          "p",
          { class: "alert-note muted" },
          `The ${ctx.scriptType ?? "script"}'s alert() and alertcondition() firings on each newly closed bar are sent once per destination (the message with its {{placeholders}} filled: JSON when it is JSON, else plain text; signed with X-Resin-Signature when a secret is set). The last run had ${ctx.firings} firing(s).`,
        );
  const historyHead = h(
    "div",
    { class: "alert-history-head" },
    h("h5", {}, "Delivery history"),
    h(
      "button",
      { type: "button", class: "link", "data-testid": "alert-refresh", onclick: () => void refresh() },
      "Refresh",
    ),
  );
  if (existing) void refresh();
  else history.append(h("p", { class: "muted" }, "Not registered on this worker yet."));
  return [note, f, historyHead, history];
}

function renderHistory(host: HTMLElement, rows: DeliveryView[]): void {
  host.replaceChildren();
  if (!rows.length) {
    host.append(
      h(
        "p",
        { class: "muted" },
        "No deliveries yet: a job sends the firings of bars that close after its first run (the first run takes the newest bar).",
      ),
    );
    return;
  }
  const t = h(
    "table",
    { class: "grid" },
    h(
      "tr",
      {},
      h("th", {}, "Queued"),
      h("th", {}, "Bar"),
      h("th", {}, "To"),
      h("th", {}, "Status"),
      h("th", {}, "Tries"),
      h("th", { class: "msg" }, "Message / error"),
    ),
  );
  for (const d of rows)
    t.append(
      h(
        "tr",
        { class: `delivery-${d.status}`, "data-testid": "alert-delivery" },
        h("td", {}, fmtTime(d.created_at)),
        h("td", {}, fmtTime(d.bar_time)),
        h("td", {}, d.dest_id ?? ""),
        h("td", { class: "status" }, d.status),
        h("td", {}, d.attempts),
        h(
          "td",
          { class: "msg", title: d.message ?? "" },
          h("div", { class: "text" }, d.message ?? ""),
          d.last_error ? h("div", { class: "err" }, d.last_error) : null,
        ),
      ),
    );
  host.append(t);
}
