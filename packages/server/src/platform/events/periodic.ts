import type { Logger } from '../../logger.ts';

/**
 * A job run every `intervalSeconds` in the background of a process: passes never overlap within
 * the process (a slow pass skips the ticks it overlaps), a failed pass is logged and retried at
 * the next tick, and the timer does not keep the process alive. Returns the stop function; a pass
 * under way when it is called may finish, and `stopped()` lets it end early.
 */
export function startPeriodic(
  name: string,
  log: Logger,
  intervalSeconds: number,
  pass: (stopped: () => boolean) => Promise<void>,
): () => void {
  let running = false;
  let stopped = false;
  const tick = async () => {
    if (running || stopped) return;
    running = true;
    try {
      await pass(() => stopped);
    } catch (err) {
      if (!stopped) log.warn(`${name} pass failed`, { error: String(err) });
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void tick(), intervalSeconds * 1000);
  timer.unref();
  return () => {
    stopped = true;
    clearInterval(timer);
  };
}
