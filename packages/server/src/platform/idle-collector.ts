import type { Server } from 'node:http';
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { Logger } from '../logger.ts';

/**
 * Gives memory back when the service goes idle. Under load V8 lets its heap grow to several times
 * what is live (it trades memory for fewer full collections), and it shrinks the heap again only
 * when its memory reducer runs, 8 to 40 s after the load stops. Measured on two cores after 30 s
 * of POSTs: 305 MB of heap of which 71 MB live, RSS 431 MB on PostgreSQL; two full collections
 * brought it to 110 MB and 231 MB in 160 ms. So when no request has arrived on the API's port for
 * `idleSeconds` and the heap has grown by `growthBytes` since the last such collection (or since
 * the process started), the process runs two full collections: the first frees, the second
 * compacts what the first left fragmented, so that the emptied pages go back to the system. Once
 * per busy period; a request arriving meanwhile waits for it (tens of ms per collection), as it
 * would for V8's own. The next burst starts with a small heap and grows it again (README,
 * "Starting", has what that costs).
 */
export interface IdleCollectorOptions {
  idleSeconds: number;
  /** Heap growth since the last collection that makes one worth running (default 32 MiB). */
  growthBytes?: number;
  /** The heap's committed size in bytes (V8's total_heap_size). */
  heapSize?: () => number;
  /** Runs one full collection. */
  collect?: () => void;
  now?: () => number;
  /** Where the size after the last collection is kept: the process's by default (shared by every collector). */
  last?: { baseline: number };
  log?: Pick<Logger, 'debug'>;
}

export interface IdleDecision {
  msSinceRequest: number;
  heapSize: number;
  /** Heap size after the last collection (0 before the first: the start's own garbage counts). */
  baseline: number;
  idleMs: number;
  growthBytes: number;
}

/** Whether an idle collection is due: idle long enough, and the heap grew enough since the last. */
export const collectionDue = (d: IdleDecision): boolean => d.msSinceRequest >= d.idleMs && d.heapSize - d.baseline >= d.growthBytes;

/**
 * V8's `gc`, without putting it on this context's global object: exposed only while one new
 * context is made, and only that context's global has it. Used when the process started without
 * `--expose-gc` (the usual case).
 */
function fullCollection(): () => void {
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (typeof exposed === 'function') return exposed;
  setFlagsFromString('--expose-gc');
  try {
    return runInNewContext('gc') as () => void;
  } finally {
    setFlagsFromString('--no-expose-gc');
  }
}

/** The heap's size after the last idle collection of this process (the heap is the process's, not a server's). */
const processHeap = { baseline: 0 };

export interface IdleCollector {
  /** Counts a request on `server` as activity. */
  watch(server: Server): void;
  /** One check now (the timer's); whether it collected. */
  check(): boolean;
  stop(): void;
}

export function startIdleCollector(opts: IdleCollectorOptions): IdleCollector {
  const now = opts.now ?? (() => performance.now());
  const heapSize = opts.heapSize ?? (() => getHeapStatistics().total_heap_size);
  const growthBytes = opts.growthBytes ?? 32 * 1024 * 1024;
  const idleMs = opts.idleSeconds * 1000;
  let collect = opts.collect;
  const last = opts.last ?? processHeap;
  // A request only counts itself (one increment); each check notes the time when the count moved,
  // so that the time since the last request is known to within the check's interval.
  let requests = 0;
  let counted = 0;
  let lastRequest = now();
  const touch = () => {
    requests++;
  };
  const watched: Server[] = [];
  const check = () => {
    if (requests !== counted) {
      counted = requests;
      lastRequest = now();
    }
    const before = heapSize();
    if (!collectionDue({ msSinceRequest: now() - lastRequest, heapSize: before, baseline: last.baseline, idleMs, growthBytes }))
      return false;
    collect ??= fullCollection();
    const started = now();
    collect();
    collect();
    last.baseline = heapSize();
    opts.log?.debug('idle collection', {
      heap_before_mb: Math.round(before / 1048576),
      heap_after_mb: Math.round(last.baseline / 1048576),
      ms: Math.round(now() - started),
    });
    return true;
  };
  // Checked a few times per idle period; the check reads one number from V8.
  const timer = idleMs > 0 ? setInterval(check, Math.max(250, Math.min(idleMs / 4, 2000))) : undefined;
  timer?.unref();
  return {
    watch(server) {
      server.on('request', touch);
      watched.push(server);
    },
    check,
    stop() {
      if (timer) clearInterval(timer);
      for (const s of watched) s.off('request', touch);
      watched.length = 0;
    },
  };
}
