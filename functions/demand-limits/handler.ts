import { limitOperations } from '../../shared/handlers/limit-operations';
import { createFamilyHandler } from '../../shared/http/family-handler';
import { dependenciesFromEnvironment, type Dependencies } from '../../shared/runtime/dependencies';
import { bulkBannerLimits, bulkCampaignLimits } from './bulk-reads';

export const createHandler = (dependencies: Dependencies) =>
  createFamilyHandler(
    'demand-limits',
    {
      ...limitOperations(dependencies),
      'limits.bulkCampaigns': bulkCampaignLimits(dependencies),
      'limits.bulkBanners': bulkBannerLimits(dependencies),
    },
    dependencies,
  );

export const handler = createHandler(dependenciesFromEnvironment());
