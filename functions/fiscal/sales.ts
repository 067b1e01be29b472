import { randomUUID } from 'node:crypto';
import type { SaleBody } from '#schemas/types.ts';
import { rememberedRegister } from '#shared/auth/credentials.ts';
import { type Key } from '#shared/db/keys.ts';
import { readItem } from '#shared/db/reads.ts';
import { readDiff, readVersions } from '#shared/db/streams.ts';
import { notFound, valueNotValid } from '#shared/errors.ts';
import { periodStart, timeZoneOf } from '#shared/fiscal/dates.ts';
import {
  type Register,
  registerStream,
  SALE,
  saleKey,
  ledgerReadsAhead,
  versionSince,
  writeLedger,
  writerOf,
  registerKeys,
} from '#shared/fiscal/ledger.ts';
import { type FiscalContext, fiscalContextAhead, fiscalContextBeside, readFiscalContext } from '#shared/fiscal/context.ts';
import type { Print, Sale } from '#shared/fiscal/model.ts';
import { receiptHtml, receiptText } from '#shared/fiscal/render.ts';
import { preconditions } from '#shared/http/conditions.ts';
import { diffRange, intParam, notNegative, pageParams } from '#shared/http/query.ts';
import { wellFormedKey, writeLedgerOnce } from '#shared/http/idempotency.ts';
import { negotiated, type Representation } from '#shared/http/negotiate.ts';
import { ok } from '#shared/http/response.ts';
import type { AheadRequest } from '#shared/http/router.ts';
import type { ApiRequest, Reply } from '#shared/http/types.ts';
import { isNormal, normalPrint, decidePrint, type PrintRequest, receiptView } from './prints.ts';
import { dayRefusal } from './refusals.ts';
import {
  readRegister,
  registerCounter,
  type RegisterAheadRequest,
  registerReadsAhead,
  type RegisterRequest,
  registersOf,
} from './registers.ts';
import { catalogFacts } from './lines.ts';
import { decideSaleWrite, digestOf, type SaleWrite, saleWriteLaterReads, saleWriteReads } from './sale-write.ts';
import { saleFromBody, saleOverview, saleView } from './views.ts';
import { activationKeys } from '#shared/domain/records.ts';

/** `POST .../sales` (docs/conventions.md §15): records a sale once, whatever the retries; a repeat answers as the first did. */
export const recordSale = (request: RegisterRequest<SaleBody>): Promise<Reply> => writeSale(request, 'POST');

/** `PUT .../sales`: the body names the sale; it is updated, or created (docs/conventions.md §4), per If-Match (docs/conventions.md §5). */
export const putSale = (request: RegisterRequest<SaleBody>): Promise<Reply> => writeSale(request, 'PUT');

async function writeSale(request: RegisterRequest<SaleBody>, mode: 'POST' | 'PUT'): Promise<Reply> {
  const register = writerOf(request.principal);
  const identifier = request.body.identifier ?? (mode === 'POST' ? randomUUID() : undefined);
  if (identifier === undefined) {
    throw valueNotValid('SHOULD_NOT_BE_NULL', 'A PUT names the sale it writes', { field: 'identifier' });
  }
  const content = saleFromBody(request.body, request.version);
  const write: SaleWrite = {
    register,
    mode,
    identifier,
    content,
    day: ('day' in request.body ? request.body.day : undefined) ?? null,
    digest: digestOf(request.body),
    conditions: preconditions(request.headers),
    timeZone: timeZoneOf(register.sellerId),
    refuse: (condition) => dayRefusal('saleWrite', condition, request.version),
    refusePrint: (condition, message, printType) => dayRefusal('receipt', condition, request.version, message, printType),
    facts: await catalogFacts(register.sellerId, content.saleProducts, request.sellerCounter?.ver),
  };
  return writeLedger({
    register,
    apiVersion: request.version,
    reads: saleWriteReads(write),
    laterReads: saleWriteLaterReads(write),
    decide: (state, read, now) => decideSaleWrite(write, state, read, now),
  });
}

/**
 * What a sale write reads first, read ahead with the register's credentials (`Route.readAhead`): the ledger's items, the
 * sale the body names and the register's activation (its control unit). Nothing before this process has seen the key.
 */
