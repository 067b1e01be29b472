/**
 * The SKVFS 2021:16 export of a journal, without HTTP: a hand-made day of every kind of event, validated by xmllint
 * against Skatteverket's schemas (tests/support/skvfs.ts), its figures checked against hand computations.
 */
import { describe, expect, it } from 'vitest';
import type { ExportContext } from '#shared/fiscal/export-context.ts';
import { chainEvents, GENESIS_HEAD, type JournalEvent } from '#shared/fiscal/journal.ts';
import { journalData, journalReceipt } from '#shared/fiscal/journal-records.ts';
import type { Day, Print, Sale } from '#shared/fiscal/model.ts';
import { buildReport } from '#shared/fiscal/report.ts';
import { localTime, money, skvfsExport } from '#shared/fiscal/skvfs-export.ts';
import { addTotals, emptyTotals, saleContribution } from '#shared/fiscal/totals.ts';
import { expectValidExport, schemaProblems } from '../support/skvfs.ts';

const ZONE = 'Europe/Stockholm';
/** 2026-03-02 09:00:00 in Stockholm (UTC+1). */
const T0 = Date.UTC(2026, 2, 2, 8, 0, 0);
const minutes = (n: number) => T0 + n * 60_000;
const SERIAL = 'SIMCU000000000001';
const CODE = 'A'.repeat(59);

const context: ExportContext = {
  sellerId: 'SE5566778899',
  timeZone: ZONE,
  company: { corporateId: '5566778899', country: 'SE', name: 'Dagbutiken & Co', address: 'Storgatan 1, 111 22 Stockholm' },
  system: {
    cashRegisterName: 'K1',
    productionNumber: 'DAG000001',
    model: 'Dagkassan',
    program: 'se.dagkassan.pos',
    version: '4.2.0',
    controlUnitSerial: SERIAL,
  },
};

function sale(identifier: string, fields: Partial<Sale> = {}): Sale {
  return {
    identifier,
    saleState: 'Paid',
    refund: false,
    absoluteDiscount: 0,
    relativeDiscount: 0,
    vanillaBrutto: 15000,
    discount: 1000,
    brutto: 14000,
    vat: 2300,
    treasurer: 'Anna',
    close: minutes(10),
    saleProducts: [
      {
        productIdentifier: 'kaffe',
        name: 'Kaffe & kaka <stor>',
        group: 'Café',
        articleType: 'GOODS',
        quantity: 2,
        salesUnit: 'Piece',
        unitPrice: 5000,
        deltaUnit: true,
        delta: 2,
        absoluteDiscount: 1000,
        relativeDiscount: 0,
        vat: 1800,
        netto: 7200,
        brutto: 9000,
        vanillaBrutto: 10000,
        discount: 1000,
        vatRate: 25,
        created: minutes(9),
      },
      {
        productIdentifier: 'ost',
        name: 'Prästost',
        group: null,
        articleType: 'GOODS',
        quantity: 0.125,
        salesUnit: 'Kilogram',
        unitPrice: 40000,
        deltaUnit: false,
        delta: 5000,
        absoluteDiscount: 0,
        relativeDiscount: 0,
        vat: 500,
        netto: 4500,
        brutto: 5000,
        vanillaBrutto: 5000,
        discount: 0,
        vatRate: 12,
      },
    ],
    prints: [],
    payments: [
      { paymentType: 'Cash', amount: 4000 },
      { paymentType: 'EmvStandalone', amount: 10000 },
    ],
    vatRateSums: [
      { vatRate: 2500, vat: 1800, netto: 7200, brutto: 9000, vanillaVat: 2000, vanillaNetto: 8000, vanillaBrutto: 10000 },
      { vatRate: 1200, vat: 500, netto: 4500, brutto: 5000, vanillaVat: 500, vanillaNetto: 4500, vanillaBrutto: 5000 },
    ],
    day: 1,
    ...fields,
  };
}

const normal = (receiptNumber: number, at: number, controlNumber: string | null = CODE): Print => ({
  printType: 'Normal',
  receiptNumber,
  controlNumber,
  created: at,
});

function printed(sold: Sale, print: Print): JournalEvent {
  return {
    type: 'PRINT',
    dayNumber: 1,
    saleIdentifier: sold.identifier,
    receiptNumber: print.receiptNumber,
    printType: print.printType,
    amount: sold.brutto,
    controlCode: print.controlNumber ?? null,
    data: journalData({ receipt: journalReceipt({ ...sold, prints: [...sold.prints, print] }, print, SERIAL) }),
  };
}

/** A register event as the upload stores it: the register's time, its treasurer and its data. */
const registerEvent = (type: string, at: number, data: Record<string, unknown> = {}): JournalEvent =>
  ({ type, dayNumber: 1, data: { created: at, treasurer: 'Anna', data } }) as unknown as JournalEvent;

