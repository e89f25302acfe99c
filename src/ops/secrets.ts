// Worker secrets at rest (ops-cli.md): AES-256-GCM in <workspace>/.resin/secrets.json (dir 0700,
// file 0600). The key comes from SVC_SECRET_KEY through scrypt (node:crypto; the salt and cost are
// stored with the secrets) or from a random 32-byte key file kept apart from the ciphertext, in
// <SVC_HOME>/keys/ (dir 0700, file 0600; looser modes are refused, not repaired silently). A sealed
// check value tells a wrong key (SECRET_KEY_MISMATCH) from a damaged file (SECRETS_CORRUPT); a
// file that does not parse is an error, never an empty store.
//
// Writes are atomic and serialised: read-modify-write runs under an exclusive lock file (O_EXCL,
// stale after its owner dies), and the new content is written to a temporary file, fsynced and
// renamed over the old one. Ours rather than proper-lockfile: the store is synchronous (commands
// and the dev server's reload read it in one step) and the lock is a dozen lines of O_EXCL with a
// liveness check, which proper-lockfile's deprecated sync API does not do better.

import { createCipheriv, createDecipheriv, createHash, randomBytes, scryptSync } from "node:crypto";
import {
  chmodSync,
  closeSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";
import { CtlError, EXIT } from "./errors.js";

interface Sealed {
  iv: string;
  tag: string;
  data: string;
}

interface Kdf {
  name: "scrypt";
  salt: string;
  N: number;
  r: number;
  p: number;
}

interface StoreFile {
  version: 2;
  /** How SVC_SECRET_KEY becomes the AES key; null when the key file is used. */
  kdf: Kdf | null;
  /** "resin-secrets" sealed with the key: a wrong key fails here with a clear code. */
  check: Sealed;
  secrets: Record<string, Record<string, Sealed>>;
}

const CHECK_TEXT = "resin-secrets";
const SCRYPT = { N: 2 ** 15, r: 8, p: 1 } as const;
const LOCK_TIMEOUT_MS = 10_000;
const LOCK_STALE_MS = 30_000;

/** Worker names (and "_internal"/"_provider", the pseudo-workers of internal keys and provider credentials). */
export const SECRET_OWNER_RE = /^_?[a-z0-9][a-z0-9_-]{0,62}$/;
export const SECRET_NAME_RE = /^[A-Z][A-Z0-9_]{0,127}$/;

const sleep = (ms: number): void => void Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

function modeOf(path: string): number {
  return statSync(path).mode & 0o777;
}

function seal(key: Buffer, text: string): Sealed {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const data = Buffer.concat([cipher.update(text, "utf8"), cipher.final()]);
  return { iv: iv.toString("base64"), tag: cipher.getAuthTag().toString("base64"), data: data.toString("base64") };
}

/** The plain text, or null when the key does not open it (GCM authentication failed). */
function open(key: Buffer, s: Sealed): string | null {
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(s.iv, "base64"));
    decipher.setAuthTag(Buffer.from(s.tag, "base64"));
    return Buffer.concat([decipher.update(Buffer.from(s.data, "base64")), decipher.final()]).toString("utf8");
  } catch {
    return null;
  }
}

/** Derived keys of this process, by passphrase and salt (scrypt costs ~100 ms on purpose). */
const derived = new Map<string, Buffer>();

export class SecretStore {
  readonly dir: string;
  readonly file: string;
  private readonly lockFile: string;
  private readonly keyDir: string;
  private readonly keyFile: string;
  private readonly legacyKeyFile: string;
  private readonly env: Record<string, string | undefined>;

  constructor(root: string, env: Record<string, string | undefined>, home: string) {
    this.dir = join(root, ".resin");
    this.file = join(this.dir, "secrets.json");
    this.lockFile = join(this.dir, "secrets.lock");
    this.keyDir = join(home, "keys");
    this.keyFile = join(this.keyDir, `${createHash("sha256").update(root).digest("hex").slice(0, 16)}.key`);
    this.legacyKeyFile = join(this.dir, "secret.key");
    this.env = env;
  }

  /** Where the key comes from (doctor). */
  keySource(): string {
    return this.env.SVC_SECRET_KEY ? "SVC_SECRET_KEY (scrypt)" : this.keyFile;
  }

  private ensureDir(): void {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    // .resin is resinctl's own directory: it is tightened, never left readable by others.
    if (modeOf(this.dir) !== 0o700) chmodSync(this.dir, 0o700);
  }

