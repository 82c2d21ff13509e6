import { describe, expect, it } from 'vitest';
import { applyChangeset, buildVersions, type DictionaryChangeset } from './changesets.ts';
import type { FrameworkContent } from './framework-schema.ts';

const base: FrameworkContent = {
  id: 'demo-act',
  version: '1.0.0',
  title: 'Demo Act',
  shortTitle: 'Demo',
  kind: 'regulation',
  publisher: 'Nobody',
  jurisdiction: 'eu',
  description: 'A small act to exercise changesets.',
  publishedAt: '2024-01-01',
  sourceUrl: null,
  license: 'Public domain.',
  clauses: [
    { ref: 'art-1', title: 'Scope', summary: 'Who the act covers.', parentRef: null },
    { ref: 'art-2', title: 'Duty', summary: 'The duty the act imposes.', parentRef: null },
  ],
  controls: [{ id: 'C-1', title: 'Duty met', description: 'The duty is met.', category: 'core', clauseRefs: ['art-2'] }],
  questions: [{ id: 'Q-1', text: 'Is the duty met?', controlId: 'C-1', clauseRef: 'art-2', answerType: 'yes_no' }],
  obligations: [
    {
      id: 'O-1',
      title: 'Meet the duty',
      description: 'Providers meet the duty.',
      clauseRef: 'art-2',
      actor: 'provider',
      applicableFrom: '2026-08-02',
    },
  ],
};

const act = { title: 'Demo Amending Act', reference: 'Act 2026/1', sourceUrl: null, adoptedOn: '2026-06-29', inForceFrom: '2026-07-01' };
const source = { source: 'Act 2026/1, Art. 1', sourceUrl: null };

function changeset(changes: DictionaryChangeset['changes'], over: Partial<DictionaryChangeset> = {}): DictionaryChangeset {
  return {
    dictionary: 'demo-act',
    version: '1.1.0',
    from: '1.0.0',
    publishedAt: '2026-11-29',
    summary: 'Moves a date and adds a duty.',
    amendingAct: act,
    changes,
    ...over,
  };
}

describe('dictionary changesets', () => {
  it('amend, add, repeal and remove build the next version and leave the amended one as it was', () => {
    const r = applyChangeset(
      base,
      changeset([
        { op: 'amend', kind: 'obligation', id: 'O-1', set: { applicableFrom: '2027-12-02' }, ...source },
        {
          op: 'add',
          kind: 'clause',
          value: { ref: 'art-3', title: 'New duty', summary: 'A duty the amendment adds.', parentRef: null, applicableFrom: '2026-12-02' },
          ...source,
        },
        {
          op: 'add',
          kind: 'obligation',
          value: {
            id: 'O-2',
            title: 'Meet the new duty',
            description: 'Providers meet it.',
            clauseRef: 'art-3',
            actor: 'provider',
            applicableFrom: '2026-12-02',
          },
          ...source,
        },
        { op: 'repeal', kind: 'clause', id: 'art-1', applicableUntil: '2026-07-01', replacedBy: ['art-3'], ...source },
        { op: 'remove', kind: 'question', id: 'Q-1', ...source },
      ]),
    );
    expect(r.errors).toEqual([]);
    expect(r.content?.version).toBe('1.1.0');
    expect(r.content?.publishedAt).toBe('2026-11-29');
    expect(r.content?.obligations.map((o) => [o.id, o.applicableFrom])).toEqual([
      ['O-1', '2027-12-02'],
      ['O-2', '2026-12-02'],
    ]);
    expect(r.content?.clauses.find((c) => c.ref === 'art-1')).toMatchObject({ applicableUntil: '2026-07-01', replacedBy: ['art-3'] });
    expect(r.content?.questions).toEqual([]);
    expect(base.obligations[0]?.applicableFrom).toBe('2026-08-02');
    expect(base.questions).toHaveLength(1);
  });

  it('names every change that does not fit the version it amends', () => {
    const r = applyChangeset(
      base,
      changeset([
        { op: 'amend', kind: 'obligation', id: 'O-9', set: { title: 'x' }, ...source },
        {
          op: 'add',
          kind: 'control',
          value: { id: 'C-1', title: 'again', description: 'Twice.', category: 'core', clauseRefs: ['art-2'] },
          ...source,
        },
        {
          op: 'add',
          kind: 'obligation',
          value: {
            id: 'O-3',
            title: 'Dangling',
            description: 'Cites nothing real.',
            clauseRef: 'art-9',
            actor: 'x',
            applicableFrom: '2027-01-01',
          },
          ...source,
        },
        { op: 'repeal', kind: 'obligation', id: 'O-1', applicableUntil: '2026-07-01', replacedBy: ['O-7'], ...source },
      ]),
    );
    expect(r.content).toBeUndefined();
    expect(r.errors.join('\n')).toMatch(/no obligation O-9/);
    expect(r.errors.join('\n')).toMatch(/C-1 is already in 1\.0\.0/);
    expect(r.errors.join('\n')).toMatch(/unknown clause art-9/);
  });

  it('builds chains in version order and refuses a changeset whose base no file states', () => {
    const errors: string[] = [];
    const v = buildVersions(
      [{ file: 'frameworks/demo-act.json', content: base }],
      [
        {
          file: 'frameworks/changes/demo-act@1.2.0.json',
          data: changeset([{ op: 'amend', kind: 'clause', id: 'art-2', set: { title: 'Duty, reworded' }, ...source }], {
            version: '1.2.0',
            from: '1.1.0',
          }),
        },
        {
          file: 'frameworks/changes/demo-act@1.1.0.json',
          data: changeset([{ op: 'amend', kind: 'obligation', id: 'O-1', set: { actor: 'deployer' }, ...source }]),
        },
        {
          file: 'frameworks/changes/demo-act@3.0.0.json',
          data: changeset([{ op: 'remove', kind: 'question', id: 'Q-1', ...source }], { version: '3.0.0', from: '2.0.0' }),
        },
      ],
      errors,
    );
    expect(v.map((x) => x.content.version)).toEqual(['1.0.0', '1.1.0', '1.2.0']);
    expect(v[2]?.content.obligations[0]?.actor).toBe('deployer');
    expect(v[2]?.changelog?.from).toBe('1.1.0');
    expect(errors).toEqual(['frameworks/changes/demo-act@3.0.0.json: amends demo-act@2.0.0, which no file states']);
  });
});
