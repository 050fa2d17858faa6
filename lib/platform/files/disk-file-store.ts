import "server-only";
import { randomUUID } from "node:crypto";
import { createReadStream } from "node:fs";
import { copyFile, mkdir, readdir, rename, rm, stat, utimes } from "node:fs/promises";
import path from "node:path";
import { db } from "@/lib/platform/db";
import { StoredFileMissingError, assertSha256, type FileStore } from "@/lib/platform/files/store-contract";
import type { StagedFile } from "@/lib/platform/files/staging";

/** Files under DATA_DIR/submissions/ab/abcdef....jsonl, the layout of every release before the PostgreSQL store. */
export class DiskFileStore implements FileStore {
  readonly kind = "disk" as const;
  private readonly root: string;

  constructor(dataDir: string) {
    this.root = path.resolve(dataDir, "submissions");
  }

  pathOf(sha256: string): string {
    assertSha256(sha256);
    return path.join(this.root, sha256.slice(0, 2), `${sha256}.jsonl`);
  }

  async put(staged: StagedFile): Promise<void> {
    const target = this.pathOf(staged.sha256);
    if (await this.has(staged.sha256)) {
      // A fresh mtime keeps the sweeper (which removes only old unreferenced files) off it until the caller commits.
      const now = new Date();
      await utimes(target, now, now);
      return;
    }
    await mkdir(path.dirname(target), { recursive: true });
    // Copied beside the target, then renamed: a reader never sees half a file.
    const partial = `${target}.${randomUUID()}.tmp`;
    try {
      await copyFile(staged.tempPath, partial);
      await rename(partial, target);
    } finally {
      await rm(partial, { force: true });
    }
  }

  async has(sha256: string): Promise<boolean> {
    return stat(this.pathOf(sha256)).then(
      (info) => info.isFile(),
      () => false,
    );
  }

  async *read(sha256: string): AsyncGenerator<Uint8Array, void, undefined> {
    const file = this.pathOf(sha256);
    if (!(await this.has(sha256))) throw new StoredFileMissingError(sha256, `disk (${this.root})`);
    for await (const chunk of createReadStream(file, { highWaterMark: 1024 * 1024 })) yield chunk as Buffer;
  }

  async sweepUnreferenced(olderThan: Date): Promise<number> {
    let removed = 0;
    for await (const sha256 of this.listStored(olderThan)) {
      if ((await db.submission.count({ where: { fileSha256: sha256 } })) > 0) continue;
      await rm(this.pathOf(sha256), { force: true });
      removed += 1;
    }
    return removed;
  }

  private async *listStored(olderThan: Date): AsyncGenerator<string, void, undefined> {
    const prefixes = await readdir(this.root).catch(() => [] as string[]);
    for (const prefix of prefixes) {
      if (!/^[0-9a-f]{2}$/.test(prefix)) continue;
      const names = await readdir(path.join(this.root, prefix)).catch(() => [] as string[]);
      for (const name of names) {
        const sha256 = /^([0-9a-f]{64})\.jsonl$/.exec(name)?.[1];
        if (!sha256) continue;
        const info = await stat(path.join(this.root, prefix, name)).catch(() => null);
        if (info && info.mtimeMs < olderThan.getTime()) yield sha256;
      }
    }
  }

}