  /** The key file's key, created on first use; refuses a key file or directory others can read. */
  private fileKey(create: boolean): Buffer | null {
    if (!existsSync(this.keyFile) && existsSync(this.legacyKeyFile)) {
      mkdirSync(this.keyDir, { recursive: true, mode: 0o700 });
      renameSync(this.legacyKeyFile, this.keyFile);
    }
    if (!existsSync(this.keyFile)) {
      if (!create) return null;
      mkdirSync(this.keyDir, { recursive: true, mode: 0o700 });
      writeFileSync(this.keyFile, randomBytes(32).toString("hex"), { mode: 0o600, flag: "wx" });
    }
    for (const [path, want] of [
      [this.keyDir, 0o700],
      [this.keyFile, 0o600],
    ] as const) {
      const mode = modeOf(path);
      if (mode !== want) {
        throw new CtlError(
          "SECRET_KEY_INSECURE",
          `${path} has mode ${mode.toString(8)}; the secret key needs ${want.toString(8)}`,
          {
            exit: EXIT.ERROR,
            hint: `chmod ${want.toString(8)} ${path} (and rotate the secrets if others could read it)`,
          },
        );
      }
    }
    const key = Buffer.from(readFileSync(this.keyFile, "utf8").trim(), "hex");
    if (key.length !== 32)
      throw new CtlError("SECRET_KEY_INVALID", `${this.keyFile} does not hold a 32-byte hex key`, { exit: EXIT.ERROR });
    return key;
  }

  private passphraseKey(kdf: Kdf): Buffer {
    const pass = this.env.SVC_SECRET_KEY as string;
    const id = `${kdf.salt}:${kdf.N}:${kdf.r}:${kdf.p}:${createHash("sha256").update(pass).digest("hex")}`;
    let key = derived.get(id);
    if (!key) {
      key = scryptSync(pass, Buffer.from(kdf.salt, "base64"), 32, {
        N: kdf.N,
        r: kdf.r,
        p: kdf.p,
        maxmem: 256 * kdf.N * kdf.r,
      });
      derived.set(id, key);
    }
    return key;
  }

