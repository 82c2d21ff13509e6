import { generateKeyPairSync, sign } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { verifyExportFile } from '@svc/cli/src/audit-file.ts';
import { type ChainedEvent, type ExportSeal, GENESIS_HASH, type PublicSigningKey } from '@svc/contract';
import { hashExportSeal, keyFingerprint } from '@svc/contract/audit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, expectEnvelope, type TenantFixture } from './support/api.ts';
import { svcInProcess } from './support/cli.ts';
import { startTestServer, type TestServer } from './support/server.ts';

/**
 * An export's seal: the service's signature over its range, the event before it and the chain
 * head. Each event is signed on its own, so without the seal a file could lose its newest events,
 * or pass a piece of the middle of a chain off as another range, and still verify.
 */
const dir = mkdtempSync(join(tmpdir(), 'svc-export-seal-'));
let ts: TestServer;
let t: TenantFixture;
let trust: { data: PublicSigningKey[] };
let trustFile = '';

type ExportDoc = {
  tenantId: string;
  range: { fromSeq: number; toSeq: number };
  anchor?: { seq: number; hash: string };
  head: { seq: number; hash: string };
  publicKeys: PublicSigningKey[];
  events: (ChainedEvent & { object: string })[];
  seals?: ExportSeal[];
  [k: string]: unknown;
};

beforeAll(async () => {
  ts = await startTestServer();
  t = await createTenant(ts);
  // The tenant's creation and seven assessments: seq 1..8.
  for (let i = 0; i < 7; i++) {
    const r = await t.call('POST', '/v1/compliance/assessments', { body: { type: 'fria', systemId: `sys_${i}`, jurisdiction: 'eu/de' } });
    expect(r.status).toBe(201);
  }
  trust = (await t.call('GET', '/v1/audit-trail/keys')).body;
  trustFile = save('trust.json', trust);
});
afterAll(() => ts?.close());

async function exportRange(body: { fromSeq?: number; toSeq?: number } = {}): Promise<ExportDoc> {
  const res = await t.call('POST', '/v1/audit-trail/export', { body });
  expect(res.status).toBe(200);
  return res.body;
}

let n = 0;
function save(name: string, value: unknown): string {
  const file = join(dir, `${++n}-${name}`);
  writeFileSync(file, JSON.stringify(value, null, 2));
  return file;
}

const verify = (doc: unknown) => verifyExportFile(save('doc.json', doc), { keys: trust.data });
const linkOf = (e: ChainedEvent) => ({ seq: e.seq, hash: e.hash });

describe('a sealed export', () => {
  it('carries one seal, signed by the active key, over its range, anchor, last event and head', async () => {
    const doc = await exportRange();
    expect(doc.range).toEqual({ fromSeq: 1, toSeq: 8 });
    expect(doc.seals).toHaveLength(1);
    const [seal] = doc.seals as ExportSeal[];
    const active = trust.data.find((k) => k.retiredAt === null) as PublicSigningKey;
    expect(seal).toMatchObject({
      algorithm: 'ed25519',
      keyId: active.keyId,
      tenantId: t.tenantId,
      exportedAt: doc.exportedAt,
      range: doc.range,
      anchor: { seq: 0, hash: GENESIS_HASH },
      last: linkOf(doc.events.at(-1) as ChainedEvent),
      head: doc.head,
    });
    expect(seal?.hash).toBe(hashExportSeal(seal as ExportSeal));

    const report = verify(doc);
    expect(report).toMatchObject({ status: 'valid', checked: 8, head: doc.head, exportedAt: doc.exportedAt, firstBroken: null });
    expect(report.proves?.join('\n')).toContain(`the 8 events are those recorded for ${t.tenantId} at seq 1..8`);
    expect(report.doesNotProve?.join('\n')).toContain(`anything recorded after ${doc.exportedAt}`);
  });

  it('says what a partial range proves: the head it was cut from, and the events it does not hold', async () => {
    const doc = await exportRange({ fromSeq: 3, toSeq: 5 });
    const report = verify(doc);
    expect(report).toMatchObject({ status: 'valid', checked: 3, head: { seq: 8 } });
    expect(report.proves).toContain('seq 6..8 had been recorded by then and are not in this file');
    expect(report.doesNotProve).toContain('anything about seq 1..2: verify the exports of those ranges');
    const cli = await svcInProcess(['audit', 'verify', save('partial.json', doc), '--trust', trustFile], {
      PATH: process.env.PATH ?? '',
      HOME: dir,
    });
    expect(cli.code).toBe(0);
    expect(cli.stdout).toMatch(/^valid: 3 events of ten_\w+, seq 3\.\.5/);
    expect(cli.stdout).toContain('proves: seq 6..8 had been recorded by then and are not in this file');
    expect(cli.stdout).toContain('does not prove: anything recorded after');
  });

  it('an export past the head is a 422 naming fromSeq', async () => {
    const res = await t.call('POST', '/v1/audit-trail/export', { body: { fromSeq: 50 } });
    expect(expectEnvelope(res, 422, 'validation_failed').details).toEqual([{ field: 'fromSeq', issue: 'too_big' }]);
  });
});

