import type { ErrorDetail } from '@svc/contract';
import { ApiError } from '../errors.ts';

interface Issue {
  code?: string;
  message?: string;
  path?: readonly (PropertyKey | { key: PropertyKey })[];
  keys?: string[];
  input?: unknown;
}

function valueAt(input: unknown, path: readonly string[]): unknown {
  let cur = input;
  for (const key of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[key];
  }
  return cur;
}

function issueWord(issue: Issue, present: boolean): string {
  if (!present && issue.code !== 'unrecognized_keys' && issue.code !== 'custom') return 'missing';
  switch (issue.code) {
    case 'invalid_type':
    case 'too_small':
    case 'too_big':
    case 'invalid_format':
    case 'invalid_value':
      return issue.code;
    case 'unrecognized_keys':
      return 'unknown_field';
    default:
      return 'invalid_value';
  }
}

function issuesOf(err: unknown): Issue[] {
  if (!err || typeof err !== 'object') return [];
  const issues = (err as { issues?: unknown }).issues;
  return Array.isArray(issues) ? (issues as Issue[]) : [];
}

/**
 * Turns schema issues into the envelope's `details`, with the stable issue vocabulary; a field
 * absent from the input is `missing`, whatever the schema's own wording.
 */
export function detailsFrom(err: unknown, input?: unknown, prefix?: string): ErrorDetail[] {
  const out: ErrorDetail[] = [];
  for (const issue of issuesOf(err)) {
    const path = (issue.path ?? []).map((p) => String(typeof p === 'object' && p !== null ? p.key : p));
    const present =
      input === undefined
        ? issue.code !== 'invalid_type' || !/received undefined/.test(issue.message ?? '')
        : valueAt(input, path) !== undefined;
    const base = [prefix, ...path].filter(Boolean).join('.');
    if (issue.code === 'unrecognized_keys' && issue.keys?.length) {
      for (const key of issue.keys)
        out.push({ field: base ? `${base}.${key}` : key, issue: 'unknown_field', message: `unknown field ${key}` });
      continue;
    }
    out.push({ field: base || (prefix ?? 'body'), issue: issueWord(issue, present), ...(issue.message ? { message: issue.message } : {}) });
  }
  return out;
}

/** ts-rest's request validation failure, rendered as 422 `validation_failed`. */
export function validationError(
  err: { pathParams: unknown; headers: unknown; query: unknown; body: unknown },
  input: { params?: unknown; query?: unknown; body?: unknown } = {},
): ApiError {
  const details = [
    ...detailsFrom(err.pathParams, input.params ?? {}),
    ...detailsFrom(err.headers, undefined, 'headers'),
    ...detailsFrom(err.query, input.query ?? {}),
    ...detailsFrom(err.body, input.body ?? {}),
  ];
  const where = [err.pathParams && 'path', err.query && 'query', err.body && 'body', err.headers && 'headers'].filter(Boolean).join(', ');
  if (err.body && details.length === 0) details.push({ field: 'body', issue: 'missing' });
  return new ApiError('validation_failed', `The request ${where} does not match the schema.`, details);
}
