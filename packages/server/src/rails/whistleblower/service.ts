import { createHash, randomBytes, randomUUID } from 'node:crypto';
import {
  type FeedbackWhistleblowerReportBody,
  getRail,
  type ReporterMessageBody,
  type SubmitWhistleblowerReportBody,
  tierAdmits,
  type WhistleblowerClock,
  WhistleblowerMessage,
  type WhistleblowerProtection,
  type WhistleblowerReceipt,
  type WhistleblowerReport,
  type WhistleblowerReporterView,
  type whistleblowerIntake,
  type whistleblowerInvestigations,
  type whistleblowerMessages,
  type whistleblowerProtections,
  type whistleblowerReports,
} from '@svc/contract';
import type { z } from 'zod';
import type { Prisma, Tx } from '../../db/client.ts';
import { keysetList } from '../../db/pagination.ts';
import { scopeToTenant } from '../../db/tenant-scope.ts';
import { ApiError, invalid, stateConflict } from '../../errors.ts';
import type {
  WhistleblowerIntake as IntakeRow,
  WhistleblowerMessage as MessageRow,
  WhistleblowerProtection as ProtectionRow,
  WhistleblowerReport as ReportRow,
} from '../../generated/prisma/client.ts';
import { newId } from '../../ids.ts';
import type { Store } from '../../kit.ts';
import { checkMoment, pastMoment } from '../../platform/moments.ts';
import { claimSlug, lockRecord, type PageQuery, recorded, stampsOf } from '../../platform/records.ts';
import { iso, isoOrNull, rendererOf } from '../../platform/render.ts';
import type { SettingStore } from '../../setting-kit.ts';
import { sealSecret } from '../../webhooks/secret-box.ts';

/**
 * The whistleblower rail (Directive (EU) 2019/1937). The Art. 9(1) clocks below are the rules the
 * service computes from, each with its legal source; they are computed at every read from the
 * report's dates, never stored. The reporter's identity is sealed at intake and read by nothing.
 */

const DAY_MS = 86_400_000;

/** The Art. 9(1) clocks: what is due, by when, under which provision. */
export const WHISTLEBLOWER_CLOCK_RULES = {
  acknowledgement: {
    days: 7,
    rule: 'Acknowledge receipt to the reporting person within seven days of that receipt.',
    source: 'Directive (EU) 2019/1937 Art. 9(1)(b)',
  },
  feedback: {
    months: 3,
    rule: 'Provide feedback within a reasonable timeframe not exceeding three months from the acknowledgement of receipt or, if no acknowledgement was sent, three months from the expiry of the seven-day period after the report was made.',
    source: 'Directive (EU) 2019/1937 Art. 9(1)(f)',
  },
} as const;

/**
 * `n` calendar months after `d` (UTC), on the same day and time; when that day does not exist in
 * the target month (31 May + 3 months... 30 November + 3 months), the month's last day.
 */
export function addCalendarMonths(d: Date, n: number): Date {
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth() + n;
  const last = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  return new Date(
    Date.UTC(y, m, Math.min(d.getUTCDate(), last), d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds(), d.getUTCMilliseconds()),
  );
}

type Clock = z.infer<typeof WhistleblowerClock>;

function clockState(dueAt: Date, metAt: Date | null, now: Date): Clock['state'] {
  if (metAt) return metAt.getTime() <= dueAt.getTime() ? 'met' : 'met_late';
  return now.getTime() > dueAt.getTime() ? 'overdue' : 'pending';
}

export function acknowledgementDue(receivedAt: Date): Date {
  return new Date(receivedAt.getTime() + WHISTLEBLOWER_CLOCK_RULES.acknowledgement.days * DAY_MS);
}

export function feedbackDue(receivedAt: Date, acknowledgedAt: Date | null): Date {
  return addCalendarMonths(acknowledgedAt ?? acknowledgementDue(receivedAt), WHISTLEBLOWER_CLOCK_RULES.feedback.months);
}

export function computeClocks(r: { receivedAt: Date; acknowledgedAt: Date | null; feedbackAt: Date | null }, now = new Date()): Clock[] {
  const ackDue = acknowledgementDue(r.receivedAt);
  const fbDue = feedbackDue(r.receivedAt, r.acknowledgedAt);
  const { acknowledgement: a, feedback: f } = WHISTLEBLOWER_CLOCK_RULES;
  return [
    {
      clock: 'acknowledgement',
      dueAt: iso(ackDue),
      basis: 'received',
      rule: a.rule,
      source: a.source,
      metAt: isoOrNull(r.acknowledgedAt),
      state: clockState(ackDue, r.acknowledgedAt, now),
    },
    {
      clock: 'feedback',
      dueAt: iso(fbDue),
      basis: r.acknowledgedAt ? 'acknowledged' : 'end_of_acknowledgement_period',
      rule: f.rule,
      source: f.source,
      metAt: isoOrNull(r.feedbackAt),
      state: clockState(fbDue, r.feedbackAt, now),
    },
  ];
}

