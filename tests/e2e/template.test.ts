/**
 * What an operator checks before deploying: the CloudFormation template and the zips `npm run package`
 * produces (scripts/package.ts), read as files. Nothing is deployed and no AWS account is needed.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { type BridgeStatusMessage, type KdReplyMessage, kdTopics, replyItem, statusItem } from '#shared/kd/protocol.ts';
import { functionDir, functionNames, root } from '../../scripts/build.ts';
import { stageTable } from '../../scripts/stage.ts';
import { functionZip, packageService } from '../../scripts/package.ts';
import { API_VERSIONS } from '#shared/versions.ts';
import { type RuleSql, parseRuleSql, runRule } from '../support/iot-sql.ts';

interface Resource {
  Type: string;
  DeletionPolicy?: string;
  UpdateReplacePolicy?: string;
  Properties?: Record<string, unknown>;
}
interface Template {
  Resources: Record<string, Resource>;
}
interface Statement {
  Effect?: string;
  Action?: string | string[];
  NotAction?: string | string[];
  Resource?: unknown;
  NotResource?: unknown;
}
/** One policy statement found in the template, with the logical id of the resource holding it. */
interface Found {
  holder: string;
  statement: Statement;
}

const STAGE = 'ci';
const FALLBACK = 'fallback';
/** Functions that serve no HTTP route: they run on a schedule, or when another function starts them. */
const NOT_HTTP = ['maintenance', 'exports'];
const httpFunctions = () => functionNames().filter((name) => !NOT_HTTP.includes(name));
const list = <T>(value: T | T[] | undefined): T[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);

let template: Template;

beforeAll(async () => {
  // Act
  const path = await packageService(STAGE);
  template = JSON.parse(readFileSync(path, 'utf8')) as Template;
}, 120_000);

const resourcesOfType = (type: string) => Object.entries(template.Resources).filter(([, resource]) => resource.Type === type);

/** The Lambda function resources by function name (`cash-register-<stage>-<name>` in the console). */
function lambdaFunctions(): Map<string, { id: string; properties: Record<string, unknown> }> {
  const byName = new Map<string, { id: string; properties: Record<string, unknown> }>();
  for (const [id, resource] of resourcesOfType('AWS::Lambda::Function')) {
    const properties = resource.Properties ?? {};
    const name = String(properties.FunctionName).replace(`cash-register-${STAGE}-`, '');
    byName.set(name, { id, properties });
  }
  return byName;
}

/** The logical id of the role a function runs as (`{ Fn::GetAtt: [<Role>, Arn] }`), or the raw value. */
function roleOf(properties: Record<string, unknown>): string {
  const role = properties.Role as { 'Fn::GetAtt'?: [string, string] } | string | undefined;
  const getAtt = typeof role === 'object' ? role['Fn::GetAtt'] : undefined;
  return getAtt?.[1] === 'Arn' ? getAtt[0] : JSON.stringify(role);
}

/** Every policy statement anywhere in the template (inline role policies, policy resources, bucket policies). */
function allStatements(): Found[] {
  const found: Found[] = [];
  const walk = (holder: string, node: unknown): void => {
    if (Array.isArray(node)) for (const item of node) walk(holder, item);
    else if (node && typeof node === 'object') {
      for (const [key, value] of Object.entries(node)) {
        if (key === 'Statement')
          for (const statement of list(value as Statement | Statement[])) found.push({ holder, statement });
        else walk(holder, value);
      }
    }
  };
  // A KMS key policy's `Resource: '*'` means the key itself, not every resource.
  for (const [id, resource] of Object.entries(template.Resources)) {
    if (resource.Type !== 'AWS::KMS::Key') walk(id, resource);
  }
  return found;
}

/** The statements that grant something to a role: its inline policies and any policy resource attached to it. */
function roleStatements(roleId: string): Statement[] {
  const role = template.Resources[roleId];
  type Policy = { Statement: Statement | Statement[] };
  const inline = list(role?.Properties?.Policies as { PolicyDocument: Policy }[] | undefined).map(
    (policy) => policy.PolicyDocument,
  );
  const attached = Object.values(template.Resources)
    .filter((resource) => ['AWS::IAM::Policy', 'AWS::IAM::ManagedPolicy'].includes(resource.Type))
    .filter((resource) => JSON.stringify(resource.Properties?.Roles ?? []).includes(`"${roleId}"`))
    .map((resource) => resource.Properties?.PolicyDocument as Policy);
  return [...inline, ...attached].flatMap((policy) => list(policy.Statement));
}

/** Whether a statement can reach the table or its indexes: it names the table, DynamoDB, or any resource (`*`). */
function reachesTable(statement: Statement): boolean {
  if (statement.NotResource !== undefined) return true;
  return list(statement.Resource).some((resource) =>
    typeof resource === 'string'
      ? resource === '*' || /:dynamodb:|^arn:[^:]*:\*/.test(resource)
      : /DataTable|:dynamodb:/.test(JSON.stringify(resource)),
  );
}

const isAllow = (statement: Statement) => statement.Effect === 'Allow';
const actionsOf = (statement: Statement) => list(statement.Action);
const isDynamoAction = (action: string) => action === '*' || action.toLowerCase().startsWith('dynamodb:');

/** Each function's grants of S3 actions (or of every action). */
const s3Grants = () =>
  [...lambdaFunctions()].map(([name, { properties }]) => ({
    name,
    s3: roleStatements(roleOf(properties))
      .filter(isAllow)
      .filter((statement) => actionsOf(statement).some((action) => action === '*' || action.startsWith('s3:'))),
  }));

