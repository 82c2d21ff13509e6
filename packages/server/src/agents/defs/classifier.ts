import { classifierAgents } from '@svc/contract';
import type { z } from 'zod';
import type { Changelog } from '../../content/changesets.ts';
import { compareSemver } from '../../content/framework-schema.ts';
import type { Tx } from '../../db/client.ts';
import { scopeToTenant } from '../../db/tenant-scope.ts';
import { ApiError } from '../../errors.ts';
import {
  type Classification,
  type ClassifierFacts,
  type ClassifierRules,
  citedClauses,
  classifierRules,
  classify,
  type Description,
  type Segment,
  timelineOf,
} from '../classifier/engine.ts';
import { type AgentDef, defineAgent } from '../types.ts';

/**
 * The EU AI Act classifier. `gather` reads the pinned `eu-ai-act` dictionary (the clauses the
 * rules can cite and their obligations) and, for a `systemId`, the tenant's declared system
 * profile; `decide` matches the description against the rule set and derives the class, the
 * clauses and the obligations (see ../classifier/engine.ts).
 */

type Input = z.infer<typeof classifierAgents.classifier.input>;

const DICTIONARY = 'eu-ai-act';
const PROFILE_FLAGS = [
  'interactsWithPeople',
  'generatesSyntheticContent',
  'emotionRecognition',
  'biometricCategorisation',
  'deepFake',
  'publicInterestText',
  'generalPurposeModel',
] as const;

const refused = (field: string, message: string) =>
  new ApiError('validation_failed', message, [{ field, issue: 'invalid_value', message }]);

/** The description the rules read: the request's texts, then the profile's, each kept apart so that no phrase spans two of them. */
export function describeSystem(input: Input, facts: ClassifierFacts): Description {
  const segments: Segment[] = [];
  const add = (source: Segment['source'], text: string | null | undefined) => {
    if (text && text.trim().length > 0) segments.push({ source, text });
  };
  add('name', input.aiSystem?.name);
  add('purpose', input.aiSystem?.purpose);
  add('purpose', input.purpose);
  for (const p of input.affectedPersons ?? []) add('persons', p);
  for (const p of input.aiSystem?.intendedUsers ?? []) add('persons', p);
  if (facts.profile) {
    add('systemProfile', facts.profile.name);
    add('systemProfile', facts.profile.purpose);
    add('systemProfile', facts.profile.deployerContext);
  }
  return {
    segments,
    flags: facts.profile?.flags ?? [],
    providerKind: input.aiSystem?.providerKind ?? null,
    deployerType: input.aiSystem?.deployerType ?? null,
    trainingComputeFlops: input.trainingComputeFlops ?? null,
  };
}

