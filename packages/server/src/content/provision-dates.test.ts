import { describe, expect, it } from 'vitest';
import { DictionaryDate, provisionDate } from './provision-dates.ts';

describe('dates of law read from the dictionaries', () => {
  it('reads the date of a clause from the latest version, amendments applied', () => {
    // Art. 9 applied from 2 August 2026 as enacted; Regulation (EU) 2026/1744 moved it.
    expect(provisionDate({ dictionary: 'eu-ai-act', clause: 'art-9' })).toBe('2027-12-02');
    expect(provisionDate({ dictionary: 'gdpr', clause: 'art-33' })).toBe('2018-05-25');
    expect(DictionaryDate.parse({ dictionary: 'uk-gdpr', clause: 'art-12a' })).toBe('2026-02-05');
  });

  it('refuses a provision that does not give one date, naming it', () => {
    const none = DictionaryDate.safeParse({ dictionary: 'eu-ai-act', clause: 'art-999' });
    expect(none.success).toBe(false);
    expect(none.error?.issues[0]?.message).toMatch(/eu-ai-act#art-999: eu-ai-act@\d+\.\d+\.\d+ art-999 gives no date/);
    expect(DictionaryDate.safeParse({ dictionary: 'no-such-law', clause: 'art-1' }).success).toBe(false);
    // A date written where the provision belongs is refused: the date is stated once, in the dictionary.
    expect(DictionaryDate.safeParse('2026-08-02').success).toBe(false);
  });
});
