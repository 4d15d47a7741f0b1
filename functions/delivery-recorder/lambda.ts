import { systemClock } from '../../shared/ports/clock';
import { deadLettersFromEnvironment, storeFromEnvironment } from '../../shared/runtime/dependencies';
import { deliveryRecorderEnvironment, parseEnvironment } from '../../shared/runtime/environment';
import { createHandler, recorderOptionsFromEnvironment } from './handler';

const environment = parseEnvironment(deliveryRecorderEnvironment());

export const handler = createHandler(
  {
    store: storeFromEnvironment(environment),
    clock: systemClock,
    deadLetters: deadLettersFromEnvironment(environment),
  },
  recorderOptionsFromEnvironment(environment),
);
