/**
 * The examples of the OpenAPI documents (scripts/openapi/build.ts), in one place: a Swedish café, seller
 * `SE5560360793`, with the taxes Moms 25 and Moms 12, coffee and cinnamon buns, and register `KASSA1`'s sale of
 * 44,80 SEK. Request bodies are keyed by their validator's name and typed by their schema; an entity's answer is its
 * body as the version shows it (every field, null where absent: `viewExample`). tests/unit/openapi.test.ts
 * validates every one against the schema it illustrates.
 */
import { ApiError, type ErrorCode, type Exception } from '#shared/errors.ts';
import { type ErrorBody, errorBody } from '#shared/http/response.ts';
import { type BodySchemaName, bodySchemas, type responseSchemas } from './index.ts';
import type { BodyTypes } from './types.ts';

/** An OpenAPI Example Object. */
export interface Example<T = unknown> {
  summary: string;
  value: T;
}
/** Examples by name (tests/unit/openapi.test.ts wants at least one per request body). */
type Named<T> = Readonly<Record<string, Example<T>>>;

const SELLER_ID = 'SE5560360793';
const CORPORATE_ID = '5560360793';
const REGISTER = 'KASSA1';
const SALE_ID = '3f0c6d52-8a1e-4b7e-9c1a-2d5e7b9f4a10';
/** 2025-03-14 08:12 in Stockholm: the sale's receipt. The day opened at 07:58 and closed at 18:05. */
const SALE_TIME = 1741936320000;
const DAY_OPEN = 1741935480000;
const DAY_CLOSE = 1741971900000;
const VALID_FROM = 1735686000000;
const VALID_TO = 1767222000000;
/** The control code the unit gave receipt 42 (docs/conventions.md §25) and its sale print carries (§16). */
const CONTROL_CODE = '7VAD6KAHLQZFQ5ECMDMOPNQNJFGK3A2C5VXAG5ZKG8YSZ4OUU4CMU3U3TM4';
const CU_SERIAL = 'CU000000001234567';
const APP = 'se.kassabolaget.kassa';
const DEVICE_ID = '3b9e1c7d5a2f4e60';
const PRODUCTION_NUMBER = 'KB000042';

const openingHours = { openTime: 700, closeTime: 1800 };
const workHoursWeek = {
  MONDAY: openingHours,
  TUESDAY: openingHours,
  WEDNESDAY: openingHours,
  THURSDAY: openingHours,
  FRIDAY: openingHours,
  SATURDAY: { openTime: 900, closeTime: 1600 },
  SUNDAY: null,
};
const contact = { name: 'Anna Lindgren', phone: '+46 8 123 456 78', email: 'anna@cafelindgren.se' };
const buildInfo = { os: 'Android 14', model: 'Sunmi T2s' };

const sellerV15: BodyTypes['sellerV15'] = {
  corporateId: CORPORATE_ID,
  name: 'Café Lindgren',
  country: 'SE',
  publicAccess: true,
  description: 'Kaffe och bullar vid Mariatorget.',
  city: 'Stockholm',
  workHours: 'Mån-fre 7-18, lör 9-16',
  phone: '+46 8 123 456 78',
  custom: null,
};
const sellerV26: BodyTypes['sellerV26'] = {
  ...sellerV15,
  workHoursWeek,
  address: 'Swedenborgsgatan 1, 118 48 Stockholm',
  currency: 'SEK',
  masterPassword: null,
};

/** The two lines of the sale: 2 coffees at 16,40 (Moms 12) and a tote bag at 12,00 (Moms 25). */
const coffeeLine = {
  productIdentifier: 'kaffe',
  deltaUnit: true,
  delta: 2,
  absoluteDiscount: 0,
  relativeDiscount: 0,
  vat: 351,
  netto: 2929,
  brutto: 3280,
  vanillaBrutto: 3280,
  discount: 0,
  created: SALE_TIME,
};
const bagLine = {
  ...coffeeLine,
  productIdentifier: 'tygkasse',
  delta: 1,
  vat: 240,
  netto: 960,
  brutto: 1200,
  vanillaBrutto: 1200,
};
const lineV26 = (line: typeof coffeeLine, vatRate: number) => ({
  ...line,
  productBrutto: line.brutto / line.delta,
  vatRate,
  effectiveBrutto: line.brutto,
});
const saleV15: BodyTypes['saleV15'] = {
  identifier: SALE_ID,
  sellerIdentifier: null,
  saleState: 'Complete',
  refund: false,
  refundFor: null,
  absoluteDiscount: 0,
  relativeDiscount: 0,
  vanillaBrutto: 4480,
  discount: 0,
  brutto: 4480,
  vat: 591,
  controlUnitId: null,
  treasurer: 'anna',
  close: SALE_TIME,
  saleProducts: [coffeeLine, bagLine],
  prints: [
    {
      receiptNumber: 42,
      printType: 'Normal',
      deliveryType: 'Print',
      controlNumber: CONTROL_CODE,
      created: SALE_TIME,
      printed: true,
    },
  ],
  payments: [{ paymentType: 'Card', amount: 4480, paymentState: 'APPROVED' }],
  vatRateSums: [
    { vatRate: 1200, vanillaVat: 351, vanillaNetto: 2929, vanillaBrutto: 3280, vat: 351, netto: 2929, brutto: 3280 },
    { vatRate: 2500, vanillaVat: 240, vanillaNetto: 960, vanillaBrutto: 1200, vat: 240, netto: 960, brutto: 1200 },
  ],
};
const saleV26: BodyTypes['saleV26'] = { ...saleV15, day: null, saleProducts: [lineV26(coffeeLine, 12), lineV26(bagLine, 25)] };

