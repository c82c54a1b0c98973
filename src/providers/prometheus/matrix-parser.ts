/**
 * Reads a Prometheus query_range answer straight from the response bytes. Answers for a thousand
 * GPUs over days hold millions of `[time, "value"]` pairs; JSON.parse would build an array and a
 * string for each. This scanner writes each series' samples into two reused Float64Arrays and
 * hands them to a sink, so nothing per sample outlives the scan (and no string of the whole body
 * is ever made, which would hit V8's string length limit first).
 */

/** Receives one series. `times` and `values` are reused for the next series: copy what you keep. */
export type MatrixSink = (labels: Readonly<Record<string, string>>, times: Float64Array, values: Float64Array, count: number) => void;

export type PrometheusAnswer =
  | { status: 'success'; resultType: string | undefined; series: number }
  | { status: 'error'; errorType: string; error: string };

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const DOT = 0x2e;
const MINUS = 0x2d;
const PLUS = 0x2b;
const ZERO = 0x30;
const NINE = 0x39;

const POW10 = Array.from({ length: 23 }, (_, i) => 10 ** i);
const utf8 = new TextDecoder();

export function parseQueryRangeAnswer(body: Uint8Array, sink: MatrixSink): PrometheusAnswer {
  return new MatrixScanner(body, sink).answer();
}

class MatrixScanner {
  private pos = 0;
  private times = new Float64Array(1024);
  private values = new Float64Array(1024);
  private series = 0;

  constructor(
    private readonly buf: Uint8Array,
    private readonly sink: MatrixSink,
  ) {}

  answer(): PrometheusAnswer {
    let status: string | undefined;
    let errorType = '';
    let error = '';
    let resultType: string | undefined;
    this.object((key) => {
      if (key === 'status') status = this.string();
      else if (key === 'errorType') errorType = this.string();
      else if (key === 'error') error = this.string();
      else if (key === 'data') resultType = this.data();
      else this.skip();
    });
    this.ws();
    if (this.pos !== this.buf.length) this.fail('trailing data');
    if (status === 'success') return { status, resultType, series: this.series };
    if (status === 'error') return { status, errorType, error };
    return this.fail('no "status" field');
  }

  private data(): string | undefined {
    let resultType: string | undefined;
    this.object((key) => {
      if (key === 'resultType') resultType = this.string();
      else if (key === 'result') this.result();
      else this.skip();
    });
    return resultType;
  }

  private result(): void {
    this.expect(OPEN_BRACKET);
    if (this.peek() === CLOSE_BRACKET) {
      this.pos++;
      return;
    }
    for (;;) {
      this.oneSeries();
      if (this.separator(CLOSE_BRACKET)) return;
    }
  }

  private oneSeries(): void {
    let labels: Record<string, string> = {};
    let count = 0;
    this.object((key) => {
      if (key === 'metric') {
        const from = this.ws();
        this.skip();
        labels = JSON.parse(utf8.decode(this.buf.subarray(from, this.pos))) as Record<string, string>;
      } else if (key === 'values') {
        count = this.samples();
      } else {
        this.skip(); // "histograms" (native histograms) and anything newer
      }
    });
    this.series++;
    this.sink(labels, this.times, this.values, count);
  }

  /** `[[1700000000,"0.5"],[1700000060.5,"NaN"], ...]` into the reused arrays. */
  private samples(): number {
    this.expect(OPEN_BRACKET);
    let count = 0;
    if (this.peek() === CLOSE_BRACKET) {
      this.pos++;
      return 0;
    }
    for (;;) {
      this.expect(OPEN_BRACKET);
      this.ws();
      const tFrom = this.pos;
      while (this.pos < this.buf.length && !isDelimiter(this.buf[this.pos]!)) this.pos++;
      const time = this.number(tFrom, this.pos);
      this.expect(COMMA);
      this.expect(QUOTE);
      const vFrom = this.pos;
      while (this.pos < this.buf.length && this.buf[this.pos] !== QUOTE) this.pos++;
      const value = this.number(vFrom, this.pos);
      this.pos++;
      this.expect(CLOSE_BRACKET);
      if (count === this.times.length) this.grow();
      this.times[count] = time;
      this.values[count] = value;
      count++;
      if (this.separator(CLOSE_BRACKET)) return count;
    }
  }

  private grow(): void {
    const times = new Float64Array(this.times.length * 2);
    const values = new Float64Array(this.values.length * 2);
    times.set(this.times);
    values.set(this.values);
    this.times = times;
    this.values = values;
  }

