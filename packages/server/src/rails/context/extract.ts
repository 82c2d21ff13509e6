import { CONTEXT_FILE_MAX_BYTES, CONTEXT_FILE_MEDIA_TYPES, CONTEXT_TEXT_MAX_BYTES } from '@svc/contract';
import { unzipSync } from 'fflate';
import { ApiError } from '../../errors.ts';

/**
 * Text of an uploaded PDF or DOCX file. PDF text comes from pdf.js (the serverless build `unpdf`
 * ships; its console output silenced), DOCX text from `mammoth`'s raw-text reading of the
 * document part. Every refusal is 422 `validation_failed` at `contentBase64`, its `issue` naming
 * why: `too_big` (over CONTEXT_FILE_MAX_BYTES of file, a DOCX whose parts expand past 64 MiB,
 * or over the rail's 1 MiB of extracted text), `encrypted` (a password-protected PDF, or an encrypted Office file, which is an OLE
 * container rather than a zip), `corrupt` (not a readable file of the declared type) or `no_text`
 * (a file that holds no text, such as a scan: images only).
 */

export type FileKind = keyof typeof CONTEXT_FILE_MEDIA_TYPES;

const FIELD = 'contentBase64';
const LABEL: Record<FileKind, string> = { pdf: 'PDF', docx: 'DOCX' };

/** The kind of file a media type declares; undefined for text media types. */
export function fileKindOf(mediaType: string | undefined): FileKind | undefined {
  if (!mediaType) return undefined;
  const type = mediaType.toLowerCase();
  return (Object.keys(CONTEXT_FILE_MEDIA_TYPES) as FileKind[]).find((k) => CONTEXT_FILE_MEDIA_TYPES[k] === type);
}

function refused(issue: 'too_big' | 'encrypted' | 'corrupt' | 'no_text', message: string): ApiError {
  return new ApiError('validation_failed', message, [{ field: FIELD, issue, message }]);
}

/** An encrypted Office document is an OLE compound file (EncryptionInfo + EncryptedPackage), not a zip. */
const OLE_MAGIC = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
const ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]);

async function pdfText(bytes: Buffer): Promise<string> {
  // pdf.js tolerates leading junk before the header; a file with no header at all is no PDF.
  if (!bytes.subarray(0, 1024).includes('%PDF-')) throw refused('corrupt', 'The file is not a PDF: it has no %PDF- header.');
  // Loaded on the first upload (pdf.js and mammoth's XML stack are large): a service that never
  // reads a file does not hold them.
  const { extractText, getDocumentProxy } = await import('unpdf');
  let doc: Awaited<ReturnType<typeof getDocumentProxy>> | undefined;
  try {
    // A copy: pdf.js detaches the buffer it is given.
    doc = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0, stopAtErrors: false });
    return (await extractText(doc, { mergePages: true })).text;
  } catch (err) {
    const name = (err as { name?: string } | null)?.name;
    if (name === 'PasswordException') {
      throw refused('encrypted', 'The PDF is encrypted with a password; upload a copy without the password.');
    }
    throw refused('corrupt', `The PDF cannot be read: ${(err as Error)?.message ?? 'invalid structure'}.`);
  } finally {
    // The document's worker-side state (a proxy created here is the caller's to release).
    await doc?.loadingTask.destroy();
  }
}

/** Most bytes a DOCX's parts may expand to: a small zip that inflates to gigabytes is refused unread. */
const DOCX_EXPANDED_MAX_BYTES = 64 * 1_048_576;

/** The sum of the sizes the zip's directory declares for its entries (nothing is inflated). */
function expandedSize(bytes: Buffer): number {
  let total = 0;
  unzipSync(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), {
    filter: (f) => {
      total += f.originalSize;
      return false;
    },
  });
  return total;
}

async function docxText(bytes: Buffer): Promise<string> {
  if (bytes.subarray(0, 8).equals(OLE_MAGIC)) {
    throw refused(
      'encrypted',
      'The DOCX is encrypted with a password (an encrypted Office container); upload a copy without the password.',
    );
  }
  if (!bytes.subarray(0, 4).equals(ZIP_MAGIC)) throw refused('corrupt', 'The file is not a DOCX: a DOCX is a zip archive.');
  let expanded: number;
  try {
    expanded = expandedSize(bytes);
  } catch (err) {
    throw refused('corrupt', `The DOCX cannot be read: ${(err as Error)?.message ?? 'invalid archive'}.`);
  }
  if (expanded > DOCX_EXPANDED_MAX_BYTES) {
    throw refused('too_big', `The DOCX expands to ${expanded} bytes; at most ${DOCX_EXPANDED_MAX_BYTES} bytes (64 MiB) are read.`);
  }
  try {
    const { default: mammoth } = await import('mammoth');
    return (await mammoth.extractRawText({ buffer: bytes })).value;
  } catch (err) {
    throw refused('corrupt', `The DOCX cannot be read: ${(err as Error)?.message ?? 'invalid archive'}.`);
  }
}

/** Characters the store refuses (NUL, lone surrogates) and other C0 controls but tab and newline. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point: they are removed.
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** The text of a PDF or DOCX file, normalised (newlines, no control characters, trimmed); refusals as above. */
export async function fileText(kind: FileKind, bytes: Buffer): Promise<string> {
  if (bytes.length > CONTEXT_FILE_MAX_BYTES) {
    throw refused(
      'too_big',
      `The ${LABEL[kind]} file is ${bytes.length} bytes; at most ${CONTEXT_FILE_MAX_BYTES} bytes (4 MiB) are accepted.`,
    );
  }
  const raw = kind === 'pdf' ? await pdfText(bytes) : await docxText(bytes);
  const text = raw
    .replace(/\r\n?/g, '\n')
    .replace(CONTROL, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  if (text === '') {
    throw refused(
      'no_text',
      `The ${LABEL[kind]} holds no text (only images or drawings, such as a scan); upload a file with a text layer, or its text.`,
    );
  }
  const size = Buffer.byteLength(text, 'utf8');
  if (size > CONTEXT_TEXT_MAX_BYTES) {
    throw refused('too_big', `The ${LABEL[kind]}'s text is ${size} bytes; at most ${CONTEXT_TEXT_MAX_BYTES} bytes (1 MiB) are stored.`);
  }
  return text;
}
