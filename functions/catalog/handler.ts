import { httpApi } from '#shared/http/api.ts';
import type { Route } from '#shared/http/router.ts';
import { commodityAdvancedRoutes } from './advanced.ts';
import { bookings, categories, commodities, keyboardEntries, keyboards, precepts, products, treasurers } from './entities.ts';
import { taxes } from '#shared/domain/taxes.ts';
import { catalogRoutes } from './entity.ts';
import { modificationsRoute } from './modifications.ts';
import { orderRoutes } from './orders.ts';
import { treasurerUserRoutes } from './treasurers.ts';

/** The seller's catalog (spec 4.5) and its sync (`/modifications`). */
export const routes: Route[] = [
  ...catalogRoutes(taxes, {
    one: 'tax',
    many: 'taxes',
    what: 'A tax is a VAT rate in percent under a name, which products name.',
  }),
  ...catalogRoutes(categories, {
    one: 'category',
    many: 'categories',
    what: 'A category groups products on the register (commodities link them), with a name and, from v26, a colour.',
  }),
  ...catalogRoutes(products, {
    one: 'product',
    many: 'products',
    what: 'A product is what a register sells: its name, barcode, net price in hundredths, tax and sales unit.',
  }),
  ...catalogRoutes(commodities, {
    one: 'commodity',
    many: 'commodities',
    what: 'A commodity links a product to a category, as the register shows it.',
  }),
  ...catalogRoutes(keyboards, {
    one: 'keyboard',
    many: 'keyboards',
    what: "A keyboard (v15) is a grid of keys on the register's screen, sized for a device form factor.",
  }),
  ...catalogRoutes(keyboardEntries, {
    one: 'keyboard entry',
    many: 'keyboard entries',
    what: 'A keyboard entry (v15) is one key of a keyboard: its place, size, label and the product or action it stands for.',
  }),
  ...catalogRoutes(precepts, {
    one: 'precept',
    many: 'precepts',
    what: 'A precept is an order passed on for preparation (a kitchen ticket): its treasurer, items, table, status and message.',
  }),
  ...catalogRoutes(bookings, {
    one: 'booking',
    many: 'bookings',
    what: "A booking is a reservation: its date, the number of persons, a description and the guest's contact.",
  }),
  ...catalogRoutes(treasurers, {
    one: 'treasurer',
    many: 'treasurers',
    what: 'A treasurer is a person who works the registers: a name, a personal id number, a PIN and the user it may be joined to.',
  }),
  ...commodityAdvancedRoutes,
  ...orderRoutes,
  ...treasurerUserRoutes,
  modificationsRoute,
];

export const handler = httpApi(routes);
