import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ClassifierFacts,
  type ClassifierRules,
  citedClauses,
  classifierRules,
  timelineOf,
} from '../packages/server/src/agents/classifier/engine.ts';
import { classifierAgent } from '../packages/server/src/agents/defs/classifier.ts';
import { compareSemver, type FrameworkContent, readFrameworkContent } from '../packages/server/src/content/frameworks.ts';
import { createTenant, expectEnvelope, type TenantFixture } from './support/api.ts';
import { startTestServer, type TestServer } from './support/server.ts';

/**
 * The EU AI Act classifier. The labelled set (test/fixtures/classifier-labelled.json) holds
 * plain-language descriptions a reviewer classified by hand; every one goes through `decide` with
 * the facts `gather` would read from the shipped dictionary, and the accuracy per class is printed
 * and must stay at or above 0.9, with every prohibited practice caught. The HTTP half posts both
 * request forms, the short route, a system profile of the tenant, and replays a decision.
 */

type Json = Record<string, any>;
type Level = 'prohibited' | 'high' | 'gpai' | 'limited' | 'minimal';
interface Item {
  text: string;
  affectedPersons?: string[];
  expected: Level;
  area?: string;
  note: string;
  batch?: string;
}

const items: Item[] = JSON.parse(readFileSync(new URL('./fixtures/classifier-labelled.json', import.meta.url), 'utf8')).items;
/** Every version of the `eu-ai-act` dictionary, as the server builds them from the shipped file and its changesets. */
const versions = readFrameworkContent()
  .filter((v) => v.content.id === 'eu-ai-act')
  .sort((a, b) => compareSemver(a.content.version, b.content.version));
/** The latest version: the one a new tenant's decisions use. */
const dictionary = versions.at(-1)?.content as FrameworkContent;
/** The classes' dates as gather reads them from the versions. */
const timeline = timelineOf(
  (classifierRules as ClassifierRules).dates,
  versions.map((v) => ({
    version: v.content.version,
    publishedAt: v.content.publishedAt,
    amendingAct: v.changelog?.amendingAct ?? null,
    obligations: v.content.obligations,
  })),
);

/** The facts gather reads from the `eu-ai-act` dictionary, built here from the shipped file. */
function dictionaryFacts(): ClassifierFacts {
  const refs = new Set(citedClauses(classifierRules));
  return {
    asOf: '2026-11-24',
    dictionary: `eu-ai-act@${dictionary.version}`,
    timeline,
    clauses: dictionary.clauses.filter((c: Json) => refs.has(c.ref)).map((c: Json) => ({ ref: c.ref, title: c.title })),
    obligations: dictionary.obligations
      .filter((o: Json) => refs.has(o.clauseRef) && !o.applicableUntil)
      .map((o: Json) => ({ id: o.id, title: o.title, clauseRef: o.clauseRef, actor: o.actor, applicableFrom: o.applicableFrom }))
      .sort((a: Json, b: Json) => (a.id < b.id ? -1 : 1)),
    profile: null,
  };
}

const decide = (input: Json, facts = dictionaryFacts()) => classifierAgent.decide(input as never, facts, classifierRules) as Json;
const bodyOf = (item: Item): Json => ({ purpose: item.text, ...(item.affectedPersons ? { affectedPersons: item.affectedPersons } : {}) });

describe('classifier: the classes’ dates come from the dictionary', () => {
  it('reads each date from its clause, the date as enacted from the first version, and the amendment’s entry into force', () => {
    expect(timeline.prohibited).toMatchObject({ date: '2025-02-02', amendedFrom: null, asEnacted: null });
    expect(timeline['high-annex-iii']).toMatchObject({ date: '2027-12-02', amendedFrom: '2026-07-27', asEnacted: { date: '2026-08-02' } });
    expect(timeline['high-annex-iii']?.source).toMatch(/as amended by Regulation \(EU\) 2026\/1744 \(in force 2026-07-27\)$/);
    expect(timeline['high-annex-i']).toMatchObject({ date: '2028-08-02', asEnacted: { date: '2027-08-02', source: 'Art. 113(c)' } });
    // A tenant pinned to the version as enacted reads that version alone: no amendment in sight.
    const first = versions[0]?.content as FrameworkContent;
    const pinned = timelineOf((classifierRules as ClassifierRules).dates, [
      { version: first.version, publishedAt: first.publishedAt, amendingAct: null, obligations: first.obligations },
    ]);
    expect(pinned['high-annex-iii']).toEqual({ date: '2026-08-02', source: 'Art. 113', amendedFrom: null, asEnacted: null });
  });

  it('replays a decision made under a rule set that stated its dates itself (before 1.2.0)', () => {
    const oldRules = {
      ...classifierRules,
      dates: { ...classifierRules.dates, 'high-annex-iii': { date: '2026-08-02', source: 'Art. 113' } },
    };
    const { timeline: _read, ...facts } = dictionaryFacts();
    const out = classifierAgent.decide(
      { purpose: 'Screens CVs and ranks job applicants for our recruiters.' } as never,
      facts as never,
      oldRules,
    ) as Json;
    expect(out.appliesFrom).toMatchObject({ date: '2026-08-02', source: 'Art. 113', asEnacted: null });
  });
});

