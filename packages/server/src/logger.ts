/** Structured logs: one JSON object per line on stdout. */
const LEVELS = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 } as const;
export type LogLevel = keyof typeof LEVELS;

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  /** Whether a line of this level is written (lets callers skip building one). */
  enabled(level: Exclude<LogLevel, 'silent'>): boolean;
}

export function createLogger(level: LogLevel, base: Record<string, unknown> = {}): Logger {
  const min = LEVELS[level];
  const write = (lvl: Exclude<LogLevel, 'silent'>, msg: string, fields?: Record<string, unknown>) => {
    if (LEVELS[lvl] < min) return;
    process.stdout.write(`${JSON.stringify({ time: new Date().toISOString(), level: lvl, msg, ...base, ...fields })}\n`);
  };
  return {
    debug: (m, f) => write('debug', m, f),
    info: (m, f) => write('info', m, f),
    warn: (m, f) => write('warn', m, f),
    error: (m, f) => write('error', m, f),
    enabled: (lvl) => LEVELS[lvl] >= min,
  };
}