const kd = { vatRateToSum: { '12': 3280, '25': 1200 }, refund: false, printType: 'Normal', date: SALE_TIME } as const;

const activationAdvanced = {
  country: 'SE',
  corporateId: CORPORATE_ID,
  companyName: 'Café Lindgren',
  cashRegisterName: REGISTER,
  validFrom: VALID_FROM,
  validTo: VALID_TO,
  contactInfo: contact,
  comment: null,
  controlUnitSerial: CU_SERIAL,
  controlUnitLocation: 'REMOTE',
  controlUnitGeolocation: { city: 'Stockholm', postalCode: '118 48' },
  applicationPackage: APP,
  productionNumber: null,
  installationCreationInfo: { deviceId: DEVICE_ID, buildInfo, gcmRegistrationId: null },
  connectionCode: null,
} as const;
/** A register's API key: 192 random bits, base64url (shared/auth/api-keys.ts). */
const API_KEY = 'Xq3vB9kLm2TzR7wYc4NpH8sJd6FgA1eU';
const ACTIVATION_ID = 118;
const ACTIVATION_ISSUED = 1735722000000;
/** The seller's contact details v33's activation answers name. */
const sellerContact = {
  address: 'Swedenborgsgatan 1, 118 48 Stockholm',
  zip: '118 48',
  city: 'Stockholm',
  phone: '+46 8 123 456 78',
};
/** KASSA1's signed activation code (docs/conventions.md §11). */
const signedCode = {
  activationInfoVersion: 2,
  activationDescriptorInfo: JSON.stringify({
    activationId: ACTIVATION_ID,
    status: 'WORKING',
    issued: ACTIVATION_ISSUED,
    country: 'SE',
    corporateId: CORPORATE_ID,
    sellerName: 'Café Lindgren',
    cashRegisterName: REGISTER,
    applicationPackage: APP,
    productionNumber: PRODUCTION_NUMBER,
    validFrom: VALID_FROM,
    validTo: VALID_TO,
    features: ['VOUCHERS', 'CONTROL_UNIT'],
    controlUnitLocation: 'REMOTE',
    controlUnitSerial: CU_SERIAL,
  }),
  signature: 'MEYCIQDQiKIS3IXpcji/dULOmv1x6ZifWSXmgqLeAxsG2ZjbNQIhAJ1lJiZ6XZkzXcWDSZ28gW4rihiw+70nCxE+BMQhIwxw',
  publicKeyFileName: 'activation-key-17531f8c1e488206.pem',
};
/** KASSA1's registration, seller and installation as the activation view shows them (v26 and v33). */
const registrationAdvanced = {
  registrationInfo: {
    id: 54,
    cashRegisterName: REGISTER,
    country: 'SE',
    corporateId: CORPORATE_ID,
    productionNumber: PRODUCTION_NUMBER,
  },
  sellerInfo: { name: 'Café Lindgren', country: 'SE', corporateId: CORPORATE_ID },
  installationAdvancedInfo: {
    id: 61,
    registrationDate: ACTIVATION_ISSUED,
    deviceId: DEVICE_ID,
    applicationPackage: APP,
    productionNumber: PRODUCTION_NUMBER,
    gcmRegistrationId: null,
    gcmUnsubscribeDate: null,
    programVersion: '3.4.1',
    buildInfoes: Object.entries(buildInfo).map(([name, value]) => ({ name, value, installation: PRODUCTION_NUMBER })),
  },
};
const connectionInstallation = {
  deviceId: DEVICE_ID,
  buildInfo,
  applicationPackage: APP,
  gcmRegistrationId: null,
  productionNumber: PRODUCTION_NUMBER,
} as const;
const activationUpdate = {
  status: null,
  validFrom: VALID_FROM,
  validTo: VALID_TO,
  contactInfo: contact,
  comment: 'Kassa vid disken',
};
const applicationDescription: BodyTypes['applicationDescription'] = {
  applicationPackage: APP,
  productionNumberPrefix: 'KB',
  controlUnitRequired: true,
  name: 'Kassabolaget Kassa',
  softwareVendor: 7,
  autoActivationCondition: 'NO_FEATURES',
  corporateIdValidationMethod: 'VALIDATE_SWEDISH',
};
const restaurantV15: BodyTypes['restaurantV15'] = {
  country: 'SE',
  corporateId: CORPORATE_ID,
  name: 'Café Lindgren',
  city: 'Stockholm',
  address: 'Swedenborgsgatan 1',
  phone: '+46 8 123 456 78',
  workHours: 'Mån-fre 7-18, lör 9-16',
  description: 'Kaffe och bullar vid Mariatorget.',
  averageBill: 7500,
  menu: [{ name: 'Fika', products: ['kaffe', 'kanelbulle'], images: ['fika.jpg'] }],
  images: ['cafe.jpg'],
  custom: null,
};

