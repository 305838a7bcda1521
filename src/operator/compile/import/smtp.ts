// Outgoing mail: the inverse of compile/realm/smtp.ts. Keycloak keeps every value as a string; the password
// becomes a reference to a Secret (its value only in the Secret manifest, and only when the export has it).
import { compact, type ImportContext, type Json, objectAt, pathOf, type RealmSpec } from './context.ts';

const texts = ['host', 'from', 'fromDisplayName', 'replyTo', 'user'] as const;
const booleans = ['ssl', 'starttls'] as const;

export function importSmtp(exp: Json, ctx: ImportContext): Partial<RealmSpec> {
  const server = objectAt(exp.smtpServer);
  if (!Object.keys(server).length) return {};
  const smtp: Json = {};
  for (const key of texts) if (typeof server[key] === 'string' && server[key] !== '') smtp[key] = server[key];
  if (server.port !== undefined && server.port !== '') smtp.port = Number(server.port);
  for (const key of booleans) if (server[key] === 'true') smtp[key] = true;
  if (server.password !== undefined && server.password !== '')
    smtp.passwordSecretRef = ctx.secret(`${ctx.realm.toLowerCase()}-smtp`, 'password', server.password);
  const used = [...texts, ...booleans, 'port', 'password', 'auth'];
  for (const key of Object.keys(server))
    if (!used.includes(key) && server[key] !== '' && server[key] !== 'false')
      ctx.note(pathOf('smtpServer', key), 'a mail setting the CRD has no field for');
  if (!smtp.host || !smtp.from) {
    ctx.note('smtpServer', 'mail settings without a host and a from address have no field');
    return {};
  }
  return { smtp: compact(smtp) as RealmSpec['smtp'] };
}
