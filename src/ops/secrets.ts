// Worker secrets at rest: AES-256-GCM, key from SVC_SECRET_KEY (any string, hashed to 32 bytes)
// or a 0600 key file in the workspace (.resin/secret.key, created on first use). Values are never
// printed in full (see mask()).

import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

interface Sealed {
  iv: string;
  tag: string;
  data: string;
}

type Store = Record<string, Record<string, Sealed>>;

export class SecretStore {
  private readonly dir: string;
  private readonly env: Record<string, string | undefined>;

  constructor(root: string, env: Record<string, string | undefined>) {
    this.dir = join(root, ".resin");
    this.env = env;
  }

  private key(): Buffer {
    if (this.env.SVC_SECRET_KEY) return createHash("sha256").update(this.env.SVC_SECRET_KEY).digest();
    const file = join(this.dir, "secret.key");
    if (!existsSync(file)) {
      mkdirSync(this.dir, { recursive: true, mode: 0o700 });
      writeFileSync(file, randomBytes(32).toString("hex"), { mode: 0o600 });
      chmodSync(file, 0o600);
    }
    return Buffer.from(readFileSync(file, "utf8").trim(), "hex");
  }

  private file(): string {
    return join(this.dir, "secrets.json");
  }

  private load(): Store {
    try {
      return JSON.parse(readFileSync(this.file(), "utf8")) as Store;
    } catch {
      return {};
    }
  }

  private save(store: Store): void {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    writeFileSync(this.file(), `${JSON.stringify(store, null, 2)}\n`, { mode: 0o600 });
    chmodSync(this.file(), 0o600);
  }

  set(worker: string, name: string, value: string): void {
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", this.key(), iv);
    const data = Buffer.concat([cipher.update(value, "utf8"), cipher.final()]);
    const store = this.load();
    (store[worker] ??= {})[name] = {
      iv: iv.toString("base64"),
      tag: cipher.getAuthTag().toString("base64"),
      data: data.toString("base64"),
    };
    this.save(store);
  }

  get(worker: string, name: string): string | null {
    const s = this.load()[worker]?.[name];
    if (!s) return null;
    const decipher = createDecipheriv("aes-256-gcm", this.key(), Buffer.from(s.iv, "base64"));
    decipher.setAuthTag(Buffer.from(s.tag, "base64"));
    return Buffer.concat([decipher.update(Buffer.from(s.data, "base64")), decipher.final()]).toString("utf8");
  }

  delete(worker: string, name: string): boolean {
    const store = this.load();
    if (!store[worker]?.[name]) return false;
    delete store[worker][name];
    this.save(store);
    return true;
  }

  list(worker?: string): { worker: string; name: string }[] {
    const store = this.load();
    return Object.entries(store)
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
}

/** Shows at most the first 2 characters of a secret. */
export function mask(value: string): string {
  return value.length <= 4 ? "****" : `${value.slice(0, 2)}${"*".repeat(Math.min(12, value.length - 2))}`;
}
