import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, type TenantFixture } from './support/api.ts';
import { svcInProcess } from './support/cli.ts';
import { startTestServer, type TestServer } from './support/server.ts';

/**
 * `svc assessments questions|answer|clear|submit|return|approve|results`: the real CLI (in this
 * process, as test/support/cli.ts runs it) against one started server, a DPIA walked by one person
 * and reviewed by another, each through an API key bound to them.
 */

type Json = Record<string, any>;

let ts: TestServer;
let t: TenantFixture;
let ana = '';
let rita = '';
let anaKey = '';
let ritaKey = '';
let evidenceId = '';
const dir = mkdtempSync(join(tmpdir(), 'svc-cli-asm-'));

beforeAll(async () => {
  ts = await startTestServer();
  t = await createTenant(ts);
  const person = async (name: string) => {
    const res = await t.call('POST', '/v1/stakeholders/users', { body: { name, email: `${name.toLowerCase()}@example.com` } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.id as string;
  };
  ana = await person('Ana');
  rita = await person('Rita');
  anaKey = await t.personKey(ana, 'admin');
  ritaKey = await t.personKey(rita, 'admin');
  expect((await t.call('POST', '/v1/frameworks/gdpr/activate', { body: {} })).status).toBeLessThan(300);
  const evd = await t.call('POST', '/v1/compliance/evidence', {
    body: { title: 'Record of processing: CRM', kind: 'document', controlIds: ['GDPR-PRN-01'] },
  });
  expect(evd.status, JSON.stringify(evd.body)).toBe(201);
  evidenceId = evd.body.id;
});
afterAll(() => ts?.close());

/** The CLI as Ana (the answerer) unless another key is given. */
function svc(args: string[], key = anaKey) {
  return svcInProcess(args, {
    ...process.env,
    SVC_URL: ts.url,
    SVC_API_KEY: key,
    // No credentials file: the URL and key come from the environment.
    SVC_CREDENTIALS_FILE: join(dir, 'none.json'),
  });
}

async function json(args: string[], key = anaKey): Promise<any> {
  const res = await svc([...args, '--json'], key);
  expect(res.code, `${args.join(' ')}: ${res.stderr}`).toBe(0);
  return JSON.parse(res.stdout);
}

/** A value of the question's kind, as a user would type it, and the flags it needs. */
function typed(q: Json): string[] {
  switch (q.kind) {
    case 'yes_no':
      return ['no'];
    case 'scale':
      return ['2'];
    case 'choice':
      return [q.options[0].value];
    case 'evidence':
      return ['--evidence', evidenceId];
    case 'requirement':
      return ['compliant'];
    default:
      return ['Set out in the processing record of the CRM.'];
  }
}

describe('svc assessments: questions, answers, review', () => {
  let id = '';

  it('lists the questions of a new assessment as a table, by stage and unanswered', async () => {
    id = (await json(['assessments', 'create', '--type', 'dpia', '--system', 'sys_crm', '--jurisdiction', 'eu/de'])).id;
    const human = await svc(['assessments', 'questions', id]);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/^KEY +STAGE +KIND +REQUIRED +ANSWER$/m);
    expect(human.stdout).toMatch(/^risk-likelihood +risks +scale +yes/m);
    const risks: Json[] = await json(['assessments', 'questions', id, '--stage', 'risks']);
    expect(risks.length).toBeGreaterThan(1);
    expect(risks.every((q) => q.stage === 'risks')).toBe(true);
    const all: Json[] = await json(['assessments', 'questions', id]);
    expect(all.length).toBeGreaterThan(risks.length);
  });

  it('answers with the value of the question’s kind, keeps every version and clears', async () => {
    const first = await json(['assessments', 'answer', id, 'risk-likelihood', '3']);
    // A scale answer goes as an integer, not the string typed.
    expect(first.answer).toMatchObject({ value: 3, version: 1, answeredBy: ana });
    const human = await svc(['assessments', 'answer', id, 'risk-likelihood', '4', '--notes', 'After the pilot.']);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/^answered risk-likelihood \(version 2\): 4$/m);
    const notInteger = await svc(['assessments', 'answer', id, 'risk-likelihood', 'high']);
    expect(notInteger.code).toBe(1);
    expect(notInteger.stderr).toMatch(/risk-likelihood is a scale question: VALUE must be an integer from 1 to 5/);
    // Out of range: the API's refusal, with its field and the correlation id.
    const outOfRange = await svc(['assessments', 'answer', id, 'risk-likelihood', '9']);
    expect(outOfRange.code).toBe(2);
    expect(outOfRange.stderr).toMatch(/422 validation_failed: .*integer from 1 to 5/);
    expect(outOfRange.stderr).toMatch(/^ {2}value: /m);
    expect(outOfRange.stderr).toMatch(/correlation id cor_/);

    const withEvidence = await json(['assessments', 'answer', id, 'processing-record', '--evidence', evidenceId]);
    expect(withEvidence.answer).toMatchObject({ value: null, evidenceIds: [evidenceId] });
    const unanswered: Json[] = await json(['assessments', 'questions', id, '--unanswered']);
    expect(unanswered.map((q) => q.key)).not.toContain('risk-likelihood');
    expect(unanswered.map((q) => q.key)).not.toContain('processing-record');

    expect((await svc(['assessments', 'clear', id, 'risk-likelihood'])).code).toBe(0);
    const history = await t.call('GET', `/v1/compliance/assessments/${id}/questions/risk-likelihood/answers`);
    expect(history.status).toBe(200);
    expect(history.body.data.map((v: Json) => [v.version, v.action, v.value, v.by])).toEqual([
      [3, 'cleared', null, ana],
      [2, 'changed', 4, ana],
      [1, 'answered', 3, ana],
    ]);
    expect(history.body.data[1].notes).toBe('After the pilot.');
  });

  it('refuses to submit while required questions are open, naming them', async () => {
    const refused = await svc(['assessments', 'submit', id]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^svc: 422 validation_failed: Assessment asm_\w+ has \d+ required question\(s\) without an answer/);
    expect(refused.stderr).toMatch(/^ {2}questions\.risk-likelihood: missing/m);
    expect(refused.stderr).toMatch(/\(correlation id cor_\w+\)/);
    const asJson = await svc(['assessments', 'submit', id, '--json']);
    expect(asJson.code).toBe(2);
    expect(JSON.parse(asJson.stdout)).toMatchObject({ error: 'validation_failed', correlation_id: expect.stringMatching(/^cor_/) });
    expect((await t.call('GET', `/v1/compliance/assessments/${id}`)).body.status).toBe('in_progress');
  });

  it('walks to in_review: every required question answered, results complete, submitted', async () => {
    // Answers can make further questions required: answer until none is open.
    for (let round = 0; round < 5; round++) {
      const open: Json[] = (await json(['assessments', 'questions', id, '--unanswered'])).filter((q: Json) => q.required);
      if (open.length === 0) break;
      for (const q of open) await json(['assessments', 'answer', id, q.key, ...typed(q)]);
    }
    const results = await json(['assessments', 'results', id]);
    expect(results).toMatchObject({ completion: 1, open: [] });
    const human = await svc(['assessments', 'results', id]);
    expect(human.stdout).toMatch(/completion 100%/);
    expect(human.stdout).toMatch(/^open questions: 0$/m);

    const submitted = await svc(['assessments', 'submit', id]);
    expect(submitted.code, submitted.stderr).toBe(0);
    expect(submitted.stdout).toBe(`${id} is in_review\n`);
    expect((await t.call('GET', `/v1/compliance/assessments/${id}`)).body).toMatchObject({ status: 'in_review', submittedBy: ana });
    const locked = await svc(['assessments', 'answer', id, 'risk-likelihood', '1']);
    expect(locked.code).toBe(2);
    expect(locked.stderr).toMatch(/409 conflict: .*in review/);
  });

  it('is returned with comments, resubmitted, and approved by another person only', async () => {
    const bad = await svc(['assessments', 'return', id, '--comment', 'no-equals-sign'], ritaKey);
    expect(bad.code).toBe(1);
    const back = await svc(
      ['assessments', 'return', id, '--comment', 'risk-likelihood=Explain the likelihood.', '--comment', 'purposes=Name each purpose.'],
      ritaKey,
    );
    expect(back.code, back.stderr).toBe(0);
    expect(back.stdout).toMatch(/is in_progress: 2 comment\(s\)/);
    const q = await t.call('GET', `/v1/compliance/assessments/${id}/questions/purposes`);
    expect(q.body.review).toMatchObject({ comment: 'Name each purpose.', by: rita });
    await json(['assessments', 'answer', id, 'purposes', 'Credit scoring and fraud prevention.']);
    expect((await json(['assessments', 'submit', id])).status).toBe('in_review');

    const own = await svc(['assessments', 'approve', id]);
    expect(own.code).toBe(2);
    expect(own.stderr).toMatch(/403 forbidden: Four eyes/);
    expect(own.stderr).toMatch(/authorization: four_eyes/);
    const approved = await svc(['assessments', 'approve', id], ritaKey);
    expect(approved.code, approved.stderr).toBe(0);
    expect(approved.stdout).toMatch(new RegExp(`^${id} is approved by ${rita}; answers hash [0-9a-f]{64}$`, 'm'));
  });

  it('says what is missing for an unknown assessment or command', async () => {
    const missing = await svc(['assessments', 'results', 'asm_01JD3Z8W2M6Q4X9V7K5T1B0N3A']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/404 not_found/);
    const usage = await svc(['assessments', 'frobnicate', id]);
    expect(usage.code).toBe(1);
    expect(usage.stderr).toMatch(/usage: svc assessments list\|create\|get\|questions\|answer/);
  });
});
