import * as validators from '#schemas/generated/validators.js';
import type { KdBody } from '#schemas/types.ts';
import { access } from '#shared/auth/access.ts';
import { httpApi } from '#shared/http/api.ts';
import { listQuery, PAGE_QUERY, queryParam } from '#shared/http/query.ts';
import { perVersion, type Refusal, route, type Route } from '#shared/http/router.ts';
import { SINCE_26 } from '#shared/versions.ts';
import { KD_ORDER_FIELDS, listKdFacets } from './facets.ts';
import { postKd } from './kd.ts';
import { preloadCloudCertificate } from '#shared/kd/cloud-system.ts';

/** What a kd answers besides 201 (docs/conventions.md §25): the unit's outcomes and the body's refusals. */
const KD_REFUSALS: readonly Refusal[] = [
  ['ControlUnitReceipt'],
  ['ControlUnitUnavailable'],
  ['ControlUnitCommunication'],
  ['ServiceUnavailable', 'REQUIRES_SETUP'],
  ['VersionConflict'],
  ['InconsistentData', 'SALE_TOTALS_INCONSISTENT'],
  ['CashRegisterNameIsNotUnique'],
  ['NonUnique'],
  ['ValueNotValid', 'SHOULD_NOT_BE_NULL'],
  ['Forbidden', 'INSUFFICIENT_ACCESS_RIGHTS'],
];

/** kd-facets' filters (spec 4.3); PAGE without `like`, which the log has nothing to search by. */
const FACET_QUERY = [
  ...PAGE_QUERY.filter((param) => param.name !== 'like'),
  queryParam('controlUnit', { type: 'string' }, "Only this control unit's records (its serial)."),
  queryParam('seller', { type: 'string' }, "Only this seller's records (a seller id)."),
  queryParam('cashRegisterName', { type: 'string' }, "Only this register's records (needs seller)."),
];

/**
 * Control units (spec 4.3; docs/conventions.md §25): a register's kd through its unit's edge bridge, and the Kd log.
 * The IoT data-plane SDK and the MQTT client load on the first publish (shared/iot/publisher.ts), not at Init.
 */
export const routes: Route[] = [
  route({
    summary: "Gets a receipt's control code from the control unit",
    description:
      "The register sends a receipt's totals (the VAT per rate, the gross, the print type, the date, the receipt number) before printing it; the service passes them to the control unit its activation names, through the unit's bridge, and answers the unit's control code and serial for the receipt. The unit's refusal is 500 ControlUnitReceipt with its return code, a unit out of reach 500 ControlUnitUnavailable; a repeat of the same receipt answers the unit's first answer without asking it again.",
    responses: { 201: 'kdResult' },
    errors: KD_REFUSALS,
    method: 'POST',
    path: '/pospluses/kd',
    idempotent: true,
    versions: [15, 26],
    access: access.register,
    body: perVersion<KdBody>({ 15: validators.kdV15, 26: validators.kdV26 }),
    handle: postKd,
  }),
  route({
    summary: "Gets a receipt's control code from the control unit",
    description:
      "The register sends a receipt's totals (the VAT per rate, the gross, the print type, the date, the receipt number) before printing it; the service passes them to the control unit its activation names, through the unit's bridge, and answers the unit's control code and serial for the receipt. The unit's refusal is 500 ControlUnitReceipt with its return code, a unit out of reach 500 ControlUnitUnavailable; a repeat of the same receipt answers the unit's first answer without asking it again. The path names the caller's own register.",
    responses: { 201: 'kdResult' },
    errors: [...KD_REFUSALS, ['ReferenceNotFound']],
    method: 'POST',
    path: '/{sellerId}/registration/{cash}/kd',
    idempotent: true,
    versions: [33],
    access: access.ownRegisterSrv4pos,
    body: validators.kdV33,
    handle: postKd,
  }),
  route({
    summary: "Lists the control units' log of receipts",
    description:
      "The Kd log: each receipt a control unit registered, with its seller, register, unit and outcome, a page at a time, filtered by control unit, seller or register. With `seller`, any user with access to that seller reads its records; without it, the hyper admin reads all of them, a software-vendor user those of its vendor's units.",
    query: FACET_QUERY,
    responses: { 200: { list: 'kdLogRecord' } },
    errors: [
      ['InconsistentData', 'SELLER_SHOULD_BE_PROVIDED_FOR_CR', 'SELLER_HAS_NOT_REGISTRATION'],
      ['ReferenceNotFound'],
      ['Forbidden', 'INSUFFICIENT_ACCESS_RIGHTS'],
    ],
    method: 'GET',
    path: '/kd-facets',
    versions: [15],
    access: access.user,
    handle: listKdFacets,
  }),
  route({
    summary: "Lists the control units' log of receipts",
    description:
      "The Kd log: each receipt a control unit registered, with its seller, register, unit and outcome, a page at a time, filtered by control unit, seller, register or software vendor and ordered as asked. With `seller`, any user with access to that seller reads its records; without it, the hyper admin reads all of them, a software-vendor user those of its vendor's units.",
    query: [
      ...FACET_QUERY,
      ...listQuery(KD_ORDER_FIELDS).filter((param) => param.name === 'orderBy' || param.name === 'orderDesc'),
      queryParam('softwareVendor', { type: 'integer' }, "Only the records of this software vendor's units."),
    ],
    responses: { 200: { list: 'kdLogRecord' } },
    errors: [['ReferenceNotFound'], ['Forbidden', 'INSUFFICIENT_ACCESS_RIGHTS']],
    method: 'GET',
    path: '/kd-facets',
    versions: SINCE_26,
    access: access.user,
    handle: listKdFacets,
  }),
];

// The cloud system's client certificate is read at Init (docs/conventions.md §27).
preloadCloudCertificate();

export const handler = httpApi(routes);
