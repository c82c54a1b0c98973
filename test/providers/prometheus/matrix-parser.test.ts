import { describe, expect, it } from 'vitest';
import { parseQueryRangeAnswer } from '../../../src/providers/prometheus/matrix-parser.js';

interface Seen {
  labels: Record<string, string>;
  times: number[];
  values: number[];
}

function parse(text: string): { answer: ReturnType<typeof parseQueryRangeAnswer>; seen: Seen[] } {
  const seen: Seen[] = [];
  const answer = parseQueryRangeAnswer(new TextEncoder().encode(text), (labels, times, values, count) => {
    seen.push({ labels: { ...labels }, times: [...times.subarray(0, count)], values: [...values.subarray(0, count)] });
  });
  return { answer, seen };
}

describe('parseQueryRangeAnswer', () => {
  it('reads a matrix answer as Prometheus writes it', () => {
    const { answer, seen } = parse(
      '{"status":"success","data":{"resultType":"matrix","result":[' +
        '{"metric":{"Hostname":"h1","gpu":"0"},"values":[[1435781430.781,"1"],[1435781445.781,"0.5"]]},' +
        '{"metric":{"Hostname":"h2","gpu":"1"},"values":[[1435781430,"15109"]]}]}}',
    );
    expect(answer).toEqual({ status: 'success', resultType: 'matrix', series: 2 });
    expect(seen).toEqual([
      { labels: { Hostname: 'h1', gpu: '0' }, times: [1435781430.781, 1435781445.781], values: [1, 0.5] },
      { labels: { Hostname: 'h2', gpu: '1' }, times: [1435781430], values: [15109] },
    ]);
  });

  it('copes with whitespace, key order, escapes, unicode, extra keys and special values', () => {
    const { answer, seen } = parse(`{
      "data": { "result": [ {
          "values": [ [ 1700000000 , "NaN" ], [1700000060, "+Inf"], [1700000120,"-Inf"], [1700000180,"3e-06"],
                      [1700000240,"-12.25"], [1700000300,"123456789012345678"] ],
          "histograms": [[1700000000, {"count": "1", "buckets": [[0, "1", "2", "3"]]}]],
          "metric": { "pod": "ray-\\"x\\"", "modelName": "NVIDIA H100 80GB HBM3 \u00e9", "gpu": "0" }
        } ], "resultType": "matrix" },
      "warnings": ["partial response"],
      "status": "success"
    }`);
    expect(answer).toEqual({ status: 'success', resultType: 'matrix', series: 1 });
    expect(seen[0]!.labels).toEqual({ pod: 'ray-"x"', modelName: 'NVIDIA H100 80GB HBM3 é', gpu: '0' });
    expect(seen[0]!.times).toEqual([1700000000, 1700000060, 1700000120, 1700000180, 1700000240, 1700000300]);
    expect(seen[0]!.values).toEqual([Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 3e-6, -12.25, 123456789012345678]);
  });

  it('reads decimals exactly as Number() does', () => {
    const samples = ['0.1', '99.99', '8.969000', '0.000008', '1435781430.781', '70.000000', '12345.6789012345'];
    const { seen } = parse(
      `{"status":"success","data":{"resultType":"matrix","result":[{"metric":{},"values":[${samples.map((s, i) => `[${i},"${s}"]`).join(',')}]}]}}`,
    );
    expect(seen[0]!.values).toEqual(samples.map(Number));
  });

  it('grows its buffers for long series', () => {
    const n = 5000;
    const values = Array.from({ length: n }, (_, i) => `[${1700000000 + i * 60},"${i}"]`).join(',');
    const { seen } = parse(
      `{"status":"success","data":{"resultType":"matrix","result":[{"metric":{"gpu":"0"},"values":[${values}]},{"metric":{"gpu":"1"},"values":[]}]}}`,
    );
    expect(seen[0]!.values).toHaveLength(n);
    expect(seen[0]!.values[n - 1]).toBe(n - 1);
    expect(seen[0]!.times[n - 1]).toBe(1700000000 + (n - 1) * 60);
    expect(seen[1]!.values).toEqual([]);
  });

  it('returns error answers', () => {
    const { answer, seen } = parse('{"status":"error","errorType":"bad_data","error":"invalid parameter \\"query\\": parse error"}');
    expect(answer).toEqual({ status: 'error', errorType: 'bad_data', error: 'invalid parameter "query": parse error' });
    expect(seen).toEqual([]);
  });

  it.each([
    ['<html>502 Bad Gateway</html>'],
    ['{"status":"success","data":{"result":[{"metric":{},"values":[[1,"x"]]}]}}'],
    ['{"status":"success","data":{"result":[{"metric":{},"values":[[1,"1"]]}]}'],
    ['{"data":{"result":[]}}'],
    [''],
  ])('rejects what is not a query answer: %s', (text) => {
    expect(() => parse(text)).toThrow(SyntaxError);
  });
});
