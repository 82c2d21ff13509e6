import type {
  Disclosure,
  DisclosureTimeline,
  disclosureDrafts,
  IncidentFactors,
  IncidentFacts,
  IncidentRegime,
  IncidentSla,
  incidentChannels,
  incidentDisclosures,
  RecordSubmissionBody,
  UpdateDisclosureBody,
} from '@svc/contract';
import type { z } from 'zod';
import type { Prisma, Tx } from '../../db/client.ts';
import { scopeToTenant } from '../../db/tenant-scope.ts';
import { ApiError, invalid } from '../../errors.ts';
import type { IncidentChannel as ChannelRow, IncidentDisclosure as DisclosureModel } from '../../generated/prisma/client.ts';
import type { Store } from '../../kit.ts';
import type { Actor } from '../../platform/ledger/changes.ts';
import { checkMoment, pastMoment } from '../../platform/moments.ts';
import { orNotFound } from '../../platform/queries.ts';
import { lockKey, lockRecord, stampsOf } from '../../platform/records.ts';
import { iso, isoOrNull } from '../../platform/render.ts';
import { applicableStages, computeClocks, type RegimeRule, regimeRule, rulesVersion, type SubmissionRecord } from './clocks.ts';

type Facts = z.infer<typeof IncidentFacts>;
type Factors = z.infer<typeof IncidentFactors>;
type DisclosureOut = z.infer<typeof Disclosure>;

/** A disclosure's row (the deadline sweep renders them too). */
export type DisclosureRow = DisclosureModel;

// ---------------------------------------------------------------- channels

/** The rules of a channel's regime, which the channel record shows beside its own fields. */
const regimeOf = (r: ChannelRow) => regimeRule(r.regime as IncidentRegime);

export const channelStore: Store<typeof incidentChannels> = {
  model: 'incidentChannel',
  computed: {
    regime: (r: ChannelRow) => regimeOf(r).id,
    authority: (r: ChannelRow) => regimeOf(r).authority,
    rules: (r: ChannelRow) =>
      regimeOf(r).stages.map((s) => ({ stage: s.id, title: s.title, rule: s.rule, source: s.source, fields: s.fields })),
    rulesVersion: () => rulesVersion(),
  },
  // One channel per regime and name (without case): checked under a lock on the pair.
  prepare: async ({ tx, who, body }) => {
    await lockKey(tx, `svc.incident_disclosures.channel:${who.tenantId}:${body.regime}:${body.name.toLowerCase()}`);
    const taken = await scopeToTenant(tx, who.tenantId).incidentChannel.findFirst({
      where: { regime: body.regime, name: { equals: body.name, mode: 'insensitive' } },
      select: { id: true },
    });
    if (taken) {
      throw new ApiError('conflict', `A ${body.regime} channel named ${body.name} exists: ${taken.id}.`, [
        { field: 'name', issue: 'invalid_value', message: 'taken' },
      ]);
    }
  },
  create: async ({ who, body }) => {
    return {
      regime: body.regime,
      name: body.name,
      submissionUrl: body.submissionUrl ?? null,
      email: body.email?.toLowerCase() ?? null,
      createdBy: who.actor,
    };
  },
  auditData: (c) => ({ regime: c.regime, name: c.name }),
};

/**
 * The channel a filing or a draft names: 422 unless it is a channel of the regime in this tenant.
 * Without an id, the tenant's first channel of the regime, if any.
 */
async function channelFor(db: Tx, regime: IncidentRegime, id: string | undefined): Promise<ChannelRow | null> {
  const channel = await db.incidentChannel.findFirst({ where: id ? { id } : { regime }, orderBy: { id: 'asc' } });
  if (id && (!channel || channel.regime !== regime)) {
    throw invalid('channelId', `Channel ${id} is not a ${regime} channel of this tenant.`);
  }
  return channel;
}

// ---------------------------------------------------------------- disclosures

const clockInput = (r: DisclosureRow) => ({
  regimes: r.regimes as IncidentRegime[],
  knownAt: new Date(r.knownAt),
  classifiedMajorAt: r.classifiedMajorAt ? new Date(r.classifiedMajorAt) : null,
  factors: (r.factors ?? {}) as Factors,
  submissions: (r.submissions ?? []) as unknown as SubmissionRecord[],
});

export function renderDisclosure(r: DisclosureRow, now = new Date()): DisclosureOut {
  const input = clockInput(r);
  return {
    object: 'svc.incident_disclosures.disclosure',
    id: r.id,
    title: r.title,
    status: r.status as DisclosureOut['status'],
    regimes: input.regimes,
    knownAt: iso(r.knownAt),
    classifiedMajorAt: isoOrNull(r.classifiedMajorAt),
    factors: input.factors,
    facts: (r.facts ?? {}) as Facts,
    clocks: computeClocks(input, now),
    submissions: input.submissions.map((s) => ({ ...s })),
    ...stampsOf(r),
  };
}

