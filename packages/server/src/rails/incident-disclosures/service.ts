import type {
  Disclosure,
  DisclosureDraft,
  DisclosureTimeline,
  disclosureDrafts,
  IncidentChannel,
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
import type { Prisma } from '../../db/client.ts';
import { scopeToTenant } from '../../db/tenant-scope.ts';
import { ApiError } from '../../errors.ts';
import type { Store } from '../../kit.ts';
import { type Actor, recordChange } from '../../platform/ledger/changes.ts';
import { applicableStages, computeClocks, regimeRule, rulesVersion, type SubmissionRecord } from './clocks.ts';

const iso = (d: Date | string) => new Date(d).toISOString();
const CLOCK_SKEW_MS = 5_000;

type Facts = z.infer<typeof IncidentFacts>;
type Factors = z.infer<typeof IncidentFactors>;

interface ChannelRow {
  id: string;
  regime: string;
  name: string;
  submissionUrl: string | null;
  email: string | null;
  createdBy: string;
  createdAt: Date;
}

export interface DisclosureRow {
  id: string;
  title: string;
  status: string;
  regimes: string[];
  knownAt: Date;
  classifiedMajorAt: Date | null;
  factors: unknown;
  facts: unknown;
  submissions: unknown;
  closedAt: Date | null;
  createdBy: string;
  createdAt: Date;
  updatedAt: Date;
}

interface DraftRow {
  id: string;
  disclosureId: string;
  regime: string;
  stage: string;
  version: number;
  authority: string;
  dueAt: Date | null;
  source: string;
  fields: unknown;
  missing: string[];
  body: string;
  createdBy: string;
  createdAt: Date;
}

// ---------------------------------------------------------------- channels

export const renderChannel = (r: ChannelRow): z.infer<typeof IncidentChannel> => {
  const regime = regimeRule(r.regime as IncidentRegime);
  return {
    object: 'svc.incident_disclosures.channel',
    id: r.id,
    regime: regime.id,
    name: r.name,
    submissionUrl: r.submissionUrl,
    email: r.email,
    authority: regime.authority,
    rules: regime.stages.map((s) => ({ stage: s.id, title: s.title, rule: s.rule, source: s.source, fields: s.fields })),
    rulesVersion: rulesVersion(),
    createdBy: r.createdBy,
    createdAt: iso(r.createdAt),
  };
};

export const channelStore: Store<typeof incidentChannels> = {
  model: 'incidentChannel',
  render: renderChannel,
  create: async ({ db, who, body }) => {
    const taken = await db.incidentChannel.findFirst({
      where: { regime: body.regime, name: { equals: body.name, mode: 'insensitive' } },
      select: { id: true },
    });
    if (taken) {
      throw new ApiError('conflict', `A ${body.regime} channel named ${body.name} exists: ${taken.id}.`, [
        { field: 'name', issue: 'invalid_value', message: 'taken' },
      ]);
    }
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

// ---------------------------------------------------------------- disclosures

const clockInput = (r: DisclosureRow) => ({
  regimes: r.regimes as IncidentRegime[],
  knownAt: new Date(r.knownAt),
  classifiedMajorAt: r.classifiedMajorAt ? new Date(r.classifiedMajorAt) : null,
  factors: (r.factors ?? {}) as Factors,
  submissions: (r.submissions ?? []) as SubmissionRecord[],
});

export function renderDisclosure(r: DisclosureRow, now = new Date()): z.infer<typeof Disclosure> {
  const input = clockInput(r);
  return {
    object: 'svc.incident_disclosures.disclosure',
    id: r.id,
    title: r.title,
    status: r.status as 'open' | 'closed',
    regimes: input.regimes,
    knownAt: iso(r.knownAt),
    classifiedMajorAt: r.classifiedMajorAt ? iso(r.classifiedMajorAt) : null,
    factors: input.factors,
    facts: (r.facts ?? {}) as Facts,
    clocks: computeClocks(input, now),
    submissions: input.submissions.map((s) => ({ ...s })),
    createdBy: r.createdBy,
    createdAt: iso(r.createdAt),
    updatedAt: iso(r.updatedAt),
  };
}

/** 422 unless `at` lies between `notBefore` and now (with a few seconds of clock slack). */
function checkMoment(field: string, at: Date, notBefore: Date | undefined, what: string): void {
  if (at.getTime() > Date.now() + CLOCK_SKEW_MS) {
    throw new ApiError('validation_failed', `${field} is in the future.`, [{ field, issue: 'invalid_value', message: 'in the future' }]);
  }
  if (notBefore && at < notBefore) {
    throw new ApiError('validation_failed', `${field} is before ${what}.`, [{ field, issue: 'invalid_value', message: `before ${what}` }]);
  }
}

export const disclosureStore: Store<typeof incidentDisclosures> = {
  model: 'incidentDisclosure',
  render: (r: DisclosureRow) => renderDisclosure(r),
  filterWhere: { regime: (v) => ({ regimes: { has: v } }) },
  create: async ({ who, body }) => {
    const i = body.regimes.findIndex((r, k) => body.regimes.indexOf(r) !== k);
    if (i >= 0) {
      throw new ApiError('validation_failed', `${body.regimes[i]} is named twice.`, [
        { field: `regimes[${i}]`, issue: 'invalid_value', message: 'duplicate' },
      ]);
    }
    const knownAt = body.knownAt ? new Date(body.knownAt) : new Date();
    checkMoment('knownAt', knownAt, undefined, '');
    const classifiedMajorAt = body.classifiedMajorAt ? new Date(body.classifiedMajorAt) : null;
    if (classifiedMajorAt) checkMoment('classifiedMajorAt', classifiedMajorAt, knownAt, 'knownAt');
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
  },
};

async function lockedDisclosure(db: ReturnType<typeof scopeToTenant>, id: string): Promise<DisclosureRow> {
  const row = (await db.incidentDisclosure.findFirst({ where: { id } })) as DisclosureRow | null;
  if (!row) throw new ApiError('not_found', `Disclosure ${id} was not found.`);
  if (row.status !== 'open') {
    throw new ApiError('conflict', `Disclosure ${id} is ${row.status}; reopen it first.`, [
      { field: 'status', issue: 'invalid_value', message: row.status },
    ]);
  }
  return row;
}

/** Writes the row only if it was not changed since it was read (`updatedAt`), else 409 to retry. */
async function saveDisclosure(
  db: ReturnType<typeof scopeToTenant>,
  row: DisclosureRow,
  data: Record<string, unknown>,
): Promise<DisclosureRow> {
  const updatedAt = new Date(Math.max(Date.now(), new Date(row.updatedAt).getTime() + 1));
  const res = await db.incidentDisclosure.updateMany({
    where: { id: row.id, updatedAt: row.updatedAt, status: 'open' },
    data: { ...data, updatedAt },
  });
  if (res.count === 0) throw new ApiError('conflict', `Disclosure ${row.id} changed meanwhile; read it again and retry.`);
  return (await db.incidentDisclosure.findFirst({ where: { id: row.id } })) as DisclosureRow;
}

export async function updateDisclosure(
  prisma: Prisma,
  who: Actor,
  id: string,
  body: z.infer<typeof UpdateDisclosureBody>,
): Promise<z.infer<typeof Disclosure>> {
  return prisma.$transaction(async (tx) => {
    const db = scopeToTenant(tx, who.tenantId);
    const row = await lockedDisclosure(db, id);
    const data: Record<string, unknown> = {};
    if (body.facts) data.facts = { ...(row.facts as Facts), ...body.facts };
    if (body.factors) data.factors = { ...(row.factors as Factors), ...body.factors };
    if (body.classifiedMajorAt) {
      const at = new Date(body.classifiedMajorAt);
      checkMoment('classifiedMajorAt', at, new Date(row.knownAt), 'knownAt');
      data.classifiedMajorAt = at;
    }
    const saved = await saveDisclosure(db, row, data);
    const out = renderDisclosure(saved);
    await recordChange(tx, {
      ...who,
      action: 'incident.updated',
      resourceType: 'svc.incident_disclosures.disclosure',
      resourceId: id,
      data: { changed: Object.keys(data), factors: body.factors ?? null },
      resource: out,
    });
    return out;
  });
}

export async function recordSubmission(
  prisma: Prisma,
  who: Actor,
  id: string,
  body: z.infer<typeof RecordSubmissionBody>,
): Promise<z.infer<typeof Disclosure>> {
  return prisma.$transaction(async (tx) => {
    const db = scopeToTenant(tx, who.tenantId);
    const row = await lockedDisclosure(db, id);
    const input = clockInput(row);
    if (!input.regimes.includes(body.regime)) {
      throw new ApiError('validation_failed', `Disclosure ${id} is not under ${body.regime}; it is under ${input.regimes.join(', ')}.`, [
        { field: 'regime', issue: 'invalid_value', message: `one of ${input.regimes.join(', ')}` },
      ]);
    }
    const regime = regimeRule(body.regime);
    const stages = applicableStages(regime, input.factors);
    const stage = stages.find((s) => s.id === body.stage);
    if (!stage) {
      throw new ApiError(
        'validation_failed',
        `${body.regime} has no stage ${body.stage} for this incident; its stages: ${stages.map((s) => s.id).join(', ')}.`,
        [{ field: 'stage', issue: 'invalid_value', message: `one of ${stages.map((s) => s.id).join(', ')}` }],
      );
    }
    if (input.submissions.some((s) => s.regime === body.regime && s.stage === body.stage)) {
      throw new ApiError('conflict', `${body.regime} ${body.stage} was filed already for disclosure ${id}.`);
    }
    const after = stage.clock?.from === 'submission' ? stage.clock.stage : undefined;
    const prior = after ? input.submissions.find((s) => s.regime === body.regime && s.stage === after) : undefined;
    if (after && !prior) {
      throw new ApiError('conflict', `${body.regime} ${body.stage} follows ${after}, which is not filed yet.`, [
        { field: 'stage', issue: 'invalid_value', message: `file ${after} first` },
      ]);
    }
    const submittedAt = body.submittedAt ? new Date(body.submittedAt) : new Date();
    checkMoment('submittedAt', submittedAt, prior ? new Date(prior.submittedAt) : input.knownAt, prior ? `the ${after} filing` : 'knownAt');
    if (body.channelId) {
      const channel = await db.incidentChannel.findFirst({ where: { id: body.channelId }, select: { regime: true } });
      if (!channel || channel.regime !== body.regime) {
        throw new ApiError('validation_failed', `Channel ${body.channelId} is not a ${body.regime} channel of this tenant.`, [
          { field: 'channelId', issue: 'invalid_value', message: `not a ${body.regime} channel` },
        ]);
      }
    }
    const submission: SubmissionRecord = {
      regime: body.regime,
      stage: body.stage,
      submittedAt: submittedAt.toISOString(),
      channelId: body.channelId ?? null,
      reference: body.reference ?? null,
      recordedBy: who.actor,
    };
    const saved = await saveDisclosure(db, row, { submissions: [...input.submissions, submission] });
    const out = renderDisclosure(saved);
    const clock = out.clocks.find((c) => c.regime === body.regime && c.stage === body.stage);
    await recordChange(tx, {
      ...who,
      action: 'incident.disclosed',
      resourceType: 'svc.incident_disclosures.disclosure',
      resourceId: id,
      data: {
        regime: body.regime,
        stage: body.stage,
        submittedAt: submission.submittedAt,
        dueAt: clock?.dueAt ?? null,
        state: clock?.state ?? null,
      },
      resource: out,
    });
    return out;
  });
}

// ---------------------------------------------------------------- drafts

export const renderDraft = (r: DraftRow): z.infer<typeof DisclosureDraft> => ({
  object: 'svc.incident_disclosures.disclosure_draft',
  id: r.id,
  disclosureId: r.disclosureId,
  regime: r.regime as IncidentRegime,
  stage: r.stage,
  version: r.version,
  authority: r.authority,
  dueAt: r.dueAt ? iso(r.dueAt) : null,
  source: r.source,
  fields: (r.fields ?? {}) as Record<string, unknown>,
  missing: r.missing,
  body: r.body,
  createdBy: r.createdBy,
  createdAt: iso(r.createdAt),
});

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
  render: renderDraft,
  create: async ({ db, who, body }) => {
    const row = (await db.incidentDisclosure.findFirst({ where: { id: body.disclosureId } })) as DisclosureRow | null;
    if (!row) {
      throw new ApiError('validation_failed', `Disclosure ${body.disclosureId} does not exist in this tenant.`, [
        { field: 'disclosureId', issue: 'invalid_value', message: 'unknown disclosure' },
      ]);
    }
    const out = renderDisclosure(row);
    if (!out.regimes.includes(body.regime)) {
      throw new ApiError('validation_failed', `Disclosure ${row.id} is not under ${body.regime}.`, [
        { field: 'regime', issue: 'invalid_value', message: `one of ${out.regimes.join(', ')}` },
      ]);
    }
    const regime = regimeRule(body.regime);
    const stage = applicableStages(regime, out.factors).find((s) => s.id === body.stage);
    const clock = out.clocks.find((c) => c.regime === body.regime && c.stage === body.stage);
    if (!stage || !clock) {
      throw new ApiError('validation_failed', `${body.regime} has no stage ${body.stage} for this incident.`, [
        { field: 'stage', issue: 'invalid_value', message: 'unknown stage' },
      ]);
    }
    const channel = await db.incidentChannel.findFirst({
      where: body.channelId ? { id: body.channelId } : { regime: body.regime },
      orderBy: { id: 'asc' },
    });
    if (body.channelId && (!channel || channel.regime !== body.regime)) {
      throw new ApiError('validation_failed', `Channel ${body.channelId} is not a ${body.regime} channel of this tenant.`, [
        { field: 'channelId', issue: 'invalid_value', message: `not a ${body.regime} channel` },
      ]);
    }
    const authority = channel?.name ?? regime.authority;
    const facts = out.facts as Record<string, unknown>;
    const fields: Record<string, unknown> = {};
    const missing: string[] = [];
    for (const f of stage.fields) {
      if (facts[f] === undefined) missing.push(f);
      else fields[f] = facts[f];
    }
    const previous = await db.incidentDisclosureDraft.count({ where: { disclosureId: row.id, regime: body.regime, stage: body.stage } });
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
      version: previous + 1,
      authority,
      dueAt: clock.dueAt ? new Date(clock.dueAt) : null,
      source: clock.source,
      fields,
      missing,
      body: lines.join('\n'),
      createdBy: who.actor,
    };
  },
  auditData: (d) => ({ disclosureId: d.disclosureId, regime: d.regime, stage: d.stage, version: d.version, missing: d.missing }),
};

// ---------------------------------------------------------------- timeline and SLA

type Entry = z.infer<typeof DisclosureTimeline>['entries'][number];
const KIND_ORDER: Entry['kind'][] = ['aware', 'classified', 'reported', 'draft', 'submission', 'due', 'closed', 'reopened'];

export async function timeline(prisma: Prisma, tenantId: string, id: string): Promise<z.infer<typeof DisclosureTimeline>> {
  const db = scopeToTenant(prisma, tenantId);
  const row = (await db.incidentDisclosure.findFirst({ where: { id } })) as DisclosureRow | null;
  if (!row) throw new ApiError('not_found', `Disclosure ${id} was not found.`);
  const out = renderDisclosure(row);
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
  const rows = (await db.incidentDisclosure.findMany({
    where: { status: 'open', ...(q.regime ? { regimes: { has: q.regime } } : {}) },
    orderBy: { id: 'asc' },
  })) as DisclosureRow[];
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
