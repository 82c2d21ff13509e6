import { groupBAgents } from '@svc/contract';
import { scopeToTenant } from '../../db/tenant-scope.ts';
import { defineAgent } from '../types.ts';
import { cmp, notFound, round } from './common.ts';
import { type ClassificationRules, classificationRules, classify } from './data-classifier.ts';

/**
 * The data mapper: the tenant's declared data stores (the dsar rail) and sub-processors (the trust
 * page), classified with the data-classification dictionary, weighted into hot spots, joined by the
 * declared flows and the flows the kind rules infer, and each edge checked for a border crossing.
 */

type Volume = 'low' | 'medium' | 'high';
const rules = {
  classification: classificationRules,
  levelWeights: { public: 0, internal: 1, confidential: 3, restricted: 4, regulated: 5 } as Record<string, number>,
  volumeWeights: { low: 1, medium: 2, high: 3 } as Record<Volume, number>,
  /** How many records a store of each kind holds, roughly, when the input does not say. */
  volumeByKind: {
    database: 'high',
    data_warehouse: 'high',
    backup: 'high',
    crm: 'medium',
    saas: 'medium',
    email: 'medium',
    file_store: 'medium',
    other: 'low',
  } as Record<string, Volume>,
  /** Weight of each kind of data subject; a store's weight is the sum over the kinds it holds. */
  subjectWeights: { customer: 1, user: 1, prospect: 1, 'supplier-contact': 0.5, employee: 1.5, candidate: 1.5, other: 1 } as Record<
    string,
    number
  >,
  /** Flows assumed without a declaration: a store of `to` kind is fed by stores of the `from` kinds that share a category. */
  inferredFlows: [
    { to: 'data_warehouse', from: ['database', 'crm', 'saas', 'file_store'] },
    { to: 'backup', from: ['database', 'crm', 'saas', 'file_store', 'data_warehouse', 'email'] },
  ],
  /** Destinations the origin's law treats as adequate, per origin jurisdiction. */
  adequate: {
    eu: ['ad', 'ar', 'ca', 'ch', 'fo', 'gb', 'gg', 'il', 'im', 'je', 'jp', 'kr', 'nz', 'uy', 'us'],
    gb: ['eu', 'ad', 'ar', 'ca', 'ch', 'fo', 'gg', 'il', 'im', 'je', 'jp', 'kr', 'nz', 'uy', 'us'],
  } as Record<string, string[]>,
  mechanisms: {
    adequate: { eu: 'Adequacy decision (GDPR Art. 45)', gb: 'UK adequacy regulations (UK GDPR Art. 45, DPA 2018 s.17A)' } as Record<
      string,
      string
    >,
    safeguards: {
      eu: 'Standard contractual clauses (GDPR Art. 46(2)(c)) with a transfer impact assessment',
      gb: 'International data transfer agreement or the UK addendum to the SCCs (UK GDPR Art. 46)',
      br: 'Standard contractual clauses of the ANPD (LGPD Art. 33(II)(b))',
      in: 'Check the countries restricted by notification under DPDP Act s.16',
    } as Record<string, string>,
    other: 'Document the transfer and the safeguard the origin’s law requires',
  },
};

interface Facts {
  homeRegion: string;
  stores: { id: string; name: string; system: string; kind: string; categories: string[]; subjectTypes: string[] }[];
  subProcessors: { id: string; name: string; region: string }[];
}

const jurisdictionOf = (region: string) => (region.split('/')[0] ?? region).toLowerCase();

