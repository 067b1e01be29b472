/**
 * The local stand-in of Infrasec's cloud control unit: its signing server (TCS, `POST /tcsserver`) and its enrolment
 * service (IDM, `POST /api/EnrollCCU.php`), plain HTTP on 127.0.0.1 with every register in memory (and, given `stateFile`, in a JSON file). The wire format is
 * the public .NET client's (MewsSystems/fiscalizations, src/Sweden/Mews.Fiscalizations.Sweden: DTOs/TcsRequest.cs,
 * TcsResponse.cs, IdmRequest.cs, IdmResponse.cs, RegisterStatus*.cs, Mappers/). The documents are read by the small XML
 * reader at the bottom of this file and answered from templates: nothing of the service's XML code is used, so a
 * mistake there cannot hide itself here. Used by `npm start` and the connected tests.
 *
 * Ids: a RegisterID is `CCU` and 14 random digits, unique in the stand-in; every register has the same TCSID (and
 * ControlServerID), `TCSLOCAL000000001`. A control code is 59 characters of A-Z0-9, an HMAC of the register, the
 * sequence number, the receipt type and the amounts (not the times), with a fixed key: the same receipt gets the same
 * code, from any instance; kopia and profo get one too.
 *
 * TcsResponse ResponseCode (ResponseMessage names the rule, ResponseReason the element and value):
 *   0 OK · 1 malformed document (not well-formed, not a TcsRequest, an element twice, ApplicationID, RequestID not a
 *   GUID, ControlData, ManRegisterID or RegisterAddress missing) · 2 ManRegisterID not enrolled · 3 OrgNr not the
 *   enrolment's · 4 DateTime or CopyDateTime not a yyyyMMddHHmmss time · 5 SequenceNumber or CopySequenceNumber not a
 *   whole number · 6 ReceiptType Type not normal/kopia/ovning/profo · 7 not exactly one of SaleAmount and RefundAmount,
 *   or one not like `123,45` · 8 VAT1..VAT4 missing, their Percent not 25,00 12,00 6,00 0,00 in that order, or an
 *   amount not like `123,45` · 9 refused by the stand-in (the `refuse` fault) · 10 a kopia without CopyDateTime and
 *   CopySequenceNumber. A TcsRequest with RegisterStatus instead of ControlData (RegisterStatusRequest.cs) is answered
 *   by a RegisterStatusResponse, with the codes 0 to 3.
 * IdmResponse ResponseCode: 0 OK · 1 malformed document (as above; RequestID not a 32-bit integer, EnrollData or
 *   Action missing) · 2 CompanyInfo/OrganizationNumber not 10 digits (NNNNNNNNNN or NNNNNN-NNNN) · 3
 *   RegisterInfo/LocalAlias empty · 4 STATUS of a RegisterID not enrolled · 5 Action neither NEW nor STATUS · 9 refused
 *   by the stand-in.
 * HTTP: 200 `application/xml; charset=utf-8` for every answer document, refusals too; 400 (text) for a body that is not
 * XML at all (empty, or not beginning with `<`), while one that begins as XML and is not well-formed gets the code 1;
 * 413 for a body above 64 KiB; 503 for the `busy` fault; 404 for any other method or path.
 *
 * Test controls (JSON; nothing of the real service):
 * - `POST /stand-in/faults` `{ "registerId", "faults": ["busy" | "silent" | "refuse" | "garbled" | "uncoded", ...] }` queues faults
 *   for the next TcsRequests naming that ManRegisterID (receipts and status checks), one each, in order: `busy` 503 with
 *   a text body, `silent` no answer until the stand-in stops, `refuse` code 9, `garbled` 200 with a body that is not XML,
 *   `uncoded` a signed answer (code 0) with an empty Code, as the client's tests say a copy or pro forma may get.
 *   A `busy` or `silent` request is not taken in: it counts for no LoginCount.
 * - `POST /stand-in/enroll-faults` `{ "faults": ["refuse" | "busy", ...] }` for the next IdmRequests, whatever they are.
 * - `GET /stand-in/requests[?registerId=...]` `[{ path, body, received }]`: the raw documents received at the two
 *   endpoints, in order, the faulted ones too (the last 10,000). A NEW belongs to the register it created.
 * - `GET /stand-in/health` 200.
 * LoginCount counts the TcsRequests of the register taken in (refused, garbled and failed ones too); LastLogin is the
 * Stockholm time of the last one.
 */
import { createHmac, randomInt } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