export function saleWriteAhead({ body, headers, credentials }: AheadRequest<SaleBody, string>): Key[] {
  const writer = rememberedRegister(credentials);
  if (!writer) return [];
  return [
    ...ledgerReadsAhead(writer, wellFormedKey(headers)),
    activationKeys.activation(writer.activationId),
    ...(body.identifier ? [saleKey(writer, body.identifier)] : []),
  ];
}

/**
 * What a print of the sale reads first: as a sale write, and the receipt's context (the seller, the registration, and
 * the register's own activation, which the print reads anyway).
 */
function printReadsAhead({ headers, credentials }: AheadRequest<undefined, string>, identifier: string): Key[] {
  const writer = rememberedRegister(credentials);
  if (!writer) return [];
  return [
    ...ledgerReadsAhead(writer, wellFormedKey(headers)),
    saleKey(writer, identifier),
    ...fiscalContextAhead(writer, writer.activationId),
  ];
}

export const receiptPrintAhead = (request: AheadRequest<undefined, '{identifier}'>) =>
  printReadsAhead(request, request.params.identifier);

export const copyPrintAhead = (request: AheadRequest<undefined, '{saleId}'>) => printReadsAhead(request, request.params.saleId);

/** What a receipt read reads first: the register's registration and counter, the sale, the receipt's context. */
export const receiptReadAhead = registerReadsAhead(
  (register, context, request: RegisterAheadRequest & { params: Record<'identifier', string> }) => [
    saleKey(register, request.params.identifier),
    ...context,
  ],
);

/** `GET /{sellerId}/sales`: the sales of one register or of all, of the last `period` days or all, paged. */
export async function listSales(request: RegisterRequest): Promise<Reply> {
  const sales = await salesOf(request);
  return ok(sales.map(({ sale }) => saleView(sale, request.version)));
}

/** `GET /{sellerId}/sales-minified`: the same sales as overviews. */
export async function listSalesMinified(request: RegisterRequest): Promise<Reply> {
  const sales = await salesOf(request);
  return ok(sales.map(({ register, sale }) => saleOverview(sale, register.cash, request.version)));
}

/**
 * The sales a list asks for, register by register in name order, each register's in the order it
 * recorded them. A period reads only the sales of its days (from the version its first day opened at).
 */
async function salesOf(request: RegisterRequest): Promise<{ register: Register; sale: Sale }[]> {
  const page = pageParams(request.query);
  const period = intParam('period', request.query.get('period'));
  if (period !== undefined) notNegative('period', period);
  const like = request.query.get('like')?.toLowerCase();
  const matches = (sale: Sale) =>
    like === undefined ||
    [sale.identifier, sale.sellerIdentifier, sale.treasurer].some((text) => text?.toLowerCase().includes(like));
  // Without a search the list reads only up to its page's end; a search reads the period's sales.
  const wanted = page.firstResult + page.maxResults;
  const found: { register: Register; sale: Sale }[] = [];
  for (const { register, counter: readCounter } of await registersOf(request)) {
    if (found.length >= wanted) break;
    const counter = await readCounter();
    const since =
      period === undefined
        ? 1
        : await versionSince(register, periodStart(Math.max(period, 1), timeZoneOf(register.sellerId), Date.now()));
    if (since === undefined) continue;
    const range = { from: since - 1, to: counter.ver };
    const sales =
      like === undefined
        ? await readVersions<Sale>(registerStream(register), SALE, range, wanted - found.length)
        : await readDiff<Sale>(registerStream(register), SALE, range, counter);
    for (const sale of sales.filter(matches)) found.push({ register, sale });
  }
  return found.slice(page.firstResult, wanted);
}

/** `GET .../registrations/{cash}/sales-diff/{versionFrom}/{versionTo}` (docs/conventions.md §14): by the register's version. */
export async function salesDiff(request: ApiRequest<unknown, 'sellerId' | 'cash' | 'versionFrom' | 'versionTo'>): Promise<Reply> {
  const register = { sellerId: request.params.sellerId, cash: request.params.cash };
  const counter = await registerCounter(register);
  const changed = await readDiff<Sale>(registerStream(register), SALE, diffRange(request.params), counter);
  return ok(changed.map((sale) => saleView(sale, request.version)));
}

/**
 * `GET .../sales/{identifier}/receipt`: the sale's Normal receipt, once printed, as JSON, text for a receipt printer or an
 * HTML page per `Accept` (docs/conventions.md §16). Reading it registers nothing: it is no copy.
 */
