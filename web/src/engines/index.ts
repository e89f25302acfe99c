// The engine registry: the app picks one by id; each is created once and reused.

import { BrowserEngine } from "./browser.js";
import { EdgeEngine, HttpEngine } from "./http.js";
import type { Engine, EngineId } from "./types.js";

export interface EngineSettings {
  httpUrl: string;
  edgeUrl: string;
  edgeKey: string;
}

export class Engines {
  private browser: BrowserEngine | null = null;
  private remote = new Map<string, Engine>();

  get(id: EngineId, s: EngineSettings): Engine {
    if (id === "browser") return (this.browser ??= new BrowserEngine());
    const url = id === "http" ? s.httpUrl : s.edgeUrl;
    const key = `${id}|${url}|${id === "edge" ? s.edgeKey : ""}`;
    let e = this.remote.get(key);
    if (!e) {
      e =
        id === "http"
          ? new HttpEngine({ baseUrl: url })
          : new EdgeEngine({ baseUrl: url, apiKey: s.edgeKey || undefined });
      this.remote.set(key, e);
    }
    return e;
  }

  /** The in-browser engine (for benchmarks and pool-size comparisons). */
  browserEngine(): BrowserEngine {
    return (this.browser ??= new BrowserEngine());
  }
}