/** 422 unless the disclosure is under `regime`. */
function checkRegime(d: { id: string; regimes: readonly string[] }, regime: IncidentRegime): void {
  if (!d.regimes.includes(regime)) {
    throw new ApiError('validation_failed', `Disclosure ${d.id} is not under ${regime}; it is under ${d.regimes.join(', ')}.`, [
      { field: 'regime', issue: 'invalid_value', message: `one of ${d.regimes.join(', ')}` },
    ]);
  }
}

/** The stage of the regime that applies to the incident (its factors), or 422 naming the ones that do. */
function stageOf(regime: RegimeRule, factors: Factors, id: string) {
  const stages = applicableStages(regime, factors);
  const stage = stages.find((s) => s.id === id);
  if (!stage) {
    throw new ApiError(
      'validation_failed',
      `${regime.id} has no stage ${id} for this incident; its stages: ${stages.map((s) => s.id).join(', ')}.`,
      [{ field: 'stage', issue: 'invalid_value', message: `one of ${stages.map((s) => s.id).join(', ')}` }],
    );
  }
  return stage;
}

export const disclosureStore: Store<typeof incidentDisclosures> = {
  model: 'incidentDisclosure',
  render: (r: DisclosureRow) => renderDisclosure(r),
  filterWhere: { regime: (v) => ({ regimes: { has: v } }) },
  create: async ({ who, body }) => {
    const i = body.regimes.findIndex((r, k) => body.regimes.indexOf(r) !== k);
    if (i >= 0) throw invalid(`regimes[${i}]`, `${body.regimes[i]} is named twice.`);
    const knownAt = pastMoment('knownAt', body.knownAt);
    const classifiedMajorAt = body.classifiedMajorAt ? new Date(body.classifiedMajorAt) : null;
    if (classifiedMajorAt) checkMoment('classifiedMajorAt', classifiedMajorAt, { at: knownAt, what: 'knownAt' });
    return {
      title: body.title,
      status: 'open',
      regimes: body.regimes,
      knownAt,
      classifiedMajorAt,
      factors: body.factors ?? {},
      facts: body.facts ?? {},
      submissions: [],
      createdBy: who.actor,
    };
  },
  auditData: (d) => ({ title: d.title, regimes: d.regimes, knownAt: d.knownAt }),
  transitions: {
    close: () => ({ closedAt: new Date() }),
    reopen: () => ({ closedAt: null }),
    update: {
      set: (row: DisclosureRow, _now, body) => updatedFields(row, body),
      auditData: (_d, row: DisclosureRow, body) => ({ changed: Object.keys(updatedFields(row, body)), factors: body.factors ?? null }),
    },
    record_submission: {
      // The channel a filing names must be one of the regime's in this tenant (422 otherwise).
      guard: async ({ tx, who, body }) => {
        if (body.channelId) await channelFor(scopeToTenant(tx, who.tenantId), body.regime, body.channelId);
      },
      set: (row: DisclosureRow, _now, body, who) => ({ submissions: filed(row, body, who) }),
      auditData: (d, _row, body) => {
        const submission = d.submissions.find((s) => s.regime === body.regime && s.stage === body.stage);
        const clock = d.clocks.find((c) => c.regime === body.regime && c.stage === body.stage);
        return {
          regime: body.regime,
          stage: body.stage,
          submittedAt: submission?.submittedAt ?? null,
          dueAt: clock?.dueAt ?? null,
          state: clock?.state ?? null,
        };
      },
    },
  },
};

const findDisclosure = (db: Tx, id: string): Promise<DisclosureRow> =>
  orNotFound(db.incidentDisclosure.findFirst({ where: { id } }), 'Disclosure', id);

/** The facts, factors or DORA classification time a `PATCH` sets; the clocks follow from them. */
function updatedFields(row: DisclosureRow, body: z.infer<typeof UpdateDisclosureBody>): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  if (body.facts) data.facts = { ...(row.facts as Facts), ...body.facts };
  if (body.factors) data.factors = { ...(row.factors as Factors), ...body.factors };
  if (body.classifiedMajorAt) {
    const at = new Date(body.classifiedMajorAt);
    checkMoment('classifiedMajorAt', at, { at: new Date(row.knownAt), what: 'knownAt' });
    data.classifiedMajorAt = at;
  }
  return data;
}

/**
 * A filing of one stage: 422 for a regime the disclosure is not under or a stage it does not have,
 * 409 for a stage filed already or one whose preceding stage is not filed yet.
 */
