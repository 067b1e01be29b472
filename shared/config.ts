/**
 * Configuration, read once at module load. A missing required variable fails the cold start
 * with the variable's name rather than failing a request later.
 */
function required(name: string): string {
  const value = process.env[name];
  if (value === undefined || value === '') throw new Error(`Environment variable ${name} is required`);
  return value;
}

function integer(name: string, fallback: number, least = 1): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < least) {
    throw new Error(`Environment variable ${name} must be an integer of at least ${least}`);
  }
  return value;
}

/** `on` or unset (`off` and empty too): a switch set when packaging. */
function onOff(name: string): boolean {
  const raw = process.env[name];
  if (raw === undefined || raw === '' || raw === 'off') return false;
  if (raw === 'on') return true;
  throw new Error(`Environment variable ${name} must be on or off`);
}

export interface Config {
  /** The single DynamoDB table. */
  tableName: string;
  /** Local endpoint of DynamoDB Local; undefined in AWS. */
  dynamoEndpoint: string | undefined;
  region: string;
  /** Largest JSON request body accepted, in bytes (413 above). */
  maxJsonBodyBytes: number;
  /** Largest response body we send; above it a list answers SERVER_IS_OVERLOADED (Lambda caps responses at 6 MB). */
  maxResponseBytes: number;
  /** Days a deletion's tombstone is kept for diffs; a register that last synced before is told to resync (410). */
  tombstoneRetentionDays: number;
  /** How long a process keeps the maintenance switch it read, in seconds; 0 reads it on every request. */
  maintenanceCacheSeconds: number;
  /**
   * `MAINTENANCE=on` when packaging: every route answers 503 whatever the switch item says, for a deploy whose table is
   * not ready yet (the layout migration's copy, docs/operations.md).
   */
  maintenanceForced: boolean;
  /** `ACTIVATION_SIGNER` as set (`local` or `kms`); checked by `activationSigning()` when the signer is first used. */
  activationSigner: string | undefined;
  /** `ACTIVATION_KEY_FILE`: PKCS#8 PEM of the local signer's EC P-256 key. */
  activationKeyFile: string | undefined;
  /** `ACTIVATION_KMS_KEY_ID`: id, ARN or alias of the KMS signing key. */
  activationKmsKeyId: string | undefined;
  /** `IMAGE_STORE` as set (`s3` or `local`); checked by `imageStorage()` when the image store is first used. */
  imageStore: string | undefined;
  /** `IMAGE_BUCKET`: the S3 bucket of image bytes. */
  imageBucket: string | undefined;
  /** `IMAGE_DIR`: the local folder of image bytes. */
  imageDir: string | undefined;
  /** `MAIL_TRANSPORT` as set (`ses` or `outbox`); checked by `mailSending()` when the first message is sent. */
  mailTransport: string | undefined;
  /** `MAIL_SENDER`: the From address of every message (a verified SES identity in AWS). */
  mailSender: string | undefined;
  /** `MAIL_OUTBOX_DIR`: the local folder of `.eml` files. */
  mailOutboxDir: string | undefined;
  /** `GATEWAY_PROVIDER` as set (`https` or `simulator`); checked by `paymentGateway()` on the first payment. */
  gatewayProvider: string | undefined;
  /** `GATEWAY_URL`: the payment provider's HTTPS endpoint. */
  gatewayUrl: string | undefined;
  /** `GATEWAY_SECRET`: the key the provider's answers are signed with (HMAC-SHA256). */
  gatewaySecret: string | undefined;
  /** `KD_TIMEOUT_MS`: how long a kd waits for its unit's reply (its deadline), in ms. */
  kdTimeoutMs: number;
  /** `KD_PUBLISHER` as set (`iot` or `mqtt`); checked by `kdPublishing()` when the first kd is published. */
  kdPublisher: string | undefined;
  /** `IOT_ENDPOINT`: the account's `iot:Data-ATS` endpoint (host name) the IoT data plane publishes through. */
  iotEndpoint: string | undefined;
  /** `MQTT_URL`: the local broker (`mqtt://127.0.0.1:<port>`). */
  mqttUrl: string | undefined;
  /** `DOCS_DIR`: the folder of the API reference pages the fallback function serves at /docs (local stack only). */
  docsDir: string | undefined;
  /**
   * The stage's cloud control-unit system (docs/conventions.md §27): `TCS_URL` signs receipts, `IDM_URL` enrolls
   * registers. Both unset: the stage has none, and a REMOTE order without a serial is refused.
   */
  tcsUrl: string | undefined;
  idmUrl: string | undefined;
  /** `CLOUD_CERTIFICATE_PARAMETER`: the SSM SecureString holding the client certificate (`{ "pfx", "passphrase" }`). */
  cloudCertificateParameter: string | undefined;
  /** `CLOUD_APPLICATION_ID`: the service's ApplicationID at the cloud system. */
  cloudApplicationId: string;
  /** `CLOUD_PARTNER_CODE` / `CLOUD_PARTNER_NAME`: the partner the system knows the service's registers under. */
  cloudPartnerCode: string;
  cloudPartnerName: string;
  /** `EXPORT_STORE` as set (`s3` or `local`); checked by `exportStorage()` when an export is first stored or fetched. */
  exportStore: string | undefined;
  /** `EXPORT_BUCKET`: the private S3 bucket of export files (infra/exports.yml). */
  exportBucket: string | undefined;
  /** `EXPORT_DIR`, `EXPORT_URL_BASE`, `EXPORT_URL_SECRET`: the local stack's folder of export files, its URL and key. */
  exportDir: string | undefined;
  exportUrlBase: string | undefined;
  exportUrlSecret: string | undefined;
  /** `EXPORT_WORKER_FUNCTION`: the Lambda function that writes export files (docs/conventions.md §28). */
  exportWorkerFunction: string | undefined;
  /** `LAMBDA_ENDPOINT`: where Lambda's API is served locally (serverless-offline's); undefined in AWS. */
  lambdaEndpoint: string | undefined;
}

