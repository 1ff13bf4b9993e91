// How the sign-in pages pick their language: OpenID Connect's ui_locales first, then Accept-Language
// by weight (RFC 9110 section 12.5.4), then the tenant's language.
import { describe, expect, it } from 'vitest';
import { chooseLocale } from './page-text';

describe('chooseLocale', () => {
  it('takes the first ui_locales tag the pages speak', () => {
    expect(chooseLocale('fr-FR pt-PT en', 'en', 'en')).toBe('pt');
    expect(chooseLocale('en-GB', 'pt', 'pt')).toBe('en');
  });

  it('falls back to Accept-Language by weight, refusals (q=0) skipped', () => {
    expect(chooseLocale(undefined, 'fr;q=0.9, pt-BR;q=0.8, en;q=0.5', 'en')).toBe('pt');
    expect(chooseLocale(undefined, 'en;q=0.2, pt;q=0.7', 'en')).toBe('pt');
    expect(chooseLocale(undefined, 'pt;q=0, en', 'pt')).toBe('en');
    expect(chooseLocale('de', 'en-US,en;q=0.9', 'pt')).toBe('en');
  });

  it("uses the tenant's language when nothing names one the pages speak", () => {
    expect(chooseLocale(undefined, undefined, 'pt')).toBe('pt');
    expect(chooseLocale('', '*', 'en')).toBe('en');
    expect(chooseLocale('de', 'fr, es;q=0.5', 'pt')).toBe('pt');
  });
});
