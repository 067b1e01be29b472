/**
 * The floor bundle of the benchmark: nothing but the DynamoDB client every function needs. The
 * client is built lazily, as the handlers' db() does, so the import measures loading, not setup.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';

export const createClient = () => new DynamoDBClient({});
