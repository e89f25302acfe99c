// The frame the random-script tests (tests/compile/random.test.ts, tests/interpret/kept-closures.test.ts)
// put their generated statements in: a user function with a history read, a `var` and two plain
// float variables the statements assign, and the three variables plotted.
import fc from "fast-check";

export function randomScript(stmts: string[]): string {
  return `//@version=6\nindicator("r")\nf(x) =>\n    y = x * 2\n    y - nz(y[1])\nvar float a = 0.0\nfloat b = close\nfloat c = 0.0\n${stmts.join("\n")}\nplot(a)\nplot(b)\nplot(c)\n`;
}

const atoms = [
  "close",
  "open",
  "high",
  "low",
  "volume",
  "bar_index",
  "0",
  "1",
  "-0.0",
  "2.5",
  "na",
  "hl2",
  "a",
  "b",
  "c",
];
const bin = ["+", "-", "*", "/", "%"];
export const cmp = [">", "<", ">=", "<=", "==", "!="];

/** Random numeric expressions over the frame's variables (na, -0, history, ta.*, user function calls). */
export const randomExpr: fc.Memo<string> = fc.memo((depth) =>
  depth <= 1
    ? fc.constantFrom(...atoms)
    : fc.oneof(
        fc.constantFrom(...atoms),
        fc
          .tuple(randomExpr(depth - 1), fc.constantFrom(...bin), randomExpr(depth - 1))
          .map(([l, o, r]) => `(${l} ${o} ${r})`),
        fc
          .tuple(
            randomExpr(depth - 1),
            fc.constantFrom(...cmp),
            randomExpr(depth - 1),
            randomExpr(depth - 1),
            randomExpr(depth - 1),
          )
          .map(([l, o, r, x, y]) => `(${l} ${o} ${r} ? ${x} : ${y})`),
        fc
          .tuple(fc.constantFrom("a", "b", "c", "close"), fc.integer({ min: 0, max: 4 }))
          .map(([v, k]) => `nz(${v}[${k}])`),
        fc
          .tuple(
            fc.constantFrom("ta.sma", "ta.ema", "ta.rma", "ta.wma", "ta.highest", "ta.lowest", "ta.rsi", "ta.change"),
            fc.constantFrom("close", "hl2", "(high - low)", "a"),
            fc.integer({ min: 1, max: 6 }),
          )
          .map(([f, s, n]) => `${f}(${s}, ${n})`),
        fc.tuple(randomExpr(depth - 1), randomExpr(depth - 1)).map(([x, y]) => `math.max(${x}, ${y})`),
        randomExpr(depth - 1).map((x) => `f(${x})`),
        randomExpr(depth - 1).map((x) => `int(${x})`),
      ),
);
