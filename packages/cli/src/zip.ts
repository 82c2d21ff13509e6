import { crc32, inflateRawSync } from 'node:zlib';

/**
 * A strict zip reader for the packs of the reporting rail. A pack's signature covers the bytes of
 * the files its manifest lists, not the zip around them, so the reader refuses every zip two tools
 * could read differently: two entries of one name (one tool shows the first, another the last), a
 * local header that names or describes its entry unlike the central directory (streaming tools
 * read the local one), bytes no entry, central directory or end record covers (a prepended stub,
 * an entry hidden between two others, anything appended), a zip comment (the end record is found
 * by a backward scan that a comment can fool), and ZIP64, encryption and multi-disk zips, which a
 * pack never is. Entries are inflated one at a time, only on demand, with a cap on their size and
 * a check of their CRC.
 */

export type ZipProblem =
  | 'not_a_zip'
  | 'zip_malformed'
  | 'zip_unsupported'
  | 'zip_duplicate_entry'
  | 'zip_header_mismatch'
  | 'zip_unreferenced_bytes'
  | 'zip_size_limit'
  | 'zip_bad_crc';

/** A zip the reader refuses; `entry` names the entry concerned when there is one. */
export class ZipError extends Error {
  constructor(
    readonly reason: ZipProblem,
    message: string,
    readonly entry: string | null = null,
  ) {
    super(message);
    this.name = 'ZipError';
  }
}

export interface ZipEntry {
  name: string;
  method: 0 | 8;
  crc32: number;
  compressedSize: number;
  size: number;
  localOffset: number;
  /** Where the entry's (compressed) data starts and where the entry, data descriptor included, ends. */
  dataStart: number;
  end: number;
}

const LOCAL = 0x04034b50;
const CENTRAL = 0x02014b50;
const END = 0x06054b50;
const DESCRIPTOR = 0x08074b50;
const END_SIZE = 22;
/** Flags a pack's entries may carry: deflate options (bits 1-2), data descriptor (3), UTF-8 names (11). */
const DATA_DESCRIPTOR = 0x0008;
const ALLOWED_FLAGS = 0x0002 | 0x0004 | DATA_DESCRIPTOR | 0x0800;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Whether the bytes look like a zip at all: a local header first, or an end record near the end. */
export function looksLikeZip(buf: Buffer): boolean {
  if (buf.length >= 4 && buf.readUInt32LE(0) === LOCAL) return true;
  return findEnd(buf) >= 0;
}

function findEnd(buf: Buffer): number {
  for (let i = buf.length - END_SIZE; i >= Math.max(0, buf.length - END_SIZE - 0xffff); i--) {
    if (buf.readUInt32LE(i) === END) return i;
  }
  return -1;
}

