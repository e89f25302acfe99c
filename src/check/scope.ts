// Lexical scopes of the checker: the global scope, local blocks, and one scope per user-function
// instance (whose parent is the global scope: functions see globals, not the caller's locals).

import type { VarSlot } from "./ir.js";

export interface ScopeVar {
  slot: VarSlot;
  /** Function parameters and loop counters cannot be reassigned. */
  readonly: boolean;
}

export class Scope {
  readonly vars = new Map<string, ScopeVar>();
  constructor(
    readonly parent: Scope | null,
    /** True for the top scope of a function instance. */
    readonly fnRoot = false,
    /** True for loop bodies (break/continue allowed). */
    readonly loop = false,
  ) {}

  lookup(name: string): { v: ScopeVar; scope: Scope } | undefined {
    for (let s: Scope | null = this; s; s = s.parent) {
      const v = s.vars.get(name);
      if (v) return { v, scope: s };
    }
    return undefined;
  }

  get isGlobal(): boolean {
    return this.parent === null;
  }

  /** Inside a user function (any depth)? */
  get inFunction(): boolean {
    for (let s: Scope | null = this; s; s = s.parent) if (s.fnRoot) return true;
    return false;
  }

  get inLoop(): boolean {
    for (let s: Scope | null = this; s; s = s.parent) {
      if (s.loop) return true;
      if (s.fnRoot) return false;
    }
    return false;
  }

  /** Is `scope` the global scope seen from inside a function? */
  static crossesFunction(from: Scope, owner: Scope): boolean {
    for (let s: Scope | null = from; s && s !== owner; s = s.parent) if (s.fnRoot) return true;
    return false;
  }
}
