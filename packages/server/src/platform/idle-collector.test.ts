import { EventEmitter } from 'node:events';
import type { Server } from 'node:http';
import { getHeapStatistics } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { collectionDue, startIdleCollector } from './idle-collector.ts';

const MB = 1024 * 1024;

describe('collectionDue', () => {
  const base = { idleMs: 5000, growthBytes: 32 * MB, baseline: 100 * MB };
  it('waits for the idle period and for enough growth', () => {
    expect(collectionDue({ ...base, msSinceRequest: 5000, heapSize: 132 * MB })).toBe(true);
    expect(collectionDue({ ...base, msSinceRequest: 4999, heapSize: 300 * MB })).toBe(false);
    expect(collectionDue({ ...base, msSinceRequest: 60_000, heapSize: 131 * MB })).toBe(false);
  });
});

describe('startIdleCollector', () => {
  function fake() {
    const clock = { t: 0, heap: 200 * MB, collections: 0 };
    const collector = startIdleCollector({
      idleSeconds: 0, // no timer: the test calls check()
      now: () => clock.t,
      heapSize: () => clock.heap,
      collect: () => {
        clock.collections++;
        clock.heap = 90 * MB;
      },
      last: { baseline: 0 },
    });
    return { clock, collector };
  }

  it('collects twice once idle, then not again until the heap grew again', () => {
    const { clock, collector } = fake();
    // idleSeconds 0: any moment is idle; the start's own heap counts as growth.
    expect(collector.check()).toBe(true);
    expect(clock.collections).toBe(2);
    expect(collector.check()).toBe(false);
    clock.heap = 110 * MB;
    expect(collector.check()).toBe(false);
    clock.heap = 130 * MB;
    expect(collector.check()).toBe(true);
    expect(clock.collections).toBe(4);
    collector.stop();
  });

  it('waits while requests arrive on a watched server', () => {
    const clock = { t: 0, collections: 0 };
    const server = new EventEmitter() as unknown as Server;
    const collector = startIdleCollector({
      idleSeconds: 5,
      now: () => clock.t,
      heapSize: () => 200 * MB,
      collect: () => clock.collections++,
      last: { baseline: 0 },
    });
    collector.watch(server);
    clock.t = 4000;
    server.emit('request');
    // The check that sees the request counts the idle time from itself.
    expect(collector.check()).toBe(false);
    clock.t = 8000;
    expect(collector.check()).toBe(false);
    clock.t = 9000;
    expect(collector.check()).toBe(true);
    expect(clock.collections).toBe(2);
    // Stopped: requests no longer count, and the server holds no listener of it.
    collector.stop();
    expect(server.listenerCount('request')).toBe(0);
  });

  it("gives V8's garbage back with the process's own collector", () => {
    const globalGc = typeof (globalThis as { gc?: unknown }).gc;
    const collector = startIdleCollector({ idleSeconds: 0, growthBytes: 0, last: { baseline: 0 } });
    let garbage: number[][] | undefined = Array.from({ length: 400 }, () => Array.from({ length: 20_000 }, (_, i) => i + 0.5));
    const before = getHeapStatistics().used_heap_size;
    expect(garbage.length).toBe(400);
    garbage = undefined;
    expect(collector.check()).toBe(true);
    // About 64 MB of arrays were unreachable; a full collection frees them.
    expect(getHeapStatistics().used_heap_size).toBeLessThan(before - 32 * MB);
    // The process's global object does not gain `gc` from it (Node started without --expose-gc has none).
    expect(typeof (globalThis as { gc?: unknown }).gc).toBe(globalGc);
    collector.stop();
  });
});
