import { describe, expect, it } from 'vitest';
import {
  citizenCardNumber,
  iban,
  isValidCitizenCard,
  isValidIban,
  isValidNif,
  nifCheckDigit,
  portugueseNib,
} from './identifiers';

describe('identifiers with check digits (demo data and write validation)', () => {
  it('computes IBAN check digits that published IBANs confirm', () => {
    // Published examples: ISO 13616 / the European Committee for Banking Standards registry.
    expect(iban('GB', 'WEST12345698765432')).toBe('GB82WEST12345698765432');
    expect(iban('DE', '370400440532013000')).toBe('DE89370400440532013000');
    expect(isValidIban('PT50000201231234567890154')).toBe(true);
    expect(isValidIban('PT50000201231234567890155')).toBe(false);
  });

  it('builds Portuguese IBANs whose NIB check makes them PT50', () => {
    const nib = portugueseNib('0035', '0123', '00012345678');
    expect(iban('PT', nib)).toMatch(/^PT50\d{21}$/);
    expect(isValidIban(iban('PT', nib))).toBe(true);
  });

  it('computes NIF check digits', () => {
    expect(nifCheckDigit('50000000')).toBe('0');
    expect(isValidNif('500000000')).toBe(true);
    expect(isValidNif('123456789')).toBe(true);
    expect(isValidNif('123456780')).toBe(false);
  });

  it('builds Cartão de Cidadão numbers that validate', () => {
    const number = citizenCardNumber('12345678', 'ZZ');
    expect(number).toMatch(/^12345678 \d ZZ\d$/);
    expect(isValidCitizenCard(number)).toBe(true);
    expect(isValidCitizenCard(number.replace(/\d$/, (d) => String((Number(d) + 1) % 10)))).toBe(false);
  });
});
