// What the `resin` subcommands share when reading their command line and files: a usage error
// (exit code 2, service.md 5) and reading a named file with a message that says which option it was.
import { readFileSync } from "node:fs";

/** A mistake in the command line: the command prints it with its usage and exits 2. */
export class UsageError extends Error {}

/** Reads a UTF-8 file, turning a failure into a UsageError that names what the file was for. */
export function readText(path: string, what: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch (err) {
    throw new UsageError(
      `cannot read ${what} '${path}': ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
    );
  }
}
