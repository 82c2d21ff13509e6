import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLogger, type RequestLine } from './logger.ts';

/** The lines written to stdout while `fn` runs, without their `time` (which differs between calls). */
function linesOf(fn: () => void): string[] {
  const out: string[] = [];
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    out.push(String(chunk));
    return true;
  });
  try {
    fn();
  } finally {
    spy.mockRestore();
  }
  return out.map((l) => l.replace(/^\{"time":"[^"]+",/, '{"time":"T",'));
}

afterEach(() => vi.restoreAllMocks());

describe('the request line', () => {
  const cases: RequestLine[] = [
    {
      correlation_id: 'cor_01',
      method: 'GET',
      path: '/v1/compliance/frameworks',
      status: 200,
      duration_ms: 1.234567,
      tenant_id: 'ten_1',
      actor: 'key_1',
    },
    { correlation_id: 'cor_02', method: 'POST', path: '/v1/x/"quoted"/\u00e9t\u00e9/\u2028', status: 422, duration_ms: 0.5 },
    // A credential pasted into a path is scrubbed by its shape, as on every line.
    { correlation_id: 'cor_03', method: 'GET', path: '/v1/keys/svc_live_abcdefghijklmnop', status: 404, duration_ms: 12, actor: 'op_1' },
    { correlation_id: 'cor_04', method: 'GET', path: '/v1/health', status: 200, duration_ms: 3, tenant_id: undefined, actor: undefined },
  ];

  it('is the line info("request", fields) writes, byte for byte', () => {
    const log = createLogger('info', { service: 'svc-api' });
    for (const fields of cases) {
      const fast = linesOf(() => log.request(fields));
      const general = linesOf(() => log.info('request', { ...fields }));
      expect(fast).toHaveLength(1);
      expect(fast).toEqual(general);
    }
  });

  it('scrubs a credential in the path', () => {
    const [line] = linesOf(() => createLogger('info').request(cases[2] as RequestLine));
    expect(line).not.toContain('abcdefghijklmnop');
    expect(JSON.parse(line as string).path).toBe('/v1/keys/svc_live_[REDACTED]');
  });

  it('is not written below info', () => {
    expect(linesOf(() => createLogger('warn').request(cases[0] as RequestLine))).toEqual([]);
  });
});
