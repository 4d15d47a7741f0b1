/** The runbook section (`docs/operations.md`) of each kind of alarm: its heading, as GitHub anchors it. */
export const RUNBOOK_SECTIONS = [
  'api5xxrate',
  'authorizerfailures',
  'functionerrors',
  'backgroundfunctionerrors',
  'functionthrottles',
  'queuedresetsdlqarrivals',
  'deliveryeventsdlqarrivals',
  'historyeventsdlqarrivals',
  'hourlyresetflushdlqarrivals',
  'webhookeventsdlqarrivals',
  'webhookdeliveriesdlqarrivals',
  'deliveryeventsage',
  'queuedresetsage',
  'historyeventsage',
  'flushfailures',
  'passwordresetmailfailures',
  'invalidcounterwrites',
  'limitreachedpublishfailures',
  'operationfailures',
] as const;
export type RunbookSection = (typeof RUNBOOK_SECTIONS)[number];
