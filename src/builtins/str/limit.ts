// TradingView's maximum string length. Release notes, August 2025: "Previously, a "string" value
// could not exceed 4,096 characters. Now, strings can contain up to 40,960 encoded characters."
// Every operation that can build a longer string (concatenation in both backends, str.repeat,
// str.replace[_all], str.format, str.tostring, str.upper/lower, array.join) stops the script with the
// same runtime error. Length is counted in UTF-16 code units (JavaScript's `length`, O(1)); the manual
// does not say which encoding its "encoded characters" are counted in (docs/compatibility.md).

export const MAX_STRING_LENGTH = 40_960;

/** The runtime error's text for a string of `length` characters. */
export function stringTooLongMessage(length: number): string {
  return `String is too long: ${length} characters (the maximum is ${MAX_STRING_LENGTH})`;
}

/** Raises the runtime error through the context (the backend adds the statement's line and bar). */
export function stringTooLong(ctx: { runtimeError(message: string): never }, length: number): never {
  return ctx.runtimeError(stringTooLongMessage(length));
}

/** `s` unchanged, or the runtime error when it is longer than the maximum. */
export function checkedString(ctx: { runtimeError(message: string): never }, s: string): string {
  return s.length > MAX_STRING_LENGTH ? stringTooLong(ctx, s.length) : s;
}
