// What Keycloak alone can judge (a password policy it does not know, a theme that does not exist) comes back as
// an InvalidSpec failure naming the fields that were sent and Keycloak's own words; the spec must change.
import { RealmforgeError } from '../../core/errors.ts';

export class SpecRefusedError extends RealmforgeError {
  readonly reason = 'InvalidSpec';
  constructor(noun: string, fields: readonly string[], cause: RealmforgeError) {
    super(
      'validation',
      `Keycloak refused the ${noun} settings the spec sets (${fields.join(', ')}): ${cause.message}; correct the spec`,
      { cause },
    );
  }
}

/** Runs a write of `fields`; a 400 from Keycloak becomes a SpecRefusedError. */
export async function refusedAsSpec<T>(noun: string, fields: readonly string[], write: () => Promise<T>) {
  try {
    return await write();
  } catch (error) {
    if (
      error instanceof RealmforgeError &&
      error.kind === 'validation' &&
      !(error instanceof SpecRefusedError)
    )
      throw new SpecRefusedError(noun, fields, error);
    throw error;
  }
}
