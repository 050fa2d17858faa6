import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { spawnChild, type ChildHandle } from "./processes";

const run = promisify(execFile);
const REDIS_SERVER = "/usr/bin/redis-server";
const REDIS_CLI = "/usr/bin/redis-cli";

/** Whether something accepts TCP connections on 127.0.0.1:port. */
function isPortOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/** The first port from `start` on which nothing listens. */
export async function findFreePort(start: number): Promise<number> {
  for (let port = start; port < start + 200; port += 1) {
    if (!(await isPortOpen(port))) return port;
  }
  throw new Error(`no free port in ${start}..${start + 199}`);
}

/**
 * A redis-server of the test's own: its own port and data directory,
 * append-only persistence, so `shutdown` + `start` behaves like a real Redis
 * restart that keeps queued jobs.
 */
export class DedicatedRedis {
  readonly port: number;
  readonly dir: string;
  private server: ChildHandle | null = null;
  private starts = 0;

  private constructor(port: number, dir: string) {
    this.port = port;
    this.dir = dir;
  }

  static async create(preferredPort = 63811): Promise<DedicatedRedis> {
    const port = await findFreePort(preferredPort);
    const dir = await mkdtemp(path.join(os.tmpdir(), "irc-int-redis-"));
    return new DedicatedRedis(port, dir);
  }

  /** Logical db 1, like the shared test Redis, so the same guards apply. */
  get url(): string {
    return `redis://127.0.0.1:${this.port}/1`;
  }

  async start(): Promise<void> {
    if (await isPortOpen(this.port)) throw new Error(`port ${this.port} is already taken; cannot start the dedicated Redis`);
    this.starts += 1;
    this.server = spawnChild(`redis:${this.port}#${this.starts}`, REDIS_SERVER, [
      "--port", String(this.port),
      "--bind", "127.0.0.1",
      "--dir", this.dir,
      "--appendonly", "yes",
      "--maxmemory-policy", "noeviction",
      "--daemonize", "no",
      "--save", "",
    ], { ...process.env });
    await this.server.waitForLine(/Ready to accept connections/, 20_000);
  }

  /** `redis-cli shutdown`: the server writes its append-only file and exits. */
  async shutdown(): Promise<void> {
    const server = this.server;
    if (!server || !server.isRunning) return;
    await run(REDIS_CLI, ["-p", String(this.port), "shutdown"]).catch(() => undefined);
    const status = await server.waitForExit(20_000);
    if (status.code !== 0) throw new Error(`redis-server exited with ${status.code ?? status.signal} on shutdown:\n${server.tail()}`);
    if (await isPortOpen(this.port)) throw new Error(`port ${this.port} still accepts connections after shutdown`);
  }

  logs(): string {
    return this.server?.tail() ?? "";
  }

  /** Stops the server (SIGKILL if it is still up) and deletes its data directory. */
  async destroy(): Promise<void> {
    if (this.server?.isRunning) {
      this.server.killGroup("SIGKILL");
      await this.server.waitForExit(10_000);
    }
    await rm(this.dir, { recursive: true, force: true });
  }
}