  /**
   * Plain decimals of up to 15 digits (nearly every sample) are read without making a string;
   * the division by an exact power of ten rounds exactly as Number() would. Anything else
   * (exponents, NaN, ±Inf, long mantissas) goes through Number().
   */
  private number(from: number, to: number): number {
    const buf = this.buf;
    let i = from;
    let sign = 1;
    if (buf[i] === MINUS) {
      sign = -1;
      i++;
    } else if (buf[i] === PLUS) i++;
    let mantissa = 0;
    let digits = 0;
    let scale = 0;
    while (i < to && buf[i]! >= ZERO && buf[i]! <= NINE) {
      mantissa = mantissa * 10 + (buf[i]! - ZERO);
      digits++;
      i++;
    }
    if (i < to && buf[i] === DOT) {
      i++;
      while (i < to && buf[i]! >= ZERO && buf[i]! <= NINE) {
        mantissa = mantissa * 10 + (buf[i]! - ZERO);
        digits++;
        scale++;
        i++;
      }
    }
    if (i === to && digits > 0 && digits <= 15) return sign * (scale === 0 ? mantissa : mantissa / POW10[scale]!);
    const text = utf8.decode(buf.subarray(from, to));
    if (text === '+Inf' || text === 'Inf') return Number.POSITIVE_INFINITY;
    if (text === '-Inf') return Number.NEGATIVE_INFINITY;
    if (text === 'NaN') return Number.NaN;
    const parsed = Number(text);
    if (text.trim() === '' || Number.isNaN(parsed)) this.fail(`"${text.slice(0, 40)}" is not a number`, from);
    return parsed;
  }

  /** Calls onKey for each key; onKey must consume exactly the value. */
  private object(onKey: (key: string) => void): void {
    this.expect(OPEN_BRACE);
    if (this.peek() === CLOSE_BRACE) {
      this.pos++;
      return;
    }
    for (;;) {
      const key = this.string();
      this.expect(COLON);
      onKey(key);
      if (this.separator(CLOSE_BRACE)) return;
    }
  }

  /** After a member: true at the closing bracket (consumed), false at a comma (consumed). */
  private separator(close: number): boolean {
    const c = this.peek();
    this.pos++;
    if (c === COMMA) return false;
    if (c === close) return true;
    return this.fail(`expected "," or "${String.fromCharCode(close)}"`, this.pos - 1);
  }

  private string(): string {
    this.expect(QUOTE);
    const from = this.pos;
    let escaped = false;
    while (this.pos < this.buf.length && this.buf[this.pos] !== QUOTE) {
      if (this.buf[this.pos] === BACKSLASH) {
        escaped = true;
        this.pos++;
      }
      this.pos++;
    }
    if (this.pos >= this.buf.length) this.fail('unterminated string', from);
    const to = this.pos++;
    return escaped ? (JSON.parse(utf8.decode(this.buf.subarray(from - 1, to + 1))) as string) : utf8.decode(this.buf.subarray(from, to));
  }

  /** Skips any JSON value. */
  private skip(): void {
    const c = this.peek();
    if (c === QUOTE) {
      this.string();
      return;
    }
    if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      let depth = 0;
      do {
        const b = this.buf[this.pos]!;
        if (b === QUOTE) {
          this.string();
          continue;
        }
        if (b === OPEN_BRACE || b === OPEN_BRACKET) depth++;
        else if (b === CLOSE_BRACE || b === CLOSE_BRACKET) depth--;
        this.pos++;
      } while (depth > 0 && this.pos < this.buf.length);
      if (depth > 0) this.fail('unterminated value');
      return;
    }
    const from = this.pos;
    while (this.pos < this.buf.length && !isDelimiter(this.buf[this.pos]!)) this.pos++;
    if (this.pos === from) this.fail('expected a value');
  }

  private expect(c: number): void {
    if (this.peek() !== c) this.fail(`expected "${String.fromCharCode(c)}"`);
    this.pos++;
  }

  private peek(): number {
    this.ws();
    return this.pos < this.buf.length ? this.buf[this.pos]! : -1;
  }

  /** Skips whitespace; returns the new position. */
  private ws(): number {
    const buf = this.buf;
    while (this.pos < buf.length) {
      const c = buf[this.pos];
      if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) break;
      this.pos++;
    }
    return this.pos;
  }

  private fail(what: string, at: number = this.pos): never {
    throw new SyntaxError(`Not a Prometheus query answer: ${what} at byte ${at}`);
  }
}

function isDelimiter(c: number): boolean {
  return c === COMMA || c === CLOSE_BRACKET || c === CLOSE_BRACE || c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}
