// Outgoing mail: Keycloak's smtpServer map, every value a string; the password only from the Secret input.
import type { Fields, RealmSpec } from './section.ts';

export function compileSmtp(spec: RealmSpec, smtpPassword: string | undefined): Fields {
  const smtp = spec.smtp;
  if (!smtp) return {};
  const entries: [string, string | number | boolean | undefined][] = [
    ['host', smtp.host],
    ['port', smtp.port],
    ['from', smtp.from],
    ['fromDisplayName', smtp.fromDisplayName],
    ['replyTo', smtp.replyTo],
    ['ssl', smtp.ssl],
    ['starttls', smtp.starttls],
    ['auth', smtp.user ? true : undefined],
    ['user', smtp.user],
    ['password', smtp.passwordSecretRef ? smtpPassword : undefined],
  ];
  return {
    smtpServer: Object.fromEntries(
      entries.filter(([, v]) => v !== undefined).map(([k, v]) => [k, String(v)]),
    ),
  };
}
