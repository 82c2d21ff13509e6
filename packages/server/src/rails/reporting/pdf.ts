import { createHash } from 'node:crypto';
import PDFDocument from 'pdfkit';
import type { ComposedReport, ReportTable } from './compose.ts';

/**
 * Renders a composed report to PDF: a title page (tenant, system, as-of date, the draft notice and
 * the recommended reviewers), then each section's heading, paragraphs and table, drawn as a grid
 * that repeats its header row on every page it spans, and a footer with the draft notice and the
 * page number on every page. The document's dates come from the report's as-of time, so the same
 * composed report renders to the same bytes.
 */

export interface PdfContext {
  tenantName: string;
  systemName: string | null;
  templateId: string;
}

export interface RenderedPdf {
  bytes: Buffer;
  sha256: string;
  pages: number;
}

const MARGIN = 56;
const FOOTER = 'DRAFT: not published';
const FONT = 'Helvetica';
const BOLD = 'Helvetica-Bold';

/**
 * The standard PDF fonts encode WinAnsi only: typographic characters are mapped to their plain
 * forms and anything else outside Latin-1 becomes `?`, rather than a glyph the font lacks.
 */
export function pdfText(s: string): string {
  return s
    .replace(/[\u2018\u2019\u201A\u2032]/g, "'")
    .replace(/[\u201C\u201D\u201E\u2033]/g, '"')
    .replace(/[\u2013\u2014\u2212]/g, '-')
    .replace(/\u2026/g, '...')
    .replace(/[\u00A0\u2007\u202F]/g, ' ')
    .replace(/\u2022/g, '-')
    .replace(/\u2265/g, '>=')
    .replace(/\u2264/g, '<=')
    .replace(/\u00D7/g, 'x')
    .replace(/[^\n\t\u0020-\u007E\u00A1-\u00FF]/g, '?');
}

