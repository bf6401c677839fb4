const MAX_CODE_POINT = 0x10ffff;
const SURROGATES_START = 0xd800;
const SURROGATES_END = 0xdfff;

/**
 * The smallest string above every string that starts with `prefix`, in code point order (which is
 * SQLite's binary UTF-8 order), or undefined when there is none. With it a prefix match becomes an
 * index range `prefix <= value < bound`.
 */
export function prefixUpperBound(prefix: string): string | undefined {
  const codePoints = Array.from(prefix, (char) => char.codePointAt(0)!);
  while (codePoints.length > 0 && codePoints[codePoints.length - 1] === MAX_CODE_POINT) codePoints.pop();
  if (codePoints.length === 0) return undefined;
  const last = codePoints.pop()! + 1;
  codePoints.push(last === SURROGATES_START ? SURROGATES_END + 1 : last);
  return String.fromCodePoint(...codePoints);
}