/** Every request body's examples, by validator (schemas/index.ts `bodySchemas`). */
export const bodyExamples: { readonly [N in BodySchemaName]: Named<BodyTypes[N]> } = {
  tax: {
    moms12: {
      summary: 'Moms 12 % (food and drink served)',
      value: { identifier: 'moms-12', vat: 12, name: 'Moms 12', custom: null },
    },
    moms25: { summary: 'Moms 25 %', value: { identifier: 'moms-25', vat: 25, name: 'Moms 25', custom: null } },
  },
  categoryV15: { drinks: { summary: 'A category', value: { identifier: 'drycker', name: 'Drycker' } } },
  category: {
    drinks: { summary: 'A category with its colour (ARGB)', value: { identifier: 'drycker', name: 'Drycker', color: -7650029 } },
  },
  product: {
    coffee: {
      summary: 'Coffee at 16,40 SEK with Moms 12',
      value: {
        identifier: 'kaffe',
        name: 'Kaffe',
        barcode: '7310865004703',
        netto: 1464,
        tax: 'moms-12',
        salesUnit: 'Piece',
        countedInPrice: true,
        description: 'Bryggkaffe, påtår ingår.',
        custom: null,
      },
    },
  },
  commodityV15: {
    coffee: {
      summary: 'Coffee in Drinks',
      value: { identifier: 'kaffe-drycker', product: 'kaffe', category: 'drycker', custom: null },
    },
  },
  commodity: {
    coffee: {
      summary: 'Coffee in Drinks',
      value: { identifier: 'kaffe-drycker', product: 'kaffe', category: 'drycker', custom: null, color: null },
    },
  },
  keyboard: {
    counter: {
      summary: 'The counter keyboard',
      value: { identifier: 'disk', name: 'Disken', width: 4, height: 5, deviceFormFactor: 'TABLET_SMALL', custom: null },
    },
  },
  keyboardEntry: {
    coffee: {
      summary: 'A coffee key',
      value: {
        identifier: 'disk-kaffe',
        product: 'kaffe',
        keyboard: 'disk',
        subKeyboard: null,
        positionX: 0,
        positionY: 0,
        width: 1,
        height: 1,
        keyAction: 'Product',
        label: 'Kaffe',
        custom: null,
      },
    },
  },
  order: {
    table: {
      summary: 'Two coffees and a cinnamon bun',
      value: {
        treasurerName: 'Anna',
        orderItems: [
          { productIdentifier: 'kaffe', productCustomization: 'Med havremjölk', delta: 2, deltaUnit: true },
          { productIdentifier: 'kanelbulle', productCustomization: null, delta: 1, deltaUnit: true },
        ],
      },
    },
  },
  precept: {
    kitchen: {
      summary: 'A kitchen ticket for table 4',
      value: {
        identifier: 'bong-118',
        treasurerName: 'Anna',
        preceptItems: [{ productCustomization: 'Kanelbulle, värmd', delta: 1 }],
        table: '4',
        created: SALE_TIME,
        status: 'NEW',
        message: null,
        order: null,
      },
    },
  },
  booking: {
    table: {
      summary: 'A table for four',
      value: {
        identifier: 'bokning-2025-03-15-1',
        bookingDate: 1742036400000,
        persons: 4,
        description: 'Födelsedagsfika',
        contactInfo: { name: 'Erik Svensson', phone: '+46 70 123 45 67', email: 'erik.svensson@example.se' },
      },
    },
  },
  treasurer: {
    anna: {
      summary: 'A cashier',
      value: { identifier: 'anna', name: 'Anna Lindgren', ssn: null, custom: null, user: null, pin: '4711' },
    },
  },
  sellerV15: { cafe: { summary: 'Café Lindgren', value: sellerV15 } },
  sellerV26: { cafe: { summary: 'Café Lindgren, with opening hours and currency', value: sellerV26 } },
  sellerV33: {
    cafe: {
      summary: 'Café Lindgren, with opening hours, currency and postal code',
      value: { ...sellerV26, protectedHeaders: null, zip: '118 48' },
    },
  },
  productionNumberOrder: {
    tablet: {
      summary: 'A tablet asks for its production number',
      value: { deviceId: DEVICE_ID, buildInfo, applicationPackage: APP, gcmRegistrationId: null },
    },
  },
  activationOrder: {
    register: {
      summary: 'KASSA1 orders its activation',
      value: {
        installationOrderInfo: { deviceId: DEVICE_ID, buildInfo, applicationPackage: APP, gcmRegistrationId: null },
        productionNumber: PRODUCTION_NUMBER,
        country: 'SE',
        corporateId: CORPORATE_ID,
        companyName: 'Café Lindgren',
        contactInfo: contact,
        activationDetailsInfo: {
          validFrom: VALID_FROM,
          validTo: VALID_TO,
          features: ['SYNCRONIZATION', 'SUPPORT'],
          controlUnitLocation: 'REMOTE',
          controlUnitSerial: CU_SERIAL,
        },
        deviceLocation: { address: 'Swedenborgsgatan 1', city: 'Stockholm', postalCode: '118 48' },
        cashRegisterName: REGISTER,
        comment: null,
      },
    },
  },
  activationAdvancedV26: {
    register: {
      summary: 'Activate KASSA1 with a control unit',
      value: { ...activationAdvanced, features: ['SYNCRONIZATION', 'CONTROL_UNIT'] },
    },
  },
  activationAdvancedV33: {
    register: {
      summary: 'Activate KASSA1 with a control unit',
      value: {
        ...activationAdvanced,
        features: ['SYNCHRONIZATION', 'CONTROL_UNIT'],
        registrationGeolocation: { city: 'Stockholm', postalCode: '118 48' },
        installationCreationInfo: { ...activationAdvanced.installationCreationInfo, programVersion: '3.4.1' },
      },
    },
  },
  connectionV26: {
    register: {
      summary: 'The tablet connects with its activation code',
      value: { installation: connectionInstallation, activationCode: 'K7QX-2M9P-4TZC' },
    },
  },
  connectionV33: {
    register: {
      summary: 'The tablet connects with its activation code',
      value: { installation: { ...connectionInstallation, programVersion: '3.4.1' }, activationCode: 'K7QX-2M9P-4TZC' },
    },
  },
  nameExistence: { register: { summary: 'Is KASSA1 taken?', value: { corporateId: CORPORATE_ID, cashRegisterName: REGISTER } } },
  nameExistenceWithCountry: {
    register: { summary: 'Is KASSA1 taken?', value: { country: 'SE', corporateId: CORPORATE_ID, cashRegisterName: REGISTER } },
  },
  activationStatusChange: { activate: { summary: 'Activate', value: { status: 'ACTIVE' } } },
  activationUpdateV15: {
    extend: { summary: 'Extend the period, with synchronization', value: { ...activationUpdate, features: ['SYNCRONIZATION'] } },
  },
  activationUpdateV26: {
    extend: {
      summary: 'Extend the period, with synchronization',
      value: { ...activationUpdate, features: ['SYNCRONIZATION', 'CONTROL_UNIT'] },
    },
  },
  activationUpdateV33: {
    extend: {
      summary: 'Extend the period, with synchronization',
      value: { ...activationUpdate, features: ['SYNCHRONIZATION', 'CONTROL_UNIT'] },
    },
  },
  userV15: {
    owner: {
      summary: "The café's owner",
      value: { username: 'anna', email: 'anna@cafelindgren.se', role: 'SELLER_ADMIN', softwareVendor: null, password: null },
    },
  },
  user: {
    owner: {
      summary: "The café's owner",
      value: { username: 'anna', email: 'anna@cafelindgren.se', role: 'ROLE_REGULAR_USER', softwareVendor: null },
    },
  },
  newUser: {
    owner: {
      summary: "The café's owner",
      value: {
        username: 'anna',
        email: 'anna@cafelindgren.se',
        role: 'ROLE_REGULAR_USER',
        softwareVendor: null,
        password: 'kanelbulle-4711',
      },
    },
  },
  passwordChange: {
    own: { summary: 'A user changes its password', value: { oldPassword: 'kanelbulle-4711', newPassword: 'semla-2025-feb' } },
  },
  softwareVendor: {
    vendor: { summary: 'A register vendor', value: { name: 'Kassabolaget AB', supportEmail: 'support@kassabolaget.se' } },
  },
  applicationDescription: { app: { summary: 'A register app that needs a control unit', value: applicationDescription } },
  applicationDescriptionV33: {
    app: {
      summary: 'A register app that needs a control unit',
      value: { ...applicationDescription, geolocation: { city: 'Göteborg', postalCode: '411 04' } },
    },
  },
  restaurantV15: { cafe: { summary: 'Café Lindgren', value: restaurantV15 } },
  restaurant: {
    cafe: { summary: 'Café Lindgren, with opening hours', value: { ...restaurantV15, averageBill: 7500, workHoursWeek } },
  },
  hairdresser: { salon: { summary: 'A salon', value: { country: 'SE', corporateId: CORPORATE_ID, custom: null } } },
  saleV15: { sale: { summary: 'A sale of 44,80 SEK paid by card, receipt 42', value: saleV15 } },
  saleV26: { sale: { summary: 'A sale of 44,80 SEK paid by card (Card), receipt 42', value: saleV26 } },
  saleV33: {
    sale: {
      summary: 'A sale of 44,80 SEK paid by card (EmvStandalone), receipt 42',
      value: { ...saleV26, payments: [{ paymentType: 'EmvStandalone', amount: 4480, paymentState: 'APPROVED' }] },
    },
  },
  day: {
    open: { summary: 'Open a day', value: {} },
    close: { summary: 'Close the open day, naming the cashier', value: { opened: false, closedDayTreasurer: 'anna' } },
  },
  balanceChange: { float: { summary: 'Put the 500 SEK float in the drawer', value: { amount: 50000, action: 'DEPOSIT' } } },
  salesCsvExportOrder: {
    year: {
      summary: "A year of the chain's sales",
      value: { from: 1767222000000, to: 1798757999999, fileName: 'sales-2026' },
    },
    register: { summary: "The last 30 days of one register's sales", value: { period: 30, cashRegisterName: 'Kassa 1' } },
  },
  journalExportOrder: {
    year: { summary: 'The year 2026 (Stockholm time)', value: { from: 1767222000000, to: 1798757999999 } },
    whole: { summary: 'The whole journal, until now', value: {} },
  },
  journalUpload: {
    drawer: { summary: 'The drawer was opened without a sale', value: { data: { event: 'DRAWER_OPENED', treasurer: 'anna' } } },
    login: { summary: 'Anna logged in', value: { type: 'LOGIN', created: 1767261600000, treasurer: 'anna', data: {} } },
    article: {
      summary: 'Anna registered 0,125 kg of cheese',
      value: {
        type: 'ARTICLE_REGISTERED',
        created: 1767261660000,
        treasurer: 'anna',
        data: {
          lineId: '1',
          articleType: 'GOODS',
          group: 'Ost',
          articleNumber: '7311',
          name: 'Västerbottensost',
          quantity: 1,
          amount: '0,125',
          unit: 'kg',
          unitPrice: 39900,
          price: 4988,
          discounts: [{ name: 'Stammis', amount: 500 }],
          vatRate: 1200,
          vat: 481,
        },
      },
    },
  },
  emailMessage: {
    support: {
      summary: 'A register writes to its vendor',
      value: {
        contentType: 'text/plain',
        subject: 'Skrivaren på KASSA1 matar inte papper',
        body: 'Hej!\nKvittoskrivaren har slutat mata papper sedan i morse.\nAnna, Café Lindgren',
        attachments: [{ body: 'RmVsa29kIDE3', filename: 'printer.log', contentType: 'text/plain' }],
      },
    },
  },
  gatewayPayment: { sale: { summary: 'Charge 44,80 SEK', value: { amount: '44.80' } } },
  kdV15: { receipt: { summary: 'Register receipt 42 (44,80 SEK)', value: { ...kd, brutto: 4480, receiptNumber: 42 } } },
  kdV26: { receipt: { summary: 'Register receipt 42 (44,80 SEK)', value: { ...kd, receiptNumber: 42 } } },
  kdV33: {
    receipt: { summary: 'Register receipt 42 (44,80 SEK)', value: { ...kd, receiptNumber: 42 } },
    named: {
      summary: 'The same, naming the unit and the application',
      value: { ...kd, receiptNumber: 42, controlUnitSerial: CU_SERIAL, applicationPackage: APP },
    },
  },
};