function filed(row: DisclosureRow, body: z.infer<typeof RecordSubmissionBody>, who: Actor): SubmissionRecord[] {
  const input = clockInput(row);
  checkRegime(row, body.regime);
  const stage = stageOf(regimeRule(body.regime), input.factors, body.stage);
  if (input.submissions.some((s) => s.regime === body.regime && s.stage === body.stage)) {
    throw new ApiError('conflict', `${body.regime} ${body.stage} was filed already for disclosure ${row.id}.`);
  }
  const after = stage.clock?.from === 'submission' ? stage.clock.stage : undefined;
  const prior = after ? input.submissions.find((s) => s.regime === body.regime && s.stage === after) : undefined;
  if (after && !prior) {
    throw new ApiError('conflict', `${body.regime} ${body.stage} follows ${after}, which is not filed yet.`, [
      { field: 'stage', issue: 'invalid_value', message: `file ${after} first` },
    ]);
  }
  const submittedAt = body.submittedAt ? new Date(body.submittedAt) : new Date();
  checkMoment(
    'submittedAt',
    submittedAt,
    prior ? { at: new Date(prior.submittedAt), what: `the ${after} filing` } : { at: input.knownAt, what: 'knownAt' },
  );
  const submission: SubmissionRecord = {
    regime: body.regime,
    stage: body.stage,
    submittedAt: submittedAt.toISOString(),
    channelId: body.channelId ?? null,
    reference: body.reference ?? null,
    recordedBy: who.actor,
  };
  return [...input.submissions, submission];
}

// ---------------------------------------------------------------- drafts

const LABELS: Record<string, string> = {
  nature: 'Nature of the incident',
  description: 'Description',
  categoriesOfDataSubjects: 'Categories of data subjects',
  approximateDataSubjects: 'Approximate number of data subjects',
  approximateRecords: 'Approximate number of records',
  contactPoint: 'Contact point',
  likelyConsequences: 'Likely consequences',
  measures: 'Measures taken or proposed',
  suspectedMalicious: 'Suspected unlawful or malicious act',
  crossBorderImpact: 'Possible cross-border impact',
  severity: 'Severity',
  impact: 'Impact',
  indicatorsOfCompromise: 'Indicators of compromise',
  rootCause: 'Root cause',
  classificationCriteria: 'Classification criteria met',
  systemId: 'AI system concerned',
};

const show = (v: unknown) => (Array.isArray(v) ? v.join('; ') : typeof v === 'boolean' ? (v ? 'yes' : 'no') : String(v));

export const draftStore: Store<typeof disclosureDrafts> = {
  model: 'incidentDisclosureDraft',
  create: async ({ db, who, body }) => {
    const row = await db.incidentDisclosure.findFirst({ where: { id: body.disclosureId } });
    if (!row) throw invalid('disclosureId', `Disclosure ${body.disclosureId} does not exist in this tenant.`);
    const out = renderDisclosure(row);
    checkRegime(out, body.regime);
    const regime = regimeRule(body.regime);
    const stage = stageOf(regime, out.factors, body.stage);
    const clock = out.clocks.find((c) => c.regime === body.regime && c.stage === body.stage);
    if (!clock) throw invalid('stage', `${body.regime} has no stage ${body.stage} for this incident.`);
    const channel = await channelFor(db, body.regime, body.channelId);
    const authority = channel?.name ?? regime.authority;
    const facts = out.facts as Record<string, unknown>;
    const fields: Record<string, unknown> = {};
    const missing: string[] = [];
    for (const f of stage.fields) {
      if (facts[f] === undefined) missing.push(f);
      else fields[f] = facts[f];
    }
    const lines = [
      `${stage.title} (${clock.source})`,
      `To: ${authority}`,
      `Incident: ${out.title}`,
      `Became aware: ${out.knownAt}`,
      ...(out.classifiedMajorAt && body.regime === 'dora' ? [`Classified as major: ${out.classifiedMajorAt}`] : []),
      `Due: ${clock.dueAt ?? clock.rule}`,
      '',
      ...stage.fields.map((f) => `${LABELS[f] ?? f}: ${f in fields ? show(fields[f]) : '[to be completed]'}`),
    ];
    return {
      disclosureId: row.id,
      regime: body.regime,
      stage: body.stage,
      authority,
      dueAt: clock.dueAt ? new Date(clock.dueAt) : null,
      source: clock.source,
      fields,
      missing,
      body: lines.join('\n'),
      createdBy: who.actor,
    };
  },
  // Numbered in the write's transaction with the disclosure locked: drafts of one stage made at once take the next versions in turn.
  prepare: async ({ tx, who, body, data }) => {
    await lockRecord(tx, 'incident_disclosures', who.tenantId, body.disclosureId);
    const where = { disclosureId: body.disclosureId, regime: body.regime, stage: body.stage };
    data.version = (await scopeToTenant(tx, who.tenantId).incidentDisclosureDraft.count({ where })) + 1;
  },
  auditData: (d) => ({ disclosureId: d.disclosureId, regime: d.regime, stage: d.stage, version: d.version, missing: d.missing }),
};