export interface CloudStandIn {
  /** `http://127.0.0.1:<port>`: both endpoints and the test controls are paths under it. */
  url: string;
  /** Closes the server and every connection (the held `silent` ones too); the registers are forgotten. */
  stop(): Promise<void>;
}

export interface CloudStandInOptions {
  /** TCP port (default 0: a free one). */
  port?: number;
  /** Called with a line per request (default: nothing is printed). */
  log?: (line: string) => void;
  /**
   * A JSON file of the enrolled registers, read at start and written at each enrolment, so a stack with DATA_DIR keeps
   * its tablets' units across restarts as it keeps their activations (default: in memory only).
   */
  stateFile?: string;
}

/** What the next TcsRequest of a register meets instead of the ordinary answer. */
export type CloudFault = 'busy' | 'silent' | 'refuse' | 'garbled' | 'uncoded';
/** What the next IdmRequest meets instead of the ordinary answer. */
export type EnrollFault = 'refuse' | 'busy';

const TCS_ID = 'TCSLOCAL000000001';
const CONTROL_CODE_LENGTH = 59;
const CONTROL_CODE_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
// Fixed, so that the same receipt gets the same code from any run of the stand-in.
const CONTROL_CODE_KEY = 'local cloud control unit stand-in';
const BODY_LIMIT = 64 * 1024;
const LOG_LIMIT = 10_000;
const FAULTS_LIMIT = 100;

const TCS = {
  ok: 0,
  malformed: 1,
  unknownRegister: 2,
  orgNr: 3,
  dateTime: 4,
  sequenceNumber: 5,
  receiptType: 6,
  amount: 7,
  vat: 8,
  refused: 9,
  copy: 10,
} as const;
const IDM = { ok: 0, malformed: 1, organizationNumber: 2, localAlias: 3, unknownRegister: 4, action: 5, refused: 9 } as const;

const RECEIPT_TYPES = ['normal', 'kopia', 'ovning', 'profo'];
// VAT1..VAT4 as TransactionMappers.cs writes them: 25, 12, 6 and 0 per cent with "F2" in fr-FR.
const VAT_PERCENTS = ['25,00', '12,00', '6,00', '0,00'];
// "N2" in fr-FR with its group spaces removed (TransactionMappers.ToAmountString).
const AMOUNT = /^-?\d+,\d{2}$/;
const GUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
// OrgNr is a long in TcsRequest.cs; OrganizationNumber a string, as "133586-3911" in the client's tests.
const ORG_NR = /^\d{10}$/;
const ORGANIZATION_NUMBER = /^\d{6}-?\d{4}$/;

interface Register {
  id: string;
  /** The enrolment's OrganizationNumber, digits only. */
  orgNr: string;
  loginCount: number;
  lastLogin: Date | undefined;
}

interface Received {
  path: string;
  body: string;
  received: string;
  registerId: string | undefined;
}

type Answer = { status: number; type: string; body: string } | 'hold';

/** A refusal of a request: its ResponseCode, ResponseMessage and ResponseReason. */
class RefusalError extends Error {
  readonly code: number;
  readonly reason: string;
  constructor(code: number, message: string, reason: string) {
    super(message);
    this.code = code;
    this.reason = reason;
  }
}

/** A document that is not well-formed, or has an element twice where one is read. */
class MalformedXmlError extends Error {}

