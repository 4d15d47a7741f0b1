import { limitOperations } from '../../shared/handlers/limit-operations';
import { createFamilyHandler } from '../../shared/pipeline/family-handler';
import type { Ports } from '../../shared/runtime/dependencies';
import { bulkBannerLimits, bulkCampaignLimits } from '../../shared/handlers/bulk-reads';

export const createHandler = (dependencies: Ports<'store' | 'clock' | 'resetQueue'> & Partial<Ports<'cors'>>) =>
  createFamilyHandler(
    'demand-limits',
    {
      ...limitOperations(dependencies),
      'limits.bulkCampaigns': bulkCampaignLimits(dependencies),
      'limits.bulkBanners': bulkBannerLimits(dependencies),
    },
    dependencies,
  );