/** What an entity's answer adds to its body: a v26/v33 sale shows its day. */
const viewExtras: Partial<Record<BodySchemaName, Readonly<Record<string, unknown>>>> = {
  saleV26: { day: 17 },
  saleV33: { day: 17 },
};

/**
 * An entity as the answer shows it: every field of its schema, null where the body has none (`present` in
 * shared/versions.ts), `deleted: false` where the schema has it. Undefined when the schema has no body example.
 */
export function viewExample(name: BodySchemaName): Example | undefined {
  const [example] = Object.values(bodyExamples[name] as Named<unknown>);
  const schema: { properties?: object } = bodySchemas[name];
  if (example === undefined || schema.properties === undefined) return undefined;
  const body = { ...(example.value as object), ...viewExtras[name] } as Record<string, unknown>;
  const value = Object.fromEntries(
    Object.keys(schema.properties).map((field) => [field, field === 'deleted' ? false : (body[field] ?? null)]),
  );
  return { summary: example.summary, value };
}

/** Examples of the response schemas (schemas/responses.ts) a register or an admin meets most. */
export const responseExamples: Partial<Record<keyof typeof responseSchemas, Example>> = {
  identifierResult: { summary: 'The identifier of the created entity', value: { identifier: 'kaffe' } },
  idResult: { summary: 'The number the server gave the record', value: { id: 7 } },
  versionResult: { summary: "The seller's current version", value: { version: 311, modificationApiVersion: 33 } },
  existsResult: { summary: 'The name is free', value: { exists: false } },
  amountResult: { summary: 'The cash balance: the 500 SEK float', value: { amount: 50000 } },
  sequenceResult: { summary: "The entry's place in the e-journal", value: { sequence: 1289 } },
  productionNumberResult: { summary: "The installation's production number", value: { productionNumber: PRODUCTION_NUMBER } },
  activationTokenResult: { summary: "The register's key", value: { activationSecurityToken: API_KEY } },
  activationAdvancedResultV26: {
    summary: 'The activation and its key',
    value: { apiKey: API_KEY, productionNumber: PRODUCTION_NUMBER, activationId: ACTIVATION_ID },
  },
  activationAdvancedResultV33: {
    summary: "The activation, its key and the seller's contact details",
    value: { apiKey: API_KEY, productionNumber: PRODUCTION_NUMBER, activationId: ACTIVATION_ID, ...sellerContact },
  },
  activationCode: { summary: "KASSA1's signed activation code", value: signedCode },
  connectionResultV26: {
    summary: 'The connected register: its signed code and key',
    value: { activationCodeInfo: signedCode, activationSecurityToken: API_KEY, activationId: ACTIVATION_ID },
  },
  activationV33: {
    summary: "KASSA1's activation, working, with its remote control unit",
    value: {
      activationInfo: {
        id: ACTIVATION_ID,
        status: 'WORKING',
        issued: ACTIVATION_ISSUED,
        controlUnitLocation: 'REMOTE',
        validFrom: VALID_FROM,
        validTo: VALID_TO,
        sellerName: 'Café Lindgren',
        controlUnitId: 7,
        controlUnitGeolocation: { city: 'Stockholm', postalCode: '118 48' },
        contact,
        comment: 'Kassa vid disken',
        features: ['SYNCHRONIZATION', 'CONTROL_UNIT'],
      },
      controlUnitInfo: {
        id: 7,
        registrationDate: ACTIVATION_ISSUED,
        controlUnitLocation: 'REMOTE',
        serial: CU_SERIAL,
        geolocation: { city: 'Stockholm', postalCode: '118 48' },
        softwareVendor: 3,
      },
      registrationAdvancedInfo: registrationAdvanced,
      issued: ACTIVATION_ISSUED,
      registrationAdvanced,
    },
  },
  connectionResultV33: {
    summary: "The connected register: its key, installation and the seller's contact details",
    value: { apiKey: API_KEY, productionNumber: PRODUCTION_NUMBER, activationId: ACTIVATION_ID, ...sellerContact },
  },
  saleOverview: {
    summary: 'The sale of 44,80 SEK, briefly',
    value: {
      id: SALE_ID,
      close: SALE_TIME,
      brutto: 4480,
      receiptNumber: 42,
      cashRegisterName: REGISTER,
      vatSum: 591,
      treasurer: [{ identifier: 'anna' }],
    },
  },
  dayMinified: { summary: 'A day, briefly', value: { id: 17, date: 20250314 } },
  dayView: {
    summary: "KASSA1's 17th day, closed by Anna",
    value: {
      id: 17,
      date: 20250314,
      dayNumber: 17,
      opened: false,
      reportPrinted: true,
      open: DAY_OPEN,
      close: DAY_CLOSE,
      cash: 50000,
      cashAtClose: 50000,
      grandTotal: 7245360,
      grandTotalRefund: 12800,
      closedDayTreasurer: 'anna',
      version: 1290,
      modified: DAY_CLOSE,
    },
  },
  report: {
    summary: "The Z report of KASSA1's 17th day: one sale of 44,80 SEK by card, a 500 SEK float",
    value: {
      type: 'Z',
      reportNumber: 17,
      produced: DAY_CLOSE + 60000,
      seller: {
        name: 'Café Lindgren',
        corporateId: CORPORATE_ID,
        address: 'Swedenborgsgatan 1, 118 48 Stockholm',
        country: 'SE',
      },
      register: { cashRegisterName: REGISTER, productionNumber: PRODUCTION_NUMBER, controlUnitSerial: CU_SERIAL },
      dayNumber: 17,
      date: 20250314,
      open: DAY_OPEN,
      close: DAY_CLOSE,
      sales: { count: 1, brutto: 4480, vat: 591, netto: 3889 },
      refunds: { count: 0, brutto: 0, vat: 0, netto: 0 },
      netSales: { brutto: 4480, vat: 591, netto: 3889 },
      salesPerCategory: [
        { category: 'Drycker', count: 2, brutto: 3280, vat: 351 },
        { category: 'Övrigt', count: 1, brutto: 1200, vat: 240 },
      ],
      vatPerRate: [
        { vatRate: 1200, count: 1, netto: 2929, vat: 351, brutto: 3280 },
        { vatRate: 2500, count: 1, netto: 960, vat: 240, brutto: 1200 },
      ],
      paymentTypes: [{ paymentType: 'EmvStandalone', count: 1, amount: 4480, vat: 591 }],
      goods: { pieces: 3, otherUnits: 0 },
      services: { pieces: 0, otherUnits: 0 },
      training: { count: 0, brutto: 0 },
      receipts: 1,
      unprinted: 0,
      drawerOpenings: 1,
      drawerOpeningsWithoutSale: 1,
      copies: { count: 0, brutto: 0 },
      proforma: { count: 0, brutto: 0 },
      discounts: 0,
      cancelled: { count: 0, brutto: 0 },
      otherReductions: { count: 0, brutto: 0 },
      unfinished: { count: 0, brutto: 0 },
      cash: { deposits: 50000, depositCount: 1, withdrawals: 0, withdrawalCount: 0, cashPayments: 0, expected: 50000 },
      grandTotals: { sales: 7245360, refunds: 12800, net: 7232560 },
    },
  },
  modifications: {
    summary: 'Taxes and products changed since version 305, one product deleted',
    value: {
      from: 305,
      to: 311,
      version: 311,
      modifications: [
        { entity: 'taxes', changed: 1, deleted: 0 },
        { entity: 'products', changed: 4, deleted: 1 },
      ],
    },
  },
  imageRecord: {
    summary: "A product's image, in its second version",
    value: { deleted: false, filename: 'kaffe.png', version: 309, entityIdentifier: 'kaffe', modified: VALID_FROM + 86400000 },
  },
  gatewayResult: {
    summary: 'The payment was accepted',
    value: { acquirer: 'Nets', declineReason: null, status: 'ACCEPT', transactionId: 'b1e7c3a0-5d2f-4c8e-9a61-0f3d2e4b7c95' },
  },
  controlUnitInfo: {
    summary: "The café's control unit",
    value: {
      id: 3,
      registrationDate: VALID_FROM,
      controlUnitLocation: 'REMOTE',
      serial: CU_SERIAL,
      geolocation: { city: 'Stockholm', postalCode: '118 48' },
      softwareVendor: 7,
    },
  },
  cloudUnitStatus: {
    summary: 'A register enrolled with the cloud system, active',
    value: {
      serial: 'CCU00000000000001',
      system: 'infrasec',
      controlServerId: 'TCSLOCAL000000001',
      registerAddress: 'Regeringsgatan 67 111 56 Stockholm',
      enrolled: VALID_FROM,
      reachable: true,
      active: true,
      loginCount: 42,
      lastLogin: '2026-03-14 12:00:05',
      message: null,
    },
  },
  bridgeStatus: {
    summary: "The unit's bridge, online",
    value: {
      serial: CU_SERIAL,
      thingName: `cu-${CU_SERIAL}`,
      provisioned: true,
      provisionedAt: VALID_FROM,
      lastSeen: SALE_TIME - 20000,
      online: true,
      bridgeVersion: '1.4.0',
    },
  },
  kdResult: {
    summary: "The unit's control code for receipt 42",
    value: { response: CONTROL_CODE, controlUnitSerial: CU_SERIAL },
  },
  kdLogRecord: {
    summary: 'Receipt 42, signed',
    value: {
      activation: 118,
      brutto: 4480,
      kdDate: SALE_TIME,
      vatRateToSum: kd.vatRateToSum,
      receiptNumber: 42,
      printType: 'Normal',
      refund: false,
      errorMessage: null,
      errorStackTrace: null,
      sellerId: SELLER_ID,
      cashRegisterName: REGISTER,
      controlUnitSerial: CU_SERIAL,
      softwareVendor: 7,
      outcome: 'SIGNED',
      returnCode: 0,
      response: CONTROL_CODE,
      created: SALE_TIME + 850,
    },
  },
  registerStats: { summary: "KASSA1's sales today", value: { cashRegisterName: REGISTER, total: 4480 } },
  salesStats: {
    summary: "Today's sales",
    value: {
      total: 4480,
      amountOfSales: 1,
      amountOfProducts: 3,
      dateGroupingUnit: 'DAY',
      bruttoStats: { '2025-03-14T00:00:00.000+0100': 4480 },
    },
  },
};

