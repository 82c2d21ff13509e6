import { groupAAgents, type IncidentRegime } from '@svc/contract';
import { computeClocks, regimeRules, type SubmissionRecord } from '../../rails/incident-disclosures/clocks.ts';
import { defineAgent } from '../types.ts';
import { attr, cmp, eventMatches, invalid, iso, notFound, sortedUnique, tenantDb } from './shared.ts';

/**
 * incident-reporter: the notifications an incident owes per regime and stage. The deadlines are
 * the incident-disclosures rail's clocks (rails/incident-disclosures/clocks.ts); the fields each stage
 * requires, their labels and the draft's layout are the rules.
 */

const regimes = regimeRules().regimes.map((r) => ({
  id: r.id,
  title: r.title,
  authority: r.authority,
  stages: r.stages.map((s) => ({ id: s.id, title: s.title, fields: [...s.fields] })),
}));

export const rules = {
  /** Every regime's stages and the fields a regulator asks for at each (content/incident-disclosures/regimes.json). */
  regimes,
  /** What each field asks for, as the notification forms word it. */
  fieldLabels: {
    nature: 'Nature of the incident or breach',
    description: 'Description of the incident',
    categoriesOfDataSubjects: 'Categories of data subjects concerned',
    approximateDataSubjects: 'Approximate number of data subjects concerned',
    approximateRecords: 'Approximate number of personal-data records concerned',
    contactPoint: 'Name and contact details of the data protection officer or other contact point',
    likelyConsequences: 'Likely consequences of the breach',
    measures: 'Measures taken or proposed to address the incident and mitigate its effects',
    suspectedMalicious: 'Whether the incident is suspected of being caused by unlawful or malicious acts',
    crossBorderImpact: 'Whether the incident could have a cross-border impact',
    severity: 'Initial assessment of severity',
    impact: 'Impact on services, people or data',
    indicatorsOfCompromise: 'Indicators of compromise',
    rootCause: 'Type of threat or root cause',
    classificationCriteria: 'Classification criteria met (DORA major incident)',
    systemId: 'The AI system concerned',
  } as Record<string, string>,
  /** Placeholder written in a draft for a field still to establish. */
  placeholder: '[to be completed]',
  /** Clock states that still call for a draft to be sent. */
  openStates: ['pending', 'late'],
};

interface Facts {
  asOf: string;
  incident: {
    id: string | null;
    title: string | null;
    knownAt: string;
    classifiedMajorAt: string | null;
    regimes: string[];
    factors: Record<string, boolean>;
    facts: Record<string, unknown>;
    submissions: SubmissionRecord[];
  };
  /** The tenant's notification channels: the authority a draft is addressed to. */
  channels: { id: string; regime: string; name: string }[];
}

const filled = (v: unknown) => v !== undefined && v !== null && v !== '' && !(Array.isArray(v) && v.length === 0);
const show = (v: unknown) => (Array.isArray(v) ? v.join(', ') : typeof v === 'boolean' ? (v ? 'yes' : 'no') : String(v));

