import { systemClock } from '../../shared/ports/clock';
import {
  configFromEnvironment,
  corsFromEnvironment,
  mailerFromEnvironment,
  storeFromEnvironment,
} from '../../shared/runtime/dependencies';
import { authEnvironment, parseEnvironment } from '../../shared/runtime/environment';
import { createHandler } from './handler';

const environment = parseEnvironment(authEnvironment());

export const handler = createHandler({
  cors: corsFromEnvironment(environment),
  store: storeFromEnvironment(environment),
  clock: systemClock,
  mailer: mailerFromEnvironment(environment),
  config: configFromEnvironment(environment),
});
