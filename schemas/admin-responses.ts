/**
 * The answers of administration: users, devices, restaurants, control units and the seller's overview. Read by the
 * OpenAPI documents (and so the typed client and the contract tests), never by a function.
 */
import { alsoNaming, having } from './describe.ts';

export const userView = having('A user.', 'username', 'role');

export const userMinified = having('A user, briefly.', 'username', 'role');

export const sessionUser = having('The caller.', 'username', 'role');

export const sellerStats = having("The seller's registers and sales at a glance.");

export const device = having('A device.', 'deviceId');

export const deviceOverview = having('A device with its installations.', 'deviceId');

export const buildInfo = having('A build of the application on an installation.');

export const restaurantOverview = having('A restaurant overview.');

export const restaurantListItem = having('A restaurant in the list.');

export const controlUnitInfo = alsoNaming(
  having(
    'A control unit (docs/conventions.md §23).',
    'id',
    'serial',
    'registrationDate',
    'controlUnitLocation',
    'softwareVendor',
  ),
  'geolocation',
);

export const bridgeStatus = alsoNaming(
  having(
    "A control unit's edge bridge (docs/conventions.md §23).",
    'serial',
    'thingName',
    'provisioned',
    'lastSeen',
    'online',
    'bridgeVersion',
  ),
  'provisionedAt',
);
