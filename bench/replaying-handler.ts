import { Readable } from 'node:stream';

interface Answer {
  statusCode: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** The SDK's own request handler (a client's `config.requestHandler`), as far as this one uses it. */
export interface RequestHandler {
  handle(request: never): Promise<{ response: { statusCode: number; headers: Record<string, string>; body: unknown } }>;
}

const responseOf = ({ statusCode, headers, body }: Answer) => ({
  statusCode,
  headers: { ...headers },
  body: Readable.from([body]),
});

/**
 * An SDK request handler that sends to DynamoDB Local and keeps each answer, by operation, while recording; then
 * answers from what it kept, each operation's answers in turn, without I/O, after `waitMs` idle milliseconds if
 * asked. The SDK still builds, signs, sends and parses every request: what a call costs in this process, the engine
 * left out.
 */
export class ReplayingHandler {
  readonly metadata = { handlerProtocol: 'http/1.1' };
  private readonly answers = new Map<string, Answer[]>();
  private readonly next = new Map<string, number>();
  private replaying = false;

  constructor(
    private readonly inner: RequestHandler,
    private readonly waitMs = 0,
  ) {}

  /** Forgets what was kept and records again. */
  record(): void {
    this.replaying = false;
    this.answers.clear();
    this.next.clear();
  }

  replay(): void {
    this.replaying = true;
  }

  async handle(request: { headers: Record<string, string> }) {
    const operation = String(request.headers['x-amz-target']);
    const kept = this.answers.get(operation);
    if (this.replaying && kept) {
      const turn = this.next.get(operation) ?? 0;
      this.next.set(operation, (turn + 1) % kept.length);
      if (this.waitMs > 0) await new Promise((resume) => setTimeout(resume, this.waitMs));
      return { response: responseOf(kept[turn]!) };
    }
    // an operation the recorded call did not make (a warm cache expired) goes to the engine, as recorded
    const { response } = await this.inner.handle(request as never);
    const chunks: Buffer[] = [];
    for await (const chunk of response.body as Readable) chunks.push(chunk as Buffer);
    const answer = { statusCode: response.statusCode, headers: response.headers, body: Buffer.concat(chunks) };
    this.answers.set(operation, [...(kept ?? []), answer]);
    return { response: responseOf(answer) };
  }

  updateHttpClientConfig(): void {}

  httpHandlerConfigs() {
    return {};
  }

  destroy(): void {}
}
