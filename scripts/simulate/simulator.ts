/**
 * The register simulator's walk (`npm run simulate`, scripts/simulate.ts), on the typed client (client/): a software
 * vendor and an application, N registers of one new seller activated through v33 `activations-advanced`, each
 * register's signed activation code verified offline, catalog sync (a tax, a product changed under its ETag, the
 * diffs a register reads), D trading days of sales with receipts (with a control unit: a kd before each Normal print,
 * its code in the print), day close, the Z report read and printed, and the register's signed e-journal verified.
 * Anything the service answers other than what a working register expects is counted by status, exception and code.
 */
import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import type { Client, Middleware } from 'openapi-fetch';
import {
  clientOf,
  createCashRegisterClient,
  type Credentials,
  errorBodyOf,
  ifMatch,
  postSale,
  sendOnce,
  type Sale,
  updateWithETag,
  type V33Paths,
} from '../../client/src/index.ts';
import { verifyJournal } from '../../shared/fiscal/verify-journal.ts';
import { verifyActivationCode } from '../../shared/signing/activation-code.ts';

export interface SimulationOptions {
  baseUrl: string;
  registers: number;
  days: number;
  salesPerDay: number;
  admin: { username: string; password: string };
  /** A control unit's serial: registers then sign every Normal print through kd. */
  controlUnit?: string;
  /** Called after every step that counts towards `totalSteps`. */
  onStep?: (done: number, total: number) => void;
}

export interface Summary {
  registers: number;
  activated: number;
  codesVerified: number;
  sales: number;
  replayedSales: number;
  receipts: number;
  controlCodes: number;
  daysClosed: number;
  zReports: number;
  journalsVerified: number;
  requests: number;
  /** `<status> <exception> <code>` (or `network <message>`, `check <what>`) -> count. */
  errors: Record<string, number>;
  latencyMs: { p50: number; p95: number };
  /** Per operation (`METHOD /path/template`): calls and latency. */
  operations: Record<string, { calls: number; p50: number; p95: number }>;
  /** What went wrong, one line per register or step that stopped. */
  failures: string[];
}

/** An answer the walk cannot go on from; its `key` is what the summary counts. */
class Failure extends Error {
  readonly key: string;
  constructor(key: string, message: string) {
    super(message);
    this.key = key;
  }
}

interface Answer {
  response: Response;
  error?: unknown;
}

/** The answer's data when its status is `status`; otherwise a Failure named by the error body. */
function expectStatus<A extends Answer & { data?: unknown }>(answer: A, status: number, step: string): NonNullable<A['data']> {
  if (answer.response.status === status) return answer.data as NonNullable<A['data']>;
  const body = errorBodyOf(answer.error);
  const key = body ? `${answer.response.status} ${body.exception} ${body.code ?? '-'}` : `${answer.response.status} -`;
  throw new Failure(key, `${step}: ${key}${body ? `: ${body.message}` : ''}`);
}

function check(condition: boolean, what: string): asserts condition {
  if (!condition) throw new Failure(`check ${what}`, `check failed: ${what}`);
}

/** The fields the response schemas leave open (schemas/responses.ts `having`), read with a check. */
function field<T extends 'string' | 'number'>(data: unknown, name: string, type: T): T extends 'string' ? string : number {
  const value = (data as Record<string, unknown> | undefined)?.[name];
  check(typeof value === type, `${name} is a ${type}`);
  return value as T extends 'string' ? string : number;
}

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0 ? 0 : (sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0);
const round = (ms: number) => Math.round(ms * 10) / 10;

/** Request timings by operation, taken by client middleware. */
class Meter {
  readonly byOperation = new Map<string, number[]>();
  private readonly started = new Map<string, number>();
  readonly middleware: Middleware = {
    onRequest: ({ id }) => {
      this.started.set(id, performance.now());
    },
    onResponse: ({ id, request, schemaPath }) => {
      const start = this.started.get(id);
      this.started.delete(id);
      if (start === undefined) return;
      const key = `${request.method} ${schemaPath}`;
      const list = this.byOperation.get(key) ?? [];
      list.push(performance.now() - start);
      this.byOperation.set(key, list);
    },
  };

  summary(): Pick<Summary, 'requests' | 'latencyMs' | 'operations'> {
    const all = [...this.byOperation.values()].flat().sort((a, b) => a - b);
    const operations = Object.fromEntries(
      [...this.byOperation]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([key, list]) => {
          const sorted = [...list].sort((a, b) => a - b);
          return [key, { calls: sorted.length, p50: round(percentile(sorted, 50)), p95: round(percentile(sorted, 95)) }];
        }),
    );
    return { requests: all.length, latencyMs: { p50: round(percentile(all, 50)), p95: round(percentile(all, 95)) }, operations };
  }
}

