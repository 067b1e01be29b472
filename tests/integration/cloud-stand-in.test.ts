/**
 * The local stand-in of Infrasec's cloud control unit (infra/local/cloud-unit.ts), on its own free port: enrolment and
 * status at the IDM, signing at the TCS, its refusals, the test faults and the log of raw requests. The documents are
 * written here by hand in the wire format of the public .NET client (MewsSystems/fiscalizations, src/Sweden) and the
 * answers read with regular expressions: nothing of the service's XML code takes part.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CloudStandIn, startCloudStandIn } from '../../infra/local/cloud-unit.ts';

let standIn: CloudStandIn;

beforeAll(async () => {
  standIn = await startCloudStandIn();
});

afterAll(async () => {
  await standIn.stop();
});

interface Reply {
  status: number;
  type: string | null;
  body: string;
}

async function post(path: string, body: string, url = standIn.url): Promise<Reply> {
  const response = await fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/xml' }, body });
  return { status: response.status, type: response.headers.get('content-type'), body: await response.text() };
}

async function control(path: string, value: unknown): Promise<number> {
  const response = await fetch(`${standIn.url}${path}`, { method: 'POST', body: JSON.stringify(value) });
  await response.text();
  return response.status;
}

/** The text of the only element `name` of a document: '' for `<name />`, undefined when it is absent. */
function field(document: string, name: string): string | undefined {
  const found = [...document.matchAll(new RegExp(`<${name}>([^<]*)</${name}>|<${name} />`, 'g'))];
  if (found.length > 1) throw new Error(`${name} appears ${found.length} times`);
  return found[0] && (found[0][1] ?? '');
}

/** The element names of a document in order. */
const elements = (document: string) => [...document.matchAll(/<([A-Za-z][\w]*)[\s/>]/g)].map((match) => match[1]);

const code = (document: string) => Number(field(document, 'ResponseCode'));

function newEnrollment(organizationNumber = '556036-0793', localAlias = 'Kassa 1'): string {
  return `<?xml version="1.0" encoding="utf-8"?>
<IdmRequest>
  <ApplicationID>cash-register-backend</ApplicationID>
  <RequestID>482913</RequestID>
  <EnrollData>
    <Action>NEW</Action>
    <PartnerAuthority>
      <PartnerName>Local</PartnerName>
      <PartnerCode>P001</PartnerCode>
      <POSAuthorityCode>S</POSAuthorityCode>
    </PartnerAuthority>
    <StoreInfo>
      <StoreID>01</StoreID>
      <StoreName>Butiken</StoreName>
      <Address>Regeringsgatan 67</Address>
      <Zipcode>111 56</Zipcode>
      <City>Stockholm</City>
    </StoreInfo>
    <CompanyInfo>
      <OrganizationNumber>${organizationNumber}</OrganizationNumber>
      <Company>Butiken AB</Company>
      <Address>Regeringsgatan 67</Address>
      <Zipcode>111 56</Zipcode>
      <City>Stockholm</City>
    </CompanyInfo>
    <RegisterInfo>
      <RegisterID />
      <RegisterMake>Test</RegisterMake>
      <RegisterModel>1.0.0</RegisterModel>
      <LocalAlias>${localAlias}</LocalAlias>
      <CounterNumber />
      <Address>Regeringsgatan 67</Address>
      <Zipcode>111 56</Zipcode>
      <City>Stockholm</City>
    </RegisterInfo>
  </EnrollData>
</IdmRequest>`;
}

function statusEnrollment(registerId: string): string {
  return `<?xml version="1.0" encoding="utf-8"?><IdmRequest><ApplicationID>cash-register-backend</ApplicationID><RequestID>77</RequestID><EnrollData><Action>STATUS</Action><RegisterInfo><RegisterID>${registerId}</RegisterID></RegisterInfo></EnrollData></IdmRequest>`;
}

async function enroll(): Promise<{ registerId: string; tcsId: string }> {
  const reply = await post('/api/EnrollCCU.php', newEnrollment());
  expect(code(reply.body)).toBe(0);
  return { registerId: field(reply.body, 'RegisterID') ?? '', tcsId: field(reply.body, 'TCSID') ?? '' };
}

