import { readFileSync } from 'node:fs';
import { AUDIT_EXPORT_FORMAT, type AuditExport, verifyChain } from '@svc/contract';
import type { z } from 'zod';

export interface VerifyReport {
  valid: boolean;
  tenantId: string;
  checked: number;
  range: { fromSeq: number; toSeq: number };
  firstBroken: { seq: number; id: string; reason: string; message: string } | null;
}

/**
 * Verifies an audit export offline: no server, no database, only the file and its public keys.
 * Checks every link from the export's anchor, every hash and every signature, and that the
 * events cover the range the export claims.
 */
export function verifyExportFile(file: string): VerifyReport {
  let doc: z.infer<typeof AuditExport>;
  try {
    doc = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(`${file} is not a readable JSON export: ${(err as Error).message}`);
  }
  if (doc?.format !== AUDIT_EXPORT_FORMAT || !Array.isArray(doc.events) || !Array.isArray(doc.publicKeys)) {
    throw new Error(`${file} is not an audit export (format ${AUDIT_EXPORT_FORMAT})`);
  }
  const events = doc.events.map(({ object: _object, ...e }) => e);
  const verdict = verifyChain(events, doc.publicKeys, { tenantId: doc.tenantId, anchor: doc.anchor });
  let firstBroken = verdict.firstBroken;
  const expected = doc.range.toSeq - doc.range.fromSeq + 1;
  if (!firstBroken && verdict.checked !== expected) {
    firstBroken = {
      seq: doc.range.fromSeq + verdict.checked,
      id: '',
      reason: 'missing_events',
      message: `the export claims seq ${doc.range.fromSeq}..${doc.range.toSeq} but holds ${verdict.checked} events`,
    };
  }
  return { valid: !firstBroken, tenantId: doc.tenantId, checked: verdict.checked, range: doc.range, firstBroken };
}
