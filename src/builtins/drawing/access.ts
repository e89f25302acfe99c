// Generic getter/setter/delete/copy builtins over one drawing class. Getters read deleted objects
// too (their last values) and give na for an na id; setters on na or deleted objects do nothing.
import type { BuiltinTable, ExecContext } from "../types.js";
import type { AnyDrawing } from "./objects.js";
import { copyDrawing, removeDrawing, storeOf } from "./store.js";

type Ctor<T> = abstract new (...a: any[]) => T;

export function accessors<T extends AnyDrawing>(cls: Ctor<T>) {
  const any = (v: unknown): T | null => (v instanceof cls ? (v as T) : null);
  const live = (v: unknown): T | null => (v instanceof cls && !(v as T).deleted ? (v as T) : null);
  return {
    any,
    live,
    getter(name: string, f: (o: T, ctx: ExecContext, a: any[]) => unknown, na: unknown = NaN): BuiltinTable[string] {
      return { name, impl: (ctx, a) => (any(a[0]) === null ? na : f(any(a[0])!, ctx, a)) };
    },
    setter(name: string, f: (ctx: ExecContext, o: T, a: any[]) => void): BuiltinTable[string] {
      return {
        name,
        impl: (ctx, a) => {
          const o = live(a[0]);
          if (o !== null) {
            f(ctx, o, a);
            storeOf(ctx).version++;
          }
          return undefined;
        },
      };
    },
    deleter(name: string): BuiltinTable[string] {
      return {
        name,
        impl: (ctx, a) => {
          const o = any(a[0]);
          if (o !== null) removeDrawing(storeOf(ctx), o);
          return undefined;
        },
      };
    },
    copier(name: string, make: (id: number) => T): BuiltinTable[string] {
      return {
        name,
        impl: (ctx, a) => {
          const o = any(a[0]);
          return o === null ? null : copyDrawing(storeOf(ctx), o, make);
        },
      };
    },
  };
}
