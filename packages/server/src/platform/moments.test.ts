import { describe, expect, it } from 'vitest';
import { ApiError } from '../errors.ts';
import { CLIENT_CLOCK_SLACK_MS, checkMoment, pastMoment } from './moments.ts';

const NOW = Date.parse('2026-11-30T12:00:00.000Z');
const at = (offsetMs: number) => new Date(NOW + offsetMs);

/** The error `fn` throws, or undefined. */
function refusal(fn: () => unknown): ApiError | undefined {
  try {
    fn();
    return undefined;
  } catch (err) {
    return err as ApiError;
  }
}

describe('a moment a client states', () => {
  it('may be now, in the past, or up to the slack ahead of the service', () => {
    for (const offset of [0, -86_400_000, CLIENT_CLOCK_SLACK_MS])
      expect(refusal(() => checkMoment('receivedAt', at(offset), undefined, NOW))).toBeUndefined();
  });

  it('is refused past the slack, as 422 naming the field', () => {
    const err = refusal(() => checkMoment('receivedAt', at(CLIENT_CLOCK_SLACK_MS + 1), undefined, NOW));
    expect(err).toBeInstanceOf(ApiError);
    expect(err?.status).toBe(422);
    expect(err?.code).toBe('validation_failed');
    expect(err?.details).toEqual([{ field: 'receivedAt', issue: 'invalid_value', message: 'receivedAt is in the future.' }]);
  });

  it('is refused before the moment it must follow, naming what that is', () => {
    const err = refusal(() => checkMoment('givenAt', at(-2), { at: at(-1), what: 'acknowledgedAt' }, NOW));
    expect(err?.details).toEqual([{ field: 'givenAt', issue: 'invalid_value', message: 'givenAt is before acknowledgedAt.' }]);
    expect(refusal(() => checkMoment('givenAt', at(-1), { at: at(-1), what: 'acknowledgedAt' }, NOW))).toBeUndefined();
  });

  it('is now when the body states none, and checked when it does', () => {
    const now = at(0);
    expect(pastMoment('collectedAt', undefined, now)).toBe(now);
    expect(pastMoment('collectedAt', '2026-11-01T00:00:00.000Z', now).toISOString()).toBe('2026-11-01T00:00:00.000Z');
    expect(refusal(() => pastMoment('collectedAt', '2026-12-01T00:00:00.000Z', now))?.details?.[0]?.field).toBe('collectedAt');
  });
});