/** A sale of `brutto` hundredths of product p1 at 25 % VAT, paid in cash. */
function saleOf(brutto: number, prints: Sale['prints']): Sale {
  const vat = Math.round((brutto * 25) / 125);
  return {
    identifier: randomUUID(),
    sellerIdentifier: 'Simulator',
    saleState: 'Paid',
    refund: false,
    refundFor: null,
    brutto,
    vat,
    saleProducts: [{ productIdentifier: 'p1', deltaUnit: true, delta: 1, vat, netto: brutto - vat, brutto }],
    payments: [{ paymentType: 'Cash', amount: brutto }],
    vatRateSums: [{ vatRate: 2500, vat, netto: brutto - vat, brutto }],
    prints,
  };
}

/** A Swedish organisation number (10 digits, Luhn check digit) no earlier run is likely to have used. */
function corporateId(): string {
  const body = `559${randomInt(1e5, 1e6)}`;
  const sum = [...body].reduce((total, char, index) => {
    const digit = Number(char) * (index % 2 === 0 ? 2 : 1);
    return total + (digit > 9 ? digit - 9 : digit);
  }, 0);
  return `${body}${(10 - (sum % 10)) % 10}`;
}

export async function simulate(options: SimulationOptions): Promise<Summary> {
  const meter = new Meter();
  const connect = <P extends object>(auth: Credentials): Client<P> => {
    const client = clientOf<P>({ baseUrl: options.baseUrl, auth });
    client.use(meter.middleware);
    return client;
  };
  const admin = connect<V33Paths>(options.admin);
  const anonymous = createCashRegisterClient(33, { baseUrl: options.baseUrl });
  anonymous.use(meter.middleware);

  const summary: Summary = {
    registers: options.registers,
    activated: 0,
    codesVerified: 0,
    sales: 0,
    replayedSales: 0,
    receipts: 0,
    controlCodes: 0,
    daysClosed: 0,
    zReports: 0,
    journalsVerified: 0,
    requests: 0,
    errors: {},
    latencyMs: { p50: 0, p95: 0 },
    operations: {},
    failures: [],
  };
  const fail = (error: unknown) => {
    const key = error instanceof Failure ? error.key : `network ${error instanceof Error ? error.message : String(error)}`;
    summary.errors[key] = (summary.errors[key] ?? 0) + 1;
    summary.failures.push(error instanceof Error ? error.message : String(error));
  };
  const total = 1 + options.registers * (1 + options.days * (options.salesPerDay + 1) + 1);
  let done = 0;
  const step = () => options.onStep?.(++done, total);

  const run = `${Date.now().toString(36)}${randomInt(1e3, 1e4)}`;
  const sellerCorporateId = corporateId();
  const sellerId = `SE${sellerCorporateId}`;
  let applicationPackage: string;
  try {
    // The vendor, its application, and (with a unit) the unit connected to that vendor.
    const vendor = expectStatus(await admin.POST('/v33/software-vendors', { body: { name: `Simulator ${run}` } }), 201, 'vendor');
    applicationPackage = `se.example.simulator.r${run}`;
    expectStatus(
      await admin.POST('/v33/application-descriptions', {
        body: {
          applicationPackage,
          productionNumberPrefix: 'KA',
          controlUnitRequired: options.controlUnit !== undefined,
          name: 'Simulated register',
          softwareVendor: vendor.id,
          autoActivationCondition: 'ALWAYS',
          corporateIdValidationMethod: 'NONE',
        },
      }),
      201,
      'application',
    );
    if (options.controlUnit !== undefined) await claimUnit(admin, options.controlUnit, vendor.id);
    step();
  } catch (error) {
    fail(error);
    return { ...summary, ...meter.summary() };
  }

  const serial = options.controlUnit;
  /** Activates register `cash`; activations of one seller go one at a time, as the first creates the seller. */
  const activate = async (cash: string) => {
    const answer = await admin.POST('/v33/activations-advanced', {
      body: {
        country: 'SE',
        corporateId: sellerCorporateId,
        companyName: 'Simulatorbutiken',
        cashRegisterName: cash,
        features: ['SYNCHRONIZATION'],
        validFrom: Date.now() - 86_400_000,
        validTo: Date.now() + 30 * 86_400_000,
        applicationPackage,
        installationCreationInfo: { deviceId: randomUUID().replaceAll('-', '').slice(0, 16), buildInfo: { os: 'simulator' } },
        ...(serial === undefined
          ? {}
          : {
              controlUnitSerial: serial,
              controlUnitLocation: 'DEVICE' as const,
              controlUnitGeolocation: { city: 'Stockholm', postalCode: '111 22' },
            }),
      },
    });
    const activated = expectStatus(answer, 201, `activate ${cash}`);
    summary.activated++;
    return { apiKey: field(activated, 'apiKey', 'string'), activationId: field(activated, 'activationId', 'number') };
  };

  const registers: { cash: string; keys: { apiKey: string; activationId: number } }[] = [];
  // Names new to the unit too: a unit registers each (register id, receipt number) once, and its register id is the name's.
  const tag = randomBytes(3).toString('hex').toUpperCase();
  for (let n = 1; n <= options.registers; n++) {
    const cash = `K${tag}${n}`;
    try {
      registers.push({ cash, keys: await activate(cash) });
      if (n === 1) await catalog(admin, sellerId);
    } catch (error) {
      fail(error);
    }
    step();
  }

  /** One register's life: its code verified, the catalog synced, D days of sales, the journal verified. */
  const work = async ({ cash, keys }: (typeof registers)[number]) => {
    const register = connect<V33Paths>({ apiKey: keys.apiKey });
    const path = { sellerId, cash };

    const code = expectStatus(await register.POST('/v33/activations/activation-code'), 201, 'activation code');
    const signed = {
      activationInfoVersion: field(code, 'activationInfoVersion', 'number'),
      activationDescriptorInfo: field(code, 'activationDescriptorInfo', 'string'),
      signature: field(code, 'signature', 'string'),
    };
    const pem = await publicKey(anonymous, field(code, 'publicKeyFileName', 'string'));
    const verified = verifyActivationCode(signed, pem);
    check(verified.valid, 'the activation code verifies offline');
    check(
      verified.descriptor.activationId === keys.activationId && verified.descriptor.cashRegisterName === cash,
      "the activation code names the register's activation",
    );
    summary.codesVerified++;

    // Catalog sync as a register does it: the seller's version, then every diff up to it.
    const { version } = expectStatus(
      await register.GET('/v33/{sellerId}/version', { params: { path: { sellerId } } }),
      200,
      'version',
    );
    const diff = { params: { path: { sellerId, versionFrom: 0, versionTo: version } } };
    const taxes = expectStatus(
      await register.GET('/v33/{sellerId}/taxes-diff/{versionFrom}/{versionTo}', diff),
      200,
      'taxes-diff',
    );
    const products = expectStatus(
      await register.GET('/v33/{sellerId}/products-diff/{versionFrom}/{versionTo}', diff),
      200,
      'products-diff',
    );
    check(
      taxes.some((tax) => tax?.identifier === 't25') && products.some((product) => product?.name === 'Kaffe (stor)'),
      'the diffs hold the tax and the changed product',
    );

    let receiptNumber = 0;
    for (let day = 1; day <= options.days; day++) {
      let dayBrutto = 0;
      for (let n = 0; n < options.salesPerDay; n++) {
        const brutto = 100 * randomInt(5, 500);
        receiptNumber++;
        const sale =
          serial === undefined
            ? saleOf(brutto, [])
            : saleOf(brutto, [
                {
                  printType: 'Normal',
                  receiptNumber,
                  controlNumber: await controlCode(register, path, { brutto, receiptNumber }),
                },
              ]);
        if (serial !== undefined) summary.controlCodes++;
        const posted = await postSale(register, sellerId, cash, sale);
        expectStatus(posted, 201, 'sale');
        summary.sales++;
        if (posted.replayed) summary.replayedSales++;
        const saleId = sale.identifier ?? '';
        const receiptPath = { params: { path: { ...path, identifier: saleId } } };
        // Without a unit the service prints the receipt; with one the print travelled signed in the sale.
        const receipt =
          serial === undefined
            ? expectStatus(
                await sendOnce((headers) =>
                  register.POST('/v33/{sellerId}/registrations/{cash}/sales/{identifier}/receipt', { ...receiptPath, headers }),
                ),
                201,
                'receipt',
              )
            : expectStatus(
                await register.GET('/v33/{sellerId}/registrations/{cash}/sales/{identifier}/receipt', receiptPath),
                200,
                'receipt',
              );
        check(field(receipt, 'receiptNumber', 'number') === receiptNumber, 'receipts are numbered in sequence');
        summary.receipts++;
        dayBrutto += brutto;
        step();
      }
      const closed = expectStatus(
        await sendOnce((headers) =>
          register.POST('/v33/{sellerId}/registrations/{cash}/days/current', { params: { path }, headers }),
        ),
        201,
        'close',
      );
      check(closed.dayNumber === day, 'days are numbered in sequence');
      summary.daysClosed++;
      const reportPath = { params: { path: { ...path, dayIdentifier: day } } };
      const report = expectStatus(
        await register.GET('/v33/{sellerId}/registrations/{cash}/days/{dayIdentifier}/report', reportPath),
        200,
        'Z report',
      );
      // The report answers JSON unless asked for text or HTML (docs/conventions.md §17): the client's type has all three.
      const { type, sales } = report as { type?: unknown; sales?: { count?: unknown; brutto?: unknown } };
      check(
        type === 'Z' && sales?.count === options.salesPerDay && sales.brutto === dayBrutto,
        "the Z report adds up the day's sales",
      );
      expectStatus(
        await sendOnce((headers) =>
          register.POST('/v33/{sellerId}/registrations/{cash}/days/{dayIdentifier}/report', { ...reportPath, headers }),
        ),
        201,
        'Z print',
      );
      summary.zReports++;
      step();
    }

    const journal = expectStatus(
      await register.GET('/v33/{sellerId}/generated-e-journals/{cash}', { params: { path } }),
      200,
      'e-journal',
    );
    const journalKey = await publicKey(anonymous, field(journal, 'publicKeyFileName', 'string'));
    const verdict = verifyJournal(journal, journalKey);
    check(verdict.valid, `the e-journal verifies${verdict.valid ? '' : `: ${verdict.reason}`}`);
    summary.journalsVerified++;
    step();
  };

  await Promise.all(
    registers.map((register) =>
      work(register).catch((error: unknown) => {
        fail(error);
      }),
    ),
  );
  return { ...summary, ...meter.summary() };
}