/** The function roles infra/ defines (logical ids): infra/roles.yml, and the kd function's in infra/iot.yml. */
function rolesFromInfra(): string[] {
  const resources = (file: string) =>
    Object.entries(
      (parse(readFileSync(new URL(`../../infra/${file}`, import.meta.url), 'utf8')) as { Resources: object }).Resources,
    );
  return [...resources('roles.yml'), ...resources('iot.yml')]
    .filter(([, resource]) => (resource as Resource).Type === 'AWS::IAM::Role')
    .map(([id]) => id);
}

/** The file names in a zip, from its central directory (found through the End Of Central Directory record). */
function zipEntries(path: string): string[] {
  const zip = readFileSync(path);
  const eocd = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (eocd < 0) throw new Error(`${path} is not a zip file`);
  const count = zip.readUInt16LE(eocd + 10);
  let offset = zip.readUInt32LE(eocd + 16);
  const names: string[] = [];
  for (let index = 0; index < count; index++) {
    if (zip.readUInt32LE(offset) !== 0x02014b50) throw new Error(`${path}: bad central directory entry ${index}`);
    const nameLength = zip.readUInt16LE(offset + 28);
    const extraLength = zip.readUInt16LE(offset + 30);
    const commentLength = zip.readUInt16LE(offset + 32);
    names.push(zip.toString('utf8', offset + 46, offset + 46 + nameLength));
    offset += 46 + nameLength + extraLength + commentLength;
  }
  return names;
}

