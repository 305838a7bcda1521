// One check's outcome, as `realmforge doctor --json` prints it (schemas/operator/doctor-report.schema.json).
import type { DoctorCheck } from '../../../generated/types/operator/doctor-report.ts';

export type { DoctorCheck };
export type Area = DoctorCheck['area'];

/** A check that passed. */
export function ok(area: Area, subject: string, message: string): DoctorCheck {
  return { area, subject, status: 'OK', message };
}

/** Something that works but deserves attention: what was found, why, and what to do. */
export function warn(area: Area, subject: string, message: string, cause: string, fix: string): DoctorCheck {
  return { area, subject, status: 'WARN', message, cause, fix };
}

/** A symptom of the troubleshooting guide: what was found, its cause, and the fix. */
export function fail(area: Area, subject: string, message: string, cause: string, fix: string): DoctorCheck {
  return { area, subject, status: 'FAIL', message, cause, fix };
}

type Condition = { type: string; status?: string; reason?: string; message?: string };

/** The status of the condition `type` of an object, or undefined. */
export function condition(
  object: { readonly [field: string]: unknown },
  type: string,
): Condition | undefined {
  const conditions = (object.status as { conditions?: Condition[] } | undefined)?.conditions ?? [];
  return conditions.find((c) => c.type === type);
}