/** The entries of a zip, from its central directory, once every structural check has passed. */
export function readZipDirectory(buf: Buffer): ZipEntry[] {
  const at = (off: number, len: number, what: string) => {
    if (off < 0 || off + len > buf.length) throw new ZipError('zip_malformed', `the zip is truncated: ${what} runs past its end`);
  };
  const eocd = buf.length - END_SIZE;
  if (eocd < 0 || buf.readUInt32LE(eocd) !== END) {
    const found = findEnd(buf);
    if (found < 0) throw new ZipError('not_a_zip', 'not a zip file (no end of central directory record)');
    const commentLen = buf.readUInt16LE(found + 20);
    if (commentLen > 0 && found + END_SIZE + commentLen === buf.length) {
      throw new ZipError('zip_unsupported', `the zip carries a comment of ${commentLen} bytes, which no signature covers; a pack has none`);
    }
    throw new ZipError(
      'zip_unreferenced_bytes',
      `${buf.length - found - END_SIZE} bytes follow the end of central directory record; they are not part of the zip`,
    );
  }
  if (buf.readUInt16LE(eocd + 20) !== 0) throw new ZipError('zip_unsupported', 'the zip carries a comment, which no signature covers');
  const disk = buf.readUInt16LE(eocd + 4);
  const cdDisk = buf.readUInt16LE(eocd + 6);
  const onDisk = buf.readUInt16LE(eocd + 8);
  const count = buf.readUInt16LE(eocd + 10);
  const cdSize = buf.readUInt32LE(eocd + 12);
  const cdOffset = buf.readUInt32LE(eocd + 16);
  if (count === 0xffff || cdSize === 0xffffffff || cdOffset === 0xffffffff) {
    throw new ZipError('zip_unsupported', 'the zip is a ZIP64 archive, which a pack never is');
  }
  if (disk !== 0 || cdDisk !== 0 || onDisk !== count) throw new ZipError('zip_unsupported', 'the zip spans several disks');
  if (cdOffset + cdSize !== eocd) {
    throw new ZipError(
      'zip_unreferenced_bytes',
      cdOffset + cdSize < eocd
        ? `${eocd - cdOffset - cdSize} bytes between the central directory and its end record are not part of the zip`
        : 'the central directory overlaps its end record',
    );
  }

  const entries: ZipEntry[] = [];
  const names = new Set<string>();
  let p = cdOffset;
  for (let n = 0; n < count; n++) {
    at(p, 46, 'the central directory');
    if (buf.readUInt32LE(p) !== CENTRAL) throw new ZipError('zip_malformed', `central directory entry ${n + 1} has no header signature`);
    const flags = buf.readUInt16LE(p + 8);
    const method = buf.readUInt16LE(p + 10);
    const crc = buf.readUInt32LE(p + 16);
    const compressedSize = buf.readUInt32LE(p + 20);
    const size = buf.readUInt32LE(p + 24);
    const nameLen = buf.readUInt16LE(p + 28);
    const extraLen = buf.readUInt16LE(p + 30);
    const commentLen = buf.readUInt16LE(p + 32);
    const startDisk = buf.readUInt16LE(p + 34);
    const localOffset = buf.readUInt32LE(p + 42);
    at(p + 46, nameLen + extraLen + commentLen, 'the central directory');
    const nameBytes = buf.subarray(p + 46, p + 46 + nameLen);
    let name: string;
    try {
      name = utf8.decode(nameBytes);
    } catch {
      throw new ZipError('zip_malformed', `central directory entry ${n + 1} has a name that is not UTF-8`);
    }
    p += 46 + nameLen + extraLen + commentLen;
    if (name === '' || name.includes('\0'))
      throw new ZipError('zip_malformed', `central directory entry ${n + 1} has an empty or NUL-bearing name`);
    if (names.has(name)) {
      throw new ZipError('zip_duplicate_entry', `the zip holds two entries named ${name}; tools differ on which one they read`, name);
    }
    names.add(name);
    if (flags & ~ALLOWED_FLAGS) {
      throw new ZipError(
        'zip_unsupported',
        `${name} uses zip features a pack never has (flags 0x${flags.toString(16)}: encryption?)`,
        name,
      );
    }
    if (method !== 0 && method !== 8) throw new ZipError('zip_unsupported', `${name}: unsupported zip compression method ${method}`, name);
    if (compressedSize === 0xffffffff || size === 0xffffffff || localOffset === 0xffffffff) {
      throw new ZipError('zip_unsupported', `${name} is a ZIP64 entry, which a pack never has`, name);
    }
    if (startDisk !== 0) throw new ZipError('zip_unsupported', `${name} starts on another disk`, name);
    if (method === 0 && compressedSize !== size) {
      throw new ZipError(
        'zip_malformed',
        `${name} is stored, yet its compressed size ${compressedSize} differs from its size ${size}`,
        name,
      );
    }

    // The local header must say what the central directory says.
    at(localOffset, 30, `the local header of ${name}`);
    if (buf.readUInt32LE(localOffset) !== LOCAL)
      throw new ZipError('zip_malformed', `${name}: no local header at offset ${localOffset}`, name);
    const lFlags = buf.readUInt16LE(localOffset + 6);
    const lMethod = buf.readUInt16LE(localOffset + 8);
    const lCrc = buf.readUInt32LE(localOffset + 14);
    const lCompressed = buf.readUInt32LE(localOffset + 18);
    const lSize = buf.readUInt32LE(localOffset + 22);
    const lNameLen = buf.readUInt16LE(localOffset + 26);
    const lExtraLen = buf.readUInt16LE(localOffset + 28);
    at(localOffset + 30, lNameLen + lExtraLen, `the local header of ${name}`);
    const lName = buf.subarray(localOffset + 30, localOffset + 30 + lNameLen);
    if (!lName.equals(nameBytes)) {
      throw new ZipError(
        'zip_header_mismatch',
        `the local header of ${name} names it ${JSON.stringify(lName.toString('utf8'))}; tools that read local headers would see another file`,
        name,
      );
    }
    // With a data descriptor the local header may leave CRC and sizes at zero; otherwise they must match.
    const deferred = (flags & DATA_DESCRIPTOR) !== 0;
    const same = (local: number, central: number) => local === central || (deferred && local === 0);
    if (lFlags !== flags || lMethod !== method || !same(lCrc, crc) || !same(lCompressed, compressedSize) || !same(lSize, size)) {
      throw new ZipError(
        'zip_header_mismatch',
        `the local header of ${name} disagrees with the central directory (flags, method, CRC or sizes)`,
        name,
      );
    }
    const dataStart = localOffset + 30 + lNameLen + lExtraLen;
    let end = dataStart + compressedSize;
    at(dataStart, compressedSize, `the data of ${name}`);
    if (deferred) {
      const signed = end + 4 <= buf.length && buf.readUInt32LE(end) === DESCRIPTOR ? 4 : 0;
      at(end, signed + 12, `the data descriptor of ${name}`);
      const d = end + signed;
      if (buf.readUInt32LE(d) !== crc || buf.readUInt32LE(d + 4) !== compressedSize || buf.readUInt32LE(d + 8) !== size) {
        throw new ZipError('zip_header_mismatch', `the data descriptor of ${name} disagrees with the central directory`, name);
      }
      end = d + 12;
    }
    entries.push({ name, method, crc32: crc, compressedSize, size, localOffset, dataStart, end });
  }
  if (p !== cdOffset + cdSize) {
    throw new ZipError('zip_malformed', `the central directory holds ${p - cdOffset} bytes of entries, its end record says ${cdSize}`);
  }

  // Every byte before the central directory belongs to exactly one entry, in order, from offset 0.
  let expected = 0;
  for (const e of [...entries].sort((a, b) => a.localOffset - b.localOffset)) {
    if (e.localOffset > expected) {
      throw new ZipError(
        'zip_unreferenced_bytes',
        `bytes ${expected}..${e.localOffset - 1} (${e.localOffset - expected} bytes, before ${e.name}) belong to no entry of the central directory`,
        e.name,
      );
    }
    if (e.localOffset < expected) throw new ZipError('zip_malformed', `${e.name} overlaps the entry before it`, e.name);
    expected = e.end;
  }
  if (expected !== cdOffset) {
    throw new ZipError(
      expected < cdOffset ? 'zip_unreferenced_bytes' : 'zip_malformed',
      expected < cdOffset
        ? `bytes ${expected}..${cdOffset - 1} (${cdOffset - expected} bytes, before the central directory) belong to no entry of the central directory`
        : 'the last entry overlaps the central directory',
    );
  }
  return entries;
}