export async function startCloudStandIn(options: CloudStandInOptions = {}): Promise<CloudStandIn> {
  const log = options.log ?? (() => undefined);
  const registers = new Map<string, Register>(
    (options.stateFile && existsSync(options.stateFile)
      ? (JSON.parse(readFileSync(options.stateFile, 'utf8')) as { id: string; orgNr: string }[])
      : []
    ).map(({ id, orgNr }) => [id, { id, orgNr, loginCount: 0, lastLogin: undefined }]),
  );
  const keep = () => {
    if (options.stateFile) {
      const kept = [...registers.values()].map(({ id, orgNr }) => ({ id, orgNr }));
      writeFileSync(options.stateFile, JSON.stringify(kept));
    }
  };
  const faults = new Map<string, CloudFault[]>();
  const enrollFaults: EnrollFault[] = [];
  const requests: Received[] = [];

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      log(`cloud unit: ${request.method} ${request.url} failed: ${String(error)}`);
      if (!response.headersSent) send(response, { status: 500, type: TEXT, body: 'internal error of the stand-in\n' });
      else response.destroy();
    });
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://stand-in');
    const route = `${request.method} ${url.pathname}`;
    if (!ROUTES.has(route)) return send(response, { status: 404, type: TEXT, body: 'not found\n' });
    const body = request.method === 'POST' ? await readBody(request) : '';
    if (body === undefined) {
      log(`cloud unit: ${route} 413`);
      return send(response, { status: 413, type: TEXT, body: `the body is larger than ${BODY_LIMIT} bytes\n` });
    }
    const answer = answerFor(route, body, url);
    if (answer === 'hold') return log(`cloud unit: ${route} held (silent)`);
    log(`cloud unit: ${route} ${answer.status}${answer.type === XML ? ` ${/<ResponseCode>(\d+)</.exec(answer.body)?.[1]}` : ''}`);
    send(response, answer);
  }

  function answerFor(route: string, body: string, url: URL): Answer {
    switch (route) {
      case 'POST /tcsserver':
        return tcsServer(body, received('/tcsserver', body));
      case 'POST /api/EnrollCCU.php':
        return enrollCcu(body, received('/api/EnrollCCU.php', body));
      case 'POST /stand-in/faults':
        return json(queueFaults(body));
      case 'POST /stand-in/enroll-faults':
        return json(queueEnrollFaults(body));
      case 'GET /stand-in/requests': {
        const registerId = url.searchParams.get('registerId');
        const listed = requests.filter((entry) => registerId === null || entry.registerId === registerId);
        return json({
          status: 200,
          value: listed.map(({ path, body: raw, received: at }) => ({ path, body: raw, received: at })),
        });
      }
      default:
        return { status: 200, type: TEXT, body: 'ok\n' };
    }
  }

  function received(path: string, body: string): Received {
    const entry: Received = { path, body, received: new Date().toISOString(), registerId: undefined };
    requests.push(entry);
    if (requests.length > LOG_LIMIT) requests.shift();
    return entry;
  }

  // --- TCS ---

  function tcsServer(body: string, entry: Received): Answer {
    if (!looksLikeXml(body)) return NOT_XML;
    let root: XmlElement;
    try {
      root = parseXml(body);
    } catch (error) {
      return xml(tcsResponse(malformed(error), {}));
    }
    const echo = { applicationId: peek(root, 'ApplicationID'), requestId: peek(root, 'RequestID') };
    // A register status check (RegisterStatusRequest.cs) is a TcsRequest with RegisterStatus in place of ControlData.
    const status = peekChild(root, 'ControlData') ? undefined : peekChild(root, 'RegisterStatus');
    const registerId = status ? peek(status, 'ManRegisterID') : peek(root, 'ControlData', 'ManRegisterID');
    entry.registerId = registerId;
    const fault = registerId === undefined ? undefined : faults.get(registerId)?.shift();
    if (fault === 'busy') return BUSY;
    if (fault === 'silent') return 'hold';
    const register = registerId === undefined ? undefined : registers.get(registerId);
    if (register) {
      register.loginCount += 1;
      register.lastLogin = new Date();
    }
    if (fault === 'garbled') {
      return { status: 200, type: XML, body: 'TcsResponse ResponseCode=0 \u0000\u00ff{garbled by the stand-in\n' };
    }
    const sequenceNumber = peek(root, 'ControlData', 'SequenceNumber');
    try {
      if (fault === 'refuse') {
        throw new RefusalError(TCS.refused, 'Refused by stand-in', 'the refuse fault queued for this register');
      }
      if (root.name !== 'TcsRequest') throw new MalformedXmlError(`the root element is ${root.name}, not TcsRequest`);
      const ids = { applicationId: required(root, 'ApplicationID'), requestId: requestGuid(root) };
      if (status) return xml(registerStatusResponse(checkStatus(status), ids));
      const receipt = readReceipt(root);
      const signed = { code: TCS.ok, message: 'OK', reason: 'Receipt registered' };
      return xml(tcsResponse(signed, { ...ids, sequenceNumber, ...(fault === 'uncoded' ? {} : { receipt }) }));
    } catch (error) {
      const refusal = error instanceof MalformedXmlError ? malformed(error) : asRefusal(error);
      if (status) return xml(registerStatusResponse(refusal, echo));
      return xml(tcsResponse(refusal, { ...echo, sequenceNumber }));
    }
  }

  function enrolled(registerId: string, orgNr: string | undefined): Register {
    const register = registers.get(registerId);
    if (!register) throw new RefusalError(TCS.unknownRegister, 'Unknown register', `ManRegisterID ${registerId} is not enrolled`);
    if (orgNr === undefined || !ORG_NR.test(orgNr)) {
      throw new RefusalError(TCS.orgNr, 'Invalid OrgNr', `OrgNr ${orgNr ?? '(missing)'} is not 10 digits`);
    }
    if (orgNr !== register.orgNr) {
      throw new RefusalError(TCS.orgNr, 'OrgNr mismatch', `OrgNr ${orgNr} is not the one ${registerId} was enrolled with`);
    }
    return register;
  }

  function checkStatus(status: XmlElement): Refusal {
    enrolled(required(status, 'ManRegisterID'), text(status, 'OrgNr'));
    return { code: TCS.ok, message: 'OK', reason: 'Register is active' };
  }

  /** The ControlData of a receipt, checked element by element in the order of TcsRequest.cs. */
  function readReceipt(root: XmlElement): Receipt {
    const data = child(root, 'ControlData');
    if (!data) throw new MalformedXmlError('ControlData is missing');
    const registerId = required(data, 'ManRegisterID');
    enrolled(registerId, text(data, 'OrgNr'));
    required(data, 'RegisterAddress');
    if (dateTime(data, 'DateTime') === undefined) throw new RefusalError(TCS.dateTime, 'Invalid DateTime', 'DateTime is missing');
    const copyDateTime = dateTime(data, 'CopyDateTime');
    const sequenceNumber = wholeNumber(data, 'SequenceNumber');
    if (sequenceNumber === undefined) {
      throw new RefusalError(TCS.sequenceNumber, 'Invalid SequenceNumber', 'SequenceNumber is missing');
    }
    const copySequenceNumber = wholeNumber(data, 'CopySequenceNumber');
    const type = child(data, 'ReceiptType')?.attributes.get('Type');
    if (type === undefined || !RECEIPT_TYPES.includes(type)) {
      throw new RefusalError(
        TCS.receiptType,
        'Invalid ReceiptType',
        `ReceiptType Type ${type ?? '(missing)'} is not one of ${RECEIPT_TYPES.join(', ')}`,
      );
    }
    const sale = text(data, 'SaleAmount');
    const refund = text(data, 'RefundAmount');
    if ((sale === undefined) === (refund === undefined)) {
      throw new RefusalError(TCS.amount, 'Invalid amount', 'exactly one of SaleAmount and RefundAmount is required');
    }
    const amount = sale ?? refund ?? '';
    if (!AMOUNT.test(amount)) {
      throw new RefusalError(
        TCS.amount,
        'Invalid amount',
        `${sale === undefined ? 'RefundAmount' : 'SaleAmount'} ${amount} is not like 123,45`,
      );
    }
    const vat = VAT_PERCENTS.map((percent, index) => readVat(data, index + 1, percent));
    if (type === 'kopia' && (copyDateTime === undefined || copySequenceNumber === undefined)) {
      throw new RefusalError(TCS.copy, 'Incomplete copy', 'a kopia needs CopyDateTime and CopySequenceNumber');
    }
    return { registerId, sequenceNumber, type, sale, refund, vat };
  }

  function readVat(data: XmlElement, n: number, percent: string): string[] {
    const name = `VAT${n}`;
    const vat = child(data, name);
    if (!vat) throw new RefusalError(TCS.vat, 'Invalid VAT', `${name} is missing`);
    const given = text(vat, 'Percent');
    if (given !== percent) {
      throw new RefusalError(TCS.vat, 'Invalid VAT', `${name} Percent is ${given ?? '(missing)'}, not ${percent}`);
    }
    return ['Amount', 'SubtotalAmount'].map((field) => {
      const value = text(vat, field);
      if (value === undefined || !AMOUNT.test(value)) {
        throw new RefusalError(TCS.vat, 'Invalid VAT', `${name} ${field} ${value ?? '(missing)'} is not like 123,45`);
      }
      return value;
    });
  }

  // --- IDM ---

  function enrollCcu(body: string, entry: Received): Answer {
    const fault = enrollFaults.shift();
    if (fault === 'busy') return BUSY;
    if (!looksLikeXml(body)) return NOT_XML;
    let root: XmlElement;
    try {
      root = parseXml(body);
    } catch (error) {
      return xml(idmResponse(malformed(error), {}));
    }
    const echo = {
      applicationId: peek(root, 'ApplicationID'),
      requestId: peek(root, 'RequestID'),
      action: peek(root, 'EnrollData', 'Action'),
    };
    try {
      if (fault === 'refuse') {
        throw new RefusalError(IDM.refused, 'Refused by stand-in', 'the refuse fault queued for enrolments');
      }
      if (root.name !== 'IdmRequest') throw new MalformedXmlError(`the root element is ${root.name}, not IdmRequest`);
      required(root, 'ApplicationID');
      const requestId = required(root, 'RequestID');
      if (!/^-?\d{1,10}$/.test(requestId) || Math.abs(Number(requestId)) > 2 ** 31) {
        throw new MalformedXmlError(`RequestID ${requestId} is not a 32-bit integer`);
      }
      const data = child(root, 'EnrollData');
      if (!data) throw new MalformedXmlError('EnrollData is missing');
      const action = required(data, 'Action');
      if (action === 'NEW') {
        const register = enroll(data);
        entry.registerId = register.id;
        return xml(idmResponse({ code: IDM.ok, message: 'OK', reason: 'Register enrolled' }, { ...echo, register }));
      }
      if (action === 'STATUS') {
        const registerId = text(data, 'RegisterInfo', 'RegisterID') ?? '';
        entry.registerId = registerId;
        const register = registers.get(registerId);
        if (!register) {
          throw new RefusalError(
            IDM.unknownRegister,
            'Unknown register',
            `RegisterID ${registerId || '(missing)'} is not enrolled`,
          );
        }
        return xml(
          idmResponse({ code: IDM.ok, message: 'OK', reason: 'Register is active' }, { ...echo, register, status: true }),
        );
      }
      throw new RefusalError(IDM.action, 'Unknown action', `Action ${action} is neither NEW nor STATUS`);
    } catch (error) {
      return xml(idmResponse(error instanceof MalformedXmlError ? malformed(error) : asRefusal(error), echo));
    }
  }

  function enroll(data: XmlElement): Register {
    const organizationNumber = text(data, 'CompanyInfo', 'OrganizationNumber');
    if (organizationNumber === undefined || !ORGANIZATION_NUMBER.test(organizationNumber)) {
      throw new RefusalError(
        IDM.organizationNumber,
        'Invalid organization number',
        `CompanyInfo/OrganizationNumber ${organizationNumber ?? '(missing)'} is not 10 digits (NNNNNNNNNN or NNNNNN-NNNN)`,
      );
    }
    if ((text(data, 'RegisterInfo', 'LocalAlias') ?? '').trim() === '') {
      throw new RefusalError(IDM.localAlias, 'Missing local alias', 'RegisterInfo/LocalAlias is empty');
    }
    let id: string;
    do id = `CCU${String(randomInt(10 ** 7)).padStart(7, '0')}${String(randomInt(10 ** 7)).padStart(7, '0')}`;
    while (registers.has(id));
    const register: Register = { id, orgNr: organizationNumber.replace('-', ''), loginCount: 0, lastLogin: undefined };
    registers.set(id, register);
    keep();
    return register;
  }

  // --- test controls ---

  function queueFaults(body: string): { status: number; value: unknown } {
    const input = parseJson(body);
    const registerId = input?.registerId;
    const queued = input?.faults;
    if (typeof registerId !== 'string' || registerId === '' || registerId.length > 64 || !isFaults(queued, CLOUD_FAULTS)) {
      return { status: 400, value: { error: `expected { "registerId": string, "faults": (${CLOUD_FAULTS.join('|')})[] }` } };
    }
    const queue = faults.get(registerId) ?? [];
    queue.push(...queued);
    faults.set(registerId, queue);
    return { status: 200, value: { registerId, queued: queue.length } };
  }

  function queueEnrollFaults(body: string): { status: number; value: unknown } {
    const queued = parseJson(body)?.faults;
    if (!isFaults(queued, ENROLL_FAULTS)) {
      return { status: 400, value: { error: `expected { "faults": (${ENROLL_FAULTS.join('|')})[] }` } };
    }
    enrollFaults.push(...queued);
    return { status: 200, value: { queued: enrollFaults.length } };
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', resolve);
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the cloud unit stand-in has no TCP address');
  return {
    url: `http://127.0.0.1:${address.port}`,
    stop: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // Held (silent) requests too: nothing else would ever end them.
      server.closeAllConnections();
      await closed;
    },
  };
}