/** A sale of 116,26 kr with 25 % and 12 % VAT, as TransactionMappers.cs writes it (the client's own test receipt). */
function normalReceipt(registerId: string, sequenceNumber = 123): string {
  return `<?xml version="1.0" encoding="utf-8"?>
<TcsRequest>
  <ApplicationID>cash-register-backend</ApplicationID>
  <RequestID>6f1c1c4e-2b0a-4e8e-9a43-0d7f4a6a0b11</RequestID>
  <ControlData>
    <DateTime>20260115143200</DateTime>
    <OrgNr>5560360793</OrgNr>
    <ManRegisterID>${registerId}</ManRegisterID>
    <RegisterAddress>Regeringsgatan 67 111 56 Stockholm</RegisterAddress>
    <SequenceNumber>${sequenceNumber}</SequenceNumber>
    <ReceiptType Type="normal" />
    <SaleAmount>116,26</SaleAmount>
    <VAT1>
      <Percent>25,00</Percent>
      <Amount>12,61</Amount>
      <SubtotalAmount>50,45</SubtotalAmount>
    </VAT1>
    <VAT2>
      <Percent>12,00</Percent>
      <Amount>5,70</Amount>
      <SubtotalAmount>47,50</SubtotalAmount>
    </VAT2>
    <VAT3>
      <Percent>6,00</Percent>
      <Amount>0,00</Amount>
      <SubtotalAmount>0,00</SubtotalAmount>
    </VAT3>
    <VAT4>
      <Percent>0,00</Percent>
      <Amount>0,00</Amount>
      <SubtotalAmount>0,00</SubtotalAmount>
    </VAT4>
  </ControlData>
</TcsRequest>`;
}

const sign = (document: string) => post('/tcsserver', document);

describe('enrolment (IDM)', () => {
  it('a NEW enrolment gets a RegisterID and the control server TCSID, with its ids echoed', async () => {
    const reply = await post('/api/EnrollCCU.php', newEnrollment());

    expect(reply.status).toBe(200);
    expect(reply.type).toBe('application/xml; charset=utf-8');
    expect(elements(reply.body)).toEqual([
      'IdmResponse',
      'ResponseCode',
      'ResponseMessage',
      'ResponseReason',
      'ApplicationID',
      'RequestID',
      'Action',
      'RegisterID',
      'TCSID',
    ]);
    expect(code(reply.body)).toBe(0);
    expect(field(reply.body, 'ResponseMessage')).toBe('OK');
    expect(field(reply.body, 'ApplicationID')).toBe('cash-register-backend');
    expect(field(reply.body, 'RequestID')).toBe('482913');
    expect(field(reply.body, 'Action')).toBe('NEW');
    expect(field(reply.body, 'RegisterID')).toMatch(/^CCU\d{14}$/);
    expect(field(reply.body, 'TCSID')).toMatch(/^[A-Z0-9]{17}$/);
  });

  it('two enrolments get two registers of the same control server', async () => {
    const [first, second] = [await enroll(), await enroll()];

    expect(first.registerId).not.toBe(second.registerId);
    expect(first.tcsId).toBe(second.tcsId);
  });

  it.each([
    ['an organization number of 9 digits', newEnrollment('55603607'), 2],
    ['an organization number with letters', newEnrollment('556036-079X'), 2],
    ['no local alias', newEnrollment('5560360793', ''), 3],
  ])('a NEW with %s is refused, without a register', async (_, document, expected) => {
    const reply = await post('/api/EnrollCCU.php', document);

    expect(reply.status).toBe(200);
    expect(code(reply.body)).toBe(expected);
    expect(field(reply.body, 'ResponseReason')).not.toBe('');
    expect(field(reply.body, 'RegisterID')).toBeUndefined();
  });

  it('STATUS answers the TCSID, Active and the count and time of the register’s TcsRequests', async () => {
    const { registerId, tcsId } = await enroll();
    const before = await post('/api/EnrollCCU.php', statusEnrollment(registerId));
    await sign(normalReceipt(registerId, 1));
    await sign(normalReceipt(registerId, 2));
    await sign(normalReceipt(registerId, 2).replace('<SaleAmount>116,26', '<SaleAmount>116.26'));

    const after = await post('/api/EnrollCCU.php', statusEnrollment(registerId));

    expect(code(before.body)).toBe(0);
    expect(field(before.body, 'LoginCount')).toBe('0');
    expect(field(before.body, 'LastLogin')).toBe('');
    expect(code(after.body)).toBe(0);
    expect(field(after.body, 'Action')).toBe('STATUS');
    expect(field(after.body, 'TCSID')).toBe(tcsId);
    expect(field(after.body, 'Active')).toBe('1');
    expect(field(after.body, 'LoginCount')).toBe('3');
    expect(field(after.body, 'LastLogin')).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  });

  it('STATUS of a register never enrolled is refused', async () => {
    const reply = await post('/api/EnrollCCU.php', statusEnrollment('CCU00000000000000'));

    expect(code(reply.body)).not.toBe(0);
    expect(field(reply.body, 'LoginCount')).toBeUndefined();
  });
});

