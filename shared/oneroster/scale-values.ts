// A score scale of the Gradebook binding (REST or CSV) as the native scale: its type and scoreScaleValue
// pairs. A numeric scale's one value is its range (`x - y` on the left); a letter scale's values are its
// letters (on the right), best first. Any other type, or a numeric scale without its range, is refused.
import { InvalidInputError } from '../domain/errors';

/** A numeric scale's range as the binding writes one, `x - y`: its minimum and maximum. */
const NUMBER = String.raw`-?\d+(?:\.\d+)?(?:e[-+]?\d+)?`;
const RANGE = new RegExp(String.raw`^\s*(${NUMBER})\s*-\s*(${NUMBER})\s*$`, 'i');

export interface ScaleValue {
  itemValueLHS: string;
  itemValueRHS: string;
}

/** The native scale of the binding's type and values; `prefix` names the fields of a refusal (`scoreScale.`). */
export function scaleOf(type: string, values: readonly ScaleValue[], prefix = '') {
  if (type === 'letter') {
    return { type, minimum: null, maximum: null, values: values.map((v) => v.itemValueRHS) };
  }
  if (type !== 'numeric') {
    throw new InvalidInputError(
      'A score scale here is numeric (a range) or letter (its letters, best first).',
      [{ name: `${prefix}type`, in: 'body', reason: 'must be numeric or letter' }],
    );
  }
  const range = values.length === 1 ? RANGE.exec(values[0]?.itemValueLHS ?? '') : null;
  if (!range) {
    throw new InvalidInputError("A numeric score scale's value is its range.", [
      {
        name: `${prefix}scoreScaleValue`,
        in: 'body',
        reason: "a numeric scale has one value, its range ('x - y') on the left",
      },
    ]);
  }
  return { type, minimum: Number(range[1]), maximum: Number(range[2]), values: [] };
}