function dayOfEvents() {
  const first = sale('s1', { prints: [normal(1, minutes(11))] });
  const refund = sale('s2', { refund: true, refundFor: 1, close: minutes(20) });
  const training = sale('s3', { training: true, close: minutes(30) });
  const day: Day = {
    dayNumber: 1,
    date: 20260302,
    opened: false,
    reportPrinted: false,
    open: minutes(0),
    close: minutes(60),
    cash: 0,
  };
  const totals = [first, refund].map(saleContribution).reduce(addTotals, emptyTotals());
  const report = buildReport({
    seller: { name: context.company.name, corporateId: '5566778899', address: context.company.address, country: 'SE' },
    register: { cashRegisterName: 'K1', productionNumber: 'DAG000001', controlUnitSerial: SERIAL },
    day,
    totals,
    grandTotals: { sales: 14000, refunds: 14000 },
    produced: minutes(60),
  });
  const events: JournalEvent[] = [
    { type: 'DAY_OPENED', dayNumber: 1, data: { date: 20260302 } },
    registerEvent('LOGIN', minutes(1)),
    { type: 'BALANCE', dayNumber: 1, amount: 50000, data: { action: 'DEPOSIT', balance: 50000 } },
    registerEvent('ARTICLE_REGISTERED', minutes(9), {
      articleType: 'GOODS',
      name: 'Kaffe',
      quantity: 2,
      price: 10000,
      vatRate: 2500,
      vat: 2000,
      discounts: [{ name: 'Stammis', amount: 1000 }],
    }),
    printed(first, normal(1, minutes(11))),
    printed(first, { printType: 'Copy', receiptNumber: 1, controlNumber: 'B'.repeat(59), created: minutes(12) }),
    printed(refund, normal(2, minutes(21))),
    printed(training, { printType: 'Normal', receiptNumber: 1, controlNumber: CODE, created: minutes(31) }),
    printed(sale('s4'), { printType: 'Proforma', receiptNumber: null, created: minutes(40) }),
    registerEvent('DRAWER_OPENED', minutes(45)),
    // Uploaded late: the register's time puts it before the receipts journaled ahead of it.
    registerEvent('TRAINING_MODE_ON', minutes(29)),
    {
      type: 'DAY_CLOSED',
      dayNumber: 1,
      amount: 50000,
      data: journalData({ grandTotal: 14000, grandTotalRefund: 14000, report, context }),
    },
  ];
  // Every entry is stamped with the time the service journaled it: the events' own order here.
  let head = GENESIS_HEAD;
  return events.flatMap((event, index) => {
    const at =
      [
        minutes(0),
        minutes(2),
        minutes(3),
        minutes(9),
        minutes(11),
        minutes(12),
        minutes(21),
        minutes(31),
        minutes(40),
        minutes(46),
        minutes(47),
        minutes(60),
      ][index] ?? T0;
    const chained = chainEvents(head, [event], at);
    head = chained.head;
    return chained.entries;
  });
}

async function exported(
  entries = dayOfEvents(),
  period = { from: null, to: null } as { from: number | null; to: number | null },
) {
  let xml = '';
  for await (const chunk of skvfsExport(context, entries, period, minutes(120))) xml += chunk;
  return xml;
}

const elementsOf = (xml: string, name: string) => [...xml.matchAll(new RegExp(`<${name}>(.*?)</${name}>`, 'g'))].map((m) => m[1]);

