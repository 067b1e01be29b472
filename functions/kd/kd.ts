import type { KdBody } from '#schemas/types.ts';
import { readItem } from '#shared/db/reads.ts';
import { type Activation, activationKeys } from '#shared/domain/records.ts';
import { controlUnitReceipt, referenceNotFound, valueNotValid } from '#shared/errors.ts';
import { timeZoneOf } from '#shared/fiscal/dates.ts';
import type { ApiRequest, Reply } from '#shared/http/types.ts';
import { writerOf } from '#shared/fiscal/ledger.ts';
import { sendKd } from './flow.ts';
import { kdOrderOf, orgOf, registerIdFor } from './mapping.ts';

/**
 * A register's kd (docs/conventions.md §25): always the caller's own register (v33's path names it, and its access
 * rule holds it to the caller's). Its activation's control unit signs; an activation without one cannot send a kd.
 */
export async function postKd(request: ApiRequest<KdBody>): Promise<Reply> {
  const register = writerOf(request.principal);
  const activation = await readItem(activationKeys.activation(register.activationId));
  const serial = activation?.controlUnitSerial ?? null;
  if (!activation || serial === null) {
    throw controlUnitReceipt(
      "The register's activation has no control unit to send a kd to",
      {},
      'WORKING_WITH_CU_IS_NOT_SUPPORTED_BY_APP',
    );
  }
  checkNamedUnit(request.body, activation);
  return sendKd({
    register,
    serial,
    version: request.version,
    order: kdOrderOf(request.body),
    idempotency: request.idempotency,
    context: { org: orgOf(register.sellerId), registerId: registerIdFor(register.cash), timeZone: timeZoneOf(register.sellerId) },
  });
}

/**
 * v33's second body names the control unit and the application: both or neither, and each must be the
 * activation's (404 ReferenceNotFound, spec 4.3's error of the endpoint), so a register never signs through a
 * unit or as an application it is not activated for.
 */
function checkNamedUnit(body: KdBody, activation: Activation): void {
  const serial = 'controlUnitSerial' in body ? (body.controlUnitSerial ?? null) : null;
  const application = 'applicationPackage' in body ? (body.applicationPackage ?? null) : null;
  if (serial === null && application === null) return;
  if (serial === null)
    throw valueNotValid('SHOULD_NOT_BE_NULL', 'controlUnitSerial goes with applicationPackage', { field: 'controlUnitSerial' });
  if (application === null) {
    throw valueNotValid('SHOULD_NOT_BE_NULL', 'applicationPackage goes with controlUnitSerial', { field: 'applicationPackage' });
  }
  if (serial !== activation.controlUnitSerial) {
    throw referenceNotFound(`The register's activation has no control unit ${serial}`);
  }
  if (application !== activation.applicationPackage) {
    throw referenceNotFound(
      `The register's activation is not of application ${application}`,
      'ACTIVATION_APPLICATION_PACKAGE_MUST_BE_NULL_OR_EQUAL',
    );
  }
}
