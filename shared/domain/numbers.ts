// How a number is written where text carries one (a CSV cell, a OneRoster filter's value): in decimal,
// with an optional sign and exponent. Other spellings `Number` reads (`0x14`, `0b11`, `Infinity`, an
// empty string) are not numbers here.

const DECIMAL = /^[-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?$/i;

/** Whether text is a number written in decimal, and nothing else (no blanks around it). */
export const isDecimal = (text: string): boolean => DECIMAL.test(text);
