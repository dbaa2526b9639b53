// biome-ignore-all lint/suspicious/noTemplateCurlyInString: BPMN expressions are written ${…}, not template literals
/**
 * The expression language of conditions and task attributes in the shipped and uploaded BPMN: the
 * small part of JUEL that Flowable models use (`${days > 3}`, `${pass}`, `${!pass}`,
 * `${taskUser}`, `${a == 'x' && b <= 2}`). Evaluated by a parser of our own rather than a script
 * engine so an uploaded file can never run code on the server.
 */

export type Value = string | number | boolean | null | undefined | readonly unknown[];
type Vars = Readonly<Record<string, unknown>>;

const EXPRESSION = /^\s*\$\{([\s\S]*)\}\s*$/;
const MAX_LENGTH = 500;

export const isExpression = (text: unknown): text is string =>
  typeof text === "string" && EXPRESSION.test(text);

/** The value of `${…}` over the variables; text without `${…}` is its own value. */
export function evaluate(text: string, variables: Vars): unknown {
  const match = EXPRESSION.exec(text);
  if (!match) return text;
  const body = match[1]!;
  if (body.length > MAX_LENGTH) throw new ExpressionError(`表达式过长: ${text.slice(0, 40)}…`);
  const parser = new Parser(tokenize(body), variables);
  const value = parser.expression();
  parser.end();
  return value;
}

/** Whether a condition holds; a condition that cannot be read is a modelling error. */
export const holds = (text: string, variables: Vars): boolean => truthy(evaluate(text, variables));

export class ExpressionError extends Error {}

const truthy = (value: unknown) => value === true || value === "true";

type Token =
  | { kind: "num"; value: number }
  | { kind: "str"; value: string }
  | { kind: "op" | "id"; value: string };

const OPERATORS = ["&&", "||", "==", "!=", ">=", "<=", ">", "<", "!", "(", ")"];
const WORD_OPERATORS: Record<string, string> = {
  and: "&&",
  or: "||",
  not: "!",
  eq: "==",
  ne: "!=",
  gt: ">",
  lt: "<",
  ge: ">=",
  le: "<=",
};

function tokenize(body: string): Token[] {
  const tokens: Token[] = [];
  let at = 0;
  while (at < body.length) {
    const rest = body.slice(at);
    const space = /^\s+/.exec(rest);
    if (space) {
      at += space[0].length;
      continue;
    }
    const number = /^\d+(\.\d+)?/.exec(rest);
    if (number) {
      tokens.push({ kind: "num", value: Number(number[0]) });
      at += number[0].length;
      continue;
    }
    const quote = rest[0];
    if (quote === "'" || quote === '"') {
      const end = rest.indexOf(quote, 1);
      if (end < 0) throw new ExpressionError(`字符串未结束: ${body}`);
      tokens.push({ kind: "str", value: rest.slice(1, end) });
      at += end + 1;
      continue;
    }
    const word = /^[A-Za-z_][\w.]*/.exec(rest);
    if (word) {
      const op = Object.hasOwn(WORD_OPERATORS, word[0]) ? WORD_OPERATORS[word[0]] : undefined;
      tokens.push(op ? { kind: "op", value: op } : { kind: "id", value: word[0] });
      at += word[0].length;
      continue;
    }
    const op = OPERATORS.find((o) => rest.startsWith(o));
    if (!op) throw new ExpressionError(`无法识别的表达式: ${body}`);
    tokens.push({ kind: "op", value: op });
    at += op.length;
  }
  return tokens;
}

class Parser {
  private at = 0;
  constructor(
    private readonly tokens: Token[],
    private readonly variables: Vars,
  ) {}

  end() {
    if (this.at < this.tokens.length) throw new ExpressionError("表达式末尾有多余内容");
  }

  expression(): unknown {
    let left = this.and();
    while (this.take("||")) {
      const right = this.and();
      left = truthy(left) || truthy(right);
    }
    return left;
  }

  private and(): unknown {
    let left = this.comparison();
    while (this.take("&&")) {
      const right = this.comparison();
      left = truthy(left) && truthy(right);
    }
    return left;
  }

  private comparison(): unknown {
    const left = this.unary();
    for (const op of ["==", "!=", ">=", "<=", ">", "<"]) {
      if (this.take(op)) return compare(op, left, this.unary());
    }
    return left;
  }

  private unary(): unknown {
    if (this.take("!")) return !truthy(this.unary());
    if (this.take("(")) {
      const inner = this.expression();
      if (!this.take(")")) throw new ExpressionError("缺少右括号");
      return inner;
    }
    const token = this.tokens[this.at++];
    if (!token) throw new ExpressionError("表达式不完整");
    if (token.kind === "num" || token.kind === "str") return token.value;
    if (token.kind === "op") throw new ExpressionError(`意外的运算符 ${token.value}`);
    if (token.value === "true") return true;
    if (token.value === "false") return false;
    if (token.value === "null") return null;
    // Models written for the engine's own syntax name variables as environment.variables.x.
    const name = token.value.replace(/^environment\.variables\./, "");
    return Object.hasOwn(this.variables, name) ? this.variables[name] : undefined;
  }

  private take(op: string): boolean {
    const token = this.tokens[this.at];
    if (token?.kind === "op" && token.value === op) {
      this.at++;
      return true;
    }
    return false;
  }
}

function compare(op: string, left: unknown, right: unknown): boolean {
  // Form values arrive as text: compare as numbers whenever both sides read as numbers.
  const l = asNumber(left);
  const r = asNumber(right);
  const numeric = l !== undefined && r !== undefined;
  const a = numeric ? l : String(left);
  const b = numeric ? r : String(right);
  switch (op) {
    case "==":
      return numeric ? a === b : left === right || (left != null && right != null && a === b);
    case "!=":
      return !compare("==", left, right);
    case ">":
      return a > b;
    case "<":
      return a < b;
    case ">=":
      return a >= b;
    default:
      return a <= b;
  }
}

function asNumber(value: unknown): number | undefined {
  if (typeof value === "number" && Number.isFinite(value)) return value;
  if (typeof value === "string" && /^-?\d+(\.\d+)?$/.test(value.trim())) return Number(value);
  return undefined;
}