// --- answers ---

const XML = 'application/xml; charset=utf-8';
const TEXT = 'text/plain; charset=utf-8';
const ROUTES = new Set([
  'POST /tcsserver',
  'POST /api/EnrollCCU.php',
  'POST /stand-in/faults',
  'POST /stand-in/enroll-faults',
  'GET /stand-in/requests',
  'GET /stand-in/health',
]);
const CLOUD_FAULTS: readonly CloudFault[] = ['busy', 'silent', 'refuse', 'garbled', 'uncoded'];
const ENROLL_FAULTS: readonly EnrollFault[] = ['refuse', 'busy'];
const NOT_XML: Answer = { status: 400, type: TEXT, body: 'the body is not an XML document\n' };
const BUSY: Answer = { status: 503, type: TEXT, body: 'Service temporarily unavailable (busy fault of the stand-in)\n' };

interface Refusal {
  code: number;
  message: string;
  reason: string;
}

interface Receipt {
  registerId: string;
  sequenceNumber: string;
  type: string;
  sale: string | undefined;
  refund: string | undefined;
  vat: string[][];
}

interface Ids {
  applicationId?: string | undefined;
  requestId?: string | undefined;
}

const malformed = (error: unknown): Refusal => ({
  code: TCS.malformed,
  message: 'Malformed document',
  reason: error instanceof Error ? error.message : String(error),
});