describe('signing (TCS)', () => {
  it('a normal receipt gets a 59-character control code from the control server, in the order of TcsResponse', async () => {
    const { registerId, tcsId } = await enroll();

    const reply = await sign(normalReceipt(registerId));

    expect(reply.status).toBe(200);
    expect(reply.type).toBe('application/xml; charset=utf-8');
    expect(elements(reply.body)).toEqual([
      'TcsResponse',
      'ResponseCode',
      'ResponseMessage',
      'ResponseReason',
      'ApplicationID',
      'RequestID',
      'SKVResponseCode',
      'SKVResponseMessage',
      'SequenceNumber',
      'ControlCode',
      'ControlServerID',
      'Code',
    ]);
    expect(code(reply.body)).toBe(0);
    expect(field(reply.body, 'ResponseMessage')).toBe('OK');
    expect(field(reply.body, 'ApplicationID')).toBe('cash-register-backend');
    expect(field(reply.body, 'RequestID')).toBe('6f1c1c4e-2b0a-4e8e-9a43-0d7f4a6a0b11');
    expect(field(reply.body, 'SKVResponseCode')).toBe('0');
    expect(field(reply.body, 'SequenceNumber')).toBe('123');
    expect(field(reply.body, 'ControlServerID')).toBe(tcsId);
    expect(field(reply.body, 'Code')).toMatch(/^[A-Z0-9]{59}$/);
  });

  it('the same receipt again gets the same code; another sequence number, another code', async () => {
    const { registerId } = await enroll();

    const first = await sign(normalReceipt(registerId, 7));
    const again = await sign(normalReceipt(registerId, 7).replace('20260115143200', '20260115143259'));
    const next = await sign(normalReceipt(registerId, 8));

    expect(field(again.body, 'Code')).toBe(field(first.body, 'Code'));
    expect(field(next.body, 'Code')).toMatch(/^[A-Z0-9]{59}$/);
    expect(field(next.body, 'Code')).not.toBe(field(first.body, 'Code'));
  });

  it('a kopia and a profo get a code too, each its own', async () => {
    const { registerId } = await enroll();
    const normal = normalReceipt(registerId, 9);
    const copy = normal
      .replace('Type="normal"', 'Type="kopia"')
      .replace('<OrgNr>', '<CopyDateTime>20260115150000</CopyDateTime>\n    <OrgNr>')
      .replace('<ReceiptType', '<CopySequenceNumber>9</CopySequenceNumber>\n    <ReceiptType');

    const replies = [await sign(normal), await sign(copy), await sign(normal.replace('Type="normal"', 'Type="profo"'))];

    for (const reply of replies) expect(field(reply.body, 'Code')).toMatch(/^[A-Z0-9]{59}$/);
    expect(new Set(replies.map((reply) => field(reply.body, 'Code'))).size).toBe(3);
  });

  it('a receipt of a register never enrolled is refused, without a code', async () => {
    const reply = await sign(normalReceipt('CCU00000000000000'));

    expect(reply.status).toBe(200);
    expect(code(reply.body)).toBe(2);
    expect(field(reply.body, 'Code')).toBe('');
  });

  it.each([
    ['the OrgNr of another seller', (d: string) => d.replace('5560360793', '5566778899'), 3],
    ['a DateTime of 12 digits', (d: string) => d.replace('20260115143200', '202601151432'), 4],
    ['a DateTime that does not exist', (d: string) => d.replace('20260115143200', '20260231143200'), 4],
    ['a SequenceNumber that is not a number', (d: string) => d.replace('<SequenceNumber>123', '<SequenceNumber>12a'), 5],
    ['an unknown receipt type', (d: string) => d.replace('Type="normal"', 'Type="sale"'), 6],
    ['no SaleAmount nor RefundAmount', (d: string) => d.replace('<SaleAmount>116,26</SaleAmount>', ''), 7],
    [
      'both SaleAmount and RefundAmount',
      (d: string) => d.replace('<SaleAmount>', '<RefundAmount>1,00</RefundAmount><SaleAmount>'),
      7,
    ],
    ['an amount with a decimal point', (d: string) => d.replace('<SaleAmount>116,26', '<SaleAmount>116.26'), 7],
    [
      'VAT1 and VAT2 swapped',
      (d: string) =>
        d
          .replace('<Percent>25,00', '<Percent>12,00')
          .replace('<Percent>12,00</Percent>\n      <Amount>5,70', '<Percent>25,00</Percent>\n      <Amount>5,70'),
      8,
    ],
    ['a VAT amount without its öre', (d: string) => d.replace('<Amount>12,61', '<Amount>12'), 8],
    ['VAT4 missing', (d: string) => d.replace(/<VAT4>[\s\S]*<\/VAT4>/, ''), 8],
    ['a kopia without its copy fields', (d: string) => d.replace('Type="normal"', 'Type="kopia"'), 10],
    ['a RequestID that is not a GUID', (d: string) => d.replace('6f1c1c4e-2b0a-4e8e-9a43-0d7f4a6a0b11', '42'), 1],
    [
      'SaleAmount twice',
      (d: string) => d.replace('<SaleAmount>116,26</SaleAmount>', '<SaleAmount>1,00</SaleAmount><SaleAmount>1,00</SaleAmount>'),
      1,
    ],
    ['a document that is not well-formed', (d: string) => d.replace('</ControlData>', ''), 1],
  ])('a receipt with %s is refused with its own code', async (_, change, expected) => {
    const { registerId } = await enroll();

    const reply = await sign(change(normalReceipt(registerId)));

    expect(reply.status).toBe(200);
    expect(code(reply.body)).toBe(expected);
    expect(field(reply.body, 'ResponseMessage')).not.toBe('');
    expect(field(reply.body, 'Code')).toBe('');
  });

  it('a body that is not XML at all is a 400; one above 64 KiB a 413; another path a 404', async () => {
    expect((await sign('SaleAmount=116,26')).status).toBe(400);
    expect((await sign(`<TcsRequest>${' '.repeat(70 * 1024)}</TcsRequest>`)).status).toBe(413);
    expect((await post('/tcsserver/v2', normalReceipt('CCU00000000000000'))).status).toBe(404);
    expect((await fetch(`${standIn.url}/tcsserver`)).status).toBe(404);
    expect((await fetch(`${standIn.url}/stand-in/health`)).status).toBe(200);
  });
});