let cached: Config | undefined;

/** The service configuration; read from the environment on first use, then kept. */
export function config(): Config {
  cached ??= {
    tableName: required('TABLE_NAME'),
    dynamoEndpoint: process.env.DYNAMODB_ENDPOINT || undefined,
    region: process.env.AWS_REGION ?? 'eu-north-1',
    maxJsonBodyBytes: integer('MAX_JSON_BODY_BYTES', 1_048_576),
    maxResponseBytes: integer('MAX_RESPONSE_BYTES', 5_500_000),
    tombstoneRetentionDays: integer('TOMBSTONE_RETENTION_DAYS', 90),
    maintenanceCacheSeconds: integer('MAINTENANCE_CACHE_SECONDS', 15, 0),
    maintenanceForced: onOff('MAINTENANCE'),
    // Optional here: only the functions that sign or serve the public key need them.
    activationSigner: process.env.ACTIVATION_SIGNER || undefined,
    activationKeyFile: process.env.ACTIVATION_KEY_FILE || undefined,
    activationKmsKeyId: process.env.ACTIVATION_KMS_KEY_ID || undefined,
    imageStore: process.env.IMAGE_STORE || undefined,
    imageBucket: process.env.IMAGE_BUCKET || undefined,
    imageDir: process.env.IMAGE_DIR || undefined,
    mailTransport: process.env.MAIL_TRANSPORT || undefined,
    mailSender: process.env.MAIL_SENDER || undefined,
    mailOutboxDir: process.env.MAIL_OUTBOX_DIR || undefined,
    gatewayProvider: process.env.GATEWAY_PROVIDER || undefined,
    gatewayUrl: process.env.GATEWAY_URL || undefined,
    gatewaySecret: process.env.GATEWAY_SECRET || undefined,
    kdTimeoutMs: integer('KD_TIMEOUT_MS', 5000),
    kdPublisher: process.env.KD_PUBLISHER || undefined,
    iotEndpoint: process.env.IOT_ENDPOINT || undefined,
    mqttUrl: process.env.MQTT_URL || undefined,
    docsDir: process.env.DOCS_DIR || undefined,
    tcsUrl: process.env.TCS_URL || undefined,
    idmUrl: process.env.IDM_URL || undefined,
    cloudCertificateParameter: process.env.CLOUD_CERTIFICATE_PARAMETER || undefined,
    cloudApplicationId: process.env.CLOUD_APPLICATION_ID || 'cash-register-backend',
    cloudPartnerCode: process.env.CLOUD_PARTNER_CODE || 'CR',
    cloudPartnerName: process.env.CLOUD_PARTNER_NAME || 'Cash register back end',
    exportStore: process.env.EXPORT_STORE || undefined,
    exportBucket: process.env.EXPORT_BUCKET || undefined,
    exportDir: process.env.EXPORT_DIR || undefined,
    exportUrlBase: process.env.EXPORT_URL_BASE || undefined,
    exportUrlSecret: process.env.EXPORT_URL_SECRET || undefined,
    exportWorkerFunction: process.env.EXPORT_WORKER_FUNCTION || undefined,
    lambdaEndpoint: process.env.LAMBDA_ENDPOINT || undefined,
  };
  return cached;
}

