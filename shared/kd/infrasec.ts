/**
 * The XML documents of Infrasec's cloud control unit, built and read as the public .NET client
 * `MewsSystems/fiscalizations` (`src/Sweden/`, read at commit 8c55dcd) builds and reads them: the TcsRequest a receipt
 * is signed with and its TcsResponse (DTOs/TcsRequest.cs, DTOs/TcsResponse.cs, Mappers/TransactionMappers.cs), and the
 * IdmRequest that enrols a register or asks its status with its IdmResponse (DTOs/IdmRequest.cs, DTOs/IdmResponse.cs,
 * Mappers/EnrollmentMappers.cs). Pure: no I/O.
 *
 * How the client writes (src/Core/Mews.Fiscalizations.Core/Xml/XmlSerializer.cs, .NET XmlSerializer into an XmlDocument,
 * sent as `DocumentElement.OuterXml`): no XML declaration, no whitespace between elements, no xmlns attributes (the
 * empty namespace pair suppresses them), elements in property declaration order, a null property (or one whose
 * ShouldSerializeX() is false) left out, an empty string as `<X />`. Text escapes `&`, `<` and `>` only, as .NET's
 * XmlTextEncoder does (quotes stay literal outside attributes); a character XML 1.0 cannot carry is refused, as the
 * DOM writer's VerifyCharData refuses it. Amounts are the client's `ToString("N2", fr-FR)` with whitespace removed.
 *
 * How it reads (XmlSerializer.Deserialize): the root element by its exact name, children found by exact name in any
 * order, the first of a repeated child wins, unknown elements ignored, a text field with child elements refused, an
 * `int` as XmlConvert.ToInt32 reads it. Stricter than the client in one place on purpose: a response without
 * ResponseCode is refused, where .NET would read 0 (success).
 */

import { formatHundredths } from '#shared/hundredths.ts';

/** The ReceiptType `Type` attribute: sale, copy, training, proforma (the client's ReceiptOperationType [XmlEnum]s). */
export type TcsReceiptType = 'normal' | 'kopia' | 'ovning' | 'profo';
const RECEIPT_TYPES: readonly string[] = ['normal', 'kopia', 'ovning', 'profo'] satisfies TcsReceiptType[];

/** The four VAT groups of a TcsRequest, VAT1..VAT4, at 25, 12, 6 and 0 % (rates in hundredths of a percent). */
export const TCS_VAT_RATES = [2500, 1200, 600, 0] as const;

/** One VAT group: its VAT and its net, both in integer hundredths. */
export interface TcsVatGroup {
  amount: number;
  subtotal: number;
}

/** A receipt as the TcsRequest carries it; money in integer hundredths. */
export interface TcsTransaction {
  applicationId: string;
  /** A GUID; written in lower case, as .NET writes a Guid. */
  requestId: string;
  /** `yyyyMMddHHmmss`, already in the seller's zone. */
  dateTime: string;
  /** Digits; written as the client's `long` writes it (leading zeros dropped). */
  orgNr: string;
  /** ManRegisterID. */
  registerId: string;
  registerAddress: string;
  sequenceNumber: number;
  type: TcsReceiptType;
  /** Hundredths, or null (the element is left out). */
  saleAmount: number | null;
  refundAmount: number | null;
  /** In TCS_VAT_RATES order; null is written `0,00` / `0,00`. */
  vat: readonly [TcsVatGroup | null, TcsVatGroup | null, TcsVatGroup | null, TcsVatGroup | null];
  /** CopyDateTime / CopySequenceNumber, or null (both left out). */
  copy: { dateTime: string; sequenceNumber: number } | null;
}

/** What the client reads of a TcsResponse. */
export interface TcsAnswer {
  responseCode: number;
  responseMessage: string;
  responseReason: string;
  applicationId: string;
  requestId: string;
  skvResponseCode: string;
  skvResponseMessage: string;
  sequenceNumber: string;
  /** Null when absent or empty. */
  controlServerId: string | null;
  /** Null when absent or empty: copies and proforma receipts are answered without one (the client's TransactionTests). */
  controlCode: string | null;
}

