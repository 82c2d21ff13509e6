import { describe, expect, it } from 'vitest';
import { isSpareSegment, tarEntries, withoutEntries } from './pglite-dump.ts';

/** A ustar archive of `files` (name, text), as a tar writer lays it out. */
function tarOf(files: Array<[string, string]>): Uint8Array {
  const parts: Uint8Array[] = [];
  for (const [name, text] of files) {
    const header = new Uint8Array(512);
    header.set(new TextEncoder().encode(name), 0);
    const data = new TextEncoder().encode(text);
    header.set(new TextEncoder().encode(`${data.length.toString(8).padStart(11, '0')}\0`), 124);
    header.set(new TextEncoder().encode('ustar\0'), 257);
    parts.push(header);
    const padded = new Uint8Array(Math.ceil(data.length / 512) * 512);
    padded.set(data);
    parts.push(padded);
  }
  parts.push(new Uint8Array(1024));
  return new Uint8Array(Buffer.concat(parts));
}

describe('the embedded dump without spare WAL segments', () => {
  it('names a WAL segment spare unless it holds the redo record; nothing else is a segment', () => {
    const redo = '000000010000000000000002';
    expect(isSpareSegment(`/pg_wal/${redo}`, redo)).toBe(false);
    expect(isSpareSegment('/pg_wal/000000010000000000000003', redo)).toBe(true);
    expect(isSpareSegment('pg_wal/000000010000000000000001', redo)).toBe(true);
    expect(isSpareSegment('/pg_wal/archive_status', redo)).toBe(false);
    expect(isSpareSegment('/base/5/000000010000000000000003', redo)).toBe(false);
    expect(isSpareSegment('/pg_wal/000000010000000000000003.partial', redo)).toBe(false);
  });

  it('drops the entries named, keeps the others byte for byte, and ends the archive', () => {
    const long = 'x'.repeat(1300);
    const tar = tarOf([
      ['/PG_VERSION', '17\n'],
      ['/pg_wal/000000010000000000000002', long],
      ['/pg_wal/000000010000000000000003', long],
      ['/base/5/1249', 'catalog'],
    ]);
    const kept = withoutEntries(tar, (name) => name.endsWith('0003'));
    expect([...tarEntries(kept)].map((e) => e.name)).toEqual(['/PG_VERSION', '/pg_wal/000000010000000000000002', '/base/5/1249']);
    // Three blocks fewer: the dropped entry's header and its 1,300 bytes padded to 1,536.
    expect(tar.length - kept.length).toBe(512 + 1536);
    expect(kept.subarray(kept.length - 1024).every((b) => b === 0)).toBe(true);
    expect(withoutEntries(tar, () => false)).toEqual(tar);
  });
});
