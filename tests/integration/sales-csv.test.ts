/**
 * The sales CSV written a piece at a time (shared/stats/sales-csv.ts; docs/conventions.md §20) against DynamoDB Local:
 * three registers of a Stockholm seller, days inside and outside the period, sales at five VAT rates and three
 * payment types, one register's sales over more than one page of its version index. The expected text is written
 * out here cell by cell.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { table } from '#shared/db/client.ts';
import { putItem, queryItems } from '#shared/db/documents.ts';
import { changeRange } from '#shared/db/keys.ts';
import { writeVersioned } from '#shared/db/streams.ts';
import { registrationKeys } from '#shared/domain/records.ts';
import { dayKey, type DayRecord, type Register, registerStream, SALE, saleKey } from '#shared/fiscal/ledger.ts';
import type { Sale } from '#shared/fiscal/model.ts';
import { coverageOf } from '#shared/stats/coverage.ts';
import { periodSales, salesCsvChunks } from '#shared/stats/sales-csv.ts';
import { line, normal, saleContent, totalsWith } from '../support/ledger.ts';

const sellerId = `SE${randomUUID()}`;
const register = (cash: string): Register => ({ sellerId, cash });

/** Opens day `dayNumber` dated `date` at the register's next version. */
const openDay = (cash: string, dayNumber: number, date: number) =>
  writeVersioned<DayRecord, number>({
    stream: registerStream(register(cash)),
    entity: dayKey(register(cash), dayNumber),
    kind: 'DAY',
    apiVersion: 33,
    decide: ({ next }) => ({
      entity: {
        dayNumber,
        date,
        opened: true,
        reportPrinted: false,
        open: 0,
        cash: 0,
        totals: totalsWith(),
        openVersion: next,
        deleted: false,
      },
      result: next,
    }),
  });

/** Records a sale in day `day` at the register's next version. */
const record = (cash: string, day: number, identifier: string, fields: Partial<Sale>) =>
  writeVersioned<Sale, number>({
    stream: registerStream(register(cash)),
    entity: saleKey(register(cash), identifier),
    kind: SALE,
    apiVersion: 33,
    decide: ({ next }) => ({ entity: { ...saleContent(fields), identifier, day, deleted: false }, result: next }),
  });

const vatSum = (vatRate: number, vat: number) => ({
  vatRate,
  vanillaVat: vat,
  vanillaNetto: 0,
  vanillaBrutto: 0,
  vat,
  netto: 0,
  brutto: 0,
});

/** A register's day 2 sale that takes some 38 KB: 120 lines, a long seller name. */
const BIG_SALES = 40;
const longName = (i: number) => `${'x'.repeat(2000)}${i}`;
const bigSale = (i: number): Partial<Sale> => ({
  saleProducts: Array.from({ length: 120 }, () => line()),
  brutto: 1_500_000,
  vat: 300_000,
  vatRateSums: [vatSum(2500, 300_000)],
  payments: [{ paymentType: 'Cash', amount: 1_500_000 }],
  prints: [normal(i + 1)],
  close: Date.UTC(2024, 5, 10, 8, i),
  sellerIdentifier: longName(i),
  treasurer: 'Eva',
});

/** Outside the period: a rate (10 %) and a payment type (ClosePayment) no sale of the period has. */
const outside: Partial<Sale> = {
  vatRateSums: [vatSum(1000, 100)],
  payments: [{ paymentType: 'ClosePayment', amount: 1100 }],
};