/** What a NEW IdmRequest carries; the mapper's constants (POSAuthorityCode, Certificate, PcxService) are added here. */
export interface EnrollmentOrder {
  applicationId: string;
  /** An `int`; the client draws a random 100000-999999. */
  requestId: number;
  partner: { code: string; name: string };
  chain: { code: string; name: string };
  store: { id: string; name: string };
  /** orgNr as given, e.g. `556036-0793`. */
  company: { orgNr: string; name: string };
  address: { line: string; zip: string; city: string };
  /** `model` is the client's IntegrationVersion, written as RegisterModel. */
  register: { make: string; model: string; alias: string };
}

/** What the client reads of an IdmResponse (its `Info` block is not read). */
export interface IdmAnswer {
  responseCode: number;
  responseMessage: string;
  responseReason: string;
  action: string;
  /** These are null when absent or empty. */
  applicationId: string | null;
  requestId: string | null;
  registerId: string | null;
  tcsId: string | null;
  active: number | null;
  loginCount: number | null;
  lastLogin: string | null;
}

/** A document this module will not write, or one that is not the response the client could read. */
/** A register's address as one line (`RegisterAddress`, as the client's test writes it): street, postal code, city. */
export const registerAddressOf = (place: { address?: string | null; zip?: string | null; city?: string | null }): string =>
  [place.address, place.zip, place.city].filter((part) => part !== undefined && part !== null && part !== '').join(' ');

/** An answer's message and reason as one text for a person (`Message: reason`), empty when it gives neither. */
export const answerText = (answer: Pick<TcsAnswer, 'responseMessage' | 'responseReason'>): string =>
  [answer.responseMessage, answer.responseReason].filter((part) => part !== '').join(': ');

export class InfrasecWireError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'InfrasecWireError';
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Writing

/** A character outside XML 1.0's Char production (controls, U+FFFE/U+FFFF, a lone surrogate). */
const NOT_XML_CHAR = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;
const LONG_MAX = 9223372036854775807n;
const INT_MIN = -2147483648;
const INT_MAX = 2147483647;

function escapeText(text: string, element: string): string {
  if (typeof text !== 'string') throw new InfrasecWireError(`${element}: a string expected`);
  const bad = NOT_XML_CHAR.exec(text);
  if (bad !== null) {
    const code = (bad[0].codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0');
    throw new InfrasecWireError(`${element}: U+${code} cannot be written in XML`);
  }
  return text.replace(/[&<>]/g, (ch) => (ch === '&' ? '&amp;' : ch === '<' ? '&lt;' : '&gt;'));
}

/** An element of text content: `<X>text</X>`, or `<X />` when empty. */
function leaf(name: string, text: string): string {
  const escaped = escapeText(text, name);
  return escaped === '' ? `<${name} />` : `<${name}>${escaped}</${name}>`;
}

/** An element of element content; null children are the properties XmlSerializer leaves out. */
function branch(name: string, ...children: (string | null)[]): string {
  const content = children.filter((child) => child !== null).join('');
  return content === '' ? `<${name} />` : `<${name}>${content}</${name}>`;
}

function integer(value: number, min: number, max: number, element: string): string {
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw new InfrasecWireError(`${element}: an integer from ${min} to ${max} expected, not ${String(value)}`);
  }
  return String(value);
}

/** A C# `long` (SequenceNumber): JavaScript's safe integers all fit. */
const long = (value: number, element: string) => integer(value, Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER, element);
/** A C# `int` (the IdmRequest's RequestID). */
const int = (value: number, element: string) => integer(value, INT_MIN, INT_MAX, element);

function nonEmpty(text: string, element: string): string {
  // The client takes its ApplicationID as a NonEmptyString.
  if (typeof text !== 'string' || text === '') throw new InfrasecWireError(`${element}: must not be empty`);
  return text;
}

function guid(text: string): string {
  if (typeof text !== 'string' || !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(text)) {
    throw new InfrasecWireError(`RequestID: a GUID (8-4-4-4-12 hex digits) expected, not ${JSON.stringify(text)}`);
  }
  return text.toLowerCase();
}

