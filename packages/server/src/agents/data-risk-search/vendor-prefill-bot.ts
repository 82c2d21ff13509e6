import { groupBAgents } from '@svc/contract';
import { scopeToTenant } from '../../db/tenant-scope.ts';
import { defineAgent } from '../types.ts';
import { byId, cmp, invalid, notFound, wordsOf } from './common.ts';

/**
 * The vendor pre-fill bot: each question matched to the tenant's evidence, by the control it names
 * (the evidence cites it) or by its keywords (found in the evidence's title, description, kind and
 * the titles of the controls it cites); answered when valid evidence supports it, else a gap.
 */

const rules = {
  /** Words that say nothing about the subject of a question. */
  stopWords: [
    'a',
    'an',
    'and',
    'any',
    'are',
    'as',
    'at',
    'be',
    'by',
    'can',
    'do',
    'does',
    'for',
    'from',
    'have',
    'has',
    'how',
    'in',
    'is',
    'it',
    'of',
    'on',
    'or',
    'that',
    'the',
    'their',
    'this',
    'to',
    'we',
    'what',
    'when',
    'which',
    'who',
    'with',
    'you',
    'your',
    'our',
    'all',
    'there',
    'describe',
    'provide',
    'please',
    'organisation',
    'organization',
    'company',
    'data',
  ],
  minWordLength: 3,
  /** Two words match when they share this many leading letters (encrypt, encryption, encrypted). */
  stemLength: 5,
  /** Keywords a piece of evidence must share with a question to support it (fewer when the question has fewer). */
  minKeywordHits: 2,
  synonyms: {
    mfa: ['multi-factor', 'authentication'],
    '2fa': ['multi-factor', 'authentication'],
    sso: ['single', 'sign-on', 'authentication'],
    backup: ['backups', 'recovery'],
    bcp: ['continuity'],
    dr: ['disaster', 'recovery'],
    pentest: ['penetration', 'test'],
    dpia: ['impact', 'assessment'],
  } as Record<string, string[]>,
  answers: {
    control: 'Yes. Supported by: {evidence}.',
    keyword: 'Yes, to the extent shown by: {evidence}.',
    expired: 'Evidence exists but has expired: {evidence}; renew it before answering.',
  },
  gaps: {
    none: 'No evidence cites the control or shares enough keywords with the question.',
    expired: 'The only supporting evidence has expired.',
    weak: 'Only keyword matches support the answer; confirm it or attach evidence citing a control.',
  },
  templates: {
    baseline: [
      { id: 'sec-1', question: 'Do you encrypt customer data at rest and in transit?' },
      { id: 'sec-2', question: 'Do you enforce multi-factor authentication for administrative access?' },
      { id: 'sec-3', question: 'Do you run penetration tests at least yearly?' },
      { id: 'sec-4', question: 'Do you have an incident response plan and notify customers of breaches?' },
      { id: 'prv-1', question: 'Do you keep a record of processing and a retention schedule for personal data?' },
      { id: 'prv-2', question: 'Do you list your sub-processors and their locations?' },
      { id: 'res-1', question: 'Do you back up data and test recovery?' },
      { id: 'res-2', question: 'Do you maintain a business continuity plan?' },
      { id: 'cmp-1', question: 'Do you hold a current ISO 27001 certification or SOC 2 report?' },
      { id: 'cmp-2', question: 'Do you train staff on security and privacy every year?' },
    ],
  } as Record<string, { id: string; question: string; control?: string }[]>,
};

interface Facts {
  asOf: string;
  vendor: { id: string; name: string } | null;
  evidence: {
    id: string;
    title: string;
    description: string | null;
    kind: string;
    controlIds: string[];
    collectedAt: string;
    expiresAt: string | null;
  }[];
  controls: { id: string; title: string }[];
}

const fill = (t: string, vars: Record<string, string>) => t.replace(/\{(\w+)\}/g, (_, k: string) => vars[k] ?? '');

