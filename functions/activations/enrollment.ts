/**
 * A register's enrollment with the stage's cloud control-unit system (docs/conventions.md §27): a REMOTE order without a
 * serial gets its unit from the system's enrollment service, as Infrasec's public client enrolls one (`IdmRequest`,
 * Action NEW), and the system's RegisterID becomes the unit's serial. The enrollment is kept per register, so a
 * repeated order, or one retried after a failure later in the activation, enrolls nothing twice.
 */
import { randomInt } from 'node:crypto';
import { config } from '#shared/config.ts';
import { readItem } from '#shared/db/reads.ts';
import { putIfAbsent } from '#shared/db/transact.ts';
import { type CloudUnit, controlUnitKeys } from '#shared/domain/records.ts';
import { sellerKeys } from '#shared/domain/seller.ts';
import { unprocessable } from '#shared/errors.ts';
import { postToCloud } from '#shared/kd/cloud-system.ts';
import {
  answerText,
  type EnrollmentOrder,
  idmNewRequestXml,
  registerAddressOf,
  InfrasecWireError,
  parseIdmResponse,
} from '#shared/kd/infrasec.ts';

/** Who is enrolled: the seller (as ordered) and its register, and the application it runs. */
export interface Enrollee {
  sellerId: string;
  corporateId: string;
  companyName: string | null;
  cashRegisterName: string;
  application: { name: string | null; applicationPackage: string };
}

/** An enrolled register: its serial at the system (RegisterID) and what signing needs. */
export interface Enrolled {
  serial: string;
  cloud: CloudUnit;
}

/** How long an enrollment may take before the order is refused (the system may still enroll: the repeat reuses nothing). */
const ENROLL_TIMEOUT_MS = 10_000;

/** The register's enrollment: the one kept for it, or a new one the system makes now. */
export async function enrollRegister(enrollee: Enrollee, now: number): Promise<Enrolled> {
  const key = controlUnitKeys.enrollment(enrollee.sellerId, enrollee.cashRegisterName);
  const kept = await readItem(key);
  if (kept) return { serial: kept.serial, cloud: kept.cloud };
  const enrolled = await enrollNew(enrollee, now);
  // Two orders of one register at once: the first kept wins, and both use it.
  if (await putIfAbsent({ ...key, ...enrolled })) return enrolled;
  const winner = await readItem(key);
  return winner ? { serial: winner.serial, cloud: winner.cloud } : enrolled;
}

async function enrollNew(enrollee: Enrollee, now: number): Promise<Enrolled> {
  const seller = await readItem(sellerKeys.profile(enrollee.sellerId));
  const name = seller?.name ?? enrollee.companyName ?? enrollee.sellerId;
  const address = { line: seller?.address ?? '', zip: seller?.zip ?? '', city: seller?.city ?? '' };
  const order: EnrollmentOrder = {
    applicationId: config().cloudApplicationId,
    requestId: randomInt(100_000, 1_000_000),
    partner: { code: config().cloudPartnerCode, name: config().cloudPartnerName },
    chain: { code: enrollee.corporateId, name },
    store: { id: enrollee.corporateId, name },
    company: { orgNr: hyphenated(enrollee.corporateId), name },
    address,
    register: {
      make: enrollee.application.name ?? enrollee.application.applicationPackage,
      model: enrollee.application.applicationPackage,
      alias: enrollee.cashRegisterName,
    },
  };
  const refused = (reason: string) =>
    unprocessable('CU_IS_MISSING_FOR_ACTIVATION', `The cloud control-unit system did not enroll the register: ${reason}`);
  let answer;
  try {
    answer = await postToCloud('idm', idmNewRequestXml(order), AbortSignal.timeout(ENROLL_TIMEOUT_MS));
  } catch (error) {
    console.log(JSON.stringify({ level: 'warn', message: 'idm request failed', error: String(error) }));
    throw refused('it did not answer; order again');
  }
  if (answer.status < 200 || answer.status > 299) throw refused(`it answered HTTP ${answer.status}; order again`);
  let enrollment;
  try {
    enrollment = parseIdmResponse(answer.body);
  } catch (error) {
    if (error instanceof InfrasecWireError) throw refused(`its answer could not be read (${error.message})`);
    throw error;
  }
  if (enrollment.responseCode !== 0) {
    throw refused(`${answerText(enrollment) || 'refused'} (ResponseCode ${enrollment.responseCode})`);
  }
  if (!enrollment.registerId) throw refused('its answer names no RegisterID');
  return {
    serial: enrollment.registerId,
    cloud: {
      system: 'infrasec',
      // Without a TCSID the unit is named by its RegisterID until a signing names its ControlServerID (cloud-link.ts).
      controlServerId: enrollment.tcsId ?? enrollment.registerId,
      registerAddress: registerAddressOf({ address: address.line, zip: address.zip, city: address.city }),
      enrolled: now,
    },
  };
}

/** `5560360793` -> `556036-0793`, the organisation number as the public client's test enrolls it; other ids as they are. */
function hyphenated(corporateId: string): string {
  const digits = corporateId.replace('-', '');
  return /^\d{10}$/.test(digits) ? `${digits.slice(0, 6)}-${digits.slice(6)}` : corporateId;
}
