import { isHyperAdmin } from '#shared/auth/access.ts';
import { readItem, readItems } from '#shared/db/reads.ts';
import { activationsNaming } from '#shared/domain/control-units.ts';
import { remove, transact } from '#shared/db/transact.ts';
import { type Activation, activationKeys } from '#shared/domain/records.ts';
import { inconsistentData, notFound } from '#shared/errors.ts';
import { thingName, bridgeKeys } from '#shared/kd/protocol.ts';
import { noContent, ok } from '#shared/http/response.ts';
import type { ApiRequest, Reply } from '#shared/http/types.ts';
import { checkManager, visibleUnit } from './units.ts';

/**
 * GET /control-units/{serial}/bridge: whether the unit's edge bridge was provisioned (and when), when it last
 * reported and whether it was online then, and its version. The hyper admin may ask before any activation has
 * registered the unit (a bridge is provisioned first); a vendor user only of its own vendor's units.
 */
export async function getBridge(request: ApiRequest<unknown, 'serial'>): Promise<Reply> {
  const { serial } = request.params;
  const [record, seen] = await Promise.all([readItem(bridgeKeys.bridge(serial)), readItem(bridgeKeys.status(serial))]);
  if (!isHyperAdmin(request.principal) || (!record && !seen)) await visibleUnit(request.principal, serial);
  return ok({
    serial,
    thingName: thingName(serial),
    provisioned: record !== undefined,
    provisionedAt: record?.provisioned ?? null,
    lastSeen: seen?.at ?? null,
    online: seen?.online ?? false,
    bridgeVersion: seen?.bridgeVersion ?? null,
  });
}

/**
 * DELETE /control-units/{serial}/bridge: the hyper admin removes the bridge's provisioning record and last
 * status (204), after which a kd to the unit answers 503 REQUIRES_SETUP; not while an activation naming the
 * unit is not CLOSED (409 InconsistentData SERVER_CANT_BE_REMOVED, `details.activationIds`). The thing and its
 * certificate in AWS IoT are the operator's to revoke (docs/operations.md).
 */
export async function removeBridge(request: ApiRequest<unknown, 'serial'>): Promise<Reply> {
  checkManager(request.principal);
  const { serial } = request.params;
  if (!(await readItem(bridgeKeys.bridge(serial)))) throw notFound(`Control unit ${serial} has no provisioned bridge`);
  const activations = await readItems<Activation>((await activationsNaming(serial)).map((id) => activationKeys.activation(id)));
  const serving = activations.filter((activation) => activation.status !== 'CLOSED').map((activation) => activation.id);
  if (serving.length > 0) {
    throw inconsistentData('SERVER_CANT_BE_REMOVED', `Control unit ${serial} serves activations that are not closed`, {
      activationIds: serving,
    });
  }
  await transact([remove(bridgeKeys.bridge(serial)), remove(bridgeKeys.status(serial))]);
  return noContent();
}