describe('faults', () => {
  it('busy, refuse and garbled answer the next TcsRequests of the register in order, then it signs again', async () => {
    const { registerId } = await enroll();
    expect(await control('/stand-in/faults', { registerId, faults: ['busy', 'refuse', 'garbled'] })).toBe(200);

    const [busy, refused, garbled, signed] = [
      await sign(normalReceipt(registerId, 1)),
      await sign(normalReceipt(registerId, 1)),
      await sign(normalReceipt(registerId, 1)),
      await sign(normalReceipt(registerId, 1)),
    ];
    const status = await post('/api/EnrollCCU.php', statusEnrollment(registerId));

    expect(busy.status).toBe(503);
    expect(busy.type).toMatch(/^text\/plain/);
    expect(refused.status).toBe(200);
    expect(code(refused.body)).toBe(9);
    expect(field(refused.body, 'ResponseMessage')).toBe('Refused by stand-in');
    expect(garbled.status).toBe(200);
    expect(garbled.body.trimStart().startsWith('<')).toBe(false);
    expect(code(signed.body)).toBe(0);
    // The busy one was never taken in.
    expect(field(status.body, 'LoginCount')).toBe('3');
  });

  it('the faults of one register leave another alone', async () => {
    const faulted = await enroll();
    const other = await enroll();
    await control('/stand-in/faults', { registerId: faulted.registerId, faults: ['refuse'] });

    expect(code((await sign(normalReceipt(other.registerId))).body)).toBe(0);
    expect(code((await sign(normalReceipt(faulted.registerId))).body)).toBe(9);
  });

  it('silent never answers, until the stand-in stops', async () => {
    const own = await startCloudStandIn();
    const enrolled = await post('/api/EnrollCCU.php', newEnrollment(), own.url);
    const registerId = field(enrolled.body, 'RegisterID') ?? '';
    await fetch(`${own.url}/stand-in/faults`, { method: 'POST', body: JSON.stringify({ registerId, faults: ['silent'] }) });

    const pending = post('/tcsserver', normalReceipt(registerId), own.url).then(
      () => 'answered',
      () => 'closed',
    );
    const early = await Promise.race([pending, new Promise((resolve) => setTimeout(() => resolve('waiting'), 300))]);
    await own.stop();

    expect(early).toBe('waiting');
    expect(await pending).toBe('closed');
  });

  it('enroll faults refuse and busy answer the next IdmRequests', async () => {
    expect(await control('/stand-in/enroll-faults', { faults: ['refuse', 'busy'] })).toBe(200);

    const refused = await post('/api/EnrollCCU.php', newEnrollment());
    const busy = await post('/api/EnrollCCU.php', newEnrollment());
    const enrolled = await post('/api/EnrollCCU.php', newEnrollment());

    expect(code(refused.body)).toBe(9);
    expect(field(refused.body, 'RegisterID')).toBeUndefined();
    expect(busy.status).toBe(503);
    expect(code(enrolled.body)).toBe(0);
  });

  it('a control body of an unknown fault is a 400', async () => {
    expect(await control('/stand-in/faults', { registerId: 'CCU1', faults: ['slow'] })).toBe(400);
    expect(await control('/stand-in/faults', { faults: ['busy'] })).toBe(400);
    expect(await control('/stand-in/enroll-faults', { faults: ['silent'] })).toBe(400);
  });
});

describe('the log of requests', () => {
  it('lists the raw documents of a register as they came, its NEW first', async () => {
    const enrolment = newEnrollment('5560360793', 'Kassa log');
    const enrolled = await post('/api/EnrollCCU.php', enrolment);
    const registerId = field(enrolled.body, 'RegisterID') ?? '';
    const receipts = [normalReceipt(registerId, 1), normalReceipt(registerId, 2)];
    for (const receipt of receipts) await sign(receipt);
    const start = Date.now();

    const response = await fetch(`${standIn.url}/stand-in/requests?registerId=${registerId}`);
    const listed = (await response.json()) as { path: string; body: string; received: string }[];

    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(listed.map(({ path, body }) => ({ path, body }))).toEqual([
      { path: '/api/EnrollCCU.php', body: enrolment },
      { path: '/tcsserver', body: receipts[0] },
      { path: '/tcsserver', body: receipts[1] },
    ]);
    for (const { received } of listed) expect(Date.parse(received)).toBeLessThanOrEqual(start);
    const all = (await (await fetch(`${standIn.url}/stand-in/requests`)).json()) as unknown[];
    expect(all.length).toBeGreaterThan(listed.length);
  });
});
