// Per-run input state: the declared inputs (result.inputs) and the overrides the run was given.
import type { InputRecord } from "../../core/result.js";
import { objectArray } from "../../core/shapes.js";

/** A wrong-typed or invalid override: reported with error_kind "check". */
export class InputOverrideError extends Error {
  readonly kind = "check";
  constructor(message: string) {
    super(message);
    this.name = "InputOverrideError";
  }
}

export class InputStore {
  readonly records: InputRecord[] = objectArray(); // (object elements kind from the start: core/shapes.ts)
  /**
   * Call sites whose declaration is recorded: an input is declared once per run, also when a
   * realtime tick's rollback (src/runtime/rerun.ts) took the site's state back to before its first call.
   */
  readonly declared = new Set<number>();
  constructor(
    /** Overrides keyed by input title or by the declared variable name. */
    readonly overrides: Record<string, unknown> = {},
    /** Variable name an input call is assigned to, by call-site id. */
    readonly varNames: Map<number, string> = new Map(),
    /** For input.source: the name of the default source variable, by call-site id. */
    readonly sourceNames: Map<number, string> = new Map(),
  ) {}

  /** The override for an input, by title first, then by variable name when unambiguous. */
  override(title: string, siteId: number): { found: boolean; value: unknown } {
    if (title && Object.hasOwn(this.overrides, title)) return { found: true, value: this.overrides[title] };
    const name = this.varNames.get(siteId);
    if (name && Object.hasOwn(this.overrides, name)) {
      let uses = 0;
      for (const n of this.varNames.values()) if (n === name) uses++;
      if (uses === 1) return { found: true, value: this.overrides[name] };
    }
    return { found: false, value: undefined };
  }
}