async function buildSeller() {
  for (const cash of ['K2', 'K10', 'K1']) {
    await putItem({ TableName: table(), Item: { ...registrationKeys.registration(sellerId, cash), cashRegisterName: cash } });
  }
  const k1 = async () => {
    await openDay('K1', 1, 20240609);
    await record('K1', 1, 'k1-before', outside);
    await openDay('K1', 2, 20240610);
    for (let i = 0; i < BIG_SALES; i++) await record('K1', 2, `big-${String(i).padStart(2, '0')}`, bigSale(i));
    await openDay('K1', 3, 20240611);
    await record('K1', 3, 'k1-c', {
      brutto: 7240,
      vat: 1300,
      vatRateSums: [vatSum(2500, 1000), vatSum(1200, 240), vatSum(600, 60), vatSum(0, 0)],
      payments: [
        { paymentType: 'Cash', amount: 3000 },
        { paymentType: 'EmvStandalone', amount: 4240 },
        // Not counted, so no ProviderB column.
        { paymentType: 'ProviderB', amount: 500, paymentState: 'REJECTED' },
      ],
      prints: [normal(41), { ...normal(41), printType: 'Copy' }],
      close: Date.UTC(2024, 5, 11, 7, 30, 15, 250),
      sellerIdentifier: '=1+1',
      treasurer: '-5',
    });
    await record('K1', 3, 'k1-d', {
      refund: true,
      brutto: 1000,
      vat: 111,
      vatRateSums: [vatSum(1250, 111)],
      payments: [{ paymentType: 'WalletA', amount: 1000 }],
      prints: [],
      recorded: Date.UTC(2024, 5, 11, 12, 0),
      sellerIdentifier: 'Anna "A", K',
      treasurer: null,
    });
    await record('K1', 3, 'k1-e', { saleState: 'Open', brutto: 500, vat: 100, vatRateSums: [], payments: [], treasurer: 'Bo' });
  };
  const k10 = async () => {
    await openDay('K10', 1, 20240611);
    await record('K10', 1, 'k10-a', {
      saleState: 'Complete',
      brutto: 2500,
      vat: 500,
      vatRateSums: [vatSum(2500, 500)],
      payments: [
        { paymentType: 'Cash', amount: 2400 },
        { paymentType: 'EmvStandalone', amount: 100, paymentState: 'APPROVED' },
      ],
      prints: [normal(1)],
      close: Date.UTC(2024, 5, 11, 21, 59),
      sellerIdentifier: '+46 70',
      treasurer: '@home',
    });
    await openDay('K10', 2, 20240612);
    await record('K10', 2, 'k10-after', outside);
  };
  const k2 = async () => {
    await openDay('K2', 1, 20240601);
    await record('K2', 1, 'k2-before', outside);
  };
  await Promise.all([k1(), k10(), k2()]);
}

const HEADER =
  'date,time,cashRegisterName,dayNumber,receiptNumber,identifier,type,state,brutto,vat,' +
  'vat 0%,vat 6%,vat 12%,vat 12.5%,vat 25%,Cash,EmvStandalone,WalletA,sellerIdentifier,treasurer\r\n';
const bigRow = (i: number) =>
  `2024-06-10,2024-06-10T10:${String(i).padStart(2, '0')}:00.000+0200,K1,2,${i + 1},big-${String(i).padStart(2, '0')},` +
  `sale,Paid,1500000,300000,0,0,0,0,300000,1500000,0,0,${longName(i)},Eva\r\n`;
const EXPECTED = [
  HEADER,
  ...Array.from({ length: BIG_SALES }, (_, i) => bigRow(i)),
  "2024-06-11,2024-06-11T09:30:15.250+0200,K1,3,41,k1-c,sale,Paid,7240,1300,0,60,240,0,1000,3000,4240,0,'=1+1,'-5\r\n",
  '2024-06-11,2024-06-11T14:00:00.000+0200,K1,3,,k1-d,refund,Paid,1000,111,0,0,0,111,0,0,0,1000,"Anna ""A"", K",\r\n',
  '2024-06-11,,K1,3,,k1-e,sale,Open,500,100,0,0,0,0,0,0,0,0,,Bo\r\n',
  "2024-06-11,2024-06-11T23:59:00.000+0200,K10,1,1,k10-a,sale,Complete,2500,500,0,0,0,0,500,2400,100,0,'+46 70,'@home\r\n",
].join('');

describe('the sales CSV a piece at a time', () => {
  it("is the period's sales register by register in name order, each in recording order, in whole-row pieces", async () => {
    // Prepare
    await buildSeller();
    const [low, high] = changeRange(SALE, 0, 1_000);
    const firstPage = await queryItems({
      TableName: table(),
      ConsistentRead: true,
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :low AND :high',
      ExpressionAttributeValues: { ':pk': registerStream(register('K1')).partition.pk, ':low': low, ':high': high },
    });
    expect(firstPage.LastEvaluatedKey, "K1's sales take more than one page").toBeDefined();

    // Act: 2024-06-10 and 2024-06-11 in Stockholm
    const covered = await coverageOf(sellerId, {
      from: String(Date.parse('2024-06-09T22:00:00Z')),
      to: String(Date.parse('2024-06-11T21:59:59Z')),
    });
    const chunks: string[] = [];
    for await (const chunk of salesCsvChunks(await periodSales(covered))) chunks.push(chunk);

    // Assess
    expect(covered.timeZone).toBe('Europe/Stockholm');
    expect(chunks.join('')).toBe(EXPECTED);
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.every((chunk) => chunk.endsWith('\r\n'))).toBe(true);
  });
});