/** `yyyyMMddHHmmss` of a real calendar time, as DateTime.ToString writes one. */
function stamp(text: string, element: string): string {
  const parts = typeof text === 'string' ? /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})$/.exec(text) : null;
  const [year, month, day, hour, minute, second] = (parts ?? []).slice(1).map(Number);
  const date = new Date(Date.UTC(year ?? NaN, (month ?? NaN) - 1, day ?? NaN, hour ?? NaN, minute ?? NaN, second ?? NaN));
  const real =
    parts !== null &&
    date.getUTCFullYear() === year &&
    date.getUTCMonth() + 1 === month &&
    date.getUTCDate() === day &&
    date.getUTCHours() === hour &&
    date.getUTCMinutes() === minute &&
    date.getUTCSeconds() === second;
  if (!real) throw new InfrasecWireError(`${element}: a time yyyyMMddHHmmss expected, not ${JSON.stringify(text)}`);
  return text;
}

/** OrgNr is a C# `long`: digits written without leading zeros. */
function orgNumber(text: string): string {
  if (typeof text !== 'string' || !/^\d+$/.test(text) || BigInt(text) > LONG_MAX) {
    throw new InfrasecWireError(`OrgNr: digits expected, not ${JSON.stringify(text)}`);
  }
  return BigInt(text).toString();
}

/**
 * An amount as the client writes it: `1234,56` (its `ToString("N2", fr-FR)` with the group separator, a space, removed),
 * `-1,00` when negative. Integer hundredths only.
 */
export function tcsAmount(hundredths: number): string {
  long(hundredths, 'amount');
  return formatHundredths(hundredths, ',');
}

/** A VAT rate as the client writes it (`ToString("F2", fr-FR)`): 2500 hundredths of a percent -> `25,00`. */
export function tcsPercent(rate: number): string {
  long(rate, 'Percent');
  return formatHundredths(rate, ',');
}

function vatGroup(name: string, rate: number, group: TcsVatGroup | null): string {
  return branch(
    name,
    leaf('Percent', tcsPercent(rate)),
    leaf('Amount', group === null ? '0,00' : tcsAmount(group.amount)),
    leaf('SubtotalAmount', group === null ? '0,00' : tcsAmount(group.subtotal)),
  );
}

/** The TcsRequest of a receipt, as the client's InfrasecTransactionClient.SendTransactionAsync posts it. */
export function tcsRequestXml(t: TcsTransaction): string {
  if (!RECEIPT_TYPES.includes(t.type)) throw new InfrasecWireError(`ReceiptType: unknown type ${JSON.stringify(t.type)}`);
  if (t.vat.length !== TCS_VAT_RATES.length) throw new InfrasecWireError('VAT: four groups expected');
  const amount = (value: number | null, element: string) => (value === null ? null : leaf(element, tcsAmount(value)));
  return branch(
    'TcsRequest',
    leaf('ApplicationID', nonEmpty(t.applicationId, 'ApplicationID')),
    leaf('RequestID', guid(t.requestId)),
    branch(
      'ControlData',
      leaf('DateTime', stamp(t.dateTime, 'DateTime')),
      t.copy === null ? null : leaf('CopyDateTime', stamp(t.copy.dateTime, 'CopyDateTime')),
      leaf('OrgNr', orgNumber(t.orgNr)),
      leaf('ManRegisterID', t.registerId),
      leaf('RegisterAddress', t.registerAddress),
      leaf('SequenceNumber', long(t.sequenceNumber, 'SequenceNumber')),
      t.copy === null ? null : leaf('CopySequenceNumber', long(t.copy.sequenceNumber, 'CopySequenceNumber')),
      `<ReceiptType Type="${t.type}" />`,
      amount(t.saleAmount, 'SaleAmount'),
      amount(t.refundAmount, 'RefundAmount'),
      ...TCS_VAT_RATES.map((rate, index) => vatGroup(`VAT${index + 1}`, rate, t.vat[index] ?? null)),
    ),
  );
}

