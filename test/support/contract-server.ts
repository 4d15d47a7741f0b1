import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ContractBreach } from './response-contract';
import type { Exchange, Verdict } from './request-contract';

/** An exchange as it crosses from a test worker to the contract server: the URL as text. */
export type SentExchange = Omit<Exchange, 'url'> & { url: string };

/** What the contract server finds in a batch of exchanges: our own reading's breaches, and Prism's verdicts. */
export interface Judgement {
  breaches: ContractBreach[];
  verdicts: Verdict[];
}

let checkers: Promise<[typeof import('./response-contract'), typeof import('./request-contract')]> | undefined;
const loadCheckers = () => (checkers ??= Promise.all([import('./response-contract'), import('./request-contract')]));

const judge = async (sent: SentExchange[]): Promise<Judgement> => {
  const [{ checkAnswer }, { judgeExchange }] = await loadCheckers();
  const judgement: Judgement = { breaches: [], verdicts: [] };
  for (const { url: text, ...fields } of sent) {
    const exchange = { ...fields, url: new URL(text) };
    const { method, url, status, responseHeaders, responseBody } = exchange;
    const breach = checkAnswer(method, url, status, responseHeaders['content-type'] ?? '', responseBody);
    if (breach) judgement.breaches.push(breach);
    const verdict = await judgeExchange(exchange);
    if (verdict) judgement.verdicts.push(verdict);
    // the server shares its thread with the test runner, which must keep answering the workers meanwhile
    await new Promise((resume) => setImmediate(resume));
  }
  return judgement;
};

const bodyOf = async (request: IncomingMessage): Promise<string> => {
  let text = '';
  for await (const chunk of request) text += String(chunk);
  return text;
};

/**
 * The contract check's one copy of the OpenAPI document, of its Ajv validators and of Prism's operations, for the
 * whole run: the test workers send it each test's exchanges (`contract-setup.ts`) and fail on what it finds.
 */
export const startContractServer = async (): Promise<{
  url: string;
  /** Settles once the validators are built; the first batch waits for them anyway. */
  loaded: Promise<unknown>;
  stop: () => Promise<void>;
}> => {
  // built while the test files load, so that the first test to finish does not wait for them
  const loaded = loadCheckers();
  loaded.catch(() => undefined);
  const server: Server = createServer((request, response) => {
    bodyOf(request)
      .then((text) => judge(JSON.parse(text) as SentExchange[]))
      .then(
        (judgement) => response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(judgement)),
        (error: unknown) =>
          response.writeHead(500).end(error instanceof Error ? (error.stack ?? error.message) : String(error)),
      );
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    loaded,
    stop: () =>
      new Promise<void>((closed) => {
        server.close(() => closed());
        server.closeAllConnections();
      }),
  };
};
