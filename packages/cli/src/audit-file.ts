import { readFileSync } from 'node:fs';
import type { AuditExport } from '@svc/contract';
import type { z } from 'zod';
import { type TrustAnchor, type VerifyReport, verifyExportDocument } from './audit.ts';
import { isZip, verifyPackBytes } from './audit-pack.ts';

/**
 * Verifies an audit export offline: no server, no database. A zip is taken for a pack of the
 * reporting rail and checked by verifyPackBytes (audit-pack.ts). Checks every link from the export's
 * anchor, every hash and every signature, and that the events cover the range the export claims.
 * With a trust anchor, only keys from the anchor verify signatures; without one, the file's own
 * keys are used and the result is at best `unanchored`, because a forger who rewrites the events
 * can sign them with a key of their own and put it in the file.
 */
export function verifyExportFile(file: string, trust: TrustAnchor = {}): VerifyReport {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (err) {
    throw new Error(`${file} is not readable: ${(err as Error).message}`);
  }
  // A pack of the reporting rail (a zip): its signed manifest, its files and the export inside.
  if (isZip(bytes)) return verifyPackBytes(bytes, trust);
  let doc: z.infer<typeof AuditExport>;
  try {
    doc = JSON.parse(bytes.toString('utf8'));
  } catch (err) {
    throw new Error(`${file} is not a readable JSON export: ${(err as Error).message}`);
  }
  return verifyExportDocument(doc, file, trust);
}