/** The seller's catalog: a tax, a product, and the product renamed under its ETag (docs/conventions.md §5). */
async function catalog(admin: Client<V33Paths>, sellerId: string) {
  expectStatus(
    await admin.PUT('/v33/{sellerId}/taxes/{identifier}', {
      params: { path: { sellerId, identifier: 't25' } },
      body: { vat: 25, name: 'Moms' },
    }),
    201,
    'tax',
  );
  const product = { params: { path: { sellerId, identifier: 'p1' } } };
  const body = { name: 'Kaffe', barcode: '1', netto: 100, tax: 't25', salesUnit: 'Piece' as const, countedInPrice: true };
  expectStatus(await admin.PUT('/v33/{sellerId}/products/{identifier}', { ...product, body }), 201, 'product');
  const renamed = await updateWithETag({
    read: () => admin.GET('/v33/{sellerId}/products/{identifier}', product),
    change: (current) => ({ ...body, name: `${current?.name ?? ''} (stor)` }),
    write: (next, etag) => admin.PUT('/v33/{sellerId}/products/{identifier}', { ...product, body: next, headers: ifMatch(etag) }),
  });
  expectStatus(renamed, 204, 'product rename');
}

/** The public key a signed document names, fetched without credentials. */
async function publicKey(anonymous: Client<V33Paths>, publicKeyFileName: string): Promise<string> {
  const answer = await anonymous.GET('/v33/noauth/activations/public-keys/{publicKeyFileName}', {
    params: { path: { publicKeyFileName } },
    parseAs: 'text',
  });
  return expectStatus(answer, 200, 'public key');
}