export const dataMapper = defineAgent({
  spec: groupBAgents.dataMapper,
  ruleSet: { id: 'data-mapper-rules', version: '1.0.0', rules },
  dictionaryVersion: (ctx) => ctx.versionOf('gdpr'),
  async gather(ctx, input): Promise<Facts> {
    const db = scopeToTenant(ctx.prisma, ctx.tenantId);
    const [tenant, stores, subs] = await Promise.all([
      ctx.prisma.tenant.findUnique({ where: { id: ctx.tenantId }, select: { region: true } }),
      db.dsarDataStore.findMany({ orderBy: { id: 'asc' } }),
      db.trustSubProcessor.findMany({ orderBy: { id: 'asc' } }),
    ]);
    const known = new Set([...stores.map((s) => s.id), ...subs.map((s) => s.id)]);
    for (const s of input.stores ?? []) if (!stores.some((x) => x.id === s.storeId)) throw notFound('Data store', s.storeId);
    for (const f of input.flows ?? [])
      for (const end of [f.from, f.to]) if (!known.has(end)) throw notFound('Data store or sub-processor', end);
    return {
      homeRegion: tenant?.region ?? 'eu',
      stores: stores.map((s) => ({
        id: s.id,
        name: s.name,
        system: s.system,
        kind: s.kind,
        categories: [...s.categories].sort(cmp),
        subjectTypes: [...s.subjectTypes].sort(cmp),
      })),
      subProcessors: subs.map((s) => ({ id: s.id, name: s.name, region: s.region })),
    };
  },
  decide(input, facts, r: typeof rules) {
    const given = new Map((input.stores ?? []).map((s) => [s.storeId, s]));
    const levelOf = (categories: string[]) => {
      const levels = categories.map((c) => classify(r.classification as ClassificationRules, 'eu', { name: c }).level);
      return levels.reduce((a, b) => ((r.levelWeights[b] ?? 0) > (r.levelWeights[a] ?? 0) ? b : a), 'public' as (typeof levels)[number]);
    };
    const stores = facts.stores.map((s) => {
      const volume: Volume = given.get(s.id)?.volume ?? r.volumeByKind[s.kind] ?? 'low';
      const region = given.get(s.id)?.region ?? facts.homeRegion;
      const level = levelOf(s.categories);
      const subjects = s.subjectTypes.reduce((n, t) => n + (r.subjectWeights[t] ?? 1), 0);
      const risk = round((r.levelWeights[level] ?? 0) * r.volumeWeights[volume] * subjects, 2);
      return { ...s, volume, region, level, risk };
    });
    const hotspots = [...stores]
      .sort((a, b) => b.risk - a.risk || cmp(a.id, b.id))
      .map((s, i) => ({
        rank: i + 1,
        storeId: s.id,
        name: s.name,
        region: s.region,
        level: s.level,
        categories: s.categories,
        volume: s.volume,
        subjectTypes: s.subjectTypes,
        risk: s.risk,
      }));

    const regionOf = new Map<string, string>([
      ...stores.map((s) => [s.id, s.region] as const),
      ...facts.subProcessors.map((s) => [s.id, s.region] as const),
    ]);
    const categoriesOf = new Map(stores.map((s) => [s.id, s.categories]));
    const edges = new Map<string, { from: string; to: string; origin: 'declared' | 'inferred'; categories: string[] }>();
    for (const f of input.flows ?? []) {
      const shared = (categoriesOf.get(f.from) ?? []).filter((c) => !categoriesOf.has(f.to) || (categoriesOf.get(f.to) ?? []).includes(c));
      edges.set(`${f.from}>${f.to}`, {
        from: f.from,
        to: f.to,
        origin: 'declared',
        categories: [...new Set(f.categories ?? shared)].sort(cmp),
      });
    }
    for (const rule of r.inferredFlows)
      for (const to of stores.filter((s) => s.kind === rule.to))
        for (const from of stores.filter((s) => s.id !== to.id && rule.from.includes(s.kind))) {
          const shared = from.categories.filter((c) => to.categories.includes(c));
          const key = `${from.id}>${to.id}`;
          if (shared.length > 0 && !edges.has(key)) edges.set(key, { from: from.id, to: to.id, origin: 'inferred', categories: shared });
        }
    const edgeList = [...edges.values()]
      .sort((a, b) => cmp(a.from, b.from) || cmp(a.to, b.to))
      .map((e) => {
        const fromRegion = regionOf.get(e.from) ?? facts.homeRegion;
        const toRegion = regionOf.get(e.to) ?? facts.homeRegion;
        return { ...e, fromRegion, toRegion, crossBorder: jurisdictionOf(fromRegion) !== jurisdictionOf(toRegion) };
      });
    const crossBorder = edgeList
      .filter((e) => e.crossBorder)
      .map((e) => {
        const origin = jurisdictionOf(e.fromRegion);
        const adequate = (r.adequate[origin] ?? []).includes(jurisdictionOf(e.toRegion));
        const mechanism = adequate
          ? (r.mechanisms.adequate[origin] ?? r.mechanisms.other)
          : (r.mechanisms.safeguards[origin] ?? r.mechanisms.other);
        return { from: e.from, to: e.to, fromRegion: e.fromRegion, toRegion: e.toRegion, mechanism };
      });

    const holders = new Map<string, string[]>();
    for (const s of stores) for (const c of s.categories) holders.set(c, [...(holders.get(c) ?? []), s.id]);
    const concentration = [...holders.entries()]
      .map(([category, ids]) => ({ category, stores: ids.length, storeIds: ids }))
      .sort((a, b) => b.stores - a.stores || cmp(a.category, b.category));

    return { homeRegion: facts.homeRegion, stores: stores.length, hotspots, edges: edgeList, crossBorder, concentration };
  },
});