// ---------------------------------------------------------------- timeline and SLA

type Entry = z.infer<typeof DisclosureTimeline>['entries'][number];
const KIND_ORDER: Entry['kind'][] = ['aware', 'classified', 'reported', 'draft', 'submission', 'due', 'closed', 'reopened'];

export async function timeline(prisma: Prisma, tenantId: string, id: string): Promise<z.infer<typeof DisclosureTimeline>> {
  const db = scopeToTenant(prisma, tenantId);
  const out = renderDisclosure(await findDisclosure(db, id));
  const [drafts, changes] = await Promise.all([
    db.incidentDisclosureDraft.findMany({ where: { disclosureId: id }, orderBy: { id: 'asc' } }),
    db.auditEvent.findMany({
      where: { resourceId: id, action: { in: ['incident.closed', 'incident.reopened'] } },
      orderBy: { seq: 'asc' },
      select: { action: true, createdAt: true },
    }),
  ]);
  const entries: Entry[] = [
    { at: out.knownAt, kind: 'aware', regime: null, stage: null, detail: 'The tenant became aware of the incident.' },
  ];
  if (out.classifiedMajorAt) {
    entries.push({
      at: out.classifiedMajorAt,
      kind: 'classified',
      regime: 'dora',
      stage: null,
      detail: 'The incident was classified as major.',
    });
  }
  entries.push({
    at: out.createdAt,
    kind: 'reported',
    regime: null,
    stage: null,
    detail: `Disclosure opened under ${out.regimes.join(', ')}.`,
  });
  for (const d of drafts) {
    entries.push({
      at: iso(d.createdAt),
      kind: 'draft',
      regime: d.regime as IncidentRegime,
      stage: d.stage,
      detail: `Draft ${d.version} for ${d.authority}${d.missing.length ? `, missing ${d.missing.join(', ')}` : ', complete'}.`,
    });
  }
  for (const s of out.submissions) {
    entries.push({
      at: s.submittedAt,
      kind: 'submission',
      regime: s.regime,
      stage: s.stage,
      detail: `Filed${s.reference ? ` (reference ${s.reference})` : ''}.`,
    });
  }
  for (const c of out.clocks) {
    if (!c.dueAt) continue;
    entries.push({
      at: c.dueAt,
      kind: 'due',
      regime: c.regime,
      stage: c.stage,
      detail: `${c.title} due (${c.source}); ${c.state.replace('_', ' ')}.`,
    });
  }
  for (const c of changes) {
    const kind = c.action === 'incident.closed' ? 'closed' : 'reopened';
    entries.push({ at: iso(c.createdAt), kind, regime: null, stage: null, detail: `Disclosure ${kind}.` });
  }
  entries.sort((a, b) => (a.at === b.at ? KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind) : a.at < b.at ? -1 : 1));
  return { object: 'svc.incident_disclosures.timeline', disclosureId: id, entries };
}

const DUE_SOON_MS = 24 * 3_600_000;

export async function sla(
  prisma: Prisma,
  tenantId: string,
  q: { at?: string; regime?: IncidentRegime },
): Promise<z.infer<typeof IncidentSla>> {
  const at = q.at ? new Date(q.at) : new Date();
  const db = scopeToTenant(prisma, tenantId);
  const rows = await db.incidentDisclosure.findMany({
    where: { status: 'open', ...(q.regime ? { regimes: { has: q.regime } } : {}) },
    orderBy: { id: 'asc' },
  });
  const items: z.infer<typeof IncidentSla>['items'] = [];
  for (const row of rows) {
    const d = renderDisclosure(row, at);
    for (const c of d.clocks) {
      if (!c.dueAt || c.submittedAt || c.state === 'not_applicable' || (q.regime && c.regime !== q.regime)) continue;
      const left = new Date(c.dueAt).getTime() - at.getTime();
      items.push({
        disclosureId: d.id,
        title: d.title,
        regime: c.regime,
        stage: c.stage,
        dueAt: c.dueAt,
        state: left < 0 ? 'overdue' : left <= DUE_SOON_MS ? 'due_soon' : 'on_track',
        hoursRemaining: Math.round(left / 360_000) / 10,
        source: c.source,
      });
    }
  }
  items.sort((a, b) => (a.dueAt === b.dueAt ? 0 : a.dueAt < b.dueAt ? -1 : 1));
  const count = (s: string) => items.filter((i) => i.state === s).length;
  return {
    object: 'svc.incident_disclosures.sla',
    at: at.toISOString(),
    overdue: count('overdue'),
    dueSoon: count('due_soon'),
    onTrack: count('on_track'),
    items,
  };
}
