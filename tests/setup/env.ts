import { inject } from 'vitest';

// Connected tests talk to DynamoDB Local only: refuse anything else before a client exists.
const endpoint = inject('dynamoEndpoint');
if (!/^http:\/\/(127\.0\.0\.1|localhost):\d+$/.test(endpoint)) {
  throw new Error(`Refusing to run tests against a non-local DynamoDB endpoint: ${endpoint}`);
}
process.env.DYNAMODB_ENDPOINT = endpoint;
process.env.TABLE_NAME = inject('tableName');
process.env.AWS_REGION = 'local';
