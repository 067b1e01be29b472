/**
 * The v33 kd, `POST /{sellerId}/registration/{cash}/kd` (spec 4.3; docs/conventions.md §25 once merged): a register asks
 * its control unit for the control code of a receipt. The route is not in docs/openapi yet (branch wt-kd), so its
 * types are written here after that contract (/work/notes/kd-contract.md, schemas/kd.ts on wt-kd), in the shape
 * openapi-typescript gives; once the documents carry it, `client.POST('/v33/{sellerId}/registration/{cash}/kd')` of
 * the generated paths replaces this file.
 */
import type { ErrorBody } from './client.ts';

export interface KdBody {
  /** VAT rate in percent as text (`"25"`, `"12.5"`) -> the receipt's brutto at that rate, in hundredths; at most 4 rates. */
  vatRateToSum: Record<string, number>;
  refund: boolean;
  printType: 'Normal' | 'Copy' | 'Proforma';
  /** The receipt's number (the register's next one for a Normal print). */
  receiptNumber: number;
  /** The receipt's time (ms since 1970). */
  date: number;
  /** The second variant: both or neither, the activation's own. */
  controlUnitSerial?: string | null;
  applicationPackage?: string | null;
}

/** The unit registered the receipt: its control code goes into the print's `controlNumber`. */
export interface KdResult {
  response: string;
  controlUnitSerial: string;
}

interface ErrorContent {
  headers: { [name: string]: unknown };
  content: { 'application/json': ErrorBody };
}

export interface KdPaths {
  '/v33/{sellerId}/registration/{cash}/kd': {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    post: {
      parameters: { query?: never; header?: never; path: { sellerId: string; cash: string }; cookie?: never };
      requestBody: { content: { 'application/json': KdBody } };
      responses: {
        201: { headers: { [name: string]: unknown }; content: { 'application/json': KdResult } };
        400: ErrorContent;
        403: ErrorContent;
        404: ErrorContent;
        409: ErrorContent;
        500: ErrorContent;
        503: ErrorContent;
      };
    };
  };
}
