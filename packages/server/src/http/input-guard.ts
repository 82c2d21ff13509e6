import type { AppRoute } from '@ts-rest/core';
import type { NextFunction, Request, Response } from 'express';
import { ApiError } from '../errors.ts';

/** Deeper JSON than this is refused: no schema of the API nests half as deep. */
export const MAX_JSON_DEPTH = 32;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Why a string cannot be stored, or undefined when it can. PostgreSQL text holds neither the NUL
 * character nor half of a UTF-16 surrogate pair (it would be replaced, or refused in JSON).
 */
export function unstorable(s: string): string | undefined {
  if (s.includes('\u0000')) return 'contains the NUL character (U+0000)';
  if (LONE_SURROGATE.test(s)) return 'is not well-formed Unicode (a lone surrogate)';
  return undefined;
}

function invalid(field: string, why: string): ApiError {
  return new ApiError('validation_failed', `${field} ${why}.`, [{ field, issue: 'invalid_format', message: why }]);
}

/** The first unstorable string (key or value) or over-deep nesting in a parsed JSON value. */
function checkJson(root: unknown, base: string): ApiError | undefined {
  // Iterative: a hostile body must not exhaust the stack of the check that guards against it.
  const stack: { value: unknown; path: string; depth: number }[] = [{ value: root, path: base, depth: 0 }];
  while (stack.length > 0) {
    const { value, path, depth } = stack.pop() as { value: unknown; path: string; depth: number };
    if (typeof value === 'string') {
      const why = unstorable(value);
      if (why) return invalid(path, why);
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (depth >= MAX_JSON_DEPTH) {
      return new ApiError('validation_failed', `${path} is nested deeper than ${MAX_JSON_DEPTH} levels.`, [
        { field: path, issue: 'too_big', message: `nested deeper than ${MAX_JSON_DEPTH} levels` },
      ]);
    }
    if (Array.isArray(value)) {
      value.forEach((v, i) => {
        stack.push({ value: v, path: `${path}.${i}`, depth: depth + 1 });
      });
      continue;
    }
    for (const [k, v] of Object.entries(value)) {
      const why = unstorable(k);
      if (why) return invalid(`${path}.(key)`, why);
      stack.push({ value: v, path: path === 'body' ? k : `${path}.${k}`, depth: depth + 1 });
    }
  }
  return undefined;
}

/**
 * The boundary every route passes before its schema and handler: no path parameter, query value or
 * body string the database cannot store, and no JSON nested beyond MAX_JSON_DEPTH. Schemas cannot
 * say this for every string of every route, so it is said once here, and a new route is covered
 * the day it is added. The answer is a 422 naming the field.
 */
export function inputGuard(req: Request, _res: Response, next: NextFunction): void {
  next(malformedQuery(req) ?? firstUnstorable(req));
}

function unreadable(field: string, why: string): ApiError {
  return new ApiError('bad_request', `The query string cannot be read: ${field} ${why}.`, [
    { field, issue: 'invalid_format', message: why },
  ]);
}

function decoded(s: string): string | undefined {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}

/** Whether the route's query schema takes a list for this parameter (none does today). */
function takesList(route: AppRoute | undefined, name: string): boolean {
  const query = (route as { query?: unknown } | undefined)?.query as { shape?: Record<string, unknown> } | undefined;
  const schema = query?.shape?.[name] as { safeParse?: (v: unknown) => { success: boolean } } | undefined;
  return typeof schema?.safeParse === 'function' && schema.safeParse(['a', 'b']).success;
}

/**
 * 400 `bad_request` versus 422 `validation_failed`, decided here once for every route. A query
 * string that cannot be read as one value per name is malformed (400): a name or value whose
 * percent-encoding does not decode to UTF-8 text, or a parameter given more than once where the
 * route takes one value. A query that reads well but whose values break the route's schema (a
 * `limit` that is not a number, an unknown enum word, a missing required parameter) is 422 with
 * `details`, from the schema layer; so is a value the database cannot store (below).
 */
function malformedQuery(req: Request): ApiError | undefined {
  const url = req.originalUrl ?? req.url ?? '';
  const at = url.indexOf('?');
  const raw = at < 0 ? '' : url.slice(at + 1);
  // Only a %-escape can fail to decode: a query without one (most requests) skips the walk.
  for (const part of raw.includes('%') ? raw.split('&') : []) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const rawName = eq < 0 ? part : part.slice(0, eq);
    const name = decoded(rawName);
    if (name === undefined) return unreadable('query', 'has a parameter name that is not valid percent-encoded UTF-8');
    if (eq >= 0 && decoded(part.slice(eq + 1)) === undefined) {
      return unreadable(name, 'is not valid percent-encoded UTF-8');
    }
  }
  const route = (req as Request & { tsRestRoute?: AppRoute }).tsRestRoute;
  for (const [name, value] of Object.entries((req.query ?? {}) as Record<string, unknown>)) {
    if (Array.isArray(value) && !takesList(route, name)) {
      return unreadable(name, `is given ${value.length} times; the parameter takes one value`);
    }
  }
  return undefined;
}

function firstUnstorable(req: Request): ApiError | undefined {
  for (const [name, value] of Object.entries(req.params ?? {})) {
    const why = typeof value === 'string' ? unstorable(value) : undefined;
    if (why) return invalid(name, why);
  }
  for (const [name, value] of Object.entries((req.query ?? {}) as Record<string, unknown>)) {
    const why = unstorable(name);
    if (why) return invalid('query', why);
    for (const v of Array.isArray(value) ? value : [value]) {
      const bad = typeof v === 'string' ? unstorable(v) : undefined;
      if (bad) return invalid(name, bad);
    }
  }
  return req.body === undefined ? undefined : checkJson(req.body, 'body');
}
