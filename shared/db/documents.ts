import {
  BatchGetItemCommand,
  BatchWriteItemCommand,
  DeleteItemCommand,
  GetItemCommand,
  PutItemCommand,
  QueryCommand,
  ScanCommand,
  TransactWriteItemsCommand,
  UpdateItemCommand,
} from '@aws-sdk/client-dynamodb';
import type {
  BatchGetCommandInput,
  BatchGetCommandOutput,
  BatchWriteCommandInput,
  BatchWriteCommandOutput,
  DeleteCommandInput,
  GetCommandInput,
  GetCommandOutput,
  PutCommandInput,
  QueryCommandInput,
  QueryCommandOutput,
  ScanCommandInput,
  ScanCommandOutput,
  TransactWriteCommandInput,
  UpdateCommandInput,
  UpdateCommandOutput,
} from '@aws-sdk/lib-dynamodb';
import { type Attributes, fromAttributes, toAttributes } from './attributes.ts';
import { db } from './client.ts';
import { forgetAhead } from './read-ahead.ts';

/**
 * The table's operations on plain items (`attributes.ts`): the inputs and outputs of the document client
 * (`@aws-sdk/lib-dynamodb`, whose types they share), sent by the one metered client (`db()`). Every write ends what
 * the request read ahead (`read-ahead.ts`).
 */
type Item = Record<string, unknown>;

const toOptional = (record: Item | undefined) => (record === undefined ? undefined : toAttributes(record));
const fromOptional = (attributes: Attributes | undefined) => (attributes === undefined ? undefined : fromAttributes(attributes));

export async function getItem(input: GetCommandInput): Promise<GetCommandOutput> {
  const output = await db().send(new GetItemCommand({ ...input, Key: toOptional(input.Key) }));
  return { ...output, Item: fromOptional(output.Item) };
}

export async function queryItems(input: QueryCommandInput): Promise<QueryCommandOutput> {
  return pageOf(await db().send(new QueryCommand(searchInput(input))));
}

/** A Scan, page by page: for the operator's scripts (a migration), never a request. */
export async function scanItems(input: ScanCommandInput): Promise<ScanCommandOutput> {
  return pageOf(await db().send(new ScanCommand(searchInput(input))));
}

/** A Query's or Scan's input: its expression values and the key it starts after. */
function searchInput<T extends { ExpressionAttributeValues?: Item; ExclusiveStartKey?: Item }>(input: T) {
  return {
    ...input,
    ExpressionAttributeValues: toOptional(input.ExpressionAttributeValues),
    ExclusiveStartKey: toOptional(input.ExclusiveStartKey),
  };
}

/** A page of a Query or Scan: its items and the key the next page starts after. */
function pageOf<T extends { Items?: Attributes[]; LastEvaluatedKey?: Attributes }>(output: T) {
  return { ...output, Items: output.Items?.map(fromAttributes), LastEvaluatedKey: fromOptional(output.LastEvaluatedKey) };
}

export async function putItem(input: PutCommandInput): Promise<void> {
  forgetAhead();
  await db().send(new PutItemCommand(putInput(input)));
}

export async function updateItem(input: UpdateCommandInput): Promise<UpdateCommandOutput> {
  forgetAhead();
  const output = await db().send(new UpdateItemCommand(keyedInput(input)));
  return { ...output, Attributes: fromOptional(output.Attributes) };
}

export async function deleteItem(input: DeleteCommandInput): Promise<void> {
  forgetAhead();
  await db().send(new DeleteItemCommand(keyedInput(input)));
}

export async function transactWrite(input: TransactWriteCommandInput): Promise<void> {
  forgetAhead();
  const TransactItems = input.TransactItems?.map(({ ConditionCheck, Put, Delete, Update }) => ({
    ConditionCheck: ConditionCheck && keyedInput(ConditionCheck),
    Put: Put && putInput(Put),
    Delete: Delete && keyedInput(Delete),
    Update: Update && keyedInput(Update),
  }));
  await db().send(new TransactWriteItemsCommand({ ...input, TransactItems }));
}

