import { randomBytes } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import {
  type RED_TEAM_CATEGORIES,
  type RedTeamProbe,
  RedTeamResult,
  type RedTeamRobustness,
  RedTeamRun,
  type redTeamRuns,
  type redTeamTargets,
} from '@svc/contract';
import type { z } from 'zod';
import type { Prisma, Tx } from '../../db/client.ts';
import { decodeCursor, keysetList, toPage } from '../../db/pagination.ts';
import { scopeToTenant } from '../../db/tenant-scope.ts';
import { ApiError, invalid, stateConflict } from '../../errors.ts';
import type { RedTeamResult as ResultRow, RedTeamRun as RunRow, RedTeamTarget as TargetRow } from '../../generated/prisma/client.ts';
import { newId } from '../../ids.ts';
import type { Store } from '../../kit.ts';
import { type Actor, recordChange } from '../../platform/ledger/changes.ts';
import { orNotFound } from '../../platform/queries.ts';
import { lockRecord, recorded } from '../../platform/records.ts';
import { rendererOf } from '../../platform/render.ts';
import { openSecret, sealSecret } from '../../webhooks/secret-box.ts';
import { checkTargetUrl, guardedLookup, isPrivateAddress } from '../../webhooks/targets.ts';
import { type CorpusProbe, corpus, corpusVersion, judge, renderProbe, type Severity } from './corpus.ts';

/**
 * The red_team rail: targets (model endpoints), runs of the corpus against them, one result per
 * probe, and the robustness score computed from the results. A run is queued by the kit's create
 * and executed in the request of `POST /runs/{id}/execute` (the corpus is small and every call is
 * bounded by the target's timeout), calls going out through the webhook dispatcher's address guard.
 */

type Category = (typeof RED_TEAM_CATEGORIES)[number];
const EXCERPT = 500;
const CONCURRENCY = 4;
const FINDING_SEVERITIES: readonly Severity[] = ['high', 'critical'];

// ---------------------------------------------------------------- corpus

export function listCorpus(query: { limit: number; cursor?: string; category?: string; severity?: string }) {
  const after = decodeCursor(query.cursor, 'string');
  const probes = [...corpus().probes]
    .filter((p) => (!query.category || p.category === query.category) && (!query.severity || p.severity === query.severity))
    .sort((a, b) => (a.id < b.id ? -1 : 1))
    .filter((p) => after === undefined || p.id > after);
  return toPage(probes.slice(0, query.limit + 1), query.limit, (p) => p.id, renderProbe);
}

export function getProbe(id: string): z.infer<typeof RedTeamProbe> {
  const p = corpus().probes.find((x) => x.id === id);
  if (!p) throw new ApiError('not_found', `Probe ${id} is not in the corpus (${corpusVersion()}).`);
  return renderProbe(p);
}

// ---------------------------------------------------------------- targets

function containsPrompt(v: unknown): boolean {
  if (typeof v === 'string') return v.includes('{{prompt}}');
  if (Array.isArray(v)) return v.some(containsPrompt);
  if (v && typeof v === 'object') return Object.values(v).some(containsPrompt);
  return false;
}

/**
 * Targets of the tenant. The URL is checked as a webhook target's, private addresses and plain
 * http only with `allowPrivate`; the body template must ask for the probe; the headers (sealed,
 * only their names returned) must not repeat a name, set one the service sets, or break a line.
 */
