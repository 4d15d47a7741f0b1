import { limitOperations } from '../../shared/handlers/limit-operations';
import { createFamilyHandler } from '../../shared/http/family-handler';
import { systemClock } from '../../shared/ports/clock';
import { resetQueueFromEnvironment, storeFromEnvironment, type Ports } from '../../shared/runtime/dependencies';
import { bulkBannerLimits, bulkCampaignLimits } from './bulk-reads';

export const createHandler = (dependencies: Ports<'store' | 'clock' | 'resetQueue'>) =>
  createFamilyHandler(
    'demand-limits',
    {
      ...limitOperations(dependencies),
      'limits.bulkCampaigns': bulkCampaignLimits(dependencies),
      'limits.bulkBanners': bulkBannerLimits(dependencies),
    },
    dependencies,
  );

export const handler = createHandler({
  store: storeFromEnvironment(),
  clock: systemClock,
  resetQueue: resetQueueFromEnvironment(),
});
