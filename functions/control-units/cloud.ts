/**
 * GET /control-units/{serial}/cloud (docs/conventions.md §27): a cloud unit's enrollment as the service keeps it and the
 * register's status as the system reports it now (`IdmRequest` Action STATUS, as Infrasec's public client asks it).
 */
import { randomInt } from 'node:crypto';
import { config } from '#shared/config.ts';
import { notFound } from '#shared/errors.ts';
import { ok } from '#shared/http/response.ts';
import type { ApiRequest, Reply } from '#shared/http/types.ts';
import { postToCloud } from '#shared/kd/cloud-system.ts';
import { answerText, idmStatusRequestXml, InfrasecWireError, parseIdmResponse } from '#shared/kd/infrasec.ts';
import { visibleUnit } from './units.ts';

/** How long the status request may take before the answer says the system was not reached. */
const STATUS_TIMEOUT_MS = 5_000;

export async function getCloudUnit(request: ApiRequest<unknown, 'serial'>): Promise<Reply> {
  const unit = await visibleUnit(request.principal, request.params.serial);
  if (!unit.cloud) throw notFound(`Control unit ${unit.serial} is not a cloud control unit`);
  const status = await systemStatus(unit.serial);
  return ok({
    serial: unit.serial,
    system: unit.cloud.system,
    controlServerId: unit.cloud.controlServerId,
    registerAddress: unit.cloud.registerAddress,
    enrolled: unit.cloud.enrolled,
    ...status,
  });
}

interface SystemStatus {
  reachable: boolean;
  active: boolean | null;
  loginCount: number | null;
  lastLogin: string | null;
  message: string | null;
}

async function systemStatus(registerId: string): Promise<SystemStatus> {
  const unknown = (message: string): SystemStatus => ({
    reachable: false,
    active: null,
    loginCount: null,
    lastLogin: null,
    message,
  });
  const document = idmStatusRequestXml({
    applicationId: config().cloudApplicationId,
    requestId: randomInt(100_000, 1_000_000),
    registerId,
  });
  let answer;
  try {
    answer = await postToCloud('idm', document, AbortSignal.timeout(STATUS_TIMEOUT_MS));
  } catch {
    return unknown('The cloud system did not answer');
  }
  if (answer.status < 200 || answer.status > 299) return unknown(`The cloud system answered HTTP ${answer.status}`);
  try {
    const status = parseIdmResponse(answer.body);
    if (status.responseCode !== 0) {
      return { ...unknown(`${answerText(status) || 'Refused'} (ResponseCode ${status.responseCode})`), reachable: true };
    }
    return {
      reachable: true,
      active: status.active === null ? null : status.active !== 0,
      loginCount: status.loginCount,
      lastLogin: status.lastLogin,
      message: null,
    };
  } catch (error) {
    if (error instanceof InfrasecWireError)
      return { ...unknown(`Its answer could not be read: ${error.message}`), reachable: true };
    throw error;
  }
}