/** An error body as the service gives it: made by the one mapper from the error's details (docs/conventions.md §3). */
const error = (
  exception: Exception,
  code: ErrorCode | null,
  message: string,
  details: Record<string, unknown> = {},
): Example<ErrorBody> => ({
  summary: code ?? exception,
  value: errorBody(new ApiError<Exception>(exception, code, message, { details })),
});

/**
 * Error bodies by exception (docs/conventions.md §3), with the messages the service gives. An error response shows,
 * for each exception it names, the first of that exception's examples whose code it lists.
 */
export const errorExamples: Readonly<Record<Exception, readonly Example<ErrorBody>[]>> = {
  InvalidETagFormat: [error('InvalidETagFormat', null, 'An entity tag must look like "<version>"', { actualValue: 'W/"12"' })],
  NonUnique: [
    error('NonUnique', null, 'vatRateToSum names the rate 25 % twice'),
    error('NonUnique', 'ORDER_ALREADY_HAS_PRECEPT', 'The order has a precept already'),
  ],
  MessageNotReadable: [error('MessageNotReadable', null, 'The request body is not valid JSON')],
  HttpHeaderMissing: [error('HttpHeaderMissing', null, 'Header Content-Type is required', { header: 'Content-Type' })],
  RequestParameterMissing: [error('RequestParameterMissing', null, 'Query parameter from is required', { parameter: 'from' })],
  TypeMismatch: [
    error('TypeMismatch', null, 'Parameter maxResults must be an integer', { parameter: 'maxResults', actualValue: 'ten' }),
  ],
  ValueNotValid: [
    error('ValueNotValid', 'SIZE_SHOULD_BE_IN_RANGE', 'name has the wrong size', {
      field: 'name',
      actualValue: 0,
      sizeMin: 1,
      sizeMax: 32,
    }),
  ],
  Unauthorized: [error('Unauthorized', null, 'Credentials are required')],
  Forbidden: [
    error('Forbidden', 'WRONG_USERNAME_OR_PASSWORD', 'Wrong username, password or API key'),
    error('Forbidden', 'INSUFFICIENT_ACCESS_RIGHTS', 'Insufficient access rights'),
  ],
  NotFound: [error('NotFound', null, `Seller ${SELLER_ID} does not exist`)],
  ReferenceNotFound: [
    error('ReferenceNotFound', null, 'Tax moms-6 does not exist'),
    error('ReferenceNotFound', 'DAY_IS_CLOSED', 'Day 17 is closed'),
    error('ReferenceNotFound', 'TREASURER_IS_JOINED_TO_USER_ALREADY', 'The treasurer is joined to a user already; disjoin first'),
    error(
      'ReferenceNotFound',
      'USER_HAS_TREASURER_WITH_SAME_SELLER_ID_ALREADY',
      'The user holds a treasurer of this seller already',
    ),
  ],
  RequestMethodNotSupported: [error('RequestMethodNotSupported', null, 'Method POST is not supported here')],
  VersionConflict: [
    error('VersionConflict', null, 'kaffe exists already'),
    error('VersionConflict', 'DAY_IS_NOT_CLOSED', 'Day 17 is not closed'),
  ],
  // The specific refusals first, the pipeline's own (negative and too large queries) last.
  InconsistentData: [
    error('InconsistentData', 'SALE_TOTALS_INCONSISTENT', 'brutto 4490 is not the sum 4480 of vatRateSums[].brutto', {
      relation: 'brutto = sum(vatRateSums[].brutto)',
    }),
    error('InconsistentData', 'LOCAL_AND_SERVER_VERSIONS_INCONSISTENCY', "Version 320 is ahead of the server's 311"),
    error('InconsistentData', 'URL_AND_BODY_IDENTIFIERS_MISMATCH', 'The identifiers of the URL and the body differ'),
    error('InconsistentData', 'SELLER_HAS_NOT_REGISTRATION', 'The seller has no register KASSA9'),
    error('InconsistentData', 'SERVER_CANT_BE_REMOVED', `Activations still name control unit ${CU_SERIAL}`, {
      activationIds: [118],
    }),
    error('InconsistentData', 'QUERY_PARAM_CANT_BE_NEGATIVE', 'firstResult must not be negative'),
    error('InconsistentData', 'SERVER_IS_OVERLOADED', 'maxResults must be at most 1000'),
  ],
  CashRegisterNameIsNotUnique: [error('CashRegisterNameIsNotUnique', null, `The register name ${REGISTER} is taken`)],
  OutdatedVersion: [error('OutdatedVersion', null, 'Versions before 120 are purged: synchronize from 0')],
  RequestEntityTooLarge: [error('RequestEntityTooLarge', null, 'The request body exceeds 1048576 bytes', { sizeMax: 1048576 })],
  UnprocessableEntity: [
    error('UnprocessableEntity', 'PROHIBITED_ORDER_STATUS_CHANGE', 'A Complete sale cannot become Open'),
    error('UnprocessableEntity', 'ENTITY_HAS_REFERENCED_DATA', 'Tax moms-12 is referenced by product kaffe'),
    error('UnprocessableEntity', 'ACTIVATION_IS_ACTIVE_ALREADY', 'Activation 118 is active already'),
    error('UnprocessableEntity', 'APPLICATION_PACKAGES_MISMATCH', "The application differs from the activation's"),
    error('UnprocessableEntity', 'APP_DESC_HAS_REFERENCED_DATA', `Application ${APP} still has installations`),
    error('UnprocessableEntity', 'SOFTWARE_VENDOR_HAS_REFERENCED_DATA', 'Software vendor 7 still has applications'),
    error('UnprocessableEntity', 'CU_HAS_REFERENCED_DATA', `Activations name control unit ${CU_SERIAL}`),
    error(
      'UnprocessableEntity',
      'CONTROL_UNIT_IS_CONNECTED_ALREADY',
      `Control unit ${CU_SERIAL} is connected to vendor 7 already`,
    ),
    error('UnprocessableEntity', 'CONTROL_UNIT_IS_DISCONNECTED_ALREADY', `Control unit ${CU_SERIAL} is connected to no vendor`),
    error('UnprocessableEntity', 'DAY_IS_CLOSED', 'The day closed at 1767283200000: an event of 1767279600000 would change it'),
  ],
  DayClosed: [error('DayClosed', 'DAY_IS_CLOSED', 'Day 17 is closed')],
  DayNotClosed: [error('DayNotClosed', 'DAY_IS_NOT_CLOSED', 'Day 17 is not closed')],
  ReceiptNotPrinted: [error('ReceiptNotPrinted', 'RECEIPT_IS_NOT_PRINTED', 'The receipt of the sale is not printed')],
  ReceiptAlreadyPrinted: [error('ReceiptAlreadyPrinted', 'RECEIPT_IS_PRINTED_ALREADY', 'Receipt 42 is printed already')],
  InternalServerError: [error('InternalServerError', null, 'The request could not be completed; it has been logged')],
  ControlUnitReceipt: [error('ControlUnitReceipt', null, 'The control unit refused the receipt', { returnCode: 5 })],
  ControlUnitUnavailable: [error('ControlUnitUnavailable', null, `Control unit ${CU_SERIAL} did not answer in time`)],
  ControlUnitCommunication: [error('ControlUnitCommunication', null, `The line to control unit ${CU_SERIAL} kept failing`)],
  ServiceUnavailable: [error('ServiceUnavailable', null, 'The service is busy; try again')],
};
