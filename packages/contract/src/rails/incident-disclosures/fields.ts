import { z } from 'zod';
import { prefixedId } from '../../shared/common.ts';
import { exampleId } from '../../shared/records.ts';

/**
 * What the incident disclosures rail's record schemas and its routes share: ids, statuses and example values.
 * The rail's own building blocks, not exported from the package (index.ts re-exports what is public).
 */

/** Regimes whose notification clocks the service computes. */
export const INCIDENT_REGIMES = ['gdpr', 'uk-gdpr', 'nis2', 'dora', 'eu-ai-act', 'lgpd'] as const;

export const Regime = z.enum(INCIDENT_REGIMES).meta({
  description:
    'Regime whose clocks apply: `gdpr` (Art. 33/34), `uk-gdpr`, `nis2` (Art. 23), `dora` (RTS 2025/301), `eu-ai-act` (Art. 73), `lgpd` (ANPD Res. 15/2024).',
});
export const DisclosureId = prefixedId('idc', exampleId('idc'));
export const DisclosureStatus = z.enum(['open', 'closed']);

/** The stage the examples are about: GDPR's notification to the authority. */
export const EXAMPLE_STAGE = { regime: 'gdpr', stage: 'authority-notification' };

// ---------------------------------------------------------------- channels

/** The channel the examples register: the CNIL, under GDPR. */
export const CHANNEL_INPUT = { regime: 'gdpr', name: 'CNIL', submissionUrl: 'https://notifications.cnil.fr/notifications/index' };
