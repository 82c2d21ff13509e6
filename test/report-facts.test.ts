import { declaredResources } from '@svc/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ComposedReport } from '../packages/server/src/rails/reporting/compose.ts';
import { createTenant, type TenantFixture } from './support/api.ts';
import { makeRecord } from './support/fixtures.ts';
import { section } from './support/reports.ts';
import { startTestServer, type TestServer } from './support/server.ts';

/**
 * A report is composed from every rail's records of the tenant (rails/reporting/facts.ts): risk
 * sign-offs, attestations, incident disclosures, data-subject requests, vendors, certifications,
 * sub-processors, training modules and records. One record of each, made from the contract's own
 * examples, must show in the sections that report them, and in no other tenant's report.
 */
let ts: TestServer;
let t: TenantFixture;
let other: TenantFixture;
const made: Record<string, Record<string, unknown>> = {};

const OBJECTS = [
  'svc.risk_register.sign_off',
  'svc.compliance.attestation',
  'svc.incident_disclosures.disclosure',
  'svc.dsar.request',
  'svc.vendor_risk.vendor',
  'svc.trust.certification',
  'svc.trust.sub_processor',
  'svc.training_records.module',
  'svc.training_records.record',
];

/** A section as JSON text, to find a record's values in its cells. */
const sectionText = (r: ComposedReport, block: string) => JSON.stringify(section(r, block));

async function report(tenant: TenantFixture, slug: string, template: string): Promise<ComposedReport> {
  const r = await tenant.call('POST', `/v1/agents/${slug}/invoke`, { body: { template } });
  expect(r.status, `${slug} ${template}: ${JSON.stringify(r.body)}`).toBe(200);
  return r.body as ComposedReport;
}

beforeAll(async () => {
  ts = await startTestServer();
  [t, other] = await Promise.all([createTenant(ts), createTenant(ts)]);
  for (const object of OBJECTS) {
    const resource = declaredResources().find((r) => r.object === object);
    if (!resource) throw new Error(`no resource ${object}`);
    made[object] = (await makeRecord(t, resource)) as Record<string, unknown>;
  }
}, 120_000);
afterAll(() => ts?.close());

describe('a report over a tenant with a record in every rail it reads', () => {
  it('lists the risk sign-off and the attestation in the audit committee report', async () => {
    const signOff = made['svc.risk_register.sign_off'] as { signerId: string; residualScore: number };
    const signOffs = sectionText(await report(t, 'svc-reporting', 'audit-committee'), 'signOffs');
    expect(signOffs).toContain(`"Risk acceptance"`);
    expect(signOffs).toContain(signOff.signerId);
    expect(signOffs).toContain(`residual ${signOff.residualScore}`);
    const attestation = made['svc.compliance.attestation'] as { subject: { type: string; id: string }; attester: { name: string } };
    expect(signOffs).toContain(`${attestation.subject.type} ${attestation.subject.id}`);
    expect(signOffs).toContain(attestation.attester.name);
    const theirs = sectionText(await report(other, 'svc-reporting', 'audit-committee'), 'signOffs');
    expect(theirs).not.toContain(signOff.signerId);
    expect(theirs).not.toContain(attestation.attester.name);
  });

  it('lists the certification and the sub-processor in the customer report', async () => {
    const r = await report(t, 'svc-reporting', 'customer');
    expect(sectionText(r, 'certifications')).toContain(String(made['svc.trust.certification']?.name));
    expect(sectionText(r, 'subProcessors')).toContain(String(made['svc.trust.sub_processor']?.name));
    const theirs = await report(other, 'svc-reporting', 'customer');
    expect(sectionText(theirs, 'certifications')).not.toContain(String(made['svc.trust.certification']?.name));
  });

  it('lists the data-subject request with its statutory due date, and names the vendor, in the internal report', async () => {
    const request = made['svc.dsar.request'] as { id: string; receivedAt: string };
    const r = await report(t, 'svc-reporting', 'internal');
    // GDPR Art. 12(3): one month from receipt.
    const received = new Date(request.receivedAt);
    const due = new Date(Date.UTC(received.getUTCFullYear(), received.getUTCMonth() + 1, received.getUTCDate())).toISOString().slice(0, 10);
    expect(sectionText(r, 'dsars')).toContain(`["${request.id}","gdpr","access","received","${request.receivedAt.slice(0, 10)}","${due}"`);
    expect(sectionText(r, 'vendors')).toContain(String(made['svc.vendor_risk.vendor']?.name));
    const theirs = await report(other, 'svc-reporting', 'internal');
    expect(sectionText(theirs, 'dsars')).not.toContain(request.id);
    expect(sectionText(theirs, 'vendors')).not.toContain(String(made['svc.vendor_risk.vendor']?.name));
  });

  it('shows the training module, its completion and its certificate in the trainer report', async () => {
    const r = await report(t, 'svc-trainer-reporting', 'trainer');
    expect(sectionText(r, 'curriculum')).toContain(String(made['svc.training_records.module']?.title));
    expect(sectionText(r, 'curriculum')).toContain('eu-ai-act');
    const record = made['svc.training_records.record'] as { certificateId: string; score: number };
    expect(sectionText(r, 'trainingCompletion')).toContain('1 of 1 completion(s) are valid on the report date.');
    expect(sectionText(r, 'trainingAttestations')).toContain(`"${record.score}","${record.certificateId}"`);
    const theirs = await report(other, 'svc-trainer-reporting', 'trainer');
    expect(sectionText(theirs, 'trainingAttestations')).not.toContain(record.certificateId);
  });

  it("puts the open incident disclosure among the board's decisions", async () => {
    const title = String(made['svc.incident_disclosures.disclosure']?.title);
    expect(sectionText(await report(t, 'svc-reporting', 'board'), 'decisionsNeeded')).toContain(title);
    expect(sectionText(await report(other, 'svc-reporting', 'board'), 'decisionsNeeded')).not.toContain(title);
  });
});
