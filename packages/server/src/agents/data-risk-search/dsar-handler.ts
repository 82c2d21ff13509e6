import { DSAR_REGIMES, type DsarKind, type DsarRegime, groupBAgents } from '@svc/contract';
import { scopeToTenant } from '../../db/tenant-scope.ts';
import { addToDate, dateOf, daysBetween, type PeriodUnit, rulesFor } from '../../rails/dsar/clocks.ts';
import { defineAgent } from '../types.ts';
import { invalid, notFound } from './common.ts';

/**
 * The DSAR handler: the statutory rules of the request's regime and kind (`content/dsar/regimes.json`
 * through rails/dsar/clocks.ts) are read into the facts, and the dates are computed with that
 * service's calendar arithmetic, so that a replay computes the same dates from the same rules.
 */

const rules = {
  /** The DPO (or equivalent) releases every answer: the agent drafts, a person signs. */
  signOff: {
    gdpr: 'data protection officer',
    'uk-gdpr': 'data protection officer',
    ccpa: 'privacy officer',
    lgpd: 'encarregado (data protection officer)',
    dpdp: 'grievance officer',
  } as Record<string, string>,
  signOffReason: 'The response discloses or changes personal data: a person checks identity, scope and redactions before it is sent.',
  priority: { overdue: 'urgent', at_risk: 'high', on_track: 'normal', closed: 'normal' } as Record<string, 'normal' | 'high' | 'urgent'>,
  /** What to do in each store, by kind of request. */
  storeActions: {
    access: 'Export every record of the subject in the listed categories.',
    portability: 'Export the records the subject provided in a structured, machine-readable format.',
    rectification: 'Correct the inaccurate records and note the correction.',
    erasure: 'Delete or anonymise the subject’s records unless a legal hold or retention duty applies; record the exception.',
    restriction: 'Flag the records so they are stored but not otherwise processed.',
    objection: 'Stop the processing objected to and record the compelling grounds if any.',
    'opt-out': 'Stop selling or sharing the subject’s data and propagate the opt-out.',
    'limit-use': 'Limit the use of sensitive personal information to the permitted purposes.',
    grievance: 'Collect the records the grievance concerns for the grievance officer.',
  } as Record<string, string>,
  packetIntro: 'Confirmation of the request received on {received}, the identity check performed and the stores searched ({stores}).',
  packetSection: 'Drafted from the fulfillment items of the stores searched; to be completed by the reviewer.',
  nextSteps: {
    received: [
      'Verify the identity of the data subject (POST /v1/dsar/verify).',
      'Start fulfillment once verified to open one item per store.',
    ],
    verified: ['Start fulfillment (POST /v1/dsar/fulfillment) to open one item per store.'],
    in_progress: ['Close the fulfillment item of each store.', 'Export the response packet and route it for sign-off.'],
    fulfilled: ['Archive the signed response with the request.'],
    rejected: ['Keep the reason for rejection on record for the regulator.'],
    new: ['Record the request (POST /v1/dsar/requests) so its clock is tracked.', 'Verify the identity of the data subject.'],
  } as Record<string, string[]>,
  lateStep: 'The statutory deadline is at risk: consider the extension the regime allows and notify the subject with reasons.',
};

interface Clock {
  /** Null when the law fixes no period for the kind (LGPD requests other than access). */
  amount: number | null;
  unit: PeriodUnit | null;
  rule: string;
  source: string;
}
interface Facts {
  asOf: string;
  request: {
    id: string | null;
    regime: DsarRegime;
    kind: DsarKind;
    receivedAt: string;
    extendedAt: string | null;
    status: string;
    subjectType: string;
  };
  regulator: string;
  kindSource: string;
  clock: Clock;
  /** First date of receipt the regime (or the right) applies to; absent in facts recorded before it was. */
  applicableFrom?: string;
  extension: Clock | null;
  receiptConfirmation: Clock | null;
  atRiskDays: number;
  answer: { title: string; source: string; includes: string[] };
  stores: { id: string; name: string; system: string; categories: string[] }[];
}

const fill = (t: string, vars: Record<string, string>) => t.replace(/\{(\w+)\}/g, (_, k: string) => vars[k] ?? '');