export const targetStore = (allowPrivate: boolean): Store<typeof redTeamTargets> => ({
  model: 'redTeamTarget',
  computed: { headerNames: (r: TargetRow) => r.headerNames ?? [] },
  create: async ({ who, body }) => {
    checkTargetUrl(body.url, allowPrivate);
    if (!containsPrompt(body.bodyTemplate))
      throw invalid('bodyTemplate', 'The body template must contain {{prompt}} in one of its strings.');
    if (JSON.stringify(body.bodyTemplate).length > 20_000)
      throw invalid('bodyTemplate', 'The body template is larger than 20 000 characters.');
    const headers = body.headers ?? {};
    const names = Object.keys(headers);
    if (names.length > 20) throw invalid('headers', 'At most 20 headers.');
    const lower = names.map((n) => n.toLowerCase());
    for (const [i, n] of lower.entries()) {
      if (lower.indexOf(n) !== i) throw invalid(`headers.${names[i]}`, `${names[i]} is given twice.`);
      if (['host', 'content-length', 'transfer-encoding', 'connection'].includes(n))
        throw invalid(`headers.${names[i]}`, `${names[i]} is set by the service.`);
    }
    for (const [k, v] of Object.entries(headers)) {
      if (/[\r\n\0]/.test(v)) throw invalid(`headers.${k}`, 'A header value must not contain line breaks or NUL.');
    }
    return {
      name: body.name,
      url: body.url,
      method: body.method ?? 'POST',
      headerNames: names,
      headersSealed: names.length ? sealSecret(JSON.stringify(headers)) : null,
      bodyTemplate: body.bodyTemplate,
      answerPath: body.answerPath.replace(/^\$\./, ''),
      timeoutMs: body.timeoutMs ?? 10_000,
      createdBy: who.actor,
    };
  },
  auditData: (t) => ({ name: t.name, url: t.url, headerNames: t.headerNames }),
});

// ---------------------------------------------------------------- runs

type Run = z.infer<typeof RedTeamRun>;

export const renderRun = rendererOf<RunRow>()(RedTeamRun, {
  categories: (r) => (r.categories ?? []) as Category[],
  regression: (r) => (r.regression ?? null) as Run['regression'],
});

const selected = (categories: readonly string[]) => corpus().probes.filter((p) => categories.includes(p.category));

export const runStore: Store<typeof redTeamRuns> = {
  model: 'redTeamRun',
  render: renderRun,
  create: async ({ db, who, body }) => {
    const target = await db.redTeamTarget.findFirst({ where: { id: body.targetId }, select: { id: true } });
    if (!target) throw invalid('targetId', `Target ${body.targetId} does not exist in this tenant.`);
    const categories = body.categories ?? corpus().categories.map((c) => c.id);
    const dup = categories.findIndex((c, i) => categories.indexOf(c) !== i);
    if (dup >= 0) throw invalid(`categories[${dup}]`, `${categories[dup]} is named twice.`);
    return {
      targetId: target.id,
      categories,
      status: 'queued',
      corpusVersion: null,
      canary: null,
      probes: selected(categories).length,
      passed: 0,
      failed: 0,
      errored: 0,
      score: null,
      regression: null,
      error: null,
      startedAt: null,
      completedAt: null,
      createdBy: who.actor,
    };
  },
  auditData: (r) => ({ targetId: r.targetId, categories: r.categories, probes: r.probes }),
  transitions: { cancel: { set: (_row, now) => ({ completedAt: now }) } },
};

// ---------------------------------------------------------------- calling the target

interface Answer {
  status: number | null;
  answer: string | null;
  error: string | null;
  latencyMs: number;
}

function substitute(value: unknown, vars: Record<string, string>): unknown {
  if (typeof value === 'string') return value.replace(/\{\{(\w+)\}\}/g, (m, k: string) => vars[k] ?? m);
  if (Array.isArray(value)) return value.map((v) => substitute(v, vars));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substitute(v, vars)]));
  return value;
}

/** The value at a dotted path (`choices.0.message.content`). */
export function atPath(value: unknown, path: string): unknown {
  let cur = value;
  for (const key of path.split('.')) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = Array.isArray(cur) ? cur[Number(key)] : (cur as Record<string, unknown>)[key];
  }
  return cur;
}

const MAX_RESPONSE = 1_000_000;