/** Connects the control unit to the simulator's vendor (a unit seen for the first time is registered by the first activation). */
async function claimUnit(admin: Client<V33Paths>, serial: string, vendorId: number) {
  const path = { params: { path: { serial } } };
  const unit = await admin.GET('/v33/control-units/{serial}', path);
  if (unit.response.status === 404) return;
  const { softwareVendor } = expectStatus(unit, 200, 'control unit') as { softwareVendor?: unknown };
  if (softwareVendor === vendorId) return;
  if (softwareVendor !== null) {
    expectStatus(await admin.DELETE('/v33/control-units/{serial}/software-vendor', path), 204, 'unit disconnect');
  }
  expectStatus(
    await admin.PUT('/v33/control-units/{serial}/software-vendor/{vendorId}', { params: { path: { serial, vendorId } } }),
    204,
    'unit connect',
  );
}

/** The control code of a Normal receipt from the register's unit (v33 kd). */
async function controlCode(
  register: Client<V33Paths>,
  path: { sellerId: string; cash: string },
  receipt: { brutto: number; receiptNumber: number },
): Promise<string> {
  const body = {
    vatRateToSum: { '25': receipt.brutto },
    refund: false,
    printType: 'Normal' as const,
    receiptNumber: receipt.receiptNumber,
    date: Date.now(),
  };
  const answer = await sendOnce((headers) =>
    register.POST('/v33/{sellerId}/registration/{cash}/kd', { params: { path }, body, headers }),
  );
  return expectStatus(answer, 201, 'kd').response;
}
