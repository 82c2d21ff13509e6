/**
 * The child side of `pnpm bench` (api-bench.ts): counts the PostgreSQL round trips of this process
 * and answers the parent's questions over the IPC channel. Import it first in a child, before any
 * module that queries PostgreSQL.
 *
 * Every statement the pg driver sends goes through `Client.prototype.query` (pg.Pool's own query
 * borrows a client and calls it; Prisma 7's @prisma/adapter-pg calls it for every statement,
 * BEGIN and COMMIT included), so one counted call is one round trip, except on a pipelined
 * connection (the API's pool): a statement written while another is still unanswered on the same
 * connection (a transaction's COMMIT behind its last statement) shares that statement's round trip
 * and is not counted. The counter stays at 0 in a child that does not use pg (the API on PGlite).
 */
import pg from 'pg';

let roundTrips = 0;
const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
const originalQuery = proto.query;
/** Statements sent and not yet answered, per connection. */
const unanswered = new WeakMap<object, number>();
proto.query = function countedQuery(this: { pipeline?: boolean }, ...args: unknown[]) {
  const pending = unanswered.get(this) ?? 0;
  if (!(this.pipeline && pending > 0)) roundTrips++;
  unanswered.set(this, pending + 1);
  const answered = () => unanswered.set(this, (unanswered.get(this) ?? 1) - 1);
  const last = args.length - 1;
  const callback = args[last];
  if (typeof callback === 'function') {
    args[last] = (...r: unknown[]) => {
      answered();
      return (callback as (...a: unknown[]) => unknown)(...r);
    };
  }
  const out = originalQuery.apply(this, args);
  const promise = out as { then?: unknown } | undefined;
  if (typeof callback !== 'function' && typeof promise?.then === 'function') (out as Promise<unknown>).then(answered, answered);
  else if (typeof callback !== 'function') answered();
  return out;
};

/** What a child reports when asked (`stats`). */
export interface ChildStats {
  roundTrips: number;
  /** process.cpuUsage(): user + system CPU of the whole process, every thread, in µs. */
  cpuUs: number;
  rssBytes: number;
  heapUsedBytes: number;
}

export type ParentMessage = { id: number; cmd: 'stats' | 'gcstats' | 'shutdown' };
export type ChildMessage =
  | { type: 'ready'; info: Record<string, string> }
  | { type: 'failed'; message: string }
  | { type: 'reply'; id: number; stats: ChildStats };

function send(message: ChildMessage): void {
  if (process.connected) process.send?.(message);
}

export function stats(): ChildStats {
  const cpu = process.cpuUsage();
  const mem = process.memoryUsage();
  return { roundTrips, cpuUs: cpu.user + cpu.system, rssBytes: mem.rss, heapUsedBytes: mem.heapUsed };
}

let closeHook: () => Promise<void> = async () => {};

/** What to close on `shutdown` (the HTTP server, the pool); the child exits afterwards either way. */
export function onShutdown(close: () => Promise<void>): void {
  closeHook = close;
}

export function ready(info: Record<string, string>): void {
  send({ type: 'ready', info });
}

/** Reports a failed start to the parent, then exits. */
export function failed(err: unknown): void {
  const message = err instanceof Error ? (err.stack ?? err.message) : String(err);
  console.error(message);
  setTimeout(() => process.exit(1), 1000).unref();
  if (process.connected) process.send?.({ type: 'failed', message } satisfies ChildMessage, () => process.exit(1));
  else process.exit(1);
}

if (!process.send) {
  console.error('this is a child of test/bench/api-bench.ts (pnpm bench); run that instead');
  process.exit(2);
}

process.on('message', (raw) => {
  const m = raw as ParentMessage;
  if (m.cmd === 'stats') send({ type: 'reply', id: m.id, stats: stats() });
  else if (m.cmd === 'gcstats') {
    // Started with --expose-gc by the parent.
    (globalThis as { gc?: () => void }).gc?.();
    send({ type: 'reply', id: m.id, stats: stats() });
  } else if (m.cmd === 'shutdown') {
    const hardStop = setTimeout(() => process.exit(0), 5000);
    hardStop.unref();
    closeHook()
      .catch(() => {})
      .finally(() => {
        send({ type: 'reply', id: m.id, stats: stats() });
        process.exit(0);
      });
  }
});
// The parent is gone (it crashed or was killed): never outlive it.
process.on('disconnect', () => process.exit(0));
