// A bar column sent as a base64 string of little-endian float64 values (service.md: /optimize's
// columnar `data`), decoded: by the request validator (validate.ts) and by the byte reader of a body
// (json-bytes.ts), which decodes a column as it cuts it out of the text.

/** This host stores doubles little-endian (every JS host resin runs on does; the DataView path is the fallback). */
const LITTLE_ENDIAN = new Uint8Array(new Float64Array([-0]).buffer)[7] === 0x80;
/** Node's Buffer where there is one: its base64 decoding is native; atob's string of bytes is ~10x slower. */
const NodeBuffer = (globalThis as { Buffer?: { from(s: string, enc: "base64"): Uint8Array } }).Buffer;

/**
 * A column sent as a string: base64 of its values as little-endian IEEE-754 doubles, 8 bytes each.
 * Why: as JSON numbers, a column of full-precision prices costs far more to parse than it does to run
 * over (JSON.parse of 20k bars of generated doubles took about 25 ms of a server's CPU per /optimize
 * study, a trial 5-8 ms); decoding the bytes costs about a millisecond. null when the string is not
 * such a column.
 */
export function decodeColumn(s: string): Float64Array | null {
  if (s.length % 4 !== 0) return null;
  // standard base64 only: Buffer also decodes the URL-safe alphabet ('-', '_') where atob throws, so
  // one body would decode on Node and be refused on a host without Buffer (two native scans, no regex)
  if (s.indexOf("-") !== -1 || s.indexOf("_") !== -1) return null;
  // Buffer skips characters outside base64 and atob whitespace, so a string with any of them decodes
  // to fewer bytes than its length promises: that test is the validation (a regular expression over
  // the string cost more than the decoding)
  const expected = (s.length / 4) * 3 - (s.endsWith("==") ? 2 : s.endsWith("=") ? 1 : 0);
  let bytes: Uint8Array;
  if (NodeBuffer) bytes = NodeBuffer.from(s, "base64");
  else {
    let text: string;
    try {
      text = atob(s);
    } catch {
      return null;
    }
    bytes = new Uint8Array(text.length);
    for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  }
  if (bytes.length !== expected || bytes.length % 8 !== 0) return null;
  // a Float64Array needs an 8-aligned buffer of its own: a large Buffer has one (its bytes from 0 to its
  // end); Node's small buffers share a pool, and their bytes are copied out
  const own = (
    bytes.byteOffset === 0 && bytes.buffer.byteLength === bytes.length
      ? bytes.buffer
      : bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length)
  ) as ArrayBuffer;
  if (LITTLE_ENDIAN) return new Float64Array(own);
  const view = new DataView(own);
  const out = new Float64Array(bytes.length / 8);
  for (let i = 0; i < out.length; i++) out[i] = view.getFloat64(i * 8, true);
  return out;
}
