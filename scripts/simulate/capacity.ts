import { SettingError } from '../../infra/cdk/app';
import { quotaChecklistOf } from './quotas';

try {
  console.log(quotaChecklistOf(process.argv.slice(2)));
} catch (error) {
  if (!(error instanceof SettingError)) throw error;
  console.error(error.message);
  process.exit(1);
}