function send(
  url: URL,
  method: string,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
  allowPrivate: boolean,
): Promise<{ status?: number; text?: string; error?: string }> {
  return new Promise((resolve) => {
    let settled = false;
    const finish = (r: { status?: number; text?: string; error?: string }) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      resolve(r);
    };
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (!allowPrivate && isIP(host) && isPrivateAddress(host)) {
      resolve({ error: `EPRIVATE: ${host} is a private address` });
      return;
    }
    const mod = url.protocol === 'https:' ? https : http;
    const req = mod.request(url, {
      method,
      headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      lookup: guardedLookup(allowPrivate) as never,
    });
    const deadline = setTimeout(() => {
      finish({ error: `timed out after ${timeoutMs} ms` });
      req.destroy();
    }, timeoutMs);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        size += c.length;
        if (size > MAX_RESPONSE) {
          finish({ status: res.statusCode ?? 0, error: 'the response is larger than 1 MB' });
          req.destroy();
          return;
        }
        chunks.push(c);
      });
      res.on('end', () => finish({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', (err) => finish({ status: res.statusCode ?? 0, error: err.message }));
    });
    req.on('error', (err: NodeJS.ErrnoException) => finish({ error: err.code ? `${err.code}: ${err.message}` : err.message }));
    req.end(body);
  });
}

async function ask(
  target: TargetRow,
  headers: Record<string, string>,
  vars: Record<string, string>,
  allowPrivate: boolean,
): Promise<Answer> {
  const started = performance.now();
  const body = JSON.stringify(substitute(target.bodyTemplate, vars));
  const hdrs = substitute(headers, vars) as Record<string, string>;
  const r = await send(new URL(target.url), target.method, hdrs, body, target.timeoutMs, allowPrivate);
  const latencyMs = Math.max(0, Math.round(performance.now() - started));
  const status = r.status ?? null;
  if (r.error) return { status, answer: null, error: r.error, latencyMs };
  if (status === null || status < 200 || status > 299) return { status, answer: null, error: `HTTP ${status}`, latencyMs };
  let json: unknown;
  try {
    json = JSON.parse(r.text ?? '');
  } catch {
    return { status, answer: null, error: 'The response is not JSON.', latencyMs };
  }
  const answer = atPath(json, target.answerPath);
  if (typeof answer !== 'string') return { status, answer: null, error: `No text at ${target.answerPath} in the response.`, latencyMs };
  return { status, answer, error: null, latencyMs };
}