export async function batchGetItems(input: BatchGetCommandInput): Promise<BatchGetCommandOutput> {
  const keysOf = (requests: BatchGetCommandInput['RequestItems']) =>
    requests &&
    Object.fromEntries(
      Object.entries(requests).map(([table, request]) => [table, { ...request, Keys: request.Keys?.map(toAttributes) }]),
    );
  const output = await db().send(new BatchGetItemCommand({ ...input, RequestItems: keysOf(input.RequestItems) }));
  return {
    ...output,
    Responses:
      output.Responses &&
      Object.fromEntries(Object.entries(output.Responses).map(([table, items]) => [table, items.map(fromAttributes)])),
    UnprocessedKeys:
      output.UnprocessedKeys &&
      Object.fromEntries(
        Object.entries(output.UnprocessedKeys).map(([table, request]) => [
          table,
          { ...request, Keys: request.Keys?.map(fromAttributes) },
        ]),
      ),
  };
}

/** Puts in bulk (BatchWriteItem): for data the bench seeds, never a request. Answers the puts left unprocessed. */
export async function batchWriteItems(input: BatchWriteCommandInput): Promise<BatchWriteCommandOutput> {
  forgetAhead();
  const requests = Object.entries(input.RequestItems ?? {}).map(([table, writes]) => [
    table,
    writes.map(({ PutRequest, DeleteRequest }) => ({
      PutRequest: PutRequest && { Item: toOptional(PutRequest.Item) },
      DeleteRequest: DeleteRequest && { Key: toOptional(DeleteRequest.Key) },
    })),
  ]);
  const output = await db().send(new BatchWriteItemCommand({ ...input, RequestItems: Object.fromEntries(requests) }));
  const unprocessed = Object.entries(output.UnprocessedItems ?? {}).map(([table, writes]) => [
    table,
    writes.map(({ PutRequest, DeleteRequest }) => ({
      PutRequest: PutRequest?.Item && { Item: fromAttributes(PutRequest.Item) },
      DeleteRequest: DeleteRequest?.Key && { Key: fromAttributes(DeleteRequest.Key) },
    })),
  ]);
  return { ...output, ItemCollectionMetrics: undefined, UnprocessedItems: Object.fromEntries(unprocessed) };
}

/** A write or check by key with expression values (a delete, a condition check). */
function keyedInput<T extends { Key: Item | undefined; ExpressionAttributeValues?: Item }>(input: T) {
  return {
    ...input,
    Key: toOptional(input.Key),
    ExpressionAttributeValues: toOptional(input.ExpressionAttributeValues),
  };
}

function putInput<T extends { Item: Item | undefined; ExpressionAttributeValues?: Item }>(input: T) {
  return {
    ...input,
    Item: toOptional(input.Item),
    ExpressionAttributeValues: toOptional(input.ExpressionAttributeValues),
  };
}

/** BatchWriteItem takes at most 25 writes. */
const BATCH_SIZE = 25;

/**
 * Puts `items` into `tableName` in bulk, a few BatchWriteItem calls in flight, until DynamoDB has processed every
 * one: for data seeded or copied outside a request (the bench, the layout migration).
 */
export async function putInBulk(tableName: string, items: readonly Record<string, unknown>[]): Promise<void> {
  const batches: Record<string, unknown>[][] = [];
  for (let start = 0; start < items.length; start += BATCH_SIZE) batches.push(items.slice(start, start + BATCH_SIZE));
  const lane = async () => {
    for (let batch = batches.shift(); batch; batch = batches.shift()) {
      let pending = batch.map((Item) => ({ PutRequest: { Item } }));
      while (pending.length > 0) {
        const { UnprocessedItems } = await batchWriteItems({ RequestItems: { [tableName]: pending } });
        pending = (UnprocessedItems?.[tableName] ?? []) as typeof pending;
      }
    }
  };
  await Promise.all(Array.from({ length: 4 }, lane));
}