/** A NEW IdmRequest with every element EnrollmentMappers.ToNewDto writes, its constants included. */
export function idmNewRequestXml(order: EnrollmentOrder): string {
  const { line, zip, city } = order.address;
  const company = order.company.name;
  // Address, Zipcode, City in the DTO's order (the mapper assigns them in another; the serializer follows the DTO).
  const place = () => [leaf('Address', line), leaf('Zipcode', zip), leaf('City', city)];
  return branch(
    'IdmRequest',
    leaf('ApplicationID', nonEmpty(order.applicationId, 'ApplicationID')),
    leaf('RequestID', int(order.requestId, 'RequestID')),
    branch(
      'EnrollData',
      leaf('Action', 'NEW'),
      branch(
        'PartnerAuthority',
        leaf('PartnerName', order.partner.name),
        leaf('PartnerCode', order.partner.code),
        leaf('POSAuthorityCode', 'S'),
      ),
      branch('OrganizationBranch', leaf('BranchName', ''), leaf('BranchCode', '')),
      branch('OrganizationChain', leaf('ChainName', order.chain.name), leaf('ChainCode', order.chain.code)),
      branch('StoreInfo', leaf('StoreID', order.store.id), leaf('StoreName', order.store.name), ...place()),
      branch('CompanyInfo', leaf('OrganizationNumber', order.company.orgNr), leaf('Company', company), ...place()),
      branch(
        'RegisterInfo',
        leaf('RegisterID', ''),
        leaf('RegisterMake', order.register.make),
        leaf('RegisterModel', order.register.model),
        leaf('LocalAlias', order.register.alias),
        leaf('CounterNumber', ''),
        ...place(),
      ),
      branch('JournalLocation', leaf('Company', company), ...place()),
      // OperationLocation's RegisterID is left null by the mapper, so it is not written.
      branch('OperationLocation', leaf('Company', company), ...place()),
      branch('Certificate', leaf('Method', 'NONE'), leaf('Email', ''), leaf('Cellphone', '')),
      branch(
        'PcxService',
        branch('TCS', leaf('Enable', 'Yes')),
        branch('Swish', leaf('Enable', 'No'), leaf('SwishNr', ''), leaf('SwishType', '')),
        branch(
          'Sparakvittot',
          leaf('Enable', 'No'),
          leaf('SparakvittotAccount', ''),
          leaf('SparakvittotStoreid', ''),
          leaf('SparakvittotUsername', ''),
          leaf('SparakvittotPassword', ''),
        ),
      ),
    ),
  );
}

/** A STATUS IdmRequest (EnrollmentMappers.ToStatusDto): only the register's id. */
export function idmStatusRequestXml(q: { applicationId: string; requestId: number; registerId: string }): string {
  return branch(
    'IdmRequest',
    leaf('ApplicationID', nonEmpty(q.applicationId, 'ApplicationID')),
    leaf('RequestID', int(q.requestId, 'RequestID')),
    branch('EnrollData', leaf('Action', 'STATUS'), branch('RegisterInfo', leaf('RegisterID', q.registerId))),
  );
}

// ---------------------------------------------------------------------------------------------------------------
// Reading: a small non-validating XML 1.0 parser (no DTD, no external entities) into elements and their text.

interface XmlElement {
  name: string;
  attributes: ReadonlyMap<string, string>;
  /** Child elements and text runs (character data, references and CDATA joined; comments dropped). */
  children: (XmlElement | string)[];
}

