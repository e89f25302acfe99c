// A forced garbage collection for tests of memory reused between runs: the columns and stores of
// collected runs go back to their pools from finalization callbacks, which run after the job.
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

setFlagsFromString("--expose-gc");
/** A full garbage collection now. */
export const gc = runInNewContext("gc") as () => void;

/** Collects garbage and lets the finalization callbacks run. */
export async function collect(): Promise<void> {
  for (let i = 0; i < 3; i++) {
    gc();
    await new Promise((r) => setTimeout(r, 10));
  }
}