export const vendorPrefillBot = defineAgent({
  spec: groupBAgents.vendorPrefillBot,
  ruleSet: { id: 'vendor-prefill-bot-rules', version: '1.0.0', rules },
  dictionaryVersion: (ctx) => ctx.versionOf('iso-iec-27001'),
  async gather(ctx, input): Promise<Facts> {
    if (!input.questionnaire && !input.template)
      throw invalid('questionnaire', 'Give `questionnaire` (the questions) or `template`.', 'missing');
    const db = scopeToTenant(ctx.prisma, ctx.tenantId);
    let vendor: Facts['vendor'] = null;
    if (input.vendorId !== undefined) {
      const row = await db.vendorRiskVendor.findFirst({ where: { id: input.vendorId }, select: { id: true, name: true } });
      if (!row) throw notFound('Vendor', input.vendorId);
      vendor = row;
    }
    const evidence = await db.evidence.findMany({ orderBy: { id: 'asc' } });
    const ids = [
      ...new Set([...evidence.flatMap((e) => e.controlIds), ...(input.questionnaire ?? []).flatMap((q) => (q.control ? [q.control] : []))]),
    ];
    const controls = await ctx.prisma.frameworkControl.findMany({
      where: { id: { in: ids } },
      select: { id: true, title: true, versionKey: true },
    });
    // One title per control id: that of the latest version key, so the facts do not depend on row order.
    const titles = new Map<string, { key: string; title: string }>();
    for (const c of controls) {
      const had = titles.get(c.id);
      if (!had || cmp(c.versionKey, had.key) > 0) titles.set(c.id, { key: c.versionKey, title: c.title });
    }
    return {
      asOf: ctx.now.toISOString(),
      vendor,
      evidence: evidence.map((e) => ({
        id: e.id,
        title: e.title,
        description: e.description,
        kind: e.kind,
        controlIds: [...e.controlIds].sort(cmp),
        collectedAt: e.collectedAt.toISOString(),
        expiresAt: e.expiresAt?.toISOString() ?? null,
      })),
      controls: [...titles.entries()].map(([id, v]) => ({ id, title: v.title })).sort(byId),
    };
  },
  decide(input, facts, r: typeof rules) {
    const questions = input.questionnaire ?? r.templates[input.template ?? ''] ?? [];
    const titleOf = new Map(facts.controls.map((c) => [c.id, c.title]));
    const stem = (w: string) => w.slice(0, r.stemLength);
    const keywordsOf = (text: string) => {
      const words = wordsOf(text).filter((w) => w.length >= r.minWordLength && !r.stopWords.includes(w));
      return [...new Set(words.flatMap((w) => [w, ...(r.synonyms[w] ?? []).flatMap(wordsOf)]).map(stem))];
    };
    const evidence = facts.evidence.map((e) => ({
      ...e,
      valid: e.expiresAt === null || e.expiresAt > facts.asOf,
      stems: new Set(keywordsOf([e.title, e.description ?? '', e.kind, ...e.controlIds.map((c) => titleOf.get(c) ?? '')].join(' '))),
    }));
    const label = (e: (typeof evidence)[number]) => `${e.title} (collected ${e.collectedAt.slice(0, 10)})`;

    const answers = questions.map((q) => {
      const keys = keywordsOf(q.question);
      const need = Math.min(r.minKeywordHits, Math.max(1, keys.length));
      const byControl = q.control ? evidence.filter((e) => e.controlIds.includes(q.control as string)) : [];
      const byKeyword = evidence
        .filter((e) => !byControl.includes(e))
        .map((e) => ({ e, hits: keys.filter((k) => e.stems.has(k)).length }))
        .filter((x) => x.hits >= need)
        .sort((a, b) => b.hits - a.hits || cmp(a.e.id, b.e.id))
        .map((x) => x.e);
      const matched = [
        ...byControl.map((e) => ({ e, match: 'control' as const })),
        ...byKeyword.map((e) => ({ e, match: 'keyword' as const })),
      ];
      const valid = matched.filter((m) => m.e.valid);
      const validControl = valid.some((m) => m.match === 'control');
      const status =
        valid.length === 0
          ? matched.length > 0
            ? 'partial'
            : 'unanswered'
          : validControl
            ? 'answered'
            : keys.length > 0
              ? 'answered'
              : 'partial';
      const confidence = validControl ? 'high' : valid.length > 0 ? 'medium' : matched.length > 0 ? 'low' : 'none';
      const answer =
        valid.length > 0
          ? fill(validControl ? r.answers.control : r.answers.keyword, { evidence: valid.map((m) => label(m.e)).join('; ') })
          : matched.length > 0
            ? fill(r.answers.expired, { evidence: matched.map((m) => label(m.e)).join('; ') })
            : null;
      const controls = [...new Set([...(q.control ? [q.control] : []), ...valid.flatMap((m) => m.e.controlIds)])].sort(cmp);
      const gap = valid.length === 0 ? (matched.length > 0 ? r.gaps.expired : r.gaps.none) : validControl ? null : r.gaps.weak;
      return {
        row: {
          questionId: q.id,
          status: status as 'answered' | 'partial' | 'unanswered',
          answer,
          controls,
          evidence: matched.map((m) => ({ evidenceId: m.e.id, title: m.e.title, match: m.match })),
          confidence: confidence as 'high' | 'medium' | 'low' | 'none',
        },
        gap: gap && confidence !== 'high' ? { questionId: q.id, question: q.question, reason: gap } : null,
      };
    });
    const answered = answers.filter((a) => a.row.status === 'answered').length;
    return {
      vendorId: facts.vendor?.id ?? null,
      answered,
      unanswered: answers.length - answered,
      coverage: answers.length > 0 ? Math.round((answered / answers.length) * 10_000) / 10_000 : 0,
      answers: answers.map((a) => a.row),
      // Keyword-only answers stay answered but are listed for confirmation, with the unanswered and partial ones.
      gaps: answers.flatMap((a) => (a.gap ? [a.gap] : [])),
    };
  },
  fromEvent: (event) =>
    event.kind.startsWith('vendor.') && event.entity?.startsWith('vnd_') ? { vendorId: event.entity, template: 'baseline' as const } : null,
});