function asRefusal(error: unknown): Refusal {
  if (error instanceof RefusalError) return { code: error.code, message: error.message, reason: error.reason };
  throw error;
}

const xml = (body: string): Answer => ({ status: 200, type: XML, body });
const json = ({ status, value }: { status: number; value: unknown }): Answer => ({
  status,
  type: 'application/json; charset=utf-8',
  body: JSON.stringify(value),
});

function send(response: ServerResponse, answer: Exclude<Answer, 'hold'>): void {
  response.writeHead(answer.status, { 'content-type': answer.type, 'content-length': Buffer.byteLength(answer.body) });
  response.end(answer.body);
}

/** An element as XmlSerializer writes it, `<Name />` when empty. */
const leaf = (name: string, value: string | number | undefined, indent: string) =>
  value === undefined || value === '' ? `${indent}<${name} />` : `${indent}<${name}>${escapeXml(String(value))}</${name}>`;

const DECLARATION = '<?xml version="1.0" encoding="utf-8"?>';

/** The elements TcsResponse.cs and RegisterStatusResponse.cs open with, in their order. */
function tcsAnswerHead(outcome: Refusal, ids: Ids): string[] {
  const ok = outcome.code === TCS.ok;
  return [
    leaf('ResponseCode', outcome.code, '  '),
    leaf('ResponseMessage', outcome.message, '  '),
    leaf('ResponseReason', outcome.reason, '  '),
    leaf('ApplicationID', ids.applicationId, '  '),
    leaf('RequestID', ids.requestId, '  '),
    leaf('SKVResponseCode', ok ? '0' : '', '  '),
    leaf('SKVResponseMessage', ok ? 'OK' : '', '  '),
  ];
}