describe('classifier: labelled set through decide', () => {
  it('has at least 60 items covering every class, Annex III area and Art. 5 point', () => {
    expect(items.length).toBeGreaterThanOrEqual(60);
    const areas = new Set(items.map((i) => i.area));
    for (const a of ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']) expect(areas, `art5-${a}`).toContain(`art5-${a}`);
    for (let n = 1; n <= 8; n++) expect(areas, `annex-iii-${n}`).toContain(`annex-iii-${n}`);
    for (const a of ['annex-i', 'art50', 'gpai', 'minimal']) expect(areas).toContain(a);
    expect(new Set(items.map((i) => i.expected))).toEqual(new Set(['prohibited', 'high', 'gpai', 'limited', 'minimal']));
  });

  it('every clause id the rules cite exists in the eu-ai-act dictionary, and every concept a rule names exists', () => {
    const refs = new Set(dictionary.clauses.map((c: Json) => c.ref));
    expect(citedClauses(classifierRules).filter((r) => !refs.has(r))).toEqual([]);
    const concepts = new Set(Object.keys(classifierRules.concepts));
    const named = classifierRules.rules.flatMap((r) => [...(r.all ?? []), ...(r.any ?? []), ...(r.none ?? [])]);
    expect(named.filter((c) => !concepts.has(c))).toEqual([]);
  });

  it('classifies the labelled set with accuracy >= 0.9 overall, and every prohibited practice as prohibited', () => {
    const levels: Level[] = ['prohibited', 'high', 'gpai', 'limited', 'minimal'];
    const stats = Object.fromEntries(levels.map((l) => [l, { n: 0, ok: 0 }])) as Record<Level, { n: number; ok: number }>;
    let ok = 0;
    let areaOk = 0;
    let areaN = 0;
    const misses: string[] = [];
    for (const item of items) {
      const out = decide(bodyOf(item));
      const s = stats[item.expected];
      s.n++;
      if (out.riskLevel === item.expected) {
        s.ok++;
        ok++;
      } else {
        misses.push(`${item.expected} -> ${out.riskLevel}: ${item.text}`);
      }
      if (item.area) {
        areaN++;
        if (out.area === item.area) areaOk++;
      }
    }
    const pct = (a: number, b: number) => (b === 0 ? '-' : `${((100 * a) / b).toFixed(1)}%`);
    const rows: { class: string; items: number; correct: number; accuracy: string }[] = levels.map((l) => ({
      class: l,
      items: stats[l].n,
      correct: stats[l].ok,
      accuracy: pct(stats[l].ok, stats[l].n),
    }));
    rows.push({ class: 'overall', items: items.length, correct: ok, accuracy: pct(ok, items.length) });
    rows.push({ class: 'area (provision)', items: areaN, correct: areaOk, accuracy: pct(areaOk, areaN) });
    console.log('EU AI Act classifier on the labelled set');
    console.table(rows);
    if (misses.length > 0) console.log(`misclassified:\n  ${misses.join('\n  ')}`);
    expect(ok / items.length).toBeGreaterThanOrEqual(0.9);
    expect(stats.prohibited.ok).toBe(stats.prohibited.n);
  });

  it('near misses: fraud detection, biometric verification, emotion for safety, derogation blocked by profiling', () => {
    const fraud = decide({ purpose: 'Detects fraudulent loan applications by spotting forged documents.' });
    expect(fraud.riskLevel).toBe('minimal');
    expect(fraud.exceptions.map((e: Json) => e.rule)).toContain('annex-iii-5b-lending');
    const credit = decide({ purpose: 'Decides whether to approve loan applications from consumers.' });
    expect(credit).toMatchObject({ riskLevel: 'high', area: 'annex-iii-5' });
    expect(credit.applicableClauses).toEqual(expect.arrayContaining(['art-6-2', 'annex-iii-5', 'art-27']));

    const unlock = decide({ purpose: 'Uses face recognition to unlock the phone for its owner.' });
    expect(unlock.riskLevel).toBe('minimal');
    expect(unlock.exceptions.map((e: Json) => e.rule)).toContain('annex-iii-1a-remote-identification');
    const crowd = decide({ purpose: 'Uses face recognition to find shoplifters among customers entering the shop.' });
    expect(crowd).toMatchObject({ riskLevel: 'high', area: 'annex-iii-1' });

    const atWork = decide({ purpose: 'Detects stress and anger in the voices of call centre agents.' });
    expect(atWork).toMatchObject({ riskLevel: 'prohibited', area: 'art5-f' });
    expect(atWork.applicableClauses).toEqual(expect.arrayContaining(['art-5', 'art-5-1-f']));
    expect(atWork.transparencyDuties).toEqual([]);
    const forSafety = decide({
      purpose: 'Detects stress and panic in the voices of our employees in the control room for safety reasons.',
    });
    expect(forSafety).toMatchObject({ riskLevel: 'high', area: 'annex-iii-1' });
    expect(forSafety.exceptions.map((e: Json) => e.rule)).toContain('art5-f-emotion-work-education');
    expect(forSafety.transparencyDuties.map((d: Json) => d.clause)).toEqual(['art-50-3']);

    const preparatory = decide({ purpose: 'Checks job applications for missing documents before a recruiter reviews them.' });
    expect(preparatory.riskLevel).toBe('minimal');
    expect(preparatory.derogation).toMatchObject({ applies: true, blockedBy: null });
    expect(preparatory.applicableClauses).toEqual(expect.arrayContaining(['art-6-3', 'art-6-3-a', 'art-6-4', 'art-49-2']));
    const profiling = decide({ purpose: 'Builds a personality profile of each job applicant before a recruiter reviews them.' });
    expect(profiling.riskLevel).toBe('high');
    expect(profiling.derogation).toMatchObject({ applies: false });
    expect(profiling.derogation.blockedBy.concept).toBe('profiling');
  });

  it('GPAI: systemic risk above 10^25 FLOPs, given or written; a GPAI model in a high-risk use is high', () => {
    const small = decide({
      purpose: 'We pretrain a foundation model and offer it to developers through an API.',
      trainingComputeFlops: 5e24,
    });
    expect(small).toMatchObject({ riskLevel: 'gpai', systemicRisk: false, trainingComputeFlops: 5e24 });
    expect(small.applicableClauses).toEqual(expect.arrayContaining(['art-53', 'art-53-1-d']));
    expect(small.applicableClauses).not.toContain('art-55');
    expect(small.obligations.map((o: Json) => o.id)).toContain('AIA-OBL-101');
    const big = decide({
      purpose: 'We pretrain a foundation model and offer it to developers through an API.',
      trainingComputeFlops: 2e25,
    });
    expect(big).toMatchObject({ riskLevel: 'gpai', systemicRisk: true });
    expect(big.applicableClauses).toEqual(expect.arrayContaining(['art-51-2', 'art-55', 'art-55-1-a']));
    const written = decide({ purpose: 'Frontier model trained with 3 x 10^25 FLOPs and licensed to businesses.' });
    expect(written).toMatchObject({ riskLevel: 'gpai', systemicRisk: true, trainingComputeFlops: 3e25 });
    const inUse = decide({ purpose: 'Our foundation model ranks job candidates for our recruiters.' });
    expect(inUse).toMatchObject({ riskLevel: 'high', area: 'annex-iii-4' });
    expect(inUse.rationale).toContain('general-purpose AI model');
    const downstream = decide({
      purpose: 'Chatbot built on a third-party large language model that answers questions about our products.',
    });
    expect(downstream).toMatchObject({ riskLevel: 'limited', area: 'art50' });
  });

  it('is pure: the same input and facts give the same bytes; the role selects the obligations', () => {
    const input = { aiSystem: { name: 'Hiring', purpose: 'Screens CVs and ranks applicants.', providerKind: 'third_party' } };
    expect(JSON.stringify(decide(input))).toBe(JSON.stringify(decide(input)));
    const actors = new Set<string>(decide(input).obligations.map((o: Json) => o.actor));
    expect(actors.has('deployer')).toBe(true);
    expect([...actors].filter((a) => a !== 'deployer' && a !== 'operator')).toEqual([]);
    const own = decide({ aiSystem: { ...input.aiSystem, providerKind: 'first_party' } });
    expect(own.obligations.map((o: Json) => o.id)).toEqual(expect.arrayContaining(['AIA-OBL-018', 'AIA-OBL-074']));
  });
});

describe('classifier: registration, the Art. 27 impact assessment and the Art. 5(1)(g) and Annex III 5(b) exceptions', () => {
  const fria = (out: Json) => out.applicableClauses.filter((c: string) => c.startsWith('art-27'));
  const ids = (out: Json) => out.obligations.map((o: Json) => o.id);

  it('Annex III point 2 is registered at national level (Art. 49(5)), not in the EU database (Art. 49(1)); no FRIA', () => {
    const water = decide({
      aiSystem: {
        name: 'Valves',
        purpose: 'Controls the valves of the municipal drinking water network for safety.',
        providerKind: 'first_party',
      },
    });
    expect(water).toMatchObject({ riskLevel: 'high', area: 'annex-iii-2' });
    expect(water.applicableClauses).not.toContain('art-49-1');
    expect(ids(water)).not.toContain('AIA-OBL-088');
    expect(water.rationale).toContain('Art. 49(5)');
    // Art. 27(1) excepts point 2 even for a public deployer ("municipal").
    expect(fria(water)).toEqual([]);
    expect(ids(water)).not.toContain('AIA-OBL-080');
    // Every other Annex III point keeps the EU-database registration of Art. 49(1).
    const cv = decide({ purpose: 'Screens CVs and ranks job applicants for our recruiters.' });
    expect(cv.applicableClauses).toContain('art-49-1');
  });

  it('Art. 27(1): a public-body deployer of an Annex III use owes the FRIA; a private one does not, except for points 5(b) and 5(c)', () => {
    const privateCv = decide({ aiSystem: { name: 'Hiring', purpose: 'Screens CVs and ranks job applicants.', providerKind: 'deployer' } });
    expect(privateCv).toMatchObject({ riskLevel: 'high', area: 'annex-iii-4' });
    expect(fria(privateCv)).toEqual([]);
    expect(privateCv.rationale).toContain('only if the deployer is a body governed by public law');

    const publicCv = decide({
      aiSystem: {
        name: 'Hiring',
        purpose: 'Screens CVs and ranks job applicants.',
        providerKind: 'deployer',
        intendedUsers: ['recruiters of the city council'],
      },
    });
    expect(publicCv).toMatchObject({ riskLevel: 'high', area: 'annex-iii-4' });
    expect(fria(publicCv)).toEqual(['art-27', 'art-27-2', 'art-27-3', 'art-27-4']);
    expect(ids(publicCv)).toEqual(expect.arrayContaining(['AIA-OBL-080', 'AIA-OBL-081', 'AIA-OBL-082']));
    expect(publicCv.rationale).toContain('Art. 27(1)');
    expect(publicCv.rationale).toContain('"city council"');

    // A private entity providing a public service, and a public-body deployer named in the purpose.
    const grading = decide({ purpose: 'Grades the exams of pupils at a public school.' });
    expect(grading).toMatchObject({ riskLevel: 'high', area: 'annex-iii-3' });
    expect(fria(grading)).toContain('art-27');

    // Points 5(b) and 5(c): every deployer, private or not, and the notification of Art. 27(3) with it.
    const credit = decide({ purpose: 'Computes a credit score for consumers.', aiSystem: undefined });
    expect(credit).toMatchObject({ riskLevel: 'high', area: 'annex-iii-5' });
    expect(fria(credit)).toEqual(['art-27', 'art-27-2', 'art-27-3', 'art-27-4']);
    expect(ids(credit)).toContain('AIA-OBL-082');
    const life = decide({ purpose: 'Prices life insurance premiums for applicants.' });
    expect(fria(life)).toContain('art-27');

    // Points whose uses are limited to public authorities: law enforcement (6).
    const victims = decide({ purpose: 'Assesses the risk that a person becomes a victim of domestic violence for the police.' });
    expect(victims).toMatchObject({ riskLevel: 'high', area: 'annex-iii-6' });
    expect(fria(victims)).toContain('art-27');

    // Not for a provider's role, not when Art. 6(3) takes the use out of high risk, and not under Annex I.
    const provider = decide({
      aiSystem: {
        name: 'Hiring',
        purpose: 'Screens CVs and ranks job applicants.',
        providerKind: 'provider',
        intendedUsers: ['municipalities'],
      },
    });
    expect(fria(provider)).toContain('art-27');
    expect(ids(provider)).not.toContain('AIA-OBL-080');
    const derogated = decide({ purpose: 'Checks job applications for missing documents before a recruiter of the ministry reviews them.' });
    expect(derogated.riskLevel).toBe('minimal');
    expect(fria(derogated)).toEqual([]);
    const device = decide({ purpose: 'Medical device software that detects tumours in CT scans at a public hospital.' });
    expect(device).toMatchObject({ riskLevel: 'high', area: 'annex-i' });
    expect(fria(device)).toEqual([]);
  });

  it('Art. 27(1): a declared deployer type decides over the texts, and leaves nothing unknown', () => {
    const cv = (deployerType?: string, intendedUsers?: string[]) =>
      decide({
        aiSystem: {
          name: 'Hiring',
          purpose: 'Screens CVs and ranks job applicants.',
          providerKind: 'deployer',
          ...(deployerType ? { deployerType } : {}),
          ...(intendedUsers ? { intendedUsers } : {}),
        },
      });
    for (const declared of ['public_body', 'public_service']) {
      const out = cv(declared);
      expect(fria(out)).toEqual(['art-27', 'art-27-2', 'art-27-3', 'art-27-4']);
      expect(out.rationale).toContain(`deployer declared as ${declared.replace('_', ' ')}`);
    }
    // Declared private: no FRIA even where the texts name a public body, and no "only if" sentence.
    const declaredPrivate = cv('private', ['recruiters of the city council']);
    expect(fria(declaredPrivate)).toEqual([]);
    expect(declaredPrivate.rationale).not.toContain('only if the deployer is a body governed by public law');
    // Points 5(b) and 5(c) owe it whoever deploys.
    const credit = decide({ aiSystem: { name: 'Scores', purpose: 'Computes a credit score for consumers.', deployerType: 'private' } });
    expect(fria(credit)).toContain('art-27');
  });

  it('Annex III 5(b): the financial-fraud exception holds for credit scoring as well as for lending decisions', () => {
    const scoreForFraud = decide({ purpose: 'Uses credit scores to detect financial fraud in card payments.' });
    expect(scoreForFraud.riskLevel).toBe('minimal');
    expect(scoreForFraud.exceptions.map((e: Json) => e.rule)).toContain('annex-iii-5b-creditworthiness');
    expect(scoreForFraud.rationale).toContain('detecting financial fraud');
    expect(fria(scoreForFraud)).toEqual([]);
    const score = decide({ purpose: 'Uses credit scores to decide the credit limit of card holders.' });
    expect(score).toMatchObject({ riskLevel: 'high', area: 'annex-iii-5' });
  });

  it('Art. 5(1)(g): labelling lawfully acquired biometric datasets and categorisation in law enforcement are not prohibited', () => {
    const prohibited = decide({ purpose: 'Infers the sexual orientation of users from their profile photos.' });
    expect(prohibited).toMatchObject({ riskLevel: 'prohibited', area: 'art5-g' });

    const dataset = decide({ purpose: 'Labels a lawfully acquired dataset of face images by ethnicity.' });
    expect(dataset.riskLevel).not.toBe('prohibited');
    expect(dataset).toMatchObject({ riskLevel: 'high', area: 'annex-iii-1' });
    expect(dataset.exceptions.map((e: Json) => e.rule)).toContain('art5-g-sensitive-categorisation');
    expect(dataset.rationale).toContain('lawfully acquired biometric datasets');

    const police = decide({ purpose: 'Infers the political opinions of people in CCTV images for the police.' });
    expect(police).toMatchObject({ riskLevel: 'high', area: 'annex-iii-1' });
    expect(police.exceptions.map((e: Json) => e.rule)).toContain('art5-g-sensitive-categorisation');
    expect(police.matched.map((m: Json) => m.rule)).toContain('annex-iii-1b-categorisation');
    // The police is a public body: the Art. 27 assessment applies to its use of a point 1 system.
    expect(fria(police)).toContain('art-27');
  });
});

describe('classifier over HTTP', () => {
  let ts: TestServer;
  let t: TenantFixture;
  let ent: TenantFixture;
  let other: TenantFixture;
  beforeAll(async () => {
    ts = await startTestServer();
    [t, ent, other] = await Promise.all([
      createTenant(ts, { tier: 'growth' }),
      createTenant(ts, { tier: 'enterprise' }),
      createTenant(ts, { tier: 'enterprise' }),
    ]);
  });
  afterAll(() => ts?.close());

  const invoke = async (body: Json, who = t, path = '/v1/agents/classifier/invoke') => {
    const res = await who.call('POST', path, { body });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body as Json;
  };

  it('answers as of a day: before the amendment entered into force, the dates as enacted', async () => {
    const body = { aiSystem: { name: 'TalentRank', purpose: 'Screens CVs and ranks job applicants for our recruiters.' } };
    const today = await invoke(body, ent);
    const then = await invoke({ ...body, asOf: '2026-05-01' }, ent);
    const later = await invoke({ ...body, asOf: '2027-12-02' }, ent);
    expect(today.appliesFrom).toMatchObject({ date: '2027-12-02', asEnacted: { date: '2026-08-02' }, inEffect: false });
    expect(today.appliesFrom.source).toMatch(/2026\/1744/);
    // On 1 May 2026 the Omnibus was not in force: the Act said 2 August 2026, the amended date is beside it.
    expect(then.appliesFrom).toMatchObject({ date: '2026-08-02', source: 'Art. 113', asEnacted: { date: '2027-12-02' }, inEffect: false });
    expect(later.appliesFrom).toMatchObject({ date: '2027-12-02', inEffect: true });
    expect(then.riskLevel).toBe(today.riskLevel);
    expect(then.decisionId).not.toBe(today.decisionId);
    const bad = await ent.call('POST', '/v1/agents/classifier/invoke', { body: { ...body, asOf: '2026-02-30' } });
    expect(bad.status).toBe(422);
  });

  it('form A: a CV screener is high-risk under Annex III 4, with the decision envelope', async () => {
    const out = await invoke({
      aiSystem: {
        name: 'TalentRank',
        purpose: 'Screens CVs and ranks job applicants for our recruiters.',
        providerKind: 'first_party',
        intendedUsers: ['recruiters'],
      },
      jurisdiction: 'eu',
      applicableFrameworks: ['eu-ai-act'],
    });
    expect(out).toMatchObject({ object: 'svc.agents.decision', agent: 'classifier', riskLevel: 'high', area: 'annex-iii-4' });
    expect(out.decisionId).toMatch(/^dec_/);
    expect(out.dictionaryVersion).toBe((await t.call('GET', '/v1/frameworks/eu-ai-act')).body.dictionaryVersion);
    expect(out.ruleSet).toMatchObject({ id: 'classifier-rules', version: '1.2.0' });
    expect(out.rationale).toContain('Annex III point 4(a)');
    expect(out.applicableClauses).toEqual(expect.arrayContaining(['art-6-2', 'annex-iii-4', 'art-9', 'art-26-7']));
    expect(out.obligations.map((o: Json) => o.id)).toContain('AIA-OBL-018');

    const replay = await t.call('GET', `/v1/agents/decisions/${out.decisionId}`);
    expect(replay.status, JSON.stringify(replay.body)).toBe(200);
    expect(replay.body.replay).toMatchObject({ reproduced: true, intact: true });
    expect(replay.body.output.riskLevel).toBe('high');
  });

  it('form B and the short route: emotion recognition at work is prohibited, in marketing high', async () => {
    const work = await invoke(
      { purpose: 'Monitors employees’ emotions through their webcams during video calls.', affectedPersons: ['employees'] },
      t,
      '/v1/agents/classifier',
    );
    expect(work).toMatchObject({ riskLevel: 'prohibited', area: 'art5-f' });
    expect(work.decisionId).toMatch(/^dec_/);
    expect(work.applicableClauses).toEqual(expect.arrayContaining(['art-5', 'art-5-1-f']));
    const shop = await invoke({
      purpose: 'Measures how shoppers feel about our displays from their facial expressions.',
      affectedPersons: ['customers'],
    });
    expect(shop).toMatchObject({ riskLevel: 'high', area: 'annex-iii-1' });
  });

  it('an empty body is a 422 naming the missing description; an unknown framework id too', async () => {
    const empty = expectEnvelope(await t.call('POST', '/v1/agents/classifier/invoke', { body: {} }), 422, 'validation_failed');
    expect(empty.details.map((d: Json) => d.field)).toContain('purpose');
    const fw = expectEnvelope(
      await t.call('POST', '/v1/agents/classifier/invoke', { body: { purpose: 'Spam filter.', applicableFrameworks: ['no-such-act'] } }),
      422,
      'validation_failed',
    );
    expect(fw.details[0].field).toBe('applicableFrameworks');
  });

  it('systemId: reads the tenant’s system profile; the answer follows the profile; another tenant gets 404', async () => {
    const systemId = `sys_clf_${Date.now().toString(36)}`;
    const declare = async (body: Json) => {
      const res = await ent.call('PUT', `/v1/public-disclosure/systems/${systemId}`, { body });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    };
    const base = {
      name: 'Store assistant',
      purpose: 'Answers shoppers’ questions about opening hours.',
      provider: 'Acme',
      role: 'provider_and_deployer',
    };
    await declare({ ...base, interactsWithPeople: true, generatesSyntheticContent: false });
    const first = await invoke({ systemId }, ent);
    expect(first).toMatchObject({ riskLevel: 'limited', area: 'art50' });
    expect(first.transparencyDuties.map((d: Json) => d.clause)).toEqual(['art-50-1']);

    await declare({
      ...base,
      purpose: 'Estimates the age and gender of visitors from camera images.',
      interactsWithPeople: false,
      generatesSyntheticContent: false,
    });
    const second = await invoke({ systemId }, ent);
    expect(second).toMatchObject({ riskLevel: 'high', area: 'annex-iii-1' });

    expectEnvelope(await other.call('POST', '/v1/agents/classifier/invoke', { body: { systemId } }), 404, 'not_found');
  });

  it('systemId: the profile’s deployer context tells a public-body deployer, which owes the Art. 27 assessment', async () => {
    const systemId = `sys_fria_${Date.now().toString(36)}`;
    const declare = async (deployerContext: string) => {
      const res = await ent.call('PUT', `/v1/public-disclosure/systems/${systemId}`, {
        body: {
          name: 'Essay grader',
          purpose: 'Grades students’ essays and exams.',
          provider: 'Acme',
          role: 'deployer',
          deployerContext,
          interactsWithPeople: false,
          generatesSyntheticContent: false,
        },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    };
    await declare('Secondary schools of a municipality.');
    const pub = await invoke({ systemId }, ent);
    expect(pub).toMatchObject({ riskLevel: 'high', area: 'annex-iii-3' });
    expect(pub.applicableClauses).toEqual(expect.arrayContaining(['art-27', 'art-27-3']));
    expect(pub.obligations.map((o: Json) => o.id)).toContain('AIA-OBL-080');
    expect(pub.rationale).toContain('"municipality"');

    await declare('A private tutoring company for adults.');
    const priv = await invoke({ systemId }, ent);
    expect(priv).toMatchObject({ riskLevel: 'high', area: 'annex-iii-3' });
    expect(priv.applicableClauses).not.toContain('art-27');
    expect(priv.obligations.map((o: Json) => o.id)).not.toContain('AIA-OBL-080');
  });

  it('the labelled set over HTTP gives the same classes as decide', async () => {
    const sample = items.filter((_, i) => i % 8 === 0);
    for (const item of sample) {
      const out = await invoke(bodyOf(item));
      expect(out.riskLevel, item.text).toBe(decide(bodyOf(item)).riskLevel);
    }
  });
});
