/** Registers and sales for tests of a register's trading day under load and faults (docs/conventions.md §14-§19). */
import { randomUUID } from 'node:crypto';
import { timeZoneOf, wallClock } from '#shared/fiscal/dates.ts';
import { verifyJournal } from '#shared/fiscal/verify-journal.ts';
import { type Answer, type CallOptions, v } from './http.ts';
import { DAY, newApp, newVendor, swedishCorporateId } from './identity.ts';

/** Hours a load test's trading day may need, with room to spare for a busy machine. */
const TRADING_HOURS = 3;

/**
 * Where a seller of a load test trades: Sweden, unless its day ends within `TRADING_HOURS`; then the country of the
 * list whose day has the most hours left. A sale or print dated after its open day is refused `DAY_IS_NOT_CLOSED`
 * (docs/conventions.md §17), so a day that crossed midnight would fail the test by the clock, not by the service.
 */
export function tradingCountry(now = Date.now()): string {
  const hoursLeft = (country: string) => {
    const { hour, minute } = wallClock(now, timeZoneOf(`${country}0`));
    return 24 - hour - minute / 60;
  };
  if (hoursLeft('SE') >= TRADING_HOURS) return 'SE';
  return ['GB', 'US', 'FI'].reduce((best, country) => (hoursLeft(country) > hoursLeft(best) ? country : best));
}

/** A seller (Swedish when the clock allows, `tradingCountry`) whose registers activate through v33 `/activations-advanced` of one application. */
export async function newFiscalSeller() {
  const app = await newApp(await newVendor(), {
    controlUnitRequired: false,
    corporateIdValidationMethod: 'NONE',
    name: 'Lastkassan',
  });
  const country = tradingCountry();
  const corporateId = swedishCorporateId();
  const sellerId = `${country}${corporateId}`;
  /** Activates the register `name` of the seller; answers its credentials. */
  const register = async (name: string): Promise<CallOptions> => {
    const answer = await v(33).post('/activations-advanced', {
      country,
      corporateId,
      companyName: 'Lastbutiken',
      cashRegisterName: name,
      features: [],
      validFrom: Date.now() - DAY,
      validTo: Date.now() + DAY,
      applicationPackage: app.applicationPackage,
      installationCreationInfo: { deviceId: randomUUID().slice(0, 16), buildInfo: { os: 'Android 14' }, programVersion: '1.0' },
    });
    if (answer.status !== 201) throw new Error(answer.text);
    return { as: { apiKey: (answer.body as { apiKey: string }).apiKey } };
  };
  return { sellerId, register };
}

/** A Normal print that takes the next receipt number. */
export const NORMAL_PRINT = { printType: 'Normal', receiptNumber: null };

interface StoredPrint {
  printType: string;
  receiptNumber: number | null;
}
export interface StoredSale {
  identifier: string;
  brutto: number;
  sellerIdentifier: string;
  prints: StoredPrint[];
}
export interface JournalEntry {
  sequence: number;
  type: string;
  saleIdentifier: string | null;
  receiptNumber: number | null;
}

/** 1, 2, ..., n. */
export const oneTo = (n: number) => Array.from({ length: n }, (_, index) => index + 1);

/**
 * serverless-offline runs each request in flight in a worker thread of its own and starts a new one for a
 * request that finds none idle. Dozens of cold starts at once on a small machine outlast the Lambda timeout
 * (10 s), which a deployed function, one machine per instance, never meets. So before a burst of `inFlight`
 * requests the fiscal function's pool is grown ten workers at a time, with reads that change nothing.
 */
export async function warmFiscalWorkers(sellerId: string, cash: string, as: CallOptions, inFlight: number): Promise<void> {
  for (let size = 10; size <= inFlight; size += 10) {
    await Promise.all(oneTo(size).map(() => v(33).get(`/${sellerId}/registrations/${cash}/days`, as)));
  }
}

/** What a client reads back of one register: its sales, its journal and its stream version. */
export function registerReader(sellerId: string, cash: string, as: CallOptions) {
  const read = async (path: string): Promise<Answer> => {
    const answer = await v(33).get(path, as);
    if (answer.status !== 200) throw new Error(`GET ${path}: ${answer.status} ${answer.text}`);
    return answer;
  };
  return {
    sales: async () => (await read(`/${sellerId}/sales?cashRegisterName=${cash}&maxResults=1000`)).body as StoredSale[],
    journal: async () => (await read(`/${sellerId}/e-journals/${cash}?maxResults=1000`)).body as JournalEntry[],
    version: async () => ((await read(`/${sellerId}/registrations/${cash}/version`)).body as { version: number }).version,
    report: async (dayNumber: number) => (await read(`/${sellerId}/registrations/${cash}/days/${dayNumber}/report`)).body,
    /** The verdict of the offline verifier (shared/fiscal/verify-journal.ts) on the register's signed journal. */
    verdict: async () => {
      const document = (await read(`/${sellerId}/generated-e-journals/${cash}`)).body as { publicKeyFileName: string };
      const pem = await v(33).get(`/noauth/activations/public-keys/${document.publicKeyFileName}`, { as: 'none' });
      return verifyJournal(document, pem.text);
    },
  };
}

/** The Normal receipt numbers of the sales. */
export const receiptNumbers = (sales: readonly StoredSale[]) =>
  sales.flatMap((sale) => sale.prints.filter((print) => print.printType === 'Normal').map((print) => print.receiptNumber));
