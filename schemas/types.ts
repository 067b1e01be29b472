/** TypeScript types derived from the schemas, so validation and types cannot drift apart. */
import type { FromSchema } from 'json-schema-to-ts';
import type { bodySchemas, BodySchemaName, sharedSchemas } from './index.ts';

// `if`/`then` too: the e-journal upload is a device event or, with a `type`, one of the register events.
type References = { references: [...typeof sharedSchemas]; parseIfThenElseKeywords: true };

/**
 * The body type of every request schema, keyed like `bodySchemas`: the generated validators are
 * typed through it (`LazyValidator<BodyTypes['tax']>`), so a new schema cannot lack its type.
 */
export type BodyTypes = { [K in BodySchemaName]: FromSchema<(typeof bodySchemas)[K], References> };

export type TaxBody = BodyTypes['tax'];
export type CategoryBody = BodyTypes['category'];
export type ProductBody = BodyTypes['product'];
export type CommodityBody = BodyTypes['commodity'];
export type KeyboardBody = BodyTypes['keyboard'];
export type KeyboardEntryBody = BodyTypes['keyboardEntry'];
export type OrderBody = BodyTypes['order'];
export type PreceptBody = BodyTypes['precept'];
export type BookingBody = BodyTypes['booking'];
export type TreasurerBody = BodyTypes['treasurer'];
export type SellerV15Body = BodyTypes['sellerV15'];
export type SellerV26Body = BodyTypes['sellerV26'];
export type SellerV33Body = BodyTypes['sellerV33'];

export type ProductionNumberOrderBody = BodyTypes['productionNumberOrder'];
export type ActivationOrderBody = BodyTypes['activationOrder'];
export type ActivationAdvancedBody = BodyTypes['activationAdvancedV33'];
export type ConnectionBody = BodyTypes['connectionV33'];
export type NameExistenceBody = BodyTypes['nameExistence'];
export type ActivationStatusChangeBody = BodyTypes['activationStatusChange'];
export type ActivationUpdateBody = BodyTypes['activationUpdateV33'];

export type UserV15Body = BodyTypes['userV15'];
export type UserBody = BodyTypes['user'];
export type NewUserBody = BodyTypes['newUser'];
export type PasswordChangeBody = BodyTypes['passwordChange'];

export type SoftwareVendorBody = BodyTypes['softwareVendor'];
export type ApplicationDescriptionBody = BodyTypes['applicationDescriptionV33'];

export type RestaurantV15Body = BodyTypes['restaurantV15'];
export type RestaurantBody = BodyTypes['restaurant'];
export type HairdresserBody = BodyTypes['hairdresser'];

export type SaleV15Body = BodyTypes['saleV15'];
export type SaleV26Body = BodyTypes['saleV26'];
export type SaleV33Body = BodyTypes['saleV33'];
/** A sale as any version writes it. */
export type SaleBody = SaleV15Body | SaleV26Body | SaleV33Body;
export type DayBody = BodyTypes['day'];
export type BalanceChangeBody = BodyTypes['balanceChange'];
export type JournalUploadBody = BodyTypes['journalUpload'];
export type JournalExportOrderBody = BodyTypes['journalExportOrder'];
export type SalesCsvExportOrderBody = BodyTypes['salesCsvExportOrder'];

export type EmailMessageBody = BodyTypes['emailMessage'];
export type GatewayPaymentBody = BodyTypes['gatewayPayment'];

export type KdV15Body = BodyTypes['kdV15'];
export type KdV26Body = BodyTypes['kdV26'];
export type KdV33Body = BodyTypes['kdV33'];
/** A kd request as any version sends it. */
export type KdBody = KdV15Body | KdV26Body | KdV33Body;