/** TcsResponse.cs, in its order; a refusal has empty SKV fields and an empty Code. */
function tcsResponse(outcome: Refusal, ids: Ids & { sequenceNumber?: string | undefined; receipt?: Receipt }): string {
  return [
    DECLARATION,
    '<TcsResponse>',
    ...tcsAnswerHead(outcome, ids),
    leaf('SequenceNumber', ids.sequenceNumber, '  '),
    '  <ControlCode>',
    leaf('ControlServerID', TCS_ID, '    '),
    leaf('Code', ids.receipt ? controlCode(ids.receipt) : '', '    '),
    '  </ControlCode>',
    '</TcsResponse>',
  ].join('\n');
}

/** RegisterStatusResponse.cs, in its order. */
function registerStatusResponse(outcome: Refusal, ids: Ids): string {
  return [DECLARATION, '<TcsResponse>', ...tcsAnswerHead(outcome, ids), '</TcsResponse>'].join('\n');
}

/** IdmResponse.cs, in its order: RegisterID and TCSID on success, Active, LoginCount and LastLogin for STATUS. */
function idmResponse(
  outcome: Refusal,
  ids: Ids & { action?: string | undefined; register?: Register; status?: boolean },
): string {
  const { register } = ids;
  return [
    DECLARATION,
    '<IdmResponse>',
    leaf('ResponseCode', outcome.code, '  '),
    leaf('ResponseMessage', outcome.message, '  '),
    leaf('ResponseReason', outcome.reason, '  '),
    leaf('ApplicationID', ids.applicationId, '  '),
    leaf('RequestID', ids.requestId, '  '),
    leaf('Action', ids.action, '  '),
    ...(register ? [leaf('RegisterID', register.id, '  '), leaf('TCSID', TCS_ID, '  ')] : []),
    ...(register && ids.status
      ? [
          leaf('Active', 1, '  '),
          leaf('LoginCount', register.loginCount, '  '),
          leaf('LastLogin', register.lastLogin && stockholmTime(register.lastLogin), '  '),
        ]
      : []),
    '</IdmResponse>',
  ].join('\n');
}