  /** The store on disk (null when there is none); a file that does not parse is an error. */
  private read(): StoreFile | null {
    let text: string;
    try {
      text = readFileSync(this.file, "utf8");
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "ENOENT") return null;
      throw e;
    }
    let doc: unknown;
    try {
      doc = JSON.parse(text);
    } catch (e) {
      throw new CtlError("SECRETS_CORRUPT", `${this.file} is not valid JSON: ${(e as Error).message}`, {
        exit: EXIT.ERROR,
        hint: "restore it from a backup (resinctl monitor backup); it is never treated as empty",
      });
    }
    const d = doc as Partial<StoreFile>;
    if (d.version !== 2 || typeof d.secrets !== "object" || d.secrets === null || !d.check)
      throw new CtlError("SECRETS_CORRUPT", `${this.file} is not a resinctl secrets store (version 2)`, {
        exit: EXIT.ERROR,
      });
    return d as StoreFile;
  }

  /** The AES key for a store, checked against its sealed check value. */
  private keyFor(doc: StoreFile): Buffer {
    if (doc.kdf && !this.env.SVC_SECRET_KEY)
      throw new CtlError("SECRET_KEY_MISSING", "these secrets are sealed with SVC_SECRET_KEY, which is not set", {
        exit: EXIT.ERROR,
        hint: "export SVC_SECRET_KEY with the passphrase they were sealed with",
      });
    const key = doc.kdf ? this.passphraseKey(doc.kdf) : (this.fileKey(false) ?? Buffer.alloc(32));
    if (open(key, doc.check) !== CHECK_TEXT) {
      throw new CtlError(
        "SECRET_KEY_MISMATCH",
        doc.kdf
          ? "SVC_SECRET_KEY is not the key these secrets were sealed with"
          : `the key file ${this.keyFile} is not the key these secrets were sealed with`,
        {
          exit: EXIT.ERROR,
          hint: doc.kdf
            ? "use the passphrase the store was created with"
            : this.env.SVC_SECRET_KEY
              ? "the store uses the key file, not SVC_SECRET_KEY: unset SVC_SECRET_KEY"
              : "restore the matching key file",
        },
      );
    }
    return key;
  }

  private fresh(): { doc: StoreFile; key: Buffer } {
    let kdf: Kdf | null = null;
    let key: Buffer;
    if (this.env.SVC_SECRET_KEY) {
      kdf = { name: "scrypt", salt: randomBytes(16).toString("base64"), ...SCRYPT };
      key = this.passphraseKey(kdf);
    } else key = this.fileKey(true) as Buffer;
    return { doc: { version: 2, kdf, check: seal(key, CHECK_TEXT), secrets: {} }, key };
  }

  private write(doc: StoreFile): void {
    const tmp = `${this.file}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
    const fd = openSync(tmp, "wx", 0o600);
    try {
      writeSync(fd, `${JSON.stringify(doc, null, 2)}\n`);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, this.file);
  }

  /** Runs `fn` holding the store's lock (other processes wait, up to 10 s). */
  private locked<T>(fn: () => T): T {
    this.ensureDir();
    const deadline = Date.now() + LOCK_TIMEOUT_MS;
    for (;;) {
      try {
        const fd = openSync(this.lockFile, "wx", 0o600);
        writeSync(fd, String(process.pid));
        closeSync(fd);
        break;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
        if (this.lockIsStale()) {
          rmSync(this.lockFile, { force: true });
          continue;
        }
        if (Date.now() > deadline)
          throw new CtlError("SECRETS_LOCKED", `${this.lockFile} is held by another resinctl`, {
            exit: EXIT.ERROR,
            hint: "retry when the other command has finished",
          });
        sleep(10 + Math.floor(Math.random() * 20));
      }
    }
    try {
      return fn();
    } finally {
      rmSync(this.lockFile, { force: true });
    }
  }

  private lockIsStale(): boolean {
    try {
      const pid = Number(readFileSync(this.lockFile, "utf8"));
      if (Number.isInteger(pid) && pid > 0) {
        try {
          process.kill(pid, 0);
        } catch (e) {
          if ((e as NodeJS.ErrnoException).code === "ESRCH") return true;
        }
      }
      return Date.now() - statSync(this.lockFile).mtimeMs > LOCK_STALE_MS;
    } catch {
      return false;
    }
  }

  private modify(fn: (doc: StoreFile, key: Buffer) => boolean): boolean {
    return this.locked(() => {
      const existing = this.read();
      const { doc, key } = existing ? { doc: existing, key: this.keyFor(existing) } : this.fresh();
      const changed = fn(doc, key);
      if (changed) this.write(doc);
      return changed;
    });
  }

  set(worker: string, name: string, value: string): void {
    checkOwner(worker);
    checkName(name);
    this.modify((doc, key) => {
      if (!Object.hasOwn(doc.secrets, worker)) doc.secrets[worker] = {};
      (doc.secrets[worker] as Record<string, Sealed>)[name] = seal(key, value);
      return true;
    });
  }

  delete(worker: string, name: string): boolean {
    return this.modify((doc) => {
      const w = Object.hasOwn(doc.secrets, worker) ? doc.secrets[worker] : undefined;
      if (!w || !Object.hasOwn(w, name)) return false;
      delete w[name];
      if (Object.keys(w).length === 0) delete doc.secrets[worker];
      return true;
    });
  }

  get(worker: string, name: string): string | null {
    const doc = this.read();
    const s = doc && Object.hasOwn(doc.secrets, worker) ? doc.secrets[worker]?.[name] : undefined;
    if (!doc || !s) return null;
    const value = open(this.keyFor(doc), s);
    if (value === null)
      throw new CtlError("SECRETS_CORRUPT", `secret ${worker}/${name} does not decrypt with the store's key`, {
        exit: EXIT.ERROR,
      });
    return value;
  }

  list(worker?: string): { worker: string; name: string }[] {
    const doc = this.read();
    if (!doc) return [];
    return Object.entries(doc.secrets)
      .filter(([w]) => !worker || w === worker)
      .flatMap(([w, names]) => Object.keys(names).map((name) => ({ worker: w, name })))
      .sort((a, b) => a.worker.localeCompare(b.worker) || a.name.localeCompare(b.name));
  }

  /** Every secret of a worker, decrypted (for local bindings). */
  all(worker: string): Record<string, string> {
    const out: Record<string, string> = {};
    for (const { name } of this.list(worker)) out[name] = this.get(worker, name) as string;
    return out;
  }

  /** Files whose modes doctor checks: [path, expected mode]. */
  hygiene(): [string, number][] {
    return [
      [this.dir, 0o700],
      [this.file, 0o600],
      [this.keyDir, 0o700],
      [this.keyFile, 0o600],
    ];
  }
}

function checkOwner(worker: string): void {
  if (!SECRET_OWNER_RE.test(worker))
    throw new CtlError("INVALID_WORKER_NAME", `'${worker}' is not a worker name (lowercase letters, digits, - and _)`, {
      exit: EXIT.USAGE,
    });
}

function checkName(name: string): void {
  if (!SECRET_NAME_RE.test(name))
    throw new CtlError("INVALID_SECRET_NAME", `secret names are UPPER_SNAKE_CASE (got '${name}')`, {
      exit: EXIT.USAGE,
    });
}

/** Shows at most the first 2 characters of a secret. */
export function mask(value: string): string {
  return value.length <= 4 ? "****" : `${value.slice(0, 2)}${"*".repeat(Math.min(12, value.length - 2))}`;
}
