// The realm's own fields (General, Login, Tokens, Themes, Localization, Events, flow bindings): the inverse of
// compile/realm/general.ts, localization-events.ts and flow-bindings.ts. A field equal to Keycloak's default is
// left out; the defaults are the compiler's own tables, so the two directions cannot disagree.
import { flowBindingDefaults, flowBindingFields } from '../realm/flow-bindings.ts';
import { generalDefaults, loginDefaults, tokenDefaults } from '../realm/general.ts';
import { eventsDefaults } from '../realm/localization-events.ts';
import { compact, type ImportContext, type Json, type RealmSpec, same, strings } from './context.ts';

/** The fields of `table` whose value in the export differs from the table's default. */
function changed(exp: Json, table: Json, skip: readonly string[] = []): Json {
  return Object.fromEntries(
    Object.keys(table)
      .filter((k) => !skip.includes(k) && k in exp && !same(exp[k], table[k]))
      .map((k) => [k, exp[k]]),
  );
}

const themeFields = {
  login: 'loginTheme',
  account: 'accountTheme',
  admin: 'adminTheme',
  email: 'emailTheme',
};

export const realmFieldsKeys = [
  ...Object.keys(generalDefaults),
  ...Object.keys(loginDefaults),
  ...Object.keys(tokenDefaults),
  ...Object.keys(eventsDefaults),
  ...Object.keys(flowBindingDefaults),
  'internationalizationEnabled',
  'supportedLocales',
  'defaultLocale',
  'localizationTexts',
];

export function importRealmFields(exp: Json, ctx: ImportContext): Partial<RealmSpec> {
  const tokens = changed(exp, tokenDefaults, [
    'offlineSessionMaxLifespanEnabled',
    'offlineSessionMaxLifespan',
  ]);
  // One field in the spec, two in Keycloak: a lifespan is a limit only when it is enabled.
  if (exp.offlineSessionMaxLifespanEnabled === true)
    tokens.offlineSessionMaxLifespan = exp.offlineSessionMaxLifespan;
  else if (
    exp.offlineSessionMaxLifespan !== undefined &&
    !same(exp.offlineSessionMaxLifespan, tokenDefaults.offlineSessionMaxLifespan)
  )
    ctx.note(
      'offlineSessionMaxLifespan',
      'a lifespan set while its limit is off (offlineSessionMaxLifespanEnabled false) has no field',
    );
  const themes = Object.fromEntries(
    Object.entries(themeFields)
      .filter(([, field]) => typeof exp[field] === 'string' && exp[field] !== '')
      .map(([name, field]) => [name, exp[field]]),
  );
  const bindings = Object.fromEntries(
    Object.entries(flowBindingFields)
      .filter(([, field]) => field in exp && !same(exp[field], flowBindingDefaults[field]))
      .map(([name, field]) => [name, exp[field]]),
  );
  return compact({
    displayName: typeof exp.displayName === 'string' && exp.displayName !== '' ? exp.displayName : undefined,
    enabled: exp.enabled === false ? false : undefined,
    themes,
    login: changed(exp, loginDefaults),
    tokens,
    localization: importLocalization(exp, ctx),
    events: changed(exp, eventsDefaults),
    authenticationFlowBindings: bindings,
  }) as Partial<RealmSpec>;
}

function importLocalization(exp: Json, ctx: ImportContext): RealmSpec['localization'] {
  const messages = exp.localizationTexts as Record<string, Record<string, string>> | undefined;
  const locales = strings(exp.supportedLocales);
  if (exp.internationalizationEnabled !== true) {
    if (locales.length)
      ctx.note('supportedLocales', 'locales listed while internationalization is off have no field');
    if (messages && Object.keys(messages).length)
      ctx.note(
        'localizationTexts',
        'realm texts while internationalization is off have no field',
        Object.keys(messages).length,
      );
    return undefined;
  }
  if (!locales.length) {
    ctx.note(
      'internationalizationEnabled',
      'internationalization on without a supported locale has no field',
    );
    return undefined;
  }
  return compact({
    supportedLocales: locales as [string, ...string[]],
    defaultLocale:
      typeof exp.defaultLocale === 'string' && exp.defaultLocale !== '' ? exp.defaultLocale : undefined,
    messages: messages && Object.keys(messages).length ? messages : undefined,
  });
}
