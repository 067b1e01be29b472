/**
 * Configuration, read once at module load. A missing required variable fails the cold start
 * with the variable's name rather than failing a request later.
 */
function required(name: string): string {
  const value = process.env[name];
  if (value === undefined || value === '') throw new Error(`Environment variable ${name} is required`);
  return value;
}

function integer(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value <= 0) throw new Error(`Environment variable ${name} must be a positive integer`);
  return value;
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
  };
  return cached;
}
