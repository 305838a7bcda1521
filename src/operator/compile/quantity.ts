// Kubernetes resource quantities in the canonical form the API server stores (k8s.io/apimachinery
// resource.Quantity): `1000m` is stored as `1`, `1024Mi` as `1Gi`, `1000` as `1k`. The operator writes this form
// itself, so what it compares with the live object is what the API server kept, and a resync writes nothing.
// Exact integer arithmetic (BigInt): a value is mantissa * 10^exponent, or a whole number of bytes when binary.

const decimalSuffixes: Record<string, number> = {
  n: -9,
  u: -6,
  m: -3,
  '': 0,
  k: 3,
  M: 6,
  G: 9,
  T: 12,
  P: 15,
  E: 18,
};
const binarySuffixes: Record<string, number> = { Ki: 1, Mi: 2, Gi: 3, Ti: 4, Pi: 5, Ei: 6 };
const decimalByExponent = Object.fromEntries(Object.entries(decimalSuffixes).map(([s, e]) => [e, s]));
const binaryByPower = Object.fromEntries(Object.entries(binarySuffixes).map(([s, p]) => [p, s]));

type Format = 'DecimalSI' | 'BinarySI' | 'DecimalExponent';

/** `m * 10^e` with trailing zeros folded into the exponent, then the exponent made a multiple of 3. */
function canonicalDecimal(m: bigint, e: number): [bigint, number] {
  if (m === 0n) return [0n, 0];
  // Below a nanounit the API server rounds up (away from zero).
  if (e < -9) {
    const div = 10n ** BigInt(-9 - e);
    const q = m / div;
    m = m % div === 0n ? q : q + (m > 0n ? 1n : -1n);
    e = -9;
  }
  while (m % 10n === 0n) {
    m /= 10n;
    e++;
  }
  while (((e % 3) + 3) % 3 !== 0) {
    m *= 10n;
    e--;
  }
  return [m, e];
}

function formatDecimal(m: bigint, e: number, format: Format): string {
  const [mm, ee] = canonicalDecimal(m, e);
  if (mm === 0n) return '0';
  if (format === 'DecimalExponent') return ee === 0 ? `${mm}` : `${mm}e${ee}`;
  const suffix = decimalByExponent[ee];
  return suffix === undefined ? `${mm}e${ee}` : `${mm}${suffix}`;
}

/** The canonical form of a quantity string, or the input unchanged when it is not a quantity. */
export function canonicalQuantity(text: string): string {
  const match = /^([+-]?)(\d+(?:\.\d*)?|\.\d+)(|[numkMGTPE]|[KMGTPE]i|[eE][+-]?\d+)$/.exec(text.trim());
  if (!match) return text;
  const [, sign, number, suffix] = match as unknown as [string, string, string, string];
  const [whole, fraction = ''] = number.split('.');
  let m = BigInt(`${whole || '0'}${fraction}`) * (sign === '-' ? -1n : 1n);
  let e = -fraction.length;
  let format: Format = 'DecimalSI';
  if (suffix in binarySuffixes) {
    format = 'BinarySI';
    m *= 1024n ** BigInt(binarySuffixes[suffix] as number);
  } else if (/^[eE]/.test(suffix)) {
    format = 'DecimalExponent';
    e += Number(suffix.slice(1));
  } else e += decimalSuffixes[suffix] as number;
  if (format !== 'BinarySI') return formatDecimal(m, e, format);
  // Binary: whole bytes of at least 1024 are written in the largest binary unit that divides them exactly;
  // anything else (below 1Ki, or fractional bytes) is written as a decimal.
  const exact = e >= 0 || m % 10n ** BigInt(-e) === 0n;
  const bytes = exact ? (e >= 0 ? m * 10n ** BigInt(e) : m / 10n ** BigInt(-e)) : 0n;
  if (!exact || (bytes < 1024n && bytes > -1024n)) return formatDecimal(m, e, 'DecimalSI');
  let value = bytes;
  let power = 0;
  while (power < 6 && value % 1024n === 0n) {
    value /= 1024n;
    power++;
  }
  return `${value}${power ? binaryByPower[power] : ''}`;
}

/** A container's resources with every quantity in canonical form. */
export function canonicalResources<T extends { requests?: object; limits?: object }>(resources: T): T {
  const fix = (group?: object) =>
    group &&
    Object.fromEntries(
      Object.entries(group).map(([k, v]) => [k, typeof v === 'string' ? canonicalQuantity(v) : v]),
    );
  return {
    ...resources,
    ...(resources.requests ? { requests: fix(resources.requests) } : {}),
    ...(resources.limits ? { limits: fix(resources.limits) } : {}),
  };
}
