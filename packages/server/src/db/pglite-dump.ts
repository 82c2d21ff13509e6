/**
 * The dump of an embedded cluster that a new one starts from (the suite's snapshot; the user's
 * template of a first start is a copy of the files, embedded-template.ts, with the same spare
 * segments left out): checkpointed, so that a start from it replays no WAL, and without the
 * WAL segments after the one the checkpoint's redo record is in. PostgreSQL keeps those segments
 * as recycled spares (16 MB each) and makes a new one when it needs it; a dump that carried them
 * wrote them into every new cluster's memory at every start (a quarter of the dump).
 */
import type { PGlite } from '@electric-sql/pglite';

/** A checkpointed dump of the cluster without its spare WAL segments. */
export async function compactDump(client: PGlite): Promise<Blob> {
  await client.exec('CHECKPOINT');
  const { rows } = await client.query<{ redo_wal_file: string }>('SELECT redo_wal_file FROM pg_control_checkpoint()');
  const redo = rows[0]?.redo_wal_file;
  const dump = await client.dumpDataDir('none');
  if (!redo) return dump;
  const tar = new Uint8Array(await dump.arrayBuffer());
  return new Blob([withoutEntries(tar, (name) => isSpareSegment(name, redo))], { type: 'application/x-tar' });
}

/** A WAL segment file (24 hex digits under pg_wal) other than the one `redo` names. */
export function isSpareSegment(name: string, redo: string): boolean {
  const m = /(?:^|\/)pg_wal\/([0-9A-F]{24})$/.exec(name);
  return m !== null && m[1] !== redo;
}

const BLOCK = 512;

/** The text of a NUL-padded field of a tar header. */
function field(header: Uint8Array, from: number, to: number): string {
  const bytes = header.subarray(from, to);
  const end = bytes.indexOf(0);
  return new TextDecoder().decode(end < 0 ? bytes : bytes.subarray(0, end));
}

/** The entries of a (ustar) tar archive: each a 512-byte header and its data padded to 512 bytes, up to the two zero blocks that end it. */
export function* tarEntries(tar: Uint8Array): Generator<{ name: string; bytes: Uint8Array }> {
  let offset = 0;
  while (offset + BLOCK <= tar.length) {
    const header = tar.subarray(offset, offset + BLOCK);
    if (header.every((b) => b === 0)) return;
    const prefix = field(header, 345, 500);
    const name = prefix ? `${prefix}/${field(header, 0, 100)}` : field(header, 0, 100);
    const size = Number.parseInt(field(header, 124, 136).trim() || '0', 8);
    const length = BLOCK + Math.ceil(size / BLOCK) * BLOCK;
    yield { name, bytes: tar.subarray(offset, offset + length) };
    offset += length;
  }
}

/** The archive without the entries `drop` names, the others byte for byte. */
export function withoutEntries(tar: Uint8Array, drop: (name: string) => boolean): Uint8Array {
  const kept = [...tarEntries(tar)].filter((e) => !drop(e.name)).map((e) => e.bytes);
  kept.push(new Uint8Array(2 * BLOCK));
  const out = new Uint8Array(kept.reduce((n, part) => n + part.length, 0));
  let at = 0;
  for (const part of kept) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
