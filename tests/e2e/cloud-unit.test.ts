/**
 * A register with no box on the counter (docs/conventions.md §27), over HTTP: a REMOTE activation without a serial
 * enrolls the register with the stack's cloud system, and its receipts are signed there. The documents the service
 * sends are compared, element by element, with documents written here by hand from Infrasec's public .NET client
 * (MewsSystems/fiscalizations, src/Sweden: DTOs/TcsRequest.cs and IdmRequest.cs give the elements and their order,
 * Mappers/TransactionMappers.cs and EnrollmentMappers.cs the values: `yyyyMMddHHmmss`, `N2`/`F2` in fr-FR with the
 * group separator removed, the enrollment's constants). The stand-in the stack serves keeps the documents it got.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { saleOf } from '../support/fiscal.ts';
import { type CallOptions, expectError, v } from '../support/http.ts';
import { DAY, newVendor, swedishCorporateId, userOf } from '../support/identity.ts';
import { activateOnUnit, kdOf, sendKd, type UnitApp, unitApp } from '../support/kd.ts';
import { expectValidExport } from '../support/skvfs.ts';

const cloud = () => inject('cloudSystem');

/** The stand-in's test controls (infra/local/cloud-unit.ts). */
async function standIn(path: string, body?: unknown): Promise<unknown> {
  const answer = await fetch(`${cloud().tcsUrl}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
  });
  if (!answer.ok) throw new Error(`stand-in ${path}: ${answer.status}`);
  return answer.json();
}
const received = async (registerId?: string) =>
  (await standIn(`/stand-in/requests${registerId ? `?registerId=${encodeURIComponent(registerId)}` : ''}`)) as {
    path: string;
    body: string;
  }[];

/**
 * A document as its elements in order: `Path/To/Element=text` for each leaf, `Path/To/Element@attr=value` for each
 * attribute, an empty element as `Path=` (written `<X />` or `<X></X>` alike). A hand-written reading, for these flat
 * documents only, so the service's XML code is not what checks it.
 */
function elementsOf(xml: string): string[] {
  const out: string[] = [];
  const path: string[] = [];
  let text = '';
  for (const [, close, name, attributes, selfClosing, between] of xml
    .replace(/^<\?xml[^>]*\?>/, '')
    .matchAll(/<(\/?)([\w.]+)((?:\s+[\w:]+="[^"]*")*)\s*(\/?)>([^<]*)/g)) {
    if (close) {
      out.push(`${path.join('/')}=${text}`);
      path.pop();
      text = '';
    } else {
      path.push(name ?? '');
      for (const [, attribute, value] of (attributes ?? '').matchAll(/([\w:]+)="([^"]*)"/g)) {
        out.push(`${path.join('/')}@${attribute}=${value}`);
      }
      if (selfClosing) {
        out.push(`${path.join('/')}=`);
        path.pop();
      }
      text = between?.trim() === '' ? '' : (between ?? '');
    }
  }
  // An element with children reports its (empty) text on closing too: keep leaves only.
  return out.filter((line, index) => !(line.endsWith('=') && out[index + 1]?.startsWith(line.slice(0, -1) + '/')));
}

/** The RequestID (a GUID) each document carries, compared apart: the service makes a fresh one per request. */
const GUID = /<RequestID>([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})<\/RequestID>/;
const withoutRequestId = (xml: string) => xml.replace(GUID, '<RequestID>GUID</RequestID>');

/** VAT groups as the client writes them: VAT1..VAT4 at 25, 12, 6, 0 %, `Amount` the VAT and `SubtotalAmount` the net. */
const vatGroups = (groups: [string, string][]) =>
  groups
    .map(
      ([amount, subtotal], index) =>
        `<VAT${index + 1}><Percent>${['25,00', '12,00', '6,00', '0,00'][index]}</Percent><Amount>${amount}</Amount><SubtotalAmount>${subtotal}</SubtotalAmount></VAT${index + 1}>`,
    )
    .join('');

/** The client's test data: 116.26 gross, 12 %: 5.70 VAT on 47.50 net, 25 %: 12.61 VAT on 50.45 net. */
const CLIENT_VAT = vatGroups([
  ['12,61', '50,45'],
  ['5,70', '47,50'],
  ['0,00', '0,00'],
  ['0,00', '0,00'],
]);
/** The same receipt as the register sends it: gross per rate, no `brutto` (v33 as the specification lists it). */
const CLIENT_RATES = { '25': 6306, '12': 5320 };
/** The kd's date of the tests (tests/support/kd.ts KD_DATE) in Stockholm, summer time, as `yyyyMMddHHmmss`. */
const KD_LOCAL = '20260701120530';

const ADDRESS = { address: 'Regeringsgatan 67', zip: '111 56', city: 'Stockholm' };

interface CloudShop {
  sellerId: string;
  corporateId: string;
  cash: string;
  register: CallOptions;
  base: string;
}

let app: UnitApp;

/** The activation order of a tablet: REMOTE, no serial. */
const remoteOrder = (corporateId: string, cash: string) => ({
  country: 'SE',
  corporateId,
  companyName: 'Molnbutiken AB',
  cashRegisterName: cash,
  features: [],
  validFrom: Date.now() - DAY,
  validTo: Date.now() + DAY,
  applicationPackage: app.applicationPackage,
  controlUnitLocation: 'REMOTE',
  installationCreationInfo: { deviceId: randomUUID().slice(0, 16), buildInfo: { os: 'Android 14' }, programVersion: '2.1.0' },
});

/** A seller with its address, and a register activated REMOTE without a serial. */
async function cloudShop(): Promise<CloudShop> {
  const corporateId = swedishCorporateId();
  const sellerId = `SE${corporateId}`;
  const cash = `T${randomUUID().slice(0, 6)}`;
  const profile = await v(33).put(`/sellers/${sellerId}`, {
    corporateId,
    country: 'SE',
    publicAccess: true,
    workHoursWeek: {},
    name: 'Molnbutiken AB',
    currency: 'SEK',
    ...ADDRESS,
  });
  expect(profile.status).toBeLessThan(300);
  const answer = await v(33).post('/activations-advanced', remoteOrder(corporateId, cash));
  expect([answer.status, answer.text]).toEqual([201, expect.any(String)]);
  const body = answer.body as { apiKey: string };
  return {
    sellerId,
    corporateId,
    cash,
    register: { as: { apiKey: body.apiKey } },
    base: `/${sellerId}/registrations/${cash}`,
  };
}

/** The register's signed activation descriptor, as the register reads it. */
async function descriptorOf(register: CallOptions): Promise<{ controlUnitSerial: string | null; productionNumber: string }> {
  const code = await v(33).post('/activations/activation-code', undefined, register);
  expect([code.status, code.text]).toEqual([201, expect.any(String)]);
  return JSON.parse((code.body as { activationDescriptorInfo: string }).activationDescriptorInfo) as {
    controlUnitSerial: string | null;
    productionNumber: string;
  };
}
const serialOf = async (register: CallOptions) => (await descriptorOf(register)).controlUnitSerial;
const productionNumberOf = async (register: CallOptions) => (await descriptorOf(register)).productionNumber;

async function signed(s: CloudShop, body: Record<string, unknown>): Promise<string> {
  const answer = await sendKd(33, s.sellerId, s.cash, body, s.register);
  expect([answer.status, answer.text]).toEqual([201, expect.any(String)]);
  return (answer.body as { response: string }).response;
}

beforeAll(async () => {
  app = await unitApp();
});

describe('enrollment', () => {
  it('enrolls a REMOTE order without a serial once, with the seller and the register as the public client does', async () => {
    const s = await cloudShop();
    const serial = await serialOf(s.register);
    expect(serial).toEqual(expect.any(String));
    const enrollments = (await received()).filter(
      (request) => request.path === '/api/EnrollCCU.php' && request.body.includes(`<LocalAlias>${s.cash}</LocalAlias>`),
    );
    expect(enrollments).toHaveLength(1);
    const org = `${s.corporateId.slice(0, 6)}-${s.corporateId.slice(6)}`;
    const place = `<Address>${ADDRESS.address}</Address><Zipcode>${ADDRESS.zip}</Zipcode><City>${ADDRESS.city}</City>`;
    const expected =
      `<IdmRequest><ApplicationID>cash-register-backend</ApplicationID><RequestID>N</RequestID><EnrollData>` +
      `<Action>NEW</Action>` +
      `<PartnerAuthority><PartnerName>Cash register back end</PartnerName><PartnerCode>CR</PartnerCode><POSAuthorityCode>S</POSAuthorityCode></PartnerAuthority>` +
      `<OrganizationBranch><BranchName /><BranchCode /></OrganizationBranch>` +
      `<OrganizationChain><ChainName>Molnbutiken AB</ChainName><ChainCode>${s.corporateId}</ChainCode></OrganizationChain>` +
      `<StoreInfo><StoreID>${s.corporateId}</StoreID><StoreName>Molnbutiken AB</StoreName>${place}</StoreInfo>` +
      `<CompanyInfo><OrganizationNumber>${org}</OrganizationNumber><Company>Molnbutiken AB</Company>${place}</CompanyInfo>` +
      `<RegisterInfo><RegisterID /><RegisterMake>Kassa</RegisterMake><RegisterModel>${app.applicationPackage}</RegisterModel>` +
      `<LocalAlias>${s.cash}</LocalAlias><CounterNumber />${place}</RegisterInfo>` +
      `<JournalLocation><Company>Molnbutiken AB</Company>${place}</JournalLocation>` +
      `<OperationLocation><Company>Molnbutiken AB</Company>${place}</OperationLocation>` +
      `<Certificate><Method>NONE</Method><Email /><Cellphone /></Certificate>` +
      `<PcxService><TCS><Enable>Yes</Enable></TCS><Swish><Enable>No</Enable><SwishNr /><SwishType /></Swish>` +
      `<Sparakvittot><Enable>No</Enable><SparakvittotAccount /><SparakvittotStoreid /><SparakvittotUsername /><SparakvittotPassword /></Sparakvittot></PcxService>` +
      `</EnrollData></IdmRequest>`;
    const sent = enrollments[0]?.body ?? '';
    expect(sent).toMatch(/<RequestID>[1-9]\d{5}<\/RequestID>/);
    expect(elementsOf(sent.replace(/<RequestID>\d+<\/RequestID>/, '<RequestID>N</RequestID>'))).toEqual(elementsOf(expected));

    // The same order again is refused as any repeat is, before anything is enrolled; a renewal of the register on its
    // installation keeps the unit it has: nothing is enrolled twice.
    expectError(
      await v(33).post('/activations-advanced', remoteOrder(s.corporateId, s.cash)),
      404,
      'ReferenceNotFound',
      'REGISTRATION_EXISTS_FOR_SELLER_AND_INSTALLATION',
    );
    const { installationCreationInfo: _installed, ...renewal } = remoteOrder(s.corporateId, s.cash);
    const again = await v(33).post('/activations-advanced', {
      ...renewal,
      productionNumber: await productionNumberOf(s.register),
    });
    expect([again.status, again.text]).toEqual([201, expect.any(String)]);
    expect(await serialOf({ as: { apiKey: (again.body as { apiKey: string }).apiKey } })).toBe(serial);
    expect((await received()).filter((request) => request.body.includes(`<LocalAlias>${s.cash}</LocalAlias>`))).toHaveLength(1);

    // The unit's state at the system, for its administrator.
    const status = await v(33).get(`/control-units/${serial ?? ''}/cloud`);
    expect(status.status).toBe(200);
    expect(status.body).toMatchObject({
      serial,
      system: 'infrasec',
      registerAddress: 'Regeringsgatan 67 111 56 Stockholm',
      reachable: true,
      active: true,
      loginCount: 0,
    });
  });

  it("shows a cloud unit's state to its vendor's users and the hyper admin only; a unit behind a bridge has none", async () => {
    const s = await cloudShop();
    const serial = (await serialOf(s.register)) ?? '';
    const own = await v(33).get(`/control-units/${serial}/cloud`, await userOf('SOFTWARE_VENDOR', app.softwareVendor));
    expect([own.status, (own.body as { serial: string }).serial]).toEqual([200, serial]);
    const stranger = await userOf('SOFTWARE_VENDOR', await newVendor('Annan AB'));
    expectError(await v(33).get(`/control-units/${serial}/cloud`, stranger), 404, 'NotFound');
    const bridged = `BR${randomUUID().slice(0, 12)}`;
    await activateOnUnit(app, swedishCorporateId(), 'B1', bridged);
    expectError(await v(33).get(`/control-units/${bridged}/cloud`), 404, 'NotFound');
  });

  it('refuses the order with the reason the system gives, creating nothing', async () => {
    await standIn('/stand-in/enroll-faults', { faults: ['refuse'] });
    const corporateId = swedishCorporateId();
    const refused = await v(33).post('/activations-advanced', remoteOrder(corporateId, 'Kassa 1'));
    expectError(refused, 422, 'UnprocessableEntity', 'CU_IS_MISSING_FOR_ACTIVATION');
    expect((refused.body as { message: string }).message).toMatch(/did not enroll the register: .+\(ResponseCode [1-9]\d*\)/);
    expect((await v(33).get(`/SE${corporateId}/registrations/Kassa%201`)).status).toBe(404);
    // The next order of the register enrolls it.
    expect((await v(33).post('/activations-advanced', remoteOrder(corporateId, 'Kassa 1'))).status).toBe(201);
  });
});

describe('a seller without an address when its register enrolls', () => {
  it('signs with the address the seller has when the receipt is signed', async () => {
    const corporateId = swedishCorporateId();
    const sellerId = `SE${corporateId}`;
    const answer = await v(33).post('/activations-advanced', remoteOrder(corporateId, 'Kassa 2'));
    expect([answer.status, answer.text]).toEqual([201, expect.any(String)]);
    const register: CallOptions = { as: { apiKey: (answer.body as { apiKey: string }).apiKey } };
    const serial = (await serialOf(register)) ?? '';
    const profile = await v(33).put(`/sellers/${sellerId}`, {
      corporateId,
      country: 'SE',
      publicAccess: true,
      workHoursWeek: {},
      name: 'Molnbutiken AB',
      currency: 'SEK',
      address: 'Storgatan 1',
      zip: '211 22',
      city: 'Malmö',
    });
    expect(profile.status).toBeLessThan(300);
    const signed = await sendKd(33, sellerId, 'Kassa 2', kdOf(1, 4000), register);
    expect(signed.status).toBe(201);
    const [document] = await received(serial).then((requests) => requests.filter((request) => request.path === '/tcsserver'));
    expect(document?.body).toContain('<RegisterAddress>Storgatan 1 211 22 Malmö</RegisterAddress>');
  });
});

describe('signing through the cloud unit', () => {
  let s: CloudShop;
  let serial: string;
  let serverId: string;

  beforeAll(async () => {
    s = await cloudShop();
    serial = (await serialOf(s.register)) ?? '';
    serverId = ((await v(33).get(`/control-units/${serial}/cloud`)).body as { controlServerId: string }).controlServerId;
  });

  /** The TcsRequest the public client sends for these fields (its DTO's element order). */
  const tcs = (fields: {
    sequence: number;
    type: string;
    amount: string;
    refund?: boolean;
    copy?: boolean;
    vat?: string;
    dateTime?: string;
  }) =>
    `<TcsRequest><ApplicationID>cash-register-backend</ApplicationID><RequestID>GUID</RequestID><ControlData>` +
    `<DateTime>${fields.dateTime ?? KD_LOCAL}</DateTime>` +
    (fields.copy ? `<CopyDateTime>${fields.dateTime ?? KD_LOCAL}</CopyDateTime>` : '') +
    `<OrgNr>${s.corporateId}</OrgNr><ManRegisterID>${serial}</ManRegisterID>` +
    `<RegisterAddress>Regeringsgatan 67 111 56 Stockholm</RegisterAddress><SequenceNumber>${fields.sequence}</SequenceNumber>` +
    (fields.copy ? `<CopySequenceNumber>${fields.sequence}</CopySequenceNumber>` : '') +
    `<ReceiptType Type="${fields.type}" />` +
    (fields.refund ? `<RefundAmount>${fields.amount}</RefundAmount>` : `<SaleAmount>${fields.amount}</SaleAmount>`) +
    (fields.vat ?? CLIENT_VAT) +
    `</ControlData></TcsRequest>`;

  /** The documents the stand-in got from this register since `from`, RequestIDs set apart. */
  const sentSince = async (from: number) => (await received(serial)).slice(from).map((request) => request.body);

  it("signs a Normal receipt, its copy, a refund and a training receipt; the day's export validates and names the unit", async () => {
    const sale = saleOf(11626, {
      vat: 1831,
      saleProducts: [
        { productIdentifier: 'p25', deltaUnit: true, delta: 1, vat: 1261, netto: 5045, brutto: 6306, vatRate: 25 },
        { productIdentifier: 'p12', deltaUnit: true, delta: 1, vat: 570, netto: 4750, brutto: 5320, vatRate: 12 },
      ],
      vatRateSums: [
        { vatRate: 2500, vat: 1261, netto: 5045, brutto: 6306 },
        { vatRate: 1200, vat: 570, netto: 4750, brutto: 5320 },
      ],
    });
    const before = (await received(serial)).length;

    const normal = await signed(s, kdOf(1, 0, { vatRateToSum: CLIENT_RATES }));
    expect(normal).toHaveLength(59);
    expect(
      (await v(33).post(`${s.base}/sales`, { ...sale, prints: [{ printType: 'Normal', controlNumber: normal }] }, s.register))
        .status,
    ).toBe(201);

    const copy = await signed(s, kdOf(1, 0, { vatRateToSum: CLIENT_RATES, printType: 'Copy' }));
    const prints = [
      { printType: 'Normal', receiptNumber: 1, controlNumber: normal },
      { printType: 'Copy', controlNumber: copy },
    ];
    expect((await v(33).put(`${s.base}/sales`, { ...sale, prints }, s.register)).status).toBe(204);

    const refund = saleOf(2500, { refund: true, refundFor: 1 });
    const refundCode = await signed(s, kdOf(2, 2500, { refund: true }));
    expect(
      (
        await v(33).post(
          `${s.base}/sales`,
          { ...refund, prints: [{ printType: 'Normal', controlNumber: refundCode }] },
          s.register,
        )
      ).status,
    ).toBe(201);

    const training = { ...saleOf(1000), training: true };
    const trainingCode = await signed(s, kdOf(1, 1000, { training: true }));
    expect(
      (
        await v(33).post(
          `${s.base}/sales`,
          { ...training, prints: [{ printType: 'Normal', controlNumber: trainingCode }] },
          s.register,
        )
      ).status,
    ).toBe(201);

    const sent = await sentSince(before);
    const quarter = (amount: string, net: string) =>
      vatGroups([
        [amount, net],
        ['0,00', '0,00'],
        ['0,00', '0,00'],
        ['0,00', '0,00'],
      ]);
    const expected = [
      tcs({ sequence: 1, type: 'normal', amount: '116,26' }),
      tcs({ sequence: 1, type: 'kopia', amount: '116,26', copy: true }),
      tcs({ sequence: 2, type: 'normal', amount: '25,00', refund: true, vat: quarter('5,00', '20,00') }),
      tcs({ sequence: 1, type: 'ovning', amount: '10,00', vat: quarter('2,00', '8,00') }),
    ];
    expect(sent).toHaveLength(4);
    for (const [index, document] of sent.entries()) {
      expect(document).toMatch(GUID);
      expect(elementsOf(withoutRequestId(document))).toEqual(elementsOf(expected[index] ?? ''));
    }
    console.log(`cloud unit: the four request documents\n${sent.join('\n')}`);

    expect((await v(33).post(`${s.base}/days/current`, undefined, s.register)).status).toBe(201);
    const exported = await v(33).get(`${s.base}/journal-export`, { ...s.register, headers: { Accept: 'application/xml' } });
    expect(exported.status).toBe(200);
    await expectValidExport(exported.text);
    const units = [...exported.text.matchAll(/<TillverkningsnummerForKontrollenheten>([^<]*)</g)].map((m) => m[1]);
    expect(units.length).toBeGreaterThan(0);
    expect(new Set(units)).toEqual(new Set([serverId]));
    expect(exported.text).toContain(normal);
  });

  it('answers a repeat from its claim, sending nothing, and a busy system gets the receipt again under a fresh RequestID', async () => {
    const code = await signed(s, kdOf(3, 4000));
    const before = (await received(serial)).length;
    const repeat = await sendKd(33, s.sellerId, s.cash, kdOf(3, 4000), s.register);
    expect([repeat.status, (repeat.body as { response: string }).response, repeat.headers.get('idempotent-replayed')]).toEqual([
      201,
      code,
      'true',
    ]);
    expect(await received(serial)).toHaveLength(before);

    await standIn('/stand-in/faults', { registerId: serial, faults: ['busy', 'busy'] });
    await signed(s, kdOf(4, 4000));
    const tries = await sentSince(before);
    expect(tries).toHaveLength(3);
    expect(new Set(tries.map((document) => GUID.exec(document)?.[1])).size).toBe(3);
    expect(new Set(tries.map(withoutRequestId)).size).toBe(1);
  });

  it('a refusal is 500 ControlUnitReceipt with its ResponseCode, a garbled answer ControlUnitCommunication; the next kd signs', async () => {
    await standIn('/stand-in/faults', { registerId: serial, faults: ['refuse'] });
    const refused = await sendKd(33, s.sellerId, s.cash, kdOf(5, 4000), s.register);
    expectError(refused, 500, 'ControlUnitReceipt');
    expect(JSON.stringify(refused.body)).toContain('9');

    await standIn('/stand-in/faults', { registerId: serial, faults: ['garbled'] });
    expectError(await sendKd(33, s.sellerId, s.cash, kdOf(5, 4000), s.register), 500, 'ControlUnitCommunication');
    expect(await signed(s, kdOf(5, 4000))).toHaveLength(59);
  });

  it('a system that does not answer in time is 500 ControlUnitUnavailable, nothing is signed, and no print is stored', async () => {
    await standIn('/stand-in/faults', { registerId: serial, faults: ['silent'] });
    const silent = await sendKd(33, s.sellerId, s.cash, kdOf(6, 4000), s.register);
    expectError(silent, 500, 'ControlUnitUnavailable');
    const unsigned = await v(33).post(
      `${s.base}/sales`,
      { ...saleOf(4000), prints: [{ printType: 'Normal', controlNumber: 'X'.repeat(59) }] },
      s.register,
    );
    expect(unsigned.status).toBeGreaterThanOrEqual(400);
    expect(await signed(s, kdOf(6, 4000))).toHaveLength(59);
  });

  it('signs the kd of v26 and of v15 (brutto with the VAT per rate) the same way', async () => {
    const before = (await received(serial)).length;
    const v26 = await sendKd(26, s.sellerId, s.cash, kdOf(7, 4000), s.register);
    expect(v26.body).toEqual({ response: expect.stringMatching(/^.{59}$/), controlUnitSerial: serial });
    const v15 = await sendKd(15, s.sellerId, s.cash, { ...kdOf(8, 4000), brutto: 4000, vatRateToSum: { '25': 800 } }, s.register);
    expect(v15.body).toEqual({ response: expect.stringMatching(/^.{59}$/), controlUnitSerial: serial });
    const twentyFive = vatGroups([
      ['8,00', '32,00'],
      ['0,00', '0,00'],
      ['0,00', '0,00'],
      ['0,00', '0,00'],
    ]);
    const documents = (await sentSince(before)).map((document) => elementsOf(withoutRequestId(document)));
    expect(documents).toEqual([
      elementsOf(tcs({ sequence: 7, type: 'normal', amount: '40,00', vat: twentyFive })),
      elementsOf(tcs({ sequence: 8, type: 'normal', amount: '40,00', vat: twentyFive })),
    ]);
  });

  it("a copy the system signs without a code carries its original's; a pro forma without an original, none", async () => {
    const original = await signed(s, kdOf(9, 4000));
    await standIn('/stand-in/faults', { registerId: serial, faults: ['uncoded', 'uncoded'] });
    expect(await signed(s, kdOf(9, 4000, { printType: 'Copy' }))).toBe(original);
    expect(await signed(s, kdOf(10, 4000, { printType: 'Proforma' }))).toBe('');
  });

  it('the Kd log lists the cloud unit like any unit', async () => {
    const log = await v(33).get(`/kd-facets?seller=${s.sellerId}&controlUnit=${serial}&maxResults=100`);
    expect(log.status).toBe(200);
    const outcomes = (log.body as { outcome: string; controlUnitSerial: string }[]).map((record) => record.outcome);
    expect(outcomes).toContain('SIGNED');
    expect(outcomes).toContain('REFUSED');
  });
});
