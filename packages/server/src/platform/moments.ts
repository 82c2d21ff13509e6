import { invalid } from '../errors.ts';

/**
 * A moment a client states for something that already happened (a request received, a loss, a
 * review, evidence collected): never after the service's own now, with a minute of slack for a
 * client whose clock runs a little fast. One rule for every rail, with one error: 422
 * `validation_failed` naming the field, issue `invalid_value`.
 */
export const CLIENT_CLOCK_SLACK_MS = 60_000;

/** 422 unless `at` is not after `now` (with the slack) and, when given, not before `notBefore.at`. */
export function checkMoment(field: string, at: Date, notBefore?: { at: Date; what: string }, now: number = Date.now()): void {
  if (at.getTime() > now + CLIENT_CLOCK_SLACK_MS) throw invalid(field, `${field} is in the future.`);
  if (notBefore && at < notBefore.at) throw invalid(field, `${field} is before ${notBefore.what}.`);
}

/** The moment a body states (checked), or `now` when it states none. */
export function pastMoment(field: string, value: string | undefined, now: Date = new Date()): Date {
  if (value === undefined) return now;
  const at = new Date(value);
  checkMoment(field, at, undefined, now.getTime());
  return at;
}