export const incidentReporter = defineAgent({
  spec: groupAAgents.incidentReporter,
  ruleSet: { id: 'incident-reporter-rules', version: '1.0.0', rules },
  dictionaryVersion: (ctx, input) => {
    const regime = input.regime ?? 'gdpr';
    return ctx.versionOf(regime === 'uk-gdpr' ? 'uk-gdpr' : regime);
  },
  async gather(ctx, input): Promise<Facts> {
    const db = tenantDb(ctx);
    const channels = (await db.incidentChannel.findMany({ orderBy: { id: 'asc' } })).map((c) => ({
      id: c.id,
      regime: c.regime,
      name: c.name,
    }));
    const asOf = ctx.now.toISOString();
    if (input.incidentId) {
      const row = await db.incidentDisclosure.findFirst({ where: { id: input.incidentId } });
      if (!row) throw notFound(`Incident disclosure ${input.incidentId} was not found.`, 'incidentId');
      if (input.regime && !row.regimes.includes(input.regime))
        throw invalid('regime', `Incident ${row.id} is not disclosed under ${input.regime}; its regimes are ${row.regimes.join(', ')}.`);
      return {
        asOf,
        channels,
        incident: {
          id: row.id,
          title: row.title,
          knownAt: iso(row.knownAt) as string,
          classifiedMajorAt: iso(row.classifiedMajorAt),
          regimes: input.regime ? [input.regime] : [...row.regimes],
          factors: (row.factors ?? {}) as Record<string, boolean>,
          facts: (row.facts ?? {}) as Record<string, unknown>,
          submissions: (row.submissions ?? []) as unknown as SubmissionRecord[],
        },
      };
    }
    const knownAt = input.knownAt ?? asOf;
    if (Date.parse(knownAt) > ctx.now.getTime()) throw invalid('knownAt', 'knownAt cannot be in the future.');
    return {
      asOf,
      channels,
      incident: {
        id: null,
        title: null,
        knownAt: new Date(knownAt).toISOString(),
        classifiedMajorAt: null,
        regimes: [input.regime as string],
        factors: input.factors ?? {},
        facts: input.facts ?? {},
        submissions: [],
      },
    };
  },
  decide(_input, facts, r: typeof rules) {
    const inc = facts.incident;
    const clocks = computeClocks(
      {
        regimes: inc.regimes as IncidentRegime[],
        knownAt: new Date(inc.knownAt),
        classifiedMajorAt: inc.classifiedMajorAt ? new Date(inc.classifiedMajorAt) : null,
        factors: inc.factors,
        submissions: inc.submissions,
      },
      new Date(facts.asOf),
    );
    const notifications = clocks.flatMap((clock) => {
      const regime = r.regimes.find((x) => x.id === clock.regime);
      const stage = regime?.stages.find((s) => s.id === clock.stage);
      if (!regime || !stage) return [];
      const authority = facts.channels.find((c) => c.regime === regime.id)?.name ?? regime.authority;
      const fields = stage.fields.map((field) => {
        const value = inc.facts[field];
        return { field, label: r.fieldLabels[field] ?? field, value: filled(value) ? value : null, filled: filled(value) };
      });
      const missing = fields.filter((f) => !f.filled).map((f) => f.field);
      const body = [
        `${regime.title}: ${stage.title}`,
        `To: ${authority}`,
        inc.title ? `Incident: ${inc.title}${inc.id ? ` (${inc.id})` : ''}` : null,
        `Became known: ${inc.knownAt}`,
        `Due: ${clock.dueAt ?? 'without undue delay'} (${clock.source})`,
        '',
        ...fields.map((f) => `${f.label}: ${f.filled ? show(f.value) : r.placeholder}`),
      ]
        .filter((l) => l !== null)
        .join('\n');
      return [
        {
          regime: clock.regime,
          stage: clock.stage,
          title: stage.title,
          authority,
          dueAt: clock.dueAt,
          state: clock.state,
          source: clock.source,
          fields,
          missing,
          body,
        },
      ];
    });
    const open = notifications
      .filter((n) => n.dueAt && r.openStates.includes(n.state))
      .sort((a, b) => cmp(a.dueAt as string, b.dueAt as string));
    const next = open[0];
    return {
      incident: { id: inc.id, title: inc.title, knownAt: inc.knownAt },
      notifications,
      next: next ? { regime: next.regime, stage: next.stage, dueAt: next.dueAt as string } : null,
      missing: sortedUnique(
        notifications.filter((n) => r.openStates.includes(n.state) || n.state === 'no_deadline').flatMap((n) => n.missing),
      ),
    };
  },
  fromEvent(event) {
    if (!eventMatches(event, 'incident.')) return null;
    const incidentId = attr(event, 'incidentId') ?? event.entity;
    return incidentId?.startsWith('idc_') ? { incidentId } : null;
  },
});