describe('the SKVFS 2021:16 export of a journal', () => {
  it('is valid against Skatteverket schemas and holds each event in time order', async () => {
    const xml = await exported();
    await expectValidExport(xml);
    const kinds = [...xml.matchAll(/<Registreringstidpunkt>[^<]+<\/Registreringstidpunkt><(\w+)>/g)].map((m) => m[1]);
    expect(kinds).toEqual([
      'InloggningIKassaregister',
      'ForandraVaxelkassa',
      'RegistreraArtikel',
      'Kassakvitto',
      'KopiaAvKassakvitto',
      'Returkvitto',
      'StallaOmTillOvningslage',
      'Ovningskvitto',
      'ProFormaKvitto',
      'OppnaKassaladaVidNollforsaljning',
      'ZDagrapport',
    ]);
    const times = elementsOf(xml, 'Registreringstidpunkt');
    expect(times).toEqual([...times].sort());
    // 09:01 in Stockholm is 08:01 UTC; the schema's form, without zone or fraction.
    expect(times[0]).toBe('2026-03-02T09:01:00');
  });

  it('writes each receipt as the sale was: lines, discounts, totals, payments and VAT per rate (by hand)', async () => {
    const xml = await exported();
    const kassakvitto = elementsOf(xml, 'Kassakvitto')[0] ?? '';
    expect(elementsOf(kassakvitto, 'Artikelnamn')).toEqual(['Kaffe &amp; kaka &lt;stor&gt;', 'Prästost']);
    expect(elementsOf(kassakvitto, 'AntalAvSaldArtikel')).toEqual(['2.00', '1.00']);
    expect(elementsOf(kassakvitto, 'MangdAvSaldArtikel')).toEqual(['0.125']);
    expect(elementsOf(kassakvitto, 'EnhetForViktLangdTidEllerVolym')).toEqual(['kg']);
    expect(elementsOf(kassakvitto, 'PrisPaSaldArtikel')).toEqual(['90.00', '50.00']);
    expect(elementsOf(kassakvitto, 'TotaltForsaljningsbeloppISvenskaKronor')).toEqual(['140.00']);
    expect(elementsOf(kassakvitto, 'MervardesskattPaForsaljningsbeloppet')).toEqual(['23.00']);
    expect(elementsOf(kassakvitto, 'TotaltRabattbeloppPaKvitto')).toEqual(['10.00']);
    expect(elementsOf(kassakvitto, 'ForsaljningssummaPerBetalningsmedel')).toEqual(['40.00', '100.00']);
    expect(elementsOf(kassakvitto, 'Mervardesskattesats')).toEqual(['12.00', '25.00']);
    expect(elementsOf(kassakvitto, 'TotaltMervardesskattebeloppPerSkattesats')).toEqual(['5.00', '18.00']);
    expect(elementsOf(kassakvitto, 'Kontrollkod')).toEqual([CODE]);
    expect(elementsOf(kassakvitto, 'LopnummerForZDagrapportPaKvitto')).toEqual(['1']);
    const retur = elementsOf(xml, 'Returkvitto')[0] ?? '';
    expect(elementsOf(retur, 'TotaltForsaljningsbeloppISvenskaKronor')).toEqual(['-140.00']);
    expect(elementsOf(retur, 'LopnummerForUrsprungligtKassakvitto')).toEqual(['1']);
    const kopia = elementsOf(xml, 'KopiaAvKassakvitto')[0] ?? '';
    expect(elementsOf(kopia, 'KontrollkodForKvittotSomKopianAvser')).toEqual([CODE]);
    expect(elementsOf(kopia, 'KontrollkodPaKopiaAvKassakvitto')).toEqual(['B'.repeat(59)]);
    const z = elementsOf(xml, 'ZDagrapport')[0] ?? '';
    expect(elementsOf(z, 'TotalForsaljningssumma')).toEqual(['0.00']);
    expect(elementsOf(z, 'AntalReturer')).toEqual(['1']);
    expect(elementsOf(z, 'ReturernasBelopp')).toEqual(['140.00']);
    expect(elementsOf(z, 'GrandTotalNetto')).toEqual(['0.00']);
  });

  it('keeps to the chosen period, and yields nothing for a period without events', async () => {
    const xml = await exported(undefined, { from: minutes(10), to: minutes(25) });
    await expectValidExport(xml);
    expect(elementsOf(xml, 'ValdStarttidpunktForExportAvDataFranJournalminnet')).toEqual([localTime(minutes(10), ZONE)]);
    expect([...xml.matchAll(/<Handelse>/g)]).toHaveLength(3);
    expect(await exported(undefined, { from: minutes(200), to: minutes(300) })).toBe('');
  });

  it('of a period is byte for byte the one made from the entries journaled since 5 minutes before it', async () => {
    // Prepare: what the service reads for a period (functions/fiscal/journals.ts): a register event may be dated up to
    // MAX_EVENT_CLOCK_SKEW_MS (5 minutes) after it was journaled, never before a close; a late one is in this day.
    // The same day with its login dated 2 minutes after it was journaled (a register's clock ahead).
    const day = dayOfEvents();
    const ahead = day.map((entry) =>
      entry.type === 'LOGIN' ? { ...entry, data: { ...(entry.data as { created: number }), created: minutes(4) } } : entry,
    );
    const froms = [...new Set(day.map((entry) => entry.created)), minutes(4), minutes(28), minutes(29), minutes(30)];

    for (const entries of [day, ahead]) {
      for (const from of froms) {
        for (const to of [minutes(25), minutes(60), null]) {
          // Act
          const read = entries.filter((entry) => entry.created >= from - 5 * 60_000);

          // Assess
          expect(await exported(read, { from, to })).toBe(await exported(entries, { from, to }));
        }
      }
    }
  });

  it('names the fact it lacks rather than invent it', async () => {
    const without = { ...context, system: { ...context.system, version: null } };
    const run = async () => {
      for await (const _ of skvfsExport(without, dayOfEvents(), { from: null, to: null }, T0)) void _;
    };
    await expect(run()).rejects.toMatchObject({
      code: 'JOURNAL_EXPORT_INCOMPLETE',
      details: { missing: "the register application's version" },
    });
  });

  it('the oracle refuses what the schema forbids', async () => {
    expect(await schemaProblems('<x/>')).not.toBeNull();
    expect(money(-5)).toBe('-0.05');
  });
});