/** Deeper than any response has reason to be; guards the recursion. */
const MAX_DEPTH = 64;
/** XML's Name production, approximated by Unicode classes: the names this module looks for are ASCII anyway. */
const NAME = /[:_\p{L}][-.:_\p{L}\p{M}\p{N}\u00B7]*/uy;
const REFERENCE = /&(?:#x([0-9A-Fa-f]+);|#([0-9]+);|([A-Za-z]+);)?/g;
const ENTITIES: Readonly<Record<string, string>> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

function isXmlChar(code: number): boolean {
  return (
    code === 0x9 ||
    code === 0xa ||
    code === 0xd ||
    (code >= 0x20 && code <= 0xd7ff) ||
    (code >= 0xe000 && code <= 0xfffd) ||
    (code >= 0x10000 && code <= 0x10ffff)
  );
}

function parseXml(input: string): XmlElement {
  if (typeof input !== 'string') throw new InfrasecWireError('the response is not text');
  // End-of-line handling (XML 1.0 §2.11) before anything else, as every parser does.
  const text = input.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  let pos = 0;

  function fail(why: string): never {
    throw new InfrasecWireError(`not well-formed XML at offset ${pos}: ${why}`);
  }
  const at = (literal: string) => text.startsWith(literal, pos);
  const skipSpace = (): boolean => {
    const from = pos;
    while (text[pos] === ' ' || text[pos] === '\t' || text[pos] === '\n') pos++;
    return pos > from;
  };
  const expect = (literal: string) => {
    if (!at(literal)) fail(`"${literal}" expected`);
    pos += literal.length;
  };
  const name = (): string => {
    NAME.lastIndex = pos;
    const found = NAME.exec(text)?.[0] ?? fail('a name expected');
    pos += found.length;
    return found;
  };
  /** The text up to `end`, and past it. */
  const until = (end: string, what: string): string => {
    const found = text.indexOf(end, pos);
    if (found < 0) fail(`${what} is never closed`);
    const body = text.slice(pos, found);
    pos = found + end.length;
    return body;
  };
  const decode = (raw: string): string =>
    raw.replace(REFERENCE, (whole, hex: string | undefined, decimal: string | undefined, entity: string | undefined) => {
      if (entity !== undefined) return ENTITIES[entity] ?? fail(`undefined entity ${whole}`);
      if (hex === undefined && decimal === undefined) return fail('a bare "&"');
      const code = hex !== undefined ? parseInt(hex, 16) : Number(decimal);
      return isXmlChar(code) ? String.fromCodePoint(code) : fail(`${whole} is not a character XML allows`);
    });
  const comment = () => {
    pos += 4;
    const body = until('-->', 'a comment');
    if (body.includes('--') || body.endsWith('-')) fail('"--" inside a comment');
  };
  const instruction = () => {
    pos += 2;
    if (name().toLowerCase() === 'xml') fail('an XML declaration is allowed only at the start');
    if (!at('?>') && !skipSpace()) fail('a space expected after the target');
    until('?>', 'a processing instruction');
  };
  /** Comments, processing instructions and whitespace, outside the root element. */
  const misc = () => {
    for (;;) {
      skipSpace();
      if (at('<!--')) comment();
      else if (at('<?')) instruction();
      else return;
    }
  };

  const element = (depth: number): XmlElement => {
    if (depth > MAX_DEPTH) fail(`elements nested deeper than ${MAX_DEPTH}`);
    pos += 1;
    const tag = name();
    const attributes = new Map<string, string>();
    const children: (XmlElement | string)[] = [];
    for (;;) {
      const spaced = skipSpace();
      if (at('/>')) {
        pos += 2;
        return { name: tag, attributes, children };
      }
      if (at('>')) break;
      if (!spaced) fail(`a space expected before an attribute of <${tag}>`);
      const attribute = name();
      skipSpace();
      expect('=');
      skipSpace();
      const quote = text[pos];
      if (quote !== '"' && quote !== "'") fail(`a quoted value expected for ${attribute}`);
      pos += 1;
      const raw = until(quote, `the value of ${attribute}`);
      if (raw.includes('<')) fail(`"<" in the value of ${attribute}`);
      if (attributes.has(attribute)) fail(`attribute ${attribute} repeated on <${tag}>`);
      attributes.set(attribute, decode(raw.replace(/[\t\n]/g, ' ')));
    }
    pos += 1;
    let run = '';
    const flush = () => {
      if (run !== '') children.push(run);
      run = '';
    };
    for (;;) {
      if (pos >= text.length) fail(`<${tag}> is never closed`);
      if (at('</')) {
        pos += 2;
        const end = name();
        if (end !== tag) fail(`</${end}> closes <${tag}>`);
        skipSpace();
        expect('>');
        flush();
        return { name: tag, attributes, children };
      }
      if (at('<!--')) comment();
      else if (at('<![CDATA[')) {
        pos += 9;
        run += until(']]>', 'a CDATA section');
      } else if (at('<?')) instruction();
      else if (at('<!')) fail('a declaration inside an element');
      else if (at('<')) {
        flush();
        children.push(element(depth + 1));
      } else {
        const next = text.indexOf('<', pos);
        const raw = text.slice(pos, next < 0 ? text.length : next);
        if (raw.includes(']]>')) fail('"]]>" in text');
        run += decode(raw);
        pos += raw.length;
      }
    }
  };

  const bad = NOT_XML_CHAR.exec(text);
  if (bad !== null) {
    pos = bad.index;
    fail('a character XML does not allow');
  }
  if (at('<?xml') && /[ \t\n]/.test(text[5] ?? '')) {
    const declaration = until('?>', 'the XML declaration');
    if (!/^<\?xml[ \t\n]+version[ \t\n]*=[ \t\n]*(["'])1\.[0-9]+\1/.test(declaration))
      fail('an XML declaration without a version');
  }
  misc();
  if (at('<!DOCTYPE')) fail('a DOCTYPE is not accepted');
  if (!at('<')) fail('the root element expected');
  const root = element(1);
  misc();
  if (pos < text.length) fail('content after the root element');
  return root;
}

// ---------------------------------------------------------------------------------------------------------------
// The two responses

function documentOf(xml: string, root: string): XmlElement {
  const document = parseXml(xml);
  if (document.name !== root) throw new InfrasecWireError(`<${document.name}> is not a <${root}>`);
  return document;
}

function child(parent: XmlElement, name: string): XmlElement | undefined {
  return parent.children.find((node): node is XmlElement => typeof node !== 'string' && node.name === name);
}

/** The text of the first child `name`, or null when there is none; one with child elements is refused (ReadElementString). */
function textOf(parent: XmlElement, name: string): string | null {
  const element = child(parent, name);
  if (element === undefined) return null;
  if (element.children.some((node) => typeof node !== 'string')) {
    throw new InfrasecWireError(`<${name}> holds elements where text is expected`);
  }
  return element.children.join('');
}

const orNull = (text: string | null) => (text === null || text === '' ? null : text);

/** XmlConvert.ToInt32: optional whitespace around an optional sign and decimal digits, within an `int`. */
function int32(text: string, name: string): number {
  const digits = /^[\t-\r ]*([+-]?[0-9]+)[\t-\r ]*$/.exec(text)?.[1];
  const value = digits === undefined ? NaN : Number(digits);
  if (!Number.isInteger(value) || value < INT_MIN || value > INT_MAX) {
    throw new InfrasecWireError(`<${name}> is not an int: ${JSON.stringify(text)}`);
  }
  return value;
}

function responseCode(root: XmlElement): number {
  const code = textOf(root, 'ResponseCode');
  if (code === null) throw new InfrasecWireError(`<${root.name}> has no <ResponseCode>`);
  return int32(code, 'ResponseCode');
}

/** An `int?`: null when absent or `xsi:nil`, otherwise an int (an empty element is not one). */
function optionalInt(parent: XmlElement, name: string): number | null {
  const element = child(parent, name);
  if (element === undefined) return null;
  const nil = [...element.attributes].some(([attribute, value]) => /(^|:)nil$/.test(attribute) && /^\s*(true|1)\s*$/.test(value));
  if (nil) return null;
  return int32(textOf(parent, name) ?? '', name);
}

/** Throws InfrasecWireError when the document is not a TcsResponse the client could deserialize (ResponseCode an int). */
export function parseTcsResponse(xml: string): TcsAnswer {
  const root = documentOf(xml, 'TcsResponse');
  const control = child(root, 'ControlCode');
  // Absent text fields read as '' (the client holds null); error answers carry little more than the code.
  const text = (name: string) => textOf(root, name) ?? '';
  return {
    responseCode: responseCode(root),
    responseMessage: text('ResponseMessage'),
    responseReason: text('ResponseReason'),
    applicationId: text('ApplicationID'),
    requestId: text('RequestID'),
    skvResponseCode: text('SKVResponseCode'),
    skvResponseMessage: text('SKVResponseMessage'),
    sequenceNumber: text('SequenceNumber'),
    controlServerId: control === undefined ? null : orNull(textOf(control, 'ControlServerID')),
    controlCode: control === undefined ? null : orNull(textOf(control, 'Code')),
  };
}

/** Throws InfrasecWireError when the document is not an IdmResponse the client could deserialize. */
export function parseIdmResponse(xml: string): IdmAnswer {
  const root = documentOf(xml, 'IdmResponse');
  return {
    responseCode: responseCode(root),
    responseMessage: textOf(root, 'ResponseMessage') ?? '',
    responseReason: textOf(root, 'ResponseReason') ?? '',
    action: textOf(root, 'Action') ?? '',
    applicationId: orNull(textOf(root, 'ApplicationID')),
    requestId: orNull(textOf(root, 'RequestID')),
    registerId: orNull(textOf(root, 'RegisterID')),
    tcsId: orNull(textOf(root, 'TCSID')),
    active: optionalInt(root, 'Active'),
    loginCount: optionalInt(root, 'LoginCount'),
    lastLogin: orNull(textOf(root, 'LastLogin')),
  };
}
