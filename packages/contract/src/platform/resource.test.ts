import { describe, expect, it } from 'vitest';
import { pastTense, withArticle } from './resource.ts';

describe('the words the kit writes', () => {
  it('puts the article a label takes when said aloud', () => {
    expect(withArticle('assessment')).toBe('an assessment');
    expect(withArticle('vendor')).toBe('a vendor');
    expect(withArticle('NDA request')).toBe('an NDA request');
    expect(withArticle('RFP')).toBe('an RFP');
    expect(withArticle('DPIA')).toBe('a DPIA');
    expect(withArticle('eDiscovery export')).toBe('an eDiscovery export');
  });

  it('puts a verb in the past tense, irregular ones included', () => {
    expect(pastTense('complete')).toBe('completed');
    expect(pastTense('verify')).toBe('verified');
    expect(pastTense('submit')).toBe('submitted');
    expect(pastTense('open')).toBe('opened');
  });
});
