// What a realm's or client's ownership record lists for one section (section-ownership.ts), for the tests.
import { itemLedger } from '../../../src/operator/keycloak/collections/collection.ts';
import { openRecord } from '../../../src/operator/keycloak/collections/record.ts';
import { sectionLedgers } from '../../../src/operator/keycloak/collections/section-ownership.ts';

/** The keys the record of `live` (a realm or client as Keycloak has it) lists for `section`. */
export const recorded = (live: object | undefined, section: keyof typeof sectionLedgers): Set<string> =>
  new Set(
    itemLedger(
      (openRecord(live) as { attributes?: Record<string, unknown> } | undefined)?.attributes,
      sectionLedgers[section],
    ).managed,
  );