describe('the attacks the seal stops', () => {
  it('dropping the newest events (and claiming the shorter range and an earlier head) is refused', async () => {
    const doc = await exportRange();
    const cut: ExportDoc = structuredClone(doc);
    cut.events = cut.events.slice(0, 6);
    cut.range = { fromSeq: 1, toSeq: 6 };
    cut.head = linkOf(cut.events.at(-1) as ChainedEvent);
    const report = verify(cut);
    expect(report).toMatchObject({ status: 'broken', valid: false, firstBroken: { reason: 'range_mismatch' } });
    const cli = await svcInProcess(['audit', 'verify', save('cut.json', cut), '--trust', trustFile, '--json'], {
      PATH: process.env.PATH ?? '',
      HOME: dir,
    });
    expect(cli.code).toBe(2);
    expect(JSON.parse(cli.stdout).status).toBe('broken');

    // Without the seal it says what is missing and why that is refused.
    const unsealed: ExportDoc = { ...structuredClone(cut), seals: undefined };
    expect(verify(unsealed).firstBroken).toMatchObject({ reason: 'unsealed', message: expect.stringMatching(/export the range again/) });
    // With the seal's range edited too, its signature no longer holds.
    const edited: ExportDoc = structuredClone(cut);
    (edited.seals as ExportSeal[])[0] = {
      ...(edited.seals as ExportSeal[])[0],
      range: cut.range,
      last: cut.head,
      head: cut.head,
    } as ExportSeal;
    expect(verify(edited).firstBroken).toMatchObject({ reason: 'bad_seal', message: expect.stringContaining('hashes to') });
    // Only the head moved back: the seal says where the head was.
    const head: ExportDoc = { ...structuredClone(doc), head: linkOf(doc.events[5] as ChainedEvent) };
    expect(verify(head).firstBroken).toMatchObject({ reason: 'range_mismatch' });
  });

  it('a later range with its anchor stripped does not pass as seq 1..3', async () => {
    const doc = await exportRange({ fromSeq: 5, toSeq: 7 });
    expect(doc.anchor?.seq).toBe(4);
    expect(verify(doc).status).toBe('valid');

    const stripped: ExportDoc = { ...structuredClone(doc), range: { fromSeq: 1, toSeq: 3 } };
    delete stripped.anchor;
    expect(verify(stripped)).toMatchObject({ status: 'broken', firstBroken: { reason: 'missing_anchor' } });
    // Anchored on the genesis hash as a range from 1 would be: the events do not follow it.
    const genesis: ExportDoc = { ...structuredClone(stripped), anchor: { seq: 0, hash: GENESIS_HASH } };
    expect(verify(genesis)).toMatchObject({ status: 'broken', firstBroken: { reason: 'seq_gap' } });
    // The genuine anchor under the claimed range.
    const relabelled: ExportDoc = { ...structuredClone(doc), range: { fromSeq: 1, toSeq: 3 } };
    expect(verify(relabelled)).toMatchObject({ status: 'broken', firstBroken: { reason: 'range_mismatch' } });
    // The anchor moved to the claimed range's start, linking the first event as it claims.
    const moved: ExportDoc = { ...structuredClone(stripped), anchor: { seq: 4, hash: (doc.events[0] as ChainedEvent).prevHash } };
    expect(verify(moved)).toMatchObject({ status: 'broken', firstBroken: { reason: 'range_mismatch' } });
  });

  it('a seal re-made with a key of the forger’s own is refused with the trust file, and never valid without', async () => {
    const doc = await exportRange();
    const cut: ExportDoc = structuredClone(doc);
    cut.events = cut.events.slice(0, 6);
    cut.range = { fromSeq: 1, toSeq: 6 };
    cut.head = linkOf(cut.events.at(-1) as ChainedEvent);
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    const spki = publicKey.export({ format: 'der', type: 'spki' }).toString('base64');
    const keyId = `sk_${keyFingerprint(spki).slice(7, 31)}`;
    const statement = { ...(cut.seals as ExportSeal[])[0], keyId, range: cut.range, last: cut.head, head: cut.head } as ExportSeal;
    const hash = hashExportSeal(statement);
    cut.seals = [{ ...statement, hash, signature: sign(null, Buffer.from(hash, 'ascii'), privateKey).toString('base64url') }];
    cut.publicKeys = [
      ...cut.publicKeys,
      { keyId, algorithm: 'ed25519', publicKey: spki, createdAt: '2020-01-01T00:00:00.000Z', retiredAt: null },
    ];
    expect(verify(cut).firstBroken).toMatchObject({ reason: 'bad_seal', message: expect.stringContaining('not a trusted key') });
    expect(verifyExportFile(save('self-sealed.json', cut)).status).toBe('unanchored');
  });

  it('an export joined from consecutive pieces carries each seal; losing one is refused', async () => {
    const first = await exportRange({ fromSeq: 1, toSeq: 4 });
    const second = await exportRange({ fromSeq: 5, toSeq: 8 });
    const joined: ExportDoc = {
      ...first,
      exportedAt: second.exportedAt,
      range: { fromSeq: 1, toSeq: 8 },
      head: second.head,
      events: [...first.events, ...second.events],
      seals: [...(first.seals as ExportSeal[]), ...(second.seals as ExportSeal[])],
    };
    expect(verify(joined)).toMatchObject({ status: 'valid', checked: 8 });
    expect(verify({ ...joined, seals: second.seals })).toMatchObject({ status: 'broken', firstBroken: { reason: 'range_mismatch' } });
    expect(verify({ ...joined, seals: first.seals })).toMatchObject({ status: 'broken', firstBroken: { reason: 'range_mismatch' } });
    expect(verify({ ...joined, seals: [...(second.seals ?? []), ...(first.seals ?? [])] }).status).toBe('broken');
  });
});