/**
 * The bytes of one entry, inflated to at most `maxBytes` (the size the caller expects, or a cap of
 * its own), whose CRC must be the one the central directory gives. A deflate stream that would
 * grow past the cap is stopped there, so a zip bomb costs no more memory than the cap.
 */
export function extractEntry(buf: Buffer, e: ZipEntry, maxBytes: number): Buffer {
  if (e.size > maxBytes) {
    throw new ZipError('zip_size_limit', `${e.name} declares ${e.size} bytes, more than the ${maxBytes} it may have`, e.name);
  }
  const data = buf.subarray(e.dataStart, e.dataStart + e.compressedSize);
  let out: Buffer;
  if (e.method === 0) out = Buffer.from(data);
  else {
    let inflated: { buffer: Buffer; engine: { bytesWritten: number } };
    try {
      inflated = inflateRawSync(data, { info: true, maxOutputLength: Math.max(e.size, 1) }) as unknown as typeof inflated;
    } catch (err) {
      if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') {
        throw new ZipError('zip_size_limit', `${e.name} inflates to more than the ${e.size} bytes it declares; stopped there`, e.name);
      }
      throw new ZipError('zip_malformed', `${e.name}: cannot be decompressed (${(err as Error).message}): the zip is damaged`, e.name);
    }
    // Compressed bytes after the end of the deflate stream would be bytes no check reads.
    if (inflated.engine.bytesWritten !== e.compressedSize) {
      throw new ZipError(
        'zip_unreferenced_bytes',
        `${e.name}: ${e.compressedSize - inflated.engine.bytesWritten} bytes follow the end of its compressed data`,
        e.name,
      );
    }
    out = inflated.buffer;
  }
  if (out.length !== e.size) {
    throw new ZipError('zip_header_mismatch', `${e.name} holds ${out.length} bytes; the central directory says ${e.size}`, e.name);
  }
  const crc = crc32(out) >>> 0;
  if (crc !== e.crc32) {
    throw new ZipError(
      'zip_bad_crc',
      `${e.name} has CRC-32 ${crc.toString(16).padStart(8, '0')}, the zip says ${e.crc32.toString(16).padStart(8, '0')}: the entry is damaged or altered`,
      e.name,
    );
  }
  return out;
}
