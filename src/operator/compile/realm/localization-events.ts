// Localization (internationalization on, supported and default locales) and events (user and admin events,
// enabled event types, expiration, listeners): plain RealmRepresentation fields.
import { defined, type Fields, type RealmSpec } from './section.ts';

export const localizationDefaults: Fields = {
  internationalizationEnabled: false,
  supportedLocales: [],
  defaultLocale: '',
};

export const eventsDefaults: Fields = {
  eventsEnabled: false,
  eventsExpiration: 0,
  enabledEventTypes: [],
  eventsListeners: ['jboss-logging'],
  adminEventsEnabled: false,
  adminEventsDetailsEnabled: false,
};

/** List fields compared as sets (Keycloak keeps its own order). */
export const localizationEventsSets = ['supportedLocales', 'enabledEventTypes', 'eventsListeners'];

export function compileLocalization(spec: RealmSpec): Fields {
  const section = spec.localization;
  if (!section) return {};
  return defined({
    internationalizationEnabled: true,
    supportedLocales: section.supportedLocales,
    defaultLocale: section.defaultLocale,
  });
}

export const compileEvents = (spec: RealmSpec): Fields => defined({ ...spec.events });
