import { afterEach, describe, expect, it, vi } from 'vitest';
import { waitUntilReady } from '../../../infra/local/dynamodb-local';

const ENDPOINT = 'http://127.0.0.1:8000';

/** A stand-in for DynamoDB Local's port: answers `statuses` in turn, the last one from then on. */
const answering = (statuses: number[]) => {
  const requests: { url: string; init: RequestInit }[] = [];
  vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
    const status = statuses[Math.min(requests.length, statuses.length - 1)]!;
    requests.push({ url, init });
    return new Response(status === 200 ? '{"TableNames":[]}' : '{"message":"starting"}', { status });
  });
  return requests;
};

const started = ({
  exitCode = null,
  output = () => '',
  timeoutMs = 5000,
}: { exitCode?: number | null; output?: () => string; timeoutMs?: number } = {}) => ({
  child: { exitCode },
  output,
  timeoutMs,
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("waiting for DynamoDB Local's answer", () => {
  it('asks ListTables, naming an access key and a region, until the answer is a success', async () => {
    const requests = answering([500, 500, 200]);
    await waitUntilReady(ENDPOINT, started());
    expect(requests).toHaveLength(3);
    const { url, init } = requests[0]!;
    expect(url).toBe(ENDPOINT);
    expect(init.method).toBe('POST');
    expect(init.body).toBe('{"Limit":1}');
    expect(init.headers).toMatchObject({
      'content-type': 'application/x-amz-json-1.0',
      'x-amz-target': 'DynamoDB_20120810.ListTables',
      authorization: expect.stringMatching(/^AWS4-HMAC-SHA256 Credential=local\/\d{8}\/us-east-1\/dynamodb\//),
    });
  });

  it('gives up after its time, with the last refusal and what the JVM printed', async () => {
    answering([400]);
    await expect(waitUntilReady(ENDPOINT, started({ timeoutMs: 150, output: () => 'jvm said' }))).rejects.toThrow(
      /did not answer within 150 ms: 400 \{"message":"starting"\} jvm said/,
    );
  });

  it('fails at once, without a request, when the JVM has exited', async () => {
    const requests = answering([200]);
    await expect(waitUntilReady(ENDPOINT, started({ exitCode: 1, output: () => 'port in use' }))).rejects.toThrow(
      'DynamoDB Local exited with code 1: port in use',
    );
    expect(requests).toEqual([]);
  });
});
