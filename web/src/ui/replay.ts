// Bar replay, as TradingView's: pick a bar on the chart, the chart cuts back to it, then step or play
// bar by bar. Each step is a run over the bars revealed so far in which the replayed bars are realtime
// (the runtime's realtimeFromBar/realtimeTicks, service.md 1.4): every replayed bar is walked through
// its ticks (open -> nearer extreme -> other extreme -> close), so varip state, barstate.isrealtime and
// calc_on_every_tick strategies behave as on a live chart, while the bars before the chosen one stay
// history. The app runs the window (App.run reads window()); the chart and the report grow with it.
//
// A step re-runs the script from the first bar (the runtime has no saved state to resume from), so a
// step costs one run over the revealed bars; play waits for each run before the next step.

import { fmtTime, h } from "./dom.js";

export interface ReplayWindow {
  /** Bars [0, to) are shown and run. */
  to: number;
  /** First realtime (replayed) bar. */
  from: number;
  /** Ticks per replayed bar. */
  ticks: number;
}

export interface ReplayHost {
  /** Bar count and times of the current data (null before data is loaded). */
  times(): Float64Array | null;
  /** Runs the script (with window()) and draws it; null when it failed or was superseded. */
  run(): Promise<unknown>;
  /** Calls `cb` with the bar clicked on the chart. */
  onChartClick(cb: (bar: number) => void): void;
}

const SPEEDS = [
  { label: "1 bar/s", ms: 1000 },
  { label: "3 bars/s", ms: 333 },
  { label: "10 bars/s", ms: 100 },
  { label: "max", ms: 0 },
];
const TICKS = [1, 4, 10];

export class Replay {
  private state: "off" | "selecting" | "on" = "off";
  private from = 0;
  private to = 0;
  private playing = false;
  private readonly el: {
    select: HTMLButtonElement;
    play: HTMLButtonElement;
    step: HTMLButtonElement;
    speed: HTMLSelectElement;
    ticks: HTMLSelectElement;
    position: HTMLElement;
  };

  constructor(
    private readonly bar: HTMLElement,
    private readonly toggle: HTMLButtonElement,
    private readonly host: ReplayHost,
  ) {
    this.el = {
      select: h(
        "button",
        { type: "button", title: "Pick the bar to replay from", onclick: () => this.selecting() },
        "Select bar",
      ),
      play: h("button", { type: "button", "data-testid": "replay-play", onclick: () => this.togglePlay() }, "▶ Play"),
      step: h(
        "button",
        { type: "button", "data-testid": "replay-step", title: "Next bar", onclick: () => void this.step() },
        "Step ▶|",
      ),
      speed: h(
        "select",
        { name: "replay-speed", title: "Replay speed" },
        ...SPEEDS.map((s, i) => h("option", { value: String(s.ms), selected: i === 1 }, s.label)),
      ),
      ticks: h(
        "select",
        {
          name: "replay-ticks",
          title: "Ticks per replayed bar: each bar is walked open → nearer extreme → other extreme → close",
          onchange: () => this.state === "on" && void this.host.run(),
        },
        ...TICKS.map((t) => h("option", { value: String(t), selected: t === 4 }, `${t} tick${t > 1 ? "s" : ""}`)),
      ),
      position: h("span", { class: "replay-position", "data-testid": "replay-position" }),
    };
    bar.append(
      h("strong", {}, "Replay"),
      this.el.select,
      this.el.play,
      this.el.step,
      this.el.speed,
      this.el.ticks,
      this.el.position,
      h("button", { type: "button", class: "link", title: "Leave replay", onclick: () => void this.exit() }, "Exit ✕"),
    );
    toggle.addEventListener("click", () => (this.state === "off" ? this.selecting() : void this.exit()));
    host.onChartClick((b) => {
      if (this.state === "selecting") void this.startAt(b);
    });
    this.paint();
  }

  /** The window a run covers, null when not replaying (or still picking the bar). */
  window(): ReplayWindow | null {
    if (this.state !== "on") return null;
    return { to: this.to, from: this.from, ticks: Number(this.el.ticks.value) };
  }

  /** Leaves replay without a run (the data changed: its bars are not the ones replayed). */
  reset(): void {
    this.playing = false;
    this.state = "off";
    this.paint();
  }

  /** Waits for a click on the chart (the bar replay starts after it). */
  selecting(): void {
    this.playing = false;
    const wasOn = this.state === "on";
    this.state = "selecting";
    this.paint();
    if (wasOn) void this.host.run(); // the whole chart again, to pick from
  }

  /** Cuts the chart back to bar `bar` (the last bar shown); the bars after it are then replayed. */
  async startAt(bar: number): Promise<void> {
    const n = this.host.times()?.length ?? 0;
    if (!n) return;
    this.from = this.to = Math.max(1, Math.min(n - 1, bar + 1));
    this.state = "on";
    this.paint();
    await this.host.run();
  }

  /** Reveals the next bar; false at the end of the data. */
  async step(): Promise<boolean> {
    const n = this.host.times()?.length ?? 0;
    if (this.state !== "on" || this.to >= n) return false;
    this.to++;
    this.paint();
    return (await this.host.run()) !== null;
  }

  togglePlay(): void {
    if (this.playing) {
      this.playing = false;
      this.paint();
    } else void this.play();
  }

  private async play(): Promise<void> {
    if (this.state !== "on") return;
    this.playing = true;
    this.paint();
    while (this.playing) {
      const t0 = performance.now();
      // a failed or stopped run, or the end of the data, pauses
      if (!(await this.step())) break;
      const wait = Number(this.el.speed.value) - (performance.now() - t0);
      await new Promise((r) => setTimeout(r, Math.max(0, wait)));
    }
    this.playing = false;
    this.paint();
  }

  async exit(): Promise<void> {
    const wasOn = this.state === "on";
    this.reset();
    if (wasOn) await this.host.run();
  }

  private paint(): void {
    const on = this.state === "on";
    this.bar.hidden = this.state === "off";
    this.toggle.classList.toggle("active", this.state !== "off");
    this.toggle.setAttribute("aria-pressed", String(this.state !== "off"));
    const n = this.host.times()?.length ?? 0;
    this.el.play.disabled = this.el.step.disabled = !on || this.to >= n;
    this.el.play.textContent = this.playing ? "❚❚ Pause" : "▶ Play";
    this.el.select.classList.toggle("active", this.state === "selecting");
    const pos = this.el.position;
    if (this.state === "selecting") {
      pos.textContent = "Click the bar to start the replay from";
      delete pos.dataset.to;
    } else if (on) {
      const t = this.host.times()?.[this.to - 1];
      pos.textContent = `bar ${this.to - 1}/${n - 1} · ${fmtTime(t)} · ${this.to - this.from} replayed${this.to >= n ? " · end" : ""}`;
      pos.dataset.to = String(this.to);
    }
  }
}
