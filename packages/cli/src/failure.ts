/** Turns what went wrong into a message that says what to do next, and an exit code. */
import { isSvcError, SvcConnectionError, type SvcError } from '@svc/sdk';
import { UsageError } from './help.ts';

export const EXIT_OK = 0;
export const EXIT_USAGE = 1;
export const EXIT_API = 2;
export const EXIT_UNREACHABLE = 3;

/** Where the credential of a request came from, for 401 messages. */
export interface CredentialUse {
  token: string;
  source: string;
  operator: boolean;
}

/** What the command was doing when it failed: enough to point at the fix. */
export interface Attempt {
  url?: string;
  credential?: CredentialUse;
  method?: string;
  path?: string;
  /** The caller asked for the operator credential (`--operator`, or an operator command). */
  operator?: boolean;
  /** `call`: the operator hint names the flag; other commands pick the credential themselves. */
  raw?: boolean;
}

interface Route {
  method: string;
  path: string;
  body?: unknown;
  metadata?: { auth?: string } & Record<string, unknown>;
}

let ALL_ROUTES: Route[] | undefined;

/**
 * The contract route a method and concrete path resolve to. The contract (its schemas name the
 * values a field accepts) is loaded here, when a request failed: a command that succeeds does not
 * pay for building it.
 */
async function findRoute(method: string | undefined, path: string | undefined): Promise<Route | undefined> {
  if (!method || !path) return undefined;
  if (!ALL_ROUTES) {
    const { contract, flattenRoutes } = await import('@svc/contract');
    ALL_ROUTES = flattenRoutes(contract).map(({ route }) => route as unknown as Route);
  }
  const bare = path.split('?')[0] ?? path;
  return ALL_ROUTES.find(
    (r) =>
      r.method === method.toUpperCase() &&
      new RegExp(`^${r.path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:[A-Za-z_]+/g, '[^/]+')}/?$`).test(bare),
  );
}

interface ZodLike {
  _zod?: {
    def?: {
      type?: string;
      innerType?: ZodLike;
      shape?: Record<string, ZodLike>;
      entries?: Record<string, unknown>;
      values?: unknown[];
      element?: ZodLike;
      options?: ZodLike[];
    };
  };
  shape?: Record<string, ZodLike>;
}

function unwrap(s: ZodLike | undefined): ZodLike | undefined {
  let cur = s;
  for (let i = 0; i < 10 && cur?._zod?.def?.innerType; i++) cur = cur._zod.def.innerType;
  return cur;
}

/** The values an enum-like field of a request body accepts, read from the contract's schema. */
export function allowedValues(schema: unknown, field: string): string[] | undefined {
  let cur = unwrap(schema as ZodLike);
  for (const part of field.split('.')) {
    if (!cur) return undefined;
    const def = cur._zod?.def;
    if (/^\d+$/.test(part) && def?.type === 'array') cur = unwrap(def.element);
    else cur = unwrap(cur.shape?.[part] ?? def?.shape?.[part]);
  }
  const def = cur?._zod?.def;
  if (!def) return undefined;
  if (def.type === 'array') return allowedValues(def.element, '');
  if (def.type === 'enum' && def.entries) return Object.values(def.entries).map(String);
  if (def.type === 'literal' && def.values) return def.values.map(String);
  if (def.type === 'union' && def.options) {
    const lits = def.options.map((o) => unwrap(o)?._zod?.def).filter((d) => d?.type === 'literal');
    if (lits.length === def.options.length) return lits.flatMap((d) => (d?.values ?? []).map(String));
  }
  return undefined;
}

function allowedFromField(schema: unknown, field: string): string[] | undefined {
  // allowedValues walks a dotted path; '' means "this node".
  if (field === '') return undefined;
  return allowedValues(schema, field);
}

function isOperatorPath(path: string | undefined, route: Route | undefined): boolean {
  return route?.metadata?.auth === 'operator' || (path ?? '').startsWith('/v1/operator');
}

function prefixOf(token: string): string {
  // Keys are `svc_<kind>_<random>`: the kind is useful, the random part is the secret.
  const m = /^(svc_[a-z]+_)(.{0,4})/.exec(token);
  return m ? `${m[1]}${m[2]}…` : `${token.slice(0, 4)}…`;
}

async function apiMessage(err: SvcError, at: Attempt): Promise<string> {
  const route = await findRoute(at.method, at.path);
  const lines = [`${err.status} ${err.code}: ${err.message}`];
  if (err.details.length) {
    for (const d of err.details) {
      const allowed = allowedFromField(route?.body, d.field);
      const extra = allowed ? ` (allowed: ${allowed.join(', ')})` : d.message && d.message !== err.message ? ` (${d.message})` : '';
      lines.push(`  ${d.field}: ${d.issue}${extra}`);
    }
  }
  if (err.status === 401 && at.credential) {
    const c = at.credential;
    lines.push(
      `used ${c.operator ? 'the operator credential' : 'the API key'} ${prefixOf(c.token)} from ${c.source}: check it is current, or pass another with --key`,
    );
  }
  if (err.status === 403 && isOperatorPath(at.path, route) && !at.operator) {
    lines.push(at.raw ? 'this is an operator route: add --operator' : 'this is an operator route: it needs the operator credential');
  } else if (err.status === 403 && at.operator && at.credential && !at.credential.token.startsWith('svc_op_')) {
    lines.push(
      `this is an operator route and ${prefixOf(at.credential.token)} (from ${at.credential.source}) is not an operator credential`,
    );
  }
  if (err.status === 429) {
    const ra = err.headers.get('retry-after');
    lines.push(ra ? `rate limited: retry in ${ra} s` : 'rate limited: retry later');
  }
  if (err.correlationId) lines.push(`(correlation id ${err.correlationId})`);
  return lines.join('\n');
}

/** Writes the error to stderr (or stdout as JSON with --json) and returns the exit code. */
export async function report(err: unknown, at: Attempt, json: boolean): Promise<number> {
  if (isSvcError(err)) {
    if (json) {
      process.stdout.write(
        `${JSON.stringify({ error: err.code, status: err.status, message: err.message, details: err.details, correlation_id: err.correlationId }, null, 2)}\n`,
      );
    } else {
      process.stderr.write(`svc: ${await apiMessage(err, at)}\n`);
    }
    return err.status >= 500 ? EXIT_UNREACHABLE : EXIT_API;
  }
  if (err instanceof SvcConnectionError || (err instanceof Error && err.name === 'SvcConnectionError')) {
    const e = err as SvcConnectionError;
    const cause = (e.cause as { cause?: { code?: string } } | undefined)?.cause?.code;
    const why = e.timedOut ? 'no response' : cause === 'ECONNREFUSED' ? 'connection refused' : (cause ?? e.message);
    process.stderr.write(
      `svc: cannot reach the server at ${at.url ?? '(unknown URL)'} (${why}): is it running? start it with \`svc serve\`, or pass --url\n`,
    );
    return EXIT_UNREACHABLE;
  }
  const message = err instanceof Error ? err.message : String(err);
  process.stderr.write(`svc: ${message}\n`);
  if (err instanceof UsageError || (err instanceof Error && (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS'))) {
    process.stderr.write('run `svc --help` for usage\n');
  }
  return EXIT_USAGE;
}
