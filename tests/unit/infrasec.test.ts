/**
 * The documents of Infrasec's cloud control unit as the public .NET client MewsSystems/fiscalizations (src/Sweden/)
 * writes and reads them. Every expected document below is written out by hand from the client's rules (DTO property
 * order, XmlSerializer's `<X />` for an empty string, fr-FR `N2` amounts without the group separator), with the
 * client's own test data (TransactionTests.cs, EnrollmentTests.cs); none is produced by the module.
 */
import { describe, expect, it } from 'vitest';
import {
  type EnrollmentOrder,
  idmNewRequestXml,
  idmStatusRequestXml,
  InfrasecWireError,
  parseIdmResponse,
  parseTcsResponse,
  TCS_VAT_RATES,
  tcsAmount,
  tcsPercent,
  type TcsTransaction,
  tcsRequestXml,
} from '#shared/kd/infrasec.ts';

/** A document written indented for reading, as the one line the client sends. */
const flat = (indented: string) => indented.replace(/\n\s*/g, '');

/**
 * `Path/To/Element=text` for every element of text content and `Path/To/Element@attribute=value` for every attribute,
 * in document order: a tiny walker of the test's own, so a mismatch names its element.
 */
function leaves(xml: string): string[] {
  const found: string[] = [];
  const path: string[] = [];
  let text: string | null = null;
  const tokens = /<\/(\w+)>|<(\w+)((?: [\w:]+="[^"]*")*) ?(\/?)>|([^<]+)/g;
  for (const [token, close, open, attributes = '', selfClosing, chars] of xml.matchAll(tokens)) {
    if (close !== undefined) {
      expect(path.at(-1), `${token} closes ${path.join('/')}`).toBe(close);
      if (text !== null) found.push(`${path.join('/')}=${text}`);
      text = null;
      path.pop();
    } else if (open !== undefined) {
      path.push(open);
      for (const [, name, value] of attributes.matchAll(/ ([\w:]+)="([^"]*)"/g)) found.push(`${path.join('/')}@${name}=${value}`);
      text = '';
      if (selfClosing === '/') {
        found.push(`${path.join('/')}=`);
        text = null;
        path.pop();
      }
    } else {
      text = (text ?? '') + (chars ?? '');
    }
  }
  expect(path, 'every element closed').toEqual([]);
  return found;
}

/** Element by element first (the failure names the element), then byte for byte. */
function expectDocument(actual: string, expected: string) {
  expect(leaves(actual)).toEqual(leaves(expected));
  expect(actual).toBe(expected);
}

/** The client's TransactionTests.SendData_Succeeds_Async receipt: 116.26 gross, 12 % and 25 % groups. */
const clientReceipt: TcsTransaction = {
  applicationId: 'Test client',
  requestId: '6f9619ff-8b86-4d11-b42d-00c04fc964ff',
  dateTime: '20250314093015',
  orgNr: '4444444444',
  registerId: 'REGISTER_ID',
  registerAddress: 'Regeringsgatan 67 111 56 Stockholm',
  sequenceNumber: 123,
  type: 'normal',
  saleAmount: 11626,
  refundAmount: null,
  vat: [{ amount: 1261, subtotal: 5045 }, { amount: 570, subtotal: 4750 }, null, null],
  copy: null,
};

describe('tcsRequestXml: the TcsRequest of a receipt', () => {
  it('a sale carries SaleAmount and every VAT group, empty ones as 0,00', () => {
    // Act
    const xml = tcsRequestXml(clientReceipt);

    // Assess
    expectDocument(
      xml,
      flat(`
        <TcsRequest>
          <ApplicationID>Test client</ApplicationID>
          <RequestID>6f9619ff-8b86-4d11-b42d-00c04fc964ff</RequestID>
          <ControlData>
            <DateTime>20250314093015</DateTime>
            <OrgNr>4444444444</OrgNr>
            <ManRegisterID>REGISTER_ID</ManRegisterID>
            <RegisterAddress>Regeringsgatan 67 111 56 Stockholm</RegisterAddress>
            <SequenceNumber>123</SequenceNumber>
            <ReceiptType Type="normal" />
            <SaleAmount>116,26</SaleAmount>
            <VAT1><Percent>25,00</Percent><Amount>12,61</Amount><SubtotalAmount>50,45</SubtotalAmount></VAT1>
            <VAT2><Percent>12,00</Percent><Amount>5,70</Amount><SubtotalAmount>47,50</SubtotalAmount></VAT2>
            <VAT3><Percent>6,00</Percent><Amount>0,00</Amount><SubtotalAmount>0,00</SubtotalAmount></VAT3>
            <VAT4><Percent>0,00</Percent><Amount>0,00</Amount><SubtotalAmount>0,00</SubtotalAmount></VAT4>
          </ControlData>
        </TcsRequest>`),
    );
  });

  it('a refund carries RefundAmount in place of SaleAmount', () => {
    // Act
    const xml = tcsRequestXml({ ...clientReceipt, saleAmount: null, refundAmount: 11626 });

    // Assess
    expectDocument(
      xml,
      flat(`
        <TcsRequest>
          <ApplicationID>Test client</ApplicationID>
          <RequestID>6f9619ff-8b86-4d11-b42d-00c04fc964ff</RequestID>
          <ControlData>
            <DateTime>20250314093015</DateTime>
            <OrgNr>4444444444</OrgNr>
            <ManRegisterID>REGISTER_ID</ManRegisterID>
            <RegisterAddress>Regeringsgatan 67 111 56 Stockholm</RegisterAddress>
            <SequenceNumber>123</SequenceNumber>
            <ReceiptType Type="normal" />
            <RefundAmount>116,26</RefundAmount>
            <VAT1><Percent>25,00</Percent><Amount>12,61</Amount><SubtotalAmount>50,45</SubtotalAmount></VAT1>
            <VAT2><Percent>12,00</Percent><Amount>5,70</Amount><SubtotalAmount>47,50</SubtotalAmount></VAT2>
            <VAT3><Percent>6,00</Percent><Amount>0,00</Amount><SubtotalAmount>0,00</SubtotalAmount></VAT3>
            <VAT4><Percent>0,00</Percent><Amount>0,00</Amount><SubtotalAmount>0,00</SubtotalAmount></VAT4>
          </ControlData>
        </TcsRequest>`),
    );
  });

  it('a copy is kopia, its CopyDateTime after DateTime and its CopySequenceNumber after SequenceNumber', () => {
    // Act
    const xml = tcsRequestXml({ ...clientReceipt, type: 'kopia', copy: { dateTime: '20250314093512', sequenceNumber: 123 } });

    // Assess
    expectDocument(
      xml,
      flat(`
        <TcsRequest>
          <ApplicationID>Test client</ApplicationID>
          <RequestID>6f9619ff-8b86-4d11-b42d-00c04fc964ff</RequestID>
          <ControlData>
            <DateTime>20250314093015</DateTime>
            <CopyDateTime>20250314093512</CopyDateTime>
            <OrgNr>4444444444</OrgNr>
            <ManRegisterID>REGISTER_ID</ManRegisterID>
            <RegisterAddress>Regeringsgatan 67 111 56 Stockholm</RegisterAddress>
            <SequenceNumber>123</SequenceNumber>
            <CopySequenceNumber>123</CopySequenceNumber>
            <ReceiptType Type="kopia" />
            <SaleAmount>116,26</SaleAmount>
            <VAT1><Percent>25,00</Percent><Amount>12,61</Amount><SubtotalAmount>50,45</SubtotalAmount></VAT1>
            <VAT2><Percent>12,00</Percent><Amount>5,70</Amount><SubtotalAmount>47,50</SubtotalAmount></VAT2>
            <VAT3><Percent>6,00</Percent><Amount>0,00</Amount><SubtotalAmount>0,00</SubtotalAmount></VAT3>
            <VAT4><Percent>0,00</Percent><Amount>0,00</Amount><SubtotalAmount>0,00</SubtotalAmount></VAT4>
          </ControlData>
        </TcsRequest>`),
    );
  });

  it('a training receipt is ovning', () => {
    // Act
    const xml = tcsRequestXml({ ...clientReceipt, type: 'ovning' });

    // Assess
    expectDocument(
      xml,
      flat(`
        <TcsRequest>
          <ApplicationID>Test client</ApplicationID>
          <RequestID>6f9619ff-8b86-4d11-b42d-00c04fc964ff</RequestID>
          <ControlData>
            <DateTime>20250314093015</DateTime>
            <OrgNr>4444444444</OrgNr>
            <ManRegisterID>REGISTER_ID</ManRegisterID>
            <RegisterAddress>Regeringsgatan 67 111 56 Stockholm</RegisterAddress>
            <SequenceNumber>123</SequenceNumber>
            <ReceiptType Type="ovning" />
            <SaleAmount>116,26</SaleAmount>
            <VAT1><Percent>25,00</Percent><Amount>12,61</Amount><SubtotalAmount>50,45</SubtotalAmount></VAT1>
            <VAT2><Percent>12,00</Percent><Amount>5,70</Amount><SubtotalAmount>47,50</SubtotalAmount></VAT2>
            <VAT3><Percent>6,00</Percent><Amount>0,00</Amount><SubtotalAmount>0,00</SubtotalAmount></VAT3>
            <VAT4><Percent>0,00</Percent><Amount>0,00</Amount><SubtotalAmount>0,00</SubtotalAmount></VAT4>
          </ControlData>
        </TcsRequest>`),
    );
  });

  it('a proforma receipt is profo', () => {
    expect(tcsRequestXml({ ...clientReceipt, type: 'profo' })).toContain(
      '<SequenceNumber>123</SequenceNumber><ReceiptType Type="profo" />',
    );
  });

  it('amounts of a thousand and more have no group separator', () => {
    // Prepare: 246 913,58 VAT on 987 654,31 net at 25 %
    const receipt: TcsTransaction = {
      ...clientReceipt,
      saleAmount: 123456789,
      vat: [{ amount: 24691358, subtotal: 98765431 }, null, null, null],
    };

    // Act
    const xml = tcsRequestXml(receipt);

    // Assess
    expectDocument(
      xml,
      flat(`
        <TcsRequest>
          <ApplicationID>Test client</ApplicationID>
          <RequestID>6f9619ff-8b86-4d11-b42d-00c04fc964ff</RequestID>
          <ControlData>
            <DateTime>20250314093015</DateTime>
            <OrgNr>4444444444</OrgNr>
            <ManRegisterID>REGISTER_ID</ManRegisterID>
            <RegisterAddress>Regeringsgatan 67 111 56 Stockholm</RegisterAddress>
            <SequenceNumber>123</SequenceNumber>
            <ReceiptType Type="normal" />
            <SaleAmount>1234567,89</SaleAmount>
            <VAT1><Percent>25,00</Percent><Amount>246913,58</Amount><SubtotalAmount>987654,31</SubtotalAmount></VAT1>
            <VAT2><Percent>12,00</Percent><Amount>0,00</Amount><SubtotalAmount>0,00</SubtotalAmount></VAT2>
            <VAT3><Percent>6,00</Percent><Amount>0,00</Amount><SubtotalAmount>0,00</SubtotalAmount></VAT3>
            <VAT4><Percent>0,00</Percent><Amount>0,00</Amount><SubtotalAmount>0,00</SubtotalAmount></VAT4>
          </ControlData>
        </TcsRequest>`),
    );
  });

  it('a receipt of zero-rated goods only: a zero VAT amount in VAT4 and 0,00 everywhere else', () => {
    // Prepare
    const receipt: TcsTransaction = {
      ...clientReceipt,
      sequenceNumber: 7,
      saleAmount: 4000,
      vat: [null, null, null, { amount: 0, subtotal: 4000 }],
    };

    // Act
    const xml = tcsRequestXml(receipt);

    // Assess
    expectDocument(
      xml,
      flat(`
        <TcsRequest>
          <ApplicationID>Test client</ApplicationID>
          <RequestID>6f9619ff-8b86-4d11-b42d-00c04fc964ff</RequestID>
          <ControlData>
            <DateTime>20250314093015</DateTime>
            <OrgNr>4444444444</OrgNr>
            <ManRegisterID>REGISTER_ID</ManRegisterID>
            <RegisterAddress>Regeringsgatan 67 111 56 Stockholm</RegisterAddress>
            <SequenceNumber>7</SequenceNumber>
            <ReceiptType Type="normal" />
            <SaleAmount>40,00</SaleAmount>
            <VAT1><Percent>25,00</Percent><Amount>0,00</Amount><SubtotalAmount>0,00</SubtotalAmount></VAT1>
            <VAT2><Percent>12,00</Percent><Amount>0,00</Amount><SubtotalAmount>0,00</SubtotalAmount></VAT2>
            <VAT3><Percent>6,00</Percent><Amount>0,00</Amount><SubtotalAmount>0,00</SubtotalAmount></VAT3>
            <VAT4><Percent>0,00</Percent><Amount>0,00</Amount><SubtotalAmount>40,00</SubtotalAmount></VAT4>
          </ControlData>
        </TcsRequest>`),
    );
  });

  it('OrgNr is written as a long: leading zeros dropped', () => {
    expect(tcsRequestXml({ ...clientReceipt, orgNr: '0044444444' })).toContain('<OrgNr>44444444</OrgNr>');
  });

  it('RequestID is written as .NET writes a Guid: lower case', () => {
    expect(tcsRequestXml({ ...clientReceipt, requestId: '6F9619FF-8B86-4D11-B42D-00C04FC964FF' })).toContain(
      '<RequestID>6f9619ff-8b86-4d11-b42d-00c04fc964ff</RequestID>',
    );
  });

  it('text escapes &, < and > as .NET does; quotes stay literal outside attributes', () => {
    // Act
    const xml = tcsRequestXml({ ...clientReceipt, registerAddress: `Storgatan 1 & 2 <B> "Gården" O'Hara`, registerId: '' });

    // Assess
    expect(xml).toContain(`<ManRegisterID /><RegisterAddress>Storgatan 1 &amp; 2 &lt;B&gt; "Gården" O'Hara</RegisterAddress>`);
  });

  it.each([
    ['a control character', { registerAddress: 'Storgatan\u00011' }],
    ['a lone surrogate', { registerAddress: 'Storgatan \uD800' }],
    ['U+FFFF', { registerId: 'K\uFFFF' }],
    ['an empty ApplicationID (the client takes a NonEmptyString)', { applicationId: '' }],
    ['a RequestID that is not a GUID', { requestId: '6f9619ff8b864d11b42d00c04fc964ff' }],
    ['a DateTime of another shape', { dateTime: '2025-03-14T09:30:15' }],
    ['a DateTime that is no calendar time', { dateTime: '20250230093015' }],
    ['an OrgNr with a hyphen', { orgNr: '444444-4444' }],
    ['an OrgNr beyond a long', { orgNr: '9223372036854775808' }],
    ['a fraction of a hundredth', { saleAmount: 116.26 }],
    ['a SequenceNumber that is not an integer', { sequenceNumber: 1.5 }],
    ['an unknown receipt type', { type: 'sale' as TcsTransaction['type'] }],
    ['three VAT groups', { vat: [null, null, null] as unknown as TcsTransaction['vat'] }],
  ])('refuses %s with InfrasecWireError', (_, change) => {
    expect(() => tcsRequestXml({ ...clientReceipt, ...change })).toThrow(InfrasecWireError);
  });
});

describe('tcsAmount and tcsPercent: the client formats', () => {
  it.each([
    [0, '0,00'],
    [5, '0,05'],
    [570, '5,70'],
    [11626, '116,26'],
    [100000, '1000,00'],
    [123456789, '1234567,89'],
    [-100, '-1,00'],
    [-5, '-0,05'],
  ])('%i hundredths are %s', (hundredths, text) => {
    expect(tcsAmount(hundredths)).toBe(text);
  });

  it('the four rates are 25,00, 12,00, 6,00 and 0,00', () => {
    expect(TCS_VAT_RATES.map(tcsPercent)).toEqual(['25,00', '12,00', '6,00', '0,00']);
    expect(tcsPercent(1250)).toBe('12,50');
  });

  it('refuses what is not integer hundredths', () => {
    expect(() => tcsAmount(0.5)).toThrow(InfrasecWireError);
    expect(() => tcsAmount(Number.NaN)).toThrow(InfrasecWireError);
  });
});

/** The client's EnrollmentTests.EnrollCcu_Succeeds_Async data. */
const clientOrder: EnrollmentOrder = {
  applicationId: 'Test',
  requestId: 123456,
  partner: { code: 'PARTNER_CODE', name: 'Mews' },
  chain: { code: '1335863911', name: 'Hel world hote14' },
  store: { id: '01', name: 'heo world 2' },
  company: { orgNr: '133586-3911', name: 'Hlo worl14' },
  address: { line: 'Testreet 36', zip: '373 73', city: 'TestCity' },
  register: { make: 'Test', model: '1.0.0.0', alias: 'Kassa 1' },
};

describe('the IdmRequest', () => {
  it('NEW carries every element the mapper writes, its constants and its empty strings', () => {
    // Act
    const xml = idmNewRequestXml(clientOrder);

    // Assess
    expectDocument(
      xml,
      flat(`
        <IdmRequest>
          <ApplicationID>Test</ApplicationID>
          <RequestID>123456</RequestID>
          <EnrollData>
            <Action>NEW</Action>
            <PartnerAuthority>
              <PartnerName>Mews</PartnerName>
              <PartnerCode>PARTNER_CODE</PartnerCode>
              <POSAuthorityCode>S</POSAuthorityCode>
            </PartnerAuthority>
            <OrganizationBranch><BranchName /><BranchCode /></OrganizationBranch>
            <OrganizationChain><ChainName>Hel world hote14</ChainName><ChainCode>1335863911</ChainCode></OrganizationChain>
            <StoreInfo>
              <StoreID>01</StoreID>
              <StoreName>heo world 2</StoreName>
              <Address>Testreet 36</Address>
              <Zipcode>373 73</Zipcode>
              <City>TestCity</City>
            </StoreInfo>
            <CompanyInfo>
              <OrganizationNumber>133586-3911</OrganizationNumber>
              <Company>Hlo worl14</Company>
              <Address>Testreet 36</Address>
              <Zipcode>373 73</Zipcode>
              <City>TestCity</City>
            </CompanyInfo>
            <RegisterInfo>
              <RegisterID />
              <RegisterMake>Test</RegisterMake>
              <RegisterModel>1.0.0.0</RegisterModel>
              <LocalAlias>Kassa 1</LocalAlias>
              <CounterNumber />
              <Address>Testreet 36</Address>
              <Zipcode>373 73</Zipcode>
              <City>TestCity</City>
            </RegisterInfo>
            <JournalLocation>
              <Company>Hlo worl14</Company>
              <Address>Testreet 36</Address>
              <Zipcode>373 73</Zipcode>
              <City>TestCity</City>
            </JournalLocation>
            <OperationLocation>
              <Company>Hlo worl14</Company>
              <Address>Testreet 36</Address>
              <Zipcode>373 73</Zipcode>
              <City>TestCity</City>
            </OperationLocation>
            <Certificate><Method>NONE</Method><Email /><Cellphone /></Certificate>
            <PcxService>
              <TCS><Enable>Yes</Enable></TCS>
              <Swish><Enable>No</Enable><SwishNr /><SwishType /></Swish>
              <Sparakvittot>
                <Enable>No</Enable>
                <SparakvittotAccount />
                <SparakvittotStoreid />
                <SparakvittotUsername />
                <SparakvittotPassword />
              </Sparakvittot>
            </PcxService>
          </EnrollData>
        </IdmRequest>`),
    );
  });

  it('NEW without a local alias writes <LocalAlias /> (the client defaults it to an empty string)', () => {
    expect(idmNewRequestXml({ ...clientOrder, register: { ...clientOrder.register, alias: '' } })).toContain(
      '<RegisterModel>1.0.0.0</RegisterModel><LocalAlias /><CounterNumber />',
    );
  });

  it('STATUS carries only the register id', () => {
    // Act
    const xml = idmStatusRequestXml({ applicationId: 'Test', requestId: 654321, registerId: 'AC-1335863911-0001' });

    // Assess
    expectDocument(
      xml,
      flat(`
        <IdmRequest>
          <ApplicationID>Test</ApplicationID>
          <RequestID>654321</RequestID>
          <EnrollData>
            <Action>STATUS</Action>
            <RegisterInfo><RegisterID>AC-1335863911-0001</RegisterID></RegisterInfo>
          </EnrollData>
        </IdmRequest>`),
    );
  });

  it('refuses a RequestID that is not an int', () => {
    expect(() => idmNewRequestXml({ ...clientOrder, requestId: 2 ** 31 })).toThrow(InfrasecWireError);
    expect(() => idmStatusRequestXml({ applicationId: 'Test', requestId: 1.5, registerId: 'R' })).toThrow(InfrasecWireError);
  });
});

describe('parseTcsResponse', () => {
  it('reads every element of a signed sale', () => {
    // Prepare
    const xml = flat(`
      <TcsResponse>
        <ResponseCode>0</ResponseCode>
        <ResponseMessage>OK</ResponseMessage>
        <ResponseReason>Transaction registered</ResponseReason>
        <ApplicationID>Test client</ApplicationID>
        <RequestID>6f9619ff-8b86-4d11-b42d-00c04fc964ff</RequestID>
        <SKVResponseCode>0</SKVResponseCode>
        <SKVResponseMessage>OK</SKVResponseMessage>
        <SequenceNumber>123</SequenceNumber>
        <ControlCode>
          <ControlServerID>TCS1000000017</ControlServerID>
          <Code>9F2C4B7A1D3E5F60718293A4B5C6D7E8</Code>
        </ControlCode>
      </TcsResponse>`);

    // Act
    const answer = parseTcsResponse(xml);

    // Assess
    expect(answer).toEqual({
      responseCode: 0,
      responseMessage: 'OK',
      responseReason: 'Transaction registered',
      applicationId: 'Test client',
      requestId: '6f9619ff-8b86-4d11-b42d-00c04fc964ff',
      skvResponseCode: '0',
      skvResponseMessage: 'OK',
      sequenceNumber: '123',
      controlServerId: 'TCS1000000017',
      controlCode: '9F2C4B7A1D3E5F60718293A4B5C6D7E8',
    });
  });

  it('a copy or proforma answered with an empty <Code /> has no control code', () => {
    // Prepare
    const xml =
      '<TcsResponse><ResponseCode>0</ResponseCode><ResponseMessage>OK</ResponseMessage><ResponseReason /><ApplicationID>Test client</ApplicationID>' +
      '<RequestID>6f9619ff-8b86-4d11-b42d-00c04fc964ff</RequestID><SKVResponseCode>0</SKVResponseCode><SKVResponseMessage /><SequenceNumber>123</SequenceNumber>' +
      '<ControlCode><ControlServerID>TCS1000000017</ControlServerID><Code /></ControlCode></TcsResponse>';

    // Act
    const answer = parseTcsResponse(xml);

    // Assess
    expect(answer).toMatchObject({
      responseReason: '',
      skvResponseMessage: '',
      controlServerId: 'TCS1000000017',
      controlCode: null,
    });
  });

  it('reads a document with a declaration, indentation, comments, namespaces, CDATA and references, in any order', () => {
    // Prepare
    const xml = [
      '\uFEFF<?xml version="1.0" encoding="utf-8"?>',
      '<!-- answered by the verification server -->',
      '<TcsResponse xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema">',
      '  <ResponseMessage><![CDATA[OK & <done>]]></ResponseMessage>',
      '  <ResponseCode>',
      '    0',
      '  </ResponseCode>',
      '  <ResponseReason>Kvitto &amp; kopia &lt;1&gt; &quot;a&quot; &apos;b&apos; &#229;&#xE4;<!-- split -->ö</ResponseReason>',
      '  <Unknown><Nested>ignored</Nested></Unknown>',
      '  <ApplicationID>Test client</ApplicationID>',
      '  <RequestID>6f9619ff-8b86-4d11-b42d-00c04fc964ff</RequestID>',
      '  <SKVResponseCode>0</SKVResponseCode>',
      '  <SKVResponseMessage>OK</SKVResponseMessage>',
      '  <SequenceNumber>123</SequenceNumber>',
      '  <SequenceNumber>999</SequenceNumber>',
      '  <ControlCode>',
      '    <Code>ABC123</Code>',
      '    <ControlServerID>TCS1000000017</ControlServerID>',
      '  </ControlCode>',
      '</TcsResponse>',
      '',
    ].join('\r\n');

    // Act
    const answer = parseTcsResponse(xml);

    // Assess: the first of a repeated element wins, as with XmlSerializer
    expect(answer).toEqual({
      responseCode: 0,
      responseMessage: 'OK & <done>',
      responseReason: `Kvitto & kopia <1> "a" 'b' åäö`,
      applicationId: 'Test client',
      requestId: '6f9619ff-8b86-4d11-b42d-00c04fc964ff',
      skvResponseCode: '0',
      skvResponseMessage: 'OK',
      sequenceNumber: '123',
      controlServerId: 'TCS1000000017',
      controlCode: 'ABC123',
    });
  });

  it('an error answer with the code and its message only', () => {
    // Act
    const answer = parseTcsResponse(
      '<TcsResponse><ResponseCode>-1</ResponseCode><ResponseMessage>Error</ResponseMessage><ResponseReason>Unknown register</ResponseReason></TcsResponse>',
    );

    // Assess
    expect(answer).toEqual({
      responseCode: -1,
      responseMessage: 'Error',
      responseReason: 'Unknown register',
      applicationId: '',
      requestId: '',
      skvResponseCode: '',
      skvResponseMessage: '',
      sequenceNumber: '',
      controlServerId: null,
      controlCode: null,
    });
  });
});

describe('parseIdmResponse', () => {
  it('NEW: the register id and the TCS id', () => {
    // Prepare
    const xml = flat(`
      <?xml version="1.0" encoding="UTF-8"?>
      <IdmResponse>
        <ResponseCode>0</ResponseCode>
        <ResponseMessage>OK</ResponseMessage>
        <ResponseReason>Register enrolled</ResponseReason>
        <ApplicationID>Test</ApplicationID>
        <RequestID>123456</RequestID>
        <Action>NEW</Action>
        <RegisterID>AC-1335863911-0001</RegisterID>
        <TCSID>TCS1000000017</TCSID>
      </IdmResponse>`);

    // Act
    const answer = parseIdmResponse(xml);

    // Assess
    expect(answer).toEqual({
      responseCode: 0,
      responseMessage: 'OK',
      responseReason: 'Register enrolled',
      action: 'NEW',
      applicationId: 'Test',
      requestId: '123456',
      registerId: 'AC-1335863911-0001',
      tcsId: 'TCS1000000017',
      active: null,
      loginCount: null,
      lastLogin: null,
    });
  });

  it('STATUS: active, login count and last login; the Info block is not read', () => {
    // Prepare
    const xml = [
      '<IdmResponse>',
      '  <ResponseCode>0</ResponseCode>',
      '  <ResponseMessage>OK</ResponseMessage>',
      '  <ResponseReason></ResponseReason>',
      '  <Action>STATUS</Action>',
      '  <TCSID>TCS1000000017</TCSID>',
      '  <Active>1</Active>',
      '  <LoginCount>42</LoginCount>',
      '  <LastLogin>2025-03-14 09:30:15</LastLogin>',
      '  <Info><StoreInfo><StoreID>01</StoreID><StoreName>heo world 2</StoreName></StoreInfo></Info>',
      '</IdmResponse>',
    ].join('\n');

    // Act
    const answer = parseIdmResponse(xml);

    // Assess
    expect(answer).toEqual({
      responseCode: 0,
      responseMessage: 'OK',
      responseReason: '',
      action: 'STATUS',
      applicationId: null,
      requestId: null,
      registerId: null,
      tcsId: 'TCS1000000017',
      active: 1,
      loginCount: 42,
      lastLogin: '2025-03-14 09:30:15',
    });
  });

  it('an xsi:nil Active reads as null', () => {
    const xml =
      '<IdmResponse xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><ResponseCode>3</ResponseCode><ResponseMessage>Error</ResponseMessage>' +
      '<ResponseReason>Unknown register</ResponseReason><Action>STATUS</Action><Active xsi:nil="true" /></IdmResponse>';
    expect(parseIdmResponse(xml)).toMatchObject({ responseCode: 3, active: null, loginCount: null });
  });
});

describe('documents the client could not read are refused with InfrasecWireError', () => {
  const ok = '<ResponseMessage>OK</ResponseMessage><ResponseReason /><Action>STATUS</Action>';

  it.each([
    ['an empty body', ''],
    ['text that is not XML', 'Service Unavailable'],
    ['an HTML error page', '<html><body><h1>502 Bad Gateway</h1><br></body></html>'],
    ['an unclosed root', '<TcsResponse><ResponseCode>0</ResponseCode>'],
    ['a mismatched end tag', '<TcsResponse><ResponseCode>0</ResponseMessage></TcsResponse>'],
    ['another root element', '<IdmResponse><ResponseCode>0</ResponseCode></IdmResponse>'],
    ['names in another case', '<TcsResponse><responseCode>0</responseCode></TcsResponse>'],
    ['no ResponseCode (XmlSerializer would read 0, success)', '<TcsResponse><ResponseMessage>OK</ResponseMessage></TcsResponse>'],
    ['an empty ResponseCode', '<TcsResponse><ResponseCode /></TcsResponse>'],
    ['a ResponseCode that is not an int', '<TcsResponse><ResponseCode>OK</ResponseCode></TcsResponse>'],
    ['a decimal ResponseCode', '<TcsResponse><ResponseCode>0.0</ResponseCode></TcsResponse>'],
    ['a ResponseCode beyond an int', '<TcsResponse><ResponseCode>2147483648</ResponseCode></TcsResponse>'],
    [
      'elements where text belongs',
      '<TcsResponse><ResponseCode>0</ResponseCode><ResponseMessage><b>OK</b></ResponseMessage></TcsResponse>',
    ],
    [
      'a ControlCode whose Code holds elements',
      '<TcsResponse><ResponseCode>0</ResponseCode><ControlCode><Code><x /></Code></ControlCode></TcsResponse>',
    ],
    ['an undefined entity', '<TcsResponse><ResponseCode>0</ResponseCode><ResponseMessage>&nbsp;</ResponseMessage></TcsResponse>'],
    ['a bare ampersand', '<TcsResponse><ResponseCode>0</ResponseCode><ResponseMessage>A & B</ResponseMessage></TcsResponse>'],
    [
      'a reference to a character XML forbids',
      '<TcsResponse><ResponseCode>0</ResponseCode><ResponseMessage>&#1;</ResponseMessage></TcsResponse>',
    ],
    [
      'a raw control character',
      '<TcsResponse><ResponseCode>0</ResponseCode><ResponseMessage>\u0001</ResponseMessage></TcsResponse>',
    ],
    ['a DOCTYPE', '<!DOCTYPE TcsResponse [<!ENTITY x "y">]><TcsResponse><ResponseCode>0</ResponseCode></TcsResponse>'],
    ['a declaration after whitespace', ' <?xml version="1.0"?><TcsResponse><ResponseCode>0</ResponseCode></TcsResponse>'],
    ['a declaration without a version', '<?xml encoding="utf-8"?><TcsResponse><ResponseCode>0</ResponseCode></TcsResponse>'],
    ['two root elements', '<TcsResponse><ResponseCode>0</ResponseCode></TcsResponse><TcsResponse />'],
    ['text after the root', '<TcsResponse><ResponseCode>0</ResponseCode></TcsResponse>trailing'],
    ['an unclosed comment', '<TcsResponse><ResponseCode>0</ResponseCode><!-- </TcsResponse>'],
    ['an unclosed CDATA section', '<TcsResponse><ResponseCode><![CDATA[0</ResponseCode></TcsResponse>'],
    ['an unquoted attribute', '<TcsResponse a=1><ResponseCode>0</ResponseCode></TcsResponse>'],
    ['a repeated attribute', '<TcsResponse a="1" a="2"><ResponseCode>0</ResponseCode></TcsResponse>'],
    [
      'elements nested a hundred deep',
      `<TcsResponse>${'<a>'.repeat(100)}${'</a>'.repeat(100)}<ResponseCode>0</ResponseCode></TcsResponse>`,
    ],
  ])('TcsResponse: %s', (_, xml) => {
    expect(() => parseTcsResponse(xml)).toThrow(InfrasecWireError);
  });

  it.each([
    ['a TcsResponse', '<TcsResponse><ResponseCode>0</ResponseCode></TcsResponse>'],
    ['an empty Active (int? reads no empty string)', `<IdmResponse><ResponseCode>0</ResponseCode>${ok}<Active /></IdmResponse>`],
    [
      'a LoginCount that is not an int',
      `<IdmResponse><ResponseCode>0</ResponseCode>${ok}<LoginCount>many</LoginCount></IdmResponse>`,
    ],
    ['no ResponseCode', `<IdmResponse>${ok}</IdmResponse>`],
  ])('IdmResponse: %s', (_, xml) => {
    expect(() => parseIdmResponse(xml)).toThrow(InfrasecWireError);
  });
});