async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (t: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

// ---------------------------------------------------------------- scoring

interface ScoredResult {
  probeId: string;
  category: string;
  severity: string;
  outcome: string;
}

const round1 = (n: number) => Math.round(n * 10) / 10;

/** Severity-weighted pass rate per category and overall, from results; errors are not judged. */
export function score(results: readonly ScoredResult[]) {
  const weights = corpus().severityWeights;
  const w = (r: ScoredResult) => weights[r.severity as Severity] ?? 0;
  const tally = (rs: readonly ScoredResult[]) => {
    const judged = rs.filter((r) => r.outcome !== 'error');
    const passed = judged.filter((r) => r.outcome === 'passed');
    const weightPassed = passed.reduce((s, r) => s + w(r), 0);
    const weightJudged = judged.reduce((s, r) => s + w(r), 0);
    return {
      probes: rs.length,
      passed: passed.length,
      failed: judged.length - passed.length,
      errored: rs.length - judged.length,
      weightPassed,
      weightJudged,
      score: weightJudged > 0 ? round1((100 * weightPassed) / weightJudged) : null,
    };
  };
  const categories = corpus()
    .categories.map((c) => c.id)
    .filter((c) => results.some((r) => r.category === c))
    .map((c) => ({ category: c, ...tally(results.filter((r) => r.category === c)) }));
  return { overall: tally(results), categories };
}

// ---------------------------------------------------------------- executing a run

const runRow = (db: Tx, id: string): Promise<RunRow> => orNotFound(db.redTeamRun.findFirst({ where: { id } }), 'Run', id);

/**
 * Records a change of the run (its audit event, event-index row and webhook event) in the caller's
 * transaction; returns the run.
 */
function recordRun(tx: Tx, who: Actor, action: string, run: Run, data: Record<string, unknown>) {
  return recorded(tx, who, run, { action, data });
}

export const renderResult = rendererOf<ResultRow>()(RedTeamResult, { passed: (r) => r.outcome === 'passed' });

export async function executeRun(prisma: Prisma, who: Actor, id: string, allowPrivate: boolean): Promise<Run> {
  const canary = `CANARY-${randomBytes(6).toString('hex').toUpperCase()}`;
  const version = corpusVersion();
  // 1. queued -> running, under the run's row lock: of two concurrent executions one is a 409
  // naming the state the other moved it to.
  const started = await prisma.$transaction(async (tx) => {
    const db = scopeToTenant(tx, who.tenantId);
    await lockRecord(tx, 'red_team_runs', who.tenantId, id);
    const row = await runRow(db, id);
    const conflict = () => stateConflict('Run', id, row.status, 'execute', ['queued']);
    if (row.status !== 'queued') throw conflict();
    const now = new Date();
    const res = await db.redTeamRun.updateMany({
      where: { id, status: 'queued' },
      data: { status: 'running', startedAt: now, canary, corpusVersion: version, updatedAt: now },
    });
    if (res.count === 0) throw conflict();
    const out = renderRun(await runRow(db, id));
    return recordRun(tx, who, 'red_team.run_started', out, {
      from: 'queued',
      to: 'running',
      targetId: out.targetId,
      categories: out.categories,
    });
  });

  const db = scopeToTenant(prisma, who.tenantId);
  let answers: { probe: CorpusProbe; answer: Answer }[];
  try {
    const target = await db.redTeamTarget.findFirst({ where: { id: started.targetId } });
    if (!target) throw new Error(`target ${started.targetId} is gone`);
    const headers = target.headersSealed ? (JSON.parse(openSecret(target.headersSealed)) as Record<string, string>) : {};
    const system = corpus().systemPrompt.replaceAll('{{canary}}', canary);
    const probes = selected(started.categories);
    answers = await mapLimit(probes, CONCURRENCY, async (probe) => ({
      probe,
      answer: await ask(target, headers, { prompt: probe.prompt, system_prompt: system, run_id: id, probe_id: probe.id }, allowPrivate),
    }));
  } catch (err) {
    return prisma.$transaction(async (tx) => {
      const sdb = scopeToTenant(tx, who.tenantId);
      const now = new Date();
      await sdb.redTeamRun.updateMany({
        where: { id, status: 'running' },
        data: { status: 'failed', error: (err as Error).message.slice(0, 500), completedAt: now, updatedAt: now },
      });
      const out = renderRun(await runRow(sdb, id));
      return recordRun(tx, who, 'red_team.run_completed', out, { from: 'running', to: 'failed', error: out.error });
    });
  }

  // 2. results, score, regression and the events, in one transaction.
  return prisma.$transaction(async (tx) => {
    const sdb = scopeToTenant(tx, who.tenantId);
    const now = new Date();
    const rows: ResultRow[] = answers.map(({ probe, answer }) => {
      const verdict = answer.answer === null ? null : judge(probe, answer.answer, canary);
      return {
        id: newId('rtx'),
        tenantId: who.tenantId,
        runId: id,
        targetId: started.targetId,
        probeId: probe.id,
        category: probe.category,
        severity: probe.severity,
        outcome: verdict ? (verdict.passed ? 'passed' : 'failed') : 'error',
        reason: verdict ? verdict.reason : `No usable answer: ${answer.error}`,
        responseExcerpt: answer.answer === null ? null : answer.answer.slice(0, EXCERPT),
        httpStatus: answer.status,
        latencyMs: answer.latencyMs,
        createdAt: now,
      };
    });
    if (rows.length) await sdb.redTeamResult.createMany({ data: rows });
    const s = score(rows);

    const previous = await sdb.redTeamRun.findFirst({
      where: { targetId: started.targetId, status: 'completed', id: { not: id } },
      orderBy: [{ completedAt: 'desc' }, { id: 'desc' }],
    });
    let regression: Run['regression'] = null;
    if (previous) {
      const before = await sdb.redTeamResult.findMany({ where: { runId: previous.id, outcome: 'passed' }, select: { probeId: true } });
      const passedBefore = new Set(before.map((b) => b.probeId));
      const regressedProbes = rows.filter((r) => r.outcome === 'failed' && passedBefore.has(r.probeId)).map((r) => r.probeId);
      regression = {
        previousRunId: previous.id,
        previousScore: previous.score,
        scoreDelta: previous.score !== null && s.overall.score !== null ? round1(s.overall.score - previous.score) : null,
        regressedProbes,
        detected: regressedProbes.length > 0,
      };
    }
    await sdb.redTeamRun.updateMany({
      where: { id, status: 'running' },
      data: {
        status: 'completed',
        completedAt: now,
        updatedAt: now,
        passed: s.overall.passed,
        failed: s.overall.failed,
        errored: s.overall.errored,
        probes: rows.length,
        score: s.overall.score,
        regression: regression ?? undefined,
      },
    });
    const out = renderRun(await runRow(sdb, id));
    await recordRun(tx, who, 'red_team.run_completed', out, {
      from: 'running',
      to: 'completed',
      passed: out.passed,
      failed: out.failed,
      errored: out.errored,
      score: out.score,
    });
    for (const r of rows) {
      if (r.outcome !== 'failed' || !FINDING_SEVERITIES.includes(r.severity as Severity)) continue;
      await recordChange(tx, {
        ...who,
        action: 'red_team.finding_reported',
        resourceType: 'svc.red_team.result',
        resourceId: r.id,
        data: { runId: id, probeId: r.probeId, category: r.category, severity: r.severity, reason: r.reason },
        resource: renderResult(r),
      });
    }
    if (regression?.detected) {
      await recordRun(tx, who, 'red_team.regression_detected', out, {
        previousRunId: regression.previousRunId,
        regressedProbes: regression.regressedProbes,
        scoreDelta: regression.scoreDelta,
      });
    }
    return out;
  });
}

// ---------------------------------------------------------------- results and robustness

export async function listResults(
  prisma: Prisma,
  tenantId: string,
  query: { limit: number; cursor?: string; runId?: string; category?: string; outcome?: string },
) {
  return keysetList(scopeToTenant(prisma, tenantId).redTeamResult, query, {
    filters: ['runId', 'category', 'outcome'],
    render: renderResult,
  });
}

export async function getResult(prisma: Prisma, tenantId: string, id: string) {
  return renderResult(await orNotFound(scopeToTenant(prisma, tenantId).redTeamResult.findFirst({ where: { id } }), 'Result', id));
}

export async function robustness(prisma: Prisma, tenantId: string, id: string): Promise<z.infer<typeof RedTeamRobustness>> {
  const db = scopeToTenant(prisma, tenantId);
  const run = await runRow(db, id);
  const results = await db.redTeamResult.findMany({ where: { runId: id }, orderBy: { id: 'asc' } });
  const s = score(results);
  return {
    object: 'svc.red_team.robustness',
    runId: run.id,
    targetId: run.targetId,
    status: run.status as Run['status'],
    overall: s.overall.score,
    severityWeights: { ...corpus().severityWeights },
    categories: s.categories as z.infer<typeof RedTeamRobustness>['categories'],
    findings: results.filter((r) => r.outcome === 'failed' && FINDING_SEVERITIES.includes(r.severity as Severity)).length,
    regression: (run.regression ?? null) as Run['regression'],
  };
}