describe('the packaged service (npm run package)', () => {
  describe('functions', () => {
    it('has exactly one nodejs22.x Lambda function per endpoint group, each running its own bundle', () => {
      // Prepare
      const groups = functionNames();
      const functions = lambdaFunctions();

      // Assess
      expect(resourcesOfType('AWS::Lambda::Function')).toHaveLength(groups.length);
      expect([...functions.keys()].sort()).toEqual(groups);
      for (const name of groups) {
        const properties = functions.get(name)?.properties;
        expect({ name, runtime: properties?.Runtime, handler: properties?.Handler }).toEqual({
          name,
          runtime: 'nodejs22.x',
          handler: `.build/${name}/handler.handler`,
        });
      }
    });

    it('runs every function under its own execution role from infra/roles.yml', () => {
      // Prepare
      const infraRoles = rolesFromInfra();
      const roles = [...lambdaFunctions().values()].map(({ properties }) => roleOf(properties));

      // Assess
      expect(new Set(roles).size).toBe(roles.length);
      for (const role of roles) {
        expect(infraRoles).toContain(role);
        expect(template.Resources[role]?.Type).toBe('AWS::IAM::Role');
      }
    });

    it('ships no local setting in any function environment: no DynamoDB endpoint, activations signed with KMS', () => {
      // Prepare
      const settings = [...lambdaFunctions()].map(([name, { properties }]) => {
        const variables = (properties.Environment as { Variables?: Record<string, unknown> } | undefined)?.Variables ?? {};
        const { DYNAMODB_ENDPOINT = '', ACTIVATION_SIGNER, ACTIVATION_KEY_FILE = '', ACTIVATION_KMS_KEY_ID } = variables;
        return [name, { DYNAMODB_ENDPOINT, ACTIVATION_SIGNER, ACTIVATION_KEY_FILE, ACTIVATION_KMS_KEY_ID }] as const;
      });
      const deployed = {
        DYNAMODB_ENDPOINT: '',
        ACTIVATION_SIGNER: 'kms',
        ACTIVATION_KEY_FILE: '',
        ACTIVATION_KMS_KEY_ID: { Ref: 'ActivationSigningKey' },
      };

      const docsDirs = [...lambdaFunctions()].flatMap(([name, { properties }]) => {
        const variables = (properties.Environment as { Variables?: Record<string, unknown> } | undefined)?.Variables ?? {};
        return variables.DOCS_DIR ? [name] : [];
      });

      // Assess
      expect(new Map(settings)).toEqual(new Map(functionNames().map((name) => [name, deployed])));
      expect(docsDirs, 'functions serving /docs from a local folder').toEqual([]);
      expect(JSON.stringify(template)).not.toMatch(/localhost|127\.0\.0\.1/);
    });
  });

  describe('concurrency (docs/decisions.md, "Limits")', () => {
    /** Lambda's default concurrency per account and region, and what the unreserved groups keep of it at least. */
    const ACCOUNT_CONCURRENCY = 1000;
    const UNRESERVED_AT_LEAST = 400;

    it("reserves concurrency for the registers' sales and receipts, and caps the slow or back-office groups", () => {
      // Prepare
      const reserved = [...lambdaFunctions()].flatMap(([name, { properties }]) =>
        properties.ReservedConcurrentExecutions === undefined ? [] : [[name, properties.ReservedConcurrentExecutions] as const],
      );
      const total = reserved.reduce((sum, [, count]) => sum + Number(count), 0);

      // Assess
      expect(Object.fromEntries(reserved)).toEqual({
        fiscal: 200,
        kd: 200,
        gateway: 100,
        stats: 20,
        images: 20,
        email: 5,
        exports: 10,
        maintenance: 1,
      });
      expect(ACCOUNT_CONCURRENCY - total).toBeGreaterThanOrEqual(UNRESERVED_AT_LEAST);
    });
  });

  describe('images', () => {
    const IMAGES = 'images';

    it('the deployed functions store image bytes in the S3 bucket, never in a local folder', () => {
      // Prepare
      const settings = [...lambdaFunctions()].map(([name, { properties }]) => {
        const variables = (properties.Environment as { Variables?: Record<string, unknown> } | undefined)?.Variables ?? {};
        const { IMAGE_STORE, IMAGE_BUCKET, IMAGE_DIR = '' } = variables;
        return { name, IMAGE_STORE, IMAGE_BUCKET, IMAGE_DIR };
      });

      // Assess
      expect(settings.find(({ name }) => name === IMAGES)).toEqual({
        name: IMAGES,
        IMAGE_STORE: 's3',
        IMAGE_BUCKET: { Ref: 'ImageBucket' },
        IMAGE_DIR: '',
      });
      expect(settings.filter(({ IMAGE_STORE, IMAGE_DIR }) => (IMAGE_STORE ?? 's3') !== 's3' || IMAGE_DIR !== '')).toEqual([]);
    });

    it('the image bucket is private, encrypted, owner-enforced and retained when the stack is deleted or it is replaced', () => {
      // Prepare
      const bucket = template.Resources.ImageBucket;
      const properties = bucket?.Properties ?? {};
      const encryption = properties.BucketEncryption as {
        ServerSideEncryptionConfiguration?: { ServerSideEncryptionByDefault?: { SSEAlgorithm?: string } }[];
      };

      // Assess
      expect(bucket?.Type).toBe('AWS::S3::Bucket');
      expect(properties.PublicAccessBlockConfiguration).toEqual({
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      });
      expect(['AES256', 'aws:kms']).toContain(
        encryption?.ServerSideEncryptionConfiguration?.[0]?.ServerSideEncryptionByDefault?.SSEAlgorithm,
      );
      expect(properties.OwnershipControls).toEqual({ Rules: [{ ObjectOwnership: 'BucketOwnerEnforced' }] });
      expect({ acl: properties.AccessControl, website: properties.WebsiteConfiguration }).toEqual({
        acl: undefined,
        website: undefined,
      });
      expect({ deletion: bucket?.DeletionPolicy, replace: bucket?.UpdateReplacePolicy }).toEqual({
        deletion: 'Retain',
        replace: 'Retain',
      });
    });

    it('the bucket policy refuses requests without TLS and grants nothing', () => {
      // Prepare
      const policies = resourcesOfType('AWS::S3::BucketPolicy')
        .map(([, policy]) => policy.Properties ?? {})
        .filter((policy) => JSON.stringify(policy.Bucket) === JSON.stringify({ Ref: 'ImageBucket' }));
      const statements = policies.flatMap((policy) => list((policy.PolicyDocument as { Statement: Statement[] }).Statement));

      // Assess
      expect(policies).toHaveLength(1);
      expect(statements.filter(isAllow)).toEqual([]);
      expect(statements).toContainEqual(
        expect.objectContaining({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
      );
    });

    it("only the images function's role reaches the bucket: get, put and delete of its objects, nothing else", () => {
      // Prepare
      const reaching = s3Grants().filter(({ s3 }) => JSON.stringify(s3).includes('ImageBucket'));
      const images = reaching.find(({ name }) => name === IMAGES)?.s3 ?? [];

      // Assess
      expect(reaching.map(({ name }) => name)).toEqual([IMAGES]);
      expect(images.flatMap(actionsOf).sort()).toEqual(['s3:DeleteObject', 's3:GetObject', 's3:PutObject']);
      expect(images.flatMap((statement) => list(statement.Resource))).toEqual([
        { 'Fn::Join': ['', [{ 'Fn::GetAtt': ['ImageBucket', 'Arn'] }, '/*']] },
      ]);
    });
  });

  describe('exports (docs/conventions.md §28)', () => {
    const bucketObjects = (prefix: string) => ({ 'Fn::Join': ['', [{ 'Fn::GetAtt': ['ExportBucket', 'Arn'] }, prefix]] });

    it('keeps export files in a private, encrypted bucket that refuses plain HTTP and expires them after 7 days', () => {
      // Prepare
      const properties = template.Resources.ExportBucket?.Properties ?? {};
      const policy = JSON.stringify(template.Resources.ExportBucketPolicy?.Properties ?? {});

      // Assess
      expect(template.Resources.ExportBucket?.Type).toBe('AWS::S3::Bucket');
      expect(properties.PublicAccessBlockConfiguration).toEqual({
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      });
      expect(JSON.stringify(properties.BucketEncryption)).toContain('AES256');
      expect(properties.LifecycleConfiguration).toEqual({
        Rules: [
          {
            Id: 'ExpireExports',
            Status: 'Enabled',
            ExpirationInDays: 7,
            AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 },
          },
        ],
      });
      expect(policy).toContain('"aws:SecureTransport":"false"');
    });

    it('lets the worker only write there, and the fiscal and stats functions only read their files and start the worker', () => {
      // Prepare
      const reaching = s3Grants().filter(({ s3 }) => JSON.stringify(s3).includes('ExportBucket'));
      const fiscal = lambdaFunctions().get('fiscal');
      const worker = lambdaFunctions().get('exports');
      const invokes = [...lambdaFunctions()].flatMap(([name, { properties }]) =>
        roleStatements(roleOf(properties))
          .filter(isAllow)
          .some((statement) => actionsOf(statement).includes('lambda:InvokeFunction'))
          ? [name]
          : [],
      );

      // Assess
      expect(
        s3Grants()
          .flatMap(({ name, s3 }) => (s3.length > 0 ? [name] : []))
          .sort(),
      ).toEqual(['exports', 'fiscal', 'images', 'stats']);
      expect(
        Object.fromEntries(reaching.map(({ name, s3 }) => [name, s3.map((grant) => [actionsOf(grant).sort(), grant.Resource])])),
      ).toEqual({
        exports: [[['s3:AbortMultipartUpload', 's3:PutObject'], [bucketObjects('/*')]]],
        fiscal: [[['s3:GetObject'], [bucketObjects('/journal/*')]]],
        stats: [[['s3:GetObject'], [bucketObjects('/sales-csv/*')]]],
      });
      expect(invokes.sort()).toEqual(['fiscal', 'stats']);
      expect(worker?.properties).toMatchObject({ Timeout: 900, MemorySize: 1024 });
      const variables = (fiscal?.properties.Environment as { Variables?: Record<string, unknown> } | undefined)?.Variables;
      expect(variables).toMatchObject({ EXPORT_STORE: 's3', EXPORT_WORKER_FUNCTION: `cash-register-${STAGE}-exports` });
      expect(variables?.EXPORT_BUCKET).toEqual({ Ref: 'ExportBucket' });
    });
  });

  describe('the tombstone purge', () => {
    it('runs the maintenance function daily with the retention it is given (90 days unless set)', () => {
      // Prepare
      const rules = resourcesOfType('AWS::Events::Rule');
      const maintenance = lambdaFunctions().get('maintenance');
      const variables = (maintenance?.properties.Environment as { Variables?: Record<string, unknown> } | undefined)?.Variables;

      // Assess
      expect(rules.map(([, rule]) => rule.Properties?.ScheduleExpression)).toEqual(['rate(1 day)']);
      expect(JSON.stringify(rules[0]?.[1].Properties?.Targets)).toContain(maintenance?.id ?? 'no maintenance function');
      expect(variables?.TOMBSTONE_RETENTION_DAYS).toBe('90');
    });
  });

  describe('the data table', () => {
    it('is DataTable keyed on pk/sk with no secondary index, so no item collection is capped at 10 GB', () => {
      // Prepare
      const table = template.Resources.DataTable;
      const properties = table?.Properties ?? {};

      // Assess
      expect(table?.Type).toBe('AWS::DynamoDB::Table');
      expect(resourcesOfType('AWS::DynamoDB::Table')).toHaveLength(1);
      expect(properties.KeySchema).toEqual([
        { AttributeName: 'pk', KeyType: 'HASH' },
        { AttributeName: 'sk', KeyType: 'RANGE' },
      ]);
      expect(properties.AttributeDefinitions).toEqual([
        { AttributeName: 'pk', AttributeType: 'S' },
        { AttributeName: 'sk', AttributeType: 'S' },
      ]);
      expect(properties).not.toHaveProperty('LocalSecondaryIndexes');
      expect(properties).not.toHaveProperty('GlobalSecondaryIndexes');
    });

    it("grants no function a table index: every Query reads the table's own keys", () => {
      // Prepare
      const resources = [...lambdaFunctions().values()].flatMap(({ properties }) =>
        roleStatements(roleOf(properties)).flatMap((statement) => list(statement.Resource)),
      );

      // Assess
      expect(resources.length).toBeGreaterThan(0);
      expect(resources.map((resource) => JSON.stringify(resource)).filter((resource) => resource.includes('index'))).toEqual([]);
    });

    it('expires items by their expiresAt (kd replies)', () => {
      // Assess
      expect(template.Resources.DataTable?.Properties?.TimeToLiveSpecification).toEqual({
        AttributeName: 'expiresAt',
        Enabled: true,
      });
    });

    it('has point-in-time recovery on and is retained when the stack is deleted or the table replaced', () => {
      // Prepare
      const table = template.Resources.DataTable;

      // Assess
      expect(table?.Properties?.PointInTimeRecoverySpecification).toEqual({ PointInTimeRecoveryEnabled: true });
      expect(table?.DeletionPolicy).toBe('Retain');
      expect(table?.UpdateReplacePolicy).toBe('Retain');
      expect(table?.Properties?.DeletionProtectionEnabled).toBe(true);
    });

    it("is named by its layout generation, as the scripts name the stage's table", () => {
      expect(template.Resources.DataTable?.Properties?.TableName).toBe(stageTable(STAGE));
    });

    it('shows the most accessed and the most throttled keys in Contributor Insights', () => {
      expect(template.Resources.DataTable?.Properties?.ContributorInsightsSpecification).toEqual({
        Enabled: true,
        Mode: 'ACCESSED_AND_THROTTLED_KEYS',
      });
    });
  });

  describe('the kd path in AWS IoT', () => {
    const SERIAL = 'TESTCU0000000042';
    const NOW = 1_767_225_600_123;
    const reply: KdReplyMessage = {
      correlationId: '7b0d3c1e-4a8f-4c52-9d0e-2f6a1b3c4d5e',
      serial: SERIAL,
      outcome: 'REPLY',
      returnCode: 0,
      controlCode: 'ABCD1234EFGH5678',
      detail: null,
      bridgeVersion: '1.0.0',
      at: NOW - 40,
    };
    const status: BridgeStatusMessage = { serial: SERIAL, online: true, bridgeVersion: '1.0.0', at: NOW - 40 };

    /** The topic rules, each with its SQL parsed and its actions. */
    const topicRules = () =>
      resourcesOfType('AWS::IoT::TopicRule').map(([id, rule]) => {
        const payload = rule.Properties?.TopicRulePayload as {
          Sql: string;
          AwsIotSqlVersion: string;
          Actions: unknown[];
          ErrorAction?: unknown;
        };
        return {
          id,
          sql: parseRuleSql(payload.Sql),
          version: payload.AwsIotSqlVersion,
          actions: payload.Actions,
          errorAction: payload.ErrorAction,
        };
      });
    const ruleFor = (filter: string): RuleSql => {
      const found = topicRules().filter(({ sql }) => sql.from === filter);
      expect(found).toHaveLength(1);
      return found[0]?.sql as RuleSql;
    };
    /** An ARN as IoT sees it once CloudFormation has substituted it (`${!x}` is a literal `${x}`). */
    const arnText = (resource: unknown): string => {
      const sub = (resource as { 'Fn::Sub'?: string })['Fn::Sub'];
      if (typeof sub !== 'string') return JSON.stringify(resource);
      return sub.replace('arn:${AWS::Partition}:iot:${AWS::Region}:${AWS::AccountId}:', '').replaceAll('${!', '${');
    };

    it('has two rules, replies and statuses, each putting into the data table as the rules role (SQL 2016-03-23)', () => {
      // Prepare
      const rules = topicRules();

      // Assess
      expect(rules.map(({ sql }) => sql.from).sort()).toEqual([kdTopics.allReplies, kdTopics.allStatuses].sort());
      for (const rule of rules) {
        expect({ id: rule.id, version: rule.version, actions: rule.actions, errorAction: rule.errorAction }).toEqual({
          id: rule.id,
          version: '2016-03-23',
          actions: [
            { DynamoDBv2: { PutItem: { TableName: { Ref: 'DataTable' } }, RoleArn: { 'Fn::GetAtt': ['KdRulesRole', 'Arn'] } } },
          ],
          // A write the rule could not make is logged, not lost without trace.
          errorAction: {
            CloudwatchLogs: { LogGroupName: { Ref: 'KdRulesErrorLog' }, RoleArn: { 'Fn::GetAtt': ['KdRulesRole', 'Arn'] } },
          },
        });
      }
    });

    it("the reply rule writes exactly the protocol's replyItem: KDR#<correlationId> / #KDR, expiring a day after it arrived", () => {
      // Act
      const item = runRule(ruleFor(kdTopics.allReplies), kdTopics.reply(SERIAL), { ...reply }, NOW);

      // Assess
      expect(item).toEqual(replyItem(reply, NOW));
    });

    it("the status rule writes exactly the protocol's statusItem: CU#<serial> / #BRIDGE_SEEN", () => {
      // Act
      const online = runRule(ruleFor(kdTopics.allStatuses), kdTopics.status(SERIAL), { ...status }, NOW);
      const lastWill = runRule(ruleFor(kdTopics.allStatuses), kdTopics.status(SERIAL), { ...status, online: false }, NOW);

      // Assess
      expect(online).toEqual(statusItem(status));
      expect(lastWill).toEqual(statusItem({ ...status, online: false }));
    });

    it("the rules drop a message naming another serial than its topic's, or carrying a key or an expiry of its own", () => {
      // Prepare
      const replies = ruleFor(kdTopics.allReplies);
      const statuses = ruleFor(kdTopics.allStatuses);
      const other = 'TESTCU0000000099';

      // Act
      const dropped = [
        runRule(replies, kdTopics.reply(other), { ...reply }, NOW),
        runRule(replies, kdTopics.reply(SERIAL), { ...reply, pk: 'S#SE5560360793' }, NOW),
        runRule(replies, kdTopics.reply(SERIAL), { ...reply, sk: '#PROFILE' }, NOW),
        runRule(replies, kdTopics.reply(SERIAL), { ...reply, expiresAt: 1 }, NOW),
        runRule(statuses, kdTopics.status(other), { ...status }, NOW),
        runRule(statuses, kdTopics.status(SERIAL), { ...status, sk: '#CU' }, NOW),
        runRule(statuses, kdTopics.status(SERIAL), { ...status, pk: 'U#admin' }, NOW),
      ];

      // Assess
      expect(dropped).toEqual(dropped.map(() => undefined));
    });

    it("the rules' role is IoT's alone, in this account, and may only put items under KDR# and CU# and log what it could not write", () => {
      // Prepare
      const role = template.Resources.KdRulesRole?.Properties ?? {};
      const trust = list((role.AssumeRolePolicyDocument as { Statement: Statement[] }).Statement);

      // Assess
      expect(trust).toEqual([
        {
          Effect: 'Allow',
          Principal: { Service: 'iot.amazonaws.com' },
          Action: 'sts:AssumeRole',
          Condition: {
            StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } },
            ArnLike: { 'aws:SourceArn': { 'Fn::Sub': 'arn:${AWS::Partition}:iot:${AWS::Region}:${AWS::AccountId}:rule/*' } },
          },
        },
      ]);
      expect(role.ManagedPolicyArns).toBeUndefined();
      expect(roleStatements('KdRulesRole')).toEqual([
        {
          Effect: 'Allow',
          Action: ['dynamodb:PutItem'],
          Resource: [{ 'Fn::GetAtt': ['DataTable', 'Arn'] }],
          Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['KDR#*', 'CU#*'] } },
        },
        {
          Effect: 'Allow',
          Action: ['logs:CreateLogStream', 'logs:PutLogEvents'],
          Resource: [{ 'Fn::GetAtt': ['KdRulesErrorLog', 'Arn'] }],
        },
      ]);
      expect(template.Resources.KdRulesErrorLog?.Properties).toMatchObject({ RetentionInDays: 30 });
    });

    it("the bridge policy: connect as its own attached thing, take its unit's requests, publish its replies and (retained) status, nothing else", () => {
      // Prepare
      const policies = resourcesOfType('AWS::IoT::Policy');
      const properties = policies[0]?.[1].Properties ?? {};
      const statements = list((properties.PolicyDocument as { Statement: Statement[] }).Statement);
      const grants = statements.flatMap((statement) =>
        actionsOf(statement).flatMap((action) =>
          list(statement.Resource).map((resource) => ({
            action,
            resource: arnText(resource),
            condition: (statement as { Condition?: unknown }).Condition,
          })),
        ),
      );
      const serial = '${iot:Connection.Thing.Attributes[serial]}';

      // Assess
      expect(policies).toHaveLength(1);
      expect(properties.PolicyName).toBe(`cash-register-${STAGE}-bridge`);
      expect(statements.every(isAllow)).toBe(true);
      expect(grants).toEqual([
        {
          action: 'iot:Connect',
          resource: 'client/${iot:Connection.Thing.ThingName}',
          condition: { Bool: { 'iot:Connection.Thing.IsAttached': 'true' } },
        },
        { action: 'iot:Subscribe', resource: `topicfilter/cu/${serial}/kd/request`, condition: undefined },
        { action: 'iot:Receive', resource: `topic/cu/${serial}/kd/request`, condition: undefined },
        { action: 'iot:Publish', resource: `topic/cu/${serial}/kd/reply`, condition: undefined },
        { action: 'iot:Publish', resource: `topic/cu/${serial}/status`, condition: undefined },
        { action: 'iot:RetainPublish', resource: `topic/cu/${serial}/status`, condition: undefined },
      ]);
    });

    it('only the kd role may publish over IoT, and only requests (cu/*/kd/request); no function role holds any other IoT right', () => {
      // Prepare
      const iotGrants = resourcesOfType('AWS::IAM::Role').flatMap(([id]) =>
        roleStatements(id)
          .filter(isAllow)
          .flatMap((statement) =>
            actionsOf(statement)
              .filter((action) => action === '*' || action.toLowerCase().startsWith('iot:'))
              .map((action) => ({ role: id, action, resources: list(statement.Resource) })),
          ),
      );
      const publishers = [...lambdaFunctions()]
        .filter(([, { properties }]) => iotGrants.some(({ role }) => role === roleOf(properties)))
        .map(([name]) => name);

      // Assess
      expect(iotGrants).toEqual([
        {
          role: 'KdRole',
          action: 'iot:Publish',
          resources: [{ 'Fn::Sub': 'arn:${AWS::Partition}:iot:${AWS::Region}:${AWS::AccountId}:topic/cu/*/kd/request' }],
        },
      ]);
      expect(publishers.filter((name) => name !== 'kd')).toEqual([]);
    });
  });

  describe('IAM', () => {
    it('no IAM statement grants a wildcard action on the table', () => {
      // Prepare
      const grants = allStatements().filter(({ statement }) => isAllow(statement));
      const show = ({ holder, statement }: Found) => `${holder}: ${JSON.stringify(statement.Action ?? statement.NotAction)}`;

      // Assess
      const wildcardOnTable = grants.filter(
        ({ statement }) => reachesTable(statement) && actionsOf(statement).some((action) => action.includes('*')),
      );
      const wildcardDynamo = grants.filter(({ statement }) =>
        actionsOf(statement).some((action) => isDynamoAction(action) && action.includes('*')),
      );
      const notAction = grants.filter(({ statement }) => statement.NotAction !== undefined);
      expect(grants.length).toBeGreaterThan(0);
      expect(wildcardOnTable.map(show)).toEqual([]);
      expect(wildcardDynamo.map(show)).toEqual([]);
      expect(notAction.map(show)).toEqual([]);
    });

    it("lists each function role's DynamoDB actions one by one, with no DynamoDB managed policy", () => {
      // Prepare
      const byRole = [...lambdaFunctions().values()].map(({ properties }) => {
        const role = roleOf(properties);
        const actions = roleStatements(role).filter(isAllow).flatMap(actionsOf).filter(isDynamoAction);
        const managed = list(template.Resources[role]?.Properties?.ManagedPolicyArns as unknown[] | undefined);
        return { role, actions, managed: managed.map((arn) => JSON.stringify(arn)) };
      });

      // Assess
      for (const { role, actions, managed } of byRole) {
        expect({ role, notExplicit: actions.filter((action) => !/^dynamodb:[A-Z][A-Za-z]+$/.test(action)) }).toEqual({
          role,
          notExplicit: [],
        });
        expect({ role, dynamoManaged: managed.filter((arn) => /dynamodb/i.test(arn)) }).toEqual({ role, dynamoManaged: [] });
      }
    });

    it("gives the fallback function's role no DynamoDB access at all", () => {
      // Prepare
      const fallback = lambdaFunctions().get(FALLBACK);
      const role = fallback ? roleOf(fallback.properties) : 'missing';
      const grants = roleStatements(role).filter(isAllow);
      const managed = JSON.stringify(template.Resources[role]?.Properties?.ManagedPolicyArns ?? []);

      // Assess
      expect(fallback).toBeDefined();
      expect(grants.flatMap(actionsOf).filter(isDynamoAction)).toEqual([]);
      expect(grants.filter(reachesTable)).toEqual([]);
      expect(managed).not.toMatch(/dynamodb/i);
    });
  });

  describe('the HTTP API', () => {
    /** Route key -> function name, following route -> integration -> function. */
    function routes(): Map<string, string> {
      const nameById = new Map([...lambdaFunctions()].map(([name, { id }]) => [id, name]));
      const byKey = new Map<string, string>();
      for (const [, route] of resourcesOfType('AWS::ApiGatewayV2::Route')) {
        const target = JSON.stringify(route.Properties?.Target);
        const integrationId = /"Ref":"([^"]+)"/.exec(target)?.[1] ?? '';
        const uri = template.Resources[integrationId]?.Properties?.IntegrationUri as { 'Fn::GetAtt'?: [string, string] };
        const functionId = uri?.['Fn::GetAtt']?.[0] ?? '';
        byKey.set(String(route.Properties?.RouteKey), nameById.get(functionId) ?? `unknown target ${target}`);
      }
      return byKey;
    }

    it('routes requests to every function, and everything unclaimed ($default) to the fallback', () => {
      // Prepare
      const byKey = routes();

      // Assess
      expect(resourcesOfType('AWS::ApiGatewayV2::Api')).toHaveLength(1);
      expect(new Set(byKey.values())).toEqual(new Set(httpFunctions()));
      expect(byKey.get('ANY /{apiVersion}/{sellerId}/taxes')).toBe('catalog');
      expect(byKey.get('ANY /{apiVersion}/sellers')).toBe('sellers');
      // Image paths under categories and products reach the images function, not the catalog's proxies.
      for (const owner of ['', '/categories/{categoryIdentifier}', '/products/{productIdentifier}']) {
        expect(byKey.get(`ANY /{apiVersion}/{sellerId}${owner}/images`)).toBe('images');
        expect(byKey.get(`ANY /{apiVersion}/{sellerId}${owner}/images/{pictureVersion}/{pictureFilename}`)).toBe('images');
      }
      expect(byKey.get('ANY /{apiVersion}/{sellerId}/products/{proxy+}')).toBe('catalog');
      // Statistics paths are the stats function's for GET, before the catalog's and the fiscal group's proxies.
      expect(byKey.get('GET /{apiVersion}/{sellerId}/taxes/stats')).toBe('stats');
      expect(byKey.get('GET /{apiVersion}/{sellerId}/sales/stats/csv')).toBe('stats');
      expect(byKey.get('GET /{apiVersion}/{sellerId}/registrations/stats')).toBe('stats');
      expect(byKey.get('$default')).toBe(FALLBACK);
      expect(byKey.get('GET /health')).toBe(FALLBACK);
    });

    it('throttles its one stage at 1,000 requests per second with bursts of 2,000, every route alike (docs/conventions.md §26)', () => {
      // Prepare
      const stages = resourcesOfType('AWS::ApiGatewayV2::Stage').map(([, stage]) => stage.Properties ?? {});

      // Assess
      expect(
        stages.map(({ StageName, DefaultRouteSettings, RouteSettings }) => ({ StageName, DefaultRouteSettings, RouteSettings })),
      ).toEqual([
        {
          StageName: '$default',
          DefaultRouteSettings: { ThrottlingRateLimit: 1000, ThrottlingBurstLimit: 2000 },
          RouteSettings: undefined,
        },
      ]);
    });

    it('hands requests to the functions as Lambda proxy integrations with payload format 2.0', () => {
      // Prepare
      const integrations = resourcesOfType('AWS::ApiGatewayV2::Integration').map(([id, integration]) => ({
        id,
        type: integration.Properties?.IntegrationType,
        payload: integration.Properties?.PayloadFormatVersion,
      }));

      // Assess
      expect(integrations).toHaveLength(httpFunctions().length);
      for (const integration of integrations) {
        expect(integration).toEqual({ id: integration.id, type: 'AWS_PROXY', payload: '2.0' });
      }
    });
  });

  describe('monitoring (infra/monitoring.yml)', () => {
    const NAMESPACE = `cash-register-${STAGE}`;
    const TABLE = stageTable(STAGE);
    const HTTP_API = { Ref: 'HttpApi' };
    const alarms = () => new Map(resourcesOfType('AWS::CloudWatch::Alarm').map(([id, alarm]) => [id, alarm.Properties ?? {}]));
    /** The metric queries of an alarm built on several (metric math or a Metrics Insights query). */
    const queries = (properties: Record<string, unknown> | undefined) =>
      (properties?.Metrics ?? []) as { Id: string; Expression?: string; MetricStat?: { Metric: unknown; Stat: string } }[];

    it('every function publishes its metrics to the stage namespace and keeps the maintenance switch 15 s', () => {
      // Prepare
      const settings = [...lambdaFunctions()].map(([name, { properties }]) => {
        const variables = (properties.Environment as { Variables?: Record<string, unknown> } | undefined)?.Variables ?? {};
        return [
          name,
          { METRICS_NAMESPACE: variables.METRICS_NAMESPACE, MAINTENANCE_CACHE_SECONDS: variables.MAINTENANCE_CACHE_SECONDS },
        ] as const;
      });

      // Assess
      expect(new Map(settings)).toEqual(
        new Map(functionNames().map((name) => [name, { METRICS_NAMESPACE: NAMESPACE, MAINTENANCE_CACHE_SECONDS: '15' }])),
      );
    });

    it('every alarm notifies the alarm topic when it fires and when it clears', () => {
      // Prepare
      const topics = resourcesOfType('AWS::SNS::Topic').map(([id]) => id);

      // Assess
      expect(topics).toEqual(['AlarmTopic']);
      expect(alarms().size).toBeGreaterThan(0);
      for (const [id, alarm] of alarms()) {
        expect({ id, alarm: alarm.AlarmActions, ok: alarm.OKActions }).toEqual({
          id,
          alarm: [{ Ref: 'AlarmTopic' }],
          ok: [{ Ref: 'AlarmTopic' }],
        });
      }
    });

    it("alarms on the HTTP API's 5xx rate, from its 5xx and request counts", () => {
      // Prepare
      const metrics = queries(alarms().get('ApiServerErrorRateAlarm'));

      // Assess
      expect(metrics.map(({ MetricStat }) => MetricStat && { metric: MetricStat.Metric, stat: MetricStat.Stat })).toEqual([
        {
          metric: { Namespace: 'AWS/ApiGateway', MetricName: '5xx', Dimensions: [{ Name: 'ApiId', Value: HTTP_API }] },
          stat: 'Sum',
        },
        {
          metric: { Namespace: 'AWS/ApiGateway', MetricName: 'Count', Dimensions: [{ Name: 'ApiId', Value: HTTP_API }] },
          stat: 'Sum',
        },
        undefined,
      ]);
      expect(metrics[2]?.Expression).toMatch(/100 \* errors \/ requests/);
    });

    it('alarms on the p99 latency of every API version', () => {
      // Prepare
      const latency = [...alarms().values()]
        .filter((alarm) => alarm.MetricName === 'Latency')
        .map(({ Namespace, Dimensions, ExtendedStatistic }) => ({ Namespace, Dimensions, ExtendedStatistic }));

      // Assess
      expect(latency).toEqual(
        API_VERSIONS.map((version) => ({
          Namespace: NAMESPACE,
          Dimensions: [{ Name: 'version', Value: `v${version}` }],
          ExtendedStatistic: 'p99',
        })),
      );
    });

    it('alarms on throttles (Lambda, the table), the unavailability of control units and DynamoDB system errors', () => {
      // Prepare
      const byId = alarms();
      const pick = (id: string) => {
        const { Namespace, MetricName, Dimensions, Statistic } = byId.get(id) ?? {};
        return { Namespace, MetricName, Dimensions, Statistic };
      };

      // Assess
      expect(pick('LambdaThrottlesAlarm')).toEqual({
        Namespace: 'AWS/Lambda',
        MetricName: 'Throttles',
        Dimensions: undefined,
        Statistic: 'Sum',
      });
      expect(pick('KdUnavailableAlarm')).toEqual({
        Namespace: NAMESPACE,
        MetricName: 'KdOutcome',
        Dimensions: [{ Name: 'outcome', Value: 'ControlUnitUnavailable' }],
        Statistic: 'Sum',
      });
      expect(queries(byId.get('TableThrottlesAlarm')).map(({ Expression }) => Expression)).toEqual([
        `SELECT SUM(ThrottledRequests) FROM SCHEMA("AWS/DynamoDB", Operation, TableName) WHERE TableName = '${TABLE}'`,
      ]);
      expect(queries(byId.get('TableSystemErrorsAlarm')).map(({ Expression }) => Expression)).toEqual([
        `SELECT SUM(SystemErrors) FROM SCHEMA("AWS/DynamoDB", Operation, TableName) WHERE TableName = '${TABLE}'`,
      ]);
      // An operator paged for throttles learns from the alarm itself that a hot key is the likely cause, and where to look.
      expect(byId.get('TableThrottlesAlarm')?.AlarmDescription).toMatch(/KeyRangeThroughputExceeded.*Contributor Insights/s);
    });

    it('has one dashboard, valid JSON, showing every metric an alarm watches', () => {
      // Prepare: the body is joined around the HTTP API's id.
      const dashboards = resourcesOfType('AWS::CloudWatch::Dashboard');
      const parts = (dashboards[0]?.[1].Properties?.DashboardBody as { 'Fn::Join': [string, unknown[]] })['Fn::Join'][1];
      const text = parts
        .map((part) => (JSON.stringify(part) === JSON.stringify(HTTP_API) ? 'HTTP_API_ID' : String(part)))
        .join('');
      const body = JSON.parse(text) as { widgets: { properties: { metrics: unknown[] } }[] };
      const shown = JSON.stringify(body.widgets.map((widget) => widget.properties.metrics));
      const watched = [...alarms().values()].flatMap((alarm) => [
        String(alarm.MetricName ?? ''),
        ...queries(alarm).map((query) => (query.MetricStat?.Metric as { MetricName?: string } | undefined)?.MetricName ?? ''),
        ...queries(alarm).flatMap((query) => /SUM\((\w+)\)/.exec(query.Expression ?? '')?.[1] ?? []),
      ]);

      // Assess
      expect(dashboards).toHaveLength(1);
      expect(body.widgets.length).toBeGreaterThan(0);
      expect(shown).toContain('"ApiId","HTTP_API_ID"');
      expect(shown).toContain(NAMESPACE);
      for (const metric of new Set(watched.filter(Boolean)))
        expect({ metric, shown: shown.includes(metric) }).toEqual({ metric, shown: true });
    });
  });

  describe('deployment zips', () => {
    it.each(functionNames())(
      '%s.zip holds its own built files (handler.mjs, its chunks, their maps) and nothing of the other functions or node_modules',
      (name) => {
        // Prepare
        const built = readdirSync(functionDir(name), { recursive: true, withFileTypes: true })
          .filter((entry) => entry.isFile())
          .map((entry) => relative(root, join(entry.parentPath, entry.name)));

        // Act
        const entries = zipEntries(functionZip(name));

        // Assess
        expect(entries).toContain(`.build/${name}/handler.mjs`);
        expect(entries.filter((entry) => !entry.endsWith('/')).sort()).toEqual(built.sort());
      },
    );

    it.each(functionNames())('%s.zip holds every module its handler imports, at Init or lazily', (name) => {
      // Prepare
      const entries = new Set(zipEntries(functionZip(name)));
      const modules = [...entries].filter((entry) => entry.endsWith('.mjs'));

      // Act: the relative specifiers of static imports (`from"./x.mjs"`) and import() calls, resolved; an
      // isolated SDK's `#sdk/<module>` through the function folder's package.json, as Node resolves it.
      const sdkTarget = (module: string) => {
        const manifest = `.build/${name}/package.json`;
        expect(entries).toContain(manifest);
        const { imports } = JSON.parse(readFileSync(join(root, manifest), 'utf8')) as { imports: Record<string, string> };
        return relative(root, join(root, '.build', name, (imports['#sdk/*'] ?? '').replace('*', module)));
      };
      const imported = modules.flatMap((module) =>
        [...readFileSync(join(root, module), 'utf8').matchAll(/(?:from|import\()\s*"(\.\.?\/[^"]+|#sdk\/[a-z0-9-]+)"/g)].map(
          ([, specifier = '']) =>
            specifier.startsWith('#sdk/')
              ? sdkTarget(specifier.slice('#sdk/'.length))
              : relative(root, join(root, dirname(module), specifier)),
        ),
      );

      // Assess
      expect(imported.length).toBeGreaterThan(0);
      expect(imported.filter((module) => !entries.has(module))).toEqual([]);
    });
  });
});