/** Where activation codes are signed (docs/conventions.md §11). */
export type ActivationSigning = { signer: 'local'; keyFile: string } | { signer: 'kms'; kmsKeyId: string };

type SigningSettings = Pick<Config, 'activationSigner' | 'activationKeyFile' | 'activationKmsKeyId'>;

/**
 * The activation signer's settings, checked: a missing or unknown value fails with the
 * variable's name, as a missing required variable does at cold start.
 */
export function activationSigning(settings: SigningSettings = config()): ActivationSigning {
  const { activationSigner: signer, activationKeyFile: keyFile, activationKmsKeyId: kmsKeyId } = settings;
  if (signer === 'local') {
    if (!keyFile) throw new Error('Environment variable ACTIVATION_KEY_FILE is required when ACTIVATION_SIGNER is local');
    return { signer, keyFile };
  }
  if (signer === 'kms') {
    if (!kmsKeyId) throw new Error('Environment variable ACTIVATION_KMS_KEY_ID is required when ACTIVATION_SIGNER is kms');
    return { signer, kmsKeyId };
  }
  throw new Error(
    `Environment variable ACTIVATION_SIGNER must be local or kms, not ${signer === undefined ? 'unset' : `'${signer}'`}`,
  );
}

const unsetOr = (value: string | undefined) => (value === undefined ? 'unset' : `'${value}'`);

/** Where export files are kept: S3 in AWS; locally a folder, served by the stack at a URL signed with a key of its run. */
export type ExportStorage = { store: 's3'; bucket: string } | { store: 'local'; dir: string; urlBase: string; secret: string };

/** The export store's settings, checked: a missing or unknown value fails with the variable's name. */
export function exportStorage(
  settings: Pick<Config, 'exportStore' | 'exportBucket' | 'exportDir' | 'exportUrlBase' | 'exportUrlSecret'> = config(),
): ExportStorage {
  const { exportStore: store, exportBucket: bucket, exportDir: dir, exportUrlBase: urlBase, exportUrlSecret: secret } = settings;
  if (store === 's3') {
    if (!bucket) throw new Error('Environment variable EXPORT_BUCKET is required when EXPORT_STORE is s3');
    return { store, bucket };
  }
  if (store === 'local') {
    if (!dir || !urlBase || !secret) {
      throw new Error(
        'Environment variables EXPORT_DIR, EXPORT_URL_BASE and EXPORT_URL_SECRET are required when EXPORT_STORE is local',
      );
    }
    return { store, dir, urlBase, secret };
  }
  throw new Error(`Environment variable EXPORT_STORE must be s3 or local, not ${unsetOr(store)}`);
}

/** Where image bytes are kept (S3 in AWS, a folder locally). */
export type ImageStorage = { store: 's3'; bucket: string } | { store: 'local'; dir: string };

/**
 * The image store's settings, checked: a missing or unknown value fails with the variable's name.
 * Read when the store is first used, so functions that store no image need none of them.
 */
