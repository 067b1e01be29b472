/**
 * Just enough of the AWS IoT SQL (version 2016-03-23) to run the kd rules of infra/iot.yml on a message, so
 * the template test checks the items they write against shared/kd/protocol.ts instead of comparing text:
 * `SELECT *, <expr> AS <name>, ... FROM '<topic filter>' [WHERE <expr> = <expr> AND ...]`, with string and
 * number literals, payload attributes, `+ - * /`, `concat`, `topic(n)`, `timestamp()`, `floor` and
 * `isUndefined`. Anything else fails loudly: a rule using it needs this file extended first.
 */

type Value = string | number | boolean | null | undefined | Record<string, unknown> | unknown[];

type Expr =
  | { kind: 'literal'; value: string | number }
  | { kind: 'attribute'; name: string }
  | { kind: 'call'; name: string; args: Expr[] }
  | { kind: 'binary'; op: string; left: Expr; right: Expr };

export interface RuleSql {
  /** The filter of FROM, e.g. `cu/+/kd/reply`. */
  from: string;
  selectAll: boolean;
  fields: { name: string; expr: Expr }[];
  /** Conditions joined by AND; each an equality or a boolean function. */
  where: Expr[];
}

const TOKEN = /\s*(?:('(?:[^']|'')*')|(\d+(?:\.\d+)?)|([A-Za-z_][A-Za-z0-9_]*)|([(),*+\-/=]))/y;

function tokenize(sql: string): string[] {
  const tokens: string[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < sql.trimEnd().length) {
    const match = TOKEN.exec(sql);
    if (!match) throw new Error(`iot-sql: cannot read ${sql.slice(TOKEN.lastIndex)}`);
    tokens.push(match[1] ?? match[2] ?? match[3] ?? match[4] ?? '');
  }
  return tokens;
}

export function parseRuleSql(sql: string): RuleSql {
  const tokens = tokenize(sql);
  let at = 0;
  const peek = () => tokens[at];
  const next = () => tokens[at++] ?? '';
  const keyword = (word: string) => peek()?.toUpperCase() === word;
  const expect = (token: string) => {
    const found = next();
    if (found.toUpperCase() !== token) throw new Error(`iot-sql: expected ${token}, found ${found}`);
  };
  const unquote = (token: string) => token.slice(1, -1).replaceAll("''", "'");

  function factor(): Expr {
    const token = next();
    if (token.startsWith("'")) return { kind: 'literal', value: unquote(token) };
    if (/^\d/.test(token)) return { kind: 'literal', value: Number(token) };
    if (token === '(') {
      const inner = sum();
      expect(')');
      return inner;
    }
    if (!/^[A-Za-z_]/.test(token)) throw new Error(`iot-sql: unexpected ${token}`);
    if (peek() !== '(') return { kind: 'attribute', name: token };
    next();
    const args: Expr[] = [];
    while (peek() !== ')') {
      args.push(sum());
      if (peek() === ',') next();
    }
    next();
    return { kind: 'call', name: token, args };
  }
  function product(): Expr {
    let left = factor();
    while (peek() === '*' || peek() === '/') left = { kind: 'binary', op: next(), left, right: factor() };
    return left;
  }
  function sum(): Expr {
    let left = product();
    while (peek() === '+' || peek() === '-') left = { kind: 'binary', op: next(), left, right: product() };
    return left;
  }
  function condition(): Expr {
    const left = sum();
    if (peek() !== '=') return left;
    next();
    return { kind: 'binary', op: '=', left, right: sum() };
  }

  expect('SELECT');
  let selectAll = false;
  const fields: RuleSql['fields'] = [];
  for (;;) {
    if (peek() === '*') {
      next();
      selectAll = true;
    } else {
      const expr = sum();
      expect('AS');
      fields.push({ name: next(), expr });
    }
    if (peek() !== ',') break;
    next();
  }
  expect('FROM');
  const from = unquote(next());
  const where: Expr[] = [];
  if (keyword('WHERE')) {
    next();
    where.push(condition());
    while (keyword('AND')) {
      next();
      where.push(condition());
    }
  }
  if (at !== tokens.length) throw new Error(`iot-sql: unexpected ${tokens.slice(at).join(' ')}`);
  return { from, selectAll, fields, where };
}

const matches = (filter: string, topic: string) => {
  const levels = topic.split('/');
  const wanted = filter.split('/');
  return wanted.length === levels.length && wanted.every((level, index) => level === '+' || level === levels[index]);
};

/**
 * What the rule writes for a message published on `topic` at `nowMs`: the item (SELECT's output), or
 * undefined when the rule does not fire (another topic, or WHERE false).
 */
export function runRule(
  rule: RuleSql,
  topic: string,
  payload: Record<string, unknown>,
  nowMs: number,
): Record<string, unknown> | undefined {
  if (!matches(rule.from, topic)) return undefined;
  const evaluate = (expr: Expr): Value => {
    switch (expr.kind) {
      case 'literal':
        return expr.value;
      case 'attribute':
        return payload[expr.name] as Value;
      case 'binary': {
        const left = evaluate(expr.left);
        const right = evaluate(expr.right);
        if (expr.op === '=') return left === right;
        if (typeof left !== 'number' || typeof right !== 'number') throw new Error(`iot-sql: ${expr.op} of non-numbers`);
        return expr.op === '+' ? left + right : expr.op === '-' ? left - right : expr.op === '*' ? left * right : left / right;
      }
      case 'call':
        return call(expr.name, expr.args.map(evaluate));
    }
  };
  const call = (name: string, args: Value[]): Value => {
    switch (name.toLowerCase()) {
      case 'concat':
        return args.map(String).join('');
      case 'topic':
        return args.length === 0 ? topic : topic.split('/')[Number(args[0]) - 1];
      case 'timestamp':
        return nowMs;
      case 'floor':
        return Math.floor(Number(args[0]));
      case 'isundefined':
        return args[0] === undefined;
      default:
        throw new Error(`iot-sql: function ${name} is not modelled`);
    }
  };
  if (!rule.where.every((condition) => evaluate(condition) === true)) return undefined;
  const item: Record<string, unknown> = rule.selectAll ? { ...payload } : {};
  for (const { name, expr } of rule.fields) item[name] = evaluate(expr);
  return item;
}
