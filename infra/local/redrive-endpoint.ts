import type { APIGatewayProxyResult } from 'aws-lambda';
import { recorderOptionsFromEnvironment } from '../../functions/delivery-recorder/handler';
import { redriveDeadLetters, type DeadLetter } from '../../shared/delivery/redrive';
import { jsonResponse } from '../../shared/http/response';
import type { Dependencies } from '../../shared/runtime/dependencies';
import type { InMemoryDeadLetters } from './in-memory-sinks';

/**
 * `POST /_local/redrive`: replays the dead letters the store refused (those with details), as `npm run redrive`
 * replays the delivery DLQ. Replayed ones leave the list; one refused again is there anew; one not taken
 * everywhere stays for the next call. Dead letters without details (malformed messages) stay, untouched.
 */
export const redriveEndpoint =
  (dependencies: Dependencies, deadLetters: InMemoryDeadLetters, tableStream: { drain(): Promise<void> }) =>
  async (): Promise<APIGatewayProxyResult> => {
    const taken = deadLetters.messages.filter((letter) => letter.details);
    const kept = deadLetters.messages.filter((letter) => !letter.details);
    deadLetters.messages.splice(0, deadLetters.messages.length, ...kept);
    const letters: DeadLetter[] = taken.map(({ body, details }) => ({ body, details: details! }));
    let failed: Set<string>;
    try {
      const outcome = await redriveDeadLetters(dependencies, letters, recorderOptionsFromEnvironment());
      failed = new Set(outcome.failed);
      await tableStream.drain();
      return jsonResponse(200, outcome);
    } catch (error) {
      failed = new Set(letters.map(({ details }) => details.messageId));
      throw error;
    } finally {
      deadLetters.messages.push(...taken.filter((letter) => failed.has(letter.details!.messageId)));
    }
  };