export async function getReceipt(request: RegisterRequest & { params: Record<'identifier', string> }): Promise<Reply> {
  const register = readRegister(request);
  await registerCounter(register);
  const [sale, context] = await Promise.all([
    readItem(saleKey(register, request.params.identifier)),
    readFiscalContext(register),
  ]);
  const print = sale && normalPrint(sale);
  if (!sale || !print) throw notFound(`No printed receipt of sale ${request.params.identifier}`);
  return receiptReply(request, context, sale, print);
}

/** A receipt in the reading `Accept` asks for; `fallback` without a preference. */
function receiptReply(
  request: Pick<ApiRequest, 'headers' | 'version'>,
  context: FiscalContext,
  sale: Sale,
  print: Print,
  fallback: Representation = 'json',
): Reply {
  const receipt = receiptView(context, sale, print, request.version);
  return negotiated(
    request.headers,
    receipt,
    { text: () => receiptText(receipt), html: () => receiptHtml(receipt) },
    { fallback },
  );
}

/** A digital-receipt token as the server makes them: 128 bits in base64url. */
const TOKEN = /^[A-Za-z0-9_-]{22}$/;

/**
 * `GET /noauth/receipts/{token}` (docs/conventions.md §16): the digital receipt, to anyone holding its unguessable link,
 * as an HTML page (JSON or text per `Accept`). An unknown or malformed token is 404. Opening it registers nothing.
 */
export async function openReceipt(request: ApiRequest<unknown, 'token'>): Promise<Reply> {
  const { token } = request.params;
  const missing = () => notFound('No such receipt');
  if (!TOKEN.test(token)) throw missing();
  const link = await readItem(registerKeys.receiptLink(token));
  if (!link) throw missing();
  const register = { sellerId: link.sellerId, cash: link.cash };
  const [sale, context] = await Promise.all([readItem(saleKey(register, link.sale)), readFiscalContext(register)]);
  const print = sale && normalPrint(sale);
  if (!sale || print?.receiptToken !== token) throw missing();
  return receiptReply(request, context, sale, print, 'html');
}

/** `POST .../sales/{identifier}/receipt`: prints the sale's Normal receipt, taking the next receipt number. */
export const printReceipt = (request: RegisterRequest & { params: Record<'identifier', string> }): Promise<Reply> =>
  print(request, request.params.identifier, 'Normal');

/** `POST` (v15) or `GET` (v26, v33) `.../sales/{saleId}/copy`: prints a copy of the sale's receipt. */
export const printCopy = (request: RegisterRequest & { params: Record<'saleId', string> }): Promise<Reply> =>
  print(request, request.params.saleId, 'Copy');

async function print(request: RegisterRequest, identifier: string, printType: PrintRequest['printType']): Promise<Reply> {
  const register = writerOf(request.principal);
  const printing: PrintRequest = {
    register,
    identifier,
    printType,
    version: request.version,
    timeZone: timeZoneOf(register.sellerId),
    // A second copy is refused as a repeated print is (docs/conventions.md §16): 422, the Normal print's status.
    refuse: (condition, message, refused) =>
      dayRefusal(printType === 'Normal' || refused ? 'receipt' : 'copy', condition, request.version, message, refused),
  };
  // The receipt's context is read beside the ledger's read: it is no part of what is recorded, only of the answer.
  const context = fiscalContextBeside(register);
  return writeLedgerOnce(
    {
      register,
      apiVersion: request.version,
      // No kd claim is read: these prints carry no control code, so a register with a unit is refused them whatever
      // its claims hold (docs/conventions.md §16); it prints through the sale's `prints`.
      reads: [saleKey(register, identifier), activationKeys.activation(register.activationId)],
      // A copy reads its receipt's record, which remembers the one copy whatever day the sale is of.
      laterReads: (_ledger, read) => {
        const number = printType === 'Copy' ? read(saleKey(register, identifier))?.prints.find(isNormal)?.receiptNumber : null;
        return number ? [registerKeys.receipt(register.sellerId, register.cash, number)] : [];
      },
      decide: async (state, read, now) => {
        const decision = decidePrint(printing, state, read, now);
        const { status, sale, print } = decision.result;
        return { ...decision, result: { status, body: receiptView(await context, sale, print, request.version) } };
      },
    },
    request.idempotency,
  );
}
