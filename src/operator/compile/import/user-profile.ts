// The user profile: Keycloak's export carries it as the config of the realm's UserProfileProvider component (one
// JSON document). Attributes and groups that differ from a new realm's profile (Keycloak 25 and 26 ship the same
// one, keycloak-default-user-profile.json) become spec.userProfile; a built-in one removed is noted.
import { ValidationError } from '../../../core/errors.ts';
import {
  compact,
  type ImportContext,
  type Json,
  listAt,
  objectAt,
  pathOf,
  type RealmSpec,
  same,
} from './context.ts';
import defaultProfile from './keycloak-default-user-profile.json' with { type: 'json' };

/** The component type holding the profile (claimed here, so the leftovers do not report it). */
export const userProfileComponent = 'org.keycloak.userprofile.UserProfileProvider';

const attributeFields = [
  'name',
  'displayName',
  'validations',
  'annotations',
  'permissions',
  'required',
  'selector',
  'group',
  'multivalued',
];
const groupFields = ['name', 'displayHeader', 'displayDescription', 'annotations'];

export function importUserProfile(exp: Json, ctx: ImportContext): Partial<RealmSpec> {
  const [component] = listAt(objectAt(exp.components)[userProfileComponent]);
  const text = (objectAt(component?.config)['kc.user.profile.config'] as unknown[] | undefined)?.[0];
  if (typeof text !== 'string') return {};
  const where = `${pathOf('components', userProfileComponent)}[0].config["kc.user.profile.config"]`;
  let doc: Json;
  try {
    doc = objectAt(JSON.parse(text));
  } catch (error) {
    throw new ValidationError(`${where}: not a JSON user profile (${(error as Error).message})`);
  }
  const pick = (kind: string, list: unknown, builtIn: Json[], fields: string[]) => {
    const byName = new Map(builtIn.map((x) => [String(x.name), x]));
    const names = new Set(listAt(list).map((x) => String(x.name)));
    for (const name of byName.keys())
      if (!names.has(name))
        ctx.note(
          `userProfile.${kind}[${name}]`,
          `Keycloak's built-in ${kind.slice(0, -1)} removed: the CRD keeps Keycloak's own`,
        );
    return listAt(list).flatMap((item) => {
      const name = String(item.name);
      const known = byName.get(name);
      const kept = Object.fromEntries(fields.filter((f) => f in item).map((f) => [f, item[f]]));
      for (const f of Object.keys(item))
        if (!fields.includes(f))
          ctx.note(`userProfile.${kind}[${name}].${f}`, 'a user profile setting the CRD has no field for');
      if (
        known &&
        same(
          compact({ ...kept, multivalued: kept.multivalued || undefined }),
          compact({ ...known, multivalued: known.multivalued || undefined }),
        )
      )
        return [];
      return [compact({ ...kept, multivalued: kept.multivalued === true ? true : undefined })];
    });
  };
  const policy = doc.unmanagedAttributePolicy;
  const userProfile = compact({
    unmanagedAttributePolicy: typeof policy === 'string' ? policy : undefined,
    attributes: pick('attributes', doc.attributes, listAt(defaultProfile.attributes), attributeFields),
    groups: pick('groups', doc.groups, listAt(defaultProfile.groups), groupFields),
  });
  return Object.keys(userProfile).length
    ? { userProfile: userProfile as unknown as RealmSpec['userProfile'] }
    : {};
}
