import {
  eventsFromEnvironment,
  storeFromEnvironment,
  streamDeadLettersFromEnvironment,
} from '../../shared/runtime/dependencies';
import { historyEventsEnvironment, parseEnvironment } from '../../shared/runtime/environment';
import { createHandler } from './handler';

const environment = parseEnvironment(historyEventsEnvironment());

export const handler = createHandler({
  events: eventsFromEnvironment(environment),
  store: storeFromEnvironment(environment),
  deadLetters: streamDeadLettersFromEnvironment(environment),
});
