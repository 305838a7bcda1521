// Every name and label value the operator derives from a resource's names fits the limit of the place it goes,
// whatever the input: a value that is valid as it is stays as it is (so short names read as before), a longer or
// otherwise invalid one becomes a readable prefix and a hash of the whole, as common chart helpers do
// (`trunc 63` plus a hash suffix). The hash keeps two long names that share a prefix apart, and is stable.
import { createHash } from 'node:crypto';

/** The first 8 hex digits of the SHA-256 of `text`. */
const hash8 = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 8);

/** One kind of name: its length limit, what is valid, and how text is cleaned towards it. */
type NameRule = { max: number; valid: RegExp; clean: (text: string) => string; firstLetter?: boolean };

const lowerDns = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/^-+/, '');

/** A label value: 63 characters, alphanumerics with `-_.` inside (the empty value is valid too). */
const labelRule: NameRule = {
  max: 63,
  valid: /^([A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?)?$/,
  clean: (text) => text.replace(/[^-A-Za-z0-9_.]+/g, '-').replace(/^[^A-Za-z0-9]+/, ''),
};
/** A DNS-1035 label (Service names): 63 characters, lower-case alphanumerics and `-`, starting with a letter. */
const dnsLabelRule: NameRule = {
  max: 63,
  valid: /^[a-z]([-a-z0-9]*[a-z0-9])?$/,
  clean: (text) => lowerDns(text).replace(/^[^a-z]+/, ''),
  firstLetter: true,
};
/** A DNS-1123 subdomain (Secrets and most other objects): 253 characters, dot-separated DNS-1123 labels. */
const subdomainRule: NameRule = {
  max: 253,
  valid: /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/,
  clean: lowerDns,
};

function fit(rule: NameRule, base: string, suffix: string): string {
  const whole = `${base}${suffix}`;
  if (whole.length <= rule.max && rule.valid.test(whole)) return whole;
  const tail = `${hash8(whole)}${suffix}`;
  const room = rule.max - tail.length - 1;
  const prefix = rule
    .clean(base)
    .slice(0, room)
    .replace(/[^A-Za-z0-9]+$/, '');
  if (prefix) return `${prefix}-${tail}`;
  // A DNS-1035 label may not start with a digit, as a bare hash may.
  return rule.firstLetter ? `x${tail}` : tail;
}

/** A label value for `text`. */
export const labelValue = (text: string) => fit(labelRule, text, '');

/** A Service-style name (DNS-1035 label) `<base><suffix>`; the suffix (e.g. `-discovery`) is always kept. */
export const dnsLabelName = (base: string, suffix = '') => fit(dnsLabelRule, base, suffix);

/** An object name (DNS-1123 subdomain) `<base><suffix>`; the suffix is always kept. */
export const objectName = (base: string, suffix = '') => fit(subdomainRule, base, suffix);

/** Text of at most `max` characters (a Keycloak identifier): as is when it fits, else a prefix and a hash. */
export function boundedText(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max - 9)}-${hash8(text)}`;
}
