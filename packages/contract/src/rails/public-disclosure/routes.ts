import { z } from 'zod';
import { railRouter, resource } from '../../platform/resource.ts';
import { setting } from '../../platform/setting.ts';
import type { eventType } from '../../platform/webhook-events.ts';
import { NOTICE_STATUSES, SystemId } from './fields.ts';
import {
  DisclosureDocument,
  GenerateDisclosureDocumentBody,
  GenerateTransparencyNoticeBody,
  PutSystemProfileBody,
  SystemProfile,
  TransparencyNotice,
} from './schemas.ts';

/** The public disclosure rail's resources and hand-declared routes, its router and the event types it emits. */

// ---------------------------------------------------------------- transparency notices

export const transparencyNotices = resource({
  rail: 'public_disclosure',
  path: 'transparency',
  name: 'transparency_notice',
  label: { one: 'transparency notice', many: 'transparency notices' },
  idPrefix: 'pdn',
  record: TransparencyNotice,
  statusField: 'status',
  filters: {
    systemId: SystemId.optional().meta({ description: 'Only notices of this system.' }),
    status: z.enum(NOTICE_STATUSES).optional().meta({ description: 'Only notices in this status.' }),
  },
  create: {
    body: GenerateTransparencyNoticeBody,
    action: 'transparency_notice.generated',
    summary: 'Generate a transparency notice',
    description:
      'Generates the next version of the system’s transparency notice from its profile and records (assessments, evidence, linked risks) and stores it immutably with its SHA-256 and sources. A system without a profile still gets a notice, with `profile` in `missing`.',
    eventSummary: 'A transparency notice version was generated.',
  },
  transitions: {
    publish: { from: ['draft'], to: 'published', action: 'transparency_notice.published', summary: 'Publish a transparency notice' },
    withdraw: { from: ['published'], to: 'withdrawn', action: 'transparency_notice.withdrawn', summary: 'Withdraw a transparency notice' },
  },
});

// ---------------------------------------------------------------- art-50, art-53-gpai, model-card

const DOC_WORDS = {
  'art-50': {
    label: 'Art. 50 disclosure',
    what: 'which transparency duties of Art. 50(1)-(4) apply from the system profile and the text each requires',
  },
  'art-53-gpai': {
    label: 'Art. 53 GPAI documentation',
    what: 'the Art. 53(1)(a)-(d) documentation of a general-purpose AI model, its Annex XI and XII items filled from the records and the missing ones listed',
  },
  'model-card': {
    label: 'model card',
    what: 'a model card (intended use, model, evaluation, risks, limitations, evidence) from the records',
  },
} as const;

/**
 * The documents of one kind: the rows of the documents' table whose `kind` is `kind` (a variant of
 * the `document` family, one record type), each generation the next version of its
 * system's document of that kind.
 */
function documentResource<const K extends keyof typeof DOC_WORDS>(kind: K) {
  const w = DOC_WORDS[kind];
  return resource({
    rail: 'public_disclosure',
    path: kind,
    variant: { family: 'document', field: 'kind', value: kind },
    name: 'document',
    label: { one: `${w.label} version`, many: `${w.label} versions` },
    idPrefix: 'pdd',
    record: DisclosureDocument,
    filters: { systemId: SystemId.optional().meta({ description: 'Only versions of this system.' }) },
    create: {
      body: GenerateDisclosureDocumentBody,
      action: 'disclosure_document.generated',
      summary: `Generate a ${w.label}`,
      description: `Generates the next version of ${w.what}, stored immutably with the SHA-256 of its canonical content and its sources. Versions generated at once are numbered in turn.`,
      eventSummary: 'An Art. 50, Art. 53 GPAI or model-card version was generated.',
    },
  });
}

export const art50Documents = documentResource('art-50');
export const art53GpaiDocuments = documentResource('art-53-gpai');
export const modelCards = documentResource('model-card');

/** A document kind's routes under the names of its SDK methods (`generate` creates). */
const documentRoutes = ({ routes }: typeof art50Documents | typeof art53GpaiDocuments | typeof modelCards) => ({
  list: routes.list,
  generate: routes.create,
  get: routes.get,
});

/** What the documents need to know of an AI system, declared per `systemId`. */
export const systemProfiles = setting({
  rail: 'public_disclosure',
  path: 'systems',
  subResource: 'transparency',
  name: 'system_profile',
  label: 'system profile',
  record: SystemProfile,
  body: PutSystemProfileBody,
  key: { param: 'systemId', schema: SystemId, label: 'AI system' },
  unset: 'not_found',
  action: 'system_profile.declared',
  eventSummary: 'An AI-system profile for public disclosure was declared or changed.',
  list: { summary: 'List system profiles', description: 'The declared AI-system profiles.' },
  get: { summary: 'Get a system profile', description: 'The profile declared for this `systemId`.' },
  put: {
    summary: 'Declare a system profile',
    description:
      'Declares what the documents need to know of the system: who provides and deploys it, what it does, the Art. 50 facts, and the register risks, GPAI summaries and red-team targets that concern it (422 `validation_failed` for an id this tenant does not have, and nothing changes).',
  },
});

export const publicDisclosureRouter = railRouter('public_disclosure', {
  transparency: transparencyNotices.routes,
  art50: documentRoutes(art50Documents),
  art53Gpai: documentRoutes(art53GpaiDocuments),
  modelCard: documentRoutes(modelCards),
  listSystems: systemProfiles.routes.list,
  getSystem: systemProfiles.routes.get,
  putSystem: systemProfiles.routes.put,
});

/** Event types the public_disclosure rail emits. */
export const publicDisclosureEvents: ReturnType<typeof eventType>[] = [
  ...transparencyNotices.events,
  // The document kinds share their event type, registered once.
  ...art50Documents.events,
  ...systemProfiles.events,
];