// ---------------------------------------------------------------- records

type Report = z.infer<typeof WhistleblowerReport>;

/** The API record of a report: never its sealed identity nor its access-code hash. */
export function renderReport(r: ReportRow, now = new Date()): Report {
  const clocks = computeClocks(r, now);
  return {
    object: 'svc.whistleblower.report',
    id: r.id,
    status: r.status as Report['status'],
    channel: r.channel as Report['channel'],
    category: r.category as Report['category'],
    description: r.description,
    severity: r.severity as Report['severity'],
    inScope: r.inScope,
    scopeNote: r.scopeNote,
    assignee: r.assignee,
    identityProvided: r.identitySealed !== null,
    followUpByCode: r.accessCodeHash !== null,
    receivedAt: iso(r.receivedAt),
    acknowledgedAt: isoOrNull(r.acknowledgedAt),
    feedbackAt: isoOrNull(r.feedbackAt),
    triagedAt: isoOrNull(r.triagedAt),
    closedAt: isoOrNull(r.closedAt),
    outcome: r.outcome as Report['outcome'],
    outcomeSummary: r.outcomeSummary,
    clocks,
    overdue: clocks.some((c) => c.state === 'overdue'),
    ...stampsOf(r),
  };
}

export const renderMessage = rendererOf<MessageRow>()(WhistleblowerMessage, {});

const REVIEW_DUE_DAYS = 7;

/** Where a protection stands against its next review at `now`; a lifted one has none. */
function reviewStateOf(r: ProtectionRow, now = new Date()): z.infer<typeof WhistleblowerProtection>['reviewState'] {
  const reviewAt = r.reviewAt;
  return r.status !== 'active'
    ? 'not_applicable'
    : now.getTime() > reviewAt.getTime()
      ? 'overdue'
      : reviewAt.getTime() - now.getTime() <= REVIEW_DUE_DAYS * DAY_MS
        ? 'due'
        : 'scheduled';
}

// ---------------------------------------------------------------- checks

/** The reporter's identity, sealed; null when none was given. */
function sealIdentity(reporter: { name?: string; email?: string; phone?: string } | undefined): string | null {
  if (!reporter || Object.values(reporter).every((v) => v === undefined)) return null;
  return sealSecret(JSON.stringify(reporter));
}