export const classifierAgent = defineAgent({
  spec: classifierAgents.classifier,
  ruleSet: { id: classifierRules.id, version: classifierRules.version, rules: classifierRules },
  dictionaryVersion: (ctx) => ctx.versionOf(DICTIONARY),
  async gather(ctx, input): Promise<ClassifierFacts> {
    // The schema's refinement already asks for one of these; a caller that bypasses it still gets a 422.
    if (input.aiSystem === undefined && input.purpose === undefined && input.systemId === undefined) {
      throw refused('purpose', 'Give aiSystem (with its purpose), purpose or systemId: the classifier needs a description to read.');
    }
    if (input.applicableFrameworks && input.applicableFrameworks.length > 0) {
      const ids = [...new Set(input.applicableFrameworks)].sort();
      const known = new Set((await ctx.prisma.framework.findMany({ where: { id: { in: ids } }, select: { id: true } })).map((f) => f.id));
      const unknown = ids.filter((id) => !known.has(id));
      if (unknown.length > 0) throw refused('applicableFrameworks', `Unknown framework id(s): ${unknown.join(', ')}.`);
    }
    let profile: ClassifierFacts['profile'] = null;
    if (input.systemId !== undefined) {
      const row = await scopeToTenant(ctx.prisma, ctx.tenantId).publicDisclosureProfile.findFirst({
        where: { systemId: input.systemId },
      });
      if (!row) throw new ApiError('not_found', `AI system ${input.systemId} was not found.`);
      profile = {
        systemId: row.systemId,
        name: row.name,
        purpose: row.purpose,
        deployerContext: row.deployerContext,
        flags: PROFILE_FLAGS.filter((f) => row[f]),
      };
    }
    // The pinned dictionary's version key is `<id>@<version>`, as versionOf renders it.
    const versionKey = ctx.versionOf(DICTIONARY);
    // The day, not the instant: whether a date has passed is all decide asks, and the same request on
    // the same day then gives the same facts and the same decision hash. A caller may ask as of another day.
    const asOf = input.asOf ?? ctx.now.toISOString().slice(0, 10);
    const refs = citedClauses(classifierRules);
    const [clauses, obligations, timeline] = await Promise.all([
      ctx.prisma.frameworkClause.findMany({
        where: { versionKey, ref: { in: refs } },
        orderBy: { ord: 'asc' },
        select: { ref: true, title: true },
      }),
      ctx.prisma.frameworkObligation.findMany({
        // What the law imposes today: a provision repealed on or before today is not listed.
        where: {
          versionKey,
          clauseRef: { in: refs },
          OR: [{ applicableUntil: null }, { applicableUntil: { gt: new Date(`${asOf}T00:00:00.000Z`) } }],
        },
        orderBy: { id: 'asc' },
      }),
      timelineFor(ctx.prisma, versionKey),
    ]);
    return {
      asOf,
      dictionary: versionKey,
      timeline,
      clauses,
      obligations: obligations.map((o) => ({
        id: o.id,
        title: o.title,
        clauseRef: o.clauseRef,
        actor: o.actor,
        applicableFrom: o.applicableFrom.toISOString().slice(0, 10),
      })),
      profile,
    };
  },
  decide(input, facts, rules: ClassifierRules): Classification {
    return classify(describeSystem(input, facts), facts, rules);
  },
});

// biome-ignore lint/suspicious/noExplicitAny: the runtime keeps agents of every spec and facts type in one list.
export const agents: AgentDef<any, any>[] = [classifierAgent];

/**
 * The classes' dates as the dictionary's versions up to `versionKey` state them. Versions are
 * immutable (a change is a new version), so each key's timeline is read once per process.
 */
const timelines = new Map<string, Promise<ClassifierFacts['timeline']>>();

function timelineFor(prisma: Tx, versionKey: string): Promise<ClassifierFacts['timeline']> {
  let t = timelines.get(versionKey);
  if (!t) {
    t = (async () => {
      const pinned = versionKey.split('@')[1] ?? '';
      const rules = classifierRules as ClassifierRules;
      const anchors = Object.values(rules.dates).map((d) => d.clause);
      const [versions, anchored] = await Promise.all([
        prisma.frameworkVersion.findMany({ where: { frameworkId: DICTIONARY } }),
        prisma.frameworkObligation.findMany({
          where: { versionKey: { startsWith: `${DICTIONARY}@` }, clauseRef: { in: anchors } },
          select: { versionKey: true, clauseRef: true, applicableFrom: true, applicableUntil: true },
        }),
      ]);
      const day = (d: Date) => d.toISOString().slice(0, 10);
      const history = versions
        .filter((v) => compareSemver(v.version, pinned) <= 0)
        .sort((a, b) => compareSemver(a.version, b.version))
        .map((v) => ({
          version: v.version,
          publishedAt: day(v.publishedAt),
          amendingAct: (v.changelog as Changelog | null)?.amendingAct ?? null,
          obligations: anchored
            .filter((o) => o.versionKey === v.key)
            .map((o) => ({
              clauseRef: o.clauseRef,
              applicableFrom: day(o.applicableFrom),
              applicableUntil: o.applicableUntil ? day(o.applicableUntil) : null,
            })),
        }));
      return timelineOf(rules.dates, history);
    })();
    t.catch(() => timelines.delete(versionKey));
    timelines.set(versionKey, t);
  }
  return t;
}
