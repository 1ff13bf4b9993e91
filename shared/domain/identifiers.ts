// Identifiers with real check digits: IBANs (ISO 13616), Portuguese NIB, NIF and Cartão de Cidadão
// numbers, so the demo data passes the validators real clients run.

function mod97(digits: string): number {
  let remainder = 0;
  for (const ch of digits) remainder = (remainder * 10 + Number(ch)) % 97;
  return remainder;
}

const lettersToDigits = (s: string) =>
  [...s.toUpperCase()].map((ch) => (/[A-Z]/.test(ch) ? String(ch.charCodeAt(0) - 55) : ch)).join('');

export function ibanCheckDigits(country: string, bban: string): string {
  const check = 98 - mod97(lettersToDigits(`${bban}${country}00`));
  return String(check).padStart(2, '0');
}

export function iban(country: string, bban: string): string {
  return `${country}${ibanCheckDigits(country, bban)}${bban}`;
}

export function isValidIban(value: string): boolean {
  const compact = value.replace(/\s+/g, '').toUpperCase();
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{10,30}$/.test(compact)) return false;
  return mod97(lettersToDigits(`${compact.slice(4)}${compact.slice(0, 4)}`)) === 1;
}

/** A Portuguese NIB: bank, branch and account, then its two check digits. */
export function portugueseNib(bank: string, branch: string, account: string): string {
  const base = `${bank}${branch}${account}`;
  return `${base}${String(98 - mod97(`${base}00`)).padStart(2, '0')}`;
}

/** The check digit of a Portuguese tax number (NIF) from its first eight digits. */
export function nifCheckDigit(first8: string): string {
  const sum = [...first8].reduce((acc, d, i) => acc + Number(d) * (9 - i), 0);
  const r = sum % 11;
  return String(r < 2 ? 0 : 11 - r);
}

export function isValidNif(nif: string): boolean {
  return /^\d{9}$/.test(nif) && nifCheckDigit(nif.slice(0, 8)) === nif[8];
}

const ccValue = (ch: string) => (/\d/.test(ch) ? Number(ch) : ch.charCodeAt(0) - 55);

/** The civil identification number's own check digit (mod 11). */
function civilIdCheckDigit(first8: string): string {
  const sum = [...first8].reduce((acc, d, i) => acc + Number(d) * (9 - i), 0);
  const r = 11 - (sum % 11);
  return String(r >= 10 ? 0 : r);
}

/** Luhn-style check over the whole document number, letters counted from A = 10. */
function ccChecksumHolds(number: string): boolean {
  let sum = 0;
  [...number].reverse().forEach((ch, i) => {
    let v = ccValue(ch);
    if (i % 2 === 1) {
      v *= 2;
      if (v > 9) v -= 9;
    }
    sum += v;
  });
  return sum % 10 === 0;
}

/** A Cartão de Cidadão document number: 8 digits, check digit, 2-character version, check digit. */
export function citizenCardNumber(civilId: string, version: string): string {
  const stem = `${civilId}${civilIdCheckDigit(civilId)}${version}`;
  for (let d = 0; d <= 9; d++) {
    if (ccChecksumHolds(`${stem}${d}`)) return `${stem.slice(0, 8)} ${stem.slice(8, 9)} ${stem.slice(9)}${d}`;
  }
  throw new Error('no check digit fits');
}

export function isValidCitizenCard(value: string): boolean {
  const compact = value.replace(/\s+/g, '');
  return (
    /^\d{9}[A-Z0-9]{2}\d$/.test(compact) &&
    civilIdCheckDigit(compact.slice(0, 8)) === compact[8] &&
    ccChecksumHolds(compact)
  );
}

/** A UUID in its canonical text form, in either case (ids are stored in lower case). */
export const isUuid = (value: string) =>
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);