export function renderReportPdf(report: ComposedReport, ctx: PdfContext): Promise<RenderedPdf> {
  const asOf = new Date(report.asOf);
  const doc = new PDFDocument({
    size: 'A4',
    margins: { top: MARGIN, bottom: MARGIN + 14, left: MARGIN, right: MARGIN },
    bufferPages: true,
    info: {
      Title: pdfText(report.title),
      Author: pdfText(ctx.tenantName),
      Subject: pdfText(`${report.audience} (${ctx.templateId})`),
      Keywords: 'draft',
      CreationDate: asOf,
      ModDate: asOf,
    },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  titlePage(doc, report, ctx);
  for (const section of report.sections) {
    doc.addPage();
    doc.font(BOLD).fontSize(15).fillColor('#111111').text(pdfText(section.heading));
    doc.moveDown(0.5);
    for (const p of section.paragraphs) {
      doc.font(FONT).fontSize(10.5).fillColor('#222222').text(pdfText(p), { align: 'left', lineGap: 2 });
      doc.moveDown(0.5);
    }
    if (section.table && section.table.columns.length > 0) {
      doc.moveDown(0.3);
      drawTable(doc, section.table);
    }
  }
  footers(doc);
  const pages = doc.bufferedPageRange().count;
  doc.end();
  return done.then((bytes) => ({ bytes, sha256: createHash('sha256').update(bytes).digest('hex'), pages }));
}

function titlePage(doc: PDFKit.PDFDocument, report: ComposedReport, ctx: PdfContext) {
  const width = doc.page.width - 2 * MARGIN;
  doc.font(BOLD).fontSize(11).fillColor('#B00020').text(FOOTER.toUpperCase(), { characterSpacing: 1 });
  doc.moveDown(3);
  doc.font(BOLD).fontSize(24).fillColor('#111111').text(pdfText(report.title), { width });
  doc.moveDown(0.4);
  doc
    .font(FONT)
    .fontSize(13)
    .fillColor('#444444')
    .text(pdfText(`For: ${report.audience}`), { width });
  doc.moveDown(2);
  const rows: [string, string][] = [
    ['Organisation', ctx.tenantName],
    [
      'AI system',
      ctx.systemName
        ? `${ctx.systemName}${report.systemId && report.systemId !== ctx.systemName ? ` (${report.systemId})` : ''}`
        : 'All systems',
    ],
    ['As of', `${report.asOf.slice(0, 10)} ${report.asOf.slice(11, 16)} UTC`],
    ['Template', ctx.templateId],
    ['Status', 'Draft: not published. A person reviews and publishes it; the service never does.'],
  ];
  for (const [k, v] of rows) {
    const y = doc.y;
    doc.font(BOLD).fontSize(10.5).fillColor('#111111').text(k, MARGIN, y, { width: 110 });
    doc
      .font(FONT)
      .fontSize(10.5)
      .fillColor('#222222')
      .text(pdfText(v), MARGIN + 120, y, { width: width - 120 });
    doc.moveDown(0.6);
  }
  doc.moveDown(1.5);
  doc.x = MARGIN;
  doc.font(BOLD).fontSize(12).fillColor('#111111').text('Recommended reviewers', MARGIN, doc.y, { width });
  doc.moveDown(0.3);
  const reviewers = report.recommendedReviewers.length > 0 ? report.recommendedReviewers : ['(none named)'];
  for (const r of reviewers)
    doc
      .font(FONT)
      .fontSize(10.5)
      .fillColor('#222222')
      .text(pdfText(`- ${r}`), { width });
  doc.moveDown(1.5);
  doc.font(BOLD).fontSize(12).fillColor('#111111').text('Contents', { width });
  doc.moveDown(0.3);
  report.sections.forEach((s, i) => {
    doc
      .font(FONT)
      .fontSize(10.5)
      .fillColor('#222222')
      .text(pdfText(`${i + 1}. ${s.heading}`), { width });
  });
}

const CELL_PAD = 4;
const TABLE_FONT = 8.5;

/** Column widths proportional to the longest text of each column, each at least a sixth of fair share. */
function columnWidths(table: ReportTable, total: number): number[] {
  const n = table.columns.length;
  const longest = table.columns.map((c, i) => Math.min(60, Math.max(c.length, ...table.rows.map((r) => String(r[i] ?? '').length), 4)));
  const sum = longest.reduce((a, b) => a + b, 0);
  const floor = total / n / 6;
  const raw = longest.map((l) => Math.max(floor, (total * l) / sum));
  const scale = total / raw.reduce((a, b) => a + b, 0);
  return raw.map((w) => w * scale);
}

function drawTable(doc: PDFKit.PDFDocument, table: ReportTable) {
  const left = MARGIN;
  const total = doc.page.width - 2 * MARGIN;
  const widths = columnWidths(table, total);
  const bottom = () => doc.page.height - doc.page.margins.bottom;

  const rowHeight = (cells: string[], font: string) => {
    doc.font(font).fontSize(TABLE_FONT);
    return Math.max(
      ...cells.map((c, i) => doc.heightOfString(pdfText(c), { width: (widths[i] ?? 0) - 2 * CELL_PAD }) + 2 * CELL_PAD),
      TABLE_FONT + 2 * CELL_PAD,
    );
  };
  const drawRow = (cells: string[], y: number, h: number, header: boolean) => {
    let x = left;
    if (header) doc.rect(left, y, total, h).fill('#E8EAF0');
    doc.lineWidth(0.5).strokeColor('#8A8F99');
    cells.forEach((c, i) => {
      const w = widths[i] ?? 0;
      doc.rect(x, y, w, h).stroke();
      doc
        .font(header ? BOLD : FONT)
        .fontSize(TABLE_FONT)
        .fillColor('#111111')
        .text(pdfText(c), x + CELL_PAD, y + CELL_PAD, { width: w - 2 * CELL_PAD, lineBreak: true });
      x += w;
    });
    doc.x = left;
    doc.y = y + h;
  };

  const header = table.columns;
  const headerH = rowHeight(header, BOLD);
  if (doc.y + headerH * 2 > bottom()) doc.addPage();
  drawRow(header, doc.y, headerH, true);
  for (const raw of table.rows) {
    const cells = header.map((_, i) => String(raw[i] ?? ''));
    const h = rowHeight(cells, FONT);
    if (doc.y + h > bottom()) {
      doc.addPage();
      drawRow(header, doc.y, headerH, true);
    }
    drawRow(cells, doc.y, h, false);
  }
  if (table.rows.length === 0) {
    doc.moveDown(0.3);
    doc.font(FONT).fontSize(9).fillColor('#555555').text('(no rows)', left, doc.y);
  }
  doc.moveDown(0.8);
}

function footers(doc: PDFKit.PDFDocument) {
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    const y = doc.page.height - MARGIN + 4;
    // Writing inside the bottom margin would otherwise start a new page.
    const saved = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    doc
      .font(FONT)
      .fontSize(8)
      .fillColor('#777777')
      .text(`${FOOTER} - page ${i + 1} of ${range.count}`, MARGIN, y, {
        width: doc.page.width - 2 * MARGIN,
        align: 'center',
        lineBreak: false,
      });
    doc.page.margins.bottom = saved;
  }
}