/** 59 characters of A-Z0-9 from what makes a receipt this receipt: no time, so a repeat gets the same code. */
function controlCode(receipt: Receipt): string {
  const parts = [
    receipt.registerId,
    BigInt(receipt.sequenceNumber).toString(),
    receipt.type,
    receipt.sale ?? '',
    receipt.refund ?? '',
  ];
  const digest = createHmac('sha512', CONTROL_CODE_KEY)
    .update([...parts, ...receipt.vat.flat()].join('|'))
    .digest();
  let code = '';
  for (let i = 0; i < CONTROL_CODE_LENGTH; i++)
    code += CONTROL_CODE_ALPHABET[(digest[i] as number) % CONTROL_CODE_ALPHABET.length];
  return code;
}

// yyyy-MM-dd HH:mm:ss is how sv-SE writes a date and time.
const STOCKHOLM = new Intl.DateTimeFormat('sv-SE', {
  timeZone: 'Europe/Stockholm',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});
const stockholmTime = (date: Date) => STOCKHOLM.format(date);

// --- reading requests ---

/** The body in UTF-8, or undefined above BODY_LIMIT (the rest is read and dropped, so the client sees the 413). */
function readBody(request: IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= BODY_LIMIT) chunks.push(chunk);
    });
    request.on('end', () => resolve(size > BODY_LIMIT ? undefined : Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

const looksLikeXml = (body: string) => /^\uFEFF?\s*</.test(body);

function parseJson(body: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(body);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function isFaults<F extends string>(value: unknown, allowed: readonly F[]): value is F[] {
  return (
    Array.isArray(value) &&
    value.length <= FAULTS_LIMIT &&
    value.every((fault) => typeof fault === 'string' && (allowed as readonly string[]).includes(fault))
  );
}

/** A child's text that must be there and not be empty: without it the document is malformed (code 1). */
function required(parent: XmlElement, name: string): string {
  const value = text(parent, name);
  if (value === undefined || value.trim() === '') throw new MalformedXmlError(`${name} is missing or empty`);
  return value;
}

function requestGuid(root: XmlElement): string {
  const requestId = required(root, 'RequestID');
  if (!GUID.test(requestId)) throw new MalformedXmlError(`RequestID ${requestId} is not a GUID`);
  return requestId;
}

/** The element's text when it is a yyyyMMddHHmmss time that exists; undefined when the element is absent. */
function dateTime(data: XmlElement, name: string): string | undefined {
  const value = text(data, name);
  if (value === undefined) return undefined;
  const iso = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})$/.exec(value)?.slice(1);
  const date = iso && new Date(`${iso[0]}-${iso[1]}-${iso[2]}T${iso[3]}:${iso[4]}:${iso[5]}Z`);
  // A date that does not exist (20260231...) is either invalid or comes back as another one.
  if (!date || Number.isNaN(date.getTime()) || date.toISOString().replace(/\D/g, '').slice(0, 14) !== value) {
    throw new RefusalError(TCS.dateTime, `Invalid ${name}`, `${name} ${value} is not a yyyyMMddHHmmss time`);
  }
  return value;
}

/** The element's text when it is a long that is not negative (SequenceNumber, CopySequenceNumber); undefined when absent. */
function wholeNumber(data: XmlElement, name: string): string | undefined {
  const value = text(data, name);
  if (value === undefined) return undefined;
  if (!/^\d{1,18}$/.test(value)) {
    throw new RefusalError(TCS.sequenceNumber, `Invalid ${name}`, `${name} ${value} is not a whole number`);
  }
  return value;
}

// --- a small XML reader: enough for these flat documents, and strict about what it reads ---

interface XmlElement {
  name: string;
  attributes: Map<string, string>;
  children: XmlElement[];
  text: string;
}

const NAME = '[A-Za-z_][\\w.:-]*';
const OPEN_TAG = new RegExp(`<(${NAME})((?:\\s+${NAME}\\s*=\\s*(?:"[^"<]*"|'[^'<]*'))*)\\s*(/?)>`, 'y');
const ATTRIBUTE = new RegExp(`(${NAME})\\s*=\\s*(?:"([^"<]*)"|'([^'<]*)')`, 'g');
const CLOSE_TAG = new RegExp(`</(${NAME})\\s*>`, 'y');
const PROLOG = /(?:\s+|<\?[\s\S]*?\?>|<!--[\s\S]*?-->)*/y;
const CONTENT = /[^<]*/y;
const COMMENT = /<!--[\s\S]*?-->/y;
const CDATA = /<!\[CDATA\[([\s\S]*?)\]\]>/y;
// Deeper than any of these documents; it keeps a hostile body from exhausting the stack.
const MAX_DEPTH = 16;

/** The root element of a document; throws MalformedXmlError for what is not well-formed (a DOCTYPE included). */
function parseXml(source: string): XmlElement {
  let at = 0;
  const match = (pattern: RegExp) => {
    pattern.lastIndex = at;
    const found = pattern.exec(source);
    if (found) at = pattern.lastIndex;
    return found;
  };
  const element = (depth: number): XmlElement => {
    if (depth > MAX_DEPTH) throw new MalformedXmlError(`elements nested deeper than ${MAX_DEPTH}`);
    const open = match(OPEN_TAG);
    if (!open) throw new MalformedXmlError(`no element at character ${at}`);
    const [, name = '', attributeText = '', selfClosing] = open;
    const attributes = new Map<string, string>();
    for (const [, attribute = '', double, single] of attributeText.matchAll(ATTRIBUTE)) {
      if (attributes.has(attribute)) throw new MalformedXmlError(`attribute ${attribute} twice on ${name}`);
      attributes.set(attribute, decode(double ?? single ?? ''));
    }
    const node: XmlElement = { name, attributes, children: [], text: '' };
    if (selfClosing) return node;
    for (;;) {
      node.text += decode(match(CONTENT)?.[0] ?? '');
      if (source.startsWith('</', at)) {
        const close = match(CLOSE_TAG);
        if (close?.[1] !== name) throw new MalformedXmlError(`${name} is not closed at character ${at}`);
        return node;
      }
      if (source.startsWith('<!--', at)) {
        if (!match(COMMENT)) throw new MalformedXmlError('a comment is not closed');
      } else if (source.startsWith('<![CDATA[', at)) {
        const cdata = match(CDATA);
        if (!cdata) throw new MalformedXmlError('a CDATA section is not closed');
        node.text += cdata[1] ?? '';
      } else if (at >= source.length) {
        throw new MalformedXmlError(`${name} is not closed`);
      } else {
        node.children.push(element(depth + 1));
      }
    }
  };
  at = source.startsWith('\uFEFF') ? 1 : 0;
  match(PROLOG);
  const root = element(0);
  match(PROLOG);
  if (at !== source.length) throw new MalformedXmlError(`content after the root element at character ${at}`);
  return root;
}

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

function decode(raw: string): string {
  return raw.replace(/&([^;&\s]*);?/g, (whole, entity: string) => {
    const named = ENTITIES[entity];
    if (named !== undefined && whole.endsWith(';')) return named;
    const code = /^#(\d{1,7}|x[0-9a-fA-F]{1,6})$/.exec(entity) && whole.endsWith(';') ? Number(`0${entity.slice(1)}`) : NaN;
    if (Number.isNaN(code) || code > 0x10ffff) throw new MalformedXmlError(`${whole} is not an entity this reader knows`);
    return String.fromCodePoint(code);
  });
}

function escapeXml(value: string): string {
  return value.replace(
    /[<>&"']/g,
    (c) => `&${({ '<': 'lt', '>': 'gt', '&': 'amp', '"': 'quot', "'": 'apos' } as Record<string, string>)[c]};`,
  );
}

/** The only child named `name`; two of them is malformed. */
function child(parent: XmlElement, name: string): XmlElement | undefined {
  const found = parent.children.filter((node) => node.name === name);
  if (found.length > 1) throw new MalformedXmlError(`${name} appears ${found.length} times in ${parent.name}`);
  return found[0];
}

/** The text of the element at `path` below `parent`, undefined when one of them is absent. */
function text(parent: XmlElement, ...path: string[]): string | undefined {
  let node: XmlElement | undefined = parent;
  for (const name of path) node = node && child(node, name);
  return node?.text;
}

/** As `text`, and never throws: for what a refusal echoes and which register a request names. */
function peek(parent: XmlElement, ...path: string[]): string | undefined {
  try {
    return text(parent, ...path);
  } catch {
    return undefined;
  }
}

function peekChild(parent: XmlElement, name: string): XmlElement | undefined {
  try {
    return child(parent, name);
  } catch {
    return undefined;
  }
}
