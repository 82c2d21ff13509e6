/**
 * What the context rail's record schemas and its routes share: ids, statuses and example values.
 * The rail's own building blocks, not exported from the package (index.ts re-exports what is public).
 */

// The example document: a risk management policy, uploaded, then mapped to the EU AI Act.
export const EXAMPLE_TITLE = 'AI risk management policy';
export const EXAMPLE_RISK_SENTENCE =
  'The provider shall establish a risk management system in accordance with Article 9 of Regulation (EU) 2024/1689.';
export const EXAMPLE_POLICY = `Policy. ${EXAMPLE_RISK_SENTENCE}`;