// ---------------------------------------------------------------- access codes

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** A new access code: 160 random bits in Crockford base32, `WB-` and 8 groups of 4. */
export function newAccessCode(): string {
  const bytes = randomBytes(20);
  let bits = 0;
  let value = 0;
  let out = '';
  for (const b of bytes) {
    value = (value << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += CROCKFORD[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
    value &= (1 << bits) - 1;
  }
  return `WB-${out.match(/.{4}/g)?.join('-')}`;
}

/** SHA-256 of the code as typed, normalised (case, spaces, hyphens, the `WB` prefix). */
export function accessCodeHash(code: string): string {
  let norm = code.toUpperCase().replace(/[\s-]/g, '');
  if (norm.length === 34 && norm.startsWith('WB')) norm = norm.slice(2);
  return createHash('sha256').update('svc whistleblower access code\0').update(norm).digest('hex');
}

// ---------------------------------------------------------------- reports (kit)

export const reportStore: Store<typeof whistleblowerReports> = {
  model: 'whistleblowerReport',
  render: (r: ReportRow) => renderReport(r),
  create: async ({ who, body }) => {
    const receivedAt = pastMoment('receivedAt', body.receivedAt);
    const acknowledgedAt = body.acknowledgedAt ? new Date(body.acknowledgedAt) : null;
    if (acknowledgedAt) {
      checkMoment('acknowledgedAt', acknowledgedAt, { at: receivedAt, what: 'receivedAt' });
    }
    return {
      status: acknowledgedAt ? 'acknowledged' : 'received',
      channel: body.channel,
      category: body.category,
      description: body.description,
      identitySealed: sealIdentity(body.reporter),
      accessCodeHash: null,
      receivedAt,
      acknowledgedAt,
      createdBy: who.actor,
    };
  },
  // Never the description or the identity: the audit trail is read more widely than the report.
  auditData: (r) => ({ channel: r.channel, category: r.category, receivedAt: r.receivedAt, identityProvided: r.identityProvided }),
  transitions: {
    // Named in the body (`reportId`); a triaged report may be triaged again.
    triage: {
      set: (row: ReportRow, now, body) => ({
        category: body.category ?? row.category,
        severity: body.severity,
        inScope: body.inScope,
        scopeNote: body.scopeNote ?? null,
        assignee: body.assignee ?? null,
        triagedAt: now,
      }),
      auditData: (report, _row, body) => ({ severity: body.severity, inScope: body.inScope, category: report.category }),
    },
    acknowledge: { set: (_row, now) => ({ acknowledgedAt: now }) },
    feedback: {
      // Feedback needs an acknowledgement to count from; the message joins the reporter's thread.
      guard: async ({ tx, who, row, body, now }) => {
        const report = row as ReportRow;
        if (!report.acknowledgedAt) throw stateConflict('Report', report.id, report.status, 'feedback', FEEDBACK_FROM);
        const givenAt = feedbackMoment(body, now);
        checkMoment('givenAt', givenAt, { at: report.acknowledgedAt, what: 'acknowledgedAt' });
        await writeMessage(scopeToTenant(tx, who.tenantId), {
          tenantId: who.tenantId,
          reportId: report.id,
          from: 'organisation',
          kind: 'feedback',
          body: body.message,
          createdBy: who.actor,
          createdAt: givenAt,
        });
        return { givenAt: iso(givenAt) };
      },
      set: (row: ReportRow, now, body) => {
        const givenAt = feedbackMoment(body, now);
        return { feedbackAt: row.feedbackAt && row.feedbackAt < givenAt ? row.feedbackAt : givenAt };
      },
      auditData: (r) => {
        const clock = r.clocks.find((c) => c.clock === 'feedback');
        return { dueAt: clock?.dueAt ?? null, state: clock?.state ?? null };
      },
    },
    close: {
      // A report closes once no investigation of it runs.
      guard: async ({ tx, who, row }) => {
        const { id } = row as ReportRow;
        const running = await scopeToTenant(tx, who.tenantId).whistleblowerInvestigation.count({
          where: { reportId: id, status: { in: ['open', 'in_progress'] } },
        });
        if (running > 0) {
          throw new ApiError(
            'conflict',
            `Report ${id} has ${running} investigation(s) still open or in progress; conclude or discontinue them first.`,
            [{ field: 'status', issue: 'invalid_value', message: 'investigations running' }],
          );
        }
      },
      set: (_row, now, body) => ({ closedAt: now, outcome: body.outcome, outcomeSummary: body.summary }),
      auditData: (_r, _row, body) => ({ outcome: body.outcome }),
    },
  },
};

/** The states feedback may be given in: from the acknowledgement on. */
const FEEDBACK_FROM = ['acknowledged', 'triaged', 'investigating', 'closed'] as const;

/** When a feedback was given: its `givenAt`, else the moment of the change. */
const feedbackMoment = (body: z.infer<typeof FeedbackWhistleblowerReportBody>, now: Date): Date =>
  body.givenAt ? new Date(body.givenAt) : now;

export async function triageQueue(prisma: Prisma, tenantId: string, query: PageQuery & { status?: string }) {
  return keysetList(scopeToTenant(prisma, tenantId).whistleblowerReport, query, {
    where: { status: { in: ['received', 'acknowledged'] } },
    filters: ['status'],
    render: (r: ReportRow) => renderReport(r),
  });
}

/** A message of a report's thread, from the organisation or the reporter. */
function writeMessage(
  client: Tx,
  message: {
    tenantId: string;
    reportId: string;
    from: 'reporter' | 'organisation';
    kind: 'message' | 'feedback';
    body: string;
    createdBy: string;
    createdAt?: Date;
  },
): Promise<MessageRow> {
  return client.whistleblowerMessage.create({ data: { id: newId('wbm'), ...message } });
}

/** The organisation's messages to the reporter: the kit finds the report (404) and writes under it. */
export const messageStore: Store<typeof whistleblowerMessages> = {
  model: 'whistleblowerMessage',
  parent: { model: 'whistleblowerReport' },
  create: async ({ who, body }) => ({ from: 'organisation', kind: 'message', body: body.body, createdBy: who.actor }),
  auditData: (m) => ({ reportId: m.reportId }),
};

// ---------------------------------------------------------------- investigations

export const investigationStore: Store<typeof whistleblowerInvestigations> = {
  model: 'whistleblowerInvestigation',
  create: async ({ db, who, body }) => {
    const report = await db.whistleblowerReport.findFirst({ where: { id: body.reportId }, select: { status: true } });
    if (!report) throw invalid('reportId', `Report ${body.reportId} does not exist in this tenant.`);
    if (report.status !== 'triaged' && report.status !== 'investigating') {
      throw stateConflict('Report', body.reportId, report.status, 'opening an investigation', ['triaged', 'investigating']);
    }
    return {
      reportId: body.reportId,
      investigator: body.investigator,
      scope: body.scope ?? null,
      status: 'open',
      createdBy: who.actor,
    };
  },
  // The report read again locked: a report closed meanwhile refuses the investigation.
  prepare: async ({ tx, who, body }) => {
    await lockRecord(tx, 'whistleblower_reports', who.tenantId, body.reportId);
    const report = await scopeToTenant(tx, who.tenantId).whistleblowerReport.findFirst({
      where: { id: body.reportId },
      select: { status: true },
    });
    if (report && report.status !== 'triaged' && report.status !== 'investigating') {
      throw stateConflict('Report', body.reportId, report.status, 'opening an investigation', ['triaged', 'investigating']);
    }
  },
  auditData: (i) => ({ reportId: i.reportId, investigator: i.investigator }),
  transitions: {
    start: { set: (_row, now) => ({ startedAt: now }) },
    discontinue: { set: (_row, now) => ({ concludedAt: now }) },
    conclude: {
      set: (_row, now, body) => ({ findings: body.findings, outcome: body.outcome, concludedAt: now }),
      auditData: (i, _row, body) => ({ outcome: body.outcome, reportId: i.reportId }),
    },
  },
};

// ---------------------------------------------------------------- protections

export const protectionStore: Store<typeof whistleblowerProtections> = {
  model: 'whistleblowerProtection',
  computed: { reviewState: (r: ProtectionRow) => reviewStateOf(r) },
  create: async ({ db, who, body }) => {
    const report = await db.whistleblowerReport.findFirst({ where: { id: body.reportId }, select: { id: true } });
    if (!report) throw invalid('reportId', `Report ${body.reportId} does not exist in this tenant.`);
    const reviewAt = new Date(body.reviewAt);
    if (reviewAt.getTime() < Date.now() - DAY_MS) throw invalid('reviewAt', 'reviewAt is more than a day in the past.');
    return {
      reportId: body.reportId,
      kind: body.kind,
      measure: body.measure,
      protectedParty: body.protectedParty ?? 'reporter',
      status: 'active',
      reviewAt,
      createdBy: who.actor,
    };
  },
  auditData: (p) => ({ reportId: p.reportId, kind: p.kind, reviewAt: p.reviewAt }),
  transitions: {
    lift: { set: (_row, now) => ({ liftedAt: now }) },
    review: {
      // Records the review now and moves the next one to a date after it.
      set: (_row, now, body) => {
        const next = new Date(body.nextReviewAt);
        if (next <= now) throw invalid('nextReviewAt', 'nextReviewAt is not in the future.');
        return { reviewAt: next, lastReviewedAt: now };
      },
      auditData: (p, row: ProtectionRow, body) => ({
        previousReviewAt: iso(row.reviewAt),
        nextReviewAt: p.reviewAt,
        ...(body.note ? { note: body.note } : {}),
      }),
    },
  },
};

// ---------------------------------------------------------------- intake (public)

const intakePath = (slug: string) => `/v1/whistleblower/intake/${slug}`;

const slugTaken = (slug: string) =>
  new ApiError('conflict', `The intake slug ${slug} is taken by another tenant.`, [
    { field: 'slug', issue: 'invalid_value', message: 'taken' },
  ]);

/**
 * The tenant's intake (setting kit). A slug another tenant holds, or takes meanwhile, is refused
 * (claimSlug); the tenant's own settings queue on the kit's lock.
 */
export const intakeStore: SettingStore<typeof whistleblowerIntake> = {
  model: 'whistleblowerIntake',
  computed: { intakePath: (r: IntakeRow) => (r.enabled ? intakePath(r.slug) : null) },
  newId: randomUUID,
  prepare: async ({ tx, who, body }) => {
    const holderOf = (slug: string) => tx.whistleblowerIntake.findUnique({ where: { slug }, select: { tenantId: true } });
    await claimSlug(tx, 'svc.whistleblower.intake', who, body.slug, holderOf, () => slugTaken(body.slug));
    return { slug: body.slug, enabled: body.enabled };
  },
  auditData: ({ before, body }) => ({ slug: body.slug, enabled: body.enabled, previousSlug: (before?.slug as string | undefined) ?? null }),
};

/** One answer for an unknown slug, a disabled intake and a tenant not entitled to the rail. */
const noIntake = (slug: string) => new ApiError('not_found', `No organisation takes reports at ${slug}.`);

export async function submit(
  prisma: Prisma,
  correlationId: string,
  slug: string,
  body: z.infer<typeof SubmitWhistleblowerReportBody>,
): Promise<z.infer<typeof WhistleblowerReceipt>> {
  const intake = await prisma.whistleblowerIntake.findUnique({ where: { slug } });
  if (!intake?.enabled) throw noIntake(slug);
  const tenant = await prisma.tenant.findUnique({ where: { id: intake.tenantId }, select: { tier: true } });
  if (!tenant || !tierAdmits(tenant.tier as never, getRail('whistleblower').minTier)) throw noIntake(slug);
  const code = newAccessCode();
  const receivedAt = new Date();
  const id = newId('wbr');
  await prisma.$transaction(async (tx) => {
    const row = await tx.whistleblowerReport.create({
      data: {
        id,
        tenantId: intake.tenantId,
        status: 'received',
        channel: 'web_intake',
        category: body.category,
        description: body.description,
        identitySealed: sealIdentity(body.reporter),
        accessCodeHash: accessCodeHash(code),
        receivedAt,
        createdBy: 'public-intake',
        createdAt: receivedAt,
        updatedAt: receivedAt,
      },
    });
    const out = renderReport(row);
    await recorded(tx, { tenantId: intake.tenantId, actor: 'public-intake', correlationId }, out, {
      action: 'whistleblower_report.received',
      data: { channel: 'web_intake', category: body.category, receivedAt: out.receivedAt, identityProvided: out.identityProvided },
    });
  });
  return {
    object: 'svc.whistleblower.receipt',
    accessCode: code,
    receivedAt: iso(receivedAt),
    acknowledgementDueAt: iso(acknowledgementDue(receivedAt)),
    feedbackDueAt: iso(feedbackDue(receivedAt, null)),
    followUpPath: '/v1/whistleblower/follow-up',
  };
}

const unknownCode = () => new ApiError('not_found', 'No report matches this access code.');

async function reportByCode(client: Tx, code: string): Promise<ReportRow> {
  const row = await client.whistleblowerReport.findUnique({ where: { accessCodeHash: accessCodeHash(code) } });
  if (!row) throw unknownCode();
  return row;
}

async function reporterView(client: Tx, row: ReportRow): Promise<z.infer<typeof WhistleblowerReporterView>> {
  const messages = await client.whistleblowerMessage.findMany({
    where: { tenantId: row.tenantId, reportId: row.id },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  });
  return {
    object: 'svc.whistleblower.reporter_view',
    status: row.status as Report['status'],
    category: row.category as Report['category'],
    receivedAt: iso(row.receivedAt),
    acknowledgedAt: isoOrNull(row.acknowledgedAt),
    feedbackAt: isoOrNull(row.feedbackAt),
    acknowledgementDueAt: iso(acknowledgementDue(row.receivedAt)),
    feedbackDueAt: iso(feedbackDue(row.receivedAt, row.acknowledgedAt)),
    outcome: row.status === 'closed' ? (row.outcome as Report['outcome']) : null,
    outcomeSummary: row.status === 'closed' ? row.outcomeSummary : null,
    messages: messages.map((m) => ({
      from: m.from as 'reporter' | 'organisation',
      kind: m.kind as 'message' | 'feedback',
      body: m.body,
      createdAt: iso(m.createdAt),
    })),
  };
}

export async function followUp(prisma: Prisma, code: string) {
  return reporterView(prisma, await reportByCode(prisma, code));
}

export async function reporterMessage(prisma: Prisma, correlationId: string, body: z.infer<typeof ReporterMessageBody>) {
  const report = await reportByCode(prisma, body.accessCode);
  return prisma.$transaction(async (tx) => {
    const row = await writeMessage(tx, {
      tenantId: report.tenantId,
      reportId: report.id,
      from: 'reporter',
      kind: 'message',
      body: body.body,
      createdBy: 'reporter',
    });
    await recorded(tx, { tenantId: report.tenantId, actor: 'reporter', correlationId }, renderMessage(row), {
      action: 'whistleblower_message.received',
      data: { reportId: report.id },
    });
    return reporterView(tx, report);
  });
}
