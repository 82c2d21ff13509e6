import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { governanceBoardDecisions } from '../rails/governance/routes.ts';
import { whistleblowerReports } from '../rails/whistleblower/routes.ts';
import { pastTense, resource, withArticle } from './resource.ts';

describe('the words the kit writes', () => {
  it('puts the article a label takes when said aloud', () => {
    expect(withArticle('assessment')).toBe('an assessment');
    expect(withArticle('vendor')).toBe('a vendor');
    expect(withArticle('NDA request')).toBe('an NDA request');
    expect(withArticle('RFP')).toBe('an RFP');
    expect(withArticle('DPIA')).toBe('a DPIA');
    expect(withArticle('eDiscovery export')).toBe('an eDiscovery export');
  });

  it('puts a verb in the past tense, irregular ones included', () => {
    expect(pastTense('complete')).toBe('completed');
    expect(pastTense('verify')).toBe('verified');
    expect(pastTense('submit')).toBe('submitted');
    expect(pastTense('open')).toBe('opened');
  });
});

describe('a collection nested under a parent', () => {
  it('takes the parent id as :id on its list and create, and says the 404 and the states that admit a create', () => {
    const { list, create } = governanceBoardDecisions.routes;
    expect(list.path).toBe('/board-meetings/:id/decisions');
    expect(create.path).toBe('/board-meetings/:id/decisions');
    expect(list.pathParams.shape.id.safeParse('gbm_01JD3Z8W2M6Q4X9V7K5T1B0N3R').success).toBe(true);
    expect(list.pathParams.shape.id.safeParse('gdc_01JD3Z8W2M6Q4X9V7K5T1B0N3R').success).toBe(false);
    expect(create.description).toContain("Allowed while the board meeting's `status` is `held`");
    expect(list.description).toContain('A board meeting of another tenant, or one that does not exist, is 404');
    expect(create.metadata.stateful).toBe(true);
  });

  it('is refused at declaration with a get, without its parent field, or without the setup step that makes the parent', () => {
    const record = z.object({ object: z.literal('svc.governance.tst'), id: z.string(), meetingId: z.string() });
    const parent = { path: 'board-meetings', idPrefix: 'gbm', label: 'board meeting', field: 'meetingId', step: 'meeting' };
    const setup = [{ method: 'POST', path: '/v1/governance/board-meetings', body: {}, as: 'meeting' }] as const;
    const base = { rail: 'governance', path: 'tests', name: 'tst', label: { one: 'test', many: 'tests' }, record } as const;
    expect(() => resource({ ...base, idPrefix: 'tsta', parent, setup })).toThrow(/list and create only/);
    expect(() => resource({ ...base, idPrefix: 'tstb', parent: { ...parent, field: 'nope' }, setup, get: false })).toThrow(/no field nope/);
    expect(() => resource({ ...base, idPrefix: 'tstc', parent, setup: [], get: false })).toThrow(/no setup step is named meeting/);
  });
});

describe('a change that names its record in the body', () => {
  it('is a POST at its own path with no path parameter, and says which field names the record', () => {
    const { triage } = whistleblowerReports.routes;
    expect(triage.method).toBe('POST');
    expect(triage.path).toBe('/triage');
    expect('pathParams' in triage).toBe(false);
    expect(triage.metadata.resource).toMatchObject({ op: 'transition', verb: 'triage', idField: 'reportId', to: 'triaged' });
    expect(triage.description).toContain('The report is named by `reportId`');
  });

  it('is refused at declaration without a path, or with a body that lacks the field', () => {
    const record = z.object({ object: z.literal('svc.governance.tsu'), id: z.string(), status: z.string() });
    const base = {
      rail: 'governance',
      path: 'decision-rights',
      name: 'tsu',
      label: { one: 'test', many: 'tests' },
      record,
      statusField: 'status',
    } as const;
    const body = z.strictObject({ testId: z.string() });
    const move = { from: ['a'], to: 'b', summary: 'Move', idField: 'testId', body } as const;
    expect(() => resource({ ...base, idPrefix: 'tsud', transitions: { move } })).toThrow(/a POST with a path/);
    expect(() => resource({ ...base, idPrefix: 'tsue', transitions: { move: { ...move, path: 'move', idField: 'nope' } } })).toThrow(
      /has no field nope/,
    );
  });
});