export const dsarHandler = defineAgent({
  spec: groupBAgents.dsarHandler,
  ruleSet: { id: 'dsar-handler-rules', version: '1.0.0', rules },
  dictionaryVersion: (ctx, input) => {
    const regime = input.jurisdiction ?? 'gdpr';
    const dict = { gdpr: 'gdpr', 'uk-gdpr': 'uk-gdpr', ccpa: 'ccpa-cpra', lgpd: 'lgpd', dpdp: 'india-dpdp' }[regime];
    return ctx.versionOf(dict);
  },
  async gather(ctx, input): Promise<Facts> {
    const db = scopeToTenant(ctx.prisma, ctx.tenantId);
    let request: Facts['request'];
    if (input.requestId !== undefined) {
      const row = await db.dsarRequest.findFirst({ where: { id: input.requestId } });
      if (!row) throw notFound('Data-subject request', input.requestId);
      request = {
        id: row.id,
        regime: row.regime as DsarRegime,
        kind: row.kind as DsarKind,
        receivedAt: row.receivedAt.toISOString(),
        extendedAt: row.extendedAt?.toISOString() ?? null,
        status: row.status,
        subjectType: row.subjectType,
      };
    } else {
      for (const field of ['jurisdiction', 'receivedAt', 'kind'] as const)
        if (input[field] === undefined)
          throw invalid(field, `Give \`requestId\`, or \`jurisdiction\`, \`receivedAt\` and \`kind\`: ${field} is missing.`, 'missing');
      if (Date.parse(input.receivedAt as string) > ctx.now.getTime()) throw invalid('receivedAt', 'receivedAt is in the future.');
      request = {
        id: null,
        regime: input.jurisdiction as DsarRegime,
        kind: input.kind as DsarKind,
        receivedAt: new Date(input.receivedAt as string).toISOString(),
        extendedAt: null,
        status: 'new',
        subjectType: input.subjectType ?? 'customer',
      };
    }
    if (!DSAR_REGIMES.includes(request.regime)) throw invalid('jurisdiction', `Unknown regime ${request.regime}.`);
    const applied = rulesFor(request.regime, request.kind);
    if (!applied) throw invalid('kind', `${request.regime} grants no ${request.kind} request.`);
    const stores = await db.dsarDataStore.findMany({ where: { subjectTypes: { has: request.subjectType } }, orderBy: { id: 'asc' } });
    const clockOf = (c: Clock): Clock => ({ amount: c.amount, unit: c.unit, rule: c.rule, source: c.source });
    return {
      asOf: ctx.now.toISOString(),
      request,
      regulator: applied.regime.regulator,
      kindSource: applied.kindSource,
      clock: clockOf(applied.clock),
      applicableFrom: applied.applicableFrom.date,
      extension: applied.extension ? clockOf(applied.extension) : null,
      receiptConfirmation: applied.receiptConfirmation ? clockOf(applied.receiptConfirmation) : null,
      atRiskDays: applied.atRiskDays,
      answer: { title: applied.regime.answer.title, source: applied.regime.answer.source, includes: [...applied.regime.answer.includes] },
      stores: stores.map((s) => ({ id: s.id, name: s.name, system: s.system, categories: [...s.categories] })),
    };
  },
  decide(_input, facts, r: typeof rules) {
    const q = facts.request;
    const received = dateOf(new Date(q.receivedAt));
    // No statutory due date: received before the regime applied, or the law fixes no period for the kind.
    const { amount, unit } = facts.clock;
    const dueDate =
      (facts.applicableFrom !== undefined && received < facts.applicableFrom) || amount === null || unit === null
        ? null
        : addToDate(received, amount, unit);
    const ext = facts.extension;
    const extendedDueDate =
      dueDate && q.extendedAt && ext?.amount != null && ext.unit != null ? addToDate(dueDate, ext.amount, ext.unit) : null;
    const effective = extendedDueDate ?? dueDate;
    const daysLeft = effective ? daysBetween(new Date(facts.asOf), effective) : null;
    const closed = q.status === 'fulfilled' || q.status === 'rejected';
    const state = closed
      ? 'closed'
      : daysLeft === null
        ? 'no_deadline'
        : daysLeft < 0
          ? 'overdue'
          : daysLeft <= facts.atRiskDays
            ? 'at_risk'
            : 'on_track';
    const action = r.storeActions[q.kind] ?? r.storeActions.access;
    const stores = facts.stores.map((s) => ({
      storeId: s.id,
      name: s.name,
      system: s.system,
      categories: s.categories,
      action: action as string,
    }));
    const nextSteps = [...(r.nextSteps[q.status] ?? [])];
    if (state === 'overdue' || state === 'at_risk') nextSteps.push(r.lateStep);
    return {
      requestId: q.id,
      regime: q.regime,
      regulator: facts.regulator,
      kind: q.kind,
      kindSource: facts.kindSource,
      receivedAt: q.receivedAt,
      sla: {
        dueDate,
        rule: facts.clock.rule,
        source: facts.clock.source,
        extendedDueDate,
        extensionAvailable: ext?.amount != null && ext.unit != null ? `${ext.amount} ${ext.unit.replace('_', ' ')}` : null,
        receiptConfirmationDate:
          dueDate && facts.receiptConfirmation?.amount != null && facts.receiptConfirmation.unit != null
            ? addToDate(received, facts.receiptConfirmation.amount, facts.receiptConfirmation.unit)
            : null,
        daysLeft,
        state: state as 'on_track' | 'at_risk' | 'overdue' | 'closed' | 'no_deadline',
      },
      priority: r.priority[state] ?? 'normal',
      stores,
      packet: {
        title: facts.answer.title,
        source: facts.answer.source,
        sections: [
          {
            heading: 'The request',
            content: fill(r.packetIntro, { received, stores: stores.map((s) => s.name).join(', ') || 'none declared' }),
          },
          ...facts.answer.includes.map((heading) => ({ heading, content: r.packetSection })),
        ],
      },
      signOff: { required: true, role: r.signOff[q.regime] ?? 'data protection officer', reason: r.signOffReason },
      nextSteps,
    };
  },
  fromEvent: (event) => (event.kind.startsWith('dsar.') && event.entity?.startsWith('dsr_') ? { requestId: event.entity } : null),
});