export function imageStorage(settings: Pick<Config, 'imageStore' | 'imageBucket' | 'imageDir'> = config()): ImageStorage {
  const { imageStore: store, imageBucket: bucket, imageDir: dir } = settings;
  if (store === 's3') {
    if (!bucket) throw new Error('Environment variable IMAGE_BUCKET is required when IMAGE_STORE is s3');
    return { store, bucket };
  }
  if (store === 'local') {
    if (!dir) throw new Error('Environment variable IMAGE_DIR is required when IMAGE_STORE is local');
    return { store, dir };
  }
  throw new Error(`Environment variable IMAGE_STORE must be s3 or local, not ${store === undefined ? 'unset' : `'${store}'`}`);
}

/** Where messages go (SES in AWS, a folder of `.eml` files locally) and who sends them. */
export type MailSending = { transport: 'ses'; sender: string } | { transport: 'outbox'; sender: string; dir: string };

/**
 * The mail settings, checked: a missing or unknown value fails with the variable's name. Read when the
 * first message is sent, so functions that send none need none of them.
 */
export function mailSending(settings: Pick<Config, 'mailTransport' | 'mailSender' | 'mailOutboxDir'> = config()): MailSending {
  const { mailTransport: transport, mailSender: sender, mailOutboxDir: dir } = settings;
  if (!sender) throw new Error('Environment variable MAIL_SENDER is required');
  if (transport === 'ses') return { transport, sender };
  if (transport === 'outbox') {
    if (!dir) throw new Error('Environment variable MAIL_OUTBOX_DIR is required when MAIL_TRANSPORT is outbox');
    return { transport, sender, dir };
  }
  throw new Error(`Environment variable MAIL_TRANSPORT must be ses or outbox, not ${unsetOr(transport)}`);
}

/** The payment provider: the simulator (local, tests) or an HTTPS provider, and the secret its answers are signed with. */
export type PaymentGateway = { provider: 'simulator'; secret: string } | { provider: 'https'; url: string; secret: string };

/** The gateway settings, checked on the first payment: a missing or unknown value fails with the variable's name. */
export function paymentGateway(
  settings: Pick<Config, 'gatewayProvider' | 'gatewayUrl' | 'gatewaySecret'> = config(),
): PaymentGateway {
  const { gatewayProvider: provider, gatewayUrl: url, gatewaySecret: secret } = settings;
  // 32 characters: an HMAC key shorter than that is guessable offline from one signed answer.
  if (!secret || secret.length < 32) throw new Error('Environment variable GATEWAY_SECRET must have at least 32 characters');
  if (provider === 'simulator') return { provider, secret };
  if (provider === 'https') {
    if (!url?.startsWith('https://'))
      throw new Error('Environment variable GATEWAY_URL must be an https:// URL when GATEWAY_PROVIDER is https');
    return { provider, url, secret };
  }
  throw new Error(`Environment variable GATEWAY_PROVIDER must be https or simulator, not ${unsetOr(provider)}`);
}

/** Where kd requests are published: AWS IoT Core's data plane, or a local MQTT broker. */
export type KdPublishing = { publisher: 'iot'; endpoint: string } | { publisher: 'mqtt'; url: string };

/** The kd publisher's settings, checked when the first kd is published: a missing or unknown value fails with the variable's name. */
export function kdPublishing(settings: Pick<Config, 'kdPublisher' | 'iotEndpoint' | 'mqttUrl'> = config()): KdPublishing {
  const { kdPublisher: publisher, iotEndpoint: endpoint, mqttUrl: url } = settings;
  if (publisher === 'iot') {
    if (!endpoint) throw new Error('Environment variable IOT_ENDPOINT is required when KD_PUBLISHER is iot');
    return { publisher, endpoint };
  }
  if (publisher === 'mqtt') {
    if (!url) throw new Error('Environment variable MQTT_URL is required when KD_PUBLISHER is mqtt');
    return { publisher, url };
  }
  throw new Error(`Environment variable KD_PUBLISHER must be iot or mqtt, not ${unsetOr(publisher)}`);
}
